"""A reportlab canvas set up for deckpress: millimetres, embedded DejaVu fonts, images stored once,
streams compressed without ASCII85, and byte-identical output for the same input.

The pages are drawn through reportlab's public API alone. What it cannot write, `save` writes into the file
reportlab made (pdffile.py): each face's image, stored as its PNG's own data, in the place of the empty form
the pages draw (Images), and the font subsets' tags (tag_subsets).
"""

from __future__ import annotations

import hashlib
import re
import struct
import zlib
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ... import png
from ...faces import CACHE
from ...fonts import builtin_fonts
from ...inputs import Records, artifact_key
from .pdffile import Layout, Writer
from .pdfx import HEADER, Cmyk, cmyk_image, mark_pdfx

# reportlab font names of the DejaVu faces deckpress sets PDFs in (all embedded as subsets).
FONTS = {
    "sans": "DeckpressSans",
    "sans-bold": "DeckpressSans-Bold",
    "sans-oblique": "DeckpressSans-Oblique",
    "sans-bold-oblique": "DeckpressSans-BoldOblique",
    "mono": "DeckpressMono",
}
SANS, BOLD, ITALIC = FONTS["sans"], FONTS["sans-bold"], FONTS["sans-oblique"]


@lru_cache(maxsize=None)
def pdf_font(key: str) -> str:
    """The reportlab name of the DejaVu face `key` (of FONTS), the face registered with reportlab the
    first time a PDF needs it in the process (reading a face takes some 20 ms; most PDFs use two)."""
    pdfmetrics.registerFont(TTFont(FONTS[key], str(builtin_fonts()[key])))
    return FONTS[key]


@lru_cache(maxsize=1)
def register_fonts() -> dict[str, str]:
    """Register the faces every PDF uses (sans and sans-bold; the others as they are needed, see
    pdf_font) and the sans family, whose <b> and <i> reportlab's paragraphs follow."""
    pdf_font("sans")
    pdf_font("sans-bold")
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=BOLD, italic=ITALIC,
                                  boldItalic=FONTS["sans-bold-oblique"])
    return dict(FONTS)


@contextmanager
def plain_streams() -> Iterator[None]:
    """Compressed streams without ASCII85 (~25% smaller), restoring reportlab's setting afterwards."""
    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


PLACEHOLDER = re.compile(rb"%deckpress image ([0-9a-f]{16})\n")
CMYK_MAGIC = b"deckpress cmyk\n\0"  # a face kept in CMYK (CmykFaces)


class Images:
    """The face images of one build's PDFs, each stored once in a PDF however many times its pages draw it.

    A page draws a face as a form XObject (reportlab's beginForm and doForm), empty but for a comment naming
    it, which `save` replaces in the finished file by the face's image: the PNG's zlib data as it is (a valid
    PDF Flate stream with the PNG predictors), so an image costs no re-compression and keeps its exact pixels;
    with `converted`, the face as it converts them (CMYK for PDF/X, lightened for a draft). reportlab's
    drawImage would decode every PNG and deflate it again. Each form is named after the face's path relative to
    the output folder (not the absolute path drawImage would hash), so the same deck gives the same bytes
    wherever it is built.
    """

    def __init__(self, root: Path, converted: Converted | None = None):
        self.root = root
        self.converted = converted
        self._names: dict[str, str] = {}  # the form's name of each face drawn, by its path

    def name(self, rel: str) -> str:
        """The name of the face `rel`'s form: 16 hex digits of its path's sha256."""
        if rel not in self._names:
            self._names[rel] = hashlib.sha256(rel.encode()).hexdigest()[:16]
        return self._names[rel]

    def draw(self, canvas: Canvas, rel: str, matrix: tuple[float, float, float, float, float, float]) -> None:
        """Paint the image `rel` (a path in the output folder), its unit square mapped by `matrix` (a, b,
        c, d, e, f: points), in the canvas's current state; the caller saves and restores it."""
        name = self.name(rel)
        if not canvas.hasForm(name):  # its first use in this PDF
            canvas.setPageCompression(0)  # the form's comment stays readable in the file (see save)
            canvas.beginForm(name, 0, 0, 1, 1)
            canvas.addLiteral(f"%deckpress image {name}\n")
            canvas.endForm()
            canvas.setPageCompression(1)  # as new_canvas made it
        canvas.transform(*matrix)
        canvas.doForm(name)

    def numbers(self, canvas: Canvas, pdf: Layout) -> dict[str, int]:
        """The object number of each face's form in `pdf`, the file of `canvas`, by the face's path."""
        drawn = {name: rel for rel, name in self._names.items() if canvas.hasForm(name)}
        found = {drawn.get(match[1].decode(), ""): n for n, match in pdf.find(PLACEHOLDER)}
        if len(found) != len(drawn) or "" in found:
            raise RuntimeError(f"reportlab wrote {len(found)} of the {len(drawn)} faces' forms as Images.draw makes "
                               "them")
        return dict(sorted(found.items()))

    def writer(self, rel: str) -> Writer:
        """What writes the image object of the face `rel` (its data read as it is written, and not kept: a
        build's memory does not grow with its faces)."""
        converted = self.converted
        if converted is not None:
            return lambda n: image_object(n, *converted.image(rel), converted.space, converted.predictors)
        path = self.root / rel
        return lambda n: image_object(n, *png_image(path), "DeviceRGB", 3)


