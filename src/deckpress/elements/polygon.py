"""`polygon`: a polygon through given points, or a regular polygon of `corners` corners filling its box."""

from __future__ import annotations

import math

from ..expr import is_expression, render_value
from ..options import Int, Invalid, Option
from ..vector import MITER_LIMIT, paint_path, polygon
from .base import EXPR, LAYER_PAD_MM, MAX_BOX_MM, Element, Expr, Painter, spread
from .groups import JOIN, PaintOptions
from .paint import resolve_fill, resolve_stroke

MAX_POINTS = 1000
MAX_CORNERS = 100


class Points(Option):
    """A list of [x, y] points in mm from the box's top-left corner, or an expression giving one."""

    type_name = "list of [x, y] or expression"

    def check(self, value, where, ctx):
        if isinstance(value, str) and is_expression(value):
            return value
        return points(value)

    def schema(self):
        coordinate = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"\{\{"}]}
        return {"anyOf": [{"type": "string", "pattern": r"\{\{"},
                          {"type": "array", "minItems": 3, "maxItems": MAX_POINTS,
                           "items": {"type": "array", "items": coordinate, "minItems": 2, "maxItems": 2}}]}


def points(value) -> list:
    """`value` as a list of [x, y] pairs; Invalid when it is not one, or has fewer than 3 points."""
    if not isinstance(value, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in value):
        raise Invalid(f"expected a list of [x, y] points in mm, got {value!r}; write e.g. "
                      "points: [[0, 0], [20, 0], [10, 15]]")
    if len(value) < 3:
        raise Invalid(f"a polygon needs at least 3 points, not {len(value)}; add points, or draw a line")
    if len(value) > MAX_POINTS:
        raise Invalid(f"{len(value)} points, more than the {MAX_POINTS} a polygon may have; use fewer")
    return [list(p) for p in value]


def regular(box: tuple[float, float, float, float], radii: list[float], angle: float) -> list[tuple[float, float]]:
    """The corners of a regular polygon (or, with two radii, a star) in the ellipse filling `box`: the
    first at the top, turned by `angle` degrees clockwise; `radii` are fractions of the ellipse's, taken in
    turn."""
    x0, y0, x1, y1 = box
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    n = len(radii)
    out = []
    for k, r in enumerate(radii):
        a = math.radians(angle - 90 + 360 * k / n)
        out.append((cx + rx * r * math.cos(a), cy + ry * r * math.sin(a)))
    return out


class ShapePainter(Painter):
    """Paints the closed outline `outline` gives, with the element's fill, stroke and rounded corners."""

    FREEHAND = False

    def outline(self, box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
        raise NotImplementedError

    def reach(self, box):
        xy = self.px(box)
        return spread([*self.outline(xy), xy[:2], xy[2:]], self.pad())

    def pad(self) -> float:
        """Room around the shape's corners for its outline, mitred, and glyph-free slack."""
        return (LAYER_PAD_MM + self.num(self.e.stroke_width) * MITER_LIMIT / 2) * self.scale

    def draw(self, draw, layer, box) -> None:
        xy = self.px(box)
        outline = polygon(self.outline(xy), self.num(self.e.radius) * self.scale)
        paint_path(layer, outline, resolve_fill(self, self.e.fill), resolve_stroke(self), xy, self.edges(layer))


class PolygonPainter(ShapePainter):
    def outline(self, box):
        e = self.e
        if e.corners is not None:
            return regular(box, [1.0] * e.corners, self.num(e.angle))
        corners = [(self.num(x), self.num(y)) for x, y in points(render_value(e.points, self.ctx))]
        if max(abs(v) for corner in corners for v in corner) > MAX_BOX_MM:
            raise Invalid(f"a point of the polygon reaches more than {MAX_BOX_MM} mm from its box; keep its "
                          "points near the box")
        return [(box[0] + x * self.scale, box[1] + y * self.scale) for x, y in corners]


class PolygonElement(PaintOptions, Element):
    """A polygon: through `points`, or regular, with `corners` corners, filling its box."""

    TYPE, DRAWS, painter = "polygon", "a polygon through points, or a regular one", PolygonPainter

    points = Points("The corners, [x, y] in mm from the box's top-left corner, e.g. [[0, 0], [20, 0], "
                    "[10, 15]]." + EXPR, default=None)
    corners = Int("A regular polygon of this many corners (3: a triangle, 6: a hexagon) in the ellipse "
                  "filling the box, instead of `points`.", default=None, min=3, max=MAX_CORNERS)
    angle = Expr("A regular polygon's turn in degrees, clockwise (0: a corner at the top)." + EXPR, default=0)
    radius = Expr("Rounds the corners: the radius in mm." + EXPR, default=0)
    join = JOIN

    def validate(self, ctx):
        super().validate(ctx)
        if ("points" in self.source) == ("corners" in self.source):
            ctx.error(self.where, "a polygon has either `points` (its corners) or `corners` (a regular "
                                  "polygon); write e.g. points: [[0, 0], [20, 0], [10, 15]] or corners: 6")
