"""What every element is: its record's common options (`Element`, with its `Shadow`), the option that
picks an element's record by its `type`, and the painter that lays an element on the face.

An element type is one record, built from `Element` and the groups of options it takes (groups.py:
`PaintOptions`, `TextOptions`, `ImageOptions`), and one `Painter` subclass that draws it; the module of
each type (elements/rect.py, ...) holds both. Every value may be a jinja2 expression, evaluated per card
when the face is drawn. Opacity and shadows work on any element: it is drawn on a layer of its own,
made see-through, shadowed, and laid on the face.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from PIL import Image, ImageColor, ImageDraw, ImageFilter

from ..draw import DPI, PT_PER_INCH, Box, composite, scaled
from ..expr import render_text, render_value
from ..fonts import BadFont, missing_glyphs
from ..options import (Choice, Color, Free, Invalid, Number, Option, Record, Section, Str, did_you_mean,
                       finite)

EXPR = " May be a jinja2 expression."
MAX_BOX_MM = 1000  # farthest an element's x, y, w or h may reach
MAX_SHADOW_MM = 20  # farthest a shadow may fall, and its largest blur
LAYER_PAD_MM = 2.0  # room around a layered element's box for glyph overhang and outlines
_TURNS = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}


class Expr(Free):
    """A number, or a jinja2 expression giving one; evaluated per card when drawing."""

    type_name = "number or expression"


class Shadow(Record):
    """A drop shadow: the element's shape, moved, blurred and in one colour, drawn under it."""

    x = Number("How far right the shadow falls, in mm.", default=0.5, min=-MAX_SHADOW_MM, max=MAX_SHADOW_MM)
    y = Number("How far down the shadow falls, in mm.", default=0.5, min=-MAX_SHADOW_MM, max=MAX_SHADOW_MM)
    blur = Number("How soft its edge is: the blur's radius in mm (0: sharp).", default=0.5, min=0,
                  max=MAX_SHADOW_MM)
    color = Color("Its colour; an alpha makes it lighter.", default="#00000080")


class Element(Record):
    """One thing drawn on a face, placed in millimetres from the top-left corner of the trim box.

    Any value may be a jinja2 expression over `card` (the card's fields), `style` (the
    card's style), `game`, `component`, and the sizes `W`, `H`, `bleed` and `safe` (mm).
    """

    TYPE: ClassVar[str] = ""  # the `type:` that picks this record
    DRAWS: ClassVar[str] = ""  # what it draws, in a few words
    TYPES: ClassVar[dict[str, type[Element]]] = {}  # every element type, by `type:`, in the order declared
    painter: ClassVar[type[Painter]]

    type = Choice("What to draw.", [])
    name = Str("Name used in error messages; default: the type and position.", default=None)
    when = Str("Draw only when this jinja2 condition holds, e.g. `{{ card.value > 2 }}`.", default=None)
    each = Str("Draw the element once per item of this list expression, e.g. `{{ style.pips }}`; the other "
               "values see the item as `item` and its position as `index`.", default=None)
    box = Choice("Start from a whole box: `bleed` (the full image), `trim` or `safe`.",
                 ["bleed", "trim", "safe"], default=None)
    x = Expr("Left edge in mm from the trim's left edge (negative reaches into the bleed)." + EXPR, default=0)
    y = Expr("Top edge in mm from the trim's top edge." + EXPR, default=0)
    w = Expr("Width in mm; default: the trim width." + EXPR, default=None)
    h = Expr("Height in mm; default: the trim height." + EXPR, default=None)
    rotate = Choice("Turn the element about the card's centre (180 draws it upside down).",
                    [0, 90, 180, 270], default=0)
    opacity = Expr("Opacity of the whole element, from 0 (invisible) to 1 (opaque)." + EXPR, default=1)
    shadow = Section(Shadow, "A drop shadow under the element, e.g. `{x: 0.6, y: 0.6, blur: 0.8}`.", default=None)

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        if cls.TYPE:  # a type of element, not a group of options: `type` takes its name only
            cls.OPTIONS = {**cls.OPTIONS, "type": Choice(f"What to draw: `{cls.TYPE}`, {cls.DRAWS}.", [cls.TYPE])}
            Element.TYPES[cls.TYPE] = cls

    @classmethod
    def unknown_key(cls, key: Any, known: list[str]) -> str:
        """An option of other element types is named as theirs: "`fit` is an option of image, not of rect"."""
        owners = [t for t, record in Element.TYPES.items() if key in record.OPTIONS]
        if owners:
            return (f"`{key}` is an option of {' and '.join(owners)}, not of {cls.TYPE}; remove it, or draw "
                    f"a{'n' if owners[0][0] in 'aeiou' else ''} {owners[0]} instead")
        return f"unknown key {key!r} in a {cls.TYPE} element; {did_you_mean(key, known)}"

    def validate(self, ctx):
        if self.box is not None:
            ignored = [key for key in ("x", "y", "w", "h") if key in self.source]
            if ignored:
                ctx.warn(self.source.key_where[ignored[0]],
                         f"`box: {self.box}` sets the whole box, so {', '.join(ignored)} "
                         f"{'is' if len(ignored) == 1 else 'are'} ignored; remove `box` or "
                         f"{'it' if len(ignored) == 1 else 'them'}")


