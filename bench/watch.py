"""Times the designer's loop: with `deckpress watch DECK` running, how long after a one-card text edit is
saved the new face PNG is on disk (in build/.drawn/DECK/, where watch shows each face as soon as it is drawn),
and how long the whole rebuild takes.

    python bench/watch.py [DECK] [--runs N]

Runs in a temporary copy of the project. Prints the median and best of N edits, in seconds.
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


def wait_for(condition, seconds: float = 120) -> float:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out")
        time.sleep(0.005)
    return time.perf_counter()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", nargs="?", default="score")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--card", default="faces/deck/no.png", help="the face the edit changes")
    parser.add_argument("--change", nargs=2, default=["You can't be targeted", "You cannot be targeted"])
    args = parser.parse_args()
    face_times, build_times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for folder in ("decks", "templates", "tts", "print"):
            if (ROOT / folder).is_dir():
                shutil.copytree(ROOT / folder, project / folder)
        log = project / "watch.log"
        with open(log, "w") as err:
            run = subprocess.Popen([sys.executable, "-m", "deckpress", "watch", args.deck], cwd=project,
                                   stdout=subprocess.DEVNULL, stderr=err)
        try:
            wait_for(lambda: "watching" in log.read_text())
            deck = project / "decks" / f"{args.deck}.yaml"
            face = project / "build" / ".drawn" / args.deck / args.card
            texts = [deck.read_text(encoding="utf-8")]
            texts.append(texts[0].replace(*args.change))
            for i in range(args.runs):
                before, rebuilt = face.read_bytes(), log.read_text().count("rebuilt in")
                start = time.perf_counter()
                deck.write_text(texts[(i + 1) % 2], encoding="utf-8")
                face_times.append(wait_for(lambda: face.is_file() and face.read_bytes() != before) - start)
                build_times.append(wait_for(lambda: log.read_text().count("rebuilt in") > rebuilt) - start)
        finally:
            run.terminate()
            run.wait()
    for name, times in (("new face on disk", face_times), ("whole rebuild done", build_times)):
        print(f"{name:20} median {statistics.median(times):.3f} s  best {min(times):.3f} s  ({args.runs} edits)")


if __name__ == "__main__":
    main()
