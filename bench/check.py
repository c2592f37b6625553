"""Times `deckpress check` of a `deckpress new --scripted` game, its Lua compiled and its engine's self-play
against the contract included (issue 35's target: at most 1.5 s on 2 cores), as a whole command (start-up
included), in one project made once.

    python bench/check.py [--runs N]

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

TARGET = 1.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "deckpress", "new", "climb", "--scripted"], cwd=tmp, check=True,
                       capture_output=True)
        project = Path(tmp) / "climb"
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "deckpress", "check"], cwd=project, check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    print(f"deckpress check of the scaffold: median {statistics.median(times):.2f} s, best {min(times):.2f} s "
          f"(target {TARGET} s), {args.runs} runs")


if __name__ == "__main__":
    main()
