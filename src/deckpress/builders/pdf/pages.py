"""Drawing the card and token sheets, and the duplex calibration sheet, on a reportlab canvas.

All geometry comes from layout.py in millimetres; this module converts to points as it draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib import colors
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ...schema import Component
from .canvas import BOLD, SANS, Images
from .layout import Rect, Slot

LABEL_SIZE = 6.5
MIN_LABEL_SIZE = 4.5
GREY = colors.HexColor("#555555")


@dataclass(frozen=True)
class Item:
    """One printed copy: the face images (paths in the output folder) of its front and back."""

    front: str
    back: str | None


@dataclass
class Style:
    """How one PDF draws: from the profile and the command line."""

    bleed_face: float  # mm of bleed the face images hold (the deck's bleed)
    cut_lines: str  # solid | dashed | none
    cut_width: float  # mm
    cut_color: str
    duplex: str  # long-edge | short-edge
    offset: tuple[float, float]  # mm, back pages
    border: float = 6.35  # mm at the paper's edge that home printers cannot print: no text there


def set_boxes(canvas: Canvas, trim: Rect | None, bleed: Rect | None) -> None:
    """TrimBox and BleedBox of the page about to be finished (None: the whole page)."""
    canvas.setTrimBox(None if trim is None else (trim.x * mm, trim.y * mm, trim.x1 * mm, trim.y1 * mm))
    canvas.setBleedBox(None if bleed is None else (bleed.x * mm, bleed.y * mm, bleed.x1 * mm, bleed.y1 * mm))


def _shape_path(canvas: Canvas, rect: Rect, shape: str, radius: float = 0.0):
    """The outline of `shape` over `rect`; a `rounded` one with corners of `radius` mm."""
    path = canvas.beginPath()
    x, y, w, h = rect.x * mm, rect.y * mm, rect.w * mm, rect.h * mm
    if shape == "circle":
        path.ellipse(x, y, w, h)
    elif shape == "hex":
        cy = y + h / 2
        points = [(x, cy), (x + w / 4, y), (x + 3 * w / 4, y), (x + w, cy), (x + 3 * w / 4, y + h),
                  (x + w / 4, y + h)]
        path.moveTo(*points[0])
        for p in points[1:]:
            path.lineTo(*p)
        path.close()
    elif shape == "rounded" and radius > 0:
        path.roundRect(x, y, w, h, radius * mm)
    else:
        path.rect(x, y, w, h)
    return path


def draw_face(canvas: Canvas, images: Images, rel: str, slot: Slot, face_bleed: float, shape: str = "rectangle"
              ) -> None:
    """Draw a face image so that its trim lands on the slot's trim, clipped to the slot's bleed."""
    canvas.saveState()
    if shape in ("circle", "hex"):
        b = min(slot.bleed)
        clip = slot.trim.grow(b, b, b, b)
    else:
        clip = slot.clip
    canvas.clipPath(_shape_path(canvas, clip, shape), stroke=0, fill=0)
    t = slot.trim
    x, y = (t.x - face_bleed) * mm, (t.y - face_bleed) * mm
    w, h = (t.w + 2 * face_bleed) * mm, (t.h + 2 * face_bleed) * mm
    if slot.rotate == 180:  # turned about the trim's centre (the image's too): one corner to the other
        images.draw(canvas, rel, (-w, 0, 0, -h, x + w, y + h))
    else:
        images.draw(canvas, rel, (w, 0, 0, h, x, y))
    canvas.restoreState()


def _line_style(canvas: Canvas, style: Style) -> bool:
    if style.cut_lines == "none":
        return False
    canvas.setStrokeColor(colors.HexColor(style.cut_color[:7]))
    canvas.setLineWidth(style.cut_width * mm)
    canvas.setDash([3 * mm, 2 * mm] if style.cut_lines == "dashed" else [])
    return True


def cut_lines(canvas: Canvas, page: tuple[float, float], trims: list[Rect], xs: list[float], ys: list[float],
              style: Style, avoid: list[Rect] = ()) -> None:
    """Lines along every cut (x in `xs`, y in `ys`), wherever they do not cross a card's trim (in
    `trims`) or a text in `avoid`: over the bleed around and between the cards, across the gaps and
    out to the page edge. So every cut keeps its guide inside the sheet, where any printer prints,
    and after the first cuts."""
    if not _line_style(canvas, style):
        return
    code = _cut_code(page, tuple(trims), tuple(xs), tuple(ys), tuple(avoid))
    if code:
        canvas.addLiteral(code)  # what canvas.line writes for each segment
    canvas.setDash([])


@lru_cache(maxsize=256)
def _cut_code(page: tuple[float, float], trims: tuple[Rect, ...], xs: tuple[float, ...], ys: tuple[float, ...],
              avoid: tuple[Rect, ...]) -> str:
    """cut_lines' segments as PDF operators, one line each as canvas.line writes it: made once for the
    pages of a sheet that are alike (most pages of a large deck)."""
    blocks = list(trims) + [r.grow(0.8, 0.8, 0.8, 0.8) for r in avoid]
    lines: list[tuple[float, float, float, float]] = []
    for x in xs:
        blocked = sorted((b.y, b.y1) for b in blocks if b.x - 1e-6 <= x <= b.x1 + 1e-6)
        lines.extend((x, a, x, b) for a, b in _free_segments(0, page[1], blocked))
    for y in ys:
        blocked = sorted((b.x, b.x1) for b in blocks if b.y - 1e-6 <= y <= b.y1 + 1e-6)
        lines.extend((a, y, b, y) for a, b in _free_segments(0, page[0], blocked))
    return "\n".join(f"n {fp_str(x1 * mm, y1 * mm)} m {fp_str(x2 * mm, y2 * mm)} l S" for x1, y1, x2, y2 in lines)


def _free_segments(start: float, end: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The stretches from `start` to `end` (more than 0.5 mm long) outside the `blocked` ones."""
    out = []
    pos = start
    for a, b in blocked + [(end, end)]:
        if a - pos > 0.5:
            out.append((pos, a))
        pos = max(pos, b)
    return out


