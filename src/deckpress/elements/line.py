"""`line`: a line from one corner of its box to the other."""

from __future__ import annotations

from ..draw import smooth
from .base import EXPR, Element, Expr, Painter
from ..options import Str


class LinePainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        stroke = self.color(self.e.stroke) or self.color(self.e.color)
        smooth(layer, "line", self.px(box), None, stroke, self.num(self.e.stroke_width) * self.scale,
               self.edges(layer))


class LineElement(Element):
    """A line from the box's top-left corner (`x`, `y`) to its bottom-right corner (`x + w`, `y + h`)."""

    TYPE, DRAWS, painter = "line", "a line from (`x`, `y`) to (`x + w`, `y + h`)", LinePainter

    stroke = Str("Colour of the line." + EXPR, default=None)
    stroke_width = Expr("Width of the line in mm." + EXPR, default=0.5)
    color = Str("Colour of the line when it has no `stroke`." + EXPR, default="#000000")
