"""Deck sheets: card faces packed into TTS card sheets (at most 10 x 7 cards, 4096 px a side).

The plan is pure arithmetic (`plan_sheets`); `compose` and `encode` make the images. Faces are cut to
the trim (TTS shows the whole slot on the card, so the print bleed would show as a border): the face
stage cuts each face to its slot's size as it draws it (`tiles` of builders/tts.py asks for them).

How the grid is chosen: TTS scales each slot onto the card, so the sharpest card is the largest slot,
capped at the face's own trim resolution (no upscaling). For a given number of sheets the faces are
split as evenly as possible and each sheet takes the grid whose slot is largest (then the fewest
empty slots, then the smaller image). The number of sheets is the smallest one whose cards come
within SHARPNESS_TOLERANCE of the sharpest any number of sheets could give: one more download is not
worth a few percent of resolution. Every sheet has BackIsHidden set, so all 70 slots hold cards (TTS
shows the card back, not a reserved last slot, for hidden cards).
"""

from __future__ import annotations

import hashlib
import io
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from ..faces import Tile

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_SIDE = 4096  # px, TTS knowledge base: larger textures fail on many GPUs
SHARPNESS_TOLERANCE = 0.95
EMPTY_SLOT = (255, 255, 255)


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    card_w: int  # px of one card on the sheet
    card_h: int

    @property
    def slots(self) -> int:
        return self.columns * self.rows

    @property
    def size(self) -> tuple[int, int]:
        return (self.columns * self.card_w, self.rows * self.card_h)

    def box(self, slot: int) -> tuple[int, int, int, int]:
        """Pixel box of a slot: slots count from 0, left to right, top to bottom."""
        col, row = slot % self.columns, slot // self.columns
        return (col * self.card_w, row * self.card_h, (col + 1) * self.card_w, (row + 1) * self.card_h)


def card_scale(columns: int, rows: int, face_w: int, face_h: int, max_side: int = MAX_SIDE) -> float:
    """How much a face of face_w x face_h px is scaled to fit a columns x rows sheet (at most 1)."""
    return min(1.0, max_side / (columns * face_w), max_side / (rows * face_h))


def best_grid(count: int, face_w: int, face_h: int, max_side: int = MAX_SIDE) -> Grid:
    """The grid holding `count` cards with the largest slots (ties: fewest empty slots, smaller image)."""
    if not 1 <= count <= MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS} cards, not {count}")
    best, best_key = None, None
    for columns in range(1, MAX_COLUMNS + 1):
        rows = math.ceil(count / columns)
        if rows > MAX_ROWS:
            continue
        scale = card_scale(columns, rows, face_w, face_h, max_side)
        w, h = max(1, math.floor(face_w * scale)), max(1, math.floor(face_h * scale))
        key = (-(w * h), columns * rows - count, columns * w * rows * h, columns)
        if best_key is None or key < best_key:
            best, best_key = Grid(columns, rows, w, h), key
    assert best is not None
    return best


def split(count: int, sheets: int) -> list[int]:
    """`count` cards over `sheets` sheets as evenly as possible, fuller sheets first."""
    base, extra = divmod(count, sheets)
    return [base + (1 if i < extra else 0) for i in range(sheets)]


def plan_sheets(count: int, face_w: int, face_h: int, max_side: int = MAX_SIDE) -> list[Grid]:
    """One grid per sheet for `count` distinct faces of face_w x face_h px (see the module docstring)."""
    if count < 1:
        return []
    per_sheet = MAX_COLUMNS * MAX_ROWS
    fewest = math.ceil(count / per_sheet)

    def plan(sheets: int) -> list[Grid]:
        return [best_grid(n, face_w, face_h, max_side) for n in split(count, sheets)]

    def sharpness(grids: list[Grid]) -> int:
        return min(g.card_w * g.card_h for g in grids)

    sharpest = sharpness(plan(count))  # one card a sheet: the best any plan can do
    for sheets in range(fewest, count + 1):
        grids = plan(sheets)
        if math.sqrt(sharpness(grids) / sharpest) >= SHARPNESS_TOLERANCE:
            return grids
    return plan(count)


