"""`ellipse`: an ellipse or circle filling its box."""

from __future__ import annotations

from ..draw import smooth
from .base import Element, PaintOptions, Painter
from .rect import outline


class EllipsePainter(Painter):
    FREEHAND = False

    def draw(self, draw, layer, box) -> None:
        fill, stroke, width = outline(self)
        smooth(layer, "ellipse", self.px(box), fill, stroke, width, self.edges(layer))


class EllipseElement(PaintOptions, Element):
    """An ellipse filling its box (a circle when `w` and `h` are equal)."""

    TYPE, DRAWS, painter = "ellipse", "an ellipse or circle filling its box", EllipsePainter
