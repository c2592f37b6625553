"""`path`: a shape drawn by SVG path data (`M 0 0 L 10 0 ...`), in mm from its box's top-left corner.

The data is read here into absolute segments (the grammar of SVG's `d` attribute: moveto, lineto,
horizontal and vertical lineto, cubic and quadratic Béziers with their shorthands, elliptical arcs,
closepath, each absolute or relative) and drawn as a vector.Outline, its arcs and quadratic curves as cubics.
"""

from __future__ import annotations

import re

from ..expr import is_expression, render_text
from ..options import Invalid, Str
from ..vector import MITER_LIMIT, Outline, paint_path
from .base import EXPR, LAYER_PAD_MM, MAX_BOX_MM, Element, Painter, spread
from .groups import JOIN, PaintOptions
from .paint import resolve_fill, resolve_stroke

MAX_SEGMENTS = 10_000
ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SEPARATORS = re.compile(r"[\s,]*")
EXAMPLE = "write SVG path data such as 'M 0 0 L 20 0 L 10 15 Z'"

Segment = tuple  # ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Q", x1, y1, x, y),
#                  ("A", rx, ry, rotation, large, sweep, x, y) or ("Z",), all absolute


def parse_path(d: str) -> list[Segment]:
    """SVG path data as absolute segments; Invalid, naming the character, when it is not path data."""
    out: list[Segment] = []
    i, command = 0, ""
    x = y = start_x = start_y = 0.0
    control: tuple[float, float] | None = None  # the last Bézier control point, for S and T
    while True:
        i = _SEPARATORS.match(d, i).end()
        if i == len(d):
            break
        if d[i].isalpha():
            command, i = d[i], i + 1
            if command.upper() not in ARGS:
                raise Invalid(f"path data: {command!r} (character {i}) is not a path command; {EXAMPLE}")
        elif not command:
            raise Invalid(f"path data starts with a command (M), not {d[i]!r}; {EXAMPLE}")
        elif command in "Zz":
            raise Invalid(f"path data: a number after Z (character {i + 1}); start a new part with M")
        if not out and command not in "Mm":
            raise Invalid(f"path data starts with M (move to), not {command!r}; {EXAMPLE}")
        upper, relative = command.upper(), command.islower()
        values: list[float] = []
        for n in range(ARGS[upper]):
            i = _SEPARATORS.match(d, i).end()
            if upper == "A" and n in (3, 4):  # the arc's flags: one digit each, maybe unseparated
                if i == len(d) or d[i] not in "01":
                    raise Invalid(f"path data: an arc flag (0 or 1) expected at character {i + 1}; {EXAMPLE}")
                values.append(float(d[i]))
                i += 1
                continue
            match = _NUMBER.match(d, i)
            if match is None:
                place = f"at character {i + 1}" if i < len(d) else "at its end"
                raise Invalid(f"path data: a number expected after {command!r} {place}; {EXAMPLE}")
            value = float(match[0])
            if not abs(value) <= MAX_BOX_MM:
                raise Invalid(f"path data: {match[0]} (character {i + 1}) reaches more than {MAX_BOX_MM} mm; keep "
                              "the path near its box")
            values.append(value)
            i = match.end()
        dx, dy = (x, y) if relative else (0.0, 0.0)
        if upper == "Z":
            out.append(("Z",))
            x, y, control = start_x, start_y, None
            continue
        if upper == "M":
            x, y = values[0] + dx, values[1] + dy
            start_x, start_y, control = x, y, None
            out.append(("M", x, y))
            command = "l" if relative else "L"  # further pairs are lines
        elif upper in "LHV":
            if upper == "H":
                x = values[0] + dx
            elif upper == "V":
                y = values[0] + dy
            else:
                x, y = values[0] + dx, values[1] + dy
            out.append(("L", x, y))
            control = None
        elif upper in "CS":
            if upper == "S":  # the first control point mirrors the last one
                first = (2 * x - control[0], 2 * y - control[1]) if control and out[-1][0] == "C" else (x, y)
                values = [first[0] - dx, first[1] - dy, *values]
            x1, y1, x2, y2 = values[0] + dx, values[1] + dy, values[2] + dx, values[3] + dy
            x, y = values[4] + dx, values[5] + dy
            out.append(("C", x1, y1, x2, y2, x, y))
            control = (x2, y2)
        elif upper in "QT":
            if upper == "T":
                first = (2 * x - control[0], 2 * y - control[1]) if control and out[-1][0] == "Q" else (x, y)
                values = [first[0] - dx, first[1] - dy, *values]
            x1, y1 = values[0] + dx, values[1] + dy
            x, y = values[2] + dx, values[3] + dy
            out.append(("Q", x1, y1, x, y))
            control = (x1, y1)
        else:
            x, y = values[5] + dx, values[6] + dy
            out.append(("A", abs(values[0]), abs(values[1]), values[2], values[3], values[4], x, y))
            control = None
        if len(out) > MAX_SEGMENTS:
            raise Invalid(f"path data of more than {MAX_SEGMENTS} segments; simplify the path")
    if not out:
        raise Invalid(f"path data is empty; {EXAMPLE}")
    return out


class PathPainter(Painter):
    FREEHAND = False

    def reach(self, box):
        xy = self.px(box)
        points = [xy[:2], xy[2:]]
        for kind, *v in parse_path(render_text(self.e.d, self.ctx)):
            if kind == "A":  # an arc stays within its diameter of its end
                r = 2 * max(v[0], v[1])
                points += [(v[5] - r, v[6] - r), (v[5] + r, v[6] + r)]
                continue
            points += list(zip(v[0::2], v[1::2]))
        s = self.scale
        pad = (LAYER_PAD_MM + self.num(self.e.stroke_width) * MITER_LIMIT / 2) * s
        return spread([(x if i < 2 else xy[0] + x * s, y if i < 2 else xy[1] + y * s)
                       for i, (x, y) in enumerate(points)], pad)

    def draw(self, draw, layer, box) -> None:
        segments = parse_path(render_text(self.e.d, self.ctx))
        xy = self.px(box)
        s, ox, oy = self.scale, xy[0], xy[1]

        outline = Outline()
        for kind, *v in segments:
            p = [ox + n * s if k % 2 == 0 else oy + n * s for k, n in enumerate(v)]
            if kind == "M":
                outline.move(*p)
            elif kind == "L":
                outline.line(*p)
            elif kind == "C":
                outline.cubic(*p)
            elif kind == "Q":
                outline.quad(*p)
            elif kind == "A":
                outline.arc(v[0] * s, v[1] * s, v[2], bool(v[3]), bool(v[4]), ox + v[5] * s, oy + v[6] * s)
            else:
                outline.close()
        paint_path(layer, outline, resolve_fill(self, self.e.fill), resolve_stroke(self), xy,
                   edges=self.edges(layer))


class PathElement(PaintOptions, Element):
    """A shape drawn by SVG path data, in mm from the box's top-left corner.

    Its box is what a gradient spans."""

    TYPE, DRAWS, painter = "path", "a shape drawn by SVG path data", PathPainter

    d = Str("SVG path data in mm from the box's top-left corner, e.g. `M 0 10 Q 10 0 20 10 Z`: M move, L "
            "line, H and V horizontal and vertical lines, C and S cubic curves, Q and T quadratic ones, A arcs, "
            "Z close; lower case for relative coordinates." + EXPR)
    join = JOIN

    def validate(self, ctx):
        super().validate(ctx)
        if self.d is not None and not is_expression(self.d):
            try:
                parse_path(self.d)
            except Invalid as err:
                ctx.error(self.source.at("d"), f"d: {err}")
