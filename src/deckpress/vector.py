"""Vector shapes with smooth edges: outlines of straight lines and cubic curves, filled with a colour or a
gradient and outlined with a dash pattern and line joins, drawn by ThorVG (thorvg-cython, its software
rasteriser) into a patch just over the shape and laid on the face.

Pillow's ImageDraw has no anti-aliasing for polygons and no dashes, joins, curves or gradients; ThorVG
draws all of them, from one small native library. Its outlines are built here (Outline): ovals, rounded
rectangles and SVG's arcs and quadratic curves become cubic curves, and a polygon's corners are rounded
here too. ThorVG is imported only when a face has such a shape: the shipped decks' rectangles, ellipses and
lines are drawn as before (draw.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image

from .draw import composite
from .elements.paint import GradientFill, Ink, Stroke
from .options import Invalid

MITER_LIMIT = 4.0  # a sharper corner than about 29 degrees is bevelled, as in SVG
KAPPA = 4 / 3 * (math.sqrt(2) - 1)  # a quarter of a circle of radius 1 as a cubic: its handles' length

MOVE, LINE, CUBIC, CLOSE = "M", "L", "C", "Z"

Point = tuple[float, float]


class Outline:
    """A path in a face's pixels: contours of straight lines and cubic curves, each begun by `move`, an
    outline's contours closed by `close` (a filled shape fills its open contours as if closed)."""

    def __init__(self):
        self.commands: list[str] = []
        self.points: list[Point] = []  # one a move or line, three a cubic (its two handles, then its end)
        self.at: Point = (0.0, 0.0)
        self.start: Point = (0.0, 0.0)

    def move(self, x: float, y: float) -> None:
        self.commands.append(MOVE)
        self.points.append((x, y))
        self.at = self.start = (x, y)

    def line(self, x: float, y: float) -> None:
        self.commands.append(LINE)
        self.points.append((x, y))
        self.at = (x, y)

    def cubic(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self.commands.append(CUBIC)
        self.points += [(x1, y1), (x2, y2), (x, y)]
        self.at = (x, y)

    def quad(self, x1: float, y1: float, x: float, y: float) -> None:
        """A quadratic curve through the handle (x1, y1): the cubic that is the same curve."""
        x0, y0 = self.at
        self.cubic(x0 + 2 / 3 * (x1 - x0), y0 + 2 / 3 * (y1 - y0), x + 2 / 3 * (x1 - x), y + 2 / 3 * (y1 - y), x, y)

    def arc(self, rx: float, ry: float, turn: float, large: bool, sweep: bool, x: float, y: float) -> None:
        """SVG's elliptical arc (SVG 1.1, F.6.5) from here to (x, y): radii `rx` and `ry` (grown if too
        small to reach), the ellipse turned by `turn` degrees, the larger or smaller arc, clockwise on the
        face when `sweep`; as cubics of at most a quarter turn each. No radius: a line."""
        x0, y0 = self.at
        if (x0, y0) == (x, y):
            return
        rx, ry = abs(rx), abs(ry)
        if rx == 0 or ry == 0:
            self.line(x, y)
            return
        cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        hx, hy = (x0 - x) / 2, (y0 - y) / 2
        px, py = cos * hx + sin * hy, -sin * hx + cos * hy  # the start, in the ellipse's own axes
        grow = (px / rx) ** 2 + (py / ry) ** 2
        if grow > 1:
            rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
        num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px
        root = math.sqrt(max(0.0, num / (rx * rx * py * py + ry * ry * px * px)))
        if large == sweep:
            root = -root
        ccx, ccy = root * rx * py / ry, -root * ry * px / rx
        cx, cy = cos * ccx - sin * ccy + (x0 + x) / 2, sin * ccx + cos * ccy + (y0 + y) / 2
        first = math.atan2((py - ccy) / ry, (px - ccx) / rx)
        span = math.atan2((-py - ccy) / ry, (-px - ccx) / rx) - first
        if sweep and span < 0:
            span += 2 * math.pi
        elif not sweep and span > 0:
            span -= 2 * math.pi
        pieces = max(1, math.ceil(abs(span) / (math.pi / 2) - 1e-9))
        step = span / pieces
        handle = 4 / 3 * math.tan(step / 4)

        def on(u: float, v: float) -> Point:  # a point of the unit circle's frame, on the face
            return cx + rx * cos * u - ry * sin * v, cy + rx * sin * u + ry * cos * v

        for k in range(pieces):
            a, b = first + k * step, first + (k + 1) * step
            c1 = on(math.cos(a) - handle * math.sin(a), math.sin(a) + handle * math.cos(a))
            c2 = on(math.cos(b) + handle * math.sin(b), math.sin(b) - handle * math.cos(b))
            end = (x, y) if k == pieces - 1 else on(math.cos(b), math.sin(b))
            self.cubic(*c1, *c2, *end)

    def close(self) -> None:
        self.commands.append(CLOSE)
        self.at = self.start

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of every point and handle: the outline lies within them."""
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


def rectangle(left: float, top: float, right: float, bottom: float, radius: float = 0.0) -> Outline:
    """A rectangle, clockwise, its corners rounded by quarter circles of `radius` (at most half a side)."""
    out = Outline()
    r = max(0.0, min(radius, (right - left) / 2, (bottom - top) / 2))
    if r == 0:
        out.move(left, top)
        for x, y in ((right, top), (right, bottom), (left, bottom)):
            out.line(x, y)
        out.close()
        return out
    k = KAPPA * r
    out.move(left, bottom - r)
    out.line(left, top + r)
    out.cubic(left, top + r - k, left + r - k, top, left + r, top)
    out.line(right - r, top)
    out.cubic(right - r + k, top, right, top + r - k, right, top + r)
    out.line(right, bottom - r)
    out.cubic(right, bottom - r + k, right - r + k, bottom, right - r, bottom)
    out.line(left + r, bottom)
    out.cubic(left + r - k, bottom, left, bottom - r + k, left, bottom - r)
    out.close()
    return out


def oval(left: float, top: float, right: float, bottom: float) -> Outline:
    """The ellipse filling the box, clockwise from its right-hand end, as four cubics."""
    out = Outline()
    cx, cy, rx, ry = (left + right) / 2, (top + bottom) / 2, (right - left) / 2, (bottom - top) / 2
    kx, ky = KAPPA * rx, KAPPA * ry
    out.move(right, cy)
    out.cubic(right, cy + ky, cx + kx, bottom, cx, bottom)
    out.cubic(cx - kx, bottom, left, cy + ky, left, cy)
    out.cubic(left, cy - ky, cx - kx, top, cx, top)
    out.cubic(cx + kx, top, right, cy - ky, right, cy)
    out.close()
    return out


def polygon(corners: Sequence[Point], radius: float = 0.0) -> Outline:
    """The closed polygon through `corners`. With a `radius`, each corner is cut back along both its sides
    by the radius (by half the side, where a side is shorter than two radii) and the cut bridged by the
    quadratic curve whose handle is the corner."""
    out = Outline()
    n = len(corners)
    if radius <= 0 or n < 3:
        out.move(*corners[0])
        for x, y in corners[1:]:
            out.line(x, y)
        out.close()
        return out

    def step(a: Point, b: Point) -> tuple[float, float, bool]:  # toward b by the radius, or half the way
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        if length <= 2 * radius:
            return dx / 2, dy / 2, False
        return dx * radius / length, dy * radius / length, True  # and the side has a straight middle

    steps = [step(corners[i], corners[(i + 1) % n]) for i in range(n)]  # side i runs from corner i to i + 1
    x0, y0 = corners[0]
    out.move(x0 + steps[0][0], y0 + steps[0][1])
    for i in range(1, n + 1):
        (cx, cy), (ax, ay, middle), (bx, by, _) = corners[i % n], steps[i - 1], steps[i % n]
        if middle:
            out.line(cx - ax, cy - ay)
        out.quad(cx, cy, cx + bx, cy + by)
    out.close()
    return out


@functools.cache
def _thorvg() -> Any:
    """thorvg-cython, its engine started once in this process (no threads of its own: faces are drawn in
    processes of deckpress's)."""
    try:
        import thorvg_cython  # noqa: PLC0415 (imported only when a face draws a vector shape)
    except ImportError:  # no wheel for this system (macOS on Intel)
        raise Invalid("this shape needs ThorVG (`pip install thorvg-cython`), which has no wheel for this "
                      "computer; draw it as an SVG image instead") from None
    engine = thorvg_cython.Engine(threads=0)
    return thorvg_cython, engine


def _gradient(tvg: Any, fill: GradientFill, box: tuple[float, float, float, float]) -> Any:
    """ThorVG's gradient of `fill` over `box` (x0, y0, x1, y1 in the pixels drawn in)."""
    g, stops = fill.gradient, fill.stops
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if g.gradient == "linear":
        a = math.radians(g.angle)
        dx, dy = math.cos(a), math.sin(a)
        half = (abs(w * dx) + abs(h * dy)) / 2 or 1  # the first and last colours reach the box's corners
        cx, cy = x0 + w / 2, y0 + h / 2
        gradient = tvg.LinearGradient(cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half)
    else:
        cx, cy = x0 + g.center[0] * w, y0 + g.center[1] * h
        farthest = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
        gradient = tvg.RadialGradient(cx, cy, max(1e-3, g.radius * farthest), cx, cy, 0)
    gradient.set_color_stops([tvg.ColorStop(p, *c[:3], c[3] if len(c) == 4 else 255)
                              for c, p in zip(stops.colors, stops.positions, strict=True)])
    return gradient


def _shape(tvg: Any, outline: Outline, left: int, top: int) -> Any:
    shape = tvg.Shape()
    kinds = {MOVE: tvg.PathCommand.MOVE_TO, LINE: tvg.PathCommand.LINE_TO, CUBIC: tvg.PathCommand.CUBIC_TO,
             CLOSE: tvg.PathCommand.CLOSE}
    shape.append_path([kinds[c] for c in outline.commands], outline.points)
    shape.translate(-left, -top)  # the patch's pixels; a gradient stays laid over the face's
    return shape


def _ink(tvg: Any, shape: Any, ink: tuple | GradientFill, box, stroke: bool) -> None:
    if isinstance(ink, GradientFill):
        (shape.set_stroke_gradient if stroke else shape.set_gradient)(_gradient(tvg, ink, box))
    else:
        (shape.set_stroke_color if stroke else shape.set_fill_color)(*ink[:3], ink[3] if len(ink) == 4 else 255)


def _draw(tvg: Any, shapes: list[Any], width: int, height: int) -> Image.Image:
    """The shapes drawn into a transparent RGBA patch of the size, straight (not premultiplied) alpha."""
    canvas = tvg.SwCanvas(width, height, tvg.Colorspace.ABGR8888S)  # R, G, B, A in memory
    try:
        for shape in shapes:
            canvas.add(shape)  # the canvas owns them now
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        pixels = bytes(memoryview(canvas))
    finally:
        canvas.destroy()  # the canvas, its buffer and its shapes: the binding frees none of them by itself
    return Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1)


def paint_path(target: Image.Image, outline: Outline, fill: Ink, stroke: Stroke | None,
               box: tuple[float, float, float, float], edges=None, inset: Outline | None = None) -> None:
    """Fill and outline `outline` (in pixels of `target`) on `target`: fill first, then the outline
    centred on it, or on `inset` (a rect's or an ellipse's outline lies inside its box). `box` is the
    element's box, which a gradient spans; `edges` are the canvas's smooth edges (see draw.Edges), which
    it covers."""
    if fill is None and stroke is None:
        return
    tvg, _ = _thorvg()
    x0, y0, x1, y1 = outline.bounds()
    reach = (stroke.width / 2 * (MITER_LIMIT if stroke.join == "miter" else 1) if stroke else 0) + 2
    left, top = max(0, math.floor(x0 - reach)), max(0, math.floor(y0 - reach))
    right, bottom = min(target.width, math.ceil(x1 + reach)), min(target.height, math.ceil(y1 + reach))
    if right <= left or bottom <= top:
        return
    shapes = []
    if fill is not None:
        shape = _shape(tvg, outline, left, top)
        _ink(tvg, shape, fill, box, stroke=False)
        shapes.append(shape)
    if stroke is not None and stroke.width > 0:
        shape = _shape(tvg, inset or outline, left, top)
        _ink(tvg, shape, stroke.color, box, stroke=True)
        shape.set_stroke_width(stroke.width)
        shape.set_stroke_cap(tvg.StrokeCap.BUTT)  # ThorVG's own default is square
        shape.set_stroke_miterlimit(MITER_LIMIT)
        shape.set_stroke_join({"miter": tvg.StrokeJoin.MITER, "round": tvg.StrokeJoin.ROUND,
                               "bevel": tvg.StrokeJoin.BEVEL}[stroke.join])
        if stroke.dash:
            shape.set_stroke_dash(list(stroke.dash), 0)
        shapes.append(shape)
    patch = _draw(tvg, shapes, right - left, bottom - top)
    if edges is not None:
        edges.forget((left, top, right, bottom), patch.getchannel("A"))
    composite(target, patch, left, top)


def gradient_image(fill: GradientFill, size: tuple[int, int], box: tuple[float, float, float, float]) -> Image.Image:
    """An RGBA image of `size` painted all over with the gradient laid over `box` (in its pixels)."""
    tvg, _ = _thorvg()
    shape = tvg.Shape()
    shape.append_rect(0, 0, size[0], size[1], 0, 0, True)
    _ink(tvg, shape, fill, box, stroke=False)
    return _draw(tvg, [shape], *size)
