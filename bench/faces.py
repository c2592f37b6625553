"""Times drawing and encoding one card face, in this process, for every shipped deck and a new game.

    python bench/faces.py [--runs N] [DECK ...]

Each deck's faces (every unique front and back, as `deckpress build` draws them) are drawn and encoded
N times; per deck it prints the faces, then milliseconds per face: drawing (FaceRenderer.render),
encoding (the PNG bytes FaceStage writes) and both, each the median over runs of the run's mean.
A deck is a name in decks/ (default: all of them) or `new`, a `deckpress new` project made in a
temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deckpress.deck import load_deck
from deckpress.faces import FaceStage, plan_faces
from deckpress.png import encode

ROOT = Path(__file__).resolve().parents[1]


def time_faces(deck_path: Path, runs: int) -> tuple[int, float, float]:
    """The number of faces, and the median over `runs` of the mean ms per face to draw and to encode."""
    deck = load_deck(deck_path)
    stage = FaceStage(deck, out=None, previous=None, previous_faces={})
    faces = plan_faces(deck).all()
    draws, encodes = [], []
    for _ in range(runs):
        draw = code = 0.0
        for face in faces:
            component = {"id": face.component.id, "name": face.component.name}
            card = face.card.fields() if face.card else {}
            where = face.card.where if face.card else face.component.source.at("back")
            start = time.perf_counter()
            image = stage.renderer.render(face.template, card, component, face.component.size, where, "bench")
            middle = time.perf_counter()
            encode(image, stage.dpi)
            draw, code = draw + middle - start, code + time.perf_counter() - middle
        draws.append(1000 * draw / len(faces))
        encodes.append(1000 * code / len(faces))
    return len(faces), statistics.median(draws), statistics.median(encodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="*", help="deck names in decks/, or `new` (default: all and new)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    names = args.decks or [*sorted(p.stem for p in (ROOT / "decks").glob("*.yaml")), "new"]
    load = Path("/proc/loadavg")
    print("ms per face, one process" + (f" (load {load.read_text().split()[0]} at the start)"
                                        if load.exists() else ""))
    print(f"{'deck':>8} {'faces':>6} {'draw':>7} {'encode':>7} {'total':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            if name == "new":
                project = Path(tmp) / "new"
                subprocess.run([sys.executable, "-m", "deckpress", "new", str(project), "--name", "Bench"],
                               check=True, stdout=subprocess.DEVNULL)
                path = project / "decks" / "bench.yaml"
            else:
                path = ROOT / "decks" / f"{name}.yaml"
            count, draw, code = time_faces(path, args.runs)
            print(f"{name:>8} {count:6d} {draw:7.1f} {code:7.1f} {draw + code:7.1f}")


if __name__ == "__main__":
    main()
