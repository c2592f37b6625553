"""Pixels: the drawing primitives the element painters share, on Pillow images at 300 DPI.

Rounded rectangles, ellipses and lines keep smooth edges from their coverage, drawn at SUPERSAMPLE times
the resolution in a mask over just their bounding box, reduced, and painted through (see `smooth` and
`Edges`); images are read once, bounded in size, and laid on with their alpha (`composite`).
"""

from __future__ import annotations

import functools
import math
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from .options import Invalid

DPI = 300
SUPERSAMPLE = 2  # times the resolution the coverage of smooth shapes is drawn at
PT_PER_INCH = 72
MAX_IMAGE_PIXELS = 40_000_000  # of an image a template draws: 8000 x 5000, far more than a card needs


def mm_to_px(mm: float) -> float:
    return mm * DPI / 25.4


@dataclass
class Box:
    """An element's box in millimetres from the trim's top-left corner."""

    x: float
    y: float
    w: float
    h: float


def glyph_ink(font, glyph: str) -> tuple[int, int, int, int]:
    """The box of the glyphs' ink, from where `draw.text` puts their top-left corner (getbbox alone gives
    the advance across, side bearings included)."""
    left, top, _, _ = font.getbbox(glyph)
    x0, y0, x1, y1 = font.getmask(glyph).getbbox() or (0, 0, 1, 1)
    return left + x0, top + y0, left + x1, top + y1



def load_image(file: Path, name: str) -> Image.Image:
    """The image in `file` as RGBA; Invalid when it is not an image or has more than MAX_IMAGE_PIXELS
    pixels (checked from its header, before it is decoded)."""
    try:
        with warnings.catch_warnings():  # the size is checked below, with a clearer message
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img = Image.open(file)
        with img:
            width, height = img.size
            if width * height > MAX_IMAGE_PIXELS:
                raise Invalid(f"image {name!r} is {width} x {height} pixels, more than the {MAX_IMAGE_PIXELS} "
                              "an image may have; scale it down (300 pixels per inch of card is plenty)")
            return img.convert("RGBA")
    except Image.DecompressionBombError:
        raise Invalid(f"image {name!r} has more pixels than Pillow will open; scale it down") from None
    except (OSError, ValueError, SyntaxError, EOFError):  # what Pillow raises for a broken file
        raise Invalid(f"{name!r} is not an image Pillow can read; save it as PNG or JPEG") from None


def composite(base: Image.Image, layer: Image.Image, left: int, top: int) -> None:
    """Lay the RGBA `layer` on `base` (the RGB canvas or an RGBA layer) with its top-left corner at
    (left, top), clipped to `base`."""
    crop_left, crop_top = max(0, -left), max(0, -top)
    if crop_left or crop_top:
        layer = layer.crop((crop_left, crop_top, layer.width, layer.height))
    if layer.width > 0 and layer.height > 0 and left + crop_left < base.width and top + crop_top < base.height:
        if base.mode == "RGB":  # the canvas is opaque: over it, a layer is its own alpha's blend
            base.paste(layer, (left + crop_left, top + crop_top), layer)
        else:
            base.alpha_composite(layer, (left + crop_left, top + crop_top))


def edge(v: float) -> int:
    """The pixel edge nearest `v`, a half rounded up: the halves of a card, one drawn and one turned by
    180 degrees, meet on a row of the canvas rather than both stopping short of it."""
    return math.floor(v + 0.5)


