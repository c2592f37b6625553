"""`deckpress playtest`: whole games of a deck's scripted game, played headless by bots through the same Lua
modules its TTS save bundles, and the balance figures they give (docs/playtest.md).

The game's modules and deck data are those of the save (deckpress.builders.tts.lua's bundle, the TTS builder's
DATA), and the bots and the loop of a game are Lua too (data/playtest/bots.lua, module playtest.bots): a
process per core runs batches of games in its own LuaRuntime, and Python sees each game once, as what it
tells (winners, length, the cards each seat played, the engine's event flags). Game g of a run is played with
the seed `seed * SEED_STRIDE + g` whichever process plays it, and the figures are summed in game order, so
one seed gives one report on any number of cores.

Lua runs under LuaJIT by default (`--lua jit`: the same modules, 2.5 to 3 times as fast as Lua 5.2, with
table.unpack, table.pack and rawlen of 5.2 defined), or under Lua 5.2 itself, the dialect of TTS
(`--lua 5.2`); the tests check that both give one report.
"""

from __future__ import annotations

import hashlib
import html
import json
import math
import multiprocessing
import os
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .builders.tts import save
from .builders.tts.data import lua_data
from .builders.tts.lua import Module, find_modules
from .deck import load_deck
from .scripting import runtime
from .scripting.contract import playtest_modules
from .scripting.runtime import LuaFailure

BOTS = ("random", "greedy", "search")
MAX_GAMES = 1_000_000
MAX_BUDGET = 100_000
MAX_MOVES = 20_000  # a game's moves by default, after which it is counted as unfinished
MOST_MOVES = 10_000_000
REPLAYS = 5  # unfinished games named in the report
MAX_SEED = 2 ** 31 - 1
SEED_STRIDE = 1_000_003  # game g of seed s plays with s * SEED_STRIDE + g: seeds of two runs never meet
DEFAULT_PLAYERS = 4
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95 % interval

RUNTIMES = runtime.DIALECTS


class PlaytestError(Exception):
    """A mistake in the command line or the deck for playtest: one line (a Lua error: its line, the game that
    replays it and the Lua traceback), exit status 1."""


@dataclass
class Run:
    """What to play: a deck's game, its seats and their bots, how many games from which seed."""

    deck: str                 # the deck's name (its file's stem)
    path: Path
    mode: str | None
    players: int
    seats: list[str]          # seat ids (the save's TTS colours), in turn order
    bots: list[str]           # a bot per seat
    games: int
    seed: int
    budget: int
    runtime: str
    max_moves: int
    rotate: bool
    modules: list[Module] = field(repr=False)  # the save's modules and playtest's
    data: dict = field(repr=False)   # DATA of the save
    cards: dict[str, str] = field(default_factory=dict, repr=False)  # card id -> name


def prepare(path: Path, games: int = 1000, players: int | None = None, mode: str | None = None, seed: int = 1,
            bots: str = "random", budget: int = 100, runtime: str = "jit", max_moves: int = MAX_MOVES,
            rotate: bool = False) -> Run:
    """The run of `deckpress playtest` on the deck file `path`: its options checked (PlaytestError, one line)
    and its Lua and DATA made as the TTS builder makes them (DeckError for a mistake in the deck)."""
    if not 1 <= games <= MAX_GAMES:
        raise PlaytestError(f"--games {games}: play 1 to {MAX_GAMES:,} games")
    if not 0 <= seed <= MAX_SEED:
        raise PlaytestError(f"--seed {seed}: give a seed from 0 to {MAX_SEED}")
    if not 1 <= budget <= MAX_BUDGET:
        raise PlaytestError(f"--budget {budget}: give 1 to {MAX_BUDGET:,} playouts per decision of a search bot")
    if not 1 <= max_moves <= MOST_MOVES:
        raise PlaytestError(f"--max-moves {max_moves}: give 1 to {MOST_MOVES:,} moves (a game still going then is "
                            "counted as unfinished)")
    if runtime not in RUNTIMES:
        raise PlaytestError(f"--lua {runtime}: unknown; use {' or '.join(RUNTIMES)}")
    names = [b.strip() for b in bots.split(",")]
    for name in names:
        if name not in BOTS:
            raise PlaytestError(f"--bots {bots}: unknown bot {name!r}; use {', '.join(BOTS)} (one, or one per seat)")
    deck = load_deck(path)
    model = deck.model
    if not model.script or model.scripted is None:
        raise PlaytestError(f"{path}: the deck has no table script (`script:`) whose rules the bots could play; "
                            "playtest plays scripted games only (docs/scripting.md)")
    data = lua_data(deck, save.seats(model), None, [], f"{model.scripted.name}.engine")
    modes = [m["id"] for m in data["modes"]]
    if mode is None and modes:
        mode = modes[0]
    if mode is not None and mode not in modes:
        known = ", ".join(modes) if modes else "none: this deck has no modes"
        raise PlaytestError(f"--mode {mode}: {path.stem} has no such mode; its modes: {known}")
    low, high = _players(data, mode)
    if players is None:
        players = min(max(DEFAULT_PLAYERS, low), high)
    if not low <= players <= high:
        what = f"mode {mode}" if mode else path.stem
        raise PlaytestError(f"--players {players}: {what} is for {low} to {high} players")
    if rotate and players < 2:
        raise PlaytestError(f"--rotate: a game of {players} player has one seating; leave --rotate out")
    if len(names) not in (1, players):
        raise PlaytestError(f"--bots {bots}: name one bot for every seat, or {players} (one per seat, in turn order)")
    seats = data["seats"][:players]
    game = model.scripted
    modules = find_modules(path, game) + playtest_modules()
    cards = {card.id: card.name for component in model.components for card in component.cards}
    return Run(path.stem, path, mode, players, seats, names * players if len(names) == 1 else names, games, seed,
               budget, runtime, max_moves, rotate, modules, data, cards)


