"""The Tabletop Simulator export: build/<deck>/tts/.

    tts/<deck>.json, tts/<deck>.png          the full save and its 256 x 256 thumbnail
    tts/saved-objects/<component>.json/.png  one Saved Object per component
    tts/saved-objects/<deck>-box.json/.png   the game in a box, for a deck with a table script: a bag of
                                             the components whose own script and UI are the game's
    tts/assets/                              exactly the images the save refers to (what to upload)

Images are referred to as `--asset-url` + file name, or else as file:/// URLs of where the build
folder will be once the build succeeds (ctx.final, not the staging folder).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from ...context import BuildContext
from ...deck import LoadedDeck
from ...errors import DeckError, Where
from ...faces import Cut, Faces, Size, Tile, cut_margins, tile
from ...inputs import artifact_key, file_state
from ...paths import project_root
from ...render import face_pixels, mm_to_px
from ...schema import Card, Component
from ...source import Map, Seq, load_yaml
from ...scripting import contract, runtime
from . import lua, save, sheets, xmlui
from .data import lua_data

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

    def encode(self, image) -> tuple[bytes, str]:
        """A token's image, encoded in the deck's format."""
        return sheets.encode(image, self.format, self.quality)

    def add(self, stem: str, key: str, make: Callable[[], tuple[bytes, str]]) -> str:
        """The URL of the image whose bytes and extension `make()` gives, recorded as `stem` made from `key`:
        taken from the previous build when its record is unchanged, else made and written."""
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
        data, extension = make()
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.written:
            file = sheets.hashed_name(stem, data, extension)
            path = self.ctx.path(f"{ASSETS}/{file}")
            path.write_bytes(data)
            state = file_state(path)
            if state is not None:  # the manifest takes the digest (as Records.keep's): not read again there
                records.hashed[tuple(state)] = digest
            self.written[digest] = self.url(file)
        records.put(name, key, {"sha256": digest, "extension": extension,
                                "file": self.written[digest].rsplit("/", 1)[-1]})
        return self.written[digest]


def _trim(deck: LoadedDeck, component: Component) -> tuple[float, float]:
    """The pixel size of the component's faces cut to the trim."""
    width, height = face_pixels(component.size, deck.model.bleed)
    bleed = mm_to_px(deck.model.bleed)
    return width - 2 * bleed, height - 2 * bleed


def _cards(component: Component) -> list[Card]:
    return [c for c in component.cards if c.count > 0]


@dataclass
class _Sheet:
    """One sheet of a cards component: its grid, its cards and their fronts, and their backs when the
    cards' backs differ (None: the component's one back serves all)."""

    stem: str
    grid: sheets.Grid
    cards: list[Card]
    fronts: list[str]
    backs: list[str | None] | None

    @property
    def size(self) -> Size:
        return (self.grid.card_w, self.grid.card_h)


@dataclass
class _CardsPlan:
    sheets: list[_Sheet]
    back: str | None  # the face path of the back all cards share (None: a plain back), when they share one
    shared: bool
    back_size: Size  # of the shared back: the largest slot


def _plan_cards(deck: LoadedDeck, faces: Faces, component: Component) -> _CardsPlan:
    cards = _cards(component)
    width, height = _trim(deck, component)
    grids = sheets.plan_sheets(len(cards), round(width), round(height),
                               limit=face_pixels(component.size, deck.model.bleed))
    backs = {card.id: faces.back(component, card) for card in cards}
    back_paths = {cid: (b.path if b else None) for cid, b in backs.items()}
    shared = len(set(back_paths.values())) <= 1
    largest = max(grids, key=lambda g: g.card_w * g.card_h)
    plans, start = [], 0
    for index, grid in enumerate(grids):
        chunk = cards[start:start + min(grid.slots, len(cards) - start)]
        stem = f"{component.id}-sheet{index + 1}" if len(grids) > 1 else f"{component.id}-sheet"
        plans.append(_Sheet(stem, grid, chunk, [faces.front(component, c).path for c in chunk],
                            None if shared else [back_paths[c.id] for c in chunk]))
        start += len(chunk)
    return _CardsPlan(plans, next(iter(back_paths.values())) if shared else None, shared,
                      (largest.card_w, largest.card_h))


