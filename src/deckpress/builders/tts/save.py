"""The TTS save and its objects as plain dicts: cards, decks, tiles, hand zones, the notebook, the envelope.

Pure functions over the deck model and already-known image URLs; nothing here touches files.
Positions are in TTS units (about an inch); White sits at the bottom (negative z) facing +z, and
objects turned rotY 180 face White, as TTS itself spawns them.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ...markup import to_bbcode, to_plain
from ...schema import Block, Card, Component, Deck
from . import TTS_COLORS

TABLE = "Table_Circular"
# Hand zones placed and sized like TTS's own default hands on a round table (real saves: centre ~24.8
# from the table's centre, y ~3.54, scale about 11.66 x 9.18 x 4.87; see docs/tts.md).
SEAT_RADIUS = 24.8
HAND_Y = 3.54
HAND_SIZE = (11.66, 9.18, 4.87)  # HandTrigger scale: width, height, depth
TABLE_Y = 1.5  # drop height of objects placed on the table
POKER_MM = (63.5, 88.9)  # a card at scale 1 in TTS has poker proportions
TILE_MM_AT_SCALE_1 = 50.8  # a Custom_Tile at scale 1 is about 2 units across (inference)

CARD_SHAPES = {"rounded": 0, "rectangle": 1, "hex": 3, "circle": 4}  # CustomDeck Type
TILE_SHAPES = {"rectangle": 0, "hex": 1, "circle": 2, "rounded": 3}  # CustomTile Type

# Seats used when the deck doesn't list them: the most distinct colours first.
SEAT_PREFERENCE = ["White", "Red", "Yellow", "Green", "Blue", "Purple", "Orange", "Teal", "Pink", "Brown"]
SEAT_HEX = {"White": "#ffffff", "Brown": "#c06a2b", "Red": "#da1a18", "Orange": "#f4641d", "Yellow": "#e7e52c",
            "Green": "#31b32b", "Teal": "#21b19b", "Blue": "#1f87ff", "Purple": "#a020f0", "Pink": "#f570ce"}
# What TTS itself writes (docs/tts.md, "As TTS writes them", names the source of each).
NOTEBOOK_COLOR = {"r": 0.5, "g": 0.5, "b": 0.5}  # the Notebook's "Grey" tab (0.25 is its "Black")
TTS_VERSION = "v13.2.2"  # VersionNumber of a full save
GREY = {"r": 0.5, "g": 0.5, "b": 0.5}
# TTS's default lighting, as a save TTS wrote holds it (docs/tts.md says which).
LIGHTING = {"LightIntensity": 0.54, "LightColor": {"r": 1.0, "g": 0.9804, "b": 0.8902}, "AmbientIntensity": 1.3,
            "AmbientType": 0, "AmbientSkyColor": GREY, "AmbientEquatorColor": GREY, "AmbientGroundColor": GREY,
            "ReflectionIntensity": 1.0, "LutIndex": 0, "LutContribution": 1.0}


class Guids:
    """Unique 6-hex GUIDs derived from a seed and a label, so the same deck always gets the same ones."""

    def __init__(self, seed: str):
        self.seed = seed
        self.used: set[str] = set()

    def __call__(self, label: str) -> str:
        for attempt in range(1000):
            digest = hashlib.sha256(f"{self.seed}\0{label}\0{attempt}".encode()).hexdigest()[:6]
            if digest not in self.used:
                self.used.add(digest)
                return digest
        raise RuntimeError("ran out of GUIDs")  # needs ~16 million objects


def _r(value: float) -> float:
    return round(float(value), 4) + 0.0  # + 0.0 turns -0.0 into 0.0


def transform(x: float, y: float, z: float, rot_y: float = 180.0, face_down: bool = False,
              scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> dict:
    return {"posX": _r(x), "posY": _r(y), "posZ": _r(z), "rotX": 0.0, "rotY": _r(rot_y),
            "rotZ": 180.0 if face_down else 0.0,
            "scaleX": _r(scale[0]), "scaleY": _r(scale[1]), "scaleZ": _r(scale[2])}


def base_object(name: str, guid: str, where: dict, nickname: str = "", description: str = "",
                gm_notes: str = "", tags: list[str] | None = None, locked: bool = False) -> dict:
    """The fields every TTS object state carries."""
    return {
        "GUID": guid, "Name": name, "Transform": where,
        "Nickname": nickname, "Description": description, "GMNotes": gm_notes,
        "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0},
        "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
        "Tags": list(tags or []),
        "LayoutGroupSortIndex": 0, "Value": 0,
        "Locked": locked, "Grid": True, "Snap": True, "IgnoreFoW": False, "MeasureMovement": False,
        "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
        "HideWhenFaceDown": True, "Hands": True,
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }


# --- Cards and decks ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SheetEntry:
    """One CustomDeck key: a face sheet (and its back) of a component."""

    key: int
    face_url: str
    back_url: str
    columns: int
    rows: int
    unique_back: bool
    shape: int

    def custom_deck(self) -> dict:
        return {"FaceURL": self.face_url, "BackURL": self.back_url, "NumWidth": self.columns,
                "NumHeight": self.rows, "BackIsHidden": True, "UniqueBack": self.unique_back,
                "Type": self.shape}


@dataclass
class ComponentArt:
    """Where a component's images are: a sheet slot per card (cards) or image URLs per card (tokens)."""

    sheets: list[SheetEntry] = field(default_factory=list)
    slots: dict[str, tuple[int, int]] = field(default_factory=dict)  # card id -> (sheet index, slot)
    images: dict[str, tuple[str, str]] = field(default_factory=dict)  # token card id -> (front, back)

    def card_id(self, card: Card) -> int:
        sheet, slot = self.slots[card.id]
        return self.sheets[sheet].key * 100 + slot

    def custom_deck(self, card: Card) -> dict:
        sheet = self.sheets[self.slots[card.id][0]]
        return {str(sheet.key): sheet.custom_deck()}


