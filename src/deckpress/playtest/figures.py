"""The figures of a run (docs/playtest.md): each seat's, each place's and each card's win rate with its 95 %
Wilson interval, the first player's advantage, the games' length and the engine's event flags, summed over the
finished games in game order; and the differences against another deck played with the same seeds, with
Newcombe's interval. The report is plain data: what --json writes, the terminal's text and the page show.
"""

from __future__ import annotations

import math
import re

from .games import Played

REPLAYS = 5  # unfinished games named in the report
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval


def wilson(successes: float, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of a proportion (95 % by default); successes may be fractional (tie
    shares). [0, 1] when n is 0."""
    if n <= 0:
        return [0.0, 1.0]
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _percentile(values: list[int], q: float) -> float:
    """The nearest-rank percentile q (0..1) of sorted values."""
    if not values:
        return 0.0
    return float(values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))])


def natural(text: str) -> tuple:
    """A sort key that orders the numbers in a text by their value: Comet 2 before Comet 10."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part.casefold())
                 for part in re.split(r"(\d+)", text) if part)


def _r(x: float) -> float:
    return round(x, 4)


def report(played: Played) -> dict:
    """The report of the games played, in the shape of docs/playtest.md."""
    run = played.run
    order = [g for g in sorted(played.games) if not played.games[g].get("unfinished")]
    unfinished = [g for g in sorted(played.games) if played.games[g].get("unfinished")]
    n = len(order)
    wins = [0.0] * run.players
    place_wins = [0.0] * run.players  # by the place in the turn order
    cards: dict[str, list[float]] = {}  # id -> [pairs played, win shares]
    lengths = []
    flags: dict[str, list[int]] = {}
    for g in order:
        one = played.games[g]
        winners = one["winners"]
        for w in winners:
            wins[w - 1] += 1 / len(winners)
        for place in one["places"]:
            place_wins[place - 1] += 1 / len(winners)
        for seat, ids in enumerate(one["played"], start=1):
            mine = 1 / len(winners) if seat in winners else 0.0
            for card in ids:
                tally = cards.setdefault(card, [0, 0.0])
                tally[0] += 1
                tally[1] += mine
        lengths.append(one["length"])
        for name, (true, count) in ((k, v) for k, v in one["flags"].items()):
            tally = flags.setdefault(name, [0, 0])
            tally[0] += true
            tally[1] += count
    lengths.sort()
    seats = [{"seat": i + 1, "id": run.seats[i], "bot": run.bots[i], "wins": _r(wins[i]),
              "win_rate": _r(wins[i] / n) if n else 0.0, "ci95": [_r(x) for x in wilson(wins[i], n)]}
             for i in range(run.players)]
    places = [{"place": i + 1, "wins": _r(place_wins[i]), "win_rate": _r(place_wins[i] / n) if n else 0.0,
               "ci95": [_r(x) for x in wilson(place_wins[i], n)]} for i in range(run.players)]
    fair = 1 / run.players
    first = {"advantage": _r(places[0]["win_rate"] - fair) if n else 0.0,
             "ci95": [_r(x - fair) for x in wilson(place_wins[0], n)]}
    card_rows = [{"id": card, "name": run.cards.get(card, card), "played": int(pairs),
                  "win_rate_when_played": _r(won / pairs), "ci95": [_r(x) for x in wilson(won, int(pairs))]}
                 for card, (pairs, won) in cards.items()]
    card_rows.sort(key=lambda row: (-row["win_rate_when_played"], natural(row["name"]), natural(row["id"])))
    engine = {name: {"rate": _r(true / count), "events": count} for name, (true, count) in sorted(flags.items())}
    return {
        "deck": run.deck, "mode": run.mode, "players": run.players, "games": n, "seed": run.seed,
        "bots": list(run.bots), "budget": run.budget if "search" in run.bots else None,
        "stopped": played.stopped,
        "unfinished": {"games": len(unfinished), "max_moves": run.max_moves, "replay": unfinished[:REPLAYS]},
        "rotate": run.rotate, "seats": seats, "places": places, "first_player": first, "cards": card_rows,
        "length": {"mean": _r(sum(lengths) / n) if n else 0.0, "p10": _percentile(lengths, 0.1),
                   "p90": _percentile(lengths, 0.9), "unit": "moves"},
        "engine": engine,
    }


def newcombe(a: tuple[float, int], b: tuple[float, int], z: float = Z95) -> list[float]:
    """Newcombe's hybrid score interval (his method 10) of the difference of two proportions a - b, each
    (successes, n), from their Wilson intervals."""
    (sa, na), (sb, nb) = a, b
    pa, pb = (sa / na if na else 0.0), (sb / nb if nb else 0.0)
    la, ua = wilson(sa, na, z)
    lb, ub = wilson(sb, nb, z)
    d = pa - pb
    return [d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)]


def compare(base: dict, other: dict) -> dict:
    """`other` (OTHER_DECK) against `base` (DECK), played with the same seeds: each seat's and card's win
    rate in both, the difference (other - base), its interval and whether that interval excludes 0."""
    def diff(a_rate, a_n, b_rate, b_n) -> dict:
        lo, hi = newcombe((b_rate * b_n, b_n), (a_rate * a_n, a_n))
        return {"difference": _r(b_rate - a_rate), "ci95": [_r(lo), _r(hi)], "significant": lo > 0 or hi < 0}

    seats = [{"seat": a["seat"], "win_rate": a["win_rate"], "other_win_rate": b["win_rate"],
              **diff(a["win_rate"], base["games"], b["win_rate"], other["games"])}
             for a, b in zip(base["seats"], other["seats"])]
    by_id = {c["id"]: c for c in base["cards"]}
    cards = []
    for b in other["cards"]:
        a = by_id.get(b["id"])
        row = {"id": b["id"], "name": b["name"], "played": a["played"] if a else 0, "other_played": b["played"],
               "win_rate_when_played": a["win_rate_when_played"] if a else None,
               "other_win_rate_when_played": b["win_rate_when_played"]}
        if a:
            row.update(diff(a["win_rate_when_played"], a["played"], b["win_rate_when_played"], b["played"]))
        else:
            row.update({"difference": None, "ci95": None, "significant": False, "new": True})
        cards.append(row)
    for a in base["cards"]:
        if not any(c["id"] == a["id"] for c in other["cards"]):
            cards.append({"id": a["id"], "name": a["name"], "played": a["played"], "other_played": 0,
                          "win_rate_when_played": a["win_rate_when_played"], "other_win_rate_when_played": None,
                          "difference": None, "ci95": None, "significant": False, "gone": True})
    length = {"mean": base["length"]["mean"], "other_mean": other["length"]["mean"],
              "difference": _r(other["length"]["mean"] - base["length"]["mean"])}
    return {"seats": seats, "cards": cards, "length": length}

