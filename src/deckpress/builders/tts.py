"""The Tabletop Simulator export: build/<deck>/tts/.

    tts/<deck>.json, tts/<deck>.png          the full save and its 256 x 256 thumbnail
    tts/saved-objects/<component>.json/.png  one Saved Object per component
    tts/assets/                              exactly the images the save refers to (what to upload)

Images are referred to as `--asset-url` + file name, or else as file:/// URLs of where the build
folder will be once the build succeeds (ctx.final, not the staging folder).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from ..context import BuildContext
from ..errors import DeckError, Where
from ..inputs import artifact_key
from ..render import DPI
from ..schema import Card, Component
from ..tts import lua, save, sheets

ASSETS = "tts/assets"


class Assets:
    """Writes images into tts/assets/ under content-hashed names and gives their URLs. An image several
    components use (a shared back) is written, and so uploaded, once: under the first name given."""

    def __init__(self, ctx: BuildContext):
        self.ctx = ctx
        options = ctx.deck.model.tts
        self.format, self.quality = options.image_format, options.quality
        base = ctx.options.asset_url
        self.base = (base if base.endswith("/") else base + "/") if base else None
        self.written: dict[str, str] = {}  # sha256 of the bytes -> URL

    def url(self, name: str) -> str:
        if self.base:
            return self.base + name
        return "file:///" + (self.ctx.final / ASSETS / name).resolve().as_posix().lstrip("/")

    def add(self, stem: str, key: str, make: Callable[[], Image.Image]) -> str:
        """The URL of the image `make()` gives, recorded as `stem` made from `key`: taken from the previous
        build when its record is unchanged, else made, encoded and written."""
        records = self.ctx.records
        name = f"{ASSETS}/{stem}"
        key = artifact_key("tts image", key, self.format, self.quality)
        value = records.get(name, key)
        if value is not None:
            digest, file = value["sha256"], sheets.hashed_name_of(stem, value["sha256"], value["extension"])
            if digest in self.written or records.fetch(f"{ASSETS}/{value['file']}", digest, f"{ASSETS}/{file}"):
                records.put(name, key, value)
                self.written.setdefault(digest, self.url(file))
                return self.written[digest]
        data, extension = sheets.encode(make(), self.format, self.quality)
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.written:
            file = sheets.hashed_name(stem, data, extension)
            self.ctx.path(f"{ASSETS}/{file}").write_bytes(data)
            self.written[digest] = self.url(file)
        records.put(name, key, {"sha256": digest, "extension": extension,
                                "file": self.written[digest].rsplit("/", 1)[-1]})
        return self.written[digest]


def _face_path(ctx: BuildContext, relative: str) -> Path:
    return ctx.out / relative


def _trim_size(path: Path, bleed_px: float) -> tuple[int, int]:
    with Image.open(path) as image:
        return (round(image.width - 2 * bleed_px), round(image.height - 2 * bleed_px))


def card_art(ctx: BuildContext, assets: Assets, component: Component, cards: list[Card], first_key: int,
             bleed_px: float) -> save.ComponentArt:
    """Sheets (and backs) of a cards component; CustomDeck keys count up from first_key. A sheet's record
    is the digests of its faces and its grid, so a one-card edit makes one sheet again."""
    art = save.ComponentArt()
    digest = ctx.records.digest
    fronts = [ctx.faces.front(component, card).path for card in cards]
    faces = [_face_path(ctx, rel) for rel in fronts]
    art.faces = {card.id: str(face) for card, face in zip(cards, faces)}
    face_w, face_h = _trim_size(faces[0], bleed_px)
    grids = sheets.plan_sheets(len(cards), face_w, face_h)
    backs = {card.id: ctx.faces.back(component, card) for card in cards}
    back_rels = {cid: (b.path if b else None) for cid, b in backs.items()}
    unique_back = len(set(back_rels.values())) > 1
    shape = save.CARD_SHAPES[component.shape]
    largest = max(grids, key=lambda g: g.card_w * g.card_h)
    shared_back = None
    if not unique_back:
        only = next(iter(back_rels.values()))
        size = (largest.card_w, largest.card_h)
        shared_back = assets.add(f"{component.id}-back", digest_key("back", only and digest(only), size, bleed_px),
                                 lambda: (sheets.load_trimmed(_face_path(ctx, only), bleed_px, size, digest(only))
                                          if only else sheets.plain_card(size)))
    start = 0
    for index, grid in enumerate(grids):
        count = min(grid.slots, len(cards) - start)
        chunk = cards[start:start + count]
        stem = f"{component.id}-sheet{index + 1}" if len(grids) > 1 else f"{component.id}-sheet"
        slot_faces = [(faces[i], digest(fronts[i])) for i in range(start, start + count)]
        face_url = assets.add(stem, digest_key("sheet", [d for _, d in slot_faces], _grid(grid), bleed_px),
                              lambda: sheets.compose(grid, slot_faces, bleed_px))
        if unique_back:
            slot_backs = [(_face_path(ctx, back_rels[card.id]), digest(back_rels[card.id]))
                          if back_rels[card.id] else None for card in chunk]
            back_url = assets.add(stem.replace("-sheet", "-backs"),
                                  digest_key("backs", [b and b[1] for b in slot_backs], _grid(grid), bleed_px),
                                  lambda: sheets.compose(grid, slot_backs, bleed_px))
        else:
            back_url = shared_back
        art.sheets.append(save.SheetEntry(first_key + index, face_url, back_url, grid.columns, grid.rows,
                                          unique_back, shape))
        for slot, card in enumerate(chunk):
            art.slots[card.id] = (index, slot)
        start += count
    return art


def digest_key(*parts) -> str:
    return artifact_key("tts", *parts)


def _grid(grid: sheets.Grid) -> list[int]:
    return [grid.columns, grid.rows, grid.card_w, grid.card_h]


def token_art(ctx: BuildContext, assets: Assets, component: Component, cards: list[Card],
              bleed_px: float) -> save.ComponentArt:
    art = save.ComponentArt()
    digest = ctx.records.digest
    for card in cards:
        rel = ctx.faces.front(component, card).path
        front = _face_path(ctx, rel)
        art.faces[card.id] = str(front)
        size = _trim_size(front, bleed_px)
        front_url = assets.add(f"{component.id}-{card.id}", digest_key("token", digest(rel), size, bleed_px),
                               lambda: sheets.load_trimmed(front, bleed_px, size, digest(rel)))
        back = ctx.faces.back(component, card)
        back_url = front_url
        if back is not None:
            back_url = assets.add(f"{component.id}-{card.id}-back",
                                  digest_key("token", digest(back.path), size, bleed_px),
                                  lambda: sheets.load_trimmed(_face_path(ctx, back.path), bleed_px, size,
                                                              digest(back.path)))
        art.images[card.id] = (front_url, back_url)
    return art


def _lua_plain(value):
    """Free-form YAML data for Lua: null becomes false (Lua lists can't hold nil)."""
    if value is None:
        return False
    if isinstance(value, dict):
        return {k: _lua_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lua_plain(v) for v in value]
    return value


def _players(players) -> dict | None:
    if players is None:
        return None
    return {"min": players.min, "max": players.max}


def lua_data(ctx: BuildContext, seats: list[str], main: Component | None, objects: list[dict],
             engine: str | None) -> dict:
    """DATA of the Global script: what the scripts and rules engines need to know about the deck."""
    model = ctx.deck.model
    guids: dict[tuple[str, str], list[str]] = {}
    for state in objects:
        for obj in [state, *state.get("ContainedObjects", [])]:
            if obj["Name"] in ("Card", "Custom_Tile"):
                notes = obj["GMNotes"]
                component, card = _ids(notes)
                guids.setdefault((component, card), []).append(obj["GUID"])
    components = []
    for component in model.components:
        cards = [{"id": card.id, "name": card.name, "count": card.count,
                  "fields": _lua_plain({k: v for k, v in card.fields().items() if k not in ("id", "name", "count")}),
                  "guids": guids.get((component.id, card.id), [])}
                 for card in component.cards if card.count > 0]
        components.append({"id": component.id, "name": component.name, "type": component.type,
                           "role": component.role, "optional": component.optional, "cards": cards})
    setup = model.setup
    return {
        "deck": ctx.deck.name,
        "game": {"name": model.game.name, "players": _players(model.game.players)},
        "seats": seats,
        "main": main.id if main else None,
        "main_name": main.name if main else None,
        "setup": {"deal": dict(setup.deal), "remove": {k: list(v) for k, v in setup.remove.items()},
                  "options": _lua_plain(setup.options)},
        "modes": [{"id": m.id, "name": m.name, "players": _players(m.players), "options": _lua_plain(m.options)}
                  for m in model.modes],
        "components": components,
        "layout": {"aside": list(save.Layout().aside), "seat_radius": save.SEAT_RADIUS,
                   "home": _home(objects, main)},
        "engine": engine,
    }


def source_date_epoch(ctx: BuildContext) -> int | None:
    """SOURCE_DATE_EPOCH (reproducible-builds.org): the save's date when set."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise DeckError.at(Where(str(ctx.deck.path)), f"SOURCE_DATE_EPOCH is {text!r}; set it to whole seconds "
                           "since 1970 (e.g. 1764576000) or unset it")
    return int(text)


def _home(objects: list[dict], main: Component | None) -> list[float]:
    """Where the main deck lies in the save: where the scripts gather it."""
    for state in objects:
        if main is not None and main.id in state.get("Tags", []):
            t = state["Transform"]
            return [t["posX"], t["posY"], t["posZ"]]
    return [0.0, save.TABLE_Y, 0.0]


def _ids(notes: str) -> tuple[str, str]:
    data = json.loads(notes)
    return data["component"], data["id"]


def _kind(component: Component) -> str:
    if component.type == "tokens":
        return "tokens"
    return "reminder" if component.role == "reminder" else "optional" if component.optional else "play"


def place(ctx: BuildContext, present: list[Component], arts: dict[str, save.ComponentArt],
          guids: save.Guids) -> tuple[Component | None, dict[str, list[dict]]]:
    """The object states of each component, placed on the table (see save.Layout); and the main deck:
    the first play component made of cards."""
    model, layout = ctx.deck.model, save.Layout()
    field_name = model.tts.description_field
    groups = {k: [c for c in present if _kind(c) == k] for k in ("play", "optional", "reminder", "tokens")}
    by_component: dict[str, list[dict]] = {}
    for group, z in (("play", layout.main[1]), ("optional", layout.optional_z)):
        for component, spot in zip(groups[group], layout.row(len(groups[group]), z)):
            by_component[component.id] = [save.deck_state(component, arts[component.id], guids, spot, field_name,
                                                           model.game.name, icons=model.icons)]
    reminder_count = sum(len(save.copies(c)) for c in groups["reminder"])
    x = -(min(reminder_count, 6) - 1) * 2.6 / 2
    for component in groups["reminder"]:
        states = save.loose_cards(component, arts[component.id], guids, (x, layout.reminder_z), field_name,
                                   icons=model.icons)
        by_component[component.id] = states
        x += 2.6 * min(len(states), 6)
    x = -6.0
    for component in groups["tokens"]:
        states = save.token_states(component, arts[component.id], guids, (x, layout.token_z), field_name,
                                    icons=model.icons)
        by_component[component.id] = states
        x += 2.0 * len({s["Nickname"] for s in states}) + 1.5
    return (groups["play"][0] if groups["play"] else None), by_component


def write_thumbnail(ctx: BuildContext, target: str, faces: list[Path], bleed_px: float,
                    made: dict[str, bytes]) -> None:
    """The thumbnail of `faces` (files in the output folder) as `target`, unless its record is unchanged;
    `made` holds the thumbnails this build made, by key (a component's often is the save's)."""
    picked = sheets.thumbnail_faces(faces)
    digests = [ctx.records.digest(p.relative_to(ctx.out).as_posix()) for p in picked]
    key = digest_key("thumbnail", digests, bleed_px)
    if not ctx.records.reuse_file(target, key, target):
        if key not in made:
            made[key] = sheets.thumbnail(picked, bleed_px, digests=digests)
        ctx.path(target).write_bytes(made[key])
        ctx.records.keep(target, key, target)


def build(ctx: BuildContext) -> None:
    deck, model = ctx.deck, ctx.deck.model
    bleed_px = model.bleed * DPI / 25.4
    assets = Assets(ctx)
    guids = save.Guids(deck.name)

    arts: dict[str, save.ComponentArt] = {}
    key = 1
    for component in model.components:
        cards = [c for c in component.cards if c.count > 0]
        if not cards:
            continue
        ctx.progress(f"tts: {component.id}")
        if component.type == "tokens":
            arts[component.id] = token_art(ctx, assets, component, cards, bleed_px)
        else:
            arts[component.id] = card_art(ctx, assets, component, cards, key, bleed_px)
            key += len(arts[component.id].sheets)

    present = [c for c in model.components if c.id in arts]
    main, by_component = place(ctx, present, arts, guids)

    seat_colors = save.seats(model)
    objects = [save.hand_zone(color, i, len(seat_colors), guids(f"hand/{color}"))
               for i, color in enumerate(seat_colors)]
    for component in present:
        objects += by_component[component.id]

    modules = lua.find_modules(deck.path, deck.name)
    engine = f"{deck.name}.engine" if any(m.name == f"{deck.name}.engine" for m in modules) else None
    data = lua_data(ctx, seat_colors, main, objects, engine)
    title = model.game.name
    script = lua.render(deck.path, "global.lua.j2", title=title, data=data, modules=lua.bundle(modules))
    lua.check_sandbox(script, "tts/global.lua.j2 (rendered)")
    xml = lua.render(deck.path, "ui.xml.j2", title=title, deck=deck.name, data=data,
                     seats=[{"color": c, "hex": save.SEAT_HEX[c]} for c in seat_colors])

    epoch = source_date_epoch(ctx) or save.derived_epoch(objects, script, xml)
    state = save.save_envelope(model, objects, script, xml, save.notebook(model), epoch)
    ctx.path(f"tts/{deck.name}.json").write_bytes(save.dump(state))
    all_faces = [Path(p) for c in ([main] if main else present) for p in arts[c.id].faces.values()]
    thumbnails: dict[str, bytes] = {}
    write_thumbnail(ctx, f"tts/{deck.name}.png", all_faces, bleed_px, thumbnails)

    for component in present:
        envelope = save.saved_object_envelope(by_component[component.id])
        ctx.path(f"tts/saved-objects/{component.id}.json").write_bytes(save.dump(envelope))
        faces = [Path(p) for p in arts[component.id].faces.values()]
        write_thumbnail(ctx, f"tts/saved-objects/{component.id}.png", faces, bleed_px, thumbnails)
    ctx.progress(f"tts: {len(objects)} objects, {key - 1} card sheets")
