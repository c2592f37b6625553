"""Reading the PDFs a build wrote (pypdf): where each image lands on a page, the page boxes; and the PDFs of one
deck built alone (faces and the PDF builder, no other)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader
from pypdf.generic import ContentStream

from deckpress.builders import PDFBuilder
from deckpress.builders.pdf import steps as pdf_builder
from deckpress.context import BuildContext, BuildOptions
from deckpress.deck import load_deck
from deckpress.faces import FaceStage, plan_faces

MM = 72 / 25.4  # PDF points in a millimetre


def _mul(m, n):
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def placements(reader: PdfReader, page) -> list[dict]:
    """Every image drawn on the page: its XObject id and where its unit square lands (points)."""
    xobjects = page["/Resources"].get("/XObject", {}) if "/Resources" in page else {}
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            ref = xobjects.raw_get(operands[0])
            if ref.get_object()["/Subtype"] != "/Image":
                continue
            a, b, c, d, e, f = ctm
            xs = [e, e + a, e + c, e + a + c]
            ys = [f, f + b, f + d, f + b + d]
            out.append({"id": ref.idnum, "x": min(xs), "y": min(ys), "w": max(xs) - min(xs),
                        "h": max(ys) - min(ys), "cx": (min(xs) + max(xs)) / 2, "cy": (min(ys) + max(ys)) / 2,
                        "turned": a < 0 and d < 0})
    return out


def box(page, name: str) -> tuple[float, ...]:
    """A page box (pypdf falls back to the CropBox, then the MediaBox, when the page has none)."""
    value = {"/TrimBox": page.trimbox, "/BleedBox": page.bleedbox}[name]
    return tuple(float(v) for v in (value.left, value.bottom, value.right, value.top))


def card_pages(reader: PdfReader) -> list[int]:
    return [i for i, p in enumerate(reader.pages) if placements(reader, p)]


def build_pdfs(project: Path, deck: str, out: Path, duplex: str = "long-edge", offset=(0.0, 0.0)) -> Path:
    """Faces and PDFs only (no other builders) of `project`/decks/`deck`.yaml into `out`."""
    loaded = load_deck(project / "decks" / f"{deck}.yaml")
    out.mkdir(parents=True, exist_ok=True)
    faces = plan_faces(loaded)
    FaceStage(loaded, out, None, {}).build(faces.all(), lambda done, todo: None)
    ctx = BuildContext(deck=loaded, faces=faces, out=out, final=out, previous=None, options=BuildOptions(out=out),
                       progress=lambda msg: None)
    pdf_builder.build(ctx, PDFBuilder.defaults(duplex=duplex, back_offset=list(offset)))
    return out / "print"
