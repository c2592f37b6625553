"""Deck sheets: card faces packed into TTS card sheets (at most 10 x 7 cards, 4096 px a side).

The plan is pure arithmetic (`plan_sheets`); `splice` makes a JPEG sheet, `compose` and `encode` a PNG one.
Faces are cut to the trim (TTS shows the whole slot on the card, so the print bleed would show as a
border): the face stage cuts each face to its slot's size as it draws it (`tiles` of builders/tts/steps.py asks
for them).

How the grid is chosen: TTS scales each slot onto the card, so the sharpest card is the largest slot,
capped at the face's own trim resolution (no upscaling). For a given number of sheets the faces are
split as evenly as possible and each sheet takes the grid whose slot is largest (then the fewest
empty slots, then the smaller image). The number of sheets is the smallest one whose cards come
within SHARPNESS_TOLERANCE of the sharpest any number of sheets could give: one more download is not
worth a few percent of resolution. Every sheet has BackIsHidden set, so all 70 slots hold cards (TTS
shows the card back, not a reserved last slot, for hidden cards).

A slot's sides are multiples of 8 px (`slot_side`), JPEG's blocks at 4:4:4: the multiple of 8 nearest
to the ideal side (the trim scaled to the grid), rounded down where rounding up would pass MAX_SIDE for
the grid or the face's own pixels (bleed included); at least 8. Where a slot comes close to the trim in
both sides, its tile is a centred crop of the face (faces.crop_box): it reaches at most 3.5 px into the
bleed, or cuts off the trim's edges at most half the deck's safe margin, and at most a cutter's tolerance
(1/16 in), on a side, and is not resampled: the card is its face's own pixels, less a strip of its edge a
printed card may lose too (SCORE!'s 728 x 1024 slot: 0.7 mm a side). Otherwise the trim is resampled to
the slot, stretched in one side against the other by up to half a multiple of 8 (4 px: 0.5 % of a 750 px
slot, 1 % of a 400 px one), which TTS, stretching each slot onto its card mesh anyway, cannot show. PNG and
JPEG sheets have the same plan.

Why multiples of 8: a JPEG sheet is not encoded as a whole. The face stage encodes each slot's tile as a
JPEG of its own (faces.jpeg_tile: 4:4:4, a restart marker after every row of 8 px blocks), in the
drawing processes; `splice` puts the sheet together from the tiles' rows of blocks (their entropy-coded
segments: a restart resets the DC prediction, so each segment is its own pixels alone) with restart
markers numbered for the sheet. The bytes are those libjpeg gives the composed sheet with a restart
marker every slot's width of blocks, and a one-card edit encodes one tile again, not a sheet.
"""

from __future__ import annotations

import functools
import hashlib
import io
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from ...faces import Size, Tile

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_SIDE = 4096  # px, TTS knowledge base: larger textures fail on many GPUs
SHARPNESS_TOLERANCE = 0.95
EMPTY_SLOT = (255, 255, 255)
PLAIN_CARD = (60, 60, 60)  # a plain back, for cards whose component has no back template


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


def slot_side(ideal: float, cap: int) -> int:
    """A slot's side: the multiple of 8 nearest to `ideal` px (halves up), the one below where that passes
    `cap`; at least 8."""
    side = math.floor(ideal / 8 + 0.5) * 8
    if side > cap:
        side = cap // 8 * 8
    return max(8, side)