def outlines(canvas: Canvas, slots: list[Slot], shape: str, style: Style, radius: float = 0.0) -> None:
    """A cut outline around each trim, of the component's shape (`radius`: a rounded one's corners, mm)."""
    if not _line_style(canvas, style):
        return
    for slot in slots:
        canvas.drawPath(_shape_path(canvas, slot.trim, shape, radius), stroke=1, fill=0)
    canvas.setDash([])


def fit_label(candidates: list[str], width: float, size: float = LABEL_SIZE) -> tuple[str, float]:
    """The first text that fits `width` mm at a size from `size` down to MIN_LABEL_SIZE."""
    for text in candidates:
        natural = stringWidth(text, SANS, size) / mm
        if natural <= width:
            return text, size
        smaller = size * width / natural
        if smaller >= MIN_LABEL_SIZE:
            return text, smaller
    return candidates[-1], MIN_LABEL_SIZE


SCALE_BAR = 50  # mm
PT = 25.4 / 72  # mm per point
CLEAR = 0.6  # mm between a margin text and the cards' bleed
TEXT_BAND = LABEL_SIZE * PT * 1.2 + CLEAR  # mm a strip of margin text takes, its clearance included


@dataclass(frozen=True)
class Band:
    """A strip of the page margin between the printable border and the cards, for texts.

    Drawn in its own frame (`enter`): u runs along the strip, left to right (bottom to top when
    `vertical`), v across it, 0 to `depth`; text set along u stands upright (or reads up the page).
    """

    rect: Rect
    vertical: bool

    @property
    def length(self) -> float:
        return self.rect.h if self.vertical else self.rect.w

    @property
    def depth(self) -> float:
        return self.rect.w if self.vertical else self.rect.h

    def enter(self, canvas: Canvas) -> None:
        if self.vertical:
            canvas.translate(self.rect.x1 * mm, self.rect.y * mm)
            canvas.rotate(90)
        else:
            canvas.translate(self.rect.x * mm, self.rect.y * mm)

    def area(self, u0: float, u1: float) -> Rect:
        """The page rectangle of the strip from u0 to u1."""
        if self.vertical:
            return Rect(self.rect.x, self.rect.y + u0, self.rect.w, u1 - u0)
        return Rect(self.rect.x + u0, self.rect.y, u1 - u0, self.rect.h)


def margin_bands(page: tuple[float, float], cards: Rect, border: float, need: float) -> tuple[Band, Band]:
    """Two strips for the margin texts, inside the printable area and clear of `cards` (their full
    bleed): above and below the cards when both are at least `need` mm deep or deeper than the sides,
    else up the left and the right side."""
    top = Rect(border, cards.y1 + CLEAR, page[0] - 2 * border, page[1] - border - cards.y1 - CLEAR)
    bottom = Rect(border, border, page[0] - 2 * border, cards.y - CLEAR - border)
    left = Rect(border, border, cards.x - CLEAR - border, page[1] - 2 * border)
    right = Rect(cards.x1 + CLEAR, border, page[0] - border - cards.x1 - CLEAR, page[1] - 2 * border)
    across = min(top.h, bottom.h)
    sides = min(left.w, right.w)
    if across >= need - 1e-6 or across >= sides:
        return Band(top, False), Band(bottom, False)
    return Band(left, True), Band(right, True)


