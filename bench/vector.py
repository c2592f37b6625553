"""Measures resvg and ThorVG against Skia for the vector shapes of docs/templates.md's pictures (issue 38.6).

    pip install thorvg-python   # not a dependency of deckpress: only this comparison needs it
    python bench/vector.py [--runs N] [--out FOLDER]

Every example of the drawing docs is drawn as docs/pictures.py draws it, three times: by deckpress's
vector.py (Skia), and with vector.py's two painters swapped for ones that draw the same patch (the shape's
bounds and its outline's reach, not the whole face) through another renderer and lay it on the face as
vector.py does:
- resvg (resvg-py, already a dependency for SVG art): the patch as one small SVG document (its viewBox the
  patch), rendered at the patch's size; resvg-py returns only PNG bytes, which are decoded;
- ThorVG (thorvg-python, its software canvas): the patch drawn into a straight-alpha RGBA buffer, read as is.
The shape's geometry (Skia's path, its corners rounded by Skia's CornerPathEffect, conics as cubics) is
handed to both, so the renderers draw the same outline; the rasterising, dashes, joins and gradients are
each renderer's own.

Per picture with a vector shape and per renderer it prints the shapes drawn, ms per shape (the painter
alone, the median over runs of the run's mean) beside Skia's, ms per face (the whole FaceRenderer.render)
beside Skia's, and the mean and largest absolute difference from Skia's full-size faces over their RGBA
channels (0-255). With --out, every face is written there (NAME.I.skia.png, NAME.I.resvg.png,
NAME.I.thorvg.png) to look at.
"""

from __future__ import annotations

import argparse
import io
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

import pictures  # docs/pictures.py, found through the path above
import resvg_py
import skia
import thorvg_python as tvg  # not a dependency: pip install thorvg-python to run this

from deckpress import vector
from deckpress.deck import load_deck
from deckpress.draw import composite
from deckpress.elements.paint import GradientFill
from deckpress.render import FaceRenderer

SKIA_PAINT_PATH, SKIA_GRADIENT_IMAGE = vector.paint_path, vector.gradient_image
PAINTERS = [sys.modules[f"deckpress.elements.{name}"] for name in ("ellipse", "line", "path", "polygon", "rect")]
# (the element modules that import paint_path by name; importing render imported every element type)
ENGINE = tvg.Engine(threads=0)
KAPPA = 4 / 3  # a conic of weight w is the cubic whose control points lie 4/3 * w / (1 + w) along its tangents


def segments(path):
    """Skia's path as (command, points): M, L, C (conics, of ovals, rounded rects and arcs, and quads as the
    cubics closest to them) and Z."""
    it = skia.Path.Iter(path, False)
    while True:
        verb, pts = it.next()
        if verb == skia.Path.kDone_Verb:
            return
        ps = [(p.x(), p.y()) for p in pts]
        if verb == skia.Path.kMove_Verb:
            yield "M", ps[:1]
        elif verb == skia.Path.kLine_Verb:
            yield "L", ps[1:]
        elif verb == skia.Path.kCubic_Verb:
            yield "C", ps[1:]
        elif verb in (skia.Path.kConic_Verb, skia.Path.kQuad_Verb):
            w = it.conicWeight() if verb == skia.Path.kConic_Verb else 1.0
            k = KAPPA * w / (1 + w)
            (x0, y0), (x1, y1), (x2, y2) = ps
            yield "C", [(x0 + k * (x1 - x0), y0 + k * (y1 - y0)), (x2 + k * (x1 - x2), y2 + k * (y1 - y2)), (x2, y2)]
        elif verb == skia.Path.kClose_Verb:
            yield "Z", []


def svg_d(path) -> str:
    return " ".join(command + " ".join(f"{x:.3f} {y:.3f}" for x, y in points) for command, points in segments(path))


def rounded(path, corner: float):
    if corner <= 0:
        return path
    paint, out = skia.Paint(), skia.Path()
    paint.setPathEffect(skia.CornerPathEffect.Make(corner))
    paint.getFillPath(path, out)
    return out


