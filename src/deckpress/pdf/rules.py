"""The rules reminder pages: the deck's rules sections and game modes typeset in columns."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus import Flowable, Frame, KeepTogether, Paragraph, Spacer, Table, TableStyle

from ..deck import LoadedDeck
from ..errors import DeckError, Problems, Where
from ..schema import Block
from .canvas import BOLD, SANS, missing_glyphs
from .labels import labels

INK = colors.HexColor("#222222")
RULE = colors.HexColor("#999999")
SHADE = colors.HexColor("#e8e8e8")


class Styles:
    def __init__(self, size: float):
        lead = size * 1.28
        self.body = ParagraphStyle("body", fontName=SANS, bulletFontName=SANS, fontSize=size, leading=lead,
                                   textColor=INK, spaceAfter=size * 0.45)
        self.item = ParagraphStyle("item", parent=self.body, leftIndent=size * 1.5, bulletIndent=size * 0.3,
                                   bulletFontName=SANS, spaceAfter=size * 0.2)
        self.h1 = ParagraphStyle("h1", parent=self.body, fontName=BOLD, fontSize=size * 1.3,
                                 leading=size * 1.6, spaceBefore=size * 0.9, spaceAfter=size * 0.35)
        self.h2 = ParagraphStyle("h2", parent=self.body, fontName=BOLD, fontSize=size * 1.08,
                                 leading=size * 1.35, spaceBefore=size * 0.5, spaceAfter=size * 0.2)
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=size * 0.94, leading=size * 1.18,
                                   spaceAfter=0)
        self.head = ParagraphStyle("head", parent=self.cell, fontName=BOLD)


def _markup(text: str) -> str:
    return escape(str(text)).replace("\n", "<br/>")


class _Checker:
    """Collects characters the embedded font cannot print, with where they are."""

    def __init__(self) -> None:
        self.problems = Problems()

    def __call__(self, text: str, where: Where) -> str:
        lacking = missing_glyphs(str(text))
        if lacking:
            self.problems.add(where, f"the PDF font (DejaVu Sans) cannot print {lacking!r}; write the text "
                                     "without these characters")
        return text


def _col_widths(rows: list[list[str]], avail: float, size: float, header: bool) -> list[float]:
    """Column widths: narrow columns keep their natural width, wide ones share what is left."""
    n = max(len(r) for r in rows)
    pad = 7.0
    natural = [0.0] * n
    longest_word = [0.0] * n
    for r, row in enumerate(rows):
        font = BOLD if header and r == 0 else SANS
        for i, cell in enumerate(row):
            natural[i] = max(natural[i], stringWidth(str(cell), font, size) + pad)
            for word in str(cell).split():
                longest_word[i] = max(longest_word[i], stringWidth(word, font, size) + pad)
    if sum(natural) <= avail:
        spare = (avail - sum(natural)) / n
        return [w + spare for w in natural]
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
            out.append(Paragraph(_markup(check(content, where)), styles.body))
        elif kind == "heading":
            out.append(Paragraph(_markup(check(content, where)), styles.h2))
        elif kind in ("list", "numbered"):
            for i, item in enumerate(content, 1):
                bullet = f"{i}." if kind == "numbered" else "\u2022"
                out.append(Paragraph(_markup(check(item, where)), styles.item, bulletText=bullet))
            out.append(Spacer(1, styles.body.spaceAfter))
        elif kind == "table":
            header = [check(h, where) for h in (content.header or [])]
            rows = [[check(c, where) for c in row] for row in (content.rows or [])]
            ncols = max([len(header)] + [len(r) for r in rows])
            grid = ([header] if header else []) + rows
            grid = [r + [""] * (ncols - len(r)) for r in grid]
            widths = _col_widths(grid, width, styles.cell.fontSize, bool(header))
            cells = [[Paragraph(_markup(c), styles.head if (header and r == 0) else styles.cell) for c in row]
                     for r, row in enumerate(grid)]
            table = Table(cells, colWidths=widths, repeatRows=1 if header else 0, hAlign="LEFT")
            style = [("FONT", (0, 0), (-1, -1), SANS, styles.cell.fontSize),
                     ("GRID", (0, 0), (-1, -1), 0.4, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                     ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
                     ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
            if header:
                style.append(("BACKGROUND", (0, 0), (-1, 0), SHADE))
            table.setStyle(TableStyle(style))
            table._deckpress_where = where
            out.append(table)
            out.append(Spacer(1, styles.body.spaceAfter))
    return out


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


def rules_story(deck: LoadedDeck, size: float, width: float) -> list[Flowable]:
    """The flowables of the rules reminder: each section with `reminder: true`, then the game modes.

    Raises DeckError when the text holds characters the embedded font cannot print.
    """
    model = deck.model
    styles = Styles(size)
    text = labels(deck.lang)
    check = _Checker()
    story: list[Flowable] = []
    for section in model.rules or []:
        if section is None or not section.reminder:
            continue
        head = Paragraph(_markup(check(section.heading, section.where)), styles.h1)
        body = _blocks(section.body, styles, width, check)
        story.append(KeepTogether([head, *body[:1]]))
        story.extend(body[1:])
    modes = [m for m in model.modes or [] if m is not None]
    if modes:
        story.append(Paragraph(_markup(text["modes"]), styles.h1))
        for mode in modes:
            name = check(mode.name, mode.where) + _players(mode.players or model.game.players, text)
            body = _blocks(mode.rules, styles, width, check)
            story.append(KeepTogether([Paragraph(_markup(name), styles.h2), *body[:1]]))
            story.extend(body[1:])
    check.problems.raise_if_any()
    return story


def draw_rules(canvas: Canvas, deck: LoadedDeck, page: tuple[float, float], margin: float, columns: int,
               size: float, footer: str) -> int:
    """Typeset the rules reminder on new pages of `canvas` (sizes in mm); returns the pages added."""
    margin = max(margin, 12.0)
    gutter = 6.0
    width = (page[0] - 2 * margin - (columns - 1) * gutter) / columns
    story = rules_story(deck, size, width * mm)
    if not story:
        return 0
    text = labels(deck.lang)
    title = f"{deck.model.game.name} \u2014 {text['rules']}"
    top = page[1] - margin - 10  # below the title
    height = top - margin - 4  # above the footer
    pages = 0
    while story:
        pages += 1
        canvas.setFillColor(INK)
        canvas.setFont(BOLD, 13)
        canvas.drawString(margin * mm, (page[1] - margin - 5) * mm, title)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.5)
        canvas.line(margin * mm, (top + 2) * mm, (page[0] - margin) * mm, (top + 2) * mm)
        canvas.setFont(SANS, 7)
        canvas.drawCentredString(page[0] / 2 * mm, (margin - 2) * mm, f"{footer} \u00b7 {text['page']} {pages}")
        placed = False
        for col in range(columns):
            x = margin + col * (width + gutter)
            frame = Frame(x * mm, (top - height) * mm, width * mm, height * mm, leftPadding=0, rightPadding=0,
                          topPadding=0, bottomPadding=0, showBoundary=0)
            splits = 0
            while story:
                head = story[0]
                if isinstance(head, ActionFlowable):  # a frame break from KeepTogether
                    story.pop(0)
                    if frame._atTop:
                        continue
                    break
                if frame.add(head, canvas, trySplit=0):
                    story.pop(0)
                    placed = True
                    continue
                parts = frame.split(head, canvas) if splits < 20 else []
                if not parts:
                    break
                splits += 1
                story[0:1] = parts
        canvas.showPage()
        if not placed:
            where = getattr(story[0], "_deckpress_where", None) or deck.model.where
            raise DeckError.at(where, "a rules block is too large for a whole column of the rules reminder "
                                      "page; split it (e.g. a table into two) or lower `font_size` in the "
                                      "print profile")
    return pages
