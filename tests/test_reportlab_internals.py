"""deckpress takes nothing from reportlab's internals: its PDFs are drawn through reportlab's public API, and
what that API cannot write (the faces' images as their PNG's data, the font subsets' tags) deckpress writes
into the file reportlab makes (builders/pdf/pdffile.py). What stays is what deckpress reads of that file: its
layout (objects in order, one cross-reference table), the faces' forms and the font subsets' objects, which
canvas.save checks as it reads them, and these tests with the reportlab installed."""

from __future__ import annotations

import ast
from pathlib import Path

from PIL import Image

from deckpress.builders.pdf.canvas import PLACEHOLDER, Images, new_canvas, pdf_font, plain_streams, tag_subsets
from deckpress.builders.pdf.pdffile import Layout
from deckpress.builders.pdf.pdfx import TRAPPED

SOURCE = Path(__file__).resolve().parents[1] / "src" / "deckpress"


def _private(node: ast.AST) -> str | None:
    """The private name of another object's that `node` uses (reading or setting it), if it does."""
    if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
        owner = node.value
        if not (isinstance(owner, ast.Name) and owner.id in ("self", "cls")) and not node.attr.startswith("_deckpress"):
            return ast.unparse(node)
    if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reportlab"):
        names = [alias.name for alias in node.names if alias.name.startswith("_")]
        if names or "pdfdoc" in (node.module or "") or any(alias.name == "pdfdoc" for alias in node.names):
            return f"from {node.module} import {', '.join(alias.name for alias in node.names)}"
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "setattr", "hasattr") \
            and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
            and str(node.args[1].value).startswith("_") and not str(node.args[1].value).startswith("_deckpress"):
        return ast.unparse(node)
    return None


def test_the_pdf_builder_uses_no_private_name_of_reportlab():
    """No private attribute of reportlab's objects (canvas._doc, _code, Frame._atTop...), no name reportlab
    keeps private, nor its document's own module (pdfdoc), in the modules that use reportlab; no copy of one
    of its methods (the subset tags used to be set in a copy of TTFont.addObjects, the rules' trial layouts
    used Frame._add through a class swap)."""
    modules = [p for p in SOURCE.rglob("*.py") if "reportlab" in p.read_text(encoding="utf-8")]
    assert SOURCE / "builders" / "pdf" / "canvas.py" in modules
    used = [f"{p.relative_to(SOURCE)}:{node.lineno}: {name}" for p in modules
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))) if (name := _private(node))]
    assert not used, used
    source = "\n".join(p.read_text(encoding="utf-8") for p in modules)
    assert "def addObjects" not in source and "__class__" not in source


def test_the_file_reportlab_writes_is_laid_out_as_deckpress_reads_it(tmp_path):
    """reportlab's own file (getpdfdata): objects in order and one cross-reference table; each face's form
    found once by its comment; each font subset with its descriptor and program, renamed in place."""
    Image.new("RGB", (8, 8), (200, 10, 10)).save(tmp_path / "a.png")
    images = Images(tmp_path)
    with plain_streams():
        canvas = new_canvas((100, 100), "Title", "Author", "Subject")
        for page in range(2):
            canvas.saveState()
            images.draw(canvas, "a.png", (20, 0, 0, 30, 10, 10))
            canvas.restoreState()
            canvas.drawString(10, 50, f"page {page} \u2014 \u0416")
            canvas.setFont(pdf_font("mono"), 9)
            canvas.drawString(10, 60, "mono")
            canvas.showPage()
        pdf = Layout.read(canvas.getpdfdata())
    assert pdf is not None
    assert images.numbers(canvas, pdf) == {"a.png": next(n for n, _ in pdf.find(PLACEHOLDER))}
    renamed = tag_subsets(pdf)
    assert len(renamed) == 2 * 2  # the sans and the mono: a font and its descriptor each
    for n, write in renamed.items():
        old, new = pdf.object(n), b"".join(write(n))
        assert len(new) == len(old) and b"/AAAAAA+" in old and b"/AAAAAA+" not in new


def test_a_pdfx_canvas_is_written_as_mark_pdfx_reads_it():
    """A canvas made for PDF/X, even with a duplex mode asked: its trailer names the Catalog and the document
    info, both dictionaries; the info ends with /Trapped /False, where mark_pdfx puts /GTS_PDFXVersion, and the
    Catalog has no viewer preferences (a later PDF's than 1.4)."""
    with plain_streams():
        canvas = new_canvas((100, 100), "Title", "Author", "Subject", "long-edge", pdfx=True)
        canvas.showPage()
        pdf = Layout.read(canvas.getpdfdata())
    assert pdf.entries(pdf.reference("Info")).endswith(TRAPPED)
    catalog = pdf.entries(pdf.reference("Root"))
    assert b"/Type /Catalog" in catalog and b"/ViewerPreferences" not in catalog
    assert b"/ViewerPreferences" not in pdf.data
