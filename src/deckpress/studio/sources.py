"""Where each part of a card came from, as the studio's page shows it: a card's entry (its deck file's line,
or its spreadsheet's row), each of its fields (the line, the cell, or the component's default), and each
element drawn on its faces (the template's line, the box it is laid out in on the face's PNG, the fields
it shows).

Everything is read from the loaded deck, whose values know their file, line and column (source.py,
tables.py); the faces' files are those the face stage plans (faces.plan_faces), so the page finds them in
build/<deck>/; the boxes are the painters' own (elements/base.py), so they are where the face was drawn.
Places are named relative to the project (paths.display_name), a spreadsheet's as deckpress's messages
name them. Nothing is drawn: a deck of 2,000 cards answers in a fraction of a second (bench/sources.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..deck import LoadedDeck
from ..draw import mm_to_px
from ..elements import Element
from ..errors import Where
from ..expr import is_expression, render_value
from ..faces import Face, ReadFields, plan_faces
from ..options import Invalid
from ..paths import display_name
from ..render import FaceRenderer, contexts_of, face_pixels
from ..schema import Card, Component
from ..source import Map
from ..tables import SheetCell

SPREADSHEETS = (".csv", ".xlsx")
NOT_SHOWN = ("type", "name", "when", "x", "y", "w", "h")  # keys whose values it does not show, or its box read
VARYING = ("card", "style", "item", "index")  # what an expression may name that differs between faces
BOX = ("box", "x", "y", "w", "h", "rotate", "each")  # the values an element's box is laid out by


class _Places:
    """Names places as the page shows them: relative to the project, each file resolved once."""

    def __init__(self, deck_path: Path):
        self.deck_path = deck_path
        self.files: dict[str, str] = {}

    def file(self, path: str | Path) -> str:
        key = str(path)
        if key not in self.files:
            self.files[key] = display_name(Path(path), self.deck_path)
        return self.files[key]

    def __call__(self, where: Where, row: bool = False) -> str:
        """`decks/score.yaml:41:7`; a spreadsheet's row `data/x.csv:12` (`row`) or cell `data/x.csv:12:3`; a
        published sheet's as its messages say, after its copy: `data/score/deck.csv, sheet Units, row 12`."""
        shown = self.file(where.path)
        if isinstance(where, SheetCell):
            return f"{shown}, {where}"
        if row and Path(where.path).suffix.lower() in SPREADSHEETS:
            return f"{shown}:{where.line}"
        return f"{shown}:{where.line}:{where.col}" if where.line and where.col else \
            f"{shown}:{where.line}" if where.line else shown


def card_sources(deck: LoadedDeck) -> list[dict]:
    """One dict per card of every component, in the deck's order, as JSON for the studio's page:

        {"component": "deck", "card": "score-2", "name": "Score! 2", "count": 2, "where": "decks/score.yaml:34:9",
         "fields": [{"name": "text", "value": "Score 2 points.", "where": "decks/score.yaml:41:15"}, ...],
         "faces": {"front": FACE, "back": FACE or None}}

    `where` is the card's entry (a spreadsheet's row: `decks/cards.csv:12`), each field's its own value, its
    cell, or the component's `default:` of it. A FACE is {"file": "faces/deck/score-2.png" (in build/<deck>/),
    "size": [w, h] (px), "template": "templates/score-card.yaml", "elements": [{"type": "text", "label":
    "title", "where": "templates/score-card.yaml:19:5", "box": [x, y, w, h] (px of the face, bleed included;
    None: off the face), "reads": ["name"] (the card fields its values read)}, ...]}. A back is None when the
    card prints none; a token without a back shows its front on both sides."""
    places = _Places(deck.path)
    faces = plan_faces(deck)
    renderer = FaceRenderer(deck)
    drawn: dict[str, dict] = {}  # the backs, shared by the cards of a component: each described once
    same = _Alike()
    out = []
    for component in deck.model.components:
        for card in component.cards:
            front = faces.front(component, card)
            back = faces.back(component, card)
            front_path, back_path = faces.printed(component, card)
            described = _face(deck, renderer, places, front, same)
            if back is not None:
                if back.path not in drawn:
                    drawn[back.path] = _face(deck, renderer, places, back, same)
                back_described = drawn[back.path]
            else:
                back_described = described if back_path == front_path else None
            out.append({"component": component.id, "card": card.id, "name": card.name, "count": card.count,
                        "where": places(card.where, row=True), "fields": _fields(deck, places, component, card),
                        "faces": {"front": described, "back": back_described}})
    return out


def _fields(deck: LoadedDeck, places: _Places, component: Component, card: Card) -> list[dict]:
    """Each field the template sees as `card`, its value and where it was written."""
    return [{"name": name, "value": value, "where": places(_field_where(deck, component, card, name))}
            for name, value in card.fields().items()]


def _field_where(deck: LoadedDeck, component: Component, card: Card, name: str) -> Where:
    """Where a card's field was written: its own key (a localized text's line in the deck's language), its
    cell, the component's `default:` of the field, the name an id is made from, else the card's entry."""
    source = card.source
    if name in source:
        value = source[name]
        if isinstance(value, Map) and deck.lang in value:
            return value.at(deck.lang)
        return source.at(name)
    spec = component.fields.get(name)
    if spec is not None and "default" in spec.source:
        return spec.source.at("default")
    if name == "id" and "name" in source:
        return source.at("name")
    return card.where


