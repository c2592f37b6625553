"""Scoop, Scout and Skorch: each deck's card list and counts against its seed, its special features, and
that each builds. Interpretations are the G-<Game>-N clauses of docs/games.md."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from deckpress.deck import load_deck
from deckpress.render import face_pixels, mm_to_px

GAMES = ["scoop", "scout", "skorch"]
POKER_PX = (825, 1125)


def load(game: str, lang: str | None = None):
    return load_deck(ROOT / "decks" / f"{game}.yaml", lang)


def component(deck, cid: str):
    return next(c for c in deck.model.components if c.id == cid)


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """The three games built once (Scout also in English, into OUT/en)."""
    root = tmp_path_factory.mktemp("games")
    result = run_cli("build", *GAMES, "--out", str(root), "--quiet")
    assert result.exit_code == 0, result.stderr
    result = run_cli("build", "scout", "--lang", "en", "--out", str(root / "en"), "--quiet")
    assert result.exit_code == 0, result.stderr
    return root


def face(out: Path, game: str, cid: str, card_id: str) -> Image.Image:
    with Image.open(out / game / "faces" / cid / f"{card_id}.png") as img:
        return img.convert("RGB")


def region(img: Image.Image, x: float, y: float, w: float, h: float, bleed: float = 3.175) -> list[tuple]:
    """Pixels of a box given in mm from the trim's top-left corner."""
    box = tuple(round(mm_to_px(v)) for v in (x + bleed, y + bleed, x + w + bleed, y + h + bleed))
    data = img.crop(box).tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def rules_text(deck) -> str:
    """Every string of the rules pages, in the deck's build language."""
    out = []
    for section in deck.model.rules:
        out.append(section.heading)
        for block in section.body:
            content = block.content
            if block.kind == "table":
                out += content.header + [cell for row in content.rows for cell in row]
            else:
                out += content if isinstance(content, list) else [content]
    return "\n".join(out)


def count(pixels, test) -> int:
    return sum(1 for p in pixels if test(p))


def white(p) -> bool:
    return min(p) > 235


# --- every game ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_game_builds_every_face_at_print_size(out, game):
    deck = load(game)
    manifest = json.loads((out / game / "manifest.json").read_text(encoding="utf-8"))
    for comp in deck.model.components:
        expected = face_pixels(comp.size, deck.model.bleed)
        for card in comp.cards:
            rel = f"faces/{comp.id}/{card.id}.png"
            assert rel in manifest["artifacts"], rel
            with Image.open(out / game / rel) as img:
                assert img.size == expected, rel
    assert all(p.stat().st_size > 0 for p in (out / game / "faces").rglob("*.png"))


def test_check_without_arguments_sees_all_four_games():
    result = run_cli("check")
    assert result.exit_code == 0, result.stderr
    for game in ["score", *GAMES]:
        assert f"decks/{game}.yaml: ok" in result.stdout


# --- Scoop ----------------------------------------------------------------------------------------------

SCOOP_POINTS = {  # rank: (Go Pile, Game Pile), from the seed's MOVES and SPECIAL MOVES
    "A": (1, 1), "2": (-1, -1), **{str(n): (1, 0) for n in range(3, 10)}, "10": (2, 0),
    "J": (0, 1), "Q": (0, 1), "K": (0, 1),
}


def test_scoop_is_a_standard_52_card_deck():
    deck = component(load("scoop"), "deck")
    cards = [(c.extra["suit"], c.extra["rank"]) for c in deck.cards for _ in range(c.count)]
    assert len(cards) == 52 and len(set(cards)) == 52
    assert set(cards) == set(itertools.product(["spades", "hearts", "diamonds", "clubs"], SCOOP_POINTS))
    for card in deck.cards:
        colour = "red" if card.extra["suit"] in ("hearts", "diamonds") else "black"
        assert card.extra["colour"] == colour
        assert card.extra["symbol"] == {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}[
            card.extra["suit"]]
    assert {c.id for c in deck.cards} >= {"ace-of-spades", "ten-of-hearts", "queen-of-diamonds", "king-of-clubs"}


def test_scoop_scoring_table_on_the_cards_and_in_setup():
    deck = load("scoop")
    for card in component(deck, "deck").cards:
        assert (card.extra["go"], card.extra["game"]) == SCOOP_POINTS[card.extra["rank"]], card.name
    scoring = deck.model.setup.options["scoring"]
    assert {r: (scoring["go"][r], scoring["game"][r]) for r in SCOOP_POINTS} == SCOOP_POINTS
    # the seed's extremes of a winner's Game Pile: -4 (all four 2s) and 16 (12 face cards and 4 aces)
    game_points = [c.extra["game"] for c in component(deck, "deck").cards]
    assert sum(p for p in game_points if p < 0) == -4 and sum(p for p in game_points if p > 0) == 16