def colour(c) -> str:
    alpha = (c[3] if len(c) == 4 else 255) / 255
    return f'rgb({c[0]},{c[1]},{c[2]})" {{kind}}-opacity="{alpha:.4f}'


def ends(value: GradientFill, box):
    """A gradient's ends as vector.shader lays them: ("linear", x1, y1, x2, y2) or ("radial", cx, cy, r)."""
    g = value.gradient
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if g.gradient == "linear":
        a = math.radians(g.angle)
        dx, dy = math.cos(a), math.sin(a)
        half = (abs(w * dx) + abs(h * dy)) / 2 or 1
        cx, cy = x0 + w / 2, y0 + h / 2
        return "linear", cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half
    cx, cy = x0 + g.center[0] * w, y0 + g.center[1] * h
    return "radial", cx, cy, max(1e-3, g.radius * max(math.hypot(x - cx, y - cy) for x in (x0, x1) for y in (y0, y1)))


def ink(kind: str, value, box, defs: list[str]) -> str:
    """The SVG attributes painting `kind` (fill or stroke) with a colour or a gradient over `box`."""
    if not isinstance(value, GradientFill):
        return f'{kind}="' + colour(value).format(kind=kind) + '"'
    stops = value.stops
    name = f"g{len(defs)}"
    marks = "".join(f'<stop offset="{p}" stop-color="rgb({c[0]},{c[1]},{c[2]})" '
                    f'stop-opacity="{(c[3] if len(c) == 4 else 255) / 255:.4f}"/>'
                    for c, p in zip(stops.colors, stops.positions, strict=True))
    kind_, *at = ends(value, box)
    if kind_ == "linear":
        defs.append(f'<linearGradient id="{name}" gradientUnits="userSpaceOnUse" x1="{at[0]}" y1="{at[1]}" '
                    f'x2="{at[2]}" y2="{at[3]}">{marks}</linearGradient>')
    else:
        defs.append(f'<radialGradient id="{name}" gradientUnits="userSpaceOnUse" cx="{at[0]}" cy="{at[1]}" '
                    f'r="{at[2]}">{marks}</radialGradient>')
    return f'{kind}="url(#{name})"'


def render(svg: str, width: int, height: int) -> Image.Image:
    png = resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, width=width, height=height)
    return Image.open(io.BytesIO(png)).convert("RGBA")


def resvg_paint_path(target, build, fill, stroke, box, corner=0.0, edges=None, inset=None) -> None:
    """vector.paint_path drawn by resvg: the same patch, one SVG document for it."""
    if fill is None and stroke is None:
        return
    path = build(skia)
    left, top, right, bottom = patch_box(target, path, stroke)
    if right <= left or bottom <= top:
        return
    defs, shapes = [], []
    if fill is not None:
        shapes.append(f'<path d="{svg_d(rounded(path, corner))}" {ink("fill", fill, box, defs)}/>')
    if stroke is not None and stroke.width > 0:
        dash = f' stroke-dasharray="{" ".join(map(str, stroke.dash))}"' if stroke.dash else ""
        outline = rounded(inset(skia) if inset else path, corner)
        shapes.append(f'<path d="{svg_d(outline)}" fill="none" {ink("stroke", stroke.color, box, defs)} '
                      f'stroke-width="{stroke.width}" stroke-linejoin="{stroke.join}" '
                      f'stroke-miterlimit="{vector.MITER_LIMIT}"{dash}/>')
    w, h = right - left, bottom - top
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="{left} {top} {w} {h}">'
           f'<defs>{"".join(defs)}</defs>{"".join(shapes)}</svg>')
    patch = render(svg, w, h)
    if edges is not None:
        edges.forget((left, top, right, bottom), patch.getchannel("A"))
    composite(target, patch, left, top)


def resvg_gradient_image(fill, size, box) -> Image.Image:
    defs: list[str] = []
    paint = ink("fill", fill, box, defs)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size[0]}" height="{size[1]}">'
           f'<defs>{"".join(defs)}</defs><rect width="{size[0]}" height="{size[1]}" {paint}/></svg>')
    return render(svg, *size)