def _players(data: dict, mode: str | None) -> tuple[int, int]:
    """The player counts the game (and the mode) allows, from the deck: the mode's, else the game's; at most
    the save's seats."""
    found = next((m.get("players") for m in data["modes"] if m["id"] == mode), None) if mode else None
    players = found or data["game"].get("players") or {}
    seats = len(data["seats"])
    low = players.get("min") or 1
    high = min(players.get("max") or seats, seats)
    return low, high


# --- Playing: a process per core, each its own LuaRuntime ------------------------------------------------

_WORKER: dict[str, Any] = {}


def _load(run: Run) -> None:
    """This process's Lua for the run (the processes forked after inherit it), once the game has been set up
    with the run's first seed: an engine that refuses the seats or the mode, or a search bot on an engine
    without determinize (it would see every hidden card), is a PlaytestError here, before any process starts.
    The engine's functions are bounded (scripting/runtime.py)."""
    lua = runtime.Runtime(run.modules, run.path, run.runtime)
    try:
        engine = lua.engine(run.data["engine"])
        data = lua.table(run.data)
        state, refusal = lua.call(engine.setup, data, lua.table(run.seats),
                                  lua.table({"seed": run.seed * SEED_STRIDE + 1, "mode": run.mode}), results=2)
        bots = lua.use("playtest.bots")
    except LuaFailure as failure:
        raise PlaytestError(f"{failure.text()}\n(setting up {run.deck} for playtest)") from None
    _WORKER.update(run=run, lua=lua, engine=engine, data=data, bots=bots)
    if "search" in run.bots and engine.determinize is None:
        raise PlaytestError(f"--bots search: the search bot needs the engine's determinize(state, seat, "
                            f"seed), which {run.data['engine']} has not (without it the bot would see every hidden "
                            "card; docs/scripting.md); use greedy or random bots")
    if state is None:
        what = f"mode {run.mode}" if run.mode else run.deck
        raise PlaytestError(f"{run.path}: {what} with {run.players} player{'' if run.players == 1 else 's'} is refused by the game: "
                            f"{_refusal(refusal)}")


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's pool.terminate() ends it at once


def _plain(value):
    """A Lua table of what games tell as Python data: lists for sequences, dicts otherwise."""
    if hasattr(value, "items"):
        items = list(value.items())
        if items and all(isinstance(k, int) for k, _ in items):
            return [_plain(v) for _, v in sorted(items)]
        return {k: _plain(v) for k, v in items}
    return value