def card_notes(component: Component, card: Card) -> str:
    """GMNotes of a card: its data as JSON, starting with `{"id":"..."` (scripts match that prefix)."""
    data = {"id": card.id, "component": component.id}
    data.update((k, v) for k, v in card.fields().items() if k not in data)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def card_description(card: Card, field_name: str, icons: dict | None = None) -> str:
    """The card's description field, its markup (see markup.py) in TTS's BBCode: [b], [i], a glyph icon as
    its glyph in its colour ([rrggbb]...[-]), an image icon as its name."""
    value = card.fields().get(field_name)
    text = value if isinstance(value, str) else "" if value is None else str(value)
    return to_bbcode(text, icons or {})


def component_tags(component: Component, kind: str) -> list[str]:
    """Tags scripts find objects by: the component's id, then `role:<role>`, `type:<kind>` (deck, card,
    token) and `optional`. Generic tags hold a colon, which ids can't, so they never clash."""
    tags = [component.id, f"role:{component.role}", f"type:{kind}"]
    if component.optional:
        tags.append("optional")
    return tags


def card_scale(component: Component) -> tuple[float, float, float]:
    width, height = component.size
    return (width / POKER_MM[0], 1.0, height / POKER_MM[1])


def card_state(component: Component, card: Card, art: ComponentArt, guid: str, where: dict,
               description_field: str, icons: dict | None = None) -> dict:
    state = base_object("Card", guid, where, card.name, card_description(card, description_field, icons),
                        card_notes(component, card), component_tags(component, "card"))
    state["CardID"] = art.card_id(card)
    state["SidewaysCard"] = False
    state["CustomDeck"] = art.custom_deck(card)
    return state


def copies(component: Component) -> list[tuple[Card, int]]:
    """(card, copy number) for every physical card of a component, in file order."""
    return [(card, n) for card in component.cards for n in range(card.count)]


def deck_state(component: Component, art: ComponentArt, guids: Guids, position: tuple[float, float],
               description_field: str, game: str, face_down: bool = True, icons: dict | None = None) -> dict:
    """The component's cards as one DeckCustom (or one Card when it has a single card)."""
    scale = card_scale(component)
    where = transform(position[0], TABLE_Y, position[1], face_down=face_down, scale=scale)
    cards = [card_state(component, card, art, guids(f"card/{component.id}/{card.id}/{n}"), where,
                        description_field, icons) for card, n in copies(component)]
    if len(cards) == 1:
        return cards[0]
    state = base_object("DeckCustom", guids(f"deck/{component.id}"), where, component.name,
                        f"{game}: {len(cards)} cards", "", component_tags(component, "deck"))
    state["SidewaysCard"] = False
    state["Hands"] = False  # as TTS writes decks: a deck never joins a hand, its cards do
    state["DeckIDs"] = [c["CardID"] for c in cards]
    state["CustomDeck"] = {str(s.key): s.custom_deck() for s in art.sheets}
    state["ContainedObjects"] = cards
    return state


