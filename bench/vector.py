"""Times the vector shapes of docs/templates.md's pictures and compares their faces with a reference set.

    python bench/vector.py [--runs N] [--out FOLDER] [--against FOLDER]

Every example of the drawing docs with a vector shape (vector.py: polygons, stars, paths, dashed outlines,
gradients) is drawn as docs/pictures.py draws it. Per picture it prints the shapes drawn, ms per shape (the
painter alone, the median over runs of the run's mean) and ms per face (the whole FaceRenderer.render). With
--out, every face is written there as NAME.I.png; with --against, each face is compared with the folder's
NAME.I.png (another renderer's or another commit's --out), printing the mean and largest absolute
difference over its RGBA channels (0-255) and the share of pixels that differ by more than 8 in a channel.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs"))

import pictures  # docs/pictures.py, found through the path above

from deckpress import vector
from deckpress.deck import load_deck
from deckpress.render import FaceRenderer

PAINTERS = [sys.modules[f"deckpress.elements.{name}"] for name in ("ellipse", "line", "path", "polygon", "rect")]
# (the element modules that import paint_path by name; importing render imported every element type)


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


def run(draw, runs: int):
    """The faces, ms per shape, ms per face and shapes per run."""
    painters = vector.paint_path, vector.gradient_image
    per_shape, per_face, drawn, calls = [], [], [], 0
    try:
        for _ in range(runs):
            timed = [Timed(p) for p in painters]
            use(*timed)
            start = time.perf_counter()
            drawn = draw()
            spent = time.perf_counter() - start
            calls = sum(t.calls for t in timed)
            per_shape.append(1000 * sum(t.spent for t in timed) / max(1, calls))
            per_face.append(1000 * spent / len(drawn))
    finally:
        use(*painters)
    return drawn, statistics.median(per_shape), statistics.median(per_face), calls


def difference(a: Image.Image, b: Image.Image) -> tuple[float, int, float]:
    diff = ImageChops.difference(a.convert("RGBA"), b.convert("RGBA"))
    biggest = max(hi for _, hi in diff.getextrema())
    over = sum(diff.point(lambda v: 255 if v > 8 else 0).convert("L").histogram()[1:]) / (a.width * a.height)
    return sum(ImageStat.Stat(diff).mean) / 4, biggest, over


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    print(f"{'picture':12} {'shapes':>6} {'ms/shape':>8} {'ms/face':>7}"
          + (f" {'mean diff':>9} {'max diff':>8} {'over 8':>7}" if args.against else ""))
    total = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, draw in faces(Path(folder) / "project"):
            draw()  # fonts, images and templates loaded before timing
            drawn, per_shape, per_face, shapes = run(draw, args.runs)
            if not shapes:
                continue
            total += per_face * len(drawn)
            line = f"{name:12} {shapes:6} {per_shape:8.2f} {per_face:7.1f}"
            if args.against:
                diffs = [difference(face, Image.open(args.against / f"{name}.{i}.png"))
                         for i, face in enumerate(drawn)]
                line += (f" {statistics.mean(d[0] for d in diffs):9.3f} {max(d[1] for d in diffs):8}"
                         f" {max(d[2] for d in diffs):7.2%}")
            print(line)
            if args.out:
                for i, face in enumerate(drawn):
                    face.save(args.out / f"{name}.{i}.png")
    print(f"all faces with a vector shape: {total:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