def play_batch(chunk: tuple[int, int]) -> tuple[int, list[dict]]:
    """Games chunk[0] .. chunk[1] (1-based) of the run this process loaded, as what each tells. A Lua error is
    a PlaytestError: its line at the designer's file, the game that replays it, the Lua traceback."""
    run, lua, bots = _WORKER["run"], _WORKER["lua"], _WORKER["bots"]
    first, last = chunk
    base = run.seed * SEED_STRIDE
    try:
        told, game, refusal = lua.call(bots.games, _WORKER["engine"], _WORKER["data"], lua.table(run.seats),
                                       lua.table({"mode": run.mode, "rotate": run.rotate}), lua.table(run.bots),
                                       base, first, last,
                                       run.budget, run.max_moves, results=3)
    except LuaFailure as failure:
        game = int(bots.playing)
        lines = [failure.line, f"(game {game} of the run, set up with seed {base + game}: the run's first {game} "
                               f"games replay it, --seed {run.seed} --games {game})"]
        if failure.frames:
            lines += ["Lua traceback:", *(f"  {frame}" for frame in failure.frames)]
        raise PlaytestError("\n".join(lines)) from None
    if told is None:
        raise PlaytestError(f"{run.path}: game {game} could not be set up: {_refusal(refusal)}")
    out = []
    for g in range(first, last + 1):
        one = _plain(told[g - first + 1])
        by = (g - 1) % run.players if run.rotate else 0  # the seat index of place p is (p - 1 + by) % players + 1
        seat = lambda place: (place - 1 + by) % run.players + 1
        played = one.get("played") or []
        one["played"] = [[] for _ in range(run.players)]
        for place, ids in enumerate(played, start=1):
            one["played"][seat(place) - 1] = sorted(ids) if isinstance(ids, dict) else []
        one["places"] = one.get("winners") or []  # the winners' places in the turn order
        one["winners"] = [seat(place) for place in one["places"]]
        one["flags"] = one.get("flags") or {}
        out.append(one)
    return first, out


def _batch_or_error(chunk: tuple[int, int]) -> tuple[int, list[dict], PlaytestError | None]:
    """play_batch in a process of the pool: its error returned, so that the parent says the earliest game's."""
    try:
        return (*play_batch(chunk), None)
    except PlaytestError as err:
        return chunk[0], [], err


def _refusal(refusal) -> str:
    if refusal is None:
        return "refused"
    text = refusal["text"] if hasattr(refusal, "__getitem__") else str(refusal)
    clause = refusal["clause"] if hasattr(refusal, "__getitem__") else None
    return f"clause {clause}: {text}" if clause is not None else str(text)


