"""Sheets for cutting machines (docs/print.md, "Cutting machines", gives the sources of every figure here).

Silhouette (`cutter: silhouette`): the front pages carry Silhouette Studio's print & cut registration marks,
"Type 1" (Cameo, Portrait, Curio): a filled 5 mm square with its corner `inset` mm from the paper's top and
left edges, and L-shaped corner marks, their arms `length` mm long and `thickness` mm wide, whose corners
are `inset` mm from the top right and the bottom left edges. Nothing printed comes within 2 mm of a mark, and
the cards lie inside the rectangle the marks span (where the machine cuts); each card's trim carries a thin
outline, the contour Silhouette Studio traces or imports as the cut line.

Cricut (`cutter: cricut`): Design Space prints an uploaded image inside its own frame, at most `print_area`
(6.75 x 9.25 in on Letter), and cuts around the image's opaque outline. A Cricut sheet is therefore a PNG at
300 DPI of the cards at their trim size on a transparent ground: the edge of each card is its cut contour.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw
from reportlab.lib.units import mm

from ...render import DPI
from .layout import Grid, Rect, Sheet, centred_grid, fit

SQUARE = 5.0  # mm, the side of Silhouette's filled square
KEEPOUT = 2.0  # mm around each mark that nothing else prints in


@dataclass(frozen=True)
class Marks:
    """Silhouette's three registration marks on a page of `page` mm (PDF coordinates: y up)."""

    page: tuple[float, float]
    inset: float
    length: float
    thickness: float

    @property
    def square(self) -> Rect:
        return Rect(self.inset, self.page[1] - self.inset - SQUARE, SQUARE, SQUARE)

    def arms(self) -> list[Rect]:
        """The four bars of the two L marks (top right, then bottom left), each `thickness` wide and centred
        on the inset lines, meeting in full corners."""
        w, h = self.page
        i, n, t = self.inset, self.length, self.thickness / 2
        return [Rect(w - i - n, h - i - t, n + t, 2 * t), Rect(w - i - t, h - i - n, 2 * t, n + t),
                Rect(i - t, i - t, n + t, 2 * t), Rect(i - t, i - t, 2 * t, n + t)]

    def keepouts(self) -> list[Rect]:
        """Where nothing else may print: each mark's bounding box, KEEPOUT mm larger on every side."""
        a = self.arms()
        k = (KEEPOUT,) * 4
        return [self.square.grow(*k), a[0].union(a[1]).grow(*k), a[2].union(a[3]).grow(*k)]

    @property
    def area(self) -> Rect:
        """The rectangle the marks span: the part of the page the machine registers and cuts."""
        return Rect(self.inset, self.inset, self.page[0] - 2 * self.inset, self.page[1] - 2 * self.inset)


def _inside(inner: Rect, outer: Rect) -> bool:
    e = 1e-6
    return inner.x >= outer.x - e and inner.y >= outer.y - e and inner.x1 <= outer.x1 + e and inner.y1 <= outer.y1 + e


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x1 and b.x < a.x1 and a.y < b.y1 and b.y < a.y1


def marked_sheet(marks: Marks, w: float, h: float, gap: float, bleed: float) -> Sheet | None:
    """The most cards of w x h that fit, centred on the page (the backs mirror them), their printed bleed
    inside the marks' rectangle and clear of every mark's keep-out; None when not one fits."""
    page, area = marks.page, marks.area
    best: Sheet | None = None
    for cols in range(fit(area.w - 2 * bleed, w, gap), 0, -1):
        for rows in range(fit(area.h - 2 * bleed, h, gap), 0, -1):
            if best is not None and cols * rows <= best.per_page:
                continue
            gw, gh = cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap
            grid = Grid(cols, rows, w, h, gap, (page[0] - gw) / 2, (page[1] - gh) / 2)
            art = grid.rect.grow(bleed, bleed, bleed, bleed)
            if _inside(art, area) and not any(_overlaps(art, k) for k in marks.keepouts()):
                best = Sheet(page, grid, grid, bleed)
    return best


def area_sheet(area: tuple[float, float], w: float, h: float, gap: float) -> Sheet | None:
    """Cricut: as many cards of w x h as fit the print area, `gap` apart, no bleed (Design Space adds its
    own); the sheet's page is the area itself."""
    grid = centred_grid(Rect(0, 0, *area), w, h, gap)
    return None if grid is None else Sheet(area, grid, grid, 0)


def draw_marks(canvas, marks: Marks) -> None:
    """The three registration marks, solid black."""
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    for r in [marks.square, *marks.arms()]:
        canvas.rect(r.x * mm, r.y * mm, r.w * mm, r.h * mm, stroke=0, fill=1)
    canvas.restoreState()


def _px(v: float) -> int:
    return round(v * DPI / 25.4)


def cricut_image(sheet: Sheet, faces: list[Path], face_bleed: float, shape: str, target: Path,
                 radius: float = 0.0) -> None:
    """One Cricut sheet: the faces (image files with `face_bleed` mm of bleed) at their trims, on a
    transparent ground, as an RGBA PNG of the sheet's size at 300 DPI, each cut to the component's shape
    (`radius`: a rounded one's corners, mm)."""
    size = (_px(sheet.page[0]), _px(sheet.page[1]))
    out = Image.new("RGBA", size, (0, 0, 0, 0))
    for index, face in enumerate(faces):
        trim = sheet.front_slot(index).trim
        box = (_px(trim.x), size[1] - _px(trim.y1), _px(trim.x1), size[1] - _px(trim.y))
        cw, ch = box[2] - box[0], box[3] - box[1]
        with Image.open(face) as image:
            # The trim in the face's own pixels, cut at whole pixels (the face is drawn at 300 DPI too).
            fw = round(image.width * trim.w / (trim.w + 2 * face_bleed))
            fh = round(image.height * trim.h / (trim.h + 2 * face_bleed))
            left, top = (image.width - fw) // 2, (image.height - fh) // 2
            card = image.convert("RGB").crop((left, top, left + fw, top + fh))
        if card.size != (cw, ch):
            card = card.resize((cw, ch), Image.Resampling.LANCZOS)
        mask = Image.new("L", (cw, ch), 0)
        draw = ImageDraw.Draw(mask)
        if shape == "circle":
            draw.ellipse((0, 0, cw - 1, ch - 1), fill=255)
        elif shape == "hex":
            draw.polygon([(0, ch / 2), (cw / 4, 0), (3 * cw / 4, 0), (cw, ch / 2), (3 * cw / 4, ch), (cw / 4, ch)],
                         fill=255)
        elif shape == "rounded" and radius > 0:
            draw.rounded_rectangle((0, 0, cw - 1, ch - 1), radius=radius * DPI / 25.4, fill=255)
        else:
            mask.paste(255, (0, 0, cw, ch))
        out.paste(card, box[:2], mask)
    out.save(target, dpi=(DPI, DPI))
