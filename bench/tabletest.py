"""Times `deckpress test` of the scaffold's three table scenarios: `deckpress new x --scripted` in a fresh
temporary folder, then `deckpress test` there, as a separate command (start-up included), cold (the deck
built first) and again (the build's stamps hold: the scenarios alone, each at 1 and 20 frames late).

    python bench/tabletest.py [--runs N]

Prints the median and the best of N runs of each, wall and CPU seconds (user + sys of the command's
processes), and exits 1 when a run fails or either median is over the target of issue 35 (3 s).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import installed  # noqa: F401  (the children run deckpress compiled, as pip installs it)

TARGET = 3.0  # seconds, for the three scenarios


def timed(args: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """Run `python -m deckpress ARGS` in `cwd`: its wall and CPU seconds; stops the bench if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "deckpress", *args], cwd=cwd, env=env, capture_output=True,
                            text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"bench/tabletest.py: deckpress {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cold, warm = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, XDG_CACHE_HOME=str(Path(tmp) / "cache"))  # no stamps of earlier runs
            subprocess.run([sys.executable, "-m", "deckpress", "new", "x", "--scripted"], cwd=tmp, env=env,
                           check=True, stdout=subprocess.DEVNULL)
            cold.append(timed(["test"], Path(tmp) / "x", env))
            warm.append(timed(["test"], Path(tmp) / "x", env))
    for what, runs in (("cold (the deck built first)", cold), ("again (the build reused)", warm)):
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"deckpress test, the scaffold's 3 scenarios, {what}: median {statistics.median(walls):.2f} s "
              f"(best {min(walls):.2f} s), CPU median {statistics.median(cpus):.2f} s ({args.runs} runs)")
    if max(statistics.median(w for w, _ in runs) for runs in (cold, warm)) > TARGET:
        sys.exit(f"over the target of {TARGET:g} s")


if __name__ == "__main__":
    main()