class Converted:
    """The faces of a build as a kind of PDF converts them, each kept in the output folder's cache/<kind>/ and
    recorded with the face's digest and the conversion's parameters: a face is converted once however many of
    the build's PDFs print it, the next build takes it as it is while the face is unchanged, and a PDF taken
    from the previous build brings its faces' conversions along (Records.put_again). A conversion is slow
    (bench/README.md), and a PDF whose cards moved (a count changed, a card added) places every face again."""

    kind = ""  # the folder in cache/
    space = "DeviceRGB"  # the images' colour space in the PDF
    predictors = 3  # the colours of the PNG predictors the data is filtered with; 0: none

    def __init__(self, records: Records, tag: str, parameters: list):
        self.records = records
        self.tag = tag  # in the kept file's name: the parameters, for the reader
        self.parameters = parameters

    def image(self, rel: str) -> tuple[int, int, bytes]:
        """The width, height and zlib data of the face `rel` (a path in the output folder), converted."""
        return self.read(self.kept(rel))

    def kept(self, rel: str) -> Path:
        """The file of the face `rel` converted, in this build: taken from the previous one while the face is
        the same, else made."""
        kept = f"{CACHE}/{self.kind}/{rel.removesuffix('.png')}@{self.tag}"
        key = artifact_key(self.kind, self.records.digest(rel), self.parameters)
        target = self.records.out / kept
        if not self.records.reuse_file(kept, key, kept):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)  # a link to the previous build's file, which stays as it is
            target.write_bytes(self.convert(self.records.out / rel))
            self.records.keep(kept, key, kept, more={"cached": True})
        return target

    def convert(self, face: Path) -> bytes:
        """The bytes of the kept file of the face at `face`."""
        raise NotImplementedError

    def read(self, path: Path) -> tuple[int, int, bytes]:
        """The width, height and zlib data of the kept file at `path`."""
        raise NotImplementedError


class Drafts(Converted):
    """The faces lightened to `coverage` (0 to 1, ink.lightened) for a low-ink draft, kept as PNGs."""

    kind = "drafts"

    def __init__(self, records: Records, coverage: float):
        super().__init__(records, f"ink{coverage * 100:g}.png", [coverage])
        self.coverage = coverage

    def convert(self, face: Path) -> bytes:
        from ...ink import lightened
        from ...render import DPI

        return png.encode(lightened(png.read(face), self.coverage), DPI)

    def read(self, path: Path) -> tuple[int, int, bytes]:
        return png_image(path)


class CmykFaces(Converted):
    """The faces in the CMYK of `cmyk` (PDF/X), kept as their width and height (big-endian 32 bits) after
    CMYK_MAGIC, then the deflated pixels."""

    kind, space, predictors = "cmyk", "DeviceCMYK", 0

    def __init__(self, records: Records, cmyk: Cmyk):
        super().__init__(records, f"{cmyk.icc_digest[:12]}-{cmyk.ink_limit:g}.cmyk",
                         [cmyk.icc_digest, cmyk.ink_limit])
        self.cmyk = cmyk

    def convert(self, face: Path) -> bytes:
        width, height, data = cmyk_image(face, self.cmyk)
        return CMYK_MAGIC + struct.pack(">II", width, height) + data

    def read(self, path: Path) -> tuple[int, int, bytes]:
        data = path.read_bytes()
        if not data.startswith(CMYK_MAGIC):
            raise ValueError(f"{path} is not a face in CMYK as deckpress keeps it")
        width, height = struct.unpack(">II", data[len(CMYK_MAGIC):len(CMYK_MAGIC) + 8])
        return width, height, data[len(CMYK_MAGIC) + 8:]


def png_image(path: Path) -> tuple[int, int, bytes]:
    """The width, height and zlib data of an 8-bit RGB PNG without interlace, as png.encode writes faces."""
    with open(path, "rb") as file:
        head = file.read(33)  # signature and IHDR, which PNG puts first
    if head[:8] != png.SIGNATURE or head[12:16] != b"IHDR" or head[24:29] != b"\x08\x02\x00\x00\x00":
        raise ValueError(f"{path} is not an 8-bit RGB PNG without interlace")
    width, height = struct.unpack(">II", head[16:24])
    return width, height, png.image_data(path)


