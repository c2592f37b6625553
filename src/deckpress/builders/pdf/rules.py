"""The rules reminder pages: the deck's rules sections and game modes typeset in columns, as a
rulebook sets them: headings stay with the start of their text, the columns of a page that ends the
rules are balanced, and no page holds a single section when moving the previous page's last section
over avoids it."""

from __future__ import annotations

import copy
import io
import re
from dataclasses import dataclass, field
from html import escape

from PIL import ImageColor
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer, Table, TableStyle

from ...deck import LoadedDeck
from ...errors import DeckError, Problems, Where
from ...fonts import missing_glyphs as glyphs_lacking
from ...fonts import truetype
from ...inputs import Records, artifact_key, plain, sha256_file
from ...markup import Run, parse, to_reportlab
from ...draw import glyph_ink
from ...schema import Block
from ...svg import is_svg, png_file, png_files
from .canvas import FONTS, SANS, pdf_font
from .labels import labels
from .rules_style import RulesStyle



class Faces:
    """The reportlab fonts of a rules style's four faces (made a family so that <b> and <i> in a paragraph
    take the style's bold and italic), and their files, for checking glyphs. The regular and bold faces are
    registered at once; an italic one of deckpress's own fonts when text is set in it (see `use`)."""

    def __init__(self, deck: LoadedDeck, look: RulesStyle):
        self.deck = deck
        self.files = {(False, False): deck.fonts[look.font], (True, False): deck.fonts[look.bold_font],
                      (False, True): deck.fonts[look.italic_font], (True, True): deck.fonts[look.bold_italic_font]}
        self.regular, self.bold = _pdf_font(deck, look.font), _pdf_font(deck, look.bold_font)
        self.names = {(False, False): look.font, (True, False): look.bold_font, (False, True): look.italic_font,
                      (True, True): look.bold_italic_font}
        italic, bold_italic = (FONTS[name] if name in FONTS else _pdf_font(deck, name)
                               for name in (look.italic_font, look.bold_italic_font))
        pdfmetrics.registerFontFamily(self.regular, normal=self.regular, bold=self.bold, italic=italic,
                                      boldItalic=bold_italic)

    def use(self, face: tuple[bool, bool]) -> None:
        """Register the font of `face` (bold, italic) for text set in it: reading a face takes some 30 ms,
        and most rules have no italics."""
        _pdf_font(self.deck, self.names[face])


class Styles:
    def __init__(self, size: float, look: RulesStyle, faces: Faces):
        self.faces = faces
        regular, bold = faces.regular, faces.bold
        lead = size * 1.28
        self.ink, self.heading = colors.HexColor(look.ink[:7]), colors.HexColor(look.heading_color[:7])
        self.rule, self.shade = colors.HexColor(look.rule_color[:7]), colors.HexColor(look.shade_color[:7])
        # allowWidows=0: a paragraph never leaves its last line alone at the top of a column (reportlab
        # already keeps a first line from being left alone at the bottom, allowOrphans=0)
        self.body = ParagraphStyle("body", fontName=regular, bulletFontName=regular, fontSize=size, leading=lead,
                                   textColor=self.ink, spaceAfter=size * look.paragraph_space, allowWidows=0,
                                   allowOrphans=0)
        self.item = ParagraphStyle("item", parent=self.body, leftIndent=size * 1.5, bulletIndent=size * 0.3,
                                   bulletFontName=regular, bulletFontSize=size, spaceAfter=size * 0.2)
        h1, h2 = size * look.heading_scale, size * look.subheading_scale
        self.h1 = ParagraphStyle("h1", parent=self.body, fontName=bold, fontSize=h1, textColor=self.heading,
                                 leading=h1 * 1.23, spaceBefore=size * 0.9, spaceAfter=size * 0.35)
        self.h2 = ParagraphStyle("h2", parent=self.body, fontName=bold, fontSize=h2, textColor=self.heading,
                                 leading=h2 * 1.25, spaceBefore=size * look.subheading_space, spaceAfter=size * 0.2)
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=size * 0.94, leading=size * 1.18,
                                   spaceAfter=0)
        self.head = ParagraphStyle("head", parent=self.cell, fontName=bold)
        self.number = ParagraphStyle("number", parent=self.cell, alignment=TA_RIGHT)
        self.head_number = ParagraphStyle("head_number", parent=self.head, alignment=TA_RIGHT)


class _Scratch(Canvas):
    """A canvas to try layouts on: never saved, and the rules' flowables draw nothing on it (_Trial)."""


