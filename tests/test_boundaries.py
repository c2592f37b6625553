"""Limits a user relies on, tested exactly at their boundary: text at its min_size and not a half point
below, the safe zone to the hundredth of a mm, a folder beside the project that shares its name's
prefix, XML comments with any run of dashes, the back offset's finite range, and the largest number and
the longest text a deck may hold."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import ImageFont

from conftest import run_cli
from deckpress.cli import _options, build
from deckpress.deck import load_deck
from deckpress.errors import DeckError, Where
from deckpress.paths import OutsideProject, confine
from deckpress.render import DPI, FaceRenderer
from deckpress.sizes import MAX_BACK_OFFSET
from deckpress.source import MAX_INT, MAX_TEXT_CHARS, not_plain
from deckpress.builders.tts.lua import xml_comment

DECK = """\
game: {name: Edges, players: {min: 2, max: 4}}
components:
  - {id: deck, name: Deck, template: card, cards: [{name: One}]}
"""
W, H = 63.5, 88.9  # poker
SAFE = 3.175  # the deck's safe margin, by default
PX_PER_MM = DPI / 25.4


def draw(root: Path, elements: str):
    """The poker face of a template of `elements` (YAML flow list items, one a line), and its renderer."""
    for folder in ("decks", "templates"):
        (root / folder).mkdir(exist_ok=True)
    (root / "decks" / "edges.yaml").write_text(DECK, encoding="utf-8")
    (root / "templates" / "card.yaml").write_text("elements:\n" + elements, encoding="utf-8")
    renderer = FaceRenderer(load_deck(root / "decks" / "edges.yaml"))
    image = renderer.render("card", {"id": "one", "name": "One", "count": 1}, {"id": "deck", "name": "Deck"},
                            (W, H), Where("edges.yaml", 1, 1), "card 'One'")
    return image, renderer


# --- text at its min_size ----------------------------------------------------------------------------

def one_line_height_mm(points: float) -> float:
    """The least box height (mm) that one line of DejaVu Sans at `points` fits: its ascent plus descent,
    less the half pixel deckpress allows."""
    from deckpress.paths import PACKAGE_DATA

    font = ImageFont.truetype(str(PACKAGE_DATA / "fonts" / "DejaVuSans.ttf"), points / 72 * DPI,
                              layout_engine=ImageFont.Layout.BASIC)
    ascent, descent = font.getmetrics()
    return (ascent + descent - 0.5) / PX_PER_MM


@pytest.mark.parametrize("text", ["Go west", "**Go** west"], ids=["plain", "rich"])
def test_text_is_set_down_to_exactly_its_min_size_and_never_below(tmp_path, text):
    fits = one_line_height_mm(8)
    assert one_line_height_mm(7.5) < fits - 0.1  # half a point less would fit a box between the two
    element = "  - {{type: text, x: 10, y: 10, w: 40, h: {h}, text: '{text}', size: 10.5{floor}}}\n"
    draw(tmp_path, element.format(h=fits + 0.005, text=text, floor=", min_size: 8"))  # fits at 8 pt exactly
    with pytest.raises(DeckError, match="text does not fit in 40.0 x .* mm even at 8 pt"):
        draw(tmp_path, element.format(h=fits - 0.05, text=text, floor=", min_size: 8"))
    _, renderer = draw(tmp_path, element.format(h=fits + 0.005, text=text, floor=""))
    assert list(renderer.shrunk.values()) == [8]  # the largest size in half points from 10.5 that fits


# --- the safe zone -----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["text", "icon"])
def test_text_and_icons_may_reach_the_safe_zone_but_not_a_tenth_of_a_mm_past_it(tmp_path, kind):
    element = "  - {{type: " + kind + ", x: {x}, y: {y}, w: {w}, h: {h}, text: 'A'}}\n"
    inner = W - 2 * SAFE, H - 2 * SAFE
    draw(tmp_path, element.format(x=SAFE, y=SAFE, w=inner[0], h=inner[1]))  # exactly the safe zone
    for x, y, w, h in [(SAFE - 0.1, SAFE, 10, 10), (SAFE, SAFE - 0.1, 10, 10), (SAFE, SAFE, inner[0] + 0.1, 10),
                       (SAFE, 50, 10, H - SAFE - 50 + 0.1)]:
        with pytest.raises(DeckError, match="reaches outside the safe zone"):
            draw(tmp_path, element.format(x=x, y=y, w=w, h=h))


# --- a folder beside the project ---------------------------------------------------------------------

def test_a_folder_beside_the_project_sharing_its_prefix_is_outside(tmp_path):
    project, private = tmp_path / "game", tmp_path / "game-private"
    assert run_cli("new", str(project), "--name", "Game").exit_code == 0
    private.mkdir()
    (private / "secret.png").write_bytes((project / "templates" / "card.yaml").read_bytes())
    deck = project / "decks" / "game.yaml"
    assert confine(project / "templates" / "card.yaml", deck) == (project / "templates" / "card.yaml").resolve()
    with pytest.raises(OutsideProject):
        confine(private / "secret.png", deck)
    card = project / "templates" / "card.yaml"
    image = "  - {type: image, src: ../../game-private/secret.png, x: 5, y: 5, w: 10, h: 10}\n"
    card.write_text(card.read_text(encoding="utf-8") + image, encoding="utf-8")
    result = run_cli("check", cwd=project)
    assert result.exit_code == 1 and "image '../../game-private/secret.png' leads outside the project" in result.stderr


# --- XML comments ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["a--b", "a---b", "a----b", "-----", "ends-", "ends--", "-", "a - b", "<&>"])
def test_any_run_of_dashes_makes_a_valid_xml_comment(text):
    comment = xml_comment(text)
    root = ET.fromstring(f"<root><!--{comment}--><Panel/></root>")  # expat refuses `--` in a comment
    assert [e.tag for e in root] == ["Panel"]
    assert comment.replace(" ", "").replace("-", "") == text.replace(" ", "").replace("-", "")
    assert comment.count("-") == text.count("-")


# --- --back-offset -----------------------------------------------------------------------------------

@pytest.mark.parametrize("offset", ["nan,0", "0,nan", "inf,0", "0,-inf", f"{MAX_BACK_OFFSET + 0.01},0",
                                    f"0,-{MAX_BACK_OFFSET + 0.01}", "1", "1,2,3", "a,b", "1e400,0"])
def test_a_back_offset_that_is_not_two_finite_numbers_within_range_is_refused(tmp_path, offset):
    result = run_cli("build", "--back-offset", offset, cwd=tmp_path)
    assert result.exit_code == 2 and "--back-offset" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "build").exists()


@pytest.mark.parametrize("offset, taken", [(f"{MAX_BACK_OFFSET},-{MAX_BACK_OFFSET}",
                                            [MAX_BACK_OFFSET, -MAX_BACK_OFFSET]), (" -0.5, 1.25", [-0.5, 1.25])])
def test_a_back_offset_up_to_its_limit_is_taken_as_written(offset, taken):
    """The offset `deckpress build --back-offset X,Y` hands the PDF builder."""
    with build.make_context("build", ["--back-offset", offset]) as ctx:
        assert _options(**ctx.params).builders["pdf"].back_offset == taken


# --- numbers TTS's Lua holds exactly, and texts ------------------------------------------------------

def test_whole_numbers_up_to_2_53_either_way_are_data_and_one_more_is_not():
    for number in (MAX_INT, -MAX_INT, 0):
        assert not_plain({"n": [number]}) is None
    for number in (MAX_INT + 1, -MAX_INT - 1):
        assert "beyond 2^53" in not_plain({"n": [number]})


def test_a_text_of_the_longest_length_is_data_and_one_character_more_is_not():
    assert not_plain(["x" * MAX_TEXT_CHARS]) is None
    assert f"more than {MAX_TEXT_CHARS}" in not_plain(["x" * (MAX_TEXT_CHARS + 1)])