def image_object(n: int, width: int, height: int, data: bytes, space: str, predictors: int = 0) -> list[bytes]:
    """Image object `n`: `data` deflated, with the PNG predictors of `predictors` colours when given."""
    parms = (f"/DecodeParms << /BitsPerComponent 8 /Colors {predictors} /Columns {width} /Predictor 15 >> "
             if predictors else "")
    head = (f"{n} 0 obj\n<<\n/BitsPerComponent 8 /ColorSpace /{space} {parms}/Filter /FlateDecode /Height {height} "
            f"/Length {len(data)} /Subtype /Image /Type /XObject /Width {width}\n>>\nstream\n")
    return [head.encode(), data, b"\nendstream\nendobj\n"]


DUPLEX = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "simplex": "Simplex"}


def new_canvas(page_mm: tuple[float, float], title: str, author: str, subject: str, duplex: str | None = None,
               pdfx: bool = False) -> Canvas:
    """A canvas for a PDF that `save` writes, fonts registered, output invariant (no dates, a fixed file id).

    Its /ViewerPreferences ask viewers to print at actual size (/PrintScaling /None, PDF 1.6) and,
    with `duplex` (long-edge, short-edge or simplex), to preselect that duplex mode (/Duplex, 1.7).
    A `pdfx` file (for a print shop, PDF 1.4) has none.
    """
    register_fonts()
    canvas = Canvas(None, pagesize=(page_mm[0] * mm, page_mm[1] * mm), invariant=1,
                    pageCompression=1, pdfVersion=(1, 4) if pdfx else (1, 7), initialFontName=SANS,
                    initialFontSize=9)
    if not pdfx:
        canvas.setViewerPreference("PrintScaling", "None")
        if duplex is not None:
            canvas.setViewerPreference("Duplex", DUPLEX[duplex])
    canvas.setTitle(title)
    canvas.setAuthor(author)
    canvas.setSubject(subject)
    canvas.setCreator("deckpress")
    canvas.setProducer("deckpress (reportlab)")
    return canvas


def save(canvas: Canvas, target: Path, images: Images | None = None, pdfx: Cmyk | None = None) -> dict[str, int]:
    """Write the PDF of `canvas` to `target`: the file reportlab makes of it (getpdfdata, small: the faces are
    empty forms there) with the images of `images` in their forms' places and the font subsets tagged, written
    as it is made; with `pdfx` (the canvas made with pdfx), marked as PDF/X-1a of that conversion (mark_pdfx).
    Returns the object number of each face's image, by the face's path (see steps.printed)."""
    pdf = Layout.read(canvas.getpdfdata())
    if pdf is None:
        raise RuntimeError("reportlab wrote a PDF laid out otherwise than deckpress reads (pdffile.py)")
    objects = tag_subsets(pdf)
    numbers = images.numbers(canvas, pdf) if images is not None else {}
    objects.update({n: images.writer(rel) for rel, n in numbers.items()})
    if pdfx is None:
        pdf.write(target, objects)
    else:
        marks, added = mark_pdfx(pdf, pdfx)
        pdf.write(target, objects | marks, added, HEADER)
    return numbers


SUBSET = re.compile(rb"/BaseFont /([A-Z]{6})\+([^\s/<>\[\]()]+)")


def tag_subsets(pdf: Layout) -> dict[int, Writer]:
    """Each font subset's and its descriptor's objects, renamed: reportlab tags a subset with its number alone,
    so two fonts' first subsets share AAAAAA+, where the PDF standard (9.6.4) asks a tag that differs between
    subsets. Each tag here comes from a hash of the font's name and its embedded program, the same from build
    to build; it is as long as reportlab's, so the objects keep their lengths."""
    out: dict[int, Writer] = {}
    for n, match in pdf.find(SUBSET):
        font = pdf.object(n)
        descriptor = re.search(rb"/FontDescriptor (\d+) 0 R", font)
        if descriptor is None:
            continue
        described = pdf.object(int(descriptor[1]))
        program = re.search(rb"/FontFile2 (\d+) 0 R", described)
        if program is None:
            continue
        digest = hashlib.sha256(match[2] + _program(pdf.object(int(program[1])))).digest()
        old, new = match[1] + b"+" + match[2], bytes(ord("A") + b % 26 for b in digest[:6]) + b"+" + match[2]
        for number, data in ((n, font), (int(descriptor[1]), described)):
            out[number] = lambda _, renamed=data.replace(b"/" + old, b"/" + new): [renamed]
    return out


def _program(stream: bytes) -> bytes:
    """The font program in a FontFile2 stream object, which reportlab deflates (new_canvas compresses)."""
    return zlib.decompressobj().decompress(stream.split(b"\nstream\n", 1)[1])
