"""The engine contract of docs/scripting.md, declared once (CONTRACT) and checked on a deck's engine as Lua runs
it: its functions exist (the module loaded, not its text read), and a short seeded self-play keeps what every
engine must keep (data/playtest/contract.lua). What `deckpress check` and the build say of a scripted deck's
rules, one located line each.

Every user of the contract reads CONTRACT: the check of the loaded engine (check, the build before it writes,
playtest), the engine the Lua drivers are given (`guarded`: the bots and the self-play can call the declared
functions and nothing else of the game), the tests' driver (tests/helpers/contract_driver.py), and the tests
that docs/scripting.md's tables list exactly these functions with these arguments and returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import REPORT, DeckError, Where
from ..builders.tts.lua import Module, lua_literal
from .runtime import LuaFailure, Runtime


@dataclass(frozen=True)
class Function:
    """A function of the engine contract: its name, its arguments, what it returns (and whether it may return
    nil and a refusal instead), and whether an engine may leave it out."""

    name: str
    arguments: tuple[str, ...]
    returns: tuple[str, ...]
    refuses: bool = False
    optional: bool = False

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(self.arguments)})"


CONTRACT = (
    Function("setup", ("data", "seats", "opts"), ("state",), refuses=True),
    Function("to_act", ("state",), ("seats", "kind")),
    Function("legal_moves", ("state", "seat"), ("moves",)),
    Function("play", ("state", "seat", "move"), ("new_state", "events"), refuses=True),
    Function("scores", ("state",), ("points", "winners")),
    Function("all_ids", ("state",), ("ids",)),
    Function("determinize", ("state", "seat", "seed"), ("state",), optional=True),  # for playtest's search bot
    Function("view", ("state", "seat"), ("view",), optional=True),  # for the table page of deckpress studio
)
FUNCTIONS = {f.name: f for f in CONTRACT}
REQUIRED = tuple(f.name for f in CONTRACT if not f.optional)
PLAYTEST = Path(__file__).parent.parent / "data" / "playtest"
GAMES = 2          # seeds of the self-play at each player count checked (the fewest and the most)
MOVES = 200        # moves of a game at most: the invariants are kept or broken long before a game's end


def playtest_modules() -> list[Module]:
    """deckpress's Lua of playtest and of the contract's self-play, as modules to load beside a game's."""
    return [Module(f"playtest.{name}", PLAYTEST / f"{name}.lua", (PLAYTEST / f"{name}.lua").read_text(encoding="utf-8"))
            for name in ("bots", "contract")]


def _returned_at(module: Module) -> Where:
    """The line of the module's last `return` (where its table is given), else its first."""
    lines = module.source.splitlines()
    last = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].lstrip().startswith("return")), 0)
    return Where(str(module.path), last + 1, 1)


def failure_error(failure: LuaFailure, context: str = "", deck_path: Path | None = None) -> DeckError:
    """A Lua error as a DeckError at its file and line in the project, the Lua traceback below; one in
    deckpress's own Lua (a shipped game's engine) is located at the deck `deck_path`, whose data set it off, and
    asks for a report."""
    where, message = failure.located()
    text = message + (f" ({context})" if context else "")
    if where is None and deck_path is not None:
        text = f"deckpress's own Lua failed on this deck: {text}; {REPORT}"
        where = Where(str(deck_path))
    if failure.frames:
        text += "\n" + "\n".join(["Lua traceback:", *(f"  {frame}" for frame in failure.frames)])
    return DeckError.at(where or Where("(Lua)"), text)


def check_engine(runtime: Runtime, module: Module, engine):
    """`engine`, what the engine module returned, if it is a table with every function the contract requires
    (as Lua sees them); else a located line at the module's `return`."""
    if runtime.lua.eval("function(t) return type(t) == 'table' end")(engine) is not True:
        raise DeckError.at(_returned_at(module), f"the engine returns no table of functions; end {module.path.name} "
                                                 "with `return Engine` (docs/scripting.md)")
    missing = [name for name in REQUIRED if runtime.lua.globals().type(engine[name]) != "function"]
    if missing:
        raise DeckError.at(_returned_at(module), f"the engine has no {', '.join(missing)}; define every function of "
                                                 f"the engine contract, {', '.join(REQUIRED)} (docs/scripting.md)")
    return engine


def load_engine(runtime: Runtime, module: Module):
    """The engine module, run and checked for the contract's functions: a located line for a missing one."""
    try:
        engine = runtime.use(module.name)
    except LuaFailure as failure:
        raise failure_error(failure, f"while loading {module.name}") from None
    return check_engine(runtime, module, engine)


def guarded(runtime: Runtime, engine):
    """The engine as the Lua drivers get it: the contract's functions it has and nothing else, each call of one
    bounded on its own (scripting/runtime.py)."""
    return runtime.guard(engine, [f.name for f in CONTRACT])


def check_functions(modules: list[Module], engine: str | None, deck_path: Path) -> None:
    """The engine module `engine` (e.g. "climb.engine") defines every function of the contract, as loaded."""
    module = next((m for m in modules if m.name == engine), None)
    if module is not None:
        load_engine(Runtime(modules, deck_path), module)


def player_counts(data: dict) -> list[int]:
    """The fewest and the most players the deck's game deals for (within the save's seats)."""
    players = data["game"].get("players") or {}
    high = min(players.get("max") or len(data["seats"]), len(data["seats"]))
    low = min(players.get("min") or 1, high)
    return sorted({low, high})


def _move(value) -> str:
    try:
        return lua_literal(value, width=10_000)
    except ValueError:
        return str(value)


def self_play(modules: list[Module], engine: str, data: dict, deck_path: Path) -> int:
    """Play GAMES seeded games at each player count of the deck (each mode in turn), checking the contract at
    every move; the first break is a DeckError at the function's definition, naming the seat, the move and the
    game that replays it. Returns the number of games played."""
    module = next(m for m in modules if m.name == engine)
    runtime = Runtime([*modules, *playtest_modules()], deck_path)
    raw = load_engine(runtime, module)
    driven = guarded(runtime, raw)
    checker = runtime.use("playtest.contract")
    lua_data = runtime.table(data)
    modes = [m["id"] for m in data["modes"]] or [None]
    played = 0
    for players in player_counts(data):
        seats = data["seats"][:players]
        for seed in range(1, GAMES + 1):
            mode = modes[(seed - 1) % len(modes)]
            game = f"setup(DATA, {_move(seats)}, {{seed = {seed}{'' if mode is None else f', mode = {_move(mode)}'}}})"
            try:
                told, broken = runtime.call(checker.game, driven, lua_data, runtime.table(seats), seed, mode, MOVES,
                                             results=2)
            except LuaFailure as failure:
                at = checker.at
                raise failure_error(failure, f"move {at.move} of the game {game}", deck_path) from None
            played += 1
            if broken is not None:
                fn = broken.fn
                path, line = runtime.defined_at(raw[fn])
                parts = [f"seat {_move(broken.seat)}"] if broken.seat is not None else []
                if broken.move is not None:
                    parts.append(f"move {_move(runtime.python(broken.move))}")
                parts.append(f"at move {checker.at.move} of the game {game}")
                raise DeckError.at(Where(str(module.path) if path.startswith("(") else path, line, 1),
                                   f"{fn} {broken.text} ({', '.join(parts)}); {broken.fix}")
    return played