class ElementOption(Option):
    """One element of a template: the record of its `type`."""

    type_name = "element (one of the types below)"

    def check(self, value, where, ctx):
        if not isinstance(value, dict):
            raise Invalid("expected a mapping with a `type:`, e.g. {type: rect, x: 5, y: 5, w: 20, h: 10}")
        kinds = list(Element.TYPES)
        if "type" not in value:
            raise Invalid(f"missing key 'type' in the element; add `type:` (one of {', '.join(kinds)})")
        kind = value["type"]
        if kind not in Element.TYPES:
            at = value.at("type") if hasattr(value, "at") else where
            ctx.error(at, f"type: unknown element type {kind!r}; {did_you_mean(kind, kinds)}")
            return None
        return Element.TYPES[kind].load(value, where, ctx)

    def schema(self):
        return {"type": "object", "required": ["type"], "properties": {"type": {"enum": list(Element.TYPES)}},
                "allOf": [{"if": {"properties": {"type": {"const": kind}}}, "then": record.json_schema()}
                          for kind, record in Element.TYPES.items()]}


class Painter:
    """Draws one element onto the canvas: a subclass per element type implements `draw`."""

    FREEHAND: ClassVar[bool] = True  # draws with Pillow straight on the canvas, not through `smooth`

    def __init__(self, renderer, canvas: Image.Image, scale: float, ctx: dict, element: Element, size_mm):
        self.r = renderer
        self.canvas = canvas
        self.scale = scale
        self.ctx = ctx
        self.e = element
        self.size_mm = size_mm
        self.origin = (0, 0)  # top-left pixel of the surface drawn on, in canvas pixels

    def draw(self, draw: ImageDraw.ImageDraw, layer: Image.Image, box: Box) -> None:
        raise NotImplementedError

    # -- values --------------------------------------------------------------------------------
    def num(self, value: Any) -> float:
        value = render_value(value, self.ctx)
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise Invalid(f"expected a number, got {value!r}; write a number of mm or points") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Invalid(f"expected a number, got {value!r}; write a number of mm or points")
        try:
            return finite(float(value))
        except OverflowError:
            raise Invalid(f"{value} is too large; write a number of mm or points") from None

    def color(self, value: str | None):
        if value is None:
            return None
        text = render_text(value, self.ctx)
        if text in ("", "none"):
            return None
        try:
            return ImageColor.getrgb(text)
        except ValueError:
            raise Invalid(f"{text!r} is not a colour; write '#rrggbb'") from None

    def box(self) -> Box:
        W, H = self.size_mm
        e = self.e
        if e.box:
            inset = {"bleed": -self.r.bleed, "trim": 0.0, "safe": self.r.safe}[e.box]
            return Box(inset, inset, W - 2 * inset, H - 2 * inset)
        w = W if e.w is None else self.num(e.w)
        h = H if e.h is None else self.num(e.h)
        box = Box(self.num(e.x), self.num(e.y), w, h)
        if max(abs(box.x), abs(box.y), abs(box.w), abs(box.h)) > MAX_BOX_MM:
            raise Invalid(f"its box ({box.x:g}, {box.y:g}, {box.w:g} x {box.h:g} mm) reaches more than "
                          f"{MAX_BOX_MM} mm from the card; keep x, y, w and h within the card")
        return box

    def px(self, box: Box) -> tuple[float, float, float, float]:
        """The box in pixels of the surface being drawn on (the canvas, or a layer at `self.origin`)."""
        off = self.r.bleed
        s = self.scale
        ox, oy = self.origin
        return ((box.x + off) * s - ox, (box.y + off) * s - oy,
                (box.x + box.w + off) * s - ox, (box.y + box.h + off) * s - oy)

    # -- drawing ---------------------------------------------------------------------------------
    def paint(self) -> None:
        e = self.e
        box = self.box()
        if getattr(e, "safe", False):
            self.check_safe(box)
        opacity = self.num(e.opacity)
        if not 0 <= opacity <= 1:
            raise Invalid(f"opacity {opacity:g} is not between 0 and 1; write e.g. opacity: 0.5")
        if opacity == 0:
            return
        if e.rotate == 0 and opacity == 1 and e.shadow is None and not self.translucent():
            if self.FREEHAND:
                x0, y0, x1, y1 = self.reach(box)
                self.r.edges.forget((math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)))
            self.draw(ImageDraw.Draw(self.canvas), self.canvas, box)
            return
        # A layer just big enough for the element, turned about the trim's centre, then laid on the canvas.
        x0, y0, x1, y1 = self.reach(box)
        left, top, right, bottom = math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)
        # Only the part that lands on the canvas once turned is drawn: the canvas itself, turned back.
        cw, ch = self.canvas.size if e.rotate in (0, 180) else self.canvas.size[::-1]
        cx, cy = self.canvas.size[0] / 2, self.canvas.size[1] / 2
        left, top = max(left, math.floor(cx - cw / 2)), max(top, math.floor(cy - ch / 2))
        right, bottom = min(right, math.ceil(cx + cw / 2)), min(bottom, math.ceil(cy + ch / 2))
        if right <= left or bottom <= top:
            return
        layer = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        self.origin = (left, top)
        self.draw(ImageDraw.Draw(layer), layer, box)
        self.origin = (0, 0)
        ink = layer.getbbox()  # of the pixels not fully transparent: only those are turned and laid on
        if ink is None:
            return
        layer = layer.crop(ink)
        left, top = left + ink[0], top + ink[1]
        if e.rotate:
            left, top = self.turned(left, top, layer.size)
            layer = layer.transpose(_TURNS[e.rotate])
        if opacity < 1:
            layer.putalpha(layer.getchannel("A").point([round(a * opacity) for a in range(256)]))
        if e.shadow is not None:
            self.cast_shadow(layer, left, top)
        self.r.edges.forget((left, top, left + layer.width, top + layer.height))
        composite(self.canvas, layer, left, top)

    def reach(self, box: Box) -> tuple[float, float, float, float]:
        """How far the element's ink may reach, in canvas pixels: its box and some room for glyph overhang
        and outlines; shapes that may leave their box say how far."""
        return spread(self.px(box), LAYER_PAD_MM * self.scale)

    def cast_shadow(self, layer: Image.Image, left: int, top: int) -> None:
        """Lay the shadow of `layer` (the element, to be laid at left, top) on the canvas: its alpha, blurred,
        moved and in the shadow's colour."""
        shadow = self.e.shadow
        blur = shadow.blur * self.scale
        pad = math.ceil(3 * blur) + 1
        alpha = Image.new("L", (layer.width + 2 * pad, layer.height + 2 * pad), 0)
        alpha.paste(layer.getchannel("A"), (pad, pad))
        if blur > 0:
            alpha = alpha.filter(ImageFilter.GaussianBlur(blur))
        colour = ImageColor.getrgb(shadow.color)
        strength = colour[3] if len(colour) == 4 else 255
        patch = Image.new("RGBA", alpha.size, (*colour[:3], 0))
        patch.putalpha(alpha.point(scaled(strength)))
        at = (left - pad + round(shadow.x * self.scale), top - pad + round(shadow.y * self.scale))
        self.r.edges.forget((*at, at[0] + patch.width, at[1] + patch.height))
        composite(self.canvas, patch, *at)

    def turned(self, left: int, top: int, size: tuple[int, int]) -> tuple[int, int]:
        """Where a region's top-left corner lands when the region turns counter-clockwise by the element's
        `rotate` about the trim's centre (as PIL's rotate does)."""
        W, H = self.size_mm
        cx, cy = (W / 2 + self.r.bleed) * self.scale, (H / 2 + self.r.bleed) * self.scale
        right, bottom = left + size[0], top + size[1]
        corner = {90: (cx + (top - cy), cy - (right - cx)),
                  180: (2 * cx - right, 2 * cy - bottom),
                  270: (cx - (bottom - cy), cy + (left - cx))}[self.e.rotate]
        return round(corner[0]), round(corner[1])

    def translucent(self) -> bool:
        for key in ("fill", "stroke", "color"):
            value = getattr(self.e, key, None)
            colour = self.color(value) if isinstance(value, str) else None  # a gradient is laid on with its alpha
            if colour is not None and len(colour) == 4 and colour[3] < 255:
                return True
        return False

    def check_safe(self, box: Box) -> None:
        W, H = self.size_mm
        s = self.r.safe - 0.01
        if box.x < s or box.y < s or box.x + box.w > W - s or box.y + box.h > H - s:
            self.r.crossed(self.e, f"({box.x:.1f}, {box.y:.1f}, {box.w:.1f} x {box.h:.1f} mm) and the safe zone "
                                   f"{self.r.safe:.2f} mm inside the trim")

    def edges(self, surface: Image.Image):
        """The canvas's smooth edges when drawing on the canvas; None on a layer."""
        return self.r.edges if surface is self.canvas else None

    # -- fonts -----------------------------------------------------------------------------------
    def pt_to_px(self, pt: float) -> float:
        """A font size in pixels, not rounded: FreeType sets text at fractional sizes."""
        return max(1.0, pt / PT_PER_INCH * DPI)

    def font_path(self) -> str:
        name = render_text(self.e.font, self.ctx)
        if name not in self.r.deck.fonts:
            raise Invalid(f"unknown font {name!r}; use one of {', '.join(sorted(self.r.deck.fonts))}")
        return str(self.r.deck.fonts[name])

    def check_glyphs(self, text: str, font_path: str, font_name: str | None = None) -> None:
        try:
            missing = missing_glyphs(text, font_path)
        except BadFont as err:
            raise Invalid(f"{err}; use a .ttf or .otf file") from None
        if missing:
            raise Invalid(f"font {font_name or self.e.font!r} has no glyph for {missing!r}; "
                          "pick a font that has it")


def spread(xy: tuple[float, float, float, float] | list[tuple[float, float]], pad: float) -> tuple[float, ...]:
    """The box (x0, y0, x1, y1), or the box around some points, `pad` wider on every side."""
    if isinstance(xy, tuple):
        xy = [xy[:2], xy[2:]]
    xs, ys = [x for x, _ in xy], [y for _, y in xy]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
