"""Times ink.lightened (a low-ink draft's face, docs/print.md "Drafts") on every face of the shipped decks, drawn
first by a `deckpress build` in a temporary copy of the project: CPU ms a face, median and most, per deck.

    python bench/draft.py [--coverage 0.25]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--coverage", type=float, default=0.25)
    args = parser.parse_args()
    from deckpress import png
    from deckpress.ink import lightened

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns("build", ".git", ".venv", "tests", "src"))
        for deck in ("score", "scoop", "scout", "skorch"):
            subprocess.run([sys.executable, "-m", "deckpress", "build", deck, "--quiet"], cwd=project, check=True)
            times = []
            for face in sorted((project / "build" / deck / "faces").rglob("*.png")):
                image = png.read(face)
                start = time.process_time()
                lightened(image, args.coverage)
                times.append(1000 * (time.process_time() - start))
            print(f"{deck:8} {len(times):3} faces  median {statistics.median(times):6.1f} ms  most {max(times):6.1f} ms")


if __name__ == "__main__":
    main()
