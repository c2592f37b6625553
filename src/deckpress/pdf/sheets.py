"""Drawing the card and token sheets, and the duplex calibration sheet, on a reportlab canvas.

All geometry comes from layout.py in millimetres; this module converts to points as it draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from ..schema import Component
from .canvas import BOLD, SANS, Images
from .layout import Rect, Sheet, Slot

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


def set_boxes(canvas: Canvas, trim: Rect | None, bleed: Rect | None) -> None:
    """TrimBox and BleedBox of the page about to be finished (None: the whole page)."""
    canvas.setTrimBox(None if trim is None else (trim.x * mm, trim.y * mm, trim.x1 * mm, trim.y1 * mm))
    canvas.setBleedBox(None if bleed is None else (bleed.x * mm, bleed.y * mm, bleed.x1 * mm, bleed.y1 * mm))


def _shape_path(canvas: Canvas, rect: Rect, shape: str):
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
    if slot.rotate == 180:
        cx, cy = (t.x + t.w / 2) * mm, (t.y + t.h / 2) * mm
        canvas.translate(cx, cy)
        canvas.rotate(180)
        canvas.translate(-cx, -cy)
    images.draw(canvas, rel, (t.x - face_bleed) * mm, (t.y - face_bleed) * mm, (t.w + 2 * face_bleed) * mm,
                (t.h + 2 * face_bleed) * mm)
    canvas.restoreState()


def _line_style(canvas: Canvas, style: Style) -> bool:
    if style.cut_lines == "none":
        return False
    canvas.setStrokeColor(colors.HexColor(style.cut_color[:7]))
    canvas.setLineWidth(style.cut_width * mm)
    canvas.setDash([3 * mm, 2 * mm] if style.cut_lines == "dashed" else [])
    return True


def cut_lines(canvas: Canvas, page: tuple[float, float], extents: list[tuple[Rect, Rect]], xs: list[float],
              ys: list[float], style: Style, avoid: list[Rect] = ()) -> None:
    """Lines along every cut (x in `xs`, y in `ys`) from the cards' bleed to the page edge.

    `extents` are (trim, bleed) of the blocks of cards on the page; a line runs wherever it does not
    cross a card (or a label in `avoid`): above, below or beside every block and between blocks.
    """
    if not _line_style(canvas, style):
        return
    bleeds = [b for _, b in extents] + [r.grow(0.8, 0.8, 0.8, 0.8) for r in avoid]
    for x in xs:
        blocked = sorted((b.y, b.y1) for b in bleeds if b.x - 1e-6 <= x <= b.x1 + 1e-6)
        _free_segments(canvas, x, 0, page[1], blocked, vertical=True)
    for y in ys:
        blocked = sorted((b.x, b.x1) for b in bleeds if b.y - 1e-6 <= y <= b.y1 + 1e-6)
        _free_segments(canvas, y, 0, page[0], blocked, vertical=False)
    canvas.setDash([])


def _free_segments(canvas: Canvas, at: float, start: float, end: float, blocked: list[tuple[float, float]],
                   vertical: bool) -> None:
    pos = start
    for a, b in blocked + [(end, end)]:
        if a - pos > 0.5:
            if vertical:
                canvas.line(at * mm, pos * mm, at * mm, a * mm)
            else:
                canvas.line(pos * mm, at * mm, a * mm, at * mm)
        pos = max(pos, b)


def outlines(canvas: Canvas, slots: list[Slot], shape: str, style: Style) -> None:
    """A cut outline around each token."""
    if not _line_style(canvas, style):
        return
    for slot in slots:
        canvas.drawPath(_shape_path(canvas, slot.trim, shape), stroke=1, fill=0)
    canvas.setDash([])


def fit_label(candidates: list[str], width: float) -> tuple[str, float]:
    """The first text that fits `width` mm at a size from LABEL_SIZE down to MIN_LABEL_SIZE."""
    for text in candidates:
        natural = stringWidth(text, SANS, LABEL_SIZE) / mm
        if natural <= width:
            return text, LABEL_SIZE
        size = LABEL_SIZE * width / natural
        if size >= MIN_LABEL_SIZE:
            return text, size
    return candidates[-1], MIN_LABEL_SIZE


def labels(canvas: Canvas, page: tuple[float, float], bleed_box: Rect, first: list[str], second: list[str]
           ) -> list[Rect]:
    """Two short labels in the page margins; returns the rectangles they cover (for the cut lines).

    When the top and bottom margins are roomy, `first` goes at the top and `second` at the bottom,
    centred on the cards; otherwise they run up the left and right margins. Each is a list of
    variants, longest first: the first that fits at a readable size is printed.
    """
    top_band = page[1] - bleed_box.y1
    bottom_band = bleed_box.y
    side_band = min(bleed_box.x, page[0] - bleed_box.x1)
    canvas.setFillColor(GREY)
    covered: list[Rect] = []
    horizontal = min(top_band, bottom_band) >= 6 or min(top_band, bottom_band) >= side_band
    if horizontal:
        width, centre = bleed_box.w - 4, bleed_box.x + bleed_box.w / 2
        places = ((first, page[1] - top_band / 2), (second, bottom_band / 2))
    else:
        width, centre = bleed_box.h - 4, bleed_box.y + bleed_box.h / 2
        places = ((first, bleed_box.x / 2), (second, page[0] - (page[0] - bleed_box.x1) / 2))
    for text, at in places:
        if not text:
            continue
        shown, size = fit_label(text, width)
        length = stringWidth(shown, SANS, size) / mm + 3
        height = size * 0.3528 * 1.4
        canvas.saveState()
        if horizontal:
            canvas.translate(centre * mm, at * mm)
            covered.append(Rect(centre - length / 2, at - height / 2, length, height))
        else:
            canvas.translate(at * mm, centre * mm)
            canvas.rotate(90)
            covered.append(Rect(at - height / 2, centre - length / 2, height, length))
        canvas.setFont(SANS, size)
        canvas.drawCentredString(0, -size * 0.35, shown)
        canvas.restoreState()
    return covered


def component_shape(component: Component) -> str:
    return component.shape if component.type == "tokens" else "rectangle"


def used_extent(sheet: Sheet, count: int, back: bool, mode: str) -> tuple[Rect, Rect]:
    """(trim, bleed) bounding boxes of the first `count` slots, fronts or backs."""
    slots = [sheet.back_slot(i, mode) if back else sheet.front_slot(i) for i in range(count)]
    trim = slots[0].trim
    bleed = slots[0].clip
    for s in slots[1:]:
        trim, bleed = trim.union(s.trim), bleed.union(s.clip)
    return trim, bleed


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
    _ruler(canvas, page, margin)
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


def _ruler(canvas: Canvas, page: tuple[float, float], margin: float) -> None:
    """A 100 mm bar near the bottom of the page, to check the page printed at actual size."""
    x, y = margin, margin + 8
    canvas.setLineWidth(0.2 * mm)
    canvas.line(x * mm, y * mm, (x + 100) * mm, y * mm)
    for i in range(0, 101, 10):
        canvas.line((x + i) * mm, y * mm, (x + i) * mm, (y + (3 if i % 50 == 0 else 1.5)) * mm)
    canvas.setFont(SANS, 7)
    canvas.drawString(x * mm, (y - 4) * mm, "0")
    canvas.drawRightString((x + 100) * mm, (y - 4) * mm, "100 mm")