@dataclass
class _Alike:
    """What is the same on every face of a component, by component, template and element index: an element
    whose values name neither the card nor its style nor an `each` item (`elements`, described once), and the
    box of one whose layout (BOX) names none of them (`boxes`)."""

    elements: dict[tuple[str, str, int], list[dict]] = field(default_factory=dict)
    boxes: dict[tuple[str, str, int], list[int]] = field(default_factory=dict)


def _face(deck: LoadedDeck, renderer: FaceRenderer, places: _Places, face: Face, same: _Alike) -> dict:
    """A face's file in the build, its size in pixels, its template's file and the elements drawn on it."""
    size = face_pixels(face.component.size, deck.model.bleed)
    return {"file": face.path, "size": list(size), "template": places.file(deck.template_paths[face.template]),
            "elements": _elements(deck, renderer, places, face, size, same)}


def _elements(deck: LoadedDeck, renderer: FaceRenderer, places: _Places, face: Face, size: tuple[int, int],
              same: _Alike) -> list[dict]:
    """The elements drawn on the face, back to front, as its drawing lays them out (FaceRenderer.render): once
    each, or once per item of its `each`; one left out by its `when` is not drawn, so not listed. What is the
    same on every face of the component is worked out once (`same`)."""
    template = deck.templates[face.template]
    fields = face.card.fields() if face.card else {}
    component = {"id": face.component.id, "name": face.component.name}
    size_mm = face.component.size
    try:
        ctx = renderer.context(template, fields, component, size_mm)
    except Invalid:  # a style_by the drawing refuses: the face is not drawn
        return []
    out = []
    for index, element in enumerate(template.elements):
        key = (face.component.id, face.template, index)
        if key in same.elements:
            out += same.elements[key]
            continue
        described = _element(renderer, places, element, index, ctx, fields, size_mm, size, same.boxes.get(key))
        if described and described[0]["box"] is not None and _alike(element, BOX):
            same.boxes[key] = described[0]["box"]
        if _alike(element):
            same.elements[key] = described
        out += described
    return out


def _expressions(values: list[Any]) -> Iterator[str]:
    """The expressions among `values` and within their lists and mappings, however deep."""
    todo = list(values)
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo += value.values()
        elif isinstance(value, list):
            todo += value
        elif is_expression(value):
            yield value


def _alike(element: Element, keys: tuple[str, ...] | None = None) -> bool:
    """Whether the element is drawn alike on every face of a component (or, with `keys`, is laid out alike
    by those values): none of its values names the card, its style or an `each` item."""
    values = [v for k, v in element.source.items() if keys is None or k in keys]
    return not any(name in value for value in _expressions(values) for name in VARYING)


def _element(renderer: FaceRenderer, places: _Places, element: Element, index: int, ctx: dict, fields: dict,
             size_mm, size: tuple[int, int], box: list[int] | None) -> list[dict]:
    """The element as drawn on one face: once, once per item of its `each`, or not at all; `box`, when
    given, is its box on every face of the component."""
    try:
        contexts = contexts_of(element, ctx)
    except Invalid:
        contexts = []
    out = []
    for item_ctx in contexts:
        card = ReadFields(fields)
        card.read = set()
        item_ctx = {**item_ctx, "card": card}
        try:
            if element.when is not None and not render_value(element.when, {**item_ctx, "card": fields}):
                continue
            laid = box if box is not None else _box(renderer, element, item_ctx, size_mm, size)
        except Invalid:
            laid = None
        reads = _reads(element, item_ctx, fields)
        label = element.name or (f"{element.type} {reads[0]}" if reads else f"{element.type} #{index + 1}")
        out.append({"type": element.type, "label": label, "where": places(element.where), "box": laid,
                    "reads": reads})
    return out


def _box(renderer: FaceRenderer, element: Element, ctx: dict, size_mm, size: tuple[int, int]) -> list[int] | None:
    """The element's box in the face's pixels, bleed included, turned as it is drawn, on the face: [x, y, w,
    h]; None when none of it lands on the face."""
    painter = element.painter(renderer, None, mm_to_px(1), ctx, element, size_mm)
    x0, y0, x1, y1 = painter.px(painter.box())
    left, top = math.floor(min(x0, x1)), math.floor(min(y0, y1))
    width, height = math.ceil(max(x0, x1)) - left, math.ceil(max(y0, y1)) - top
    if element.rotate:
        left, top = painter.turned(left, top, (width, height))
        if element.rotate in (90, 270):
            width, height = height, width
    right, bottom = min(left + width, size[0]), min(top + height, size[1])
    left, top = max(left, 0), max(top, 0)
    if right < left or bottom < top or (right, bottom) == (left, top):
        return None
    return [left, top, right - left, bottom - top]


def _reads(element: Element, ctx: dict, fields: dict) -> list[str]:
    """The card fields the element's values read (its box's read as it was laid out, `ctx`'s card noting
    them), in the card's order: every field when one of them reads the card whole."""
    card: ReadFields = ctx["card"]
    for value in _expressions([value for key, value in element.source.items() if key not in NOT_SHOWN]):
        if "card" in value:  # only an expression naming the card reads it
            try:
                render_value(value, ctx)
            except Invalid:
                pass  # the drawing says what is wrong with it; what it read so far is noted
    return [name for name in fields if card.read is None or name in card.read]