def smooth(surface: Image.Image, shape: str, xy: tuple[float, float, float, float], fill, stroke,
           width: float, edges: Edges | None = None, radius: float = 0.0) -> None:
    """Draw the ImageDraw `shape` ("rounded_rectangle" or "ellipse" filling the box `xy`, or "line" from
    its first corner to its second, `width` pixels wide) on `surface` with smooth edges: the coverage of
    its fill and of its stroke (`width` pixels inside its edge) drawn at SUPERSAMPLE times the resolution
    in masks over just its bounding box, reduced, and the colours painted through them, fill first.
    On the canvas, `edges` keeps a shape's edge from showing the edge of one drawn before it where the two
    coincide (a band over a panel with the same rounded corners)."""
    x0, y0, x1, y1 = xy
    reach = width / 2 + 1 if shape == "line" else 1  # how far the ink may reach beyond xy
    left, top = max(0, math.floor(min(x0, x1) - reach)), max(0, math.floor(min(y0, y1) - reach))
    right = min(surface.width, math.ceil(max(x0, x1) + reach))
    bottom = min(surface.height, math.ceil(max(y0, y1) + reach))
    if right <= left or bottom <= top:
        return
    s = SUPERSAMPLE
    size = ((right - left) * s, (bottom - top) * s)
    ax, ay, bx, by = ((x0 - left) * s, (y0 - top) * s, (x1 - left) * s, (y1 - top) * s)
    stroke_px = round(width * s)
    options = {"radius": radius * s} if shape == "rounded_rectangle" else {}

    def coverage(**ink: Any) -> Image.Image:
        mask = Image.new("L", size, 0)
        if shape == "line":
            ImageDraw.Draw(mask).line((ax, ay, bx, by), fill=255, width=max(1, stroke_px))
        elif bx - ax >= 1 and by - ay >= 1:  # the box's pixels, the last one inclusive as ImageDraw counts
            getattr(ImageDraw.Draw(mask), shape)((edge(ax), edge(ay), edge(bx) - 1, edge(by) - 1), **options,
                                                 **ink)
        return mask

    def core(inset: float) -> tuple[int, int, int, int] | None:
        """A box `inset` pixels inside the shape's edge and past its corners' curves: inside the shape, or
        in a ring's hole; in pixels of the bounding box, and within it where the shape reaches past the
        surface's edge."""
        if shape == "line":
            return None
        w, h = abs(x1 - x0), abs(y1 - y0)
        corner = min(radius, w / 2, h / 2) if shape == "rounded_rectangle" else None
        kx = (w / 2 if corner is None else corner) * (1 - math.sqrt(0.5)) + 2 + inset  # past the 45° point
        ky = (h / 2 if corner is None else corner) * (1 - math.sqrt(0.5)) + 2 + inset  # of the corners
        box = (max(0, math.ceil(min(x0, x1) + kx) - left), max(0, math.ceil(min(y0, y1) + ky) - top),
               min(right - left, math.floor(max(x0, x1) - kx) - left),
               min(bottom - top, math.floor(max(y0, y1) - ky) - top))
        return box if box[2] > box[0] and box[3] > box[1] else None

    masks = []
    if shape == "line":
        if stroke is not None:
            masks.append((stroke, coverage(), None))
    else:
        if fill is not None:
            masks.append((fill, coverage(fill=255), core(0)))
        if stroke is not None and stroke_px > 0:
            ring = coverage(outline=255, width=stroke_px)
            if masks and len(stroke) == 4 and stroke[3] < 255:  # a see-through stroke shows what is under
                masks[0] = (fill, ImageChops.subtract(masks[0][1], ring), masks[0][2])  # the shape, not its fill
            masks.append((stroke, ring, core(width + 1)))
    w, h = right - left, bottom - top
    for colour, fine, inside in masks:
        pieces = [(0, 0, w, h)]
        # the shapes are convex, and so are their rings' holes: the inside is uniform if its corners agree
        corners = {fine.getpixel((x, y)) for x in (s * inside[0], s * inside[2] - 1)
                   for y in (s * inside[1], s * inside[3] - 1)} if inside else {0, 255}
        if len(corners) == 1:  # the inside is painted whole, not through the mask: many times faster
            if corners == {255}:
                paint_through(surface, colour, None, left + inside[0], top + inside[1],
                              (inside[2] - inside[0], inside[3] - inside[1]))
                if edges is not None:
                    edges.forget((left + inside[0], top + inside[1], left + inside[2], top + inside[3]))
            l, t, r, b = inside  # the rest, through the mask: four strips around it
            pieces = [(0, 0, w, t), (0, b, w, h), (0, t, l, b), (r, t, w, b)]
        for piece in pieces:
            if piece[2] <= piece[0] or piece[3] <= piece[1]:
                continue
            part_fine = fine.crop(tuple(v * s for v in piece))
            if part_fine.getbbox() is None:
                continue
            part, at = part_fine.reduce(s), (left + piece[0], top + piece[1])
            if edges is None:
                paint_through(surface, colour, part, *at)
            else:
                edges.paint(surface, colour[:3], part, part_fine, *at)


