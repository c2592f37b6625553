"""The Tabletop Simulator export of the SCORE! deck: save structure, IDs, sheets, URLs, thumbnails."""

from __future__ import annotations

import hashlib
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from deckpress.deck import load_deck
from deckpress.tts import save as tts_save
from deckpress.tts.sheets import MAX_COLUMNS, MAX_ROWS, MAX_SIDE, best_grid, hashed_name, plan_sheets, split

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


def test_notebook_has_a_tab_per_section_and_mode(save, model):
    tabs = save["TabStates"]
    assert list(tabs) == [str(i) for i in range(len(tabs))]
    titles = [tabs[k]["title"] for k in tabs]
    assert titles == [s.heading for s in model.rules] + [f"Mode: {m.name}" for m in model.modes]
    for i, key in enumerate(tabs):
        assert tabs[key]["id"] == i and tabs[key]["body"].strip()
        assert set(tabs[key]) == {"title", "body", "color", "visibleColor", "id"}
    deal = next(tabs[k]["body"] for k in tabs if tabs[k]["title"] == "Deal table")
    assert "2 | 15" in deal and "6 | 7" in deal
    duel = next(tabs[k]["body"] for k in tabs if tabs[k]["title"] == "Mode: Duel!")
    assert duel.startswith("Players: 2\n") and "19 cards remain" in duel


def test_xml_ui_parses_and_names_every_seat(save):
    root = ET.fromstring(f"<root>{save['XmlUI']}</root>")
    ids = {e.get("id") for e in root.iter()}
    assert "get_ready" in ids
    for color in ("White", "Red", "Yellow", "Green", "Blue", "Purple"):
        assert {f"score_row_{color}", f"score_{color}"} <= ids


# --- sheets and URLs -----------------------------------------------------------------------------

def test_every_url_is_a_built_file_of_the_stated_grid(save, tts, built):
    referenced = set()
    for _, entry in custom_decks(save):
        face = url_path(entry["FaceURL"])
        back = url_path(entry["BackURL"])
        for path in (face, back):
            assert path.parent == (built / "tts" / "assets").resolve()
            assert path.is_file()
            referenced.add(path.name)
        with Image.open(face) as sheet:
            columns, rows = entry["NumWidth"], entry["NumHeight"]
            assert 1 <= columns <= MAX_COLUMNS and 1 <= rows <= MAX_ROWS
            assert sheet.width % columns == 0 and sheet.height % rows == 0
            card_w, card_h = sheet.width // columns, sheet.height // rows
            assert max(sheet.size) <= MAX_SIDE
            assert abs(card_w / card_h - 63.5 / 88.9) < 0.01  # poker proportions, trim only
            assert sheet.mode == "RGB" and sheet.format == "JPEG"
        with Image.open(back) as image:
            assert abs(image.width / image.height - 63.5 / 88.9) < 0.01
    assert referenced == {p.name for p in (tts / "assets").iterdir()}  # assets/ = exactly what to upload


def test_score_deck_sheet_is_5x4_of_731x1024(save):
    entry = objects(save, "DeckCustom")[0]["CustomDeck"]["1"]
    assert (entry["NumWidth"], entry["NumHeight"]) == (5, 4)
    with Image.open(url_path(entry["FaceURL"])) as sheet:
        assert sheet.size == (5 * 731, 4 * 1024)


def test_asset_names_carry_their_content_hash(tts):
    for path in (tts / "assets").iterdir():
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        assert path.name.endswith(f"-{digest}{path.suffix}"), path.name


def test_sheet_slots_hold_the_right_faces(save, built):
    """Slot 0 of the deck sheet is Score! 1: compare it with the trimmed face image."""
    entry = objects(save, "DeckCustom")[0]["CustomDeck"]["1"]
    with Image.open(url_path(entry["FaceURL"])) as sheet, Image.open(built / "faces/deck/score-1.png") as face:
        w, h = sheet.width // 5, sheet.height // 4
        slot = sheet.crop((0, 0, w, h)).convert("RGB").resize((20, 28))
        bleed = face.width * 3.175 / 69.85
        trimmed = face.convert("RGB").crop((round(bleed), round(bleed), round(face.width - bleed),
                                            round(face.height - bleed))).resize((20, 28))
        other = sheet.crop((w * 4, h * 3, w * 5, h * 4)).convert("RGB").resize((20, 28))  # empty slot
    diff = sum(abs(a - b) for a, b in zip(slot.tobytes(), trimmed.tobytes()))
    empty = sum(abs(a - b) for a, b in zip(other.tobytes(), trimmed.tobytes()))
    assert diff / (20 * 28 * 3) < 12 < empty / (20 * 28 * 3)