def open_tile(tile: Tile | None, size: tuple[int, int]) -> Image.Image:
    """A tile the face stage made from a face (see faces.tile); None: a plain card."""
    return plain_card(size) if tile is None else tile.read()


def compose(grid: Grid, tiles: list[Tile | None]) -> Image.Image:
    """A sheet: the tile tiles[i] (a face cut to the grid's slot) in slot i; None a plain card, empty slots
    white."""
    if len(tiles) > grid.slots:
        raise ValueError(f"{len(tiles)} faces don't fit a {grid.columns} x {grid.rows} sheet")
    sheet = Image.new("RGB", grid.size, None)  # not cleared: every slot is painted below (16 ms saved a sheet)
    size = (grid.card_w, grid.card_h)
    # Pillow decodes without the GIL: a thread per core reads the tiles side by side.
    with ThreadPoolExecutor(max_workers=max(1, min(os.cpu_count() or 1, len(tiles)))) as pool:
        for slot, image in enumerate(pool.map(lambda tile: open_tile(tile, size), tiles)):
            sheet.paste(image, grid.box(slot)[:2])
    for slot in range(len(tiles), grid.slots):
        sheet.paste(EMPTY_SLOT, grid.box(slot))
    return sheet


def encode(image: Image.Image, image_format: str, quality: int) -> tuple[bytes, str]:
    """(bytes, extension). JPEG uses 4:4:4 chroma so coloured text stays sharp; both are deterministic."""
    buffer = io.BytesIO()
    image = image if image.mode == "RGB" else image.convert("RGB")
    if image_format == "png":
        image.save(buffer, format="PNG", compress_level=6)
        return buffer.getvalue(), "png"
    image.save(buffer, format="JPEG", quality=quality, subsampling=0, optimize=False)
    return buffer.getvalue(), "jpg"


def hashed_name(stem: str, data: bytes, extension: str) -> str:
    """`deck-sheet1-0123456789ab.jpg`: the content hash makes a changed image a new URL for TTS's cache."""
    return hashed_name_of(stem, hashlib.sha256(data).hexdigest(), extension)


def hashed_name_of(stem: str, sha256: str, extension: str) -> str:
    """hashed_name of data whose sha256 is `sha256`."""
    return f"{stem}-{sha256[:12]}.{extension}"


THUMBNAIL = 256
THUMBNAIL_BACKGROUND = (38, 70, 52)


def thumbnail_faces(faces: list) -> list:
    """The faces a thumbnail shows: up to five, spread over the list."""
    return faces if len(faces) <= 5 else [faces[round(i * (len(faces) - 1) / 4)] for i in range(5)]


def thumbnail_card_size(trim_w: float, trim_h: float, size: int = THUMBNAIL) -> tuple[int, int]:
    """The size of a card of trim_w x trim_h px on a thumbnail: 62 % of its side, the longer way."""
    scale = min(size * 0.62 / trim_h, size * 0.62 / trim_w)
    return max(1, round(trim_w * scale)), max(1, round(trim_h * scale))


def thumbnail(tiles: list[Tile], size: int = THUMBNAIL) -> bytes:
    """A size x size PNG of the tiles (faces cut to thumbnail_card_size; see thumbnail_faces) fanned out on
    a green cloth (the save's picture)."""
    canvas = Image.new("RGBA", (size, size), THUMBNAIL_BACKGROUND + (255,))
    count = len(tiles)
    for i, tile in enumerate(tiles):
        card = tile.read().convert("RGBA")
        angle = 0.0 if count == 1 else 24.0 - 48.0 * i / (count - 1)
        turned = card.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
        offset = 0.0 if count == 1 else (i - (count - 1) / 2) * size * 0.13
        x = round(size / 2 + offset - turned.width / 2)
        y = round(size / 2 - turned.height / 2 + abs(offset) * 0.25)
        canvas.paste(turned, (x, y), turned)
    buffer = io.BytesIO()
    canvas.convert("RGB").save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def plain_card(size: tuple[int, int], color: tuple[int, int, int] = (60, 60, 60)) -> Image.Image:
    """A plain back for cards whose component has no back template."""
    return Image.new("RGB", size, color)
