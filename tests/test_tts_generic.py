"""The TTS export works for any deck: several sheets, per-card backs, tokens, optional and reminder
components, a one-card component, PNG sheets and chosen seats (a made-up deck in a temporary project)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import urlparse

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from helpers.fake_tts import FakeTTS, timing  # noqa: F401 (timing: every test at 0, 1, 20 frames)

DECK = """
game: {name: "Generic \\"test\\" ]] game", players: {min: 2, max: 4}}
card_size: mini
components:
  - id: big
    name: Big deck
    template: gen-card
    back: gen-back-a
    fields: {text: {doc: Text., default: ""}}
    cards:
      - each: {n: [%s]}
        name: "Card {{ n }}"
        back: "{{ 'gen-back-a' if n %% 2 else 'gen-back-b' }}"
        text: "Effect {{ n }} \\u2605 \\"quoted\\" ]]"
        count: "{{ 2 if n < 4 else 1 }}"
  - id: extra
    name: Expansion
    optional: true
    template: gen-card
    back: gen-back-a
    cards:
      - {name: Extra 1}
      - {name: Extra 2}
  - id: help
    name: Help
    role: reminder
    template: gen-card
    cards:
      - {name: Only help}
  - id: chips
    name: Chips
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: gen-card
    token: {thickness: 0.3}
    cards:
      - {name: Red chip, count: 5}
      - {name: Blue chip, count: 3}
setup:
  deal: {2: 10, 3: 8, 4: 6}
  remove: {2: [card-1]}
print: {profiles: []}
tts:
  image_format: png
  seats: [White, Blue, Red]
rules:
  - heading: Play
    body: ["Play [b]well[/b]."]
modes:
  - id: solo
    name: Solo
    rules: ["Alone."]
""" % ", ".join(str(n) for n in range(1, 76))

TEMPLATES = {
    "gen-card": """elements:
  - {type: rect, box: bleed, fill: "#d0e0f0"}
  - {type: text, box: safe, h: 8, text: "{{ card.name }}", size: 8, min_size: 4}