def chunks(games: int, cores: int) -> list[tuple[int, int]]:
    """The batches of a run: small enough to show progress and share the work, big enough to cost little."""
    size = max(1, min(50, games // (cores * 50)))
    return [(first, min(first + size - 1, games)) for first in range(1, games + 1, size)]


@dataclass
class Played:
    """The games of a run that finished: what each told, by game number; and whether the run was stopped."""

    run: Run
    games: dict[int, dict]
    stopped: bool = False
    seconds: float = 0.0


def play(run: Run, cores: int | None = None, progress: Callable[[int, int], None] | None = None) -> Played:
    """Play the run on `cores` processes (default: every core), each its own LuaRuntime. Ctrl-C stops the
    processes at once; what finished is returned, marked stopped."""
    cores = max(1, min(cores or os.cpu_count() or 1, run.games))
    started = time.monotonic()
    games: dict[int, dict] = {}
    batches = chunks(run.games, cores)

    def take(first: int, told: list[dict]) -> None:
        for i, one in enumerate(told):
            games[first + i] = one
        if progress is not None:
            progress(len(games), run.games)

    _load(run)
    if cores == 1 or "fork" not in multiprocessing.get_all_start_methods():
        try:
            for batch in batches:
                take(*play_batch(batch))
        except KeyboardInterrupt:
            return Played(run, games, True, time.monotonic() - started)
        return Played(run, games, False, time.monotonic() - started)
    pool = multiprocessing.get_context("fork").Pool(cores, _start_worker)
    failed: dict[int, PlaytestError] = {}  # batch -> its error: the earliest game's is said, as played in one
    done: set[int] = set()
    try:
        results = pool.imap_unordered(_batch_or_error, batches)
        for _ in batches:
            while True:
                try:
                    first, told, error = results.next(timeout=0.2)
                    break
                except multiprocessing.TimeoutError:
                    continue
            done.add(first)
            if error is not None:
                failed[first] = error
            else:
                take(first, told)
            if failed and all(b[0] in done for b in batches if b[0] < min(failed)):
                raise failed[min(failed)]
        pool.close()
    except KeyboardInterrupt:
        pool.terminate()
        pool.join()
        return Played(run, games, True, time.monotonic() - started)
    except BaseException:
        pool.terminate()
        raise
    pool.join()
    return Played(run, games, False, time.monotonic() - started)


# --- The figures ---------------------------------------------------------------------------------------

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


# --- The report on the terminal ------------------------------------------------------------------------

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{100 * ci[0]:.1f} to {100 * ci[1]:.1f}%"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:+.1f}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return [line(header), *(line(r) for r in rows)]


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')} to move"


def first_player(r: dict) -> str:
    """The first player's advantage: its win rate less a fair share, with the interval; with --rotate, free of
    which bot sits where."""
    first = r["first_player"]
    how = "every seating played equally" if r["rotate"] else "seat 1 always moves first; --rotate plays every seating"
    return (f"first player's advantage: {_signed(first['advantage'])} points over a fair {_pct(1 / r['players'])} "
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
                        [[f"{s['seat']} {s['id']}", s["bot"], f"{s['wins']:g}", _pct(s["win_rate"]),
                          _interval(s["ci95"])] for s in r["seats"]])
        if r["rotate"]:
            lines.append("")
            lines += _table(["place in the turn order", "wins", "win rate", "95% interval"],
                            [[_ordinal(p["place"]), f"{p['wins']:g}", _pct(p["win_rate"]), _interval(p["ci95"])]
                             for p in r["places"]])
        lines += ["", first_player(r)]
        if r["cards"]:
            lines.append("")
            lines += _table(["card", "played", "win rate when played", "95% interval"],
                            [[c["name"], str(c["played"]), _pct(c["win_rate_when_played"]), _interval(c["ci95"])]
                             for c in r["cards"]])
    else:
        lines += _table(["seat", "win rate", "other", "difference", "95% interval", ""],
                        [[f"{s['seat']} {r['seats'][i]['id']}", _pct(s["win_rate"]), _pct(s["other_win_rate"]),
                          _signed(s["difference"]), _interval(s["ci95"]), "*" if s["significant"] else ""]
                         for i, s in enumerate(diff["seats"])])
        lines.append("")
        lines += _table(["card", "played", "other", "win rate", "other", "difference", "95% interval", ""],
                        [[c["name"], str(c["played"]), str(c["other_played"]), _pct(c["win_rate_when_played"]),
                          _pct(c["other_win_rate_when_played"]), _signed(c["difference"]), _interval(c["ci95"]),
                          "*" if c["significant"] else ("new" if c.get("new") else "gone" if c.get("gone") else "")]
                         for c in diff["cards"]])
        lines += ["", "* the difference's 95% interval excludes 0; differences in percentage points (other - deck)"]
    length = r["length"]
    lines += ["", f"length: mean {length['mean']:g} moves, p10 {length['p10']:g}, p90 {length['p90']:g}"
              + (f"; other: mean {other['length']['mean']:g}" if other is not None else "")]
    for name, flag in r["engine"].items():
        lines.append(f"{name}: {_pct(flag['rate'])} of {flag['events']:,} events"
                     + (f"; other: {_pct(other['engine'][name]['rate'])}"
                        if other is not None and name in other["engine"] else ""))
    return "\n".join(lines)


# --- The command ---------------------------------------------------------------------------------------

def command(path: Path, other: Path | None, options: dict, json_file: Path | None, out: Path,
            echo: Callable[[str], None], progress: Callable[[int, int], None] | None, cores: int | None = None) -> int:
    """`deckpress playtest`: play, print the report, write --json and the HTML page; the exit status (0, 1
    for bad input, 130 when Ctrl-C stopped it after printing the figures of the games that finished)."""
    run = prepare(path, **options)
    other_run = None
    if other is not None:
        other_run = prepare(other, **options)
        if other_run.data["script"] != run.data["script"]:
            raise PlaytestError(f"--against {other}: it plays {other_run.data['script']!r}, {path.stem} plays "
                                f"{run.data['script']!r}; compare two decks of one game")
    total = run.games * (2 if other_run else 1)
    base_progress = (lambda done, _: progress(done, total)) if progress else None
    played = play(run, cores, base_progress)
    result = report(played)
    other_result = diff = None
    if other_run is not None and not played.stopped:
        other_progress = (lambda done, _: progress(run.games + done, total)) if progress else None
        other_played = play(other_run, cores, other_progress)
        other_result = report(other_played)
        if other_played.stopped:
            result = report(Played(run, {g: played.games[g] for g in other_played.games}, True))
        diff = compare(result, other_result)
    echo(text(result, diff, other_result))
    document = dict(result)
    if other_result is not None:
        document["against"] = {"report": other_result, "differences": diff}
    if json_file is not None:
        json_file.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    page = write_page(out, run, document)
    echo(f"\n{page}")
    return 130 if result["stopped"] else 0


# --- The page: build/<deck>/playtest/<name>.html, charts in SVG ------------------------------------------

ROW, LABEL, PLOT, PAD = 22, 220, 520, 12
COLOURS = ("#2b6cb0", "#c05621")  # DECK, OTHER_DECK


def page_name(r: dict) -> str:
    """The page's file name: the run's mode, players, bots and seed (and the other deck)."""
    bots = "+".join(dict.fromkeys(r["bots"])) if len(set(r["bots"])) == 1 else "+".join(r["bots"])
    name = f"{r['mode'] or 'default'}-{r['players']}p-{bots}-seed{r['seed']}" + ("-rotated" if r["rotate"] else "")
    if "against" in r:
        name += f"-vs-{r['against']['report']['deck']}"
    return name + ".html"


def _axis(rows: list[tuple[str, list[tuple[float | None, list[float] | None]]]], fair: float | None) -> tuple[float, float, float]:
    """The chart's span, from and to (rates), and its tick step: the intervals and the fair line, with a margin."""
    values = [v for _, marks in rows for rate, ci in marks if rate is not None for v in ci]
    values += [fair] if fair is not None else []
    start, end = min(values) - 0.01, max(values) + 0.01
    step = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2) if (end - start) / s <= 12)
    low = max(0.0 if min(values) >= 0 else -1.0, math.floor(start / step) * step)
    high = min(1.0, math.ceil(end / step) * step)
    return low, high, step


