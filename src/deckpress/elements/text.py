"""`text`: text wrapped and shrunk to fit its box, with bold, italic, styled spans and inline icons (see
markup.py).

Text wraps and shrinks to fit its box; if it cannot fit at the element's `min_size`, drawing fails with
the card's name. Bold and italic runs are set in the matching face of the element's font, a span in its
own colour, size or font; inline icons are as tall as their text's size. Its colour may be a gradient,
laid over the element's box through the letters, and the letters may have an outline.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops, ImageColor, ImageDraw

from .. import svg
from ..draw import Box, composite, glyph_ink, load_image, wrap
from ..expr import render_text
from ..fonts import truetype
from ..markup import IconRef, MarkupError, Span, icon_typos, is_plain, parse, plain_text
from ..options import Choice, Invalid, Number
from .base import EXPR, Element, Expr, Painter
from .groups import TextOptions
from .paint import GradientFill, resolve_fill

SIZE_STEP_PT = 0.5
MIN_FONT_PT, MAX_FONT_PT = 1, 500  # font sizes of a text element
ICON_PAD_EM = 0.08  # room on each side of an inline icon, in ems of the text
MAX_OUTLINE_MM = 5


@dataclass
class Glyphs:
    """Letters to draw: at (x, y) by `anchor`, in `font`, in their own colour or (None) the element's."""

    x: float
    y: float
    text: str
    font: Any
    color: tuple | None = None
    spacing: float = 0.0  # pixels after each letter
    anchor: str = "ls"


@dataclass
class InlineIcon:
    """An icon of the text: its name, left edge, vertical centre, size and (a glyph's) font size."""

    name: str
    left: float
    centre_y: float
    w: float
    h: float
    glyph_size: int


class TextPainter(Painter):
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

    def draw(self, draw, layer, box) -> None:
        text = render_text(self.e.text, self.ctx).strip("\n")
        if not text.strip():
            return
        icons, undeclared = self.r.deck.model.icons, []
        try:
            spans = parse(text, icons, undeclared)
        except MarkupError as err:
            raise Invalid(str(err)) from None
        self.r.warnings += icon_typos(undeclared, icons)
        if not is_plain(spans) or self.num(self.e.letter_spacing):
            rich = _RichText(self, spans)
            put(self, draw, layer, box, *rich.layout(box), rich.draw_icon)
            return
        put(self, draw, layer, box, self.layout(plain_text(spans), box), [], None)

    def layout(self, text: str, box: Box) -> list[Glyphs]:
        """Plain text's lines, wrapped and shrunk to fit the box."""
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
        anchor, x = {"left": ("ls", x0), "center": ("ms", (x0 + x1) / 2), "right": ("rs", x1)}[self.e.align]
        return [Glyphs(x, top + ascent + i * line_h, line, font, anchor=anchor) for i, line in enumerate(lines)]


def put(painter: Painter, draw, layer: Image.Image, box: Box, glyphs: list[Glyphs], icons: list[InlineIcon],
        draw_icon) -> None:
    """Draw the letters in the element's colour (or gradient) with its outline, then the icons."""
    e = painter.e
    ink = resolve_fill(painter, e.color)
    outline = painter.color(e.outline)
    width = painter.num(e.outline_width) if outline else 0.0
    if not 0 <= width <= MAX_OUTLINE_MM:
        raise Invalid(f"outline_width {width:g} is not between 0 and {MAX_OUTLINE_MM} mm; write e.g. 0.3")
    stroke = {"stroke_width": width * painter.scale, "stroke_fill": outline} if outline else {}
    if isinstance(ink, GradientFill):
        if outline:  # the outline under the letters, in its colour
            for g in glyphs:
                letters(draw, g, outline, stroke)
        left, top, right, bottom = (round(v) for v in painter.reach(box))
        left, top = max(0, left), max(0, top)
        right, bottom = min(layer.width, right), min(layer.height, bottom)
        if right > left and bottom > top:
            mask = Image.new("L", (right - left, bottom - top), 0)
            shifted = ImageDraw.Draw(mask)
            for g in glyphs:
                if g.color is None:
                    letters(shifted, Glyphs(g.x - left, g.y - top, g.text, g.font, None, g.spacing, g.anchor), 255,
                            {})
            x0, y0, x1, y1 = painter.px(box)
            from ..vector import gradient_image  # noqa: PLC0415 (ThorVG only for a face that has a gradient)
            patch = gradient_image(ink, mask.size, (x0 - left, y0 - top, x1 - left, y1 - top))
            patch.putalpha(ImageChops.multiply(patch.getchannel("A"), mask))
            composite(layer, patch, left, top)
        for g in glyphs:
            if g.color is not None:
                letters(draw, g, g.color, stroke)
    else:
        for g in glyphs:
            letters(draw, g, g.color or ink, stroke)
    for icon in icons:
        draw_icon(draw, layer, icon, ink if isinstance(ink, tuple) else (0, 0, 0))