def loose_cards(component: Component, art: ComponentArt, guids: Guids, origin: tuple[float, float],
                description_field: str, per_row: int = 6, icons: dict | None = None) -> list[dict]:
    """Each card of the component face up on the table, in rows (reminder cards)."""
    scale = card_scale(component)
    step_x, step_z = 2.6 * scale[0], 3.6 * scale[2]
    out = []
    for i, (card, n) in enumerate(copies(component)):
        row, col = divmod(i, per_row)
        where = transform(origin[0] + col * step_x, TABLE_Y, origin[1] - row * step_z, scale=scale)
        out.append(card_state(component, card, art, guids(f"card/{component.id}/{card.id}/{n}"), where,
                              description_field, icons))
    return out


def token_states(component: Component, art: ComponentArt, guids: Guids, origin: tuple[float, float],
                 description_field: str, icons: dict | None = None) -> list[dict]:
    """One object per kind of token, as TTS writes a pile of identical tiles: a Custom_Tile_Stack
    holding `Number` tiles (a single token is a Custom_Tile)."""
    width, height = component.size
    thickness = component.token.thickness if component.token else 0.2
    scale = max(width, height) / TILE_MM_AT_SCALE_1
    step = max(width, height) / 25.4 + 0.5
    out = []
    for i, card in enumerate(c for c in component.cards if c.count > 0):
        front, back = art.images[card.id]
        where = transform(origin[0] + i * step, TABLE_Y, origin[1], scale=(scale, 1.0, scale))
        name = "Custom_Tile_Stack" if card.count > 1 else "Custom_Tile"
        state = base_object(name, guids(f"token/{component.id}/{card.id}"), where, card.name,
                            card_description(card, description_field, icons), card_notes(component, card),
                            component_tags(component, "token"))
        state["Hands"] = False
        state["HideWhenFaceDown"] = False  # as TTS writes tiles
        state["CustomImage"] = {
            "ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0,
            "CustomTile": {"Type": TILE_SHAPES[component.shape], "Thickness": thickness,
                           "Stackable": card.count > 1, "Stretch": card.count == 1},
        }
        if card.count > 1:  # as TTS writes a tile stack
            state["MaterialIndex"] = -1
            state["MeshIndex"] = -1
            state["Number"] = card.count
        out.append(state)
    return out


# --- Table ---------------------------------------------------------------------------------------

def seats(deck: Deck) -> list[str]:
    """Hand-zone colours in clockwise order from the bottom."""
    if deck.tts.seats:
        return list(deck.tts.seats)
    players = deck.game.players.max if deck.game.players and deck.game.players.max else 6
    chosen = set(SEAT_PREFERENCE[:max(1, min(players, len(TTS_COLORS)))])
    return [c for c in TTS_COLORS if c in chosen]


def hand_zone(color: str, index: int, total: int, guid: str) -> dict:
    angle = 360.0 * index / total
    x = -SEAT_RADIUS * math.sin(math.radians(angle))
    z = -SEAT_RADIUS * math.cos(math.radians(angle))
    where = {"posX": _r(x), "posY": HAND_Y, "posZ": _r(z), "rotX": 0.0, "rotY": _r(angle), "rotZ": 0.0,
             "scaleX": HAND_SIZE[0], "scaleY": HAND_SIZE[1], "scaleZ": HAND_SIZE[2]}
    state = base_object("HandTrigger", guid, where, f"{color} hand", "", "", ["zone:hand", f"hand:{color}"],
                        locked=True)
    state["FogColor"] = color
    state["Hands"] = False
    # As TTS writes hand zones: the seat's colour, fully transparent; no grid, shown face down.
    state["ColorDiffuse"] = {**seat_rgb(color), "a": 0.0}
    state["Grid"] = False
    state["HideWhenFaceDown"] = False
    return state


def seat_rgb(color: str) -> dict:
    """A seat's colour as TTS's {r, g, b} (0 to 1)."""
    value = SEAT_HEX[color]
    return {c: round(int(value[i:i + 2], 16) / 255, 3) for c, i in (("r", 1), ("g", 3), ("b", 5))}


@dataclass(frozen=True)
class Layout:
    """Where things go: play decks in a row across the middle, optional decks below them, reminder
    cards above, tokens below; everything inside the hand zones."""

    main: tuple[float, float] = (0.0, 0.0)
    deck_step: float = 3.5
    optional_z: float = -5.0
    reminder_z: float = 7.5
    token_z: float = -9.0
    aside: tuple[float, float, float] = (9.0, TABLE_Y, 0.0)

    def row(self, count: int, z: float, step: float | None = None) -> list[tuple[float, float]]:
        step = step or self.deck_step
        return [((i - (count - 1) / 2) * step, z) for i in range(count)]