def _chart(rows: list[tuple[str, list[tuple[float | None, list[float] | None]]]], fair: float | None,
           caption: str, line: str = "a fair share") -> str:
    """A horizontal interval chart: per row its label and, per deck, a dot at the rate and a bar over the 95 %
    interval; a dashed line at `fair` (the rate of a fair game). The axis spans the figures, not 0 to 100 %."""
    height = PAD * 2 + ROW * len(rows) + 20
    width = LABEL + PLOT + PAD * 4
    low, high, step = _axis(rows, fair)
    x = lambda v: LABEL + PAD + PLOT * (min(high, max(low, v)) - low) / (high - low)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
           f'aria-label="{html.escape(caption)}" font-family="sans-serif" font-size="12">']
    for tick in range(math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9) + 1):
        v = tick * step
        out.append(f'<line x1="{x(v):.1f}" y1="{PAD}" x2="{x(v):.1f}" y2="{height - 20}" stroke="#e2e8f0"/>')
        out.append(f'<text x="{x(v):.1f}" y="{height - 6}" text-anchor="middle" fill="#4a5568">{100 * v:.0f}%</text>')
    if fair is not None:
        out.append(f'<line x1="{x(fair):.1f}" y1="{PAD}" x2="{x(fair):.1f}" y2="{height - 20}" stroke="#718096" '
                   f'stroke-dasharray="4 3"><title>{line}</title></line>')
    for i, (label, marks) in enumerate(rows):
        y = PAD + ROW * i + ROW / 2
        out.append(f'<text x="{LABEL}" y="{y + 4:.1f}" text-anchor="end">{html.escape(label)}</text>')
        for k, (rate, ci) in enumerate(marks):
            if rate is None:
                continue
            dy = (k - (len(marks) - 1) / 2) * 6
            colour = COLOURS[k % len(COLOURS)]
            tip = f"{label}: {100 * rate:.1f}% (95% interval {100 * ci[0]:.1f}-{100 * ci[1]:.1f}%)"
            out.append(f'<g><title>{html.escape(tip)}</title>'
                       f'<line x1="{x(ci[0]):.1f}" y1="{y + dy:.1f}" x2="{x(ci[1]):.1f}" y2="{y + dy:.1f}" '
                       f'stroke="{colour}" stroke-width="3" stroke-opacity="0.5"/>'
                       f'<circle cx="{x(rate):.1f}" cy="{y + dy:.1f}" r="4" fill="{colour}"/></g>')
    out.append("</svg>")
    return "".join(out)


