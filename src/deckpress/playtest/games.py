"""The games of a run: a deck's scripted game loaded as its TTS save bundles it, and played by bots on a
process per core.

The game's modules and deck data are those of the save (builders/tts/lua.py's bundle, builders/tts/data.py's
DATA), and the bots and the loop of a game are Lua too (data/playtest/bots.lua, module playtest.bots): the
batches of games are shared out among processes as a deck's faces are (processes.shared_out: forked, so that
each inherits the Lua loaded once in the parent, and runs them in its own LuaRuntime), and Python sees each
game once, as what it tells (winners, length, the cards each seat played, the engine's event flags). Game g of
a run is played with the seed `seed * SEED_STRIDE + g` whichever process plays it, and the games are kept by
number, so one seed gives one report on any number of cores; on one core, or where fork is not there, the
same batches are played in this process.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..builders.tts import save
from ..builders.tts.data import lua_data
from ..builders.tts.lua import Module, find_modules
from ..deck import LoadedDeck, load_deck
from ..processes import shared_out
from ..scripting import contract, runtime
from ..scripting.runtime import LuaFailure

BOTS = ("random", "greedy", "search")
MAX_GAMES = 1_000_000
MAX_BUDGET = 100_000
MAX_MOVES = 20_000  # a game's moves by default, after which it is counted as unfinished
MOST_MOVES = 10_000_000
MAX_SEED = 2 ** 31 - 1
SEED_STRIDE = 1_000_003  # game g of seed s plays with s * SEED_STRIDE + g: seeds of two runs never meet
DEFAULT_PLAYERS = 4

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
    found = scripted(path)
    if found is None:
        raise PlaytestError(f"{path}: the deck has no table script (`script:`) whose rules the bots could play; "
                            "playtest plays scripted games only (docs/scripting.md)")
    deck, data, modules = found
    model = deck.model
    try:
        mode = chosen_mode(data, mode, path.stem)
    except ValueError as err:
        raise PlaytestError(f"--mode {mode}: {err}") from None
    low, high = player_range(data, mode)
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
    cards = {card.id: card.name for component in model.components for card in component.cards}
    return Run(path.stem, path, mode, players, seats, names * players if len(names) == 1 else names, games, seed,
               budget, runtime, max_moves, rotate, modules, data, cards)


def scripted(path: Path) -> tuple[LoadedDeck, dict, list[Module]] | None:
    """The deck file `path` loaded (a DeckError for a mistake in it), with its game as the TTS builder bundles it:
    DATA of the save and the game's modules, playtest's beside them; None for a deck without a table script."""
    deck = load_deck(path)
    model = deck.model
    if not model.script or model.scripted is None:
        return None
    data = lua_data(deck, save.seats(model), None, [], f"{model.scripted.name}.engine")
    return deck, data, find_modules(path, model.scripted) + contract.playtest_modules()


def chosen_mode(data: dict, mode: str | None, deck: str) -> str | None:
    """The mode a game of the deck `deck` (its DATA) is played in: `mode`, or else the deck's first (None for a
    deck without modes); ValueError, naming the deck's modes, for a mode it has not."""
    modes = [m["id"] for m in data["modes"]]
    if mode is None:
        return modes[0] if modes else None
    if mode not in modes:
        known = ", ".join(modes) if modes else "none: this deck has no modes"
        raise ValueError(f"{deck} has no such mode; its modes: {known}")
    return mode


def player_range(data: dict, mode: str | None) -> tuple[int, int]:
    """The player counts the game (and the mode) allows, from the deck: the mode's, else the game's; at most
    the save's seats."""
    found = next((m.get("players") for m in data["modes"] if m["id"] == mode), None) if mode else None
    players = found or data["game"].get("players") or {}
    seats = len(data["seats"])
    low = players.get("min") or 1
    high = min(players.get("max") or seats, seats)
    return low, high


# --- Playing: a process per core, each its own LuaRuntime ------------------------------------------------

@dataclass
class Loaded:
    """A deck's game in a Lua state of its own: the engine module as it returned (`module`), the engine as the
    bots get it (`engine`: the contract's functions it has, each call bounded), DATA as Lua, and playtest.bots."""

    lua: runtime.Runtime
    module: Any
    engine: Any
    data: Any
    bots: Any


def load_game(modules: list[Module], path: Path, data: dict, dialect: str = "5.2") -> Loaded:
    """The engine DATA names, loaded from `modules` (the deck at `path`'s) and checked for the contract's
    functions (a missing one is check's located line, a DeckError); a Lua error running a module is a
    LuaFailure."""
    lua = runtime.Runtime(modules, path, dialect)
    loaded = lua.use(data["engine"])
    module = next(m for m in modules if m.name == data["engine"])
    engine = contract.guarded(lua, contract.check_engine(lua, module, loaded))
    return Loaded(lua, loaded, engine, lua.table(data), lua.use("playtest.bots"))


def no_search(engine: str) -> str:
    """Why a search bot cannot play the engine `engine`, which has no determinize."""
    return (f"the search bot needs the engine's {contract.FUNCTIONS['determinize'].signature}, which {engine} has "
            "not (without it the bot would see every hidden card; docs/scripting.md); use greedy or random bots")


_WORKER: dict[str, Any] = {}


def _load(run: Run) -> None:
    """This process's Lua for the run (the processes forked after inherit it), once the game has been set up
    with the run's first seed: an engine that refuses the seats or the mode, or a search bot on an engine
    without determinize (it would see every hidden card), is a PlaytestError here, before any process starts;
    an engine without a function of the contract is check's located line (a DeckError). The bots get the
    contract's functions alone, each bounded (scripting/contract.py's `guarded`)."""
    try:
        game = load_game(run.modules, run.path, run.data, run.runtime)
        lua, engine = game.lua, game.engine
        state, refusal = lua.call(engine.setup, game.data, lua.table(run.seats),
                                  lua.table({"seed": run.seed * SEED_STRIDE + 1, "mode": run.mode}), results=2)
    except LuaFailure as failure:
        raise PlaytestError(f"{failure.text()}\n(setting up {run.deck} for playtest)") from None
    _WORKER.update(run=run, lua=lua, engine=engine, data=game.data, bots=game.bots)
    if "search" in run.bots and engine.determinize is None:
        raise PlaytestError(f"--bots search: {no_search(run.data['engine'])}")
    if state is None:
        what = f"mode {run.mode}" if run.mode else run.deck
        raise PlaytestError(f"{run.path}: {what} with {run.players} player{'' if run.players == 1 else 's'} is refused by the game: "
                            f"{_refusal(refusal)}")


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
    try:
        # in the batches' order: a Lua error raised is the earliest game's, as one process would meet it
        for first, told in shared_out(lambda index: play_batch(batches[index]), len(batches), cores, chunk=1):
            take(first, told)
    except KeyboardInterrupt:
        return Played(run, games, True, time.monotonic() - started)
    return Played(run, games, False, time.monotonic() - started)