# --- The game in a box ----------------------------------------------------------------------------

BOX_SPOT = (-9.0, 0.0)  # where the box lies from the table's centre (DATA.layout.box, for lib/box.lua)


def box_state(game: str, guid: str, contents: list[dict], lua: str, xml: str) -> dict:
    """The game's box: a Bag holding `contents` (the components as the full save places them around the
    table's centre), carrying the Global script's runtime and table as its own LuaScript and the controls
    as its own XmlUI (docs/tts.md, "The game in a box"). Written as TTS writes a bag: the fields of every
    object, MaterialIndex and MeshIndex -1 and `Bag: {Order: 0}` (docs/tts.md names the sources)."""
    where = transform(BOX_SPOT[0], TABLE_Y, BOX_SPOT[1])
    state = base_object("Bag", guid, where, game, f"{game}: the whole game in its box. It lays the game out "
                        "around itself and referees it with the controls on the box.")
    state["MaterialIndex"] = -1
    state["MeshIndex"] = -1
    state["Bag"] = {"Order": 0}
    state["LuaScript"] = lua
    state["XmlUI"] = xml
    state["ContainedObjects"] = contents
    return state


# --- Notebook ------------------------------------------------------------------------------------

def block_text(block: Block, icons: dict | None = None) -> str:
    """One rules block as notebook text (TTS notebooks understand [b] and [i] BBCode); its markup (see
    markup.py) becomes BBCode too."""
    kind, content = block.kind, block.content

    def text(value: str) -> str:
        return to_bbcode(value, icons or {})

    if kind == "paragraph":
        return text(content)
    if kind == "heading":
        return f"[b]{text(content)}[/b]"
    if kind == "list":
        return "\n".join(f"• {text(item)}" for item in content)
    if kind == "numbered":
        return "\n".join(f"{i}. {text(item)}" for i, item in enumerate(content, 1))
    lines = [f"[b]{' | '.join(text(h) for h in content.header)}[/b]"] if content.header else []
    lines += [" | ".join(text(c) for c in row) for row in content.rows or []]
    return "\n".join(lines)


def blocks_text(blocks: list[Block], icons: dict | None = None) -> str:
    return "\n\n".join(block_text(b, icons) for b in blocks if b is not None)


def players_text(players) -> str:
    if players is None or players.min is None:
        return ""
    if players.max is None:
        return f"Players: {players.min}+"
    return f"Players: {players.min}" + ("" if players.max == players.min else f" to {players.max}")


def notebook(deck: Deck) -> dict:
    """TabStates: one tab per rules section, then one per game mode."""
    icons = deck.icons
    tabs = [(to_plain(section.heading, icons), blocks_text(section.body, icons)) for section in deck.rules or []]
    for mode in deck.modes or []:
        players = players_text(mode.players)
        body = blocks_text(mode.rules, icons)
        tabs.append((f"Mode: {to_plain(mode.name, icons)}", f"{players}\n\n{body}" if players else body))
    return {str(i): {"title": title, "body": body, "color": "Grey", "visibleColor": NOTEBOOK_COLOR, "id": i}
            for i, (title, body) in enumerate(tabs)}


# --- Envelopes -----------------------------------------------------------------------------------

def derived_epoch(objects: list[dict], lua: str, xml: str) -> int:
    """A fixed save time derived from what the save holds: a second of 2026 picked by its content hash,
    so the same deck always gets the same date (a reproducible build) and a changed one another."""
    digest = hashlib.sha256(json.dumps([objects, lua, xml], sort_keys=True).encode("utf-8")).digest()
    return EPOCH_2026 + int.from_bytes(digest[:8], "big") % (365 * 86400)


EPOCH_2026 = 1767225600  # 2026-01-01 00:00:00 UTC


def save_date(epoch: int) -> str:
    """TTS's Date text for a time (UTC), like "12/1/2026 8:00:00 AM"."""
    t = datetime.fromtimestamp(epoch, tz=timezone.utc)
    hour = t.hour % 12 or 12
    return f"{t.month}/{t.day}/{t.year} {hour}:{t.minute:02d}:{t.second:02d} {'AM' if t.hour < 12 else 'PM'}"