""",
    "gen-back-a": "elements:\n  - {type: rect, box: bleed, fill: \"#802020\"}\n",
    "gen-back-b": "elements:\n  - {type: rect, box: bleed, fill: \"#208020\"}\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("generic")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "decks" / "gen.yaml").write_text(DECK, encoding="utf-8")
    for name, text in TEMPLATES.items():
        (root / "templates" / f"{name}.yaml").write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "tts", root / "tts")
    result = run_cli("build", "gen", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    return root


@pytest.fixture(scope="module")
def save(project) -> dict:
    return json.loads((project / "build/gen/tts/gen.json").read_text(encoding="utf-8"))


def by_tag(save, tag):
    return [o for o in save["ObjectStates"] if tag in o["Tags"]]


def test_big_deck_spans_several_sheets_with_unique_backs(save, project):
    [deck] = [o for o in by_tag(save, "big") if o["Name"] == "DeckCustom"]
    assert len(deck["ContainedObjects"]) == 78  # 75 cards, three of them twice
    assert deck["DeckIDs"] == [c["CardID"] for c in deck["ContainedObjects"]]
    sheets = deck["CustomDeck"]
    assert len(sheets) >= 2
    slots = 0
    for key, entry in sheets.items():
        assert entry["UniqueBack"] is True
        face, back = (Path(urlparse(entry[k]).path) for k in ("FaceURL", "BackURL"))
        assert face.suffix == back.suffix == ".png"
        with Image.open(face) as f, Image.open(back) as b:
            assert f.size == b.size and max(f.size) <= 4096
            w, h = f.width // entry["NumWidth"], f.height // entry["NumHeight"]
            assert (f.width, f.height) == (w * entry["NumWidth"], h * entry["NumHeight"])
            # card 1 (odd: red back) and card 2 (even: green back) sit in the first two slots of sheet 1
            if key == min(sheets, key=int):
                red, green = b.getpixel((w // 2, h // 2)), b.getpixel((w + w // 2, h // 2))
                assert red[0] > 100 > red[1] and green[1] > 100 > green[0]
        slots += entry["NumWidth"] * entry["NumHeight"]
    assert slots >= 75
    ids = {c["CardID"] for c in deck["ContainedObjects"]}
    assert len(ids) == 75 and all(str(i // 100) in sheets for i in ids)


def test_keys_unique_across_components(save):
    keys: dict[str, str] = {}
    for state in save["ObjectStates"]:
        for inner in [state, *state.get("ContainedObjects", [])]:
            for key, entry in inner.get("CustomDeck", {}).items():
                assert keys.setdefault(key, entry["FaceURL"]) == entry["FaceURL"]
    assert len(set(keys.values())) == len(keys) >= 4


def test_optional_deck_is_separate_and_single_reminder_is_a_card(save):
    [extra] = by_tag(save, "extra")
    assert extra["Name"] == "DeckCustom" and "optional" in extra["Tags"]
    [main] = [o for o in by_tag(save, "big") if o["Name"] == "DeckCustom"]
    assert not any(c["Nickname"].startswith("Extra") for c in main["ContainedObjects"])
    [help_card] = by_tag(save, "help")
    assert help_card["Name"] == "Card" and help_card["Transform"]["rotZ"] == 0


def test_tokens_are_one_tile_stack_per_kind_as_tts_writes_them(save, project):
    stacks = by_tag(save, "chips")
    assert [(t["Name"], t["Nickname"], t["Number"]) for t in stacks] == \
        [("Custom_Tile_Stack", "Red chip", 5), ("Custom_Tile_Stack", "Blue chip", 3)]
    for stack in stacks:
        assert stack["HideWhenFaceDown"] is False and stack["Hands"] is False
        assert "ContainedObjects" not in stack
        image = stack["CustomImage"]
        assert image["CustomTile"]["Type"] == 2 and image["CustomTile"]["Thickness"] == 0.3
        assert image["CustomTile"]["Stackable"] is True
        assert image["ImageSecondaryURL"] == image["ImageURL"]  # no back template: the face on both sides
        assert Path(urlparse(image["ImageURL"]).path).is_file()
    saved = json.loads((project / "build/gen/tts/saved-objects/chips.json").read_text(encoding="utf-8"))
    assert [o["Number"] for o in saved["ObjectStates"]] == [5, 3]


def test_seats_text_and_assets(save, project):
    assert [o["FogColor"] for o in save["ObjectStates"] if o["Name"] == "HandTrigger"] == ["White", "Blue", "Red"]
    card = next(c for c in save["ObjectStates"][3]["ContainedObjects"] if c["Nickname"] == "Card 5")
    assert card["Description"] == 'Effect 5 ★ "quoted" ]]'
    urls = set()
    for state in save["ObjectStates"]:
        for inner in [state, *state.get("ContainedObjects", [])]:
            for entry in inner.get("CustomDeck", {}).values():
                urls |= {entry["FaceURL"], entry["BackURL"]}
            if "CustomImage" in inner:
                urls |= {inner["CustomImage"]["ImageURL"], inner["CustomImage"]["ImageSecondaryURL"]}
    assets = project / "build/gen/tts/assets"
    assert {Path(urlparse(u).path).name for u in urls} == {p.name for p in assets.iterdir()}


def test_get_ready_removes_cards_for_the_player_count_and_deals(save):
    table = FakeTTS(save, seated=["Red", "White"])
    table.click("uiGetReady", "Red")
    assert len(table.hand("White")) == len(table.hand("Red")) == 10
    dealt = table.hand("White") + table.hand("Red")
    assert "Card 1" not in dealt  # setup.remove for 2 players
    assert any("2 cards set aside" in b for b in table.broadcasts)
    assert table.hand("Blue") == []
    table = FakeTTS(save, seated=["Red", "White", "Pink"])
    table.click("uiGetReady", "Red")
    assert len(table.hand("Red")) == 10 and any("Pink has no hand zone" in b for b in table.broadcasts)