def test_scoop_moves_and_piles_are_on_reminders_mats_and_rules():
    deck = load("scoop")
    reminders = component(deck, "reminders")
    text = " ".join(c.name + " " + c.extra["text"] for c in reminders.cards)
    for word in ("SCOOP", "SWITCH", "GO PILE", "GAME PILE"):
        assert word in text
    assert {s.heading for s in deck.model.rules} >= {"Scoring", "SCOOP", "SWITCH"}
    mats = component(deck, "mats")
    assert mats.type == "tokens" and mats.cards[0].count == deck.model.game.players.max
    assert [p["name"] for p in mats.cards[0].extra["piles"]] == ["GO PILE", "GAME PILE"]
    assert deck.model.setup.options["piles"] == ["go", "game"]


def test_scoop_faces_draw_pips_in_the_suit_colour(out):
    def red(p):
        return p[0] > 150 and p[1] < 90 and p[2] < 90

    def ink(p):
        return max(p) < 90

    for card_id, is_red in (("seven-of-hearts", True), ("seven-of-spades", False), ("king-of-diamonds", True)):
        pixels = region(face(out, "scoop", "deck", card_id), 0, 0, 63.5, 88.9)
        assert count(pixels, red if is_red else ink) > 2000, card_id
        assert count(pixels, ink if is_red else red) == 0, card_id
    # pips: more ink on a 10 than on a 2; the corner index turns into the bottom-right corner
    ten, two = face(out, "scoop", "deck", "ten-of-clubs"), face(out, "scoop", "deck", "two-of-clubs")
    assert count(region(ten, 14, 10, 36, 69), ink) > 3 * count(region(two, 14, 10, 36, 69), ink)
    assert count(region(two, 51.5, 70.5, 8.6, 14.8), ink) > 300


# --- Scout ----------------------------------------------------------------------------------------------

def test_scout_has_one_card_per_pair_of_distinct_values():
    deck = component(load("scout"), "deck")
    pairs = [(c.extra["top"], c.extra["bottom"]) for c in deck.cards for _ in range(c.count)]
    assert len(pairs) == 45
    assert set(pairs) == set(itertools.combinations(range(1, 11), 2))
    for card in deck.cards:
        top, bottom = card.extra["top"], card.extra["bottom"]
        assert card.name == f"{top}/{bottom}" and card.id == f"{top}-{bottom}"
        assert card.extra["ten"] is (bottom == 10)
    assert sum(c.extra["ten"] for c in deck.cards) == 9
    assert {c.id for c in deck.cards} >= {"9-10", "1-2"}


def test_scout_setup_by_player_count():
    deck = load("scout")
    setup = deck.model.setup
    tens = sorted(c.id for c in component(deck, "deck").cards if c.extra["ten"])
    assert sorted(setup.remove[3]) == tens
    assert setup.remove[2] == ["9-10"] and setup.remove[4] == ["9-10"] and 5 not in setup.remove
    assert setup.deal == {2: 11, 3: 12, 4: 11, 5: 9}
    ids = {c.id for c in component(deck, "deck").cards}
    for players, dealt in setup.deal.items():
        removed = set(setup.remove.get(players, []))
        assert removed <= ids
        assert players * dealt <= 45 - len(removed), players
    assert setup.options["first_player_card"] in ids


def test_scout_components_tokens_and_marker():
    deck = load("scout")
    tokens = {c.id: c for c in deck.model.components if c.type == "tokens"}
    assert set(tokens) == {"chips", "scout-tokens", "stars", "first-player"}
    assert tokens["chips"].cards[0].count == deck.model.game.players.max  # one per player
    assert sum(c.count for c in tokens["first-player"].cards) == 1
    assert all(t.shape == "circle" and t.size[0] == t.size[1] for t in tokens.values())
    assert {c.extra["value"] for c in tokens["stars"].cards} == {1, 5}


def test_scout_text_in_russian_and_english():
    ru, en = load("scout"), load("scout", "en")
    assert ru.lang == "ru" and en.lang == "en"
    assert ru.model.game.languages == ["ru", "en"]
    assert [s.heading for s in ru.model.rules][:2] == ["Материалы", "Подготовка"]
    assert [s.heading for s in en.model.rules][:2] == ["Components", "Setup"]
    assert len(ru.model.rules) == len(en.model.rules)
    assert component(ru, "reminders").cards[0].name == "Подготовка"
    assert component(en, "reminders").cards[0].name == "Setup"
    # ids stay the same in every language, so scripts and setup.remove do not depend on it
    assert [c.id for c in component(ru, "reminders").cards] == [c.id for c in component(en, "reminders").cards]
    assert "белым символом" in rules_text(ru) and "white symbol" in rules_text(en)
    assert not any("а" <= ch <= "я" for ch in rules_text(en).lower())