class _Trial:
    """A flowable that draws nothing on a _Scratch canvas: a trial layout needs its size and its splits,
    which drawing does not change (drawing there took two thirds of the typesetting)."""

    def drawOn(self, canvas, x, y, _sW=0):
        if not isinstance(canvas, _Scratch):
            super().drawOn(canvas, x, y, _sW)


class _Table(_Trial, Table):
    """A Table (its split pieces are _Tables too)."""


class _Para(_Trial, Paragraph):
    """A Paragraph that breaks its lines once per width. The typesetter tries many column heights, and
    reportlab's wrap and split would break the same lines again at each; here wrap keeps, per width, the
    attributes that wrapping set on the paragraph (whichever they are: what wrap keeps is reportlab's
    own business) and sets them again, and split keeps its pieces per width and number of lines that fit
    (the rules' styles have a fixed leading, so whole lines are what decides a split). The pieces are _Paras
    too."""

    def wrap(self, availWidth, availHeight):
        wraps = self.__dict__.setdefault("_wraps", {})
        state = wraps.get(availWidth)
        if state is None:
            before = dict(self.__dict__)
            size = super().wrap(availWidth, availHeight)
            if getattr(self, "width", None) != availWidth:  # too narrow to break at all: nothing to keep
                return size
            state = wraps[availWidth] = {k: v for k, v in self.__dict__.items()
                                         if k not in before or before[k] is not v}
        self.__dict__.update(state)
        return self.width, self.height

    def split(self, availWidth, availHeight):
        splits = self.__dict__.setdefault("_splits", {})
        key = (availWidth, int(availHeight / self.style.leading) if availHeight > 0 else 0)
        if key not in splits:
            splits[key] = super().split(availWidth, availHeight)
        return list(splits[key])


def _markup(text: str) -> str:
    return escape(str(text), quote=False).replace("\n", "<br/>")


class _Checker:
    """Turns rules text (with its markup, see markup.py; the deck's loading checked its icons) into
    Paragraph markup, collecting the characters the embedded font cannot print, with where they are."""

    def __init__(self, deck: LoadedDeck, faces: Faces) -> None:
        self.problems = Problems()
        self.deck = deck
        self.faces = faces
        self.icons = deck.model.icons

    def spans(self, text: str, where: Where, bold: bool = False):
        """The text's spans, checked against the faces they are set in (`bold`: the style's)."""
        spans = parse(str(text), self.icons)
        for span in (s for s in spans if isinstance(s, Run)):
            if span.font is None:
                face = (span.bold or bold, span.italic)
                self.faces.use(face)
                lacking, font = glyphs_lacking(span.text, str(self.faces.files[face])), self.faces.names[face]
            elif span.font not in self.deck.fonts:
                self.problems.add(where, f"unknown font {span.font!r} in [...]{{font={span.font}}}; use one of "
                                         f"{', '.join(sorted(self.deck.fonts))}")
                continue
            else:
                lacking, font = glyphs_lacking(span.text, str(self.deck.fonts[span.font])), span.font
            if lacking:
                self.problems.add(where, f"the PDF font ({font}) cannot print {lacking!r}; write the "
                                         "text without these characters")
        return spans

    def plain(self, text: str) -> str:
        """The text as it reads, for measuring: markup dropped, icons as their glyph or an em's width."""
        return "".join(s.text if isinstance(s, Run) else (self.icons[s.name].glyph or "M")
                       for s in parse(str(text), self.icons))

    def __call__(self, text: str, where: Where, style: ParagraphStyle) -> str:
        """The text as Paragraph markup for a paragraph of `style`: <b>, <i>, icons as a glyph in its font
        and colour or an <img> an em tall."""
        return to_reportlab(self.spans(text, where, style.fontName == self.faces.bold),
                            lambda name: self.icon(name, style.fontSize), style.fontSize,
                            lambda name: _pdf_font(self.deck, name))

    def icon(self, name: str, size: float) -> str:
        icon = self.icons[name]
        if icon.image is not None and is_svg(icon.image_file):  # drawn at 600 dpi
            colour = ImageColor.getrgb(icon.color) if icon.color else None
            src, aspect = png_file(icon.image_file, round(size / 72 * 600), colour, f"icon {name!r}")
            return (f"<img src=\"{escape(src)}\" width=\"{size * aspect:.2f}\" height=\"{size:.2f}\" "
                    "valign=\"middle\"/>")
        if icon.image is not None:
            width, height = ImageReader(str(icon.image_file)).getSize()
            return (f"<img src=\"{escape(str(icon.image_file))}\" width=\"{size * width / height:.2f}\" "
                    f"height=\"{size:.2f}\" valign=\"middle\"/>")
        face = _pdf_font(self.deck, icon.font)
        colour = f" color=\"{icon.color[:7]}\"" if icon.color else ""
        left, top, right, bottom = glyph_ink(truetype(str(self.deck.fonts[icon.font]), 400), icon.glyph)
        scale = 400 / max(1, right - left, bottom - top)  # its ink an em across, as on the faces
        return f"<font name=\"{face}\" size=\"{size * scale:.2f}\"{colour}>{escape(icon.glyph, quote=False)}</font>"


