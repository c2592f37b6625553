"""Times the PDF builder alone (CPU seconds), for each deck of the project, in one process: the faces are drawn once
(by a `deckpress build` in a temporary copy of the project), then the PDF builder runs

  cold    without records: every PDF made, the rules typeset from scratch;
  layout  with the previous build's records but those of the deck's PDFs, as after a change of what the
          PDFs show besides the faces (a card's count, a component's name): those PDFs made again, the
          rules' recorded page plan used, the calibration sheets taken from the previous build;
  edit    with the previous build's records and files, one face's pixels changed, as after a one-card
          edit: that face's image replaced in the previous build's PDFs.

    python bench/pdf.py [DECK ...] [--runs N] [--project DIR]

`rules` is the part of the time spent in deckpress.builders.pdf.rules (typesetting the rules reminder). The first
row, the layout case of the first deck, is the first PDF build of the process, as in a real
`deckpress build`: it includes what is done once per process (reading the fonts); the other rows give
the median of N runs.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import wraps
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """Time spent in the functions of deckpress.builders.pdf.rules that the PDF builder calls."""

    def __init__(self) -> None:
        self.rules = 0.0
        self.depth = 0

    def wrap(self, module) -> None:
        for name, value in list(vars(module).items()):
            if callable(value) and getattr(value, "__module__", "") == "deckpress.builders.pdf.rules" \
                    and isinstance(value, type(lambda: 0)):
                setattr(module, name, self._timed(value))

    def _timed(self, function):
        @wraps(function)
        def timed(*args, **kwargs):
            self.depth += 1
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.depth -= 1
                if not self.depth:
                    self.rules += time.process_time() - start
        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="*", help="deck names (default: every deck in decks/)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--project", type=Path, default=ROOT)
    args = parser.parse_args()
    from deckpress.build import MANIFEST
    from deckpress.builders import PDFBuilder
    from deckpress.builders.pdf import steps as pdf
    from deckpress.context import BuildContext, BuildOptions
    from deckpress.deck import load_deck
    from deckpress.faces import plan_faces
    from deckpress.inputs import Records
    from deckpress import png
    from deckpress.render import DPI

    clock = Clock()
    clock.wrap(pdf)
    names = args.decks or sorted(p.stem for p in (args.project / "decks").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for folder in ("decks", "templates", "tts", "print"):
            if (args.project / folder).is_dir():
                shutil.copytree(args.project / folder, project / folder)
        subprocess.run([sys.executable, "-m", "deckpress", "build", *names, "--quiet"], cwd=project,
                       check=True, stdout=subprocess.DEVNULL)
        contexts = {}
        for name in names:
            deck = load_deck(project / "decks" / f"{name}.yaml", None)
            previous = project / "build" / deck.name
            manifest = json.loads((previous / MANIFEST).read_text(encoding="utf-8"))
            faces = plan_faces(deck)
            # a change of layout: every record but the deck's PDFs' (the calibration sheets' stay)
            layout = {k: v for k, v in manifest["records"].items()
                      if not (k.startswith(f"print/{deck.name}-") and k.endswith(".pdf"))}
            contexts[name] = (deck, faces, previous, layout, manifest["records"])

        def run(name: str, old: dict | None, edit: bool = False) -> tuple[float, float]:
            deck, faces, previous = contexts[name][:3]
            out = Path(tempfile.mkdtemp(dir=tmp))
            for face in faces.all():  # the faces drawn by the build above, where the builder reads them
                target = out / face.path
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(previous / face.path, target)
            if edit:  # a card's face changed: a pixel of its first printed face
                face = next(f for f in faces.all() if f.card is not None and f.card.count)
                image = png.read(out / face.path)
                image.putpixel((0, 0), tuple(255 - v for v in image.getpixel((0, 0))))
                (out / face.path).write_bytes(png.encode(image, DPI))
            ctx = BuildContext(deck=deck, faces=faces, out=out, final=previous, previous=previous,
                               options=BuildOptions(quiet=True), progress=lambda message: None,
                               records=Records(out, previous, old or {}))
            clock.rules = 0.0
            start = time.process_time()
            pdf.build(ctx, PDFBuilder.defaults())
            total = time.process_time() - start
            shutil.rmtree(out)
            return total, clock.rules

        first = run(names[0], contexts[names[0]][3])
        print(f"PDF builder alone, CPU seconds (median of {args.runs} runs; rules = rules reminder typesetting)")
        print(f"  {'deck':10} {'cold':>7} {'rules':>7}   {'layout':>7} {'rules':>7}   {'edit':>7}")
        print(f"  {names[0] + '*':10} {'':>7} {'':>7}   {first[0]:7.3f} {first[1]:7.3f}"
              "   * first PDF build of the process")
        sums = [0.0] * 5
        for name in names:
            cold = [run(name, None) for _ in range(args.runs)]
            layout = [run(name, contexts[name][3]) for _ in range(args.runs)]
            edit = [run(name, contexts[name][4], edit=True) for _ in range(args.runs)]
            row = [statistics.median(t[0] for t in cold), statistics.median(t[1] for t in cold),
                   statistics.median(t[0] for t in layout), statistics.median(t[1] for t in layout),
                   statistics.median(t[0] for t in edit)]
            sums = [a + b for a, b in zip(sums, row)]
            print(f"  {name:10} {row[0]:7.3f} {row[1]:7.3f}   {row[2]:7.3f} {row[3]:7.3f}   {row[4]:7.3f}")
        print(f"  {'all':10} {sums[0]:7.3f} {sums[1]:7.3f}   {sums[2]:7.3f} {sums[3]:7.3f}   {sums[4]:7.3f}")


if __name__ == "__main__":
    main()
