"""Times `studio.sources.card_sources` (where each part of each face came from, for `deckpress studio`'s
page) on a new game of N unique cards, the deck loaded once beforehand, as the studio holds it.

    python bench/sources.py [--cards 2000] [--runs 5]

The project is bench/scale.py's (`deckpress new`, its deck one family per 1,000 cards). Prints the median
and the best of the runs, and per card.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from scale import make_project

from deckpress.deck import load_deck
from deckpress.studio.sources import card_sources

TARGET = 1.0  # seconds for 2,000 cards: "well under" it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "scale"
        make_project(root, args.cards)
        deck = load_deck(root / "decks" / "scale.yaml")
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            cards = card_sources(deck)
            times.append(time.perf_counter() - start)
        if len(cards) < args.cards:
            raise SystemExit(f"expected at least {args.cards} cards, got {len(cards)}")
        size = len(json.dumps(cards))
    best, median = min(times), statistics.median(times)
    print(f"card_sources of {len(cards)} cards: median {median:.3f} s, best {best:.3f} s "
          f"({1000 * median / len(cards):.2f} ms a card; target under {TARGET} s), {size / 1e6:.1f} MB of JSON, "
          f"{args.runs} runs")


if __name__ == "__main__":
    main()