@pytest.mark.parametrize("count", [1, 2, 17, 42, 69, 70, 71, 140, 250])
def test_sheet_plan_arithmetic(count):
    grids = plan_sheets(count, 750, 1050)
    assert sum(g.slots for g in grids) >= count
    assert [min(g.slots, n) for g, n in zip(grids, split(count, len(grids)))] == split(count, len(grids))
    for grid in grids:
        assert grid.columns <= MAX_COLUMNS and grid.rows <= MAX_ROWS
        assert max(grid.size) <= MAX_SIDE
        assert grid.card_w <= 750 and grid.card_h <= 1050
    assert len(grids) >= -(-count // 70)


def test_sheet_plan_prefers_sharp_cards_then_fewer_sheets():
    assert [(g.columns, g.rows, g.card_w, g.card_h) for g in plan_sheets(17, 750, 1050)] == [(5, 4, 731, 1024)]
    assert len(plan_sheets(70, 750, 1050)) > 1  # one 10 x 7 sheet would give 409 px wide cards
    assert best_grid(70, 750, 1050).size == (10 * 409, 7 * 573)
    assert plan_sheets(0, 750, 1050) == []
    with pytest.raises(ValueError):
        best_grid(71, 750, 1050)


def test_hashed_name_changes_with_content():
    assert hashed_name("deck-sheet", b"a", "jpg") != hashed_name("deck-sheet", b"b", "jpg")
    assert re.fullmatch(r"deck-sheet-[0-9a-f]{12}\.jpg", hashed_name("deck-sheet", b"a", "jpg"))


# --- thumbnails, saved objects, round trip -------------------------------------------------------

def _assert_picture(path: Path):
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (256, 256)
        colors = image.convert("RGB").getcolors(256 * 256)
        assert len(colors) > 200  # a picture of cards, not a blank square


def test_save_thumbnail_is_a_picture(tts):
    _assert_picture(tts / "score.png")


def test_one_saved_object_per_component(tts, model):
    folder = tts / "saved-objects"
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        f"{c.id}{ext}" for c in model.components for ext in (".json", ".png"))
    deck = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    assert [o["Name"] for o in deck["ObjectStates"]] == ["DeckCustom"]
    assert len(deck["ObjectStates"][0]["ContainedObjects"]) == 42
    reminders = json.loads((folder / "reminders.json").read_text(encoding="utf-8"))
    assert [o["Name"] for o in reminders["ObjectStates"]] == ["Card", "Card"]
    for c in model.components:
        _assert_picture(folder / f"{c.id}.png")


def test_json_round_trip(tts):
    for path in [tts / "score.json", *sorted((tts / "saved-objects").glob("*.json"))]:
        raw = path.read_bytes()
        data = json.loads(raw)
        assert tts_save.dump(data) == raw  # nothing lost or reordered
        assert json.loads(json.dumps(data)) == data


# --- options -------------------------------------------------------------------------------------

def test_asset_url_and_determinism(tmp_path):
    urls = []
    outputs = []
    for name in ("one", "two"):
        result = run_cli("build", "score", "--out", str(tmp_path / name), "--quiet",
                         "--asset-url", "https://example.org/score")
        assert result.exit_code == 0, result.stderr
        tts = tmp_path / name / "score" / "tts"
        outputs.append({p.relative_to(tts).as_posix(): p.read_bytes() for p in sorted(tts.rglob("*")) if p.is_file()})
        data = json.loads((tts / "score.json").read_text(encoding="utf-8"))
        urls = [e[k] for _, e in custom_decks(data) for k in ("FaceURL", "BackURL")]
    assert outputs[0] == outputs[1]  # byte-identical builds
    assert urls and all(u.startswith("https://example.org/score/") for u in urls)
    names = {u.rsplit("/", 1)[1] for u in urls}
    assert names == {p.name for p in (tmp_path / "two" / "score" / "tts" / "assets").iterdir()}
