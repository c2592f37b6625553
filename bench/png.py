"""Times the inflate that reads faces back (png.read) on the shipped decks' built faces, per library.

    python bench/png.py [--runs N] [BUILD]

Every face PNG under BUILD (default build/, after `deckpress build`) has its zlib data inflated by Python's
zlib, zlib-ng (python-zlib-ng, deckpress's) and, where installed, ISA-L (python-isal). Prints, per library,
the total over the faces of each face's best time of N runs, and the least and greatest ratio of a face's
time to zlib-ng's.
"""

from __future__ import annotations

import argparse
import time
import zlib
from pathlib import Path

from zlib_ng import zlib_ng

from deckpress import png

ROOT = Path(__file__).resolve().parents[1]


def libraries() -> dict:
    found = {"zlib": zlib.decompress, "zlib-ng": zlib_ng.decompress}
    try:
        from isal import isal_zlib
    except ImportError:
        return found
    return {**found, "isa-l": isal_zlib.decompress}


def best(inflate, data: bytes, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        inflate(data)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", type=Path, default=ROOT / "build")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    faces = [png.image_data(path) for path in sorted(args.build.glob("*/faces/**/*.png"))]
    if not faces:
        raise SystemExit(f"no faces under {args.build}: run `deckpress build` first")
    inflaters = libraries()
    spent = {name: [best(inflate, idat, args.runs) for idat in faces] for name, inflate in inflaters.items()}
    print(f"{len(faces)} faces, {sum(map(len, faces)) / 1e6:.1f} MB of zlib data, best of {args.runs} runs each")
    for name, times in spent.items():
        ratios = [t / ng for t, ng in zip(times, spent["zlib-ng"])]
        print(f"{name:8} {sum(times) * 1000:8.1f} ms in all   a face in {min(ratios):.2f} to {max(ratios):.2f} "
              "times zlib-ng's time")


if __name__ == "__main__":
    main()
