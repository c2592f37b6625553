"""Page geometry in millimetres, PDF style (origin at the bottom-left corner of the page, y up).

A sheet is a grid of equal slots (cards or tokens) centred on the page. Duplex backs use the
same grid with the columns mirrored (long edge) or the rows mirrored and every back turned 180
degrees (short edge). A gutterfold page holds a grid of fronts above the fold line and, mirrored
about that line and turned 180 degrees, the grid of their backs below it. Token pages shared by
several token sets hold a band of rows per set (token_pages), each mirrored for the backs on its own: on
the duplex back page, or below the fold of a gutterfold page.
"""

from __future__ import annotations

from dataclasses import dataclass

EPS = 1e-6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def grow(self, left: float, bottom: float, right: float, top: float) -> "Rect":
        return Rect(self.x - left, self.y - bottom, self.w + left + right, self.h + bottom + top)

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.x1, other.x1) - x, max(self.y1, other.y1) - y)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)


@dataclass(frozen=True)
class Slot:
    """Where one card goes: its trim rectangle, how much bleed may show on each side, and its turn."""

    trim: Rect
    bleed: tuple[float, float, float, float]  # left, bottom, right, top
    rotate: int = 0  # 0 or 180

    @property
    def clip(self) -> Rect:
        return self.trim.grow(*self.bleed)