def letters(draw, g: Glyphs, fill, stroke: dict) -> None:
    """Draw the letters `g` with `fill` (and `stroke`'s outline), one by one when they are spaced."""
    if not g.spacing:
        draw.text((g.x, g.y), g.text, font=g.font, fill=fill, anchor=g.anchor, **stroke)
        return
    x = g.x
    for ch in g.text:
        draw.text((x, g.y), ch, font=g.font, fill=fill, anchor="ls", **stroke)
        x += g.font.getlength(ch) + g.spacing


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


Face = tuple[str, bool, bool, float]  # font name, bold, italic, size (a fraction of the element's)


@dataclass
class _Atom:
    """A piece of a word: text in one face and colour, or an icon (as tall as its face's size)."""

    text: str = ""
    face: Face = ("", False, False, 1.0)
    color: str | None = None
    icon: str | None = None


_Word = list[_Atom]


class _RichText:
    """Text with bold, italic, styled or icon runs: words made of runs in several fonts, sizes and colours
    and of icons, wrapped between words and shrunk as plain text is. A line is as high as its largest
    text. An icon is as tall as its text's size (1 em), centred on its capitals, with a little room on
    each side."""

    def __init__(self, painter: Painter, spans: list[Span]):
        self.p = painter
        deck = painter.r.deck
        painter.font_path()  # an unknown font fails here
        self.base = render_text(painter.e.font, painter.ctx)
        self.regular: Face = (self.base, False, False, 1.0)
        self.paragraphs = _paragraphs(spans, self.regular)
        texts: dict[Face, str] = {self.regular: ""}
        for words, spaces in self.paragraphs:
            for atom in (a for word in words for a in word):
                texts[atom.face] = texts.get(atom.face, "") + atom.text
            for face in spaces:
                texts[face] = texts.get(face, "") + " "
        self.paths: dict[tuple[str, bool, bool], str] = {}
        for face, text in texts.items():
            name, bold, italic, _ = face
            if name not in deck.fonts:
                raise Invalid(f"unknown font {name!r} in [...]{{font={name}}}; use one of "
                              f"{', '.join(sorted(deck.fonts))}")
            styled = styled_font(name, bold, italic, deck.fonts) if bold or italic else name
            self.paths[face[:3]] = str(deck.fonts[styled])
            painter.check_glyphs(text, self.paths[face[:3]], styled)
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
            if svg.is_svg(icon.image_file):  # drawn once to learn its shape, then at its size in each line
                self.images[name] = svg.load_svg(icon.image_file, (svg.PROBE_PX, svg.PROBE_PX), "contain", None,
                                                 f"icon {name!r}")
            else:
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

    def atom_width(self, atom: _Atom, fonts: dict[Face, Any], spacing: float) -> float:
        font = fonts[atom.face]
        if atom.icon is None:
            return font.getlength(atom.text) + spacing * font.size * len(atom.text)
        return self.icon_size(atom.icon, font.size)[0] + 2 * ICON_PAD_EM * font.size

    def wrap(self, fonts: dict[Face, Any], width: float, spacing: float):
        """Greedy word wrap into lines of (space face or None, word), with each line's width; None when a
        single word is wider than the box."""
        lines = []
        for words, spaces in self.paragraphs:
            current: list[tuple[Face | None, _Word]] = []
            used = 0.0
            for space, word in zip(spaces, words):
                word_w = sum(self.atom_width(a, fonts, spacing) for a in word)
                gap = fonts[space].getlength(" ") + spacing * fonts[space].size
                trial = used + gap + word_w if current else word_w
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

    def metrics(self, lines, fonts: dict[Face, Any]) -> list[tuple[float, float, float]]:
        """Each line's size (its largest text's, at least the element's), ascent and descent, in pixels."""
        known = {face: (font.size, *font.getmetrics()) for face, font in fonts.items()}
        if len(known) == 1 or all(face[3] == 1 for face in known):  # one size: every line alike
            return [known[self.regular]] * len(lines)
        out = []
        for line, _ in lines:
            used = [known[self.regular]] + [known[a.face] for _, word in line for a in word]
            out.append(tuple(max(m[k] for m in used) for k in range(3)))
        return out

    # -- laying out ------------------------------------------------------------------------------
    def layout(self, box: Box) -> tuple[list[Glyphs], list[InlineIcon]]:
        p, e = self.p, self.p.e
        x0, y0, x1, y1 = p.px(box)
        size, floor = p.text_sizes()
        spacing = p.num(e.letter_spacing)
        if not -0.5 <= spacing <= 2:
            raise Invalid(f"letter_spacing {spacing:g} is not between -0.5 and 2 (ems); write e.g. 0.1")
        wanted = size
        while True:
            fonts = {face: truetype(self.paths[face[:3]], p.pt_to_px(min(MAX_FONT_PT, size * face[3])))
                     for face in self.faces()}
            lines = self.wrap(fonts, x1 - x0, spacing)
            if lines is not None:
                metrics = self.metrics(lines, fonts)
                advances = [e.line_spacing * em for em, _, _ in metrics[1:]]
                height = sum(advances) + metrics[0][1] + metrics[-1][2]
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
        glyphs, icons = [], []
        baseline = top + metrics[0][1]
        for i, (line, width) in enumerate(lines):
            baseline += advances[i - 1] if i else 0
            last = line[-1][1][-1] if line and line[-1][1] else None
            if spacing and last is not None and last.icon is None:  # no room after the line's last letter
                width -= spacing * fonts[last.face].size
            x = {"left": x0, "center": (x0 + x1 - width) / 2, "right": x1 - width}[e.align]
            for space, word in line:
                if space is not None:
                    x += fonts[space].getlength(" ") + spacing * fonts[space].size
                for atom in word:
                    font = fonts[atom.face]
                    if atom.icon is None:
                        colour = ImageColor.getrgb(atom.color) if atom.color else None
                        glyphs.append(Glyphs(x, baseline, atom.text, font, colour, spacing * font.size))
                        x += self.atom_width(atom, fonts, spacing)
                        continue
                    em = font.size
                    middle = -font.getbbox("H", anchor="ls")[1] / 2  # half the capitals' height
                    w, h, glyph_size = self.icon_size(atom.icon, em)
                    icons.append(InlineIcon(atom.icon, x + ICON_PAD_EM * em, baseline - middle, w, h, glyph_size))
                    x += w + 2 * ICON_PAD_EM * em
        return glyphs, icons

    def faces(self) -> set[Face]:
        return {self.regular} | {a.face for words, spaces in self.paragraphs for w in words for a in w} | \
            {f for _, spaces in self.paragraphs for f in spaces}

    def draw_icon(self, draw, layer, at: InlineIcon, colour) -> None:
        icon = self.icons[at.name]
        if at.name in self.images:
            size = (max(1, round(at.w)), max(1, round(at.h)))
            own = self.p.color(icon.color) if icon.color else None
            if svg.is_svg(icon.image_file):
                image = svg.load_svg(icon.image_file, size, "contain", own, f"icon {at.name!r}")
            else:
                image = self.images[at.name].resize(size, Image.LANCZOS)
                image = image if own is None else svg.recolour(image, own, f"icon {at.name!r}")
            composite(layer, image, round(at.left), round(at.centre_y - at.h / 2))
            return
        font = truetype(self.glyph_fonts[at.name], at.glyph_size)
        ink_left, ink_top, _, ink_bottom = glyph_ink(font, icon.glyph)
        fill = self.p.color(icon.color) if icon.color else colour
        draw.text((at.left - ink_left, at.centre_y - (ink_top + ink_bottom) / 2), icon.glyph, font=font, fill=fill)


