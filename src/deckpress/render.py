"""Draw card faces with Pillow at 300 DPI, bleed included.

Coordinates in templates are millimetres from the top-left corner of the trim box.
Everything is drawn at the final resolution: text anti-aliased by FreeType at its exact size, images
resized once to their box, plain rectangles crisp on whole pixels; rounded rectangles, ellipses and
lines keep smooth edges from their coverage, drawn at SUPERSAMPLE times the resolution in a mask over
just their bounding box, reduced, and painted through (see `smooth` and `Edges`). Text wraps and
shrinks to fit its box; if it cannot fit at the element's `min_size`, rendering fails with the card's
name. Text may hold markup (see markup.py): bold and italic runs are set in the matching face of the
element's font, and inline icons are as tall as the text's size.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw

from .deck import LoadedDeck
from .errors import DeckError, Where
from .expr import render_text, render_value
from .fonts import BadFont, missing_glyphs, truetype
from .markup import IconRef, Run, Span, icon_typos, is_plain, parse, plain_text
from .options import Invalid, finite
from .paths import OutsideProject, confine, project_root
from .schema import Element, Template

DPI = 300
SUPERSAMPLE = 2  # times the resolution the coverage of smooth shapes is drawn at
PT_PER_INCH = 72
SIZE_STEP_PT = 0.5
MAX_IMAGE_PIXELS = 40_000_000  # of an image a template draws: 8000 x 5000, far more than a card needs
MAX_BOX_MM = 1000  # farthest an element's x, y, w or h may reach
MIN_FONT_PT, MAX_FONT_PT = 1, 500  # font sizes of a text element
MAX_EACH = 1000  # copies of one element (its `each` list)
LAYER_PAD_MM = 2.0  # room around a layered element's box for glyph overhang and outlines
ICON_PAD_EM = 0.08  # room on each side of an inline icon, in ems of the text
_TURNS = {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}


def mm_to_px(mm: float) -> float:
    return mm * DPI / 25.4


def face_pixels(size_mm: tuple[float, float], bleed_mm: float) -> tuple[int, int]:
    """Pixel size of a face with bleed: poker with 1/8 in bleed is 825 x 1125."""
    return tuple(round(mm_to_px(d + 2 * bleed_mm)) for d in size_mm)  # type: ignore[return-value]


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float


class FaceRenderer:
    """Renders faces of one deck; `render` returns an RGB image at 300 DPI with bleed."""

    def __init__(self, deck: LoadedDeck):
        self.deck = deck
        model = deck.model
        self.bleed = model.bleed
        self.safe = model.safe
        self.game = {"name": model.game.name, "version": model.game.version, "author": model.game.author}
        self.images_read: set[Path] = set()  # image files the last `render` drew, for the build cache
        self.images_missing: set[Path] = set()  # placeholders the last `render` drew instead
        self.warnings: list[str] = []  # what the last `render` drew in place of what it was asked
        self.shrunk: dict[str, float] = {}  # text elements the last `render` shrank: smallest size, by element
        self.edges = Edges()  # of the smooth shapes on the face being drawn

    def context(self, template: Template, card: dict, component: dict, size_mm) -> dict:
        ctx = {"card": card, "component": component, "game": self.game, "W": size_mm[0], "H": size_mm[1],
               "bleed": self.bleed, "safe": self.safe, "lang": self.deck.lang}
        style_name = render_text(template.style_by, ctx) if template.style_by else "default"
        styles = template.styles
        ctx["style"] = styles.get(style_name, styles.get("default", {}))
        return ctx

    def render(self, template_name: str, card: dict, component: dict, size_mm: tuple[float, float],
               where: Where, label: str) -> Image.Image:
        template = self.deck.templates[template_name]
        self.images_read, self.images_missing, self.warnings, self.shrunk = set(), set(), [], {}
        self.edges = Edges()
        width, height = face_pixels(size_mm, self.bleed)
        scale = mm_to_px(1)
        canvas = Image.new("RGB", (width, height), (255, 255, 255))
        try:
            ctx = self.context(template, card, component, size_mm)
        except Invalid as err:
            raise DeckError.at(where, f"{label}, template {template_name!r} style_by: {err}") from None
        for index, element in enumerate(template.elements):
            name = element.name or f"{element.type} #{index + 1}"
            try:
                for item_ctx in _each(element, ctx):
                    if element.when is not None and not render_value(element.when, item_ctx):
                        continue
                    _Painter(self, canvas, scale, item_ctx, element, size_mm).paint()
            except Invalid as err:
                raise DeckError.at(where, f"{label}, template {template_name!r} element {name!r}: {err}") \
                    from None
        return canvas


def _each(element: Element, ctx: dict) -> list[dict]:
    """The contexts an element is drawn in: once, or once per item of its `each` list."""
    if element.each is None:
        return [ctx]
    items = render_value(element.each, ctx)
    if not isinstance(items, (list, tuple)):
        raise Invalid(f"`each` gave {items!r}, not a list; write an expression giving a list, e.g. "
                      "{{ [1, 2, 3] }}")
    if len(items) > MAX_EACH:
        raise Invalid(f"`each` gave {len(items)} items, more than the {MAX_EACH} an element may be drawn for; "
                      "use a shorter list")
    return [{**ctx, "item": item, "index": i} for i, item in enumerate(items)]


class _Painter:
    """Draws one element onto the canvas."""

    def __init__(self, renderer: FaceRenderer, canvas: Image.Image, scale: float, ctx: dict,
                 element: Element, size_mm):
        self.r = renderer
        self.canvas = canvas
        self.scale = scale
        self.ctx = ctx
        self.e = element
        self.size_mm = size_mm
        self.origin = (0, 0)  # top-left pixel of the surface drawn on, in canvas pixels

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
        if e.type in ("text", "icon"):
            self.check_safe(box)
        draw = getattr(self, f"draw_{e.type}")
        if e.rotate == 0 and not self.translucent():
            if e.type in ("text", "icon", "image"):
                x0, y0, x1, y1 = self.px(box)
                pad = LAYER_PAD_MM * self.scale
                self.r.edges.forget((math.floor(x0 - pad), math.floor(y0 - pad), math.ceil(x1 + pad),
                                     math.ceil(y1 + pad)))
            draw(ImageDraw.Draw(self.canvas), self.canvas, box)
            return
        # A layer just big enough for the element, turned about the trim's centre, then laid on the canvas.
        pad = LAYER_PAD_MM * self.scale
        x0, y0, x1, y1 = self.px(box)
        left, top = math.floor(x0 - pad), math.floor(y0 - pad)
        right, bottom = math.ceil(x1 + pad), math.ceil(y1 + pad)
        # Only the part that lands on the canvas once turned is drawn: the canvas itself, turned back.
        cw, ch = self.canvas.size if e.rotate in (0, 180) else self.canvas.size[::-1]
        cx, cy = self.canvas.size[0] / 2, self.canvas.size[1] / 2
        left, top = max(left, math.floor(cx - cw / 2)), max(top, math.floor(cy - ch / 2))
        right, bottom = min(right, math.ceil(cx + cw / 2)), min(bottom, math.ceil(cy + ch / 2))
        if right <= left or bottom <= top:
            return
        layer = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
        self.origin = (left, top)
        draw(ImageDraw.Draw(layer), layer, box)
        self.origin = (0, 0)
        ink = layer.getbbox()  # of the pixels not fully transparent: only those are turned and laid on
        if ink is None:
            return
        layer = layer.crop(ink)
        left, top = left + ink[0], top + ink[1]
        if e.rotate:
            left, top = self.turned(left, top, layer.size)
            layer = layer.transpose(_TURNS[e.rotate])
        self.r.edges.forget((left, top, left + layer.width, top + layer.height))
        composite(self.canvas, layer, left, top)

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
        for value in (self.e.fill, self.e.stroke, self.e.color):
            colour = self.color(value)
            if colour is not None and len(colour) == 4 and colour[3] < 255:
                return True
        return False

    def check_safe(self, box: Box) -> None:
        W, H = self.size_mm
        s = self.r.safe - 0.01
        if box.x < s or box.y < s or box.x + box.w > W - s or box.y + box.h > H - s:
            raise Invalid(f"its box ({box.x:.1f}, {box.y:.1f}, {box.w:.1f} x {box.h:.1f} mm) reaches outside "
                          f"the safe zone ({self.r.safe:.2f} mm inside the trim); move it inwards")

    def outline(self) -> tuple[Any, Any, float]:
        """Fill and stroke colours, and the stroke's width in pixels (0 without a stroke)."""
        fill, stroke = self.color(self.e.fill), self.color(self.e.stroke)
        width = self.num(self.e.stroke_width) * self.scale if stroke else 0.0
        return fill, stroke, width

    def draw_rect(self, draw: ImageDraw.ImageDraw, layer, box: Box) -> None:
        fill, stroke, width = self.outline()
        radius = self.num(self.e.radius) * self.scale
        if radius > 0:
            smooth(layer, "rounded_rectangle", self.px(box), fill, stroke, width, self.edges(layer), radius)
            return
        x0, y0, x1, y1 = (edge(v) for v in self.px(box))  # the pixels the box covers most of
        if x1 > x0 and y1 > y0:
            if layer is self.canvas:
                self.r.edges.forget((x0, y0, x1, y1))
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=stroke, width=round(width))

    def draw_ellipse(self, draw, layer, box: Box) -> None:
        fill, stroke, width = self.outline()
        smooth(layer, "ellipse", self.px(box), fill, stroke, width, self.edges(layer))

    def draw_line(self, draw, layer, box: Box) -> None:
        stroke = self.color(self.e.stroke) or self.color(self.e.color)
        smooth(layer, "line", self.px(box), None, stroke, self.num(self.e.stroke_width) * self.scale,
               self.edges(layer))

    def edges(self, surface: Image.Image) -> Edges | None:
        """The canvas's smooth edges when drawing on the canvas; None on a layer."""
        return self.r.edges if surface is self.canvas else None

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

    def pt_to_px(self, pt: float) -> float:
        """A font size in pixels, not rounded: FreeType sets text at fractional sizes."""
        return max(1.0, pt / PT_PER_INCH * DPI)

    def text_sizes(self) -> tuple[float, float]:
        """The text element's `size` and `min_size` in points, within bounds."""
        size, floor = self.num(self.e.size), self.num(self.e.min_size)
        if not MIN_FONT_PT <= floor <= size <= MAX_FONT_PT:
            raise Invalid(f"size {size:g} and min_size {floor:g} must be between {MIN_FONT_PT:g} and "
                          f"{MAX_FONT_PT:g} points, min_size the smaller; e.g. size: 10, min_size: 6")
        return size, floor

    def shrank(self, wanted: float, size: float) -> None:
        """Record that the text was set at `size` instead of `wanted` points."""
        if size < wanted and "min_size" not in self.e.source:  # a min_size of its own says shrinking is meant
            key = f"{self.e.source.where}|{self.e.name or self.e.type}|{wanted:g}"
            self.r.shrunk[key] = min(size, self.r.shrunk.get(key, size))

    def draw_text(self, draw, layer, box: Box) -> None:
        text = render_text(self.e.text, self.ctx).strip("\n")
        if not text.strip():
            return
        icons = self.r.deck.model.icons
        self.r.warnings += icon_typos(text, icons)
        spans = parse(text, icons)
        if not is_plain(spans):
            _RichText(self, spans).draw(draw, layer, box)
            return
        text = plain_text(spans)
        path = self.font_path()
        self.check_glyphs(text, path)
        x0, y0, x1, y1 = self.px(box)
        size, floor = self.text_sizes()
        wanted = size
        while True:
            font = truetype(path, self.pt_to_px(size))
            lines = wrap(text, font, x1 - x0)
            line_h = font.size * self.e.line_spacing
            ascent, descent = font.getmetrics()
            if lines is not None:
                height = (len(lines) - 1) * line_h + ascent + descent
                if height <= (y1 - y0) + 0.5:
                    break
            if size - SIZE_STEP_PT < floor - 1e-9:
                raise Invalid(f"text does not fit in {box.w:.1f} x {box.h:.1f} mm even at {floor:g} pt "
                              f"({text[:40]!r}...); shorten the text, enlarge the box or lower min_size")
            size -= SIZE_STEP_PT
        self.shrank(wanted, size)
        top = {"top": y0, "middle": y0 + (y1 - y0 - height) / 2, "bottom": y1 - height}[self.e.valign]
        colour = self.color(self.e.color)
        for i, line in enumerate(lines):
            baseline = top + ascent + i * line_h
            anchor, x = {"left": ("ls", x0), "center": ("ms", (x0 + x1) / 2), "right": ("rs", x1)}[self.e.align]
            draw.text((x, baseline), line, font=font, fill=colour, anchor=anchor)

    def draw_icon(self, draw, layer, box: Box) -> None:
        glyph = render_text(self.e.text, self.ctx).strip()
        if not glyph:
            return
        path = self.font_path()
        self.check_glyphs(glyph, path)
        x0, y0, x1, y1 = self.px(box)
        probe = truetype(path, 400)
        left, top, right, bottom = probe.getbbox(glyph)
        fit = min((x1 - x0) / max(1, right - left), (y1 - y0) / max(1, bottom - top))
        font = truetype(path, max(1.0, 400 * fit))
        left, top, right, bottom = font.getbbox(glyph)
        x = (x0 + x1) / 2 - (left + right) / 2
        y = (y0 + y1) / 2 - (top + bottom) / 2
        draw.text((x, y), glyph, font=font, fill=self.color(self.e.color))

    def draw_image(self, draw, layer, box: Box) -> None:
        rel = render_text(self.e.src or "", self.ctx)
        deck = self.r.deck
        try:
            file = confine(deck.root / rel, deck.path)
        except OutsideProject:
            raise Invalid(f"image {rel!r} leads outside the project; keep images inside "
                          f"{project_root(deck.path)}") from None
        if rel and file.exists() and not file.is_file():  # placeholder or not: there is no art to wait for
            what = "a folder" if file.is_dir() else "no regular file"
            raise Invalid(f"image {rel!r} is {what}, not an image file; name the image file in `src`")
        if not rel or not file.is_file():
            if self.e.placeholder and rel:
                self.r.images_missing.add(file)
                self.r.warnings.append(f"image {rel!r} does not exist yet; drew a placeholder")
                self.draw_placeholder(draw, layer, box, rel)
                return
            raise Invalid(f"image {rel!r} not found (looked in {file.parent}); add the file, fix `src`, or "
                          "set `placeholder: true` while the art is not done")
        self.r.images_read.add(file)
        img = load_image(file, rel)
        x0, y0, x1, y1 = (edge(v) for v in self.px(box))
        width, height = max(1, x1 - x0), max(1, y1 - y0)
        if self.e.fit == "stretch":
            img = img.resize((width, height), Image.LANCZOS)
        elif self.e.fit == "cover":
            scale = max(width / img.width, height / img.height)
            img = img.resize((max(width, round(img.width * scale)), max(height, round(img.height * scale))),
                             Image.LANCZOS)
            left, top = (img.width - width) // 2, (img.height - height) // 2
            img = img.crop((left, top, left + width, top + height))
        else:
            scale = min(width / img.width, height / img.height)
            img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.LANCZOS)
        opacity = self.num(self.e.opacity)
        if not 0 <= opacity <= 1:
            raise Invalid(f"opacity {opacity:g} is not between 0 and 1; write e.g. opacity: 0.5")
        if opacity < 1:
            img.putalpha(img.getchannel("A").point(lambda a: round(a * opacity)))
        composite(layer, img, x0 + (width - img.width) // 2, y0 + (height - img.height) // 2)

    def draw_placeholder(self, draw, layer, box: Box, rel: str) -> None:
        x0, y0, x1, y1 = self.px(box)
        left, top, right, bottom = (edge(v) for v in (x0, y0, x1, y1))
        if right > left and bottom > top:
            draw.rectangle((left, top, right - 1, bottom - 1), fill=(200, 200, 200), outline=(120, 120, 120),
                           width=max(1, round(0.4 * self.scale)))
        smooth(layer, "line", (x0, y0, x1, y1), None, (150, 150, 150), 0.3 * self.scale)
        smooth(layer, "line", (x0, y1, x1, y0), None, (150, 150, 150), 0.3 * self.scale)
        label = Path(rel).name
        font = truetype(str(self.r.deck.fonts["sans"]), self.pt_to_px(7))
        while font.size > 4 and font.getlength(label) > (x1 - x0) * 0.9:
            font = truetype(str(self.r.deck.fonts["sans"]), font.size - 2)
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font, fill=(60, 60, 60), anchor="mm")