def _text(canvas: Canvas, band: Band, candidates: list[str], u0: float, u1: float) -> Rect | None:
    """The first candidate that fits between u0 and u1 of `band`, centred there and across the band."""
    if not candidates:
        return None
    size = max(MIN_LABEL_SIZE, min(LABEL_SIZE, band.depth / (PT * 1.2)))
    shown, size = fit_label(candidates, u1 - u0 - 2, size)
    width = stringWidth(shown, SANS, size) / mm
    centre = (u0 + u1) / 2
    canvas.saveState()
    band.enter(canvas)
    canvas.setFont(SANS, size)
    canvas.drawCentredString(centre * mm, (band.depth / 2 - size * PT * 0.36) * mm, shown)
    canvas.restoreState()
    return band.area(centre - width / 2 - 1, centre + width / 2 + 1)


def scale_bar(canvas: Canvas, band: Band, u0: float, unit: str = "mm") -> Rect:
    """A 50 mm bar with 10 mm ticks from u0 along `band`, then its length in words (`unit`: "mm" in the
    deck's language): a check of the print's scale with a ruler."""
    mid = band.depth / 2
    tick = min(1.8, band.depth * 0.8)
    canvas.saveState()
    band.enter(canvas)
    canvas.setStrokeColor(GREY)
    canvas.setLineWidth(0.2 * mm)
    base = mid - tick / 2
    canvas.line(u0 * mm, base * mm, (u0 + SCALE_BAR) * mm, base * mm)
    for i in range(0, SCALE_BAR + 1, 10):
        height = tick if i in (0, SCALE_BAR) else tick * 0.6
        canvas.line((u0 + i) * mm, base * mm, (u0 + i) * mm, (base + height) * mm)
    size = max(MIN_LABEL_SIZE, min(LABEL_SIZE, band.depth / (PT * 1.2)))
    canvas.setFont(SANS, size)
    canvas.setFillColor(GREY)
    label = f"{SCALE_BAR} {unit}"
    canvas.drawString((u0 + SCALE_BAR + 1.2) * mm, (mid - size * PT * 0.36) * mm, label)
    canvas.restoreState()
    return band.area(u0 - 0.2, u0 + SCALE_BAR + 1.2 + stringWidth(label, SANS, size) / mm + 0.5)


def labels(canvas: Canvas, page: tuple[float, float], cards: Rect, border: float, first: list[str],
           second: list[str], bar: bool = True, unit: str = "mm") -> list[Rect]:
    """The page's margin texts inside the printable area (`border` mm from the paper's edge) and
    clear of `cards`: `first` in one strip, the scale bar (when `bar`) and `second` in the other.
    Each text is a list of variants, longest first: the first that fits at a readable size is
    printed. Returns the rectangles they cover (cut lines keep off them)."""
    need = TEXT_BAND - CLEAR
    one, two = margin_bands(page, cards, border, need)
    canvas.setFillColor(GREY)
    covered = [r for r in [_text(canvas, one, first, 0, one.length)] if r is not None]
    start = 0.0
    if bar:
        covered.append(scale_bar(canvas, two, 0.5, unit))
        start = covered[-1].w if not two.vertical else covered[-1].h
        start += 1.5
    text = _text(canvas, two, second, start, two.length)
    if text is not None:
        covered.append(text)
    return covered


def component_shape(component: Component) -> str:
    return component.shape if component.type == "tokens" else "rectangle"


def used_extent(slots: list[Slot]) -> tuple[Rect, Rect]:
    """(trim, bleed) bounding boxes of the slots a page uses."""
    trim = slots[0].trim
    bleed = slots[0].clip
    for s in slots[1:]:
        trim, bleed = trim.union(s.trim), bleed.union(s.clip)
    return trim, bleed