def _paragraphs(spans: list[Span], regular: Face) -> list[tuple[list[_Word], list[Face]]]:
    """The spans as paragraphs (split at line breaks) of words (split at spaces), each paragraph with the
    face of the space before each of its words (the first word's is the regular one, never used)."""
    paragraphs: list[tuple[list[_Word], list[Face]]] = [([[]], [regular])]
    face, colour = regular, None
    for span in spans:
        if isinstance(span, IconRef):
            paragraphs[-1][0][-1].append(_Atom(face=face, icon=span.name))
            continue
        face = (span.font or regular[0], span.bold, span.italic, span.size or 1.0)
        colour = span.color
        for n, line in enumerate(span.text.split("\n")):
            if n:
                paragraphs.append(([[]], [regular]))
            words, spaces = paragraphs[-1]
            for m, piece in enumerate(line.split(" ")):
                if m:
                    words.append([])
                    spaces.append(face)
                if piece:
                    words[-1].append(_Atom(piece, face, colour))
    return paragraphs


class TextElement(TextOptions, Element):
    """Text, wrapped at its box's width and shrunk to fit its height."""

    TYPE, DRAWS, painter = "text", "text, wrapped and shrunk to fit its box", TextPainter

    size = Expr("Font size in points; text shrinks from it to fit." + EXPR, default=10)
    min_size = Expr("Smallest font size in points before the build fails." + EXPR, default=6)
    align = Choice("Horizontal alignment.", ["left", "center", "right"], default="center")
    valign = Choice("Vertical alignment.", ["top", "middle", "bottom"], default="middle")
    line_spacing = Number("Line height as a multiple of the font size.", default=1.15, min=0.8, max=3)
    letter_spacing = Expr("Room added after each letter, in ems of the font size (0.1: a tenth; negative "
                          "tightens)." + EXPR, default=0)
