"""What deckpress still takes from reportlab's internals, pinned: pyproject allows only the reportlab
versions this was tested with, and this test fails when the reportlab installed changes any piece of it.

What stays, and why (deckpress/builders/pdf/canvas.py, sheets.py):
- Images.draw registers each face's XObject once per PDF and paints it with `/name Do`, as
  Canvas.drawImage does inside (doc.getXObjectName, Reference, addForm, canvas._setXObjects, _code,
  _formsinuse, _currentPageHasImages): drawImage itself decodes and re-deflates every PNG (or hashes the
  decoded image on each call), where deckpress copies the PNG's deflate stream as it is.
- PngXObject and CmykXObject are PDFImageXObjects formatting their own PDFStream.
- _StreamingFile takes the place of the module-global PDFFile while PDFDocument.format runs, so the PDF
  is written to its file as each object is formatted (Canvas.save keeps the whole file in memory twice).
- tag_subsets makes the font subsets' objects before the file is written, as GetPDFData would
  (doc.delayedFonts, TTFont.addObjects), and renames them: the PDFTrueTypeFont's BaseFont, and the
  FontName of its descriptor (found through the references' names in doc.idToObject), whose FontFile2
  stream's content is the subset program.
- replace_objects (a print PDF whose faces alone changed) relies on the file's layout as PDFDocument.format
  writes it: objects 1 to N in order, each as PDFIndirectObject formats it, then the cross-reference table
  (PDFCrossReferenceTable) and the trailer, startxref last; it formats the new objects and the table with
  reportlab's own classes.
- cut_lines appends to canvas._code what Canvas.line writes, one segment at a time.

When a new reportlab changes one of them: read the change, adapt canvas.py if needed, run the PDF tests,
then record the new fingerprints here and widen the pin in pyproject.toml.
"""

from __future__ import annotations

import hashlib
import inspect
import re
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfdoc, ttfonts
from reportlab.pdfgen.canvas import Canvas

TESTED = {"5.1.0"}

# sha256 of the source of each piece, first 16 hex digits, as in reportlab 5.1.0.
FINGERPRINTS = {
    "pdfdoc.PDFFile": "372f44883d587c93",
    "pdfdoc.PDFDocument.format": "536ea7a675493430",
    "pdfdoc.PDFDocument.SaveToFile": "65f2b1f7c212d7df",
    "pdfdoc.PDFDocument.GetPDFData": "d277704fa42a1062",
    "pdfdoc.PDFIndirectObject.format": "51e5f73e4f8e16f6",
    "pdfdoc.PDFCrossReferenceTable.format": "bb7872d5a6287287",
    "pdfdoc.PDFCrossReferenceSubsection.format": "0d32d663d4b10289",
    "pdfdoc.PDFTrailer.format": "5e81042ae5264df1",
    "pdfdoc.PDFType1Font": "3a589a1c299386c9",
    "ttfonts.TTFont.addObjects": "33ac8d69ad7fe232",
    "ttfonts.TTFontFace.addSubsetObjects": "94116bc4d9d93e71",
    "pdfdoc.PDFDocument.getXObjectName": "836abc2904d6b17e",
    "pdfdoc.PDFDocument.Reference": "75342ed129b2115c",
    "pdfdoc.PDFDocument.addForm": "d830d06e1a13bbee",
    "pdfdoc.PDFImageXObject": "1a15e0e378082a1a",
    "pdfdoc.PDFStream.format": "12ee5c4d2e6ac259",
    "Canvas._setXObjects": "29bb6b11ca7c471e",
    "Canvas.drawImage": "20d0c21a50f0623c",
    "Canvas.showPage": "a9d4d3b9b7563794",
    "Canvas.line": "bfe9dde26ad1bced",
    "Canvas.save": "50fd3ba8f81e953c",
}
OBJECTS = {"pdfdoc": pdfdoc, "ttfonts": ttfonts, "Canvas": Canvas}


def _resolve(name: str):
    head, *rest = name.split(".")
    obj = OBJECTS[head]
    for part in rest:
        obj = getattr(obj, part)
    return obj


def test_reportlab_is_a_tested_version():
    assert reportlab.Version in TESTED, f"reportlab {reportlab.Version} is untested; see this file's docstring"


def test_the_pinned_range_is_the_tested_one():
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    (pin,) = re.findall(r'"reportlab([^"]*)"', pyproject)
    assert pin == ">=5.1,<5.2", pin  # the tested versions, 5.1.x


def test_the_internals_deckpress_uses_are_unchanged():
    changed = [name for name, digest in FINGERPRINTS.items()
               if hashlib.sha256(inspect.getsource(_resolve(name)).encode()).hexdigest()[:16] != digest]
    assert not changed, f"reportlab {reportlab.Version} changed {', '.join(changed)}; see this file's docstring"


def test_no_copied_reportlab_method_is_left():
    """The subset tags are set on the objects TTFont.addObjects makes (canvas.tag_subsets), not in a copy
    of it; the rules' trial layouts use Frame.add on a scratch canvas, not Frame._add."""
    source = "\n".join(p.read_text(encoding="utf-8")
                       for p in (Path(__file__).resolve().parents[1] / "src" / "deckpress").rglob("*.py"))
    assert "def addObjects" not in source and "Frame._add" not in source and "__class__" not in source
