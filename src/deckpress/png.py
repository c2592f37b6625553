"""PNG files of card faces, written in less than half the time Pillow's encoder takes.

Pillow's PNG encoder, even at zlib level 1, spends most of its time choosing a filter for each row
(PNG's adaptive filtering). Card faces are mostly flat colour, which deflate compresses as well
unfiltered: every row filtered with None and zlib level 1 gives files about as small as Pillow's
level 1 (0.85 to 1.15 times), in about 40 % of its time (4 ms for a poker face). Photographs and smooth
gradients are the exception: their rows need the filters (unfiltered, a face covered by a photo is about
1.5 times larger, a smooth gradient many times). So a sample of the rows is compressed first, and a
face whose sample does not shrink below POOR_RATIO of its size is handed to Pillow's encoder (level 1).

Either way the file is an 8-bit RGB PNG without interlace (IHDR, pHYs, IDAT, IEND), the same bytes
for the same pixels, whose IDAT the PDFs embed as it is (pdf/canvas.py PngXObject, through image_data).
Reading: `read` (a face or tile as an image) and `image_data` (a file's zlib data, undecoded).
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # no Pillow to import: the image brings its own
    from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_LEVEL = 1
SAMPLE_ROWS = 16  # rows in each strip of the sample: deflate's 32 KB window spans about 13 rows of a face
SAMPLE_EVERY = 16  # one strip in this many is sampled: 1/16 of the rows
# Unfiltered, the shipped decks' sampled faces compress to 1-6 % of their size; a photo across the sampled
# rows, or a smooth gradient, does worse (7.5 % to 80 %), and there Pillow's filters give files 1.3 times
# (a photo over a twentieth of the face) to 15 times (a gradient) smaller.
POOR_RATIO = 0.065


def encode(image: "Image.Image", dpi: int) -> bytes:
    """The RGB `image` as PNG bytes, `dpi` recorded in its pHYs chunk."""
    if image.mode != "RGB":
        raise ValueError(f"encode writes RGB images, not {image.mode}")
    width, height = image.size
    stride = 3 * width
    raw = memoryview(image.tobytes())
    rows = [raw[start:start + stride] for start in range(0, len(raw), stride)]
    if compresses_poorly(rows):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=ZLIB_LEVEL)
        return buffer.getvalue()
    per_metre = round(dpi / 0.0254)
    return b"".join([
        SIGNATURE,
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),  # 8-bit RGB, no interlace
        chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),  # pixels per metre
        chunk(b"IDAT", deflate(rows)),
        chunk(b"IEND", b""),
    ])


def deflate(rows: list[memoryview]) -> bytes:
    """The rows, each after its filter type byte (0, None), deflated at ZLIB_LEVEL. Fed to zlib row by
    row: joining them first would copy the image twice, which takes longer than deflating it."""
    stream = zlib.compressobj(ZLIB_LEVEL)
    parts = []
    for row in rows:
        parts.append(stream.compress(b"\0"))
        parts.append(stream.compress(row))
    parts.append(stream.flush())
    return b"".join(parts)


def compresses_poorly(rows: list[memoryview]) -> bool:
    """Whether the unfiltered rows of a sample (strips of SAMPLE_ROWS rows, one in SAMPLE_EVERY)
    deflate to more than POOR_RATIO of their size."""
    step = SAMPLE_ROWS * SAMPLE_EVERY
    sample = [row for y in range(0, len(rows), step) for row in rows[y:y + SAMPLE_ROWS]]
    return len(deflate(sample)) > POOR_RATIO * len(sample) * (len(sample[0]) + 1)


def chunk(kind: bytes, body: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def image_data(path: Path) -> bytes:
    """The zlib data of a PNG file: its IDAT chunks, joined."""
    data = path.read_bytes()
    pos, idat = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        elif kind == b"IEND":
            break
        pos += 12 + length
    if not idat:
        raise ValueError(f"{path.name} holds no image data")
    return b"".join(idat)


def read(path) -> "Image.Image":
    """The PNG file at `path` as an RGB image, decoded once: with no copy when it is RGB already (a face,
    a tile), converted otherwise."""
    from PIL import Image

    image = Image.open(path)
    image.load()
    return image if image.mode == "RGB" else image.convert("RGB")