_STYLE_SUFFIXES = [("-bold-italic", (True, True)), ("-bold-oblique", (True, True)), ("-italic", (False, True)),
                   ("-oblique", (False, True)), ("-bold", (True, False))]
_STYLE_FACES = {(True, False): ("bold", ["-bold"]), (False, True): ("italic", ["-italic", "-oblique"]),
                (True, True): ("bold italic", ["-bold-italic", "-bold-oblique"])}


def styled_font(name: str, bold: bool, italic: bool, fonts: Collection[str]) -> str:
    """The font for the bold and/or italic text of an element set in font `name`: of the fonts named, the
    one named `name` with `-bold`, `-italic` (or `-oblique`) or `-bold-italic` (or `-bold-oblique`), as the
    built-in `sans-bold` is `sans`'s. Invalid when there is none."""
    base, own = name, (False, False)
    for suffix, style in _STYLE_SUFFIXES:
        if name.endswith(suffix) and name[:-len(suffix)] in fonts:
            base, own = name[:-len(suffix)], style
            break
    want = (own[0] or bold, own[1] or italic)
    if want == own:
        return name
    kind, suffixes = _STYLE_FACES[want]
    for suffix in suffixes:
        if base + suffix in fonts:
            return base + suffix
    raise Invalid(f"font {name!r} has no {kind} face for the text's {kind} markup; add one under `fonts:` in "
                  f"the deck as `{base}{suffixes[0]}: ../fonts/FILE.ttf`, or write the text without it")


