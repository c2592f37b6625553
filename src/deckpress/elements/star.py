"""`star`: a star of `corners` points filling its box."""

from __future__ import annotations

from ..options import Int, Invalid
from .base import EXPR, Element, Expr
from .groups import JOIN, PaintOptions
from .polygon import MAX_CORNERS, ShapePainter, regular


class StarPainter(ShapePainter):
    def outline(self, box):
        inner = self.num(self.e.inner)
        if not 0 < inner <= 1:
            raise Invalid(f"inner {inner:g} is not between 0 and 1; write e.g. inner: 0.5")
        return regular(box, [1.0, inner] * self.e.corners, self.num(self.e.angle))


class StarElement(PaintOptions, Element):
    """A star in the ellipse filling its box.

    It has `corners` points, its inner corners at `inner` of the way out from the centre."""

    TYPE, DRAWS, painter = "star", "a star filling its box", StarPainter

    corners = Int("How many points the star has.", default=5, min=3, max=MAX_CORNERS)
    inner = Expr("How far out the inner corners are, as a fraction of the points' distance (0 to 1)." + EXPR,
                 default=0.5)
    angle = Expr("The star's turn in degrees, clockwise (0: a point at the top)." + EXPR, default=0)
    radius = Expr("Rounds the corners: the radius in mm." + EXPR, default=0)
    join = JOIN
