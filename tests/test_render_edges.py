"""Faces are drawn at their final resolution: plain rectangles crisp on whole pixels, rounded corners,
circles and lines with smooth (anti-aliased) edges, no fringe where a shape covers the edge of one under
it, see-through colours blended, turned halves meeting, and text set at its exact size."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PIL import Image

from deckpress.deck import load_deck
from deckpress.errors import DeckError, Where
from deckpress.render import FaceRenderer, mm_to_px

DECK = """\
game: {name: Edges, players: {min: 2, max: 4}}
components:
  - id: deck
    name: Deck
    template: card
    fields:
      text: {doc: Some text., default: ""}
    cards:
      - {name: One}
"""
BLEED = 3.175
WHITE, RED, BLUE = (255, 255, 255), (255, 0, 0), (0, 0, 255)


def draw(tmp_path: Path, elements: str, text: str = "") -> tuple[Image.Image, FaceRenderer]:
    """The poker face drawn from a template of `elements` (YAML flow list items, one a line)."""
    for folder in ("decks", "templates"):
        (tmp_path / folder).mkdir(exist_ok=True)
    (tmp_path / "decks" / "edges.yaml").write_text(DECK, encoding="utf-8")
    (tmp_path / "templates" / "card.yaml").write_text("elements:\n" + elements, encoding="utf-8")
    renderer = FaceRenderer(load_deck(tmp_path / "decks" / "edges.yaml"))
    card = {"id": "one", "name": "One", "count": 1, "text": text}
    image = renderer.render("card", card, {"id": "deck", "name": "Deck"}, (63.5, 88.9), Where("edges.yaml", 1, 1),
                            "card 'One'")
    return image, renderer


def px(mm: float) -> int:
    """The pixel of the face at `mm` from the trim's edge."""
    return math.floor(mm_to_px(mm + BLEED))


def colours(image: Image.Image, box_mm: tuple[float, float, float, float]) -> set[tuple[int, int, int]]:
    x0, y0, x1, y1 = box_mm
    region = image.crop((px(x0), px(y0), px(x1), px(y1)))
    return {colour for _, colour in region.getcolors(region.width * region.height)}


def test_a_plain_rect_is_crisp_on_whole_pixels(tmp_path):
    # edges at 10.05 and 40.05 mm fall between pixels: the pixels are the rect's or the paper's, nothing between
    image, _ = draw(tmp_path, '  - {type: rect, x: 10.05, y: 20.05, w: 30, h: 30, fill: "#ff0000"}\n')
    assert colours(image, (8, 18, 42, 52)) == {WHITE, RED}
    assert image.size == (825, 1125)


def test_a_circle_and_rounded_corners_have_smooth_edges(tmp_path):
    image, _ = draw(tmp_path, '  - {type: ellipse, x: 10, y: 10, w: 30, h: 30, fill: "#0000ff"}\n'
                              '  - {type: rect, x: 10, y: 50, w: 40, h: 30, radius: 5, fill: "#0000ff"}\n')
    disc = colours(image, (9, 9, 41, 41))
    corner = colours(image, (9, 49, 15, 55))
    for found in (disc, corner):
        between = {c for c in found if c not in (WHITE, BLUE)}
        assert all(c[0] == c[1] and c[2] == 255 for c in between)  # blue blended with white, no other colour
        assert len(between) >= 3  # several levels of coverage
    inside = image.getpixel((px(25), px(25)))
    assert inside == BLUE and image.getpixel((px(10) - 2, px(25))) == WHITE


def test_a_diagonal_line_is_smooth_and_as_wide_as_its_stroke(tmp_path):
    image, _ = draw(tmp_path, '  - {type: line, x: 10, y: 10, w: 40, h: 40, stroke: "#000000", stroke_width: 1}\n')
    row = [image.getpixel((x, px(30)))[0] for x in range(px(20), px(40))]
    assert any(0 < v < 255 for v in row)  # anti-aliased
    ink = sum(255 - v for v in row) / 255  # pixels of ink across the row: width x sqrt(2) for 45 degrees
    assert ink == pytest.approx(mm_to_px(1) * math.sqrt(2), rel=0.1)


def test_a_shape_over_the_same_edge_leaves_no_fringe_of_the_one_under(tmp_path):
    """A blue band over a red panel with the same rounded corners: the corners are blue on white only,
    as they were when the face was drawn at twice the resolution."""
    image, _ = draw(tmp_path, '  - {type: rect, x: 5, y: 5, w: 50, h: 70, radius: 5, fill: "#ff0000"}\n'
                              '  - {type: rect, x: 5, y: 5, w: 50, h: 12, radius: 5, fill: "#0000ff"}\n')
    corners = colours(image, (4, 4, 10, 10)) | colours(image, (50, 4, 56, 10))
    assert all(r == g for r, g, _ in corners), sorted(corners)  # no red in them
    assert len(corners) > 3  # and still smooth


def test_a_stroke_is_painted_over_its_fill_and_see_through_colours_blend(tmp_path):
    image, _ = draw(tmp_path, '  - {type: ellipse, x: 10, y: 10, w: 30, h: 30, fill: "#ff0000", '
                              'stroke: "#0000ff", stroke_width: 2}\n'
                              '  - {type: rect, x: 10, y: 50, w: 20, h: 20, fill: "#0000ff80"}\n')
    assert image.getpixel((px(25), px(25))) == RED
    assert image.getpixel((px(25), px(11))) == BLUE  # inside the stroke, 1 mm from the edge
    assert image.getpixel((px(20), px(60))) == pytest.approx((127, 127, 255), abs=1)