Style = tuple[bool, bool]  # bold, italic
REGULAR: Style = (False, False)


@dataclass
class _Atom:
    """A piece of a word: text in one style, or an icon."""

    text: str = ""
    style: Style = REGULAR
    icon: str | None = None


_Word = list[_Atom]


class _RichText:
    """Text with bold, italic or icon runs: words made of runs in several fonts and of icons, wrapped
    between words and shrunk as plain text is. An icon is as tall as the text's size (1 em), centred on
    its capitals, with a little room on each side."""

    def __init__(self, painter: _Painter, spans: list[Span]):
        self.p = painter
        deck = painter.r.deck
        base = render_text(painter.e.font, painter.ctx)
        painter.font_path()  # an unknown font fails here
        self.paragraphs = _paragraphs(spans)
        texts: dict[Style, str] = {REGULAR: ""}
        for span in spans:
            if isinstance(span, Run):
                style = (span.bold, span.italic)
                texts[style] = texts.get(style, "") + span.text
        self.paths: dict[Style, str] = {}
        for style, text in texts.items():
            name = styled_font(base, *style, deck.fonts) if style != REGULAR else base
            self.paths[style] = str(deck.fonts[name])
            painter.check_glyphs(text, self.paths[style], name)
        self.icons: dict[str, Any] = {}
        self.glyph_fonts: dict[str, str] = {}
        self.images: dict[str, Image.Image] = {}
        self.sizes: dict[tuple[str, float], tuple[float, float, int]] = {}
        for span in spans:
            if isinstance(span, IconRef) and span.name not in self.icons:
                self.icons[span.name] = self.load_icon(span.name)

    def load_icon(self, name: str):
        """The icon, its image read (the deck's loading checked its file, font and glyph)."""
        icon = self.p.r.deck.model.icons[name]
        if icon.image is not None:
            self.p.r.images_read.add(icon.image_file)
            self.images[name] = load_image(icon.image_file, icon.image)
        else:
            self.glyph_fonts[name] = str(self.p.r.deck.fonts[icon.font])
        return icon

    # -- measuring -------------------------------------------------------------------------------
    def icon_size(self, name: str, em: float) -> tuple[float, float, int]:
        """Width and height in pixels of icon `name` in text of `em` pixels, and (glyphs) its font size."""
        if (name, em) not in self.sizes:
            if name in self.images:
                image = self.images[name]
                self.sizes[name, em] = (em * image.width / image.height, float(em), 0)
            else:
                glyph, path = self.icons[name].glyph, self.glyph_fonts[name]
                left, top, right, bottom = glyph_ink(truetype(path, 400), glyph)
                fit = min(em / max(1, right - left), em / max(1, bottom - top))
                font = truetype(path, max(1, round(400 * fit)))
                left, top, right, bottom = glyph_ink(font, glyph)
                self.sizes[name, em] = (float(right - left), float(bottom - top), font.size)
        return self.sizes[name, em]

    def atom_width(self, atom: _Atom, fonts: dict[Style, Any]) -> float:
        if atom.icon is None:
            return fonts[atom.style].getlength(atom.text)
        em = fonts[REGULAR].size
        return self.icon_size(atom.icon, em)[0] + 2 * ICON_PAD_EM * em

    def wrap(self, fonts: dict[Style, Any], width: float):
        """Greedy word wrap into lines of (space style or None, word), with each line's width; None when a
        single word is wider than the box."""
        lines = []
        for words, spaces in self.paragraphs:
            current: list[tuple[Style | None, _Word]] = []
            used = 0.0
            for space, word in zip(spaces, words):
                word_w = sum(self.atom_width(a, fonts) for a in word)
                trial = used + fonts[space].getlength(" ") + word_w if current else word_w
                if trial <= width:
                    current.append((space if current else None, word))
                    used = trial
                    continue
                if not current or word_w > width:
                    return None
                lines.append((current, used))
                current, used = [(None, word)], word_w
            lines.append((current, used))
        return lines

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self, draw, layer, box: Box) -> None:
        p, e = self.p, self.p.e
        x0, y0, x1, y1 = p.px(box)
        size, floor = p.text_sizes()
        wanted = size
        while True:
            fonts = {style: truetype(path, p.pt_to_px(size)) for style, path in self.paths.items()}
            regular = fonts[REGULAR]
            lines = self.wrap(fonts, x1 - x0)
            line_h = regular.size * e.line_spacing
            ascent, descent = regular.getmetrics()
            if lines is not None:
                height = (len(lines) - 1) * line_h + ascent + descent
                if height <= (y1 - y0) + 0.5:
                    break
            if size - SIZE_STEP_PT < floor - 1e-9:
                text = " ".join("".join(a.text or f":{a.icon}:" for a in w) for words, _ in self.paragraphs
                                for w in words if w)
                raise Invalid(f"text does not fit in {box.w:.1f} x {box.h:.1f} mm even at {floor:g} pt "
                              f"({text[:40]!r}...); shorten the text, enlarge the box or lower min_size")
            size -= SIZE_STEP_PT
        p.shrank(wanted, size)
        top = {"top": y0, "middle": y0 + (y1 - y0 - height) / 2, "bottom": y1 - height}[e.valign]
        colour = p.color(e.color)
        em = regular.size
        middle = -regular.getbbox("H", anchor="ls")[1] / 2  # half the capitals' height, above the baseline
        for i, (line, width) in enumerate(lines):
            baseline = top + ascent + i * line_h
            x = {"left": x0, "center": (x0 + x1 - width) / 2, "right": x1 - width}[e.align]
            for space, word in line:
                if space is not None:
                    x += fonts[space].getlength(" ")
                for atom in word:
                    if atom.icon is None:
                        draw.text((x, baseline), atom.text, font=fonts[atom.style], fill=colour, anchor="ls")
                        x += fonts[atom.style].getlength(atom.text)
                        continue
                    w, h, glyph_size = self.icon_size(atom.icon, em)
                    x += ICON_PAD_EM * em
                    self.draw_icon(draw, layer, atom.icon, x, baseline - middle, w, h, glyph_size, colour)
                    x += w + ICON_PAD_EM * em

    def draw_icon(self, draw, layer, name: str, left: float, centre_y: float, w: float, h: float,
                  glyph_size: int, colour) -> None:
        icon = self.icons[name]
        if name in self.images:
            image = self.images[name].resize((max(1, round(w)), max(1, round(h))), Image.LANCZOS)
            composite(layer, image, round(left), round(centre_y - h / 2))
            return
        font = truetype(self.glyph_fonts[name], glyph_size)
        ink_left, ink_top, _, ink_bottom = glyph_ink(font, icon.glyph)
        fill = self.p.color(icon.color) if icon.color else colour
        draw.text((left - ink_left, centre_y - (ink_top + ink_bottom) / 2), icon.glyph, font=font, fill=fill)


