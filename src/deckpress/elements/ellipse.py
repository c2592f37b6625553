"""`ellipse`: an ellipse or circle filling its box."""

from __future__ import annotations

from ..draw import smooth
from ..vector import oval, paint_path
from .base import Element, Painter
from .groups import PaintOptions
from .paint import resolve_fill, resolve_stroke
from .rect import vectored


class EllipsePainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        fill, stroke = resolve_fill(self, self.e.fill), resolve_stroke(self)
        xy = self.px(box)
        if vectored(fill, stroke):
            half = stroke.width / 2 if stroke else 0
            paint_path(layer, oval(*xy), fill, stroke, xy, edges=self.edges(layer),
                       inset=oval(xy[0] + half, xy[1] + half, xy[2] - half, xy[3] - half) if stroke else None)
            return
        colour, width = (stroke.color, stroke.width) if stroke else (None, 0.0)
        smooth(layer, "ellipse", xy, fill, colour, width, self.edges(layer))


class EllipseElement(PaintOptions, Element):
    """An ellipse filling its box (a circle when `w` and `h` are equal)."""

    TYPE, DRAWS, painter = "ellipse", "an ellipse or circle filling its box", EllipsePainter
