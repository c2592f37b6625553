"""deckpress's PNG writer (png.py): valid files with the exact pixels, read back by Pillow and carried
into the PDFs; Pillow's own encoder for photo-like faces."""

from __future__ import annotations

import hashlib
import io
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageDraw
from pypdf import PdfReader

from deckpress.builders.pdf.canvas import Images, new_canvas, save
from deckpress.png import compress, encode, image_data, read

DPI = 300


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, body) of every chunk of a PNG file, each CRC checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, out = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        pos += 12 + length
    assert pos == len(data)
    return out


def card_face() -> Image.Image:
    """A poker face with bleed, drawn like a card: flat panels, a disc, a rule and text."""
    image = Image.new("RGB", (825, 1125), "#2a9d4a")
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((40, 40, 785, 1085), radius=50, fill="#fffdf6")
    draw.ellipse((212, 250, 612, 650), fill="#2a9d4a", outline="#ffffff", width=12)
    draw.line((150, 720, 675, 720), fill="#2a9d4a", width=5)
    for row in range(6):
        draw.text((120, 780 + row * 40), "Score 3 points, then draw a card.", fill="#333333", font_size=34)
    return image


def photo_face() -> Image.Image:
    """A face covered by a photo-like picture: smooth shading with grain, no two neighbours equal."""
    rng = random.Random(14)
    shade = Image.radial_gradient("L").resize((825, 1125))
    grain = Image.frombytes("L", (825, 1125), bytes(rng.randrange(0, 24) for _ in range(825 * 1125)))
    mirrored = shade.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    return Image.merge("RGB", (shade, Image.blend(shade, grain, 0.3), mirrored))


def pillow_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(DPI, DPI), compress_level=1)
    return buffer.getvalue()


def test_card_face_round_trips_through_pillow():
    face = card_face()
    data = encode(face, DPI)
    kinds = [kind for kind, _ in chunks(data)]
    assert kinds == [b"IHDR", b"pHYs", b"IDAT", b"IEND"]
    body = dict(chunks(data))
    assert struct.unpack(">IIBBBBB", body[b"IHDR"]) == (825, 1125, 8, 2, 0, 0, 0)
    assert struct.unpack(">IIB", body[b"pHYs"]) == (11811, 11811, 1)  # 300 DPI in pixels per metre
    with Image.open(io.BytesIO(data)) as back:
        back.load()
        assert back.mode == "RGB" and back.size == face.size
        assert back.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
        assert back.tobytes() == face.tobytes()
    assert encode(face, DPI) == data  # the same bytes every time
    assert data != pillow_png(face)  # written by our encoder, not Pillow's...
    assert len(data) <= 1.15 * len(pillow_png(face))  # ...about as small


def test_rows_are_unfiltered():
    """Every row has filter None: the IDAT inflates to the pixels, a zero byte before each row."""
    face = card_face()
    rows = zlib.decompress(dict(chunks(encode(face, DPI)))[b"IDAT"])
    stride = 3 * face.width
    assert rows == b"".join(b"\0" + face.tobytes()[y * stride:(y + 1) * stride] for y in range(face.height))


def test_a_photo_like_face_is_encoded_by_pillow():
    """Unfiltered, a photo compresses poorly: those faces get Pillow's encoder, which is smaller."""
    photo = photo_face()
    data = encode(photo, DPI)
    assert data == pillow_png(photo)
    raw = photo.tobytes()
    stride = 3 * photo.width
    unfiltered = zlib.compress(b"".join(b"\0" + raw[i:i + stride] for i in range(0, len(raw), stride)), 1)
    assert len(data) < 0.9 * len(unfiltered)
    with Image.open(io.BytesIO(data)) as back:
        assert back.tobytes() == raw


def test_a_photo_set_in_the_middle_of_a_card_is_found_by_the_sample():
    """The sample of rows spans the face: a card whose photo lies between its title and its text (rows 300
    to 800, none of the first strip) is handed to Pillow's encoder as well."""
    face = card_face()
    face.paste(photo_face().crop((0, 0, 745, 500)), (40, 300))
    assert encode(face, DPI) == pillow_png(face)


