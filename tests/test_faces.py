"""The SCORE! faces: what a designer and a printer rely on."""

from __future__ import annotations

import hashlib
import json

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from deckpress.deck import load_deck

SEED_COUNTS = {
    "Score! 1": 1, "Score! 2": 2, "Score! 3": 3, "Score! 4": 4, "Score! 5": 5, "Score! 6": 6, "Double!": 3,
    "Fire! 1": 1, "Fire! 2": 2, "Fire! 3": 3, "Bomb! 1": 1, "Bomb! 2": 2, "Bomb! 3": 3, "Deny!": 3,
    "CW!": 1, "CCW!": 1, "No!": 1,
}
SEED_ORDER = {"No!": 1, "Deny!": 2, "CW!": 3, "CCW!": 3, "Score! 3": 4, "Score! 4": 4, "Score! 5": 4,
              "Score! 6": 4, "Double!": 5, "Bomb! 1": 6, "Bomb! 2": 6, "Bomb! 3": 6, "Fire! 1": 7, "Fire! 2": 7,
              "Fire! 3": 7, "Score! 1": 8, "Score! 2": 8}


@pytest.fixture(scope="module")
def score():
    return load_deck(ROOT / "decks" / "score.yaml")


def test_score_deck_has_the_seeds_42_cards(score):
    deck = next(c for c in score.model.components if c.id == "deck")
    assert {c.name: c.count for c in deck.cards} == SEED_COUNTS
    assert sum(c.count for c in deck.cards) == 42
    assert {c.name: c.extra["priority"] for c in deck.cards} == SEED_ORDER


def test_score_deck_data_for_the_rules(score):
    model = score.model
    assert (model.game.players.min, model.game.players.max) == (1, 6)  # G-Score-1: solo modes
    solo = [m.id for m in model.modes if m.players.max == 1]
    assert solo == ["scorlitaire", "scorliroad", "score-against"]
    assert model.setup.deal == {2: 15, 3: 12, 4: 9, 5: 8, 6: 7}
    assert [m.name for m in model.modes] == ["Classic!", "Brutal!", "Duel!", "Teamwork!", "Teamscore!",
                                             "New order!", "Randomness!", "Decking!", "Scorlitaire!",
                                             "Scorliroad!", "Score Against!"]
    fire = score.card("deck", "fire-3")
    assert fire.extra["effect"] == [{"who": "target", "add": -3, "per": "adversary"}] and fire.extra["target"]
    reminders = next(c for c in model.components if c.id == "reminders")
    assert reminders.role == "reminder" and [c.name for c in reminders.cards] == ["Effect order", "Game modes"]


def test_one_png_per_unique_face_and_back_at_300_dpi_with_bleed(built):
    faces = sorted(p.relative_to(built).as_posix() for p in (built / "faces").rglob("*.png"))
    assert len(faces) == 17 + 2 + 2  # 17 unique play cards, 2 help cards, one back per component
    for rel in faces:
        with Image.open(built / rel) as img:
            assert img.size == (825, 1125), rel
            assert round(img.info["dpi"][0]) == 300
            assert img.mode == "RGB"


def test_backgrounds_run_into_the_bleed(built):
    with Image.open(built / "faces/deck/fire-2.png") as img:
        corners = [img.getpixel(p) for p in [(2, 2), (822, 2), (2, 1122), (822, 1122)]]
    red = corners[0]
    assert red[0] > 180 and red[1] < 80 and red[2] < 80  # the Fire! family colour, not white
    assert len(set(corners)) == 1


def test_families_have_distinct_colours_and_big_values(built):
    colours = {}
    for card in ("score-3", "fire-3", "bomb-3", "double", "deny", "cw", "no"):
        with Image.open(built / f"faces/deck/{card}.png") as img:
            colours[card] = img.getpixel((5, 5))
    assert len(set(colours.values())) == len(colours)
    # At TTS thumbnail size (~100 px wide) the value still stands out: the disc centre holds white strokes.
    with Image.open(built / "faces/deck/score-6.png") as img:
        thumb = img.resize((100, 136), Image.LANCZOS)
        disc = thumb.crop((30, 35, 70, 75))
        whites = disc.convert("L").point(lambda v: 255 if v > 200 else 0).histogram()[255]
    assert whites > 150


def test_manifest_lists_every_artifact_with_its_hash_and_the_inputs(built):
    manifest = json.loads((built / "manifest.json").read_text())
    files = {p.relative_to(built).as_posix() for p in built.rglob("*") if p.is_file()} - {"manifest.json"}
    assert set(manifest["artifacts"]) == files
    for rel, info in manifest["artifacts"].items():
        assert hashlib.sha256((built / rel).read_bytes()).hexdigest() == info["sha256"]
    assert "decks/score.yaml" in manifest["inputs"]
    assert "templates/score-card.yaml" in manifest["inputs"]
    assert "deckpress:print/a4.yaml" in manifest["inputs"]
    assert "deckpress" in manifest["inputs"]  # deckpress's code and package data, built-in fonts included


def test_rebuild_is_byte_identical_and_reuses_faces(tmp_path):
    out = tmp_path / "build"
    def tree(root):
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert run_cli("build", "score", "--out", str(out), "--quiet").exit_code == 0
    first = tree(out / "score")
    (out / "score").rename(tmp_path / "first")  # the second build starts from nothing
    assert run_cli("build", "score", "--out", str(out), "--quiet").exit_code == 0
    second = tree(out / "score")
    assert first.keys() == second.keys()
    assert [k for k in first if first[k] != second[k]] == []
    again = run_cli("build", "score", "--out", str(out))
    assert again.exit_code == 0 and "up to date" in again.stdout


def test_one_changed_card_rerenders_only_that_face(tmp_path):
    import shutil
    (tmp_path / "decks").mkdir()
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    deck = tmp_path / "decks" / "score.yaml"
    deck.write_text((ROOT / "decks" / "score.yaml").read_text())
    assert run_cli("build", "score", "--quiet", cwd=tmp_path).exit_code == 0
    deck.write_text(deck.read_text().replace("Everyone gives their card to the player clockwise.",
                                              "Everyone passes their card clockwise."))
    result = run_cli("build", "score", cwd=tmp_path)
    assert result.exit_code == 0
    assert "(1 faces rendered, 20 reused)" in result.stdout


def test_a_new_card_needs_only_yaml(tmp_path):
    """The README's example: Steal! 2 added with one YAML block."""
    import shutil
    (tmp_path / "decks").mkdir()
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    text = (ROOT / "decks" / "score.yaml").read_text()
    block = ("      - name: Steal! 2\n        kind: bomb\n        value: 2\n        priority: 6.5\n"
             "        effect: [{who: adversaries, add: -2}]\n"
             "        text: Every adversary loses 2 points.\n")
    text = text.replace("  - id: reminders", block + "\n  - id: reminders")
    (tmp_path / "decks" / "score.yaml").write_text(text)
    assert run_cli("build", "score", "--quiet", cwd=tmp_path).exit_code == 0
    with Image.open(tmp_path / "build/score/faces/deck/steal-2.png") as img:
        assert img.size == (825, 1125)
