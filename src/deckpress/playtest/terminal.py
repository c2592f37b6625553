"""The report as the terminal shows it (alone, or side by side with OTHER_DECK's), and its lines that the
page says too: the run's title, the unfinished games to replay, the first player's advantage.
"""

from __future__ import annotations


def pct(x: float | None) -> str:
    """A rate as a percentage to a tenth ("-" for none)."""
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{100 * ci[0]:.1f} to {100 * ci[1]:.1f}%"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return [line(header), *(line(r) for r in rows)]


def ordinal(n: int) -> str:
    """A place in the turn order: "2nd to move"."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')} to move"


def first_player(r: dict) -> str:
    """The first player's advantage: its win rate less a fair share, with the interval; with --rotate, free of
    which bot sits where."""
    first = r["first_player"]
    how = "every seating played equally" if r["rotate"] else "seat 1 always moves first; --rotate plays every seating"
    return (f"first player's advantage: {_signed(first['advantage'])} points over a fair {pct(1 / r['players'])} "
            f"(95% interval {_signed(first['ci95'][0])} to {_signed(first['ci95'][1])}; {how})")


def title(r: dict) -> str:
    bots = ",".join(r["bots"])
    mode = f" ({r['mode']})" if r["mode"] else ""
    budget = f", budget {r['budget']}" if r.get("budget") else ""
    stopped = " (stopped: the games finished so far)" if r["stopped"] else ""
    played = r["games"] + r["unfinished"]["games"]
    return (f"{r['deck']}{mode}: {r['players']} players, {played:,} games, seed {r['seed']}, bots {bots}"
            f"{budget}{stopped}")


def unfinished(r: dict) -> str | None:
    """The line about the games that did not end within --max-moves (left out of the figures), naming one to
    replay: game g of a run is the last of the run's first g games."""
    left = r["unfinished"]
    if not left["games"]:
        return None
    played = r["games"] + left["games"]
    return (f"{left['games']:,} of {played:,} games did not end in {left['max_moves']:,} moves and are left out of "
            f"the figures; replay one: --seed {r['seed']} --games {left['replay'][0]}")


def text(r: dict, diff: dict | None = None, other: dict | None = None) -> str:
    """The report as the terminal shows it (with `diff` and `other`: side by side with OTHER_DECK)."""
    lines = [title(r)]
    if other is not None:
        lines.append(f"against {title(other)}")
    lines += [line for line in (unfinished(r), other and unfinished(other)) if line]
    lines.append("")
    if diff is None:
        lines += _table(["seat", "bot", "wins", "win rate", "95% interval"],
                        [[f"{s['seat']} {s['id']}", s["bot"], f"{s['wins']:g}", pct(s["win_rate"]),
                          _interval(s["ci95"])] for s in r["seats"]])
        if r["rotate"]:
            lines.append("")
            lines += _table(["place in the turn order", "wins", "win rate", "95% interval"],
                            [[ordinal(p["place"]), f"{p['wins']:g}", pct(p["win_rate"]), _interval(p["ci95"])]
                             for p in r["places"]])
        lines += ["", first_player(r)]
        if r["cards"]:
            lines.append("")
            lines += _table(["card", "played", "win rate when played", "95% interval"],
                            [[c["name"], str(c["played"]), pct(c["win_rate_when_played"]), _interval(c["ci95"])]
                             for c in r["cards"]])
    else:
        lines += _table(["seat", "win rate", "other", "difference", "95% interval", ""],
                        [[f"{s['seat']} {r['seats'][i]['id']}", pct(s["win_rate"]), pct(s["other_win_rate"]),
                          _signed(s["difference"]), _interval(s["ci95"]), "*" if s["significant"] else ""]
                         for i, s in enumerate(diff["seats"])])
        lines.append("")
        lines += _table(["card", "played", "other", "win rate", "other", "difference", "95% interval", ""],
                        [[c["name"], str(c["played"]), str(c["other_played"]), pct(c["win_rate_when_played"]),
                          pct(c["other_win_rate_when_played"]), _signed(c["difference"]), _interval(c["ci95"]),
                          "*" if c["significant"] else ("new" if c.get("new") else "gone" if c.get("gone") else "")]
                         for c in diff["cards"]])
        lines += ["", "* the difference's 95% interval excludes 0; differences in percentage points (other - deck)"]
    length = r["length"]
    lines += ["", f"length: mean {length['mean']:g} moves, p10 {length['p10']:g}, p90 {length['p90']:g}"
              + (f"; other: mean {other['length']['mean']:g}" if other is not None else "")]
    for name, flag in r["engine"].items():
        lines.append(f"{name}: {pct(flag['rate'])} of {flag['events']:,} events"
                     + (f"; other: {pct(other['engine'][name]['rate'])}"
                        if other is not None and name in other["engine"] else ""))
    return "\n".join(lines)