def patch_box(target, path, stroke):
    """The patch vector.paint_path draws in: the path's bounds and its outline's reach, on the target."""
    bounds = path.computeTightBounds()
    reach = (stroke.width / 2 * (vector.MITER_LIMIT if stroke.join == "miter" else 1) if stroke else 0) + 2
    left, top = max(0, math.floor(bounds.left() - reach)), max(0, math.floor(bounds.top() - reach))
    right = min(target.width, math.ceil(bounds.right() + reach))
    bottom = min(target.height, math.ceil(bounds.bottom() + reach))
    return left, top, right, bottom


def tvg_gradient(value: GradientFill, box, left: int, top: int):
    kind, *at = ends(value, box)
    if kind == "linear":
        gradient = tvg.LinearGradient(ENGINE)
        gradient.set(at[0] - left, at[1] - top, at[2] - left, at[3] - top)
    else:
        gradient = tvg.RadialGradient(ENGINE)
        gradient.set(at[0] - left, at[1] - top, at[2], at[0] - left, at[1] - top, 0)
    gradient.set_color_stops([tvg.ColorStop(p, c[0], c[1], c[2], c[3] if len(c) == 4 else 255)
                              for c, p in zip(value.stops.colors, value.stops.positions, strict=True)])
    return gradient


def tvg_shape(path, left: int, top: int):
    shape = tvg.Shape(ENGINE)
    for command, points in segments(path):
        points = [(x - left, y - top) for x, y in points]
        if command == "M":
            shape.move_to(*points[0])
        elif command == "L":
            shape.line_to(*points[0])
        elif command == "C":
            shape.cubic_to(*points[0], *points[1], *points[2])
        else:
            shape.close()
    return shape


def draw_tvg(shapes, w: int, h: int) -> Image.Image:
    canvas = tvg.SwCanvas(ENGINE)
    canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888S)
    for shape in shapes:
        canvas.add(shape)
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    return Image.frombuffer("RGBA", (w, h), bytes(canvas.buffer_arr), "raw", "RGBA", 0, 1)


def tvg_paint_path(target, build, fill, stroke, box, corner=0.0, edges=None, inset=None) -> None:
    """vector.paint_path drawn by ThorVG's software rasteriser into the same patch, read back as RGBA."""
    if fill is None and stroke is None:
        return
    path = build(skia)
    left, top, right, bottom = patch_box(target, path, stroke)
    if right <= left or bottom <= top:
        return
    shapes = []
    if fill is not None:
        shape = tvg_shape(rounded(path, corner), left, top)
        if isinstance(fill, GradientFill):
            shape.set_gradient(tvg_gradient(fill, box, left, top))
        else:
            shape.set_fill_color(*fill[:3], fill[3] if len(fill) == 4 else 255)
        shapes.append(shape)
    if stroke is not None and stroke.width > 0:
        shape = tvg_shape(rounded(inset(skia) if inset else path, corner), left, top)
        if isinstance(stroke.color, GradientFill):
            shape.set_stroke_gradient(tvg_gradient(stroke.color, box, left, top))
        else:
            c = stroke.color
            shape.set_stroke_color(*c[:3], c[3] if len(c) == 4 else 255)
        shape.set_stroke_width(stroke.width)
        shape.set_stroke_join({"miter": tvg.StrokeJoin.MITER, "round": tvg.StrokeJoin.ROUND,
                               "bevel": tvg.StrokeJoin.BEVEL}[stroke.join])
        shape.set_stroke_miterlimit(vector.MITER_LIMIT)
        if stroke.dash:
            shape.set_stroke_dash(list(stroke.dash), 0)
        shapes.append(shape)
    patch = draw_tvg(shapes, right - left, bottom - top)
    if edges is not None:
        edges.forget((left, top, right, bottom), patch.getchannel("A"))
    composite(target, patch, left, top)


def tvg_gradient_image(fill, size, box) -> Image.Image:
    shape = tvg.Shape(ENGINE)
    shape.append_rect(0, 0, size[0], size[1], 0, 0, True)
    shape.set_gradient(tvg_gradient(fill, box, 0, 0))
    return draw_tvg([shape], *size)