def test_a_face_deflates_to_the_same_bytes_in_every_process(tmp_path):
    """A build's files are the same bytes for the same inputs, whichever process drew them: fresh processes,
    each after allocations of its own (a compressor that read memory it had not set would differ), deflate a
    face's rows to the bytes this one does."""
    face = card_face()
    rows = b"".join(b"\0" + face.tobytes()[y * 3 * face.width:(y + 1) * 3 * face.width] for y in range(face.height))
    (tmp_path / "rows").write_bytes(rows)
    code = ("import hashlib, os, sys\nfrom deckpress import png\n"
            "junk = [os.urandom(n) for n in range(1000, 400000, int(sys.argv[2]))]\n"
            "print(hashlib.sha256(png.compress(open(sys.argv[1], 'rb').read())).hexdigest())\n")
    runs = [subprocess.run([sys.executable, "-c", code, str(tmp_path / "rows"), str(step)], capture_output=True,
                           text=True, timeout=120) for step in (9000, 23000, 61000)]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    assert {run.stdout.strip() for run in runs} == {hashlib.sha256(compress(rows)).hexdigest()}


def test_read_gives_the_pixels_of_every_kind_of_png(tmp_path):
    """read() takes the rows of a file encode() wrote unfiltered as they are, and leaves any other PNG
    (filtered by Pillow, grey, with alpha, paletted) to Pillow: each comes back RGB, exact. A damaged one
    raises Pillow's error."""
    face = card_face()
    cases = {"ours.png": (encode(face, DPI), face), "photo.png": (encode(photo_face(), DPI), photo_face())}
    for name, image in (("filtered.png", face), ("grey.png", face.convert("L")), ("alpha.png", face.convert("RGBA")),
                        ("palette.png", face.quantize(16))):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        cases[name] = (buffer.getvalue(), image.convert("RGB"))
    for name, (data, pixels) in cases.items():
        (tmp_path / name).write_bytes(data)
        back = read(tmp_path / name)
        assert back.mode == "RGB" and back.size == pixels.size, name
        assert back.tobytes() == pixels.tobytes(), name
    damaged = bytearray(cases["ours.png"][0])
    damaged[60:80] = b"\xff" * 20  # inside the image data
    (tmp_path / "damaged.png").write_bytes(bytes(damaged))
    with pytest.raises(OSError):  # Pillow's error, as for any other damaged PNG
        read(tmp_path / "damaged.png")


def test_only_rgb_is_written():
    with pytest.raises(ValueError):
        encode(Image.new("RGBA", (10, 10)), DPI)


def pdf_images(path: Path) -> list[bytes]:
    return [image.image.convert("RGB").tobytes() for page in PdfReader(path).pages for image in page.images]


def test_both_encodings_carry_their_pixels_into_a_pdf(tmp_path):
    """The PDF embeds the face's IDAT as it is, with the PNG predictors: decoded, it is the face."""
    faces = {"card.png": card_face(), "photo.png": photo_face()}
    for name, face in faces.items():
        (tmp_path / name).write_bytes(encode(face, DPI))
    images = Images(tmp_path)
    canvas = new_canvas((210, 297), "t", "a", "s")
    for name, x in (("card.png", 20), ("photo.png", 300)):
        canvas.saveState()
        images.draw(canvas, name, (180, 0, 0, 245, x, 400))
        canvas.restoreState()
    canvas.showPage()
    save(canvas, tmp_path / "faces.pdf", images)
    with pikepdf.open(tmp_path / "faces.pdf") as pdf:  # passed through, not re-encoded
        stored = sorted(xobject.read_raw_bytes() for xobject in pdf.pages[0].Resources.XObject.values())
    assert stored == sorted(image_data(tmp_path / name) for name in faces)
    assert sorted(pdf_images(tmp_path / "faces.pdf")) == sorted(face.tobytes() for face in faces.values())


def test_a_built_pdf_shows_the_built_faces(built):
    """Every face a real build's PDF draws is, decoded from the PDF, exactly one of the face files."""
    faces = {Image.open(path).tobytes() for path in (built / "faces").rglob("*.png")}
    drawn = pdf_images(built / "print" / "score-a4.pdf")
    assert drawn and all(image in faces for image in drawn)