def glyph_ink(font, glyph: str) -> tuple[int, int, int, int]:
    """The box of the glyphs' ink, from where `draw.text` puts their top-left corner (getbbox alone gives
    the advance across, side bearings included)."""
    left, top, _, _ = font.getbbox(glyph)
    x0, y0, x1, y1 = font.getmask(glyph).getbbox() or (0, 0, 1, 1)
    return left + x0, top + y0, left + x1, top + y1


def _paragraphs(spans: list[Span]) -> list[tuple[list[_Word], list[Style]]]:
    """The spans as paragraphs (split at line breaks) of words (split at spaces), each paragraph with the
    style of the space before each of its words (the first word's is the regular one, never used)."""
    paragraphs: list[tuple[list[_Word], list[Style]]] = [([[]], [REGULAR])]
    for span in spans:
        if isinstance(span, IconRef):
            paragraphs[-1][0][-1].append(_Atom(icon=span.name))
            continue
        style = (span.bold, span.italic)
        for n, line in enumerate(span.text.split("\n")):
            if n:
                paragraphs.append(([[]], [REGULAR]))
            words, spaces = paragraphs[-1]
            for m, piece in enumerate(line.split(" ")):
                if m:
                    words.append([])
                    spaces.append(style)
                if piece:
                    words[-1].append(_Atom(piece, style))
    return paragraphs


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
        in a ring's hole; in pixels of the bounding box."""
        if shape == "line":
            return None
        w, h = abs(x1 - x0), abs(y1 - y0)
        corner = min(radius, w / 2, h / 2) if shape == "rounded_rectangle" else None
        kx = (w / 2 if corner is None else corner) * (1 - math.sqrt(0.5)) + 2 + inset  # past the 45° point
        ky = (h / 2 if corner is None else corner) * (1 - math.sqrt(0.5)) + 2 + inset  # of the corners
        box = (math.ceil(min(x0, x1) + kx) - left, math.ceil(min(y0, y1) + ky) - top,
               math.floor(max(x0, x1) - kx) - left, math.floor(max(y0, y1) - ky) - top)
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


_PARTIAL = [255 if 0 < v < 255 else 0 for v in range(256)]
_NONZERO = [255 if v else 0 for v in range(256)]


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
            mask = mask.point([round(v * alpha / 255) for v in range(256)])
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