def test_scout_lang_flag_builds_the_other_edition(out):
    ru = face(out, "scout", "reminders", "setup")
    en = face(Path(out / "en"), "scout", "reminders", "setup")
    assert ru.size == en.size == POKER_PX and ru.tobytes() != en.tobytes()
    assert json.loads((out / "en" / "scout" / "manifest.json").read_text())["language"] == "en"
    result = run_cli("check", "scout", "--lang", "de")
    assert result.exit_code == 1 and "--lang ru or --lang en" in result.stderr


def test_scout_faces_show_the_second_value_turned(out):
    for card in component(load("scout"), "deck").cards:
        img = face(out, "scout", "deck", card.id)
        # the large value top-left and, turned, bottom-right: white digits on the half's colour
        top_left = region(img, 3.4, 3.6, 18, 16)
        bottom_right = region(img, 63.5 - 21.4, 88.9 - 19.6, 18, 16)
        assert count(top_left, white) > 400, card.id
        assert count(bottom_right, white) > 400, card.id
        # the two halves are in the colours of their values
        assert img.getpixel((30, 30)) != img.getpixel((img.width - 30, img.height - 30)), card.id


def test_scout_ten_cards_carry_the_white_mark_in_the_middle(out):
    for card in component(load("scout"), "deck").cards:
        centre = region(face(out, "scout", "deck", card.id), 63.5 / 2 - 4, 88.9 / 2 - 4, 8, 8)
        if card.extra["ten"]:
            assert count(centre, white) > 200, card.id
        else:
            assert count(centre, white) == 0, card.id


# --- Skorch ---------------------------------------------------------------------------------------------

def test_skorch_has_the_seeds_77_cards_and_the_face_off_expansion():
    deck = load("skorch")
    main = component(deck, "deck")
    kinds = Counter(c.extra["kind"] for c in main.cards for _ in range(c.count))
    assert kinds == {"attack": 60, "elude": 4, "shield": 4, "demoter": 4, "skorch": 4, "undead": 1}
    assert sum(kinds.values()) == 77
    attacks = Counter(c.extra["value"] for c in main.cards if c.extra["kind"] == "attack" for _ in range(c.count))
    assert attacks == {v: 6 for v in range(1, 11)}
    assert not main.optional
    faceoff = component(deck, "faceoff")
    assert faceoff.optional and [(c.name, c.extra["kind"], c.count) for c in faceoff.cards] == [
        ("Face-off", "faceoff", 1)]


def test_skorch_prison_layout_in_setup_on_the_help_card_and_in_the_rules():
    deck = load("skorch")
    prison = deck.model.setup.options["prison"]
    assert prison == {"back": ["down", "up", "down", "up", "down"], "front": ["up", "down", "up", "down", "up"]}
    # the objective's description: three down and two up behind, three up and two down in front
    assert Counter(prison["back"]) == {"down": 3, "up": 2} and Counter(prison["front"]) == {"up": 3, "down": 2}
    card = next(c for c in component(deck, "reminders").cards if c.extra["prison"])
    assert card.extra["prison"] == prison
    rows = [b.table.rows for s in deck.model.rules for b in s.body if b.kind == "table" and b.table.header[0] == "Prison"]
    assert rows and [r[1:] for r in rows[0]] == [prison["back"], prison["front"]]
    setup = deck.model.setup
    assert set(setup.deal.values()) == {5}
    # everyone's 15 cards (prison and hand) and the first discard fit in the 77-card deck
    assert max(setup.deal) * (10 + 5) + setup.options["start_discard"] <= 77


def test_skorch_prison_card_draws_down_and_up_cards(out):
    deck = load("skorch")
    card = next(c for c in component(deck, "reminders").cards if c.extra["prison"])
    img = face(out, "skorch", "reminders", card.id)
    layout = card.extra["prison"]["back"] + card.extra["prison"]["front"]
    for index, state in enumerate(layout):  # the template's grid: 11 mm apart, rows 21 mm apart
        x, y = 5 + (index % 5) * 11, 20.5 + (index // 5) * 21
        pixels = region(img, x + 1, y + 1, 7.5, 2.5)  # a strip above the state label
        dark = count(pixels, lambda p: max(p) < 140)
        assert (dark > len(pixels) / 2) is (state == "down"), (index, state)


def test_skorch_faces_one_per_unique_card(out):
    faces = sorted(p.stem for p in (out / "skorch" / "faces" / "deck").glob("*.png"))
    assert faces == sorted([f"attack-{n}" for n in range(1, 11)]
                           + ["elude", "shield", "demoter", "skorch", "undead", "back"])
    assert (out / "skorch" / "faces" / "faceoff" / "face-off.png").is_file()