def _pdf_font(deck: LoadedDeck, name: str) -> str:
    """The reportlab font of a deckpress font name: one of the embedded DejaVu faces, or the font file
    registered under a name from its content (the same in every build of the same file)."""
    if name in FONTS:
        return pdf_font(name)
    path = deck.fonts[name]
    face = f"DeckpressFont-{sha256_file(path)[:12]}"
    if face not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(face, str(path)))
    return face


def _col_widths(rows: list[list[str]], avail: float, size: float, header: bool, faces: Faces) -> list[float]:
    """Column widths: narrow columns keep their natural width, wide ones share what is left (`rows`: the
    cells' text as it reads)."""
    n = max(len(r) for r in rows)
    pad = 7.0
    natural = [0.0] * n
    longest_word = [0.0] * n
    for r, row in enumerate(rows):
        font = faces.bold if header and r == 0 else faces.regular
        for i, cell in enumerate(row):
            natural[i] = max(natural[i], stringWidth(str(cell), font, size) + pad)
            for word in str(cell).split():
                longest_word[i] = max(longest_word[i], stringWidth(word, font, size) + pad)
    if sum(natural) <= avail:
        return natural  # as wide as the content: a narrow table does not stretch across the column
    fair = avail / n
    fixed = {i: natural[i] for i in range(n) if natural[i] <= fair}
    rest = avail - sum(fixed.values())
    flexible = [i for i in range(n) if i not in fixed]
    total = sum(natural[i] for i in flexible) or 1
    out = []
    for i in range(n):
        out.append(max(longest_word[i], fixed[i] if i in fixed else rest * natural[i] / total))
    scale = avail / sum(out)
    return [w * scale for w in out] if scale < 1 else out