def component_tag_list(objects: list[dict]) -> dict:
    """Top-level ComponentTags as TTS lists them: every tag of the save's objects (those inside decks
    too), in first-seen order, each as {displayed, normalized}."""
    seen: dict[str, None] = {}

    def visit(states: list[dict]) -> None:
        for state in states:
            seen.update(dict.fromkeys(state.get("Tags", [])))
            visit(state.get("ContainedObjects", []))

    visit(objects)
    return {"labels": [{"displayed": tag, "normalized": tag.lower()} for tag in seen]}


def save_envelope(deck: Deck, objects: list[dict], lua: str, xml: str, tabs: dict, epoch: int) -> dict:
    """A full save dated `epoch` (seconds since 1970: SOURCE_DATE_EPOCH or derived_epoch)."""
    game = deck.game
    players = game.players
    return {
        "SaveName": game.name, "EpochTime": epoch, "Date": save_date(epoch), "VersionNumber": TTS_VERSION,
        "GameMode": game.name,
        "GameType": "Card Game", "GameComplexity": "",
        "PlayingTime": [0, 0],
        "PlayerCounts": [players.min or 0, players.max or 0] if players else [0, 0],
        "Tags": ["Cards", "deckpress"], "Gravity": 0.5, "PlayArea": 0.5,
        "Table": TABLE, "Sky": "Sky_Museum", "Note": "", "TabStates": tabs,
        "Grid": {"Type": 0, "Lines": False, "Color": {"r": 0.0, "g": 0.0, "b": 0.0}, "Opacity": 0.75,
                 "ThickLines": False, "Snapping": False, "Offset": False, "BothSnapping": False,
                 "xSize": 2.0, "ySize": 2.0, "PosOffset": {"x": 0.0, "y": 1.0, "z": 0.0}},
        "Lighting": LIGHTING,
        "Hands": {"Enable": True, "DisableUnused": False, "Hiding": 0},
        "ComponentTags": component_tag_list(objects),
        "Turns": {"Enable": False, "Type": 0, "TurnOrder": [], "Reverse": False, "SkipEmpty": False,
                  "DisableInteractions": False, "PassTurns": True, "TurnColor": ""},
        "DecalPallet": [], "SnapPoints": [], "CustomUIAssets": [],
        "LuaScript": lua, "LuaScriptState": "", "XmlUI": xml,
        "ObjectStates": objects,
    }


def saved_object_envelope(objects: list[dict]) -> dict:
    """A Saved Object file: the save envelope with empty outer fields and the objects."""
    return {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "",
            "GameComplexity": "", "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "",
            "Note": "", "TabStates": {}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
            "ObjectStates": objects}


class StateTexts:
    """The JSON text of each object state, made once: the save, the saved objects and the box hold the same
    states (the same dicts, which must not change once dumped)."""

    def __init__(self):
        self._texts: dict[int, tuple[dict, str]] = {}

    def of(self, state: dict) -> str:
        """The state's JSON as json.dumps(state, indent=2) writes it; a bag's or deck's objects taken from
        here when they are (the box holds the save's states), else the state is dumped whole."""
        found = self._texts.get(id(state))
        if found is None or found[0] is not state:
            inner = state.get("ContainedObjects")
            shared = isinstance(inner, list) and any(self._texts.get(id(s), (None,))[0] is s for s in inner)
            text = _json_object(state, self) if shared else json.dumps(state, indent=2, ensure_ascii=False)
            found = self._texts[id(state)] = (state, text)
        return found[1]


_STATE_LISTS = ("ObjectStates", "ContainedObjects")


def _json_object(data: dict, texts: StateTexts) -> str:
    """json.dumps(data, indent=2, ensure_ascii=False) of a save's dict, whose lists of object states are
    taken from `texts`. A value nested n levels deep is its own JSON text with every line after its first
    indented by 2n spaces (JSON strings hold no raw line break)."""
    items = [f"{json.dumps(key, ensure_ascii=False)}: "
             + (_json_block("[", [texts.of(s) for s in value], "]") if key in _STATE_LISTS and isinstance(value, list)
                else json.dumps(value, indent=2, ensure_ascii=False))
             for key, value in data.items()]
    return _json_block("{", items, "}")


def _json_block(opening: str, items: list[str], closing: str) -> str:
    if not items:
        return opening + closing
    return f"{opening}\n  " + ",\n  ".join(item.replace("\n", "\n  ") for item in items) + f"\n{closing}"


def dump(data: dict, texts: StateTexts | None = None) -> bytes:
    """The JSON bytes of a save: stable key order (as built), UTF-8, LF, trailing newline. The object states
    are taken from `texts`, when given, as a build's files share them."""
    return (_json_object(data, texts or StateTexts()) + "\n").encode("utf-8")