def reprint_list(canvas: Canvas, page: tuple[float, float], margin: float, listing: list[tuple[str, list[str]]]
                 ) -> None:
    """A reprint's list on portrait pages after its cards: each heading in bold, then its lines, wrapped to
    the page within `margin`, as many pages as they take."""
    from reportlab.lib.utils import simpleSplit

    canvas.setPageSize((page[0] * mm, page[1] * mm))
    set_boxes(canvas, None, None)
    width, top = (page[0] - 2 * margin) * mm, (page[1] - margin) * mm
    y = top
    for heading, lines in listing:
        rows = [(BOLD, 11, heading)] + [(SANS, 9, part) for line in lines for part in simpleSplit(line, SANS, 9, width)]
        for font, size, row in rows:
            if y - size * 1.3 < margin * mm:
                canvas.showPage()
                set_boxes(canvas, None, None)
                y = top
            y -= size * 1.3
            canvas.setFillColor(colors.black)
            canvas.setFont(font, size)
            canvas.drawString(margin * mm, y, row)
        y -= 9
    canvas.showPage()


def calibration(canvas: Canvas, page: tuple[float, float], offset: tuple[float, float], duplex: str,
                text: dict[str, str]) -> None:
    """Two pages: a cross on the front, scales on the back. Seen against the light, the cross shows
    through the back; where it crosses the scales is the printer's misalignment, in mm."""
    cx, cy = page[0] / 2, page[1] / 2
    margin = 15
    # Front: instructions and the cross.
    canvas.setFillColor(colors.black)
    _instructions(canvas, page, margin, text["title"], text["front"])
    canvas.setStrokeColor(colors.black)
    canvas.setLineWidth(0.25 * mm)
    canvas.line((cx - 40) * mm, cy * mm, (cx + 40) * mm, cy * mm)
    canvas.line(cx * mm, (cy - 40) * mm, cx * mm, (cy + 40) * mm)
    canvas.circle(cx * mm, cy * mm, 1.5 * mm, stroke=1, fill=0)
    _ruler(canvas, page, margin, text["mm"])
    set_boxes(canvas, None, None)
    canvas.showPage()
    # Back: a horizontal scale below the centre and a vertical one left of it, on the lines of the
    # front's cross, shifted like every back page.
    canvas.saveState()
    canvas.translate(offset[0] * mm, offset[1] * mm)
    canvas.setStrokeColor(colors.black)
    canvas.setFillColor(colors.black)
    canvas.setLineWidth(0.12 * mm)
    hy, vx = cy - 22, cx - 22  # the scales' baselines
    canvas.line((cx - 12) * mm, hy * mm, (cx + 12) * mm, hy * mm)
    canvas.line(vx * mm, (cy - 12) * mm, vx * mm, (cy + 12) * mm)
    canvas.setFont(SANS, 6)
    for i in range(-12, 13):
        tick = 5 if i == 0 else 3.5 if i % 5 == 0 else 2
        canvas.line((cx + i) * mm, hy * mm, (cx + i) * mm, (hy + tick) * mm)
        canvas.line(vx * mm, (cy + i) * mm, (vx + tick) * mm, (cy + i) * mm)
        if i % 5 == 0:
            label = "0" if i == 0 else f"{i:+d}"
            canvas.drawCentredString((cx + i) * mm, (hy - 3) * mm, label)
            canvas.drawRightString((vx - 1) * mm, (cy + i - 0.7) * mm, label)
    canvas.setFont(BOLD, 8)
    canvas.drawString((cx + 14) * mm, (hy - 1) * mm, "X (mm) \u2192")
    canvas.drawCentredString(vx * mm, (cy + 14) * mm, "Y (mm) \u2191")
    canvas.restoreState()
    _instructions(canvas, page, margin, text["back_title"], text["back"])
    set_boxes(canvas, None, None)
    canvas.showPage()


def _instructions(canvas: Canvas, page: tuple[float, float], margin: float, title: str, lines: list[str]) -> None:
    """A title and lines of text at the top left of a calibration page."""
    canvas.setFont(BOLD, 14)
    canvas.drawString(margin * mm, (page[1] - margin - 5) * mm, title)
    canvas.setFont(SANS, 9)
    y = page[1] - margin - 13
    for line in lines:
        canvas.drawString(margin * mm, y * mm, line)
        y -= 4.6


def _ruler(canvas: Canvas, page: tuple[float, float], margin: float, unit: str) -> None:
    """A 100 mm bar near the bottom of the page, to check the page printed at actual size."""
    x, y = margin, margin + 8
    canvas.setLineWidth(0.2 * mm)
    canvas.line(x * mm, y * mm, (x + 100) * mm, y * mm)
    for i in range(0, 101, 10):
        canvas.line((x + i) * mm, y * mm, (x + i) * mm, (y + (3 if i % 50 == 0 else 1.5)) * mm)
    canvas.setFont(SANS, 7)
    canvas.drawString(x * mm, (y - 4) * mm, "0")
    canvas.drawRightString((x + 100) * mm, (y - 4) * mm, f"100 {unit}")

