"""What a shape is painted with: a fill (a colour or a gradient) and an outline (colour, width, dash
pattern, line join), as options, and as the values a painter resolves for one card."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..expr import is_expression, render_text, render_value
from ..options import Choice, Invalid, ListOf, Number, Option, Record, Str
from .base import EXPR

COLOR = r"#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?"
STOP = re.compile(rf"\s*({COLOR})(?:\s+(-?[0-9]+(?:\.[0-9]*)?)%)?\s*")
MAX_STOPS = 32
MAX_DASHES = 32
MIN_DASH_PERIOD_MM = 0.2  # finer dashes would be too many to draw, and too fine to print
MAX_STROKE_MM = 100  # widest outline, longest dash or gap


@dataclass(frozen=True)
class Stops:
    """A gradient's colours (RGBA) and their positions from 0 to 1, in order."""

    colors: tuple[tuple[int, int, int, int], ...]
    positions: tuple[float, ...]


def parse_stops(stops: list[str]) -> Stops:
    """`["#ffffff", "#d62828 60%", "#000000"]` as colours and positions: a stop without a position lies
    evenly between its neighbours' (the first at 0%, the last at 100%), as in CSS. Invalid when a stop is
    not a colour with an optional position, or the positions go back."""
    if not 2 <= len(stops) <= MAX_STOPS:
        raise Invalid(f"a gradient has 2 to {MAX_STOPS} stops, not {len(stops)}; write e.g. "
                      "stops: [\"#ffffff\", \"#d62828\"]")
    colors, given = [], []
    for stop in stops:
        match = STOP.fullmatch(str(stop))
        if match is None:
            raise Invalid(f"gradient stop {stop!r} is not a colour with an optional position; write e.g. "
                          "\"#d62828\" or \"#d62828 40%\"")
        hex_ = match[1][1:] + ("ff" if len(match[1]) == 7 else "")
        colors.append(tuple(int(hex_[i:i + 2], 16) for i in range(0, 8, 2)))
        given.append(None if match[2] is None else float(match[2]) / 100)
    given[0] = 0.0 if given[0] is None else given[0]
    given[-1] = 1.0 if given[-1] is None else given[-1]
    for n, at in enumerate(given):
        if at is None:
            continue
        if not 0 <= at <= 1:
            raise Invalid(f"gradient stop {stops[n]!r} lies outside 0% to 100%; move it inside")
        previous = max((p for p in given[:n] if p is not None), default=0.0)
        if at < previous:
            raise Invalid(f"gradient stops out of order: {stops[n]!r} comes after a stop at {previous:.0%}; "
                          "list the stops from 0% to 100%")
    positions: list[float] = list(given)  # type: ignore[arg-type]
    n = 0
    while n < len(positions):  # a run of stops without a position shares the room between its neighbours
        if given[n] is None:
            end = next(i for i in range(n, len(given)) if given[i] is not None)
            start, step = positions[n - 1], (given[end] - positions[n - 1]) / (end - n + 1)
            for i in range(n, end):
                positions[i] = start + step * (i - n + 1)
            n = end
        n += 1
    return Stops(tuple(colors), tuple(positions))  # type: ignore[arg-type]


class Gradient(Record):
    """A gradient: a fill whose colour runs through its `stops` over the element's box.

    `linear` runs them along a line, `radial` out from a centre."""

    gradient = Choice("`linear`: the colours run across the box along `angle`; `radial`: they run out from "
                      "`center` to `radius`.", ["linear", "radial"], default="linear")
    stops = ListOf(Str("A colour `#rrggbb` or `#rrggbbaa`, with an optional position: `#d62828 40%`." + EXPR),
                   "The colours, in order; a stop without a position lies evenly between its neighbours.",
                   min_items=2, max_items=MAX_STOPS)
    angle = Number("linear: the direction the colours run, in degrees clockwise from left to right (90: top "
                   "to bottom).", default=90, min=-360, max=360)
    center = ListOf(Number("A fraction of the box.", min=0, max=1),
                    "radial: the centre, as fractions of the box's width and height.", default=lambda: [0.5, 0.5])
    radius = Number("radial: how far the colours reach, as a fraction of the distance from the centre to the "
                    "box's farthest corner.", default=1, min=0.01, max=10)

    @classmethod
    def json_schema(cls) -> dict:
        out = super().json_schema()
        stop = {"type": "string", "pattern": rf"^\s*{COLOR}(\s+-?[0-9]+(\.[0-9]*)?%)?\s*$|\{{\{{"}
        out["properties"]["stops"]["items"] = {**out["properties"]["stops"]["items"], **stop}
        return out

    def validate(self, ctx):
        if self.stops is not None and not any(is_expression(s) for s in self.stops if s is not None):
            try:
                parse_stops(self.stops)
            except Invalid as err:
                ctx.error(self.source.at("stops"), f"stops: {err}")
        if self.center is not None and len(self.center) != 2:
            ctx.error(self.source.at("center"), "center needs two numbers; write [x, y] as fractions of the "
                                                "box, e.g. [0.5, 0.3]")


