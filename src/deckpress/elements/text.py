"""`text`: text wrapped and shrunk to fit its box, with bold, italic and inline icons (see markup.py).

Text wraps and shrinks to fit its box; if it cannot fit at the element's `min_size`, drawing fails with
the card's name. Bold and italic runs are set in the matching face of the element's font, and inline
icons are as tall as the text's size.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .. import svg
from ..draw import Box, composite, glyph_ink, load_image, wrap
from ..expr import render_text
from ..fonts import truetype
from ..markup import IconRef, MarkupError, Run, Span, is_plain, parse, plain_text
from ..options import Choice, Invalid, Number
from .base import EXPR, Element, Expr, Painter, TextOptions

SIZE_STEP_PT = 0.5
MIN_FONT_PT, MAX_FONT_PT = 1, 500  # font sizes of a text element
ICON_PAD_EM = 0.08  # room on each side of an inline icon, in ems of the text


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
        try:
            spans = parse(text, self.r.deck.model.icons)
        except MarkupError as err:
            raise Invalid(str(err)) from None
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

    def __init__(self, painter: Painter, spans: list[Span]):
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
                text = "".join(a.text or f":{a.icon}:" for words, _ in self.paragraphs for w in words for a in w)
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
            size = (max(1, round(w)), max(1, round(h)))
            colour = self.p.color(icon.color) if icon.color else None
            if svg.is_svg(icon.image_file):
                image = svg.load_svg(icon.image_file, size, "contain", colour, f"icon {name!r}")
            else:
                image = self.images[name].resize(size, Image.LANCZOS)
                image = image if colour is None else svg.recolour(image, colour, f"icon {name!r}")
            composite(layer, image, round(left), round(centre_y - h / 2))
            return
        font = truetype(self.glyph_fonts[name], glyph_size)
        ink_left, ink_top, _, ink_bottom = glyph_ink(font, icon.glyph)
        fill = self.p.color(icon.color) if icon.color else colour
        draw.text((left - ink_left, centre_y - (ink_top + ink_bottom) / 2), icon.glyph, font=font, fill=fill)



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



class TextElement(TextOptions, Element):
    """Text, wrapped at its box's width and shrunk to fit its height."""

    TYPE, DRAWS, painter = "text", "text, wrapped and shrunk to fit its box", TextPainter

    size = Expr("Font size in points; text shrinks from it to fit." + EXPR, default=10)
    min_size = Expr("Smallest font size in points before the build fails." + EXPR, default=6)
    align = Choice("Horizontal alignment.", ["left", "center", "right"], default="center")
    valign = Choice("Vertical alignment.", ["top", "middle", "bottom"], default="middle")
    line_spacing = Number("Line height as a multiple of the font size.", default=1.15, min=0.8, max=3)
