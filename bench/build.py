"""Times `deckpress build` of a deck: cold, no-change rebuild, and a rebuild after one card changed.

    python bench/build.py [DECK] [--runs N] [--edits K]
    python bench/build.py --all [--runs N]     every deck of the project in one build: cold and no-change

Runs in a temporary copy of the project, so the real build/ is not touched. Prints the median
and the best of N runs of each case, in seconds. `--edits K`: K one-card edits a run, the card's text changed
back and forth (a one-card edit is short and its times spread: more of them steady the median).
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


def timed(args: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "deckpress", *args], cwd=cwd, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", nargs="?", default="score")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--all", action="store_true", help="build every deck (cold and no-change only)")
    parser.add_argument("--edits", type=int, default=1, help="one-card edits a run (default 1)")
    parser.add_argument("--change", nargs=2, metavar=("OLD", "NEW"),
                        default=["You can't be targeted", "You cannot be targeted"],
                        help="text in the deck file whose change is the 'one card changed' case")
    args = parser.parse_args()
    results: dict[str, list[float]] = {"cold build": [], "no-change rebuild": []}
    if not args.all:
        results["one card changed"] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp)
            for folder in ("decks", "templates", "tts", "print"):
                if (ROOT / folder).is_dir():
                    shutil.copytree(ROOT / folder, project / folder)
            build = ["build", "--quiet"] if args.all else ["build", args.deck, "--quiet"]
            results["cold build"].append(timed(build, project))
            results["no-change rebuild"].append(timed(build, project))
            if args.all:
                continue
            deck = project / "decks" / f"{args.deck}.yaml"
            text = deck.read_text(encoding="utf-8")
            if args.change[0] not in text:
                sys.exit(f"{args.change[0]!r} is not in {deck.name}; pass --change OLD NEW")
            for edit in range(args.edits):
                old, new = args.change if edit % 2 == 0 else args.change[::-1]
                text = text.replace(old, new, 1)
                deck.write_text(text, encoding="utf-8")
                results["one card changed"].append(timed(build, project))
    load = Path("/proc/loadavg")
    print(f"deckpress build {'(every deck)' if args.all else args.deck}: {args.runs} runs, seconds (median / best)"
          + (f"; load {load.read_text().split()[0]} at the end" if load.exists() else ""))
    for case, times in results.items():
        print(f"  {case:18} {statistics.median(times):6.2f} / {min(times):6.2f}")


if __name__ == "__main__":
    main()
