"""Shapes, outlines, gradients and effects on real faces: polygons, stars and paths land where their points
say, with smooth edges; dashes, joins, gradients, opacity, shadows, outlined, spaced and styled text show
in the pixels; SVG path data is read as SVG reads it."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from conftest import run_cli
from deckpress.deck import load_deck
from deckpress.elements.path import parse_path
from deckpress.errors import DeckError, Where
from deckpress.options import Invalid
from deckpress.render import FaceRenderer, mm_to_px

DECK = """\
game: {name: Shapes, players: {min: 2, max: 4}}
components:
  - id: deck
    name: Deck
    template: t
    cards:
      - {name: Card}
"""
BLEED = 3.175
WHITE = (255, 255, 255)


def project(tmp_path, elements: str, deck: str = DECK) -> None:
    """A project whose template has these elements (YAML lines, each `  - {...}`)."""
    for folder in ("decks", "templates"):
        (tmp_path / folder).mkdir(exist_ok=True)
    (tmp_path / "decks" / "shapes.yaml").write_text(deck, encoding="utf-8")
    (tmp_path / "templates" / "t.yaml").write_text("elements:\n" + elements, encoding="utf-8")


def face(tmp_path, elements: str) -> Image.Image:
    """The face drawn from a template of these elements."""
    project(tmp_path, elements)
    renderer = FaceRenderer(load_deck(tmp_path / "decks" / "shapes.yaml"))
    return renderer.render("t", {"id": "card", "name": "Card", "count": 1}, {"id": "deck", "name": "Deck"},
                           (63.5, 88.9), Where("shapes.yaml", 1, 1), "card 'Card'")


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple:
    """The pixel at a point in mm from the trim's top-left corner."""
    return image.getpixel((round(mm_to_px(x_mm + BLEED)), round(mm_to_px(y_mm + BLEED))))


def partial(image: Image.Image) -> int:
    """How many pixels are neither white nor the darkest colour drawn: the smooth edges."""
    grey = image.convert("L")
    low = grey.getextrema()[0]
    return sum(grey.point(lambda v: 255 if low + 8 < v < 247 else 0).histogram()[255:])


# --- shapes ---------------------------------------------------------------------------------------

def test_a_polygon_fills_between_its_points_with_smooth_edges(tmp_path):
    image = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, points: [[20, 0], [40, 40], [0, 40]], '
                           'fill: "#000000"}\n')
    assert at(image, 30, 40) == (0, 0, 0)  # inside, near the base
    assert at(image, 12, 12) == WHITE and at(image, 48, 12) == WHITE  # beside the apex, outside
    assert at(image, 30, 52) == WHITE  # below the base
    assert partial(image) > 300  # the slanted edges are smooth, not stair steps
    ink = ImageChops.invert(image.convert("L")).getbbox()
    assert abs(ink[1] - mm_to_px(10 + BLEED)) <= 2 and abs(ink[3] - mm_to_px(50 + BLEED)) <= 2


def test_a_regular_polygon_has_a_corner_at_the_top_and_turns_by_its_angle(tmp_path):
    upright = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, corners: 4, fill: "#000000"}\n')
    assert at(upright, 30, 11) == (0, 0, 0) and at(upright, 12, 12) == WHITE  # a diamond: its top corner
    turned = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, corners: 4, angle: 45, '
                            'fill: "#000000"}\n')
    assert at(turned, 30, 11) == WHITE and at(turned, 17, 17) == (0, 0, 0)  # a square: its top-left corner
    triangle = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, corners: 3, fill: "#000000"}\n')
    assert at(triangle, 30, 12) == (0, 0, 0) and at(triangle, 48, 30) == WHITE  # it points up
    assert at(triangle, 30, 39) == (0, 0, 0) and at(triangle, 30, 41) == WHITE  # its base a quarter up


def test_a_star_has_points_and_notches(tmp_path):
    image = face(tmp_path, '  - {type: star, x: 10, y: 10, w: 40, h: 40, inner: 0.4, fill: "#000000"}\n')
    assert at(image, 30, 30) == (0, 0, 0)  # the middle
    assert at(image, 30, 11.5) == (0, 0, 0)  # the top point
    assert at(image, 30, 47) == WHITE  # below the middle: between the two lower points
    five = face(tmp_path, '  - {type: star, x: 10, y: 10, w: 40, h: 40, corners: 6, inner: 0.4, fill: "#000000"}\n')
    assert at(five, 30, 47) == (0, 0, 0)  # six points: one points down