class Fill(Option):
    """A colour, or a gradient given as a mapping."""

    type_name = "colour or Gradient"

    def check(self, value, where, ctx):
        if isinstance(value, dict):
            return Gradient.load(value, where, ctx)
        return Str(self.doc).check(value, where, ctx)

    def schema(self):
        return {"anyOf": [{"type": "string"}, Gradient.json_schema()]}


def dash_pattern(values: list[float]) -> list[float]:
    """The lengths of dash, gap, dash... (an odd list repeats, as in SVG); Invalid when they draw nothing."""
    if not 1 <= len(values) <= MAX_DASHES:
        raise Invalid(f"a dash pattern has 1 to {MAX_DASHES} lengths; write e.g. dash: [2, 1]")
    if any(not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or v < 0
           for v in values):
        raise Invalid(f"dash lengths are millimetres of 0 or more, not {values!r}; write e.g. dash: [2, 1]")
    if not any(values):
        raise Invalid("a dash pattern of zeros draws nothing; write the lengths of a dash and a gap in mm, "
                      "e.g. dash: [2, 1]")
    if sum(values) < MIN_DASH_PERIOD_MM or max(values) > MAX_STROKE_MM:
        raise Invalid(f"a dash pattern repeats every {MIN_DASH_PERIOD_MM:g} mm at least, and each length is at "
                      f"most {MAX_STROKE_MM} mm; write e.g. dash: [2, 1]")
    return list(values) * (2 if len(values) % 2 else 1)


class Dash(Option):
    """A dash pattern: lengths in mm of dash, gap, dash, gap..."""

    type_name = "list of numbers or expression"

    def check(self, value, where, ctx):
        if isinstance(value, str) and is_expression(value):
            return value
        if not isinstance(value, list):
            raise Invalid("expected a list of lengths in mm, e.g. dash: [2, 1]")
        dash_pattern(value)
        return value

    def schema(self):
        return {"anyOf": [{"type": "string", "pattern": r"\{\{"},
                          {"type": "array", "items": {"type": "number", "minimum": 0}, "minItems": 1,
                           "maxItems": MAX_DASHES, "contains": {"type": "number", "exclusiveMinimum": 0}}]}


# -- resolved for one card -------------------------------------------------------------------------------

@dataclass(frozen=True)
class GradientFill:
    """A gradient with its stops resolved for one card."""

    gradient: Gradient
    stops: Stops


Ink = tuple | GradientFill | None  # a colour (RGB or RGBA), a gradient, or nothing


@dataclass(frozen=True)
class Stroke:
    """An outline, in pixels."""

    color: tuple
    width: float
    dash: tuple[float, ...] | None = None
    join: str = "miter"


def resolve_fill(painter, value) -> Ink:
    """The element's fill (or text colour) `value` for the card being drawn."""
    if isinstance(value, Gradient):
        return GradientFill(value, parse_stops([render_text(stop, painter.ctx) for stop in value.stops]))
    return painter.color(value)


def resolve_stroke(painter, color=None) -> Stroke | None:
    """The element's outline for the card being drawn, in pixels; None without one. `color` stands in for
    a missing `stroke` (a line's `color`)."""
    e = painter.e
    colour = painter.color(e.stroke) or color
    if colour is None:
        return None
    dash = None
    if e.dash is not None:
        values = render_value(e.dash, painter.ctx)
        if not isinstance(values, list):
            raise Invalid(f"dash gave {values!r}, not a list of lengths; write e.g. dash: [2, 1]")
        dash = tuple(v * painter.scale for v in dash_pattern(values))
    width = painter.num(e.stroke_width)
    if not 0 <= width <= MAX_STROKE_MM:
        raise Invalid(f"stroke_width {width:g} is not between 0 and {MAX_STROKE_MM} mm; write e.g. stroke_width: 0.5")
    return Stroke(colour, width * painter.scale, dash, getattr(e, "join", "miter"))
