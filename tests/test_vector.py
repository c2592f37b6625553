"""The vector painter's outlines and its renderer: SVG's arcs as SVG draws them, rounded polygon corners
when the sides are short, memory that stays flat over many shapes, and one located line where ThorVG
cannot be installed."""

from __future__ import annotations

import math
import sys

from PIL import Image

import deckpress.render  # noqa: F401 (vector.py is imported through the element types, as a build does)
from conftest import run_cli
from deckpress import vector
from deckpress.elements.paint import Stroke

BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def drawn(outline: vector.Outline, size=(200, 200), stroke: Stroke | None = None) -> Image.Image:
    image = Image.new("RGB", size, WHITE)
    vector.paint_path(image, outline, BLACK if stroke is None else None, stroke, (0, 0, *size))
    return image


def test_an_arc_runs_round_its_ellipse_the_way_its_flags_say():
    # from the left of the circle about (100, 100) to its top: clockwise the short way, else the long way
    for large, sweep, inked, empty in [(False, True, (60, 60), (140, 140)), (True, False, (140, 140), (60, 60))]:
        outline = vector.Outline()
        outline.move(20, 100)
        outline.arc(80, 80, 0, large, sweep, 100, 20)
        outline.line(100, 100)
        outline.close()
        image = drawn(outline)
        assert image.getpixel(inked) == BLACK and image.getpixel(empty) == WHITE, (large, sweep)
        assert image.getpixel((100, 175)) == (WHITE if sweep else BLACK)  # the circle's bottom
    for x, y in [(p[0] - 100, p[1] - 100) for p in outline.points[3::3]]:  # every cubic's end lies on it
        assert math.isclose(math.hypot(x, y), 80, abs_tol=1e-6)


def test_an_arc_too_small_to_reach_grows_and_a_flat_one_is_a_line():
    outline = vector.Outline()
    outline.move(20, 100)
    outline.arc(10, 10, 0, False, True, 180, 100)  # radius 10 cannot span 160: a half circle of radius 80
    outline.close()
    image = drawn(outline)
    assert image.getpixel((100, 30)) == BLACK and image.getpixel((100, 170)) == WHITE
    line = vector.Outline()
    line.move(0, 0)
    line.arc(0, 30, 0, False, True, 50, 50)
    assert line.commands == [vector.MOVE, vector.LINE] and line.points[-1] == (50, 50)


def test_a_rotated_arc_follows_its_turned_ellipse():
    outline = vector.Outline()
    outline.move(30, 170)
    outline.arc(110, 40, -45, False, True, 170, 30)  # an ellipse lying along the diagonal, its upper-left arc
    outline.close()
    image = drawn(outline)
    assert image.getpixel((93, 93)) == BLACK and image.getpixel((110, 110)) == WHITE
    assert image.getpixel((75, 75)) == WHITE  # 22 pixels across the diagonal at most: the ellipse is narrow


def test_rounded_corners_of_short_sides_meet_at_the_sides_middles():
    square = [(40.0, 40.0), (160.0, 40.0), (160.0, 160.0), (40.0, 160.0)]
    outline = vector.polygon(square, 500)  # every side shorter than two radii: cut at its middle
    assert outline.commands == [vector.MOVE] + [vector.CUBIC] * 4 + [vector.CLOSE]
    assert outline.points[0] == (100, 40) and outline.points[3::3] == [(160, 100), (100, 160), (40, 100), (100, 40)]
    image = drawn(outline)
    assert image.getpixel((100, 100)) == BLACK and image.getpixel((100, 42)) == BLACK
    assert image.getpixel((50, 50)) == WHITE  # the corner is cut: the curve passes (70, 70)
    assert image.getpixel((75, 75)) == BLACK
    assert vector.polygon(square, 80).points == outline.points  # 80 is more than half a side too
    sides = vector.polygon(square, 10)  # long sides keep their straight middles
    assert sides.commands.count(vector.LINE) == 4 and (150.0, 40.0) in sides.points


def test_a_quadratic_curve_is_the_one_its_handle_draws():
    outline = vector.Outline()
    outline.move(0, 150)
    outline.quad(100, 50, 200, 150)  # its middle is halfway between the handle and the ends' middle: y 100
    outline.close()
    image = drawn(outline)
    assert image.getpixel((100, 103)) == BLACK and image.getpixel((100, 97)) == WHITE


def test_ovals_and_rounded_rectangles_are_round():
    image = drawn(vector.oval(20, 20, 180, 180))
    for r, colour in [(77, BLACK), (83, WHITE)]:  # 45 degrees round, where a poor curve strays most
        assert image.getpixel((round(100 + r / math.sqrt(2)), round(100 + r / math.sqrt(2)))) == colour
    rounded = drawn(vector.rectangle(20, 20, 180, 180, 40))
    assert rounded.getpixel((25, 25)) == WHITE and rounded.getpixel((25, 100)) == BLACK
    assert rounded.getpixel((round(60 - 37 / math.sqrt(2)), round(60 - 37 / math.sqrt(2)))) == BLACK
    assert drawn(vector.rectangle(20, 20, 180, 180, 500)).getpixel((100, 100)) == BLACK  # at most a circle


def test_a_dash_starts_at_the_outline_s_start_and_ends_square_cut():
    outline = vector.Outline()
    outline.move(10, 50)
    outline.line(190, 50)
    image = drawn(outline, (200, 100), Stroke(BLACK, 10.0, (20.0, 20.0), "miter"))
    row = [image.getpixel((x, 50)) == BLACK for x in range(200)]
    assert row[10:30] == [True] * 20 and row[31:50] == [False] * 19  # butt ends: no cap past the dash
    assert not row[8] and row[51]


def test_many_shapes_leave_memory_as_it_was():
    outline = vector.polygon([(10.0, 10.0), (590.0, 30.0), (300.0, 880.0)], 20)
    stroke = Stroke(BLACK, 6.0, (10.0, 5.0), "round")
    image = Image.new("RGB", (600, 900), WHITE)

    def resident() -> int:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1])

    for _ in range(30):
        vector.paint_path(image, outline, (200, 0, 0), stroke, (0, 0, 600, 900))
    before = resident()
    for _ in range(300):
        vector.paint_path(image, outline, (200, 0, 0), stroke, (0, 0, 600, 900))
    assert (resident() - before) * 4096 < 4_000_000  # a shape's canvas kept would be 2 MB each


def test_without_thorvg_a_vector_shape_says_so_in_one_line(tmp_path, monkeypatch):
    run_cli("new", str(tmp_path / "game"))
    template = tmp_path / "game" / "templates" / "card.yaml"
    star = '  - {type: star, x: 5, y: 5, w: 20, h: 20, fill: "#000000"}\n'
    template.write_text(template.read_text(encoding="utf-8") + star, encoding="utf-8")
    monkeypatch.setitem(sys.modules, "thorvg_cython", None)
    vector._thorvg.cache_clear()
    try:
        result = run_cli("build", "--quiet", cwd=tmp_path / "game")
    finally:
        vector._thorvg.cache_clear()
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "this shape needs ThorVG (`pip install thorvg-cython`)" in lines[0]
    assert lines[0].startswith("decks/game.yaml:") and "template 'card' element 'star #6': " in lines[0]
