"""`rect`: a rectangle, square or rounded."""

from __future__ import annotations

from ..draw import edge, smooth
from .base import EXPR, Element, Expr, PaintOptions, Painter


class RectPainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        fill, stroke, width = outline(self)
        radius = self.num(self.e.radius) * self.scale
        if radius > 0:
            smooth(layer, "rounded_rectangle", self.px(box), fill, stroke, width, self.edges(layer), radius)
            return
        x0, y0, x1, y1 = (edge(v) for v in self.px(box))  # the pixels the box covers most of
        if x1 > x0 and y1 > y0:
            if layer is self.canvas:
                self.r.edges.forget((x0, y0, x1, y1))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=stroke, width=round(width))


def outline(painter: Painter) -> tuple:
    """Fill and stroke colours of a shape, and the stroke's width in pixels (0 without a stroke)."""
    e = painter.e
    fill, stroke = painter.color(e.fill), painter.color(e.stroke)
    width = painter.num(e.stroke_width) * painter.scale if stroke else 0.0
    return fill, stroke, width


class RectElement(PaintOptions, Element):
    """A rectangle filling its box."""

    TYPE, DRAWS, painter = "rect", "a rectangle, square or rounded", RectPainter

    radius = Expr("Corner radius in mm." + EXPR, default=0)
