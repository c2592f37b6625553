"""The Tabletop Simulator export of the SCORE! deck: save structure, IDs, sheets, URLs, thumbnails."""

from __future__ import annotations

import json
import math
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlparse

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from deckpress.builders.tts import steps as tts_builder
from deckpress.deck import load_deck
from deckpress.errors import DeckError
from deckpress.builders.tts import save as tts_save

GUID = re.compile(r"[0-9a-f]{6}\Z")


@pytest.fixture(scope="module")
def tts(built: Path) -> Path:
    return built / "tts"


@pytest.fixture(scope="module")
def save(tts: Path) -> dict:
    return json.loads((tts / "score.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def model():
    return load_deck(ROOT / "decks" / "score.yaml").model


def objects(save: dict, name: str | None = None) -> list[dict]:
    return [o for o in save["ObjectStates"] if name is None or o["Name"] == name]


def all_states(states: list[dict]):
    for state in states:
        yield state
        yield from all_states(state.get("ContainedObjects", []))


def custom_decks(save: dict):
    for state in all_states(save["ObjectStates"]):
        for key, entry in state.get("CustomDeck", {}).items():
            yield key, entry


def url_path(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(urlparse(url).path if not re.match(r"file:///[A-Za-z]:", url) else url[8:])


# --- structure -------------------------------------------------------------------------------------

def test_save_has_the_keys_tts_writes(save):
    for key in ("SaveName", "GameMode", "Date", "Table", "Sky", "Note", "TabStates", "Grid", "Hands",
                "LuaScript", "LuaScriptState", "XmlUI", "ObjectStates", "Tags", "Gravity", "PlayArea"):
        assert key in save, key
    assert save["SaveName"] == "SCORE! (Not So Simple)"
    assert save["LuaScript"].strip() and save["XmlUI"].strip()
    for state in all_states(save["ObjectStates"]):
        assert {"Name", "Transform", "Nickname", "GUID", "Tags"} <= set(state)
        assert set(state["Transform"]) == {"posX", "posY", "posZ", "rotX", "rotY", "rotZ",
                                           "scaleX", "scaleY", "scaleZ"}


def test_every_json_file_is_as_json_dumps_writes_it(tts):
    """The save, the saved objects and the box share their object states' JSON text (dumped once, indented
    where each file nests it): each file still reads as json.dumps, indent 2, writes it."""
    files = sorted(f for f in tts.rglob("*.json") if f.name != "global-lines.json")
    assert {"score.json", "deck.json", "score-box.json"} <= {f.name for f in files}
    for path in files:
        data = path.read_bytes()
        assert data == (json.dumps(json.loads(data), indent=2, ensure_ascii=False) + "\n").encode("utf-8"), path


def test_main_deck_ids_match_contained_cards(save, model):
    decks = objects(save, "DeckCustom")
    assert len(decks) == 1
    deck = decks[0]
    cards = deck["ContainedObjects"]
    assert len(cards) == 42 == sum(c.count for c in model.components[0].cards)
    assert deck["DeckIDs"] == [c["CardID"] for c in cards]
    assert deck["Transform"]["rotZ"] == 180  # face down
    for card in cards:
        key, slot = divmod(card["CardID"], 100)
        entry = deck["CustomDeck"][str(key)]
        assert list(card["CustomDeck"]) == [str(key)] and card["CustomDeck"][str(key)] == entry
        assert 0 <= slot < entry["NumWidth"] * entry["NumHeight"]
        assert entry["BackIsHidden"] is True  # so every slot is a card, none reserved for "hidden"


def test_same_card_same_slot_and_copies_counted(save, model):
    cards = objects(save, "DeckCustom")[0]["ContainedObjects"]
    by_name: dict[str, set[int]] = {}
    for card in cards:
        by_name.setdefault(card["Nickname"], set()).add(card["CardID"])
    assert all(len(ids) == 1 for ids in by_name.values())
    counts = {c.name: c.count for c in model.components[0].cards}
    assert {name: sum(1 for c in cards if c["Nickname"] == name) for name in counts} == counts


def test_custom_deck_keys_are_unique_across_the_save(save):
    seen: dict[str, dict] = {}
    for key, entry in custom_decks(save):
        assert key.isdigit()
        assert seen.setdefault(key, entry) == entry, f"key {key} names two different sheets"
    sheets = {(e["FaceURL"], e["BackURL"]) for e in seen.values()}
    assert len(sheets) == len(seen) == 2  # the deck and the reminder cards


def test_guids_are_unique_six_hex(save):
    guids = [s["GUID"] for s in all_states(save["ObjectStates"])]
    assert all(GUID.match(g) for g in guids)
    assert len(guids) == len(set(guids))


def test_cards_carry_name_effect_and_data(save, model):
    component = model.components[0]
    by_id = {c.id: c for c in component.cards}
    for card in objects(save, "DeckCustom")[0]["ContainedObjects"]:
        data = json.loads(card["GMNotes"])
        source = by_id[data["id"]]
        assert card["Nickname"] == source.name
        assert card["Description"] == source.extra["text"]
        assert data["component"] == "deck"
        assert data["priority"] == source.extra["priority"] and data["effect"] == source.extra["effect"]
        assert card["GMNotes"].startswith('{"id":"')  # the Lua side reads the id from this prefix
        assert card["Tags"][0] == "deck"


def test_reminder_cards_lie_face_up_beside_the_play_area(save):
    loose = objects(save, "Card")
    assert sorted(c["Nickname"] for c in loose) == ["Effect order", "Game modes"]
    deck = objects(save, "DeckCustom")[0]["Transform"]
    for card in loose:
        assert card["Transform"]["rotZ"] == 0
        assert "role:reminder" in card["Tags"]
        distance = abs(card["Transform"]["posZ"] - deck["posZ"]) + abs(card["Transform"]["posX"] - deck["posX"])
        assert distance >= 4  # not on top of the deck
        assert (card["Transform"]["posX"] ** 2 + card["Transform"]["posZ"] ** 2) ** 0.5 < tts_save.SEAT_RADIUS - 4


def test_hand_zones_for_six_seats(save):
    hands = objects(save, "HandTrigger")
    assert [h["FogColor"] for h in hands] == ["White", "Red", "Yellow", "Green", "Blue", "Purple"]
    assert hands[0]["Transform"]["posZ"] < 0 and abs(hands[0]["Transform"]["posX"]) < 1e-6


def test_hand_zones_sit_and_measure_like_tts_default_hands_on_a_round_table(save):
    """TTS's own hands on a round table (real saves): centre ~24.8 from the middle, y ~3.54, 11.66 x 9.18 x 4.87,
    so the inner edge lies ~22.4 from the middle, not further onto the table."""
    for hand in objects(save, "HandTrigger"):
        t = hand["Transform"]
        radius = math.hypot(t["posX"], t["posZ"])
        assert abs(radius - 24.8) < 0.05 and abs(t["posY"] - 3.54) < 0.01
        assert (t["scaleX"], t["scaleY"], t["scaleZ"]) == (11.66, 9.18, 4.87)
        assert abs(radius - t["scaleZ"] / 2 - 22.37) < 0.1
        facing = math.degrees(math.atan2(-t["posX"], -t["posZ"])) % 360  # the zone turned towards the middle
        assert abs((facing - t["rotY"] + 180) % 360 - 180) < 0.01


def test_decks_and_tiles_carry_the_flags_tts_writes(save):
    decks = objects(save, "DeckCustom")
    assert decks and all(d["Hands"] is False for d in decks)
    assert all(c["Hands"] is True for d in decks for c in d["ContainedObjects"])  # the cards do go to hands
    tiles = objects(save, "Custom_Tile") + objects(save, "Custom_Tile_Stack")
    assert all(t["HideWhenFaceDown"] is False for t in tiles)


def test_save_is_dated_reproducibly(save, monkeypatch):
    epoch = save["EpochTime"]
    if os.environ.get("SOURCE_DATE_EPOCH"):  # the session's build was dated by the environment
        assert epoch == int(os.environ["SOURCE_DATE_EPOCH"])
    else:
        assert epoch == tts_save.derived_epoch(save["ObjectStates"], save["LuaScript"], save["XmlUI"])
    assert 1767225600 <= tts_save.derived_epoch([], "", "") < 1767225600 + 365 * 86400  # a second of 2026
    stamp = datetime.fromtimestamp(epoch, tz=timezone.utc)
    hour = stamp.hour % 12 or 12
    assert save["Date"] == (f"{stamp.month}/{stamp.day}/{stamp.year} {hour}:{stamp.minute:02d}:{stamp.second:02d} "
                            f"{'AM' if stamp.hour < 12 else 'PM'}")
    assert tts_save.save_date(1764576000) == "12/1/2025 8:00:00 AM"
    assert tts_save.save_date(1764576000 + 5 * 3600 + 62) == "12/1/2025 1:01:02 PM"
    ctx = SimpleNamespace(deck=SimpleNamespace(path=ROOT / "decks" / "score.yaml"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764576000")
    assert tts_builder.source_date_epoch(ctx) == 1764576000
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(DeckError, match="SOURCE_DATE_EPOCH is 'yesterday'; set it to whole seconds"):
        tts_builder.source_date_epoch(ctx)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert tts_builder.source_date_epoch(ctx) is None


def test_a_sheet_holds_its_tiles_plain_cards_and_white_empty_slots(tmp_path):
    from PIL import Image

    from deckpress.faces import Tile, write_tile
    from deckpress.builders.tts.sheets import EMPTY_SLOT, Grid, compose

    grid = Grid(columns=2, rows=2, card_w=30, card_h=40)
    tile = tmp_path / "tile.zst"
    tile.write_bytes(write_tile(Image.new("RGB", (30, 40), (200, 10, 10))))
    sheet = compose(grid, [Tile(tile), None])
    assert sheet.size == (60, 80)
    colours = [sheet.crop(grid.box(slot)).getcolors() for slot in range(4)]
    assert colours[0] == [(1200, (200, 10, 10))] and colours[2] == colours[3] == [(1200, EMPTY_SLOT)]
    assert len(colours[1]) == 1 and colours[1][0][1] != EMPTY_SLOT  # the plain card


def slot_images(count: int, size: tuple[int, int]) -> list[Image.Image | None]:
    """`count` faces cut to a slot, each its own: noise over a colour of its own; the second a plain card."""
    images = []
    for n in range(count):
        noise = Image.effect_noise(size, 40 + n).convert("RGB")
        images.append(Image.blend(noise, Image.new("RGB", size, (n * 37 % 256, n * 91 % 256, n * 13 % 256)), 0.6))
    if count > 1:
        images[1] = None
    return images


def encoded_whole(grid, images: list[Image.Image | None], quality: int) -> bytes:
    """What libjpeg makes of the composed sheet, a restart marker every slot's width of blocks."""
    import io

    from deckpress.builders.tts.sheets import EMPTY_SLOT, PLAIN_CARD

    sheet = Image.new("RGB", grid.size, EMPTY_SLOT)
    for slot, image in enumerate(images):
        sheet.paste(image or Image.new("RGB", (grid.card_w, grid.card_h), PLAIN_CARD), grid.box(slot)[:2])
    buffer = io.BytesIO()
    sheet.save(buffer, "JPEG", quality=quality, subsampling=0, optimize=False, restart_marker_blocks=grid.card_w // 8)
    return buffer.getvalue()


@pytest.mark.parametrize("columns, rows, size, count", [
    (5, 4, (96, 128), 20),  # a full sheet
    (3, 3, (64, 40), 7),  # empty slots
    (1, 5, (40, 16), 5),  # one column
    (10, 2, (16, 24), 13),  # ten columns, empty slots
    (10, 7, (8, 8), 70),  # the largest grid, the smallest slot
    (1, 1, (752, 1048), 1),  # a shared back
])
def test_a_jpeg_sheet_is_spliced_to_the_bytes_of_the_composed_sheet_encoded(columns, rows, size, count):
    """The sheet spliced from its slots' JPEG tiles is byte for byte libjpeg's encoding of the composed sheet
    (with a restart every slot's width), decodes at its grid's size, and each slot shows its own tile's
    pixels exactly (a restart resets the prediction: a slot's blocks are its own)."""
    import io

    from deckpress.faces import jpeg_tile
    from deckpress.builders.tts.sheets import Grid, splice

    grid = Grid(columns, rows, *size)
    images = slot_images(count, size)
    tiles = [None if image is None else jpeg_tile(image, 85) for image in images]
    spliced = splice(grid, tiles, 85)
    assert spliced == encoded_whole(grid, images, 85)
    with Image.open(io.BytesIO(spliced)) as sheet:
        sheet.load()
        assert sheet.size == grid.size
        for slot, tile in enumerate(tiles):
            if tile is not None:
                with Image.open(io.BytesIO(tile)) as own:
                    assert sheet.crop(grid.box(slot)).tobytes() == own.convert("RGB").tobytes(), slot


def test_a_tile_not_made_for_its_slot_is_not_spliced():
    """A file in cache/ that is not a JPEG tile of the slot's size, encoded like the others (a damaged one,
    one of another size, quality or subsampling, one without a restart after every row of blocks), fails
    the sheet rather than showing wrong or broken cards."""
    import io

    from deckpress.faces import jpeg_tile
    from deckpress.builders.tts.sheets import Grid, splice

    grid = Grid(2, 1, 32, 24)
    image = slot_images(1, (32, 24))[0]
    good = jpeg_tile(image, 90)
    assert splice(grid, [good, good], 90)

    def encoded(**options) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", **{"quality": 90, "subsampling": 0, "optimize": False, **options})
        return buffer.getvalue()

    taller = jpeg_tile(slot_images(1, (32, 32))[0], 90)
    assert b"\xff\xc0\x00\x11\x08\x00\x20" in taller  # its frame: 8 bits, 32 px high
    foreign = {
        "cut short": good[:-40],
        "its end lost": good[:-2],
        "another size": jpeg_tile(image.resize((32, 16)), 90),
        "another quality": jpeg_tile(image, 80),
        "no restart markers": encoded(),
        "a restart every 2 rows": encoded(restart_marker_rows=2),
        "a restart every 5 blocks": encoded(restart_marker_blocks=5),  # as many restarts, not at the rows' ends
        "a row more than its frame says": taller.replace(b"\xff\xc0\x00\x11\x08\x00\x20", b"\xff\xc0\x00\x11\x08\x00\x18"),
        "4:2:0": encoded(subsampling=2, restart_marker_rows=1),
        "optimized tables": encoded(optimize=True, restart_marker_rows=1),
        "progressive": encoded(progressive=True, restart_marker_rows=1),
        "a PNG": b"\x89PNG\r\n\x1a\n" + good[8:],
        "restarts renumbered": good.replace(b"\xff\xd1", b"\xff\xd2"),
    }
    for name, tile in foreign.items():
        for tiles in ([good, tile], [tile, tile]):  # beside a good tile, or alone
            with pytest.raises(ValueError):
                splice(grid, tiles, 90)
                raise AssertionError(f"{name}: spliced")


def test_lua_moonsharp_lacks_is_one_located_line_and_deck_text_never_is(tmp_path):
    """The Global script is checked for what TTS's sandbox lacks after every change (its check is recorded
    by the script's text, the engine's contract by the engine's): in a module, at the module's own line; in
    the project's template, at the rendered script's line. Deck text that reads like such Lua is data (a
    string literal): it builds."""
    from deckpress.paths import PACKAGE_DATA

    root = tmp_path / "climb"
    assert run_cli("new", str(root), "--scripted").exit_code == 0
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    deck, table = root / "decks" / "climb.yaml", root / "tts" / "climb" / "table.lua"
    deck.write_text(deck.read_text(encoding="utf-8").replace('name: "Climb"', """name: 'Climb ]] io.open // goto ::a::"""
                                                             """ & b ~ c --[[ require("x") \\ "'"""), encoding="utf-8")
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    source = table.read_text(encoding="utf-8")
    table.write_text(source.replace("\n", "\nlocal half = 7 // 2\n", 1), encoding="utf-8")
    result = run_cli("build", "--quiet", cwd=root)
    assert (result.exit_code, result.stderr) == (1, "tts/climb/table.lua:2:16: integer division `//` is Lua 5.3; "
                                                    "write math.floor(a / b)\n")
    table.write_text(source, encoding="utf-8")
    engine = root / "tts" / "climb" / "engine.lua"  # the engine's contract is checked after a build too
    kept = engine.read_text(encoding="utf-8")
    engine.write_text(kept.replace("function Engine.all_ids(", "function Engine.every_id("), encoding="utf-8")
    result = run_cli("build", "--quiet", cwd=root)
    returned = next(i for i, line in reversed(list(enumerate(kept.splitlines(), 1))) if line.startswith("return"))
    assert result.exit_code == 1 and result.stderr.startswith(f"tts/climb/engine.lua:{returned}:1: the engine has no all_ids;")
    engine.write_text(kept, encoding="utf-8")
    template = (PACKAGE_DATA / "tts" / "global.lua.j2").read_text(encoding="utf-8")
    (root / "tts" / "global.lua.j2").write_text(template + "local mask = 6 & 3\n", encoding="utf-8")
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
    assert re.fullmatch(r"tts/global\.lua\.j2 \(rendered\):\d+:16: bitwise operators are Lua 5\.3; use bit32\.band\n",
                        result.stderr), result.stderr


def test_a_tile_reads_back_as_written_and_a_damaged_one_is_said(tmp_path):
    """The tiles cache/ keeps: read back pixel for pixel; cut short, lengthened, of other pixels than its
    header says, or not a tile at all, a ValueError naming the file (the build then cuts the face again)."""
    from PIL import Image

    from deckpress.faces import TILE_MAGIC, read_tile, write_tile

    image = Image.effect_noise((30, 40), 50).convert("RGB")
    data = write_tile(image)
    tile = tmp_path / "tile.zst"
    tile.write_bytes(data)
    assert read_tile(tile).tobytes() == image.tobytes()
    other = write_tile(Image.new("RGB", (30, 41), (1, 2, 3)))
    header = len(TILE_MAGIC) + 8  # the magic, then the width and height
    for damaged in (data[:-5], data + other[header:], data[:len(TILE_MAGIC)] + other[len(TILE_MAGIC):header]
                    + data[header:], b"PNG\0" + data[4:]):
        tile.write_bytes(damaged)
        with pytest.raises(ValueError, match="tile.zst"):
            read_tile(tile)