def test_a_see_through_smooth_shape_blends_inside_and_along_its_edge(tmp_path):
    image, _ = draw(tmp_path, '  - {type: ellipse, x: 10, y: 10, w: 30, h: 30, fill: "#0000ff80"}\n')
    assert image.getpixel((px(25), px(25))) == pytest.approx((127, 127, 255), abs=1)  # painted whole
    edge = [image.getpixel((x, round(px(25)))) for x in range(round(px(9)), round(px(12)))]  # through its mask
    assert any(127 < r < 255 and r == g and b == 255 for r, g, b in edge)


def test_a_half_and_its_turned_copy_meet_without_a_gap(tmp_path):
    # the face is 1125 pixels high: each half ends on the middle of a pixel row
    half = '{type: rect, x: -3.175, y: -3.175, w: 69.85, h: "{{ H / 2 + bleed }}", fill: "#ff0000"'
    image, _ = draw(tmp_path, f"  - {half}}}\n  - {half}, rotate: 180}}\n")
    assert image.getcolors() == [(825 * 1125, RED)]


def test_a_turned_see_through_element_is_laid_where_it_belongs(tmp_path):
    image, _ = draw(tmp_path, '  - {type: rect, x: 5, y: 5, w: 10, h: 10, fill: "#0000ff80", rotate: 180}\n')
    assert image.getpixel((px(63.5 - 10), px(88.9 - 10))) == pytest.approx((127, 127, 255), abs=1)
    assert image.getpixel((px(10), px(10))) == WHITE


def test_text_shrinks_by_half_points_and_says_when_it_cannot_fit(tmp_path):
    text = "Every player passes one card to the left, then draws until they hold five cards again."
    shrinking = '  - {type: text, x: 5, y: 5, w: 53.5, h: 12, text: "{{ card.text }}", size: 14}\n'
    image, renderer = draw(tmp_path, shrinking, text)
    (size,) = renderer.shrunk.values()
    assert 6 <= size < 14 and size * 2 == int(size * 2)  # half-point steps
    ink = image.convert("L").point(lambda v: 255 if v < 128 else 0).getbbox()
    assert px(5) - 1 <= ink[1] and ink[3] <= px(17) + 1  # inside its box
    with pytest.raises(DeckError, match="text does not fit in 53.5 x 12.0 mm even at 6 pt"):
        draw(tmp_path, shrinking, text * 4)


@pytest.mark.parametrize("shape", ["ellipse", "rounded_rectangle"])
@pytest.mark.parametrize("xy", [(10.3, 12.6, 13.9, 15.1), (10.3, 12.6, 24.8, 30.1), (-3.5, 40.25, 180.6, 150.5),
                                (-60.5, 8.0, 300.0, 70.5)],
                         ids=["tiny", "small", "past the edge", "past two edges"])
@pytest.mark.parametrize("stroke", [None, (20, 20, 20), (20, 20, 20, 128)], ids=["fill", "stroke", "see-through"])
def test_a_smooth_shape_is_its_whole_coverage_reduced_and_painted_through(shape, xy, stroke):
    """However `smooth` saves work (the inside painted whole, the coverage reduced and painted over the
    strips around it alone), the pixels are those of its whole supersampled coverage, reduced and painted
    through: fill, then stroke; also for a shape past the canvas's edges."""
    from PIL import ImageChops, ImageDraw

    from deckpress.draw import SUPERSAMPLE as s
    from deckpress.draw import edge, paint_through, smooth

    background = Image.linear_gradient("L").resize((240, 200)).convert("RGB")
    drawn = background.copy()
    fill, width, radius = (200, 40, 40), 3.0, 14.0
    smooth(drawn, shape, xy, fill, stroke, width, None, radius)

    expected = background.copy()
    x0, y0, x1, y1 = xy
    left, top = max(0, math.floor(x0 - 1)), max(0, math.floor(y0 - 1))
    right, bottom = min(240, math.ceil(x1 + 1)), min(200, math.ceil(y1 + 1))
    box = (edge((x0 - left) * s), edge((y0 - top) * s), edge((x1 - left) * s) - 1, edge((y1 - top) * s) - 1)
    options = {"radius": radius * s} if shape == "rounded_rectangle" else {}

    def coverage(**ink):
        mask = Image.new("L", ((right - left) * s, (bottom - top) * s), 0)
        getattr(ImageDraw.Draw(mask), shape)(box, **options, **ink)
        return mask

    solid = coverage(fill=255)
    ring = coverage(outline=255, width=round(width * s)) if stroke else None
    if stroke and len(stroke) == 4:
        solid = ImageChops.subtract(solid, ring)
    paint_through(expected, fill, solid.reduce(s), left, top)
    if ring is not None:
        paint_through(expected, stroke, ring.reduce(s), left, top)
    assert drawn.tobytes() == expected.tobytes()
    assert drawn.tobytes() != background.tobytes()


def test_a_smooth_shape_reaching_past_the_face_s_edges_is_drawn_up_to_them(tmp_path):
    image, _ = draw(tmp_path, '  - {type: ellipse, x: 20, y: 10, w: 80, h: 30, fill: "#ff0000"}\n'
                              '  - {type: rect, x: -10, y: 60, w: 90, h: 40, radius: 3, fill: "#0000ff", '
                              'stroke: "#000000"}\n')
    assert image.getpixel((image.width - 1, px(25))) == RED
    assert image.getpixel((image.width - 1, image.height - 1)) == BLUE and image.getpixel((0, px(70))) == BLUE
