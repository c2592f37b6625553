"""`rect`: a rectangle, square or rounded."""

from __future__ import annotations

from ..draw import edge, smooth
from ..vector import paint_path, rectangle
from .base import EXPR, Element, Expr, Painter
from .groups import JOIN, PaintOptions
from .paint import Stroke, resolve_fill, resolve_stroke


class RectPainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        fill, stroke = resolve_fill(self, self.e.fill), resolve_stroke(self)
        radius = self.num(self.e.radius) * self.scale
        xy = self.px(box)
        if vectored(fill, stroke) or (stroke and stroke.join != "miter" and radius <= 0):
            def outline(inset=0.0):
                return rectangle(xy[0] + inset, xy[1] + inset, xy[2] - inset, xy[3] - inset, radius - inset)

            paint_path(layer, outline(), fill, stroke, xy, edges=self.edges(layer),
                       inset=outline(stroke.width / 2) if stroke else None)
            return
        colour, width = (stroke.color, stroke.width) if stroke else (None, 0.0)
        if radius > 0:
            smooth(layer, "rounded_rectangle", xy, fill, colour, width, self.edges(layer), radius)
            return
        x0, y0, x1, y1 = (edge(v) for v in xy)  # the pixels the box covers most of
        if x1 > x0 and y1 > y0:
            if layer is self.canvas:
                self.r.edges.forget((x0, y0, x1, y1))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=colour, width=round(width))


def vectored(fill, stroke: Stroke | None) -> bool:
    """Whether a rect, ellipse or line needs the vector painter: a gradient or a dashed outline, which
    Pillow does not draw."""
    return (fill is not None and not isinstance(fill, tuple)) or (stroke is not None and stroke.dash is not None)


class RectElement(PaintOptions, Element):
    """A rectangle filling its box."""

    TYPE, DRAWS, painter = "rect", "a rectangle, square or rounded", RectPainter

    radius = Expr("Corner radius in mm." + EXPR, default=0)
    join = JOIN