class Table(Image.ImagePointHandler):
    """A lookup table of 256 whole numbers for `Image.point` of a one-band image, applied as it is: given a
    list, Pillow rounds its values again on every call (25 us, more than mapping most masks takes)."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def point(self, image: Image.Image) -> Image.Image:
        return image._new(image.im.point(self.values, None))


@functools.lru_cache(maxsize=None)
def scaled(alpha: int) -> Table:
    """The table that scales coverage by `alpha` (of 255)."""
    return Table([round(v * alpha / 255) for v in range(256)])


_PARTIAL = Table([255 if 0 < v < 255 else 0 for v in range(256)])
_NONZERO = Table([255 if v else 0 for v in range(256)])


class Edges:
    """The edges (partly covered pixels) of the smooth shapes painted on the canvas, each with its coverage
    at SUPERSAMPLE times the resolution and the pixels it was painted over. A shape whose coverage of such
    a pixel includes all of an earlier edge's is painted over what was under that edge: its colour then
    replaces the earlier one in the pixel, as it would at the higher resolution, instead of leaving a
    fringe of it. Painting anything else on the canvas forgets the edges it may touch."""

    def __init__(self) -> None:
        self.records: list[tuple[tuple[int, int, int, int], Image.Image, Image.Image, Image.Image]] = []

    def forget(self, box: tuple[int, int, int, int], mask: Image.Image | None = None) -> None:
        """Forget the edges in `box` (the canvas pixels there were painted over), or, with `mask` (of the
        box), where `mask` is not 0."""
        if mask is None:  # edges wholly inside the box are gone
            self.records = [r for r in self.records if _overlap(r[0], box) != r[0]]
        painted = None
        for old_box, old_partial, _, _ in self.records:
            shared = _overlap(old_box, box)
            if shared is not None:
                theirs = tuple(v - o for v, o in zip(shared, old_box[:2] * 2))
                if mask is None:
                    old_partial.paste(0, theirs)
                    continue
                painted = painted or mask.point(_NONZERO)
                old_partial.paste(0, theirs, painted.crop(tuple(v - o for v, o in zip(shared, box[:2] * 2))))

    def paint(self, canvas: Image.Image, colour: tuple, mask: Image.Image, fine: Image.Image, left: int,
              top: int) -> None:
        """Paint opaque `colour` through `mask` at (left, top); `fine` is the mask at SUPERSAMPLE times."""
        box = (left, top, left + mask.width, top + mask.height)
        base = canvas.crop(box)  # what this paint covers, once earlier edges it contains are undone
        undone = False
        s = SUPERSAMPLE
        for old_box, old_partial, old_fine, under in self.records:
            shared = _overlap(old_box, box)
            if shared is None:
                continue
            theirs = tuple(v - o for v, o in zip(shared, old_box[:2] * 2))
            partial = old_partial.crop(theirs)
            if partial.getbbox() is None:  # no edge left there
                continue
            mine = tuple(v - o for v, o in zip(shared, box[:2] * 2))
            uncovered = ImageChops.subtract(old_fine.crop(tuple(v * s for v in theirs)),
                                            fine.crop(tuple(v * s for v in mine))).reduce(s).point(_NONZERO)
            covered = ImageChops.subtract(partial, uncovered)
            if covered.getbbox() is not None:
                base.paste(under.crop(theirs), mine, covered)
                undone = True
        if undone:
            canvas.paste(base, box[:2])
        self.forget(box, mask)
        partial = mask.point(_PARTIAL)
        if partial.getbbox() is not None:
            self.records.append((box, partial, fine, base))
        canvas.paste(colour, box, mask)


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    """The box two boxes share; None when they do not overlap."""
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[2] > box[0] and box[3] > box[1] else None


def paint_through(surface: Image.Image, colour: tuple, mask: Image.Image | None, left: int, top: int,
                  size: tuple[int, int] | None = None) -> None:
    """Paint `colour` (RGB, or RGBA to blend) on `surface` through `mask`, the coverage ("L") of the
    area whose top-left corner is (left, top), or without one over an area of `size`."""
    size = mask.size if mask is not None else size
    if len(colour) == 4:
        alpha, colour = colour[3], colour[:3]
        if alpha < 255:
            mask = mask if mask is not None else Image.new("L", size, 255)
            mask = mask.point(scaled(alpha))
    if surface.mode == "RGB":
        surface.paste(colour, (left, top, left + size[0], top + size[1]), mask)
        return
    patch = Image.new("RGBA", size, (*colour, 0))
    patch.putalpha(mask if mask is not None else 255)
    composite(surface, patch, left, top)


def wrap(text: str, font, width: float) -> list[str] | None:
    """Greedy word wrap; None when a single word is wider than the box."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split(" "):
            trial = f"{current} {word}" if current else word
            if font.getlength(trial) <= width:
                current = trial
                continue
            if not current or font.getlength(word) > width:
                return None
            lines.append(current)
            current = word
        lines.append(current)
    return lines