def html_page(r: dict) -> str:
    """The report as a page: the seats' and the cards' win rates with their intervals (and the other deck's)."""
    other = r.get("against", {}).get("report")
    reports = [r] + ([other] if other else [])
    fair = 1 / r["players"]
    seat_rows = [(f"{s['seat']} {s['id']} ({s['bot']})", [(rep["seats"][i]["win_rate"], rep["seats"][i]["ci95"])
                                                        for rep in reports])
                 for i, s in enumerate(r["seats"])]
    names = {c["id"]: c["name"] for rep in reports for c in rep["cards"]}
    ids = sorted(names, key=lambda i: (natural(names[i]), natural(i)))
    by = [{c["id"]: c for c in rep["cards"]} for rep in reports]
    card_rows = [(f"{names[i]} ({sum(b[i]['played'] for b in by if i in b):,})",
                  [(b[i]["win_rate_when_played"], b[i]["ci95"]) if i in b else (None, None) for b in by])
                 for i in ids]
    card_rows.sort(key=lambda row: -max(m[0] for m in row[1] if m[0] is not None))
    legend = differences = ""
    if other:
        diff = r["against"]["differences"]
        rows = [(f"seat {d['seat']}", [(d["difference"], d["ci95"])]) for d in diff["seats"]]
        rows += [(d["name"], [(d["difference"], d["ci95"])]) for d in diff["cards"] if d["difference"] is not None]
        differences = (f"<h2>Differences: {html.escape(other['deck'])} minus {html.escape(r['deck'])}</h2>"
                       "<p class=\"note\">Each win rate's difference with its 95% interval (Newcombe): an interval "
                       "clear of the dashed line at 0 is a difference beyond chance.</p>"
                       + _chart(rows, 0.0, "differences of the win rates", "no difference"))
        legend = (f'<p><span style="color:{COLOURS[0]}">&#9679; {html.escape(r["deck"])}</span> &nbsp; '
                  f'<span style="color:{COLOURS[1]}">&#9679; {html.escape(other["deck"])}</span> '
                  "(the same seeds)</p>")
    engine = "".join(f"<li>{html.escape(name)}: {_pct(flag['rate'])} of {flag['events']:,} events</li>"
                     for name, flag in r["engine"].items())
    length = r["length"]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title(r))}</title>
<style>body{{font-family:sans-serif;margin:2em;color:#1a202c}} h2{{margin-top:1.5em}} p.note{{color:#4a5568}}</style>
</head><body>
<h1>{html.escape(title(r))}</h1>
{"".join(f'<p class="warning">{html.escape(line)}</p>' for line in (unfinished(r), other and unfinished(other)) if line)}
{legend}
<p class="note">A dot is a win rate, its bar the 95% Wilson interval: the rate lies there in 95 runs of 100 of
this many games. Two bars that do not overlap differ for sure; the dashed line is a fair share (1 in
{r['players']}). A tie gives each of its k winners 1/k of a win. What each figure means: docs/playtest.md.</p>
<h2>Win rate by seat</h2>
{_chart(seat_rows, fair, "win rate by seat")}
<h2>Win rate by place in the turn order</h2>
<p>{html.escape(first_player(r))}</p>
{_chart([(_ordinal(p["place"]), [(p["win_rate"], p["ci95"])]) for p in r["places"]], fair,
        "win rate by place in the turn order")}
<h2>Win rate when played, by card (pairs of game and player that played it)</h2>
{_chart(card_rows, fair, "win rate when played, by card") if card_rows else "<p>No card was played by id.</p>"}
{differences}
<h2>Length</h2>
<p>Mean {length['mean']:g} moves; 10% of the games end by {length['p10']:g} moves, 90% by {length['p90']:g}.</p>
{f"<h2>The engine's own figures</h2><ul>{engine}</ul>" if engine else ""}
</body></html>
"""


def write_page(out: Path, run: Run, document: dict) -> Path:
    """Write the page into out/<deck>/playtest/ and list it in the build's manifest.json (which it starts when
    the deck is not built yet), so that a build counts it as deckpress's own file."""
    folder = out / run.deck
    manifest_path = folder / "manifest.json"
    manifest: dict = {}
    if manifest_path.is_file():
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except ValueError:
            manifest = {}
    elif folder.exists():
        raise PlaytestError(f"{folder}: not a folder deckpress built; move it away or pick another --out")
    if manifest and (manifest.get("deck") != run.deck or not isinstance(manifest.get("artifacts"), dict)):
        raise PlaytestError(f"{folder}: its manifest.json is not deckpress's; move the folder away or pick another "
                            "--out")
    manifest = manifest or {"deckpress": __version__, "deck": run.deck, "artifacts": {}}
    relative = f"playtest/{page_name(document)}"
    page = folder / relative
    page.parent.mkdir(parents=True, exist_ok=True)
    body = html_page(document).encode("utf-8")
    page.write_bytes(body)
    manifest["artifacts"][relative] = {"sha256": hashlib.sha256(body).hexdigest(), "bytes": len(body)}
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return page