def test_rounded_corners_cut_a_polygons_corners(tmp_path):
    sharp = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, points: [[0, 0], [40, 0], [40, 40], '
                           '[0, 40]], fill: "#000000"}\n')
    round_ = face(tmp_path, '  - {type: polygon, x: 10, y: 10, w: 40, h: 40, points: [[0, 0], [40, 0], [40, 40], '
                            '[0, 40]], radius: 5, fill: "#000000"}\n')
    assert at(sharp, 10.3, 10.3) == (0, 0, 0) and at(round_, 10.3, 10.3) == WHITE
    assert at(round_, 30, 30) == (0, 0, 0)


def test_a_path_draws_lines_curves_and_arcs_where_its_data_says(tmp_path):
    square = face(tmp_path, '  - {type: path, x: 10, y: 10, w: 20, h: 20, d: "M 0 0 h 20 v 20 H 0 Z", '
                            'fill: "#000000"}\n')
    ink = ImageChops.invert(square.convert("L")).getbbox()
    assert [abs(v - mm_to_px(m + BLEED)) <= 1 for v, m in zip(ink, (10, 10, 30, 30))] == [True] * 4
    disc = face(tmp_path, '  - {type: path, x: 10, y: 10, w: 20, h: 20, d: "M 0 10 A 10 10 0 0 1 20 10 '
                          'A 10 10 0 0 1 0 10 Z", fill: "#000000"}\n')
    assert at(disc, 20, 20) == (0, 0, 0) and at(disc, 11, 11) == WHITE  # a disc: no corner
    assert at(disc, 20, 10.5) == (0, 0, 0) and at(disc, 20, 29.5) == (0, 0, 0)


def test_an_outline_with_a_dash_pattern_is_dashed(tmp_path):
    image = face(tmp_path, '  - {type: line, x: 10, y: 20, w: 30, h: 0, stroke: "#000000", stroke_width: 1, '
                           'dash: [2, 1]}\n')
    row = round(mm_to_px(20 + BLEED))
    values = [image.getpixel((x, row))[0] < 128 for x in range(image.width)]
    dashes = sum(1 for a, b in zip([False, *values], values) if b and not a)
    assert dashes == 10  # 30 mm of 2 mm dashes and 1 mm gaps
    solid = face(tmp_path, '  - {type: line, x: 10, y: 20, w: 30, h: 0, stroke: "#000000", stroke_width: 1}\n')
    assert sum(1 for x in range(solid.width) if solid.getpixel((x, row))[0] < 128) > \
        sum(values) * 1.3


def test_a_dashed_rect_keeps_its_outline_inside_its_box(tmp_path):
    image = face(tmp_path, '  - {type: rect, x: 10, y: 10, w: 30, h: 20, stroke: "#000000", stroke_width: 2, '
                           'dash: [3, 1]}\n')
    ink = ImageChops.invert(image.convert("L")).getbbox()
    box = [round(mm_to_px(m + BLEED)) for m in (10, 10, 40, 30)]
    assert [abs(a - b) <= 1 for a, b in zip(ink, box)] == [True] * 4


@pytest.mark.parametrize("join, corner_inked", [("miter", True), ("round", False), ("bevel", False)])
def test_a_join_shapes_the_outer_corner(tmp_path, join, corner_inked):
    image = face(tmp_path, f'  - {{type: polygon, x: 10, y: 10, w: 30, h: 30, points: [[0, 0], [30, 0], [30, 30], '
                           f'[0, 30]], stroke: "#000000", stroke_width: 4, join: {join}}}\n')
    assert (at(image, 8.3, 8.3)[0] < 128) == corner_inked  # the outer corner of the 4 mm outline
    assert at(image, 9, 20)[0] < 128  # the side


# --- gradients, opacity, shadows ------------------------------------------------------------------

def test_a_linear_gradient_runs_through_its_stops_across_the_box(tmp_path):
    image = face(tmp_path, '  - {type: rect, x: 0, y: 0, w: 60, h: 20, fill: {angle: 0, stops: ["#000000", '
                           '"#ff0000 25%", "#0000ff"]}}\n')
    left, quarter, right = at(image, 0.2, 10), at(image, 15, 10), at(image, 59.8, 10)
    assert left[0] < 10 and quarter[0] > 245 and quarter[2] < 10 and right[2] > 245
    middle = at(image, 37.5, 10)  # halfway from the red stop to the blue one
    assert abs(middle[0] - 128) < 12 and abs(middle[2] - 128) < 12
    assert at(image, 15, 2) == at(image, 15, 18)  # the same down a column