def best_grid(count: int, face_w: int, face_h: int, max_side: int = MAX_SIDE,
              limit: Size | None = None) -> Grid:
    """The grid holding `count` cards of face_w x face_h px (the trim) with the largest slots (ties: fewest
    empty slots, smaller image); `limit`: the face's whole size, bleed included (default: the trim), which
    a slot cropped from it cannot pass."""
    if not 1 <= count <= MAX_COLUMNS * MAX_ROWS:
        raise ValueError(f"a sheet holds 1 to {MAX_COLUMNS * MAX_ROWS} cards, not {count}")
    limit_w, limit_h = limit or (face_w, face_h)
    best, best_key = None, None
    for columns in range(1, MAX_COLUMNS + 1):
        rows = math.ceil(count / columns)
        if rows > MAX_ROWS:
            continue
        scale = card_scale(columns, rows, face_w, face_h, max_side)
        w = slot_side(face_w * scale, min(max_side // columns, limit_w))
        h = slot_side(face_h * scale, min(max_side // rows, limit_h))
        key = (-(w * h), columns * rows - count, columns * w * rows * h, columns)
        if best_key is None or key < best_key:
            best, best_key = Grid(columns, rows, w, h), key
    assert best is not None
    return best


def split(count: int, sheets: int) -> list[int]:
    """`count` cards over `sheets` sheets as evenly as possible, fuller sheets first."""
    base, extra = divmod(count, sheets)
    return [base + (1 if i < extra else 0) for i in range(sheets)]


def plan_sheets(count: int, face_w: int, face_h: int, max_side: int = MAX_SIDE,
                limit: Size | None = None) -> list[Grid]:
    """One grid per sheet for `count` distinct faces of face_w x face_h px (the trim; `limit`: the whole
    face, see best_grid; the module docstring says how)."""
    if count < 1:
        return []
    per_sheet = MAX_COLUMNS * MAX_ROWS
    fewest = math.ceil(count / per_sheet)

    def plan(sheets: int) -> list[Grid]:
        return [best_grid(n, face_w, face_h, max_side, limit) for n in split(count, sheets)]

    def sharpness(grids: list[Grid]) -> int:
        return min(g.card_w * g.card_h for g in grids)

    sharpest = sharpness(plan(count))  # one card a sheet: the best any plan can do
    for sheets in range(fewest, count + 1):
        grids = plan(sheets)
        if math.sqrt(sharpness(grids) / sharpest) >= SHARPNESS_TOLERANCE:
            return grids
    return plan(count)


def compose(grid: Grid, tiles: list[Tile | None]) -> Image.Image:
    """A PNG sheet's pixels: the tile tiles[i] (a face cut to the grid's slot) in slot i; None a plain card,
    empty slots white."""
    if len(tiles) > grid.slots:
        raise ValueError(f"{len(tiles)} faces don't fit a {grid.columns} x {grid.rows} sheet")
    sheet = Image.new("RGB", grid.size, None)  # not cleared: every slot is painted below (16 ms saved a sheet)
    size = (grid.card_w, grid.card_h)
    # Pillow decodes without the GIL: a thread per core reads the tiles side by side.
    with ThreadPoolExecutor(max_workers=max(1, min(os.cpu_count() or 1, len(tiles)))) as pool:
        images = pool.map(lambda tile: plain_card(size) if tile is None else tile.read(), tiles)
        for slot, image in enumerate(images):
            sheet.paste(image, grid.box(slot)[:2])
    for slot in range(len(tiles), grid.slots):
        sheet.paste(EMPTY_SLOT, grid.box(slot))
    return sheet


RESTART = re.compile(rb"\xff[\xd0-\xd7]")  # a restart marker: 0xFF is stuffed (0xFF00) in entropy-coded data
BLOCK = 8  # px: a JPEG block, and an MCU at 4:4:4


def _header_end(data: bytes, kind: int) -> int:
    """Where the marker `kind` (0xFF, kind) of a JPEG's header is, walking its segments from SOI; the
    length of `data` when there is none."""
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF and data[at + 1] != kind:
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")  # a marker and its segment's length
    return at if data[at:at + 2] == bytes((0xFF, kind)) else len(data)


def _tile_parts(data: bytes, rows: int) -> tuple[bytes, list[bytes]]:
    """A JPEG tile of `rows` rows of blocks taken apart: its header (SOI to SOS) and its entropy-coded
    segments, one per row of blocks. ValueError for a file cut short or a restart missing or misnumbered."""
    at = _header_end(data, 0xDA)
    if not data.startswith(b"\xff\xd8") or at + 4 > len(data) or not data.endswith(b"\xff\xd9"):
        raise ValueError("not a whole JPEG")
    at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    entropy = data[at:-2]
    markers = RESTART.findall(entropy)
    if len(markers) != rows - 1 or any(m[1] != 0xD0 + k % 8 for k, m in enumerate(markers)):
        raise ValueError("not a JPEG with a restart marker after every row of blocks")
    return data[:at], RESTART.split(entropy)


def splice(grid: Grid, tiles: list[bytes | None], quality: int) -> bytes:
    """A JPEG sheet: in slot i the JPEG tile tiles[i] (faces.jpeg_tile of a face cut to the grid's slot),
    None a plain card, empty slots white; the tiles' rows of blocks put together in the sheet's order,
    restart markers numbered again. The same bytes as `encode(compose(...))` in JPEG with
    restart_marker_blocks set to a slot's width in blocks. ValueError for a tile that is not a JPEG tile
    of the slot's size and `quality` (its header not a plain slot's: another size, quality, subsampling,
    tables or restart interval), or a damaged one."""
    if len(tiles) > grid.slots:
        raise ValueError(f"{len(tiles)} faces don't fit a {grid.columns} x {grid.rows} sheet")
    size = (grid.card_w, grid.card_h)
    if size[0] % BLOCK or size[1] % BLOCK:
        raise ValueError(f"a JPEG sheet's slots are whole blocks of {BLOCK} px, not {size[0]} x {size[1]}")
    rows = size[1] // BLOCK
    empty = _tile_parts(solid_tile(size, EMPTY_SLOT, quality), rows)
    header = empty[0]
    filled = [solid_tile(size, PLAIN_CARD, quality) if tile is None else tile for tile in tiles]
    parts = [_tile_parts(tile, rows) for tile in filled] + [empty] * (grid.slots - len(tiles))
    if any(other != header for other, _ in parts):
        raise ValueError(f"a tile of the sheet is not a JPEG tile of {size[0]} x {size[1]} px at quality {quality}")
    frame = _header_end(header, 0xC0) + 5  # the baseline frame's height, then width
    width, height = grid.size
    out = [header[:frame], height.to_bytes(2, "big"), width.to_bytes(2, "big"), header[frame + 4:]]
    markers = [bytes((0xFF, 0xD0 + k)) for k in range(8)]
    count = 0
    for row in range(grid.rows):
        slots = [segments for _, segments in parts[row * grid.columns:(row + 1) * grid.columns]]
        for line in range(rows):
            for segments in slots:
                if count:
                    out.append(markers[(count - 1) % 8])
                out.append(segments[line])
                count += 1
    out.append(b"\xff\xd9")
    return b"".join(out)


@functools.lru_cache(maxsize=None)
def solid_tile(size: Size, colour: tuple[int, int, int], quality: int) -> bytes:
    """The JPEG tile of one colour (a plain card, an empty slot), encoded once a process."""
    from ...faces import jpeg_tile

    return jpeg_tile(Image.new("RGB", size, colour), quality)


def encode(image: Image.Image, image_format: str, quality: int) -> tuple[bytes, str]:
    """(bytes, extension) of a PNG sheet, or of a token's image. JPEG uses 4:4:4 chroma so coloured text
    stays sharp; both are deterministic."""
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
    canvas = Image.new("RGB", (size, size), THUMBNAIL_BACKGROUND)
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
    canvas.save(buffer, format="PNG", compress_level=3)  # of 6: 40 % less time, and no larger here
    return buffer.getvalue()


def plain_card(size: Size) -> Image.Image:
    """A plain back for cards whose component has no back template."""
    return Image.new("RGB", size, PLAIN_CARD)