def _token_size(deck: LoadedDeck, component: Component) -> Size:
    width, height = _trim(deck, component)
    return round(width), round(height)


Shown = list[tuple[str, Size]]  # faces of a thumbnail, each with its size there


def _thumbnail_faces(deck: LoadedDeck, faces: Faces) -> list[tuple[str, Shown]]:
    """Each thumbnail (its target, and the faces it shows): the save's, of its main deck (or of every
    component when there is none), and one per component."""
    present = [c for c in deck.model.components if _cards(c)]
    fronts = {c.id: [(faces.front(c, card).path, sheets.thumbnail_card_size(*_trim(deck, c))) for card in _cards(c)]
              for c in present}
    shown = [c for c in present if _kind(c) == "play"][:1] or present
    out = [(f"tts/{deck.name}.png", sheets.thumbnail_faces([f for c in shown for f in fronts[c.id]]))] if shown else []
    return out + [(f"tts/saved-objects/{c.id}.png", sheets.thumbnail_faces(fronts[c.id])) for c in present]


def check(deck: LoadedDeck) -> None:
    """What the save's build would refuse of the deck's scripted game (Lua that does not compile, an engine
    without the contract's functions, an XmlUI that is not well-formed, a component named like the game's
    box), and what its engine breaks of the contract in a short self-play (scripting/contract.py)."""
    game = deck.model.scripted
    if game is None:
        return
    modules = lua.find_modules(deck.path, game)
    engine = _engine(modules, game)
    runtime.compile_modules(modules, deck.path)
    data = lua_data(deck, save.seats(deck.model), None, [], engine)
    if engine is not None:
        contract.self_play(modules, engine, data, deck.path)
    uis = lua.Templates(deck.path, game)
    check_xml(deck, uis, uis.render("ui.xml.j2", title=deck.model.game.name, script=game.name, data=data, box=False,
                                    seats=_seats(deck.model)))
    if _has_table(modules, game):
        check_box_name(deck)


def _engine(modules: list[lua.Module], game) -> str | None:
    """The module name of the scripted game's engine, when the game has one."""
    name = f"{game.name}.engine" if game is not None else None
    return name if any(m.name == name for m in modules) else None


def _seats(model) -> list[dict]:
    return [{"color": c, "hex": save.SEAT_HEX[c]} for c in save.seats(model)]


def check_xml(deck: LoadedDeck, uis: lua.Templates, xml: str) -> None:
    """The rendered XmlUI is well-formed, or one line at the template that broke it."""
    game = deck.model.scripted
    templates = [uis.file("ui.xml.j2")] + ([game.path / "ui.xml.j2"] if game is not None else [])
    xmlui.check(xml, templates)


def _has_table(modules: list[lua.Module], game) -> bool:
    """Does the deck's game get a box: it has a table script, and the runtime has the box's layer (a
    project's own tts/lib/ from before the box has no lib/box.lua)?"""
    names = {m.name for m in modules}
    return game is not None and f"{game.name}.table" in names and "lib.box" in names


def box_name(deck: LoadedDeck) -> str:
    """The stem of the game's box in tts/saved-objects/."""
    return f"{deck.name}-box"


def check_box_name(deck: LoadedDeck) -> None:
    """Every component's saved object is tts/saved-objects/<component id>.json, beside the box's: a component
    named like the box would overwrite it. One located line."""
    name = box_name(deck)
    if not any(c.id == name for c in deck.model.components):
        return
    raw = load_yaml(deck.path)
    items = raw.get("components") if isinstance(raw, Map) else None
    where = Where(str(deck.path))
    for item in items if isinstance(items, Seq) else []:
        if isinstance(item, Map) and item.get("id") == name:
            where = item.at("id")
    raise DeckError.at(where, f"the component id {name!r} is the name of the game's box "
                              f"(tts/saved-objects/{name}.json); give the component another id")