def test_a_radial_gradient_runs_out_from_its_centre(tmp_path):
    image = face(tmp_path, '  - {type: ellipse, x: 10, y: 10, w: 40, h: 40, fill: {gradient: radial, '
                           'stops: ["#ffffff", "#000000"]}}\n')
    centre, near, far = at(image, 30, 30), at(image, 30, 20), at(image, 30, 11)
    assert centre[0] > 245 and centre[0] > near[0] > far[0]
    assert at(image, 20, 30) == near  # the same all round
    reaching = face(tmp_path, '  - {type: rect, x: 10, y: 10, w: 40, h: 40, fill: {gradient: radial, '
                              'center: [0.25, 0.5], radius: 0.5, stops: ["#ffffff", "#000000"]}}\n')
    assert at(reaching, 20, 30)[0] > 245  # the centre a quarter across the box
    assert at(reaching, 20, 12)[0] < 10  # 18 mm out: past half of the 36 mm to the farthest corner


def test_a_gradient_colours_text_through_its_letters(tmp_path):
    image = face(tmp_path, '  - {type: text, x: 5, y: 10, w: 53.5, h: 30, text: "IIII", font: sans-bold, size: 72, '
                           'color: {stops: ["#ff0000", "#0000ff"]}}\n')
    letters = ImageChops.invert(image.convert("L")).getbbox()
    top = image.getpixel((letters[0] + 6, letters[1] + 3))  # in the first I's stem
    bottom = image.getpixel((letters[0] + 6, letters[3] - 3))
    assert top[0] > top[2] and bottom[2] > bottom[0]  # red above, blue below
    assert at(image, 6, 11) == WHITE  # nothing but the letters


def test_opacity_lets_what_is_under_show_through(tmp_path):
    image = face(tmp_path, '  - {type: rect, x: 10, y: 10, w: 20, h: 20, fill: "#000000", opacity: 0.25}\n'
                           '  - {type: star, x: 35, y: 10, w: 20, h: 20, fill: "#000000", opacity: 0.5}\n')
    assert abs(at(image, 20, 20)[0] - 191) <= 2 and abs(at(image, 45, 20)[0] - 128) <= 2


def test_a_shadow_falls_by_its_offset_and_is_soft(tmp_path):
    image = face(tmp_path, '  - {type: rect, x: 10, y: 10, w: 20, h: 20, fill: "#ffffff", '
                           'shadow: {x: 2, y: 2, blur: 0.5, color: "#000000"}}\n')
    assert at(image, 20, 20) == WHITE  # the rect itself, over its shadow
    assert at(image, 31, 25)[0] < 40 and at(image, 25, 31)[0] < 40  # right and below: the shadow
    assert at(image, 9, 15) == WHITE and at(image, 15, 9) == WHITE  # left and above: none
    assert 40 < at(image, 32, 25)[0] < 230  # its edge is soft


def test_a_see_through_shadow_is_as_strong_as_its_colour_s_alpha(tmp_path):
    image = face(tmp_path, '  - {type: rect, x: 10, y: 10, w: 20, h: 20, fill: "#ffffff", '
                           'shadow: {x: 3, y: 3, blur: 0.2, color: "#00000080"}}\n')
    assert abs(at(image, 31.5, 25)[0] - 127) <= 2  # right of the rect, inside the shadow


# --- text ---------------------------------------------------------------------------------------------

def test_an_outline_rings_the_letters_in_its_colour(tmp_path):
    image = face(tmp_path, '  - {type: text, x: 5, y: 10, w: 53.5, h: 30, text: "O", size: 60, color: "#ffffff", '
                           'outline: "#ff0000", outline_width: 1}\n')
    reds = sum(1 for p in image.get_flattened_data() if p[0] > 200 and p[1] < 60)
    assert reds > 2000  # a ring 1 mm wide round the O
    assert at(image, 31.75, 25) == WHITE  # the white letter's hole


def test_letter_spacing_widens_the_text(tmp_path):
    def width(spacing):
        image = face(tmp_path, f'  - {{type: text, x: 5, y: 10, w: 53.5, h: 20, text: "SPACED", size: 14, '
                               f'letter_spacing: {spacing}}}\n')
        ink = ImageChops.invert(image.convert("L")).getbbox()
        return ink[2] - ink[0]
    plain, wide = width(0), width(0.3)
    em = 14 / 72 * 300
    assert abs(wide - plain - 5 * 0.3 * em) < 0.1 * em  # 0.3 em between each of 6 letters


def test_a_span_sets_its_words_in_its_colour_and_size(tmp_path):
    image = face(tmp_path, '  - {type: text, x: 5, y: 10, w: 53.5, h: 30, text: "aa [bb]{color=#ff0000 size=200%} '
                           'cc", size: 12, align: left, valign: top}\n')
    reds = Image.frombytes("L", image.size, bytes(255 if p[0] > 200 and p[1] < 80 else 0 for p in image.get_flattened_data()))
    blacks = Image.frombytes("L", image.size, bytes(255 if p[0] < 80 else 0 for p in image.get_flattened_data()))
    red_box, black_box = reds.getbbox(), blacks.getbbox()
    assert red_box[3] - red_box[1] > 1.6 * 0.55 * 12 / 72 * 300  # "bb" twice as tall as an x-height
    assert abs(red_box[3] - black_box[3]) <= 3  # on the same baseline as the rest
    assert red_box[0] > black_box[0] and red_box[2] < black_box[2]  # between aa and cc