def _blocks(blocks: list[Block], styles: Styles, width: float, check: _Checker) -> list[Flowable]:
    out: list[Flowable] = []
    for block in blocks or []:
        if block is None:
            continue
        where = block.where
        kind, content = block.kind, block.content
        if kind == "paragraph":
            out.append(_Para(check(content, where, styles.body), styles.body))
        elif kind == "heading":
            out.append(_Para(check(content, where, styles.h2), styles.h2))
        elif kind in ("list", "numbered"):
            bullets = [f"{i}." if kind == "numbered" else "\u2022" for i in range(1, len(content) + 1)]
            # a hanging indent past the widest bullet (reportlab moves a first line to 0.6 em after its
            # bullet), so that every line of every item starts at the same x
            widest = max(stringWidth(b, styles.faces.regular, styles.item.bulletFontSize) for b in bullets)
            style = ParagraphStyle(f"item{len(bullets)}{kind}", parent=styles.item,
                                   leftIndent=max(styles.item.leftIndent,
                                                  styles.item.bulletIndent + widest + styles.item.fontSize * 0.75))
            for bullet, item in zip(bullets, content):
                out.append(_Para(check(item, where, style), style, bulletText=bullet))
            out.append(Spacer(1, styles.body.spaceAfter))
        elif kind == "table":
            header = list(content.header or [])
            rows = [list(row) for row in (content.rows or [])]
            ncols = max([len(header)] + [len(r) for r in rows])
            grid = ([header] if header else []) + rows
            grid = [r + [""] * (ncols - len(r)) for r in grid]
            widths = _col_widths([[check.plain(c) for c in row] for row in grid], width,
                                 styles.cell.fontSize, bool(header), styles.faces)
            body = grid[1:] if header else grid
            numeric = [all(NUMBER.fullmatch(check.plain(row[i]).strip()) for row in body if str(row[i]).strip())
                       and any(str(row[i]).strip() for row in body) for i in range(ncols)]
            cells = [[_Para(check(c, where, kind), kind) for c, kind in
                      zip(row, _cell_styles(styles, numeric, header and r == 0))] for r, row in enumerate(grid)]
            table = _Table(cells, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
            style = [("FONT", (0, 0), (-1, -1), styles.faces.regular, styles.cell.fontSize),
                     ("GRID", (0, 0), (-1, -1), 0.4, styles.rule), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                     ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                     ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
            if header:
                style.append(("BACKGROUND", (0, 0), (-1, 0), styles.shade))
            table.setStyle(TableStyle(style))
            table._deckpress_where = where
            out.append(table)
            out.append(Spacer(1, styles.body.spaceAfter))
    return out


# A cell that is a number (or a range or share of them): right-aligned, its column with it.
NUMBER = re.compile(r"[-+\u2212]?\d+(?:[.,]\d+)?(?:\s*[-\u2013]\s*\d+(?:[.,]\d+)?)?\s*%?")


def _cell_styles(styles: Styles, numeric: list[bool], head: bool) -> list[ParagraphStyle]:
    if head:
        return [styles.head_number if n else styles.head for n in numeric]
    return [styles.number if n else styles.cell for n in numeric]


def _players(players, text: dict[str, str]) -> str:
    if players is None or players.min is None:
        return ""
    low, high = players.min, players.max or players.min
    count = f"{low}" if low == high else f"{low}\u2013{high}"
    return " " + (text["player"] if high == 1 else text["players"]).format(n=count)


def has_rules(deck: LoadedDeck) -> bool:
    """Whether the deck has anything for the rules reminder pages."""
    model = deck.model
    return any(s is not None and s.reminder for s in model.rules or []) or any(model.modes or [])


@dataclass
class Piece:
    """What the typesetter places: `items` (one flowable, or headings with the start of their text,
    which go in the same column), of the `section`-th section of the reminder."""

    items: list[Flowable]
    section: int


def rules_story(deck: LoadedDeck, size: float, width: float, look: RulesStyle) -> list[Piece]:
    """The blocks of the rules reminder: each section with `reminder: true`, then the game modes
    (each mode a section). Headings, and the first block after them, make one piece.

    Raises DeckError when the text holds characters the embedded font cannot print.
    """
    model = deck.model
    faces = Faces(deck, look)
    styles = Styles(size, look, faces)
    text = labels(deck.lang)
    check = _Checker(deck, faces)
    sections: list[list[Flowable]] = []
    for section in model.rules or []:
        if section is None or not section.reminder:
            continue
        head = _Para(check(section.heading, section.where, styles.h1), styles.h1)
        sections.append([head, *_blocks(section.body, styles, width, check)])
    modes = [m for m in model.modes or [] if m is not None]
    for n, mode in enumerate(modes):
        name = check(mode.name, mode.where, styles.h2) + _markup(_players(mode.players or model.game.players,
                                                                          text))
        heads = [_Para(_markup(text["modes"]), styles.h1)] if n == 0 else []
        sections.append([*heads, _Para(name, styles.h2), *_blocks(mode.rules, styles, width, check)])
    check.problems.raise_if_any()
    story: list[Piece] = []
    for index, flowables in enumerate(sections):
        group: list[Flowable] = []
        for flowable in flowables:
            group.append(flowable)
            if not _is_heading(flowable, styles):
                story.append(Piece(group, index))
                group = []
        if group:
            story.append(Piece(group, index))
    return story


def _is_heading(flowable: Flowable, styles: Styles) -> bool:
    return isinstance(flowable, Paragraph) and flowable.style.name in (styles.h1.name, styles.h2.name)


class _TooLarge(Exception):
    def __init__(self, flowable: Flowable):
        self.flowable = flowable


def _fill(frame: Frame, canvas: Canvas, queue: list[Piece], seen: set[int], scratch: Canvas) -> None:
    """Place blocks from the front of `queue` into `frame` until it is full, adding their sections
    to `seen`; what only tries whether blocks fit is laid out on `scratch`, where nothing is drawn.

    A block of headings and text goes whole where it fits; else its headings go with the first
    lines of its text when the text splits; else it starts the next column. A flowable too large for
    a whole empty column raises _TooLarge. `frame` is a new one, empty until a block goes in.
    """
    empty = True
    while queue:
        block = queue[0]
        items = block.items
        if empty and isinstance(items[0], Spacer):
            queue.pop(0)
            continue
        if len(items) > 1:
            trial = copy.copy(frame)  # Frame.add of reportlab's public API, on the scratch canvas
            if all(trial.add(f, scratch, trySplit=1) for f in items):
                for f in items:
                    frame.add(f, canvas, trySplit=1)
                empty = False
                seen.add(block.section)
                queue.pop(0)
                continue
            trial = copy.copy(frame)
            if all(trial.add(f, scratch, trySplit=1) for f in items[:-1]):
                parts = trial.split(items[-1], scratch)
                if len(parts) > 1 and trial.add(parts[0], scratch, trySplit=1):
                    for f in [*items[:-1], parts[0]]:
                        frame.add(f, canvas, trySplit=1)
                    seen.add(block.section)
                    queue[0:1] = [Piece([p], block.section) for p in parts[1:]]
                    return
            if not empty:
                return
            queue[0:1] = [Piece([f], block.section) for f in items]  # more than a column: as they come
            continue
        flowable = items[0]
        if frame.add(flowable, canvas, trySplit=1):
            empty = False
            seen.add(block.section)
            queue.pop(0)
            continue
        parts = frame.split(flowable, canvas)
        if len(parts) > 1 and frame.add(parts[0], canvas, trySplit=1):
            seen.add(block.section)
            queue[0:1] = [Piece([p], block.section) for p in parts[1:]]
            return
        if empty:
            raise _TooLarge(flowable)
        return


def _scratch() -> Canvas:
    """A canvas to try layouts on (see _Scratch)."""
    return _Scratch(io.BytesIO(), initialFontName=SANS)


@dataclass
class _Geometry:
    """The columns of a rules page, in points: their left edges, width, top and full height."""

    x: list[float]
    width: float
    top: float
    height: float
    known: dict = field(default_factory=dict, repr=False)  # holds' answers: the plan and the pages ask again

    def frames(self, height: float) -> list[Frame]:
        return [Frame(x, self.top - height, self.width, height, leftPadding=0, rightPadding=0, topPadding=0,
                     bottomPadding=0, showBoundary=0) for x in self.x]

    def fill(self, canvas: Canvas, queue: list[Piece], height: float | None = None, trial: bool = False
             ) -> set[int]:
        """Place blocks from the front of `queue` in the columns (of `height`; None: full); a `trial`
        lays out on a scratch canvas, drawing nothing. Returns the sections seen."""
        seen: set[int] = set()
        scratch = _scratch()
        for frame in self.frames(self.height if height is None else height):
            _fill(frame, scratch if trial else canvas, queue, seen, scratch)
        return seen

    def holds(self, canvas: Canvas, queue: list[Piece], height: float | None = None) -> bool:
        """Whether one page (with columns of `height`) takes all of `queue`."""
        key = (tuple((tuple(piece.items), piece.section) for piece in queue), height)
        if key not in self.known:
            rest = list(queue)
            try:
                self.fill(canvas, rest, height, trial=True)
                self.known[key] = not rest
            except _TooLarge:
                self.known[key] = False
        return self.known[key]

    def balanced(self, canvas: Canvas, queue: list[Piece]) -> float:
        """The least column height (to 0.1 pt) at which one page still takes all of `queue`."""
        low, high = 0.0, self.height
        while high - low > 0.1:
            mid = (low + high) / 2
            low, high = (low, mid) if self.holds(canvas, queue, mid) else (mid, high)
        return high


def _paginate(canvas: Canvas, geometry: _Geometry, story: list[Piece], breaks: set[int],
              furniture=None, heights: list[float | None] | None = None) -> list[list[int]]:
    """Typeset `story` on pages of `canvas`, a new page before each section in `breaks`; the columns
    of a page that ends the story or comes before a break are balanced. Returns the sections on each
    page. With `furniture`, draws the pages, each with its title and footer; else only lays them out.
    `heights` gets each page's column height (None: full); when it holds them already, they are used."""
    chunks: list[list[Piece]] = [[]]
    for block in story:
        if block.section in breaks and chunks[-1] and chunks[-1][-1].section != block.section:
            chunks.append([])
        chunks[-1].append(block)
    pages: list[list[int]] = []
    for chunk in chunks:
        queue = list(chunk)
        while queue:
            if furniture is not None:
                furniture(len(pages) + 1)
            first = queue[0]
            if heights is not None and len(pages) < len(heights):
                height = heights[len(pages)]
            else:
                height = geometry.balanced(canvas, queue) if geometry.holds(canvas, queue) else None
                if heights is not None:
                    heights.append(height)
            seen = geometry.fill(canvas, queue, height, trial=furniture is None)
            if queue and queue[0] is first:
                raise _TooLarge(first.items[0])
            pages.append(sorted(seen))
            if furniture is not None:
                canvas.showPage()
    return pages


def draw_rules(canvas: Canvas, deck: LoadedDeck, page: tuple[float, float], margin: float, look: RulesStyle,
               columns: int, size: float, footer: str, records: Records | None = None,
               stories: dict[tuple[float, float], list[Piece]] | None = None) -> int:
    """Typeset the rules reminder on new pages of `canvas` (sizes in mm); returns the pages added. With
    `records`, the page breaks and column heights found are recorded, and used again while the rules,
    the modes and the page are the same (finding them takes most of the typesetting). `stories` keeps
    the deck's stories by font size and column width, for the next PDF of the build: a story is laid
    out again as it is, its paragraphs' lines already broken (drawing changes no flowable)."""
    margin = max(margin, 12.0)
    gutter = 6.0
    faces = Faces(deck, look)
    width = (page[0] - 2 * margin - (columns - 1) * gutter) / columns
    stories = {} if stories is None else stories
    if (size, width) not in stories:
        with png_files():  # the SVG icons drawn for it
            stories[size, width] = rules_story(deck, size, width * mm, look)
    story = stories[size, width]
    if not story:
        return 0
    text = labels(deck.lang)
    title = f"{deck.model.game.name} \u2014 {text['rules']}"
    top = page[1] - margin - 10  # below the title
    height = top - margin - 4  # above the footer
    geometry = _Geometry([(margin + c * (width + gutter)) * mm for c in range(columns)], width * mm, top * mm,
                         height * mm)

    def furniture(number: int) -> None:
        canvas.setFillColor(colors.HexColor(look.heading_color[:7]))
        canvas.setFont(faces.bold, look.title_size)
        canvas.drawString(margin * mm, (page[1] - margin - 5) * mm, title)
        canvas.setFillColor(colors.HexColor(look.ink[:7]))
        canvas.setStrokeColor(colors.HexColor(look.rule_color[:7]))
        canvas.setLineWidth(0.5)
        canvas.line(margin * mm, (top + 2) * mm, (page[0] - margin) * mm, (top + 2) * mm)
        canvas.setFont(faces.regular, 7)
        canvas.drawCentredString(page[0] / 2 * mm, (margin - 2) * mm, f"{footer} \u00b7 {text['page']} {number}")

    icons = {name: [plain(icon), sha256_file(icon.image_file) if icon.image_file else None]
             for name, icon in sorted((deck.model.icons or {}).items()) if icon is not None}
    key = artifact_key("rules plan", plain([deck.model.rules, deck.model.modes, deck.model.game.players]),
                       icons, deck.lang, page, margin, columns, size, plain(look))
    name = f"print/rules-plan-{key[:16]}"
    known = records.get(name, key) if records else None
    try:
        if known is not None:
            breaks, heights = set(known["breaks"]), list(known["heights"])
        else:
            breaks, heights = _plan(canvas, geometry, story), []
        pages = len(_paginate(canvas, geometry, story, breaks, furniture, heights))
    except _TooLarge as err:
        where = getattr(err.flowable, "_deckpress_where", None) or deck.model.where
        raise DeckError.at(where, "a rules block is too large for a whole column of the rules reminder "
                                  "page; split it (e.g. a table into two) or lower `font_size` in the "
                                  "print profile") from None
    if records is not None:
        records.put(name, key, {"breaks": sorted(breaks), "heights": heights})
    return pages


def _plan(canvas: Canvas, geometry: _Geometry, story: list[Piece]) -> set[int]:
    """The sections before which the rules start a new page (laid out, not drawn, on `canvas`)."""
    breaks: set[int] = set()
    plan = _paginate(canvas, geometry, story, breaks)
    # A last page with a single section: the previous page's last section that starts there (not
    # its first) moves over too, as long as the pages do not grow in number.
    for _ in range(3):
        if len(plan) < 2 or len(plan[-1]) != 1:
            break
        movable = [s for s in plan[-2][1:] if s != plan[-1][0]]
        if not movable:
            break
        trial = breaks | {movable[-1]}
        again = _paginate(canvas, geometry, story, trial)
        if len(again) > len(plan):
            break
        breaks, plan = trial, again
    return breaks
