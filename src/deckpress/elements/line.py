"""`line`: a line from one corner of its box to the other."""

from __future__ import annotations

from ..draw import smooth
from ..options import Str
from ..vector import Outline, paint_path
from .base import EXPR, Element, Painter
from .groups import StrokeOptions
from .paint import resolve_stroke


class LinePainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        stroke = resolve_stroke(self, self.color(self.e.color))
        if stroke is None:
            return
        xy = self.px(box)
        if stroke.dash is not None:
            outline = Outline()
            outline.move(xy[0], xy[1])
            outline.line(xy[2], xy[3])
            paint_path(layer, outline, None, stroke, xy, edges=self.edges(layer))
            return
        smooth(layer, "line", xy, None, stroke.color, stroke.width, self.edges(layer))


class LineElement(StrokeOptions, Element):
    """A line from the box's top-left corner (`x`, `y`) to its bottom-right corner (`x + w`, `y + h`)."""

    TYPE, DRAWS, painter = "line", "a line from (`x`, `y`) to (`x + w`, `y + h`)", LinePainter

    color = Str("Colour of the line when it has no `stroke`." + EXPR, default="#000000")
