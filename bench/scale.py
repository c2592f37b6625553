"""Times a cold `deckpress build` of a new game with N unique cards, for several N, and its peak memory.

    python bench/scale.py [--cards 100 300 1000 3000]

Each run is a fresh `deckpress new` project in a temporary folder whose deck is one family of N cards,
every card with its own name, number and text. Prints, per N, the seconds, the milliseconds per card
and the peak resident memory of the largest process of the build (its main one or a face-drawing
worker).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import installed  # noqa: F401  (the children run deckpress compiled, as pip installs it)

# Runs the build as a child of its own, so the peak is this build's, whatever ran before.
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run([sys.executable, "-m", "deckpress", "build", "--quiet"], check=True)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


FAMILY = 1000  # cards a family may make (docs/deck-format.md, Limits): larger decks are several families


def make_project(root: Path, cards: int) -> None:
    subprocess.run([sys.executable, "-m", "deckpress", "new", str(root), "--name", "Scale"], check=True,
                   stdout=subprocess.DEVNULL)
    deck = root / "decks" / "scale.yaml"
    text = deck.read_text(encoding="utf-8")
    family = re.search(r"      - each: \{n: \[[^\]]*\]\}\n((?:        .*\n)+)", text)
    if family is None:
        sys.exit("the new game's deck has no family of cards to grow; update bench/scale.py")
    # the family alone, as many as it takes: one copy of each card, and no other card
    body = family.group(1).replace("        count: 3\n", "        count: 1\n", 1)
    families = "".join(f"      - each: {{n: [{', '.join(str(n) for n in range(first, min(first + FAMILY, cards + 1)))}]}}\n"
                       + body for first in range(1, cards + 1, FAMILY))
    text = text[:family.start()] + families + text[family.end():]
    text = re.sub(r"      - name: Wild\n(        .*\n)+", "", text, count=1)
    deck.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[100, 300, 1000, 3000])
    args = parser.parse_args()
    load = Path("/proc/loadavg")
    print("cold deckpress build of N unique cards" + (f" (load {load.read_text().split()[0]} at the start)"
                                                      if load.exists() else ""))
    print(f"{'cards':>6} {'seconds':>8} {'ms/card':>8} {'peak MB':>8}")
    for count in args.cards:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "scale"
            make_project(root, count)
            run = subprocess.run([sys.executable, "-c", MEASURE], cwd=root, capture_output=True, text=True)
            if run.returncode:
                sys.exit(f"the build of {count} cards failed:\n{run.stderr}")
            seconds, peak = float(run.stdout.split()[0]), int(run.stdout.split()[1])
            built = len(list((root / "build" / "scale" / "faces" / "deck").glob("*.png")))
            if built != count + 1:
                sys.exit(f"expected {count} faces and a back, found {built}")
        print(f"{count:6d} {seconds:8.2f} {1000 * seconds / count:8.1f} {peak / 1024:8.0f}")


if __name__ == "__main__":
    main()
