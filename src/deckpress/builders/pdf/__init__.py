"""The print-and-play PDFs, build/<deck>/print/: the builder (PDFBuilder) and its options, its steps (steps.py)
and their parts: the print profiles (profiles.py, found as the package data's print/ files, which a project's
own print/ overrides), page geometry (layout.py), the canvas (canvas.py) and the file it writes (pdffile.py), the
card pages (pages.py), cut marks and cutter files (cutters.py, labels.py), the rules pages (rules.py,
rules_style.py) and PDF/X (pdfx.py)."""

from __future__ import annotations

from ...options import Choice, Id, ListOf, Number, Record
from ...sizes import MAX_BACK_OFFSET
from .. import Builder


def back_offset_option(doc: str, default) -> ListOf:
    """The shift `[x, y]` in mm of the back pages: the --back-offset flag and the print profile's key."""
    return ListOf(Number("Millimetres.", min=-MAX_BACK_OFFSET, max=MAX_BACK_OFFSET), doc, default=default,
                  min_items=2, max_items=2)


class PDFOptions(Record):
    """How `deckpress build` lays out the print-and-play PDFs for your printer."""

    duplex = Choice("How your printer flips duplex pages; the PDF's back pages are laid out to match.",
                    ["long-edge", "short-edge"], default="long-edge")
    back_offset = back_offset_option("Shift of the back pages in mm, measured with the calibration sheet.",
                                     default=lambda: [0.0, 0.0])


class PrintOptions(Record):
    """Print-and-play settings."""

    profiles = ListOf(Id("A profile name: a file print/NAME.yaml, e.g. a4, letter or gutterfold-a4."),
                      "Print profiles to build, one PDF each: build/<deck>/print/<deck>-<profile>.pdf.",
                      default=lambda: ["a4", "letter"])


class PDFBuilder(Builder):
    """The print-and-play PDFs: build/<deck>/print/."""

    name = "pdf"
    Options = PDFOptions
    section, Section = "print", PrintOptions
    metavars = {"back_offset": "X,Y"}

    @classmethod
    def load(cls):
        from . import steps
        steps.load()

    def check(self, deck, faces=None):
        from . import steps
        steps.check(deck, faces)

    def prepare(self, ctx):
        from . import steps
        steps.prepare(ctx)

    def build(self, ctx):
        from . import steps
        steps.build(ctx, self.options)
