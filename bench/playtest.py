"""Times `deckpress playtest` on the shipped games, with random bots on every core (issue 24's targets: 10,000
four-player SCORE! Classic! games, and 1,000 games each of Skorch, Scout and Scoop, each under 60 s on 2 cores).

    python bench/playtest.py [--only score,skorch,...] [--scale F] [--lua jit|5.2]

Prints, per game, the wall time, the CPU time of the processes that played and the games per second. On a
machine shared with other work the wall time is the CPU time over the cores it got; --scale 0.1 plays a tenth.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from deckpress import playtest

ROOT = Path(__file__).resolve().parent.parent
CASES = {"score": 10_000, "skorch": 1_000, "scout": 1_000, "scoop": 1_000}  # 4 players each, random bots
TARGET = 60.0


def cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(CASES))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--lua", default="jit", choices=list(playtest.RUNTIMES))
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, Lua {args.lua}")
    for name in args.only.split(","):
        games = max(1, round(CASES[name] * args.scale))
        run = playtest.prepare(ROOT / "decks" / f"{name}.yaml", games=games, players=4, runtime=args.lua)
        start, used = time.perf_counter(), cpu()
        report = playtest.report(playtest.play(run))
        wall, used = time.perf_counter() - start, cpu() - used
        assert report["games"] == games
        verdict = "" if args.scale != 1.0 else (" (under 60 s)" if wall < TARGET else " (OVER 60 s)")
        print(f"{name} ({report['mode'] or 'default'}): {games:,} games in {wall:.1f} s{verdict}, {used:.1f} s CPU, "
              f"{games / wall:,.0f} games/s, {1000 * used / games:.2f} ms CPU a game, "
              f"{report['length']['mean']:.0f} moves a game")


if __name__ == "__main__":
    main()