def tiles(deck: LoadedDeck, faces: Faces) -> dict[str, set[Cut]]:
    """The tiles this builder cuts from faces (face path -> cuts), which the face stage makes: a sheet
    slot of every card's front (and back, where they differ) and the shared back at the largest slot, as
    JPEGs of the sheets' quality when the sheets are JPEGs (spliced: see builders/tts/sheets.py); the tokens at trim
    size, and the cards of the thumbnails."""
    wanted: dict[str, set[Cut]] = {}
    slot_quality = _slot_quality(deck)

    def want(path: str | None, size: Size, quality: int | None = None) -> None:
        if path is not None:
            wanted.setdefault(path, set()).add(Cut(size, quality))

    for component in deck.model.components:
        cards = _cards(component)
        if not cards:
            continue
        if component.type == "tokens":
            size = _token_size(deck, component)
            for card in cards:
                want(faces.front(component, card).path, size)
                back = faces.back(component, card)
                want(back and back.path, size)
            continue
        plan = _plan_cards(deck, faces, component)
        want(plan.back, plan.back_size, slot_quality)
        for sheet in plan.sheets:
            for path in [*sheet.fronts, *(sheet.backs or [])]:
                want(path, sheet.size, slot_quality)
    for _, shown in _thumbnail_faces(deck, faces):
        for path, size in shown:
            want(path, size)
    return wanted


def _slot_quality(deck: LoadedDeck) -> int | None:
    """The quality of the JPEG tiles the sheets are spliced from; None: the sheets are PNGs, composed."""
    options = deck.model.tts
    return options.quality if options.image_format == "jpeg" else None


def _tile(ctx: BuildContext, face: str | None, wanted: Cut | Size) -> Tile | None:
    return tile(ctx.out, ctx.faces.at(face), wanted, ctx.deck.model) if face is not None else None


def _sheet(ctx: BuildContext, grid: sheets.Grid, faces: list[str | None]) -> tuple[bytes, str]:
    """The sheet of `faces` (face paths; None a plain card) on `grid`: a JPEG spliced from their JPEG tiles,
    or a PNG of their tiles' pixels."""
    size, quality = (grid.card_w, grid.card_h), _slot_quality(ctx.deck)
    if quality is None:
        return sheets.encode(sheets.compose(grid, [_tile(ctx, f, size) for f in faces]), "png", 0)
    strips = [None if f is None else _tile(ctx, f, Cut(size, quality)).path.read_bytes() for f in faces]
    return sheets.splice(grid, strips, quality), "jpg"


def card_art(ctx: BuildContext, assets: Assets, component: Component, first_key: int) -> save.ComponentArt:
    """Sheets (and backs) of a cards component; CustomDeck keys count up from first_key. A sheet's record
    is the digests of its faces and its grid, so a one-card edit makes one sheet again."""
    art = save.ComponentArt()
    digest = ctx.records.digest
    plan = _plan_cards(ctx.deck, ctx.faces, component)
    margins = _margins(ctx.deck)
    shape = save.CARD_SHAPES[component.shape]
    shared_back = None
    if plan.shared:
        only, size = plan.back, plan.back_size
        shared_back = assets.add(f"{component.id}-back", digest_key("back", only and digest(only), size, margins),
                                 lambda: _sheet(ctx, sheets.Grid(1, 1, *size), [only]))
    for index, sheet in enumerate(plan.sheets):
        face_url = assets.add(sheet.stem, digest_key("sheet", [digest(f) for f in sheet.fronts], _grid(sheet.grid),
                                                     margins),
                              lambda: _sheet(ctx, sheet.grid, sheet.fronts))
        back_url = shared_back
        if sheet.backs is not None:
            back_url = assets.add(sheet.stem.replace("-sheet", "-backs"),
                                  digest_key("backs", [b and digest(b) for b in sheet.backs], _grid(sheet.grid),
                                             margins),
                                  lambda: _sheet(ctx, sheet.grid, sheet.backs))
        art.sheets.append(save.SheetEntry(first_key + index, face_url, back_url, sheet.grid.columns,
                                          sheet.grid.rows, not plan.shared, shape))
        for slot, card in enumerate(sheet.cards):
            art.slots[card.id] = (index, slot)
    return art


