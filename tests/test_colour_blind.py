"""`deckpress check --colour-blind` and `deckpress preview --simulate` on a project made by `deckpress new`,
its cards given colours that differ in their `colour` field (the component's `colour_blind.distinct_by`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from conftest import run_cli
from deckpress import colour_blind
from deckpress.preview import THUMB_W

CARDS_START, CARDS_END = "    cards:\n      # A family", "        text: Play it on any card, then play again.\n"


def project(tmp_path: Path, colours: dict[str, str], distinct_by: str = "colour") -> Path:
    """A new project whose main deck holds one card per colour (`Red 5: '#b03a2e'`), alike but for it."""
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    deck = root / "decks" / "game.yaml"
    text = deck.read_text(encoding="utf-8")
    cards = "".join(f"      - {{name: {name}, value: 5, count: 20, colour: \"{colour}\"}}\n"
                    for name, colour in colours.items())
    start, end = text.index(CARDS_START), text.index(CARDS_END) + len(CARDS_END)
    deck.write_text(text[:start] + f"    colour_blind: {{distinct_by: {distinct_by}}}\n    cards:\n" + cards +
                    text[end:], encoding="utf-8")
    return root


def warnings(root: Path, *options: str) -> tuple[int, list[str]]:
    result = run_cli("check", "game", "--colour-blind", *options, cwd=root)
    assert "Traceback" not in result.stderr
    return result.exit_code, [line for line in result.stderr.splitlines() if "warning:" in line]


def test_red_and_green_look_alike_to_a_deuteranope(tmp_path):
    root = project(tmp_path, {"Red 5": "#b03a2e", "Green 5": "#3a8a2e"})
    status, said = warnings(root)
    assert status == 0
    deutan = [line for line in said if "under deuteranopia" in line]
    assert len(deutan) == 1, said
    line = deutan[0]
    assert line.startswith("decks/game.yaml:") and "1 pair of cards of deck with a different colour looks alike" in line
    assert "alike, 'red-5' and 'green-5' (ΔE" in line and "< 10" in line
    assert "`deckpress preview game --simulate deuteranopia` shows them" in line
    assert not any("tritanopia" in line for line in said), said

    status, said = warnings(root, "--strict")  # --strict: the warnings fail the check
    assert status == 1 and said


def test_sky_blue_and_green_look_alike_to_a_tritanope_only(tmp_path):
    """Blue against green is the tritanope's confusion (the model keeps blue and yellow apart for every
    viewer: they differ in lightness and along the axis it keeps)."""
    root = project(tmp_path, {"Blue 5": "#37b6e1", "Green 5": "#2cc733"})
    status, said = warnings(root)
    assert status == 0 and len(said) == 1, said
    assert "under tritanopia 1 pair" in said[0] and "'blue-5' and 'green-5'" in said[0]


def test_colours_far_apart_give_no_warning(tmp_path):
    root = project(tmp_path, {"Navy 5": "#1f3a93", "Yellow 5": "#f4d03f", "Black 5": "#202020"})
    status, said = warnings(root, "--strict")
    assert (status, said) == (0, [])


def test_cards_alike_for_every_viewer_are_not_counted(tmp_path):
    """Two reds a hair apart: nobody tells them by colour, so no condition makes them alike."""
    root = project(tmp_path, {"Red 5": "#b03a2e", "Redder 5": "#b3382e"})
    assert warnings(root, "--strict") == (0, [])


def test_cards_of_the_same_value_of_the_field_are_not_compared(tmp_path):
    root = project(tmp_path, {"Red 5": "#b03a2e", "Green 5": "#3a8a2e"}, distinct_by="value")
    assert warnings(root, "--strict") == (0, [])


def test_a_deck_that_names_no_field_is_told(tmp_path):
    root = tmp_path / "plain"
    assert run_cli("new", str(root), "--name", "Plain").exit_code == 0
    result = run_cli("check", "--colour-blind", cwd=root)
    assert result.exit_code == 0
    assert result.stderr.strip() == ("decks/plain.yaml:3:1: warning: --colour-blind compares the cards a component "
                                     "tells apart by a field, and no component names one; add e.g. `colour_blind: "
                                     "{distinct_by: suit}` to a component")
    assert run_cli("check", cwd=root).stderr == ""  # without the flag, nothing is said


def test_a_distinct_by_naming_no_field_is_one_located_line(tmp_path):
    root = project(tmp_path, {"Red 5": "#b03a2e", "Green 5": "#3a8a2e"}, distinct_by="suit")
    line = next(n for n, text in enumerate((root / "decks/game.yaml").read_text().splitlines(), 1)
                if "colour_blind" in text)
    for command in ("check", "build"):
        result = run_cli(command, "game", cwd=root)
        assert result.exit_code == 1 and "Traceback" not in result.stderr
        assert result.stderr.splitlines() == [
            f"decks/game.yaml:{line}:33: distinct_by: 'suit' is no field of the cards of 'deck'; name one of their "
            "fields: id, name, count, value, colour, text"]


def _encode(x: float) -> int:
    """The sRGB encoding of linear light (IEC 61966-2-1), as 8 bits."""
    x = min(max(x, 0.0), 1.0)
    return round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))


def test_preview_shows_the_sheet_as_a_deuteranope_sees_it(tmp_path):
    root = project(tmp_path, {"Red 5": "#ff0000", "Green 5": "#3a8a2e"})
    plain = run_cli("preview", "game", cwd=root)
    simulated = run_cli("preview", "game", "--simulate", "deuteranopia", cwd=root)
    assert plain.exit_code == simulated.exit_code == 0, simulated.stderr
    assert simulated.stdout.split() == ["build/game-preview-deuteranopia.png",
                                        "build/game-preview-deuteranopia-hand.png"]
    swatch = (16 + 8, 16 + 8)  # the first thumbnail's corner: the red card's bleed and border
    assert Image.open(root / "build/game-preview.png").convert("RGB").getpixel(swatch) == (255, 0, 0)
    seen = Image.open(root / "build/game-preview-deuteranopia.png").convert("RGB").getpixel(swatch)
    # Machado et al. 2009, deuteranopia at severity 1: linear red (1, 0, 0) becomes the matrix's first column.
    expected = (_encode(0.367322), _encode(0.280085), _encode(-0.011820))
    assert expected == (163, 144, 0)
    assert all(abs(a - b) <= 1 for a, b in zip(seen, expected)), seen
    card = run_cli("preview", "game", "--card", "red-5", "--simulate", "protanopia", cwd=root)
    assert card.stdout.split() == ["build/game-red-5-protanopia.png"]
    assert Image.open(root / "build/game-red-5-protanopia.png").width > THUMB_W


def test_an_unknown_simulation_is_a_usage_error(tmp_path):
    root = project(tmp_path, {"Red 5": "#b03a2e"})
    result = run_cli("preview", "game", "--simulate", "greenblind", cwd=root)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert errors == ["Error: Invalid value for '--simulate': 'greenblind' is no colour blindness deckpress "
                      "simulates; write protanopia or deuteranopia or tritanopia"]
    assert not (root / "build").exists()


@pytest.mark.parametrize("one, two, expected", [  # Sharma, Wu & Dalal 2005, Table 1: pairs 1, 7, 17, 18, 19, 20
    ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
    ((50, 0, 0), (50, -1, 2), 2.3669),
    ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ((50, 2.5, 0), (61, -5, 29), 22.8977),
    ((50, 2.5, 0), (56, -27, -3), 31.9030),
    ((50, 2.5, 0), (58, 24, 15), 19.4535),
])
def test_ciede2000_matches_the_published_test_data(one, two, expected):
    assert colour_blind.delta_e(one, two) == pytest.approx(expected, abs=1e-4)
