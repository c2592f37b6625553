"""One-card edits timed side by side: two deckpress installations, alternated edit by edit.

    python bench/edits.py OTHER_PYTHON [--deck score] [--edits 24] [--change OLD NEW] [--profiles NAME,...]

OTHER_PYTHON is the Python of another installation (a checkout of an earlier commit with its own venv, say
/tmp/base/.venv/bin/python); this script's own Python is the second. Each gets its own copy of the project,
cache folder and compiled modules, builds the deck once, then both rebuild after the same one-card edit in
turn (A B A B ...), the card's text changed back and forth. A one-card edit is short and this machine's
speed drifts from minute to minute, so only edits timed next to each other compare: the script prints each
side's median and best, and the median of the edit-by-edit ratios. With --profiles the deck prints those
profiles in place of its own (`--profiles drivethrucards`: each edit writes the PDF/X files again, every face
converted to CMYK).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the Python of the other installation (A)")
    parser.add_argument("--deck", default="score")
    parser.add_argument("--edits", type=int, default=24)
    parser.add_argument("--change", nargs=2, metavar=("OLD", "NEW"),
                        default=["You can't be targeted", "You cannot be targeted"])
    parser.add_argument("--profiles", help="the deck's print profiles, comma-separated (default: its own)")
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # see installed.py
    times: dict[str, list[float]] = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as tmp:
        sides = {}
        for side, python in (("A", args.other), ("B", sys.executable)):
            project = Path(tmp) / side
            for folder in ("decks", "templates", "tts", "print"):
                if (ROOT / folder).is_dir():
                    shutil.copytree(ROOT / folder, project / folder)
            if args.profiles:
                deck = project / "decks" / f"{args.deck}.yaml"
                text = re.sub(r"^print:\n(?:[ #].*\n|\n)*", "", deck.read_text(encoding="utf-8"), flags=re.M)
                deck.write_text(f"{text.rstrip()}\nprint:\n  profiles: [{args.profiles}]\n", encoding="utf-8")
            side_env = dict(env, XDG_CACHE_HOME=f"{tmp}/cache-{side}", PYTHONPYCACHEPREFIX=f"{tmp}/pyc-{side}")
            command = [python, "-m", "deckpress", "build", args.deck, "--quiet"]
            subprocess.run(command, cwd=project, env=side_env, check=True)
            sides[side] = (project / "decks" / f"{args.deck}.yaml", project, side_env, command)
        for edit in range(args.edits):
            old, new = args.change if edit % 2 == 0 else args.change[::-1]
            for side, (deck, project, side_env, command) in sides.items():
                text = deck.read_text(encoding="utf-8")
                if old not in text:
                    sys.exit(f"{old!r} is not in {deck.name}; pass --change OLD NEW")
                deck.write_text(text.replace(old, new, 1), encoding="utf-8")
                start = time.perf_counter()
                subprocess.run(command, cwd=project, env=side_env, check=True)
                times[side].append(time.perf_counter() - start)
    for side, python in (("A", args.other), ("B", sys.executable)):
        print(f"{side} {python}: median {statistics.median(times[side]):.3f} s, best {min(times[side]):.3f} s")
    ratios = [b / a for a, b in zip(times["A"], times["B"])]
    print(f"B / A, edit by edit: median {statistics.median(ratios):.3f} ({args.edits} edits)")


if __name__ == "__main__":
    main()
