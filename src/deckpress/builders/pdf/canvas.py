"""A reportlab canvas set up for deckpress: millimetres, embedded DejaVu fonts, images stored once,
streams compressed without ASCII85, and byte-identical output for the same input."""

from __future__ import annotations

import copy
import hashlib
import re
import struct
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from reportlab import rl_config
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from ... import png
from ...fonts import builtin_fonts
from .pdfx import Cmyk, CmykXObject

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


class PngXObject(pdfdoc.PDFImageXObject):
    """An RGB or grey PNG embedded without decoding: its zlib data (IDAT) is a valid PDF Flate stream
    with the PNG predictors, so the image costs no re-compression and keeps its exact pixels. The data is
    read from the file as each PDF writes it, and not kept: a build's memory does not grow with its
    faces (a PDF is streamed to its file, see `save`)."""

    def __init__(self, name: str, path: Path):
        super().__init__(name)
        with open(path, "rb") as file:
            head = file.read(33)  # signature and IHDR, which PNG puts first
        if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
            raise ValueError("not a PNG")
        width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", head[16:29])
        if depth != 8 or color not in (0, 2) or interlace:
            raise ValueError("only 8-bit RGB or grey PNGs without interlace are passed through")
        self.path = path
        self.width, self.height, self.bitsPerComponent = width, height, 8
        self.colors = 3 if color == 2 else 1
        self.colorSpace = "DeviceRGB" if color == 2 else "DeviceGray"
        self._filters = ("FlateDecode",)
        self.mask = None

    def format(self, document):
        content = png.image_data(self.path)
        stream = pdfdoc.PDFStream(content=content)
        stream.dictionary.dict.update({
            "Type": pdfdoc.PDFName("XObject"), "Subtype": pdfdoc.PDFName("Image"),
            "Width": self.width, "Height": self.height, "BitsPerComponent": 8,
            "ColorSpace": pdfdoc.PDFName(self.colorSpace),
            "Filter": pdfdoc.PDFName("FlateDecode"),
            "DecodeParms": pdfdoc.PDFDictionary({"Predictor": 15, "Colors": self.colors,
                                                 "BitsPerComponent": 8, "Columns": self.width}),
            "Length": len(content)})
        stream.filters = ()  # already compressed: do not deflate again
        return stream.format(document)


class Images:
    """Image XObjects of one build, made once per file and shared by every PDF of the build.

    Each image is named after its path relative to the output folder (not the absolute path that
    reportlab's drawImage would hash), so the same deck gives the same bytes wherever it is built.
    """

    def __init__(self, root: Path, cmyk: Cmyk | None = None):
        self.root = root
        self.cmyk = cmyk  # PDF/X: every image converted to CMYK
        self._made: dict[str, pdfdoc.PDFImageXObject] = {}

    def xobject(self, rel: str) -> pdfdoc.PDFImageXObject:
        """The image's XObject, read once per build; copied into each PDF that draws it."""
        if rel not in self._made:
            name = hashlib.sha256(rel.encode()).hexdigest()[:16]
            path = self.root / rel
            try:
                obj: pdfdoc.PDFImageXObject = (CmykXObject(name, path, self.cmyk) if self.cmyk
                                               else PngXObject(name, path))
            except (ValueError, struct.error):
                obj = pdfdoc.PDFImageXObject(name, str(path))
            obj.name = name
            self._made[rel] = obj
        return self._made[rel]

    def numbers(self, canvas: Canvas) -> dict[str, int | None]:
        """The object number of each image the canvas drew, by its path (see `replace_objects`); None for an
        image reportlab encodes itself (not a PngXObject), which only a whole new PDF can change."""
        doc = canvas._doc
        out: dict[str, int | None] = {}
        for rel, template in self._made.items():
            number = doc.idToObjectNumberAndVersion.get(doc.getXObjectName(template.name))
            if number is not None:
                out[rel] = number[0] if isinstance(template, PngXObject) else None
        return out

    def draw(self, canvas: Canvas, rel: str, matrix: tuple[float, float, float, float, float, float]) -> None:
        """Paint the image `rel` (a path in the output folder), its unit square mapped by `matrix` (a, b,
        c, d, e, f: points), in the canvas's current state; the caller saves and restores it."""
        template = self.xobject(rel)
        doc = canvas._doc
        reg = doc.getXObjectName(template.name)
        obj = doc.idToObject.get(reg)
        if obj is None:  # first use in this PDF: register a copy (an object belongs to one document)
            obj = copy.copy(template)
            canvas._setXObjects(obj)
            doc.Reference(obj, reg)
            doc.addForm(obj.name, obj)
        canvas._currentPageHasImages = 1
        canvas.transform(*matrix)
        canvas._code.append(f"/{reg} Do")
        canvas._formsinuse.append(obj.name)