def test_a_decorative_text_may_leave_the_safe_zone(tmp_path):
    with pytest.raises(DeckError, match="safe zone"):
        face(tmp_path, '  - {type: text, x: 0, y: 0, w: 30, h: 10, text: "Cut"}\n')
    image = face(tmp_path, '  - {type: text, x: 0, y: 0, w: 30, h: 10, text: "Cut", safe: false}\n')
    assert ImageChops.invert(image.convert("L")).getbbox() is not None


# --- SVG path data ------------------------------------------------------------------------------------

def test_path_data_is_read_as_svg_reads_it():
    assert parse_path("M1,2 L3 4 h5 v-1 H0 V0 Z") == [("M", 1, 2), ("L", 3, 4), ("L", 8, 4), ("L", 8, 3), ("L", 0, 3),
                                                       ("L", 0, 0), ("Z",)]
    assert parse_path("m1 1 2 2 3 3") == [("M", 1, 1), ("L", 3, 3), ("L", 6, 6)]  # pairs after M are lines
    assert parse_path("M0 0 C1 1 2 1 3 0 S5 -1 6 0") == [("M", 0, 0), ("C", 1, 1, 2, 1, 3, 0), ("C", 4, -1, 5, -1, 6, 0)]
    assert parse_path("M0 0 Q1 1 2 0 T4 0") == [("M", 0, 0), ("Q", 1, 1, 2, 0), ("Q", 3, -1, 4, 0)]
    assert parse_path("M0 0a5 5 0 1010 0") == [("M", 0, 0), ("A", 5, 5, 0, 1, 0, 10, 0)]  # flags unseparated
    assert parse_path("M.5-.5.25.25") == [("M", 0.5, -0.5), ("L", 0.25, 0.25)]
    assert parse_path("M0 0 L1 1Z m1 0 l1 0") == [("M", 0, 0), ("L", 1, 1), ("Z",), ("M", 1, 0), ("L", 2, 0)]


@pytest.mark.parametrize("data, message", [
    ("L 1 1", "starts with M"), ("M 0 0 L 1", "a number expected after 'L' at its end"),
    ("M 0 0 L 1 - 2", "a number expected after 'L' at character 11"),
    ("M 0 0 X 1 1", "'X' [(]character 7[)] is not a path command"), ("M 0 0 A 1 1 0 2 0 3 3", "an arc flag"),
    ("M 0 0 Z 1", "a number after Z"), ("", "empty"), ("12", "starts with a command"),
])
def test_path_data_that_is_not_is_refused_naming_where(data, message):
    with pytest.raises(Invalid, match=message):
        parse_path(data)


def test_check_build_and_preview_list_every_text_that_crosses_the_safe_zone_once(tmp_path):
    project(tmp_path, '  - {type: text, name: title, x: 0, y: 5, w: 30, h: 10, text: "{{ card.name }}"}\n'
                      '  - {type: text, name: inside, x: 10, y: 20, w: 30, h: 10, text: "Fine"}\n'
                      '  - {type: icon, name: corner, x: 50, y: 80, w: 10, h: 10, text: "★"}\n'
                      '  - {type: icon, name: decoration, x: -3, y: -3, w: 10, h: 10, text: "★", safe: false}\n',
            DECK + "      - {name: Other}\n")
    for command in (["check"], ["build", "--quiet"], ["preview", "shapes"]):
        result = run_cli(*command, cwd=tmp_path)
        assert result.exit_code == 1
        lines = result.stderr.strip().splitlines()
        assert lines == [
            "templates/t.yaml:2:5: template 't' element 'title' reaches outside the safe zone on card 'Card', card "
            "'Other': its box is (0.0, 5.0, 30.0 x 10.0 mm) and the safe zone 3.17 mm inside the trim; move it "
            "inwards, or give it `safe: false` if it is decoration",
            "templates/t.yaml:4:5: template 't' element 'corner' reaches outside the safe zone on card 'Card', card "
            "'Other': its box is (50.0, 80.0, 10.0 x 10.0 mm) and the safe zone 3.17 mm inside the trim; move it "
            "inwards, or give it `safe: false` if it is decoration"], lines
    assert not any((tmp_path / "build").rglob("*"))  # the build wrote nothing
