"""Draw card faces with Pillow at 300 DPI, bleed included.

Coordinates in templates are millimetres from the top-left corner of the trim box. Everything is drawn
at the final resolution: text anti-aliased by FreeType at its exact size, images resized once to their
box, plain rectangles crisp on whole pixels, other shapes with smooth edges (draw.py). Each element is
drawn by the painter of its type (elements/).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from .deck import LoadedDeck
from .draw import DPI, MAX_IMAGE_PIXELS, Edges, mm_to_px
from .elements.base import MAX_BOX_MM, Element
from .elements.text import MAX_FONT_PT, MIN_FONT_PT
from .errors import DeckError, Problem, Where
from .expr import render_text, render_value
from .fonts import held
from .options import Invalid
from .schema import Template

MAX_EACH = 1000  # copies of one element (its `each` list)
__all__ = ["DPI", "MAX_BOX_MM", "MAX_EACH", "MAX_FONT_PT", "MAX_IMAGE_PIXELS", "MIN_FONT_PT", "FaceRenderer",
           "contexts_of", "face_pixels", "mm_to_px", "unsafe_error"]


def face_pixels(size_mm: tuple[float, float], bleed_mm: float) -> tuple[int, int]:
    """Pixel size of a face with bleed: poker with 1/8 in bleed is 825 x 1125."""
    return tuple(round(mm_to_px(d + 2 * bleed_mm)) for d in size_mm)  # type: ignore[return-value]


class FaceRenderer:
    """Renders faces of one deck; `render` returns an RGB image at 300 DPI with bleed."""

    def __init__(self, deck: LoadedDeck, collect_unsafe: bool = False):
        self.deck = deck
        self.collect_unsafe = collect_unsafe  # keep the text outside the safe zone in `unsafe`, not raise
        model = deck.model
        self.bleed = model.bleed
        self.safe = model.safe
        self.game = {"name": model.game.name, "version": model.game.version, "author": model.game.author}
        self.images_read: set[Path] = set()  # image files the last `render` drew, for the build cache
        self.images_missing: set[Path] = set()  # placeholders the last `render` drew instead
        self.warnings: list[str] = []  # what the last `render` drew in place of what it was asked
        self.shrunk: dict[str, float] = {}  # text elements the last `render` shrank: smallest size, by element
        self.edges = Edges()  # of the smooth shapes on the face being drawn
        self.unsafe: dict[str, list] = {}  # text the last `render` drew outside the safe zone, by element
        self.element = ""  # the element being drawn: its template and name

    def context(self, template: Template, card: dict, component: dict, size_mm) -> dict:
        ctx = {"card": card, "component": component, "game": self.game, "W": size_mm[0], "H": size_mm[1],
               "bleed": self.bleed, "safe": self.safe, "lang": self.deck.lang}
        style_name = render_text(template.style_by, ctx) if template.style_by else "default"
        styles = template.styles
        ctx["style"] = styles.get(style_name, styles.get("default", {}))
        return ctx

    def render(self, template_name: str, card: dict, component: dict, size_mm: tuple[float, float],
               where: Where, label: str) -> Image.Image:
        template = self.deck.templates[template_name]
        self.images_read, self.images_missing, self.warnings, self.shrunk, self.unsafe = set(), set(), [], {}, {}
        self.edges = Edges()
        width, height = face_pixels(size_mm, self.bleed)
        scale = mm_to_px(1)
        canvas = Image.new("RGB", (width, height), (255, 255, 255))
        try:
            ctx = self.context(template, card, component, size_mm)
        except Invalid as err:
            raise DeckError.at(where, f"{label}, template {template_name!r} style_by: {err}") from None
        with held():  # the fonts' files read once for the face
            for index, element in enumerate(template.elements):
                name = element.name or f"{element.type} #{index + 1}"
                self.element = f"template {template_name!r} element {name!r}"
                try:
                    for item_ctx in contexts_of(element, ctx):
                        if element.when is not None and not render_value(element.when, item_ctx):
                            continue
                        element.painter(self, canvas, scale, item_ctx, element, size_mm).paint()
                except Invalid as err:
                    raise DeckError.at(where, f"{label}, template {template_name!r} element {name!r}: {err}") \
                        from None
        if self.unsafe and not self.collect_unsafe:
            raise unsafe_error({key: [*crossing, [label]] for key, crossing in self.unsafe.items()})
        return canvas

    def crossed(self, element: Element, box: str) -> None:
        """Note that the element being drawn, text that must stay in the safe zone, has its `box` outside."""
        w = element.source.where
        self.unsafe.setdefault(f"{w}|{self.element}", [w.path, w.line, w.col, self.element, box])


def unsafe_error(crossings: dict[str, list]) -> DeckError:
    """One located line per element drawn outside the safe zone, with the faces it crosses it on: the
    `unsafe` of FaceRenderer's renders, each entry with the labels of its faces added."""
    problems = []
    for path, line, col, element, box, labels in crossings.values():
        names = ", ".join(labels[:3]) + (f" and {len(labels) - 3} more" if len(labels) > 3 else "")
        problems.append(Problem(Where(path, line, col), f"{element} reaches outside the safe zone on {names}: "
                                f"its box is {box}; move it inwards, or give it `safe: false` if it is decoration"))
    return DeckError(problems)


def contexts_of(element: Element, ctx: dict) -> list[dict]:
    """The contexts an element is drawn in: once, or once per item of its `each` list."""
    if element.each is None:
        return [ctx]
    items = render_value(element.each, ctx)
    if not isinstance(items, (list, tuple)):
        raise Invalid(f"`each` gave {items!r}, not a list; write an expression giving a list, e.g. "
                      "{{ [1, 2, 3] }}")
    if len(items) > MAX_EACH:
        raise Invalid(f"`each` gave {len(items)} items, more than the {MAX_EACH} an element may be drawn for; "
                      "use a shorter list")
    return [{**ctx, "item": item, "index": i} for i, item in enumerate(items)]