DUPLEX = {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge", "simplex": "Simplex"}


def new_canvas(target: Path, page_mm: tuple[float, float], title: str, author: str, subject: str,
               duplex: str | None = None, pdfx: bool = False) -> Canvas:
    """A canvas writing `target`, fonts registered, output invariant (no dates, a fixed file id).

    Its /ViewerPreferences ask viewers to print at actual size (/PrintScaling /None, PDF 1.6) and,
    with `duplex` (long-edge, short-edge or simplex), to preselect that duplex mode (/Duplex, 1.7).
    A `pdfx` file (for a print shop, PDF 1.4) has none.
    """
    register_fonts()
    canvas = Canvas(str(target), pagesize=(page_mm[0] * mm, page_mm[1] * mm), invariant=1,
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


class _StreamingFile(pdfdoc.PDFFile):
    """reportlab's collector of the PDF's bytes, writing them to `target` as each object is formatted,
    where reportlab's keeps them all and joins them at the end (twice the file in memory: 190 MB for the
    PDF of a 1,000-card deck)."""

    target = None  # the open file, set by `save`

    def __init__(self, pdfVersion=pdfdoc.PDF_VERSION_DEFAULT):
        super().__init__(pdfVersion)  # adds the header to self.strings
        for data in self.strings:
            self.target.write(data)
        self.strings = []
        self.write = self.target.write

    def format(self, document) -> bytes:
        return b""  # all written already


def save(canvas: Canvas) -> None:
    """canvas.save(), its font subsets tagged (tag_subsets), streaming the file out (_StreamingFile) rather
    than making it in memory first."""
    tag_subsets(canvas._doc)
    stream(canvas)


SUBSET_NAME = re.compile(r"/[A-Z]{6}\+(.+)")


def tag_subsets(doc: pdfdoc.PDFDocument) -> None:
    """Name the font subsets of `doc` before it is written: reportlab tags a subset with its number alone,
    so two fonts' first subsets share AAAAAA+, where the PDF standard (9.6.4) asks a tag that differs
    between subsets. Each tag here comes from a hash of the font's name and its subset program, the same
    from build to build. The subsets' objects are made here as reportlab makes them when it saves (its
    GetPDFData realizes doc.delayedFonts, then finds none left)."""
    for font in doc.delayedFonts:
        font.addObjects(doc)
    doc.delayedFonts = []
    for obj in list(doc.idToObject.values()):
        if not isinstance(obj, pdfdoc.PDFTrueTypeFont):
            continue
        match = SUBSET_NAME.fullmatch("/" + obj.BaseFont)
        descriptor = doc.idToObject[obj.FontDescriptor.name]
        if match is None or "FontFile2" not in descriptor.dict:
            continue
        program = doc.idToObject[descriptor.dict["FontFile2"].name].content
        digest = hashlib.sha256(match[1].encode() + program).digest()
        name = "".join(chr(ord("A") + b % 26) for b in digest[:6]) + "+" + match[1]
        obj.BaseFont = name
        descriptor.dict["FontName"] = pdfdoc.PDFName(name)


def stream(canvas: Canvas) -> None:
    """canvas.save(), the bytes written to the file as each object is formatted (_StreamingFile)."""
    if canvas._code:
        canvas.showPage()
    with open(canvas._filename, "wb") as target:
        _StreamingFile.target = target
        collector, pdfdoc.PDFFile = pdfdoc.PDFFile, _StreamingFile  # the name PDFDocument.format uses
        try:
            canvas._doc.SaveToFile(target, canvas)
        finally:
            pdfdoc.PDFFile, _StreamingFile.target = collector, None


class _Numbers:
    """What reportlab's formatting of an indirect object and of a cross-reference table asks of a document:
    each object's number (its id here) and offset."""

    encrypt = pdfdoc.NoEncryption()

    def __init__(self) -> None:
        self.idToObjectNumberAndVersion: dict[int, tuple[int, int]] = {}
        self.idToOffset: dict[int, int] = {}

    def table(self, count: int) -> bytes:
        xref = pdfdoc.PDFCrossReferenceTable()
        xref.addsection(0, list(range(1, count)))
        return xref.format(self)


END = re.compile(rb"startxref\n(\d+)\n%%EOF\n\Z")
XREF = re.compile(rb"xref\n0 (\d+)\n")


def replace_objects(old: bytes, objects: dict[int, pdfdoc.PDFObject]) -> bytes | None:
    """The PDF `old`, as `save` writes it, with each object numbered as a key of `objects` replaced by that
    object as reportlab formats it, the objects after it and the cross-reference table moved to match: the
    bytes reportlab writes when it makes the PDF with those objects in the first place (a face's image
    changed, nothing else). None when `old` is not laid out as reportlab lays out a file: objects 1 to N in
    order, then its cross-reference table, trailer and startxref."""
    end = END.search(old)
    head = XREF.match(old, int(end[1])) if end else None
    if head is None:
        return None
    xref, count = int(end[1]), int(head[1])
    trailer = head.end() + 20 * count
    try:
        offsets = [int(old[head.end() + 20 * n:head.end() + 20 * n + 10]) for n in range(1, count)]
    except ValueError:
        return None
    bounds = [*offsets, xref]
    before = _Numbers()
    for n, start in enumerate(offsets, 1):
        before.idToObjectNumberAndVersion[n] = (n, 0)
        before.idToOffset[n] = start
    if (not old.startswith(b"trailer\n", trailer) or old[xref:trailer] != before.table(count)
            or any(not old.startswith(b"%d 0 obj\n" % n, bounds[n - 1]) or bounds[n - 1] >= bounds[n]
                   for n in range(1, count)) or not set(objects) <= set(range(1, count))):
        return None
    after = _Numbers()
    pieces, at, shift = [], 0, 0
    for n in range(1, count):
        after.idToObjectNumberAndVersion[n] = (n, 0)
        after.idToOffset[n] = bounds[n - 1] + shift
        if n in objects:
            made = pdfdoc.PDFIndirectObject(n, objects[n]).format(after)
            pieces += [old[at:bounds[n - 1]], made]
            at = bounds[n]
            shift += len(made) - (bounds[n] - bounds[n - 1])
    pieces += [old[at:xref], after.table(count), old[trailer:end.start()],
               b"startxref\n%d\n%%%%EOF\n" % (xref + shift)]
    return b"".join(pieces)