def digest_key(*parts) -> str:
    return artifact_key("tts", *parts)


def _margins(deck: LoadedDeck) -> list[float]:
    """What a tile is cut with besides its face and size (faces.cut_margins), in the keys of the images made of
    tiles."""
    return list(cut_margins(deck.model))


def _grid(grid: sheets.Grid) -> list[int]:
    return [grid.columns, grid.rows, grid.card_w, grid.card_h]


def token_art(ctx: BuildContext, assets: Assets, component: Component) -> save.ComponentArt:
    art = save.ComponentArt()
    digest = ctx.records.digest
    size, margins = _token_size(ctx.deck, component), _margins(ctx.deck)
    for card in _cards(component):
        rel = ctx.faces.front(component, card).path
        front_url = assets.add(f"{component.id}-{card.id}", digest_key("token", digest(rel), size, margins),
                               lambda: assets.encode(_tile(ctx, rel, size).read()))
        back = ctx.faces.back(component, card)
        back_url = front_url
        if back is not None:
            back_url = assets.add(f"{component.id}-{card.id}-back",
                                  digest_key("token", digest(back.path), size, margins),
                                  lambda: assets.encode(_tile(ctx, back.path, size).read()))
        art.images[card.id] = (front_url, back_url)
    return art


def source_date_epoch(ctx: BuildContext) -> int | None:
    """SOURCE_DATE_EPOCH (reproducible-builds.org): the save's date when set."""
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise DeckError.at(Where(str(ctx.deck.path)), f"SOURCE_DATE_EPOCH is {text!r}; set it to whole seconds "
                           "since 1970 (e.g. 1764576000) or unset it")
    return int(text)


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


def write_thumbnail(ctx: BuildContext, target: str, shown: Shown, made: dict[str, bytes]) -> None:
    """The thumbnail of the faces `shown` as `target`, unless its record is unchanged; `made` holds the
    thumbnails this build made, by key (a component's often is the save's)."""
    key = digest_key("thumbnail", [[ctx.records.digest(face), size] for face, size in shown], _margins(ctx.deck))
    if not ctx.records.reuse_file(target, key, target):
        if key not in made:
            made[key] = sheets.thumbnail([_tile(ctx, face, size) for face, size in shown])
        ctx.path(target).write_bytes(made[key])
        ctx.records.keep(target, key, target)


def load() -> None:
    """What the builder needs whatever the deck: Pillow's image formats, which it registers at the first image
    saved (13 ms)."""
    Image.preinit()


# The templates of the build whose builder prepared them in this process: (its context, the Global script's,
# the UI's).
_prepared: tuple[BuildContext, lua.Templates, lua.Templates] | None = None


def prepare(ctx: BuildContext) -> None:
    """While the faces are drawn: the TTS templates compiled, with the scripted game's UI that the UI includes
    (11 ms for SCORE!'s)."""
    global _prepared
    load()
    game = ctx.deck.model.scripted
    scripts, uis = lua.Templates(ctx.deck.path), lua.Templates(ctx.deck.path, game)
    scripts.compile("global.lua.j2")
    uis.compile("ui.xml.j2")
    if game is not None:
        uis.compile(f"{game.name}/ui.xml.j2")
    _prepared = (ctx, scripts, uis)


def _templates(ctx: BuildContext) -> tuple[lua.Templates, lua.Templates]:
    """The templates of the Global script and of the UI for this build: those `prepare` compiled for it."""
    global _prepared
    prepared, _prepared = _prepared, None
    if prepared is not None and prepared[0] is ctx:
        return prepared[1], prepared[2]
    return lua.Templates(ctx.deck.path), lua.Templates(ctx.deck.path, ctx.deck.model.scripted)


