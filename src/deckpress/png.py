"""PNG files of card faces, written in a fifth of the time Pillow's encoder takes.

Pillow's PNG encoder, even at zlib level 1, spends most of its time choosing a filter for each row
(PNG's adaptive filtering). Card faces are mostly flat colour, which deflate compresses as well
unfiltered: every row filtered with None gives files about as small as Pillow's level 1. The deflate is
zlib-ng's (`compress`) at its level 3, the fastest that keeps files small, and one that gives the same bytes
for the same data and level in every process and on every CPU (zlib-ng 2.2 and later): a build must give the
same bytes for the same inputs. Faces are read back (`read`) with zlib-ng's inflate, the fastest one
measured (bench/png.py). Photographs and smooth gradients are the exception: their rows need the filters
(unfiltered, a face covered by a photo is about 1.5 times larger, a smooth gradient many times). So a sample
of the rows is compressed first, and a face whose sample does not shrink below POOR_RATIO of its size is
handed to Pillow's encoder (level 1).
bench/README.md gives the figures of these choices and of the ones not taken.

Either way the file is an 8-bit RGB PNG without interlace (IHDR, pHYs, IDAT, IEND), the same bytes
for the same pixels, whose IDAT the PDFs embed as it is (builders/pdf/canvas.py Images, through image_data):
a standard zlib stream, which any PNG reader or PDF viewer inflates.
Reading: `read` (a face or tile as an image) and `image_data` (a file's zlib data, undecoded).
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from zlib_ng import zlib_ng

if TYPE_CHECKING:  # no Pillow to import: the image brings its own
    from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_LEVEL = 1  # Pillow's, for the faces it encodes
LEVEL = 3  # zlib-ng's, the last of its fast levels: files a sixth larger than libdeflate's, a ninth than at 5
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
    stride = 3 * width + 1  # a row of the PNG: its filter type byte, then its pixels
    # Pillow packs each row into `stride` bytes, the byte after its pixels 0: that byte, shifted to the front of
    # the next row, is the row's filter type (0, None). The rows as PNG has them in one copy, without a join.
    rows = b"\0" + memoryview(image.tobytes("raw", "RGB", stride))[:-1]
    if compresses_poorly(rows, stride):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", dpi=(dpi, dpi), compress_level=ZLIB_LEVEL)
        return buffer.getvalue()
    per_metre = round(dpi / 0.0254)
    return b"".join([
        SIGNATURE,
        chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),  # 8-bit RGB, no interlace
        chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),  # pixels per metre
        chunk(b"IDAT", compress(rows)),
        chunk(b"IEND", b""),
    ])


def compress(data: bytes) -> bytes:
    """`data` as a zlib stream: the same bytes for the same data, in every process."""
    return zlib_ng.compress(data, LEVEL)


def compresses_poorly(rows: bytes, stride: int) -> bool:
    """Whether a sample of the unfiltered `rows` (each `stride` bytes, its filter type byte first): strips of
    SAMPLE_ROWS rows, one in SAMPLE_EVERY, deflates to more than POOR_RATIO of its size."""
    view, strip = memoryview(rows), SAMPLE_ROWS * stride
    sample = b"".join([view[start:start + strip] for start in range(0, len(rows), strip * SAMPLE_EVERY)])
    return len(compress(sample)) > POOR_RATIO * len(sample)


def chunk(kind: bytes, body: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _chunks(data: bytes) -> tuple[bytes, bytes]:
    """The IHDR body and the joined IDAT chunks of PNG bytes."""
    pos, header, idat = 8, b"", []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IHDR":
            header = data[pos + 8:pos + 8 + length]
        elif kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + length])
        elif kind == b"IEND":
            break
        pos += 12 + length
    return header, b"".join(idat)


def image_data(path: Path) -> bytes:
    """The zlib data of a PNG file: its IDAT chunks, joined."""
    return data_of(path.read_bytes(), path.name)


def data_of(data: bytes, name: str) -> bytes:
    """The zlib data of the PNG bytes `data` (of the file `name`)."""
    idat = _chunks(data)[1]
    if not idat:
        raise ValueError(f"{name} holds no image data")
    return idat


def read(path) -> "Image.Image":
    """The PNG file at `path` as an RGB image. A file `encode` wrote unfiltered (a face, a tile) is inflated
    here and its rows taken as they are; any other by Pillow, converted to RGB where it is not (and a damaged
    file raises Pillow's error)."""
    from PIL import Image

    data = Path(path).read_bytes()
    header, idat = _chunks(data) if data.startswith(SIGNATURE) else (b"", b"")
    try:
        rows = _unfiltered_rows(header, idat)
    except zlib_ng.error:
        rows = None
    if rows is not None:
        width, height = struct.unpack(">II", header[:8])
        return Image.frombuffer("RGB", (width, height), memoryview(rows)[1:], "raw", "RGB", 3 * width + 1, 1)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image if image.mode == "RGB" else image.convert("RGB")


def _unfiltered_rows(header: bytes, idat: bytes) -> bytes | None:
    """The inflated rows of an 8-bit RGB PNG without interlace whose rows are all unfiltered, each after its
    filter byte; None for any other. The first row's filter byte is inflated alone first: a file of Pillow's
    seldom starts unfiltered, and is then not inflated twice."""
    if header[8:] != b"\x08\x02\x00\x00\x00" or zlib_ng.decompressobj().decompress(idat, 1) != b"\0":
        return None
    width, height = struct.unpack(">II", header[:8])
    stride = 3 * width + 1
    rows = zlib_ng.decompress(idat)
    return rows if len(rows) == stride * height and rows[::stride].count(0) == height else None