class Timed:
    """A painter that adds the seconds it takes to `spent` and counts its calls."""

    def __init__(self, painter):
        self.painter, self.spent, self.calls = painter, 0.0, 0

    def __call__(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return self.painter(*args, **kwargs)
        finally:
            self.spent += time.perf_counter() - start
            self.calls += 1


def faces(folder: Path):
    """(name, the function drawing the example's faces) for every example of docs/templates.md."""
    page = pictures.read_page(pictures.PAGE.read_text(encoding="utf-8"))
    project = pictures.Project(folder, page)
    deck = load_deck(project.deck)
    renderer = FaceRenderer(deck)
    components = {component.id: component for component in deck.model.components}
    for example in page.examples:
        component = components[example.name]
        cards = {card.id: card for card in component.cards}
        chosen = [cards[i] for i in example.cards or [component.cards[0].id]]

        def draw(chosen=chosen, component=component):
            return [renderer.render(card.template, card.fields(), {"id": component.id, "name": component.name},
                                    component.size, card.where, "bench") for card in chosen]
        yield example.name, draw


def use(paint_path, gradient_image) -> None:
    vector.paint_path, vector.gradient_image = paint_path, gradient_image
    for module in PAINTERS:
        module.paint_path = paint_path


def run(draw, painters, runs: int):
    """The faces, ms per shape, ms per face and shapes per run, drawing with `painters` (path, gradient)."""
    per_shape, per_face, drawn, calls = [], [], [], 0
    for _ in range(runs):
        timed = [Timed(p) for p in painters]
        use(*timed)
        start = time.perf_counter()
        drawn = draw()
        spent = time.perf_counter() - start
        calls = sum(t.calls for t in timed)
        per_shape.append(1000 * sum(t.spent for t in timed) / max(1, calls))
        per_face.append(1000 * spent / len(drawn))
    use(SKIA_PAINT_PATH, SKIA_GRADIENT_IMAGE)
    return drawn, statistics.median(per_shape), statistics.median(per_face), calls


def difference(a: Image.Image, b: Image.Image) -> tuple[float, int]:
    diff = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA"))
    return sum(ImageStat.Stat(diff).mean) / 4, max(hi for _, hi in diff.getextrema())


RENDERERS = {"resvg": (resvg_paint_path, resvg_gradient_image), "thorvg": (tvg_paint_path, tvg_gradient_image)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"{'picture':12} {'renderer':8} {'shapes':>6} {'ms/shape':>8} {'skia':>6} {'ms/face':>7} {'skia':>6} "
          f"{'mean diff':>9} {'max diff':>8}")
    totals = dict.fromkeys(["skia", *RENDERERS], 0.0)
    with tempfile.TemporaryDirectory() as folder:
        for name, draw in faces(Path(folder) / "project"):
            draw()  # fonts, images and templates loaded before timing
            skia_faces, skia_shape, skia_face, shapes = run(draw, (SKIA_PAINT_PATH, SKIA_GRADIENT_IMAGE), args.runs)
            if not shapes:
                continue
            totals["skia"] += skia_face * len(skia_faces)
            for renderer, painters in RENDERERS.items():
                drawn, per_shape, per_face, _ = run(draw, painters, args.runs)
                diffs = [difference(a, b) for a, b in zip(skia_faces, drawn, strict=True)]
                mean, biggest = statistics.mean(d[0] for d in diffs), max(d[1] for d in diffs)
                totals[renderer] += per_face * len(drawn)
                print(f"{name:12} {renderer:8} {shapes:6} {per_shape:8.2f} {skia_shape:6.2f} {per_face:7.1f} "
                      f"{skia_face:6.1f} {mean:9.3f} {biggest:8}")
                if args.out:
                    for i, (a, b) in enumerate(zip(skia_faces, drawn, strict=True)):
                        a.save(args.out / f"{name}.{i}.skia.png")
                        b.save(args.out / f"{name}.{i}.{renderer}.png")
    print("all faces with a vector shape, ms: " + ", ".join(f"{k} {v:.0f}" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