def build(ctx: BuildContext) -> None:
    deck, model = ctx.deck, ctx.deck.model
    assets = Assets(ctx)
    guids = save.Guids(deck.name)

    arts: dict[str, save.ComponentArt] = {}
    key = 1
    for component in model.components:
        if not _cards(component):
            continue
        ctx.progress(f"tts: {component.id}")
        if component.type == "tokens":
            arts[component.id] = token_art(ctx, assets, component)
        else:
            arts[component.id] = card_art(ctx, assets, component, key)
            key += len(arts[component.id].sheets)

    present = [c for c in model.components if c.id in arts]
    main, by_component = place(ctx, present, arts, guids)

    seat_colors = save.seats(model)
    objects = [save.hand_zone(color, i, len(seat_colors), guids(f"hand/{color}"))
               for i, color in enumerate(seat_colors)]
    for component in present:
        objects += by_component[component.id]

    game = model.scripted
    modules = lua.find_modules(deck.path, game)
    engine = _engine(modules, game)
    compiled = digest_key("compiled, with the engine's functions", engine, [(m.name, m.source) for m in modules])
    if ctx.records.get("tts/modules.lua", compiled) is None:  # the checks are the modules' sources' alone
        runtime.compile_modules(modules, deck.path)
        contract.check_functions(modules, engine, deck.path)
    ctx.records.put("tts/modules.lua", compiled, {})
    boxed = _has_table(modules, game)
    if boxed:
        check_box_name(deck)
    data = lua_data(ctx.deck, seat_colors, main, objects, engine)
    title = model.game.name

    scripts, uis = _templates(ctx)

    def script_of(box: bool) -> str:
        """The script, checked for the sandbox: its modules' bundle (most of it, the same from build to build)
        once, recorded when it is closed and clean (lua.closed_and_clean), then the text around it; the whole
        script when either is not so."""
        bundle = lua.bundle(modules, box)
        script = scripts.render("global.lua.j2", title=title, data=data, modules=bundle)
        record, checked = "tts/box.lua" if box else "tts/global.lua", digest_key("sandbox: closed and clean", bundle)
        bundle_clean = ctx.records.get(record, checked) is not None or lua.closed_and_clean(bundle)
        if bundle_clean:
            ctx.records.put(record, checked, {})
        if not (bundle_clean and lua.clean_around(script, bundle)):
            lua.check_script(script, modules, "tts/global.lua.j2")
        return script

    def xml_of(box: bool) -> str:
        xml = uis.render("ui.xml.j2", title=title, script=game and game.name, data=data, box=box,
                         seats=_seats(model))
        check_xml(deck, uis, xml)
        return xml

    script, xml = script_of(False), xml_of(False)

    epoch = source_date_epoch(ctx) or save.derived_epoch(objects, script, xml)
    state = save.save_envelope(model, objects, script, xml, save.notebook(model), epoch)
    texts = save.StateTexts()  # the states of the save's objects, dumped once for every file that holds them
    ctx.path(f"tts/{deck.name}.json").write_bytes(save.dump(state, texts))
    # Where each module is in the Global script: TTS's errors shown at the project's own lines (push, watch).
    lines = lua.line_map(script, modules, project_root(deck.path))
    ctx.path(f"tts/{lua.LINE_MAP}").write_text(json.dumps(lines, indent=1) + "\n", encoding="utf-8")
    for component in present:
        envelope = save.saved_object_envelope(by_component[component.id])
        ctx.path(f"tts/saved-objects/{component.id}.json").write_bytes(save.dump(envelope, texts))
    if boxed:  # the box holds what the full save lays on the table; the hand zones are the host table's
        contents = [state for component in present for state in by_component[component.id]]
        box = save.box_state(title, guids("box"), contents, script_of(True), xml_of(True))
        envelope = save.saved_object_envelope([box])
        ctx.path(f"tts/saved-objects/{box_name(deck)}.json").write_bytes(save.dump(envelope, texts))
    thumbnails: dict[str, bytes] = {}
    for target, shown in _thumbnail_faces(deck, ctx.faces):
        write_thumbnail(ctx, target, shown, thumbnails)
        if boxed and target == f"tts/{deck.name}.png":  # the box shows what the save's thumbnail shows
            write_thumbnail(ctx, f"tts/saved-objects/{box_name(deck)}.png", shown, thumbnails)
    ctx.progress(f"tts: {len(objects)} objects, {key - 1} card sheets")
