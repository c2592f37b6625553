"""Times a cold `deckpress build score` beside DeckSmith (PyPI) making 42 faces and one PDF, paired runs.

    python bench/decksmith.py [--runs N] [--decksmith-venv DIR]

DeckSmith is pip-installed into a temporary virtual environment (or the one given, kept between runs).
Its side of each run: `decksmith init`, its sample cards repeated to 42 rows, `decksmith build` (42
faces) and `decksmith export` (one PDF). deckpress's: a cold `deckpress build score` (21 unique faces
for 42 cards, the TTS save and sheets, 4 print-and-play PDFs and 2 calibration sheets) in a temporary
copy of the project. Prints the median and best of each and their ratio.
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

import installed  # noqa: F401  (the children run deckpress compiled, as pip installs it)

ROOT = Path(__file__).resolve().parents[1]


def timed(commands: list[list[str]], cwd: Path) -> float:
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def decksmith_venv(given: Path | None, tmp: Path) -> Path:
    venv = given or tmp / "decksmith-venv"
    tool = venv / "bin" / "decksmith"
    if not tool.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "decksmith"], check=True,
                       stderr=subprocess.DEVNULL)
    return tool


def decksmith_run(tool: Path, tmp: Path) -> float:
    project = Path(tempfile.mkdtemp(dir=tmp))
    subprocess.run([str(tool), "init"], cwd=project, check=True, stdout=subprocess.DEVNULL)
    lines = (project / "deck.csv").read_text(encoding="utf-8").splitlines()
    rows = [lines[1 + i % (len(lines) - 1)] for i in range(42)]
    (project / "deck.csv").write_text("\n".join([lines[0], *rows]) + "\n", encoding="utf-8")
    return timed([[str(tool), "build", "--output", "output"],
                  [str(tool), "export", "output", "--output", "deck.pdf"]], project)


def deckpress_run(tmp: Path) -> float:
    project = Path(tempfile.mkdtemp(dir=tmp))
    for folder in ("decks", "templates", "tts", "print"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, project / folder)
    return timed([[sys.executable, "-m", "deckpress", "build", "score", "--quiet"]], project)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decksmith-venv", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        tool = decksmith_venv(args.decksmith_venv, tmp)
        ours, theirs = [], []
        for _ in range(args.runs):  # paired: the machine's load changes alike for both
            theirs.append(decksmith_run(tool, tmp))
            ours.append(deckpress_run(tmp))
    print(f"{args.runs} paired runs, seconds (median / best)")
    print(f"  DeckSmith, 42 faces + 1 PDF         {statistics.median(theirs):6.2f} / {min(theirs):6.2f}")
    print(f"  deckpress build score, cold         {statistics.median(ours):6.2f} / {min(ours):6.2f}")
    print(f"  deckpress / DeckSmith (medians)     {statistics.median(ours) / statistics.median(theirs):6.2f}")


if __name__ == "__main__":
    main()
