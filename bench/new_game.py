"""Times what a new designer does first: `deckpress new x && cd x && deckpress build`, in a fresh
temporary folder each run, as two separate commands (start-up included).

    python bench/new_game.py [--runs N]

Prints the median and the best of N runs, in seconds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import installed  # noqa: F401  (the children run deckpress compiled, as pip installs it)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "deckpress", "new", "x"], cwd=tmp, check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run([sys.executable, "-m", "deckpress", "build", "--quiet"], cwd=Path(tmp) / "x", check=True)
            times.append(time.perf_counter() - start)
    print(f"deckpress new x && cd x && deckpress build: median {statistics.median(times):.2f} s, "
          f"best {min(times):.2f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()