def fit(avail: float, size: float, gap: float) -> int:
    """How many items of `size` with `gap` between them fit in `avail`."""
    if size > avail + EPS:
        return 0
    return int((avail - size + EPS) // (size + gap)) + 1


@dataclass(frozen=True)
class Grid:
    """`cols` x `rows` items of w x h with `gap` between them; (x, y) is the bottom-left of the grid."""

    cols: int
    rows: int
    w: float
    h: float
    gap: float
    x: float
    y: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def rect(self) -> Rect:
        return Rect(self.x, self.y, self.cols * self.w + (self.cols - 1) * self.gap,
                    self.rows * self.h + (self.rows - 1) * self.gap)

    def cell(self, col: int, row: int) -> Rect:
        """The trim of the item at `col` (from the left) and `row` (from the top)."""
        x = self.x + col * (self.w + self.gap)
        y = self.y + (self.rows - 1 - row) * (self.h + self.gap)
        return Rect(x, y, self.w, self.h)

    def col_edges(self) -> list[float]:
        """x of every vertical cut line: both edges of each column (shared when the gap is 0)."""
        return _edges(self.x, self.w, self.gap, self.cols)

    def row_edges(self) -> list[float]:
        return _edges(self.y, self.h, self.gap, self.rows)


def _edges(start: float, size: float, gap: float, n: int) -> list[float]:
    out: list[float] = []
    for i in range(n):
        a = start + i * (size + gap)
        for v in (a, a + size):
            if not out or abs(out[-1] - v) > EPS:
                out.append(round(v, 6))
    return out


def centred_grid(area: Rect, w: float, h: float, gap: float) -> Grid | None:
    """As many items as fit in `area`, the grid centred in it; None when not even one fits."""
    cols, rows = fit(area.w, w, gap), fit(area.h, h, gap)
    if not cols or not rows:
        return None
    gw, gh = cols * w + (cols - 1) * gap, rows * h + (rows - 1) * gap
    return Grid(cols, rows, w, h, gap, area.x + (area.w - gw) / 2, area.y + (area.h - gh) / 2)


def slot_bleed(grid: Grid, col: int, row: int, bleed: float, fold: str | None = None,
               gutter: float = 0, used: set[tuple[int, int]] | None = None) -> tuple[float, float, float, float]:
    """Bleed on each side of a cell: `bleed` on the grid's outside and towards cells left empty (those
    not in `used`, on a partial sheet), at most half the gap towards a used neighbour, and at most half
    the gutter on the side that faces the fold (`fold`: top or bottom)."""
    inside = min(bleed, grid.gap / 2)

    def side(c: int, r: int) -> float:
        inner = 0 <= c < grid.cols and 0 <= r < grid.rows and (used is None or (c, r) in used)
        return inside if inner else bleed

    left, right = side(col - 1, row), side(col + 1, row)
    top, bottom = side(col, row - 1), side(col, row + 1)
    if fold == "bottom" and row == grid.rows - 1:
        bottom = min(bleed, gutter / 2)
    if fold == "top" and row == 0:
        top = min(bleed, gutter / 2)
    return (left, bottom, right, top)


@dataclass(frozen=True)
class Sheet:
    """The layout of one kind of page: where the n-th item's front and back go.

    `count` is how many of the page's slots hold an item (None: all); a slot's sides facing an empty
    slot print their full bleed.
    """

    page: tuple[float, float]
    fronts: Grid
    backs: Grid
    bleed: float
    fold_y: float | None = None  # gutterfold: y of the fold line
    gutter: float = 0

    @property
    def per_page(self) -> int:
        return self.fronts.per_page

    def _front_cell(self, index: int) -> tuple[int, int]:
        return index % self.fronts.cols, index // self.fronts.cols

    def _back_cell(self, index: int, mode: str) -> tuple[int, int]:
        col, row = self._front_cell(index)
        if self.fold_y is not None or mode == "short-edge":
            return col, self.backs.rows - 1 - row
        return self.backs.cols - 1 - col, row

    def front_slot(self, index: int, count: int | None = None) -> Slot:
        used = None if count is None else {self._front_cell(i) for i in range(count)}
        return self._front_slot(index, used)

    def front_slots(self, count: int) -> list[Slot]:
        """front_slot of each of the first `count` items, on a page of `count`."""
        used = {self._front_cell(i) for i in range(count)}
        return [self._front_slot(i, used) for i in range(count)]

    def _front_slot(self, index: int, used: set[tuple[int, int]] | None) -> Slot:
        col, row = self._front_cell(index)
        fold = "bottom" if self.fold_y is not None else None
        return Slot(self.fronts.cell(col, row),
                    slot_bleed(self.fronts, col, row, self.bleed, fold, self.gutter, used))

    def back_slot(self, index: int, mode: str = "long-edge", count: int | None = None) -> Slot:
        """Where the back of the `index`-th front goes, in the coordinates of the page as printed.

        Gutterfold: mirrored about the fold line and turned 180 degrees, so that it is upright when
        the folded card is turned over sideways. Duplex long edge: the columns mirror. Duplex short
        edge: the page turns over its top edge, so the rows mirror and each back turns 180 degrees
        (upright again when the cut card is turned over sideways).
        """
        used = None if count is None else {self._back_cell(i, mode) for i in range(count)}
        return self._back_slot(index, mode, used)

    def back_slots(self, count: int, mode: str = "long-edge") -> list[Slot]:
        """back_slot of each of the first `count` items, on a page of `count`."""
        used = {self._back_cell(i, mode) for i in range(count)}
        return [self._back_slot(i, mode, used) for i in range(count)]

    def _back_slot(self, index: int, mode: str, used: set[tuple[int, int]] | None) -> Slot:
        col, row = self._back_cell(index, mode)
        g = self.backs
        if self.fold_y is not None:
            return Slot(g.cell(col, row), slot_bleed(g, col, row, self.bleed, "top", self.gutter, used), 180)
        turn = 180 if mode == "short-edge" else 0
        return Slot(g.cell(col, row), slot_bleed(g, col, row, self.bleed, used=used), turn)

    @property
    def trim(self) -> Rect:
        """The part of the page holding cards (the union of the trims)."""
        if self.fold_y is None:
            return self.fronts.rect
        return self.fronts.rect.union(self.backs.rect)

    @property
    def extent(self) -> Rect:
        """The page's cards with their full bleed, every slot used: what margin texts keep clear of."""
        return self.trim.grow(self.bleed, self.bleed, self.bleed, self.bleed)


Margin = float | tuple[float, float]  # mm from the page edge to the trims: both ways, or (x, y)


def _margins(margin: Margin) -> tuple[float, float]:
    return margin if isinstance(margin, tuple) else (margin, margin)


def duplex_sheet(page: tuple[float, float], margin: Margin, w: float, h: float, gap: float,
                 bleed: float) -> Sheet | None:
    mx, my = _margins(margin)
    area = Rect(mx, my, page[0] - 2 * mx, page[1] - 2 * my)
    grid = centred_grid(area, w, h, gap)
    if grid is None:
        return None
    # The back page mirrors the front page: the same grid, centred the same way, serves both.
    return Sheet(page, grid, grid, bleed)


def gutterfold_sheet(page: tuple[float, float], margin: Margin, w: float, h: float, gap: float,
                     bleed: float, gutter: float) -> Sheet | None:
    """Fronts above the fold line (the page's middle), their backs mirrored below it."""
    mx, my = _margins(margin)
    fold = page[1] / 2
    half = fold - gutter / 2 - my
    cols = fit(page[0] - 2 * mx, w, gap)
    rows = fit(half, h, gap)
    if not cols or not rows:
        return None
    gw = cols * w + (cols - 1) * gap
    gh = rows * h + (rows - 1) * gap
    x = (page[0] - gw) / 2
    fronts = Grid(cols, rows, w, h, gap, x, fold + gutter / 2)
    backs = Grid(cols, rows, w, h, gap, x, fold - gutter / 2 - gh)
    return Sheet(page, fronts, backs, bleed, fold_y=fold, gutter=gutter)


@dataclass(frozen=True)
class Band:
    """Tokens of one component on a shared token page: items `first` to `first + count` of the
    `component`-th kind, filling `grid` row by row from its top left."""

    component: int
    grid: Grid
    first: int
    count: int

    def sheet(self, page: tuple[float, float], bleed: float, flip: str = "long-edge", fold: float | None = None,
              gutter: float = 0) -> Sheet:
        """The band as a Sheet whose backs mirror its fronts for `flip` as seen on screen: about the
        page's vertical middle (long-edge: the columns) or its horizontal middle (short-edge: the rows),
        so that each back lands behind its front wherever the band lies on the page. With `fold` (the
        fold line's y on a gutterfold page), the backs mirror about the fold line instead, turned."""
        g = self.grid
        gw, gh = g.rect.w, g.rect.h
        if fold is not None:
            backs = Grid(g.cols, g.rows, g.w, g.h, g.gap, g.x, 2 * fold - g.y - gh)
            return Sheet(page, g, backs, bleed, fold_y=fold, gutter=gutter)
        if flip == "short-edge":
            backs = Grid(g.cols, g.rows, g.w, g.h, g.gap, g.x, page[1] - g.y - gh)
        else:
            backs = Grid(g.cols, g.rows, g.w, g.h, g.gap, page[0] - g.x - gw, g.y)
        return Sheet(page, g, backs, bleed)


def token_pages(area: Rect, kinds: list[tuple[float, float, int]], gap: float, bleed: float
                ) -> list[list[Band]] | None:
    """Tokens of several kinds (w, h, how many) packed into `area` on shared pages: each kind in bands of
    whole rows, centred across the area, the bands stacked from its top, `gap` apart within a band and at
    least twice the bleed apart between bands (each band's outer bleed is its own). None when a kind
    does not fit the area at all."""
    pages: list[list[Band]] = [[]]
    top = area.y1
    for kind, (w, h, n) in enumerate(kinds):
        cols = fit(area.w, w, gap)
        if not cols or fit(area.h, h, gap) == 0:
            return None
        done = 0
        while done < n:
            room = top - area.y - (max(gap, 2 * bleed) if pages[-1] else 0)
            rows = min(fit(room, h, gap), -(-(n - done) // cols))
            if rows == 0:
                pages.append([])
                top = area.y1
                continue
            count = min(n - done, rows * cols)
            used = count if rows == 1 else cols  # a single short row is centred too
            gw, gh = used * w + (used - 1) * gap, rows * h + (rows - 1) * gap
            if pages[-1]:
                top -= max(gap, 2 * bleed)
            grid = Grid(used, rows, w, h, gap, area.x + (area.w - gw) / 2, top - gh)
            pages[-1].append(Band(kind, grid, done, count))
            top -= gh
            done += count
    return [bands for bands in pages if bands]
