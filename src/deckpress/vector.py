"""Vector shapes with smooth edges: paths filled with a colour or a gradient and outlined with a dash
pattern and line joins, drawn by Skia (skia-python) into a patch just over the shape and laid on the face.

Pillow's ImageDraw has no anti-aliasing for polygons and no dashes, joins, curves or gradients; Skia is
the rasteriser Chrome and Android draw with, and does all of it. It is imported only when a face has such
a shape: the shipped decks' rectangles, ellipses and lines are drawn as before (draw.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PIL import Image

from .draw import composite
from .elements.paint import GradientFill, Ink, Stroke

MITER_LIMIT = 4.0  # a sharper corner than about 29 degrees is bevelled, as in SVG


def _skia():
    import skia  # noqa: PLC0415 (imported only when a face draws a vector shape: it takes a quarter second)
    return skia


def shader(skia: Any, fill: GradientFill, box: tuple[float, float, float, float]):
    """The Skia shader of a gradient over `box` (x0, y0, x1, y1 in the pixels drawn in)."""
    g, stops = fill.gradient, fill.stops
    colors = [skia.Color(*c) for c in stops.colors]
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if g.gradient == "linear":
        a = math.radians(g.angle)
        dx, dy = math.cos(a), math.sin(a)
        half = (abs(w * dx) + abs(h * dy)) / 2 or 1  # the first and last colours reach the box's corners
        cx, cy = x0 + w / 2, y0 + h / 2
        ends = [skia.Point(cx - dx * half, cy - dy * half), skia.Point(cx + dx * half, cy + dy * half)]
        return skia.GradientShader.MakeLinear(ends, colors, list(stops.positions))
    cx, cy = x0 + g.center[0] * w, y0 + g.center[1] * h
    farthest = max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1))
    return skia.GradientShader.MakeRadial(skia.Point(cx, cy), max(1e-3, g.radius * farthest), colors,
                                          list(stops.positions))


def _paint(skia: Any, ink: tuple | GradientFill, box) -> Any:
    paint = skia.Paint(AntiAlias=True)
    if isinstance(ink, GradientFill):
        paint.setShader(shader(skia, ink, box))
    else:
        paint.setColor(skia.Color(*ink[:3], ink[3] if len(ink) == 4 else 255))
    return paint


def _to_pil(surface: Any) -> Image.Image:
    skia = _skia()
    pixels = surface.toarray(colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kUnpremul_AlphaType)
    return Image.frombuffer("RGBA", (pixels.shape[1], pixels.shape[0]), pixels.tobytes(), "raw", "RGBA", 0, 1)


def paint_path(target: Image.Image, build: Callable[[Any], Any], fill: Ink, stroke: Stroke | None,
               box: tuple[float, float, float, float], corner: float = 0.0, edges=None,
               inset: Callable[[Any], Any] | None = None) -> None:
    """Fill and outline the path `build(skia)` makes (in pixels of `target`) on `target`: fill first, then
    the outline centred on the path, or on the path `inset(skia)` makes (a rect's or an ellipse's outline
    lies inside its box). `box` is the element's box, which a gradient spans; `corner` rounds the path's
    corners (pixels); `edges` are the canvas's smooth edges (see draw.Edges), which it covers."""
    if fill is None and stroke is None:
        return
    skia = _skia()
    path = build(skia)
    bounds = path.computeTightBounds()
    reach = (stroke.width / 2 * (MITER_LIMIT if stroke.join == "miter" else 1) if stroke else 0) + 2
    left, top = max(0, math.floor(bounds.left() - reach)), max(0, math.floor(bounds.top() - reach))
    right = min(target.width, math.ceil(bounds.right() + reach))
    bottom = min(target.height, math.ceil(bounds.bottom() + reach))
    if right <= left or bottom <= top:
        return
    surface = skia.Surface(right - left, bottom - top)
    canvas = surface.getCanvas()
    canvas.translate(-left, -top)
    rounded = skia.CornerPathEffect.Make(corner) if corner > 0 else None
    if fill is not None:
        paint = _paint(skia, fill, box)
        if rounded is not None:
            paint.setPathEffect(rounded)
        canvas.drawPath(path, paint)
    if stroke is not None and stroke.width > 0:
        paint = _paint(skia, stroke.color, box)
        paint.setStyle(skia.Paint.kStroke_Style)
        paint.setStrokeWidth(stroke.width)
        paint.setStrokeMiter(MITER_LIMIT)
        paint.setStrokeJoin({"miter": skia.Paint.kMiter_Join, "round": skia.Paint.kRound_Join,
                             "bevel": skia.Paint.kBevel_Join}[stroke.join])
        effect = skia.DashPathEffect.Make(list(stroke.dash), 0) if stroke.dash else None
        if effect is not None and rounded is not None:
            effect = skia.PathEffect.MakeCompose(effect, rounded)
        if effect or rounded:
            paint.setPathEffect(effect or rounded)
        canvas.drawPath(inset(skia) if inset else path, paint)
    patch = _to_pil(surface)
    if edges is not None:
        edges.forget((left, top, right, bottom), patch.getchannel("A"))
    composite(target, patch, left, top)


def gradient_image(fill: GradientFill, size: tuple[int, int], box: tuple[float, float, float, float]) -> Image.Image:
    """An RGBA image of `size` painted all over with the gradient laid over `box` (in its pixels)."""
    skia = _skia()
    surface = skia.Surface(*size)
    surface.getCanvas().drawPaint(_paint(skia, fill, box))
    return _to_pil(surface)
