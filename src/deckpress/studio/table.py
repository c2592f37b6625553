"""The studio's table: one game of a deck's scripted game, played by people (one seat or several, hot-seat) and
playtest's bots, as the table page shows it; no HTTP here, the server answers with what this gives.

The game is loaded as playtest loads it (playtest/games.py: the save's modules and DATA, the engine guarded, every
call bounded), and its own engine decides everything through the engine contract: who acts (to_act), the moves
offered (legal_moves), whether a move is taken (play, its refusal said by lib.turns.refusal_text as at the TTS
table), the scores. The bots are those of playtest (data/playtest/bots.lua's `choose`), drawing from a generator
seeded from the game's seed, so one seed, one seating and the same human moves give one game.

What a seat is shown is the engine's view(state, seat) (docs/scripting.md) and what follows from it: the state
itself never leaves this module, and events are passed on as their `what`, `seat` and `text` alone (their other
fields may name hidden cards). In a choice made at once (to_act's "simultaneous"), a bot chooses from the state
the step began with, so it never sees a human's hidden choice made before it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..faces import plan_faces
from ..playtest.games import (BOTS, MAX_MOVES, MAX_SEED, Loaded, chosen_mode, load_game, no_search, player_range,
                              scripted)
from ..scripting.runtime import LuaFailure

KINDS = ("human", *BOTS)  # what plays a seat
MOVE_DEPTH = 8            # levels of lists and objects in a move from the page
MOVE_VALUES = 1000        # values in a move from the page
MOVE_TEXT = 1000          # characters of a string in a move
MOST_INTEGER = 2 ** 53    # beyond it a Lua 5.2 number is no longer the integer given
BUDGET = 100              # playouts of a search bot per decision: playtest's default --budget
SHOWN_DEPTH = 32          # levels of a view or a move list the engine gives, past which it is refused
NO_VIEW = "the engine has no view(state, seat): the table shows no cards; add one (docs/scripting.md)"
WATCHING = "watching: a spectator is shown no seat's cards while a person plays"


class TableError(Exception):
    """A request the table refuses, or a game it cannot play: one line (the server's answer 400)."""


@dataclass
class _Step:
    """A choice made at once: the state it began with, its seats, and those still to choose."""

    state: Any
    seats: list[str]
    pending: set[str]


@dataclass
class Table:
    """A deck's scripted game at the studio's table: `load` it, `start` a game, then `snapshot`, `move` and
    `bot_move` until to_act says "over"."""

    path: Path
    name: str                            # the game's name, as the deck calls it
    data: dict = field(repr=False)       # DATA of the save
    game: Loaded = field(repr=False)
    faces: dict[str, list[tuple[str, str, str]]] = field(repr=False)  # card id -> (component, name, face path)
    players: dict[str, str] = field(default_factory=dict)
    mode: str | None = None
    seed: int = 1
    events: list[dict] = field(default_factory=list)
    moves: int = 0
    _state: Any = field(default=None, repr=False)
    _step: _Step | None = field(default=None, repr=False)
    _random: Any = field(default=None, repr=False)

    @classmethod
    def load(cls, deck_path: Path) -> Table:
        """The deck's game loaded as playtest loads it: a deck without a table script is a TableError, a mistake
        in the deck the DeckError it is."""
        found = scripted(deck_path)
        if found is None:
            raise TableError(f"{deck_path}: the deck has no table script (`script:`) whose rules a table could play; "
                             "the studio's table plays scripted games only (docs/scripting.md)")
        deck, data, modules = found
        try:
            game = load_game(modules, deck_path, data)
        except LuaFailure as failure:
            raise TableError(f"{failure.line} (loading {data['engine']})") from None
        planned = plan_faces(deck)
        faces: dict[str, list[tuple[str, str, str]]] = {}
        for component in deck.model.components:
            for card in component.cards:
                faces.setdefault(card.id, []).append((component.id, card.name,
                                                      planned.front(component, card).path))
        return cls(deck_path, deck.model.game.name, data, game, faces)

    def setup_options(self) -> dict:
        """What a new game may be: the game's name, its seats in turn order, its modes and the player counts
        each allows, and what may play a seat."""
        low, high = player_range(self.data, None)
        modes = [{"id": m["id"], "name": m["name"], "players": dict(zip(("min", "max"), player_range(self.data, m["id"])))}
                 for m in self.data["modes"]]
        bots = [b for b in BOTS if b != "search" or self.game.engine.determinize is not None]
        return {"game": self.name, "seats": list(self.data["seats"]), "players": {"min": low, "max": high},
                "modes": modes, "bots": bots}

    # --- Starting -----------------------------------------------------------------------------------------

    def start(self, players: dict[str, str], mode: str | None = None, seed: int = 1) -> None:
        """A new game: `players` maps each seat, in turn order, to what plays it ("human" or a bot of
        playtest's); the player count, the mode and the seed checked as playtest checks them."""
        seats = self.data["seats"]
        for seat, kind in players.items():
            if seat not in seats:
                raise TableError(f"seat {seat!r}: {self.path.stem} has no such seat; its seats: {', '.join(seats)}")
            if kind not in KINDS:
                raise TableError(f"seat {seat}: {kind!r} plays no seat; use {', '.join(KINDS)}")
        if not 0 <= seed <= MAX_SEED:
            raise TableError(f"seed {seed}: give a seed from 0 to {MAX_SEED}")
        try:
            mode = chosen_mode(self.data, mode, self.path.stem)
        except ValueError as err:
            raise TableError(f"mode {mode}: {err}") from None
        low, high = player_range(self.data, mode)
        if not low <= len(players) <= high:
            what = f"mode {mode}" if mode else self.path.stem
            raise TableError(f"{len(players)} player{'' if len(players) == 1 else 's'}: {what} is for {low} to "
                             f"{high} players")
        if "search" in players.values() and self.game.engine.determinize is None:
            raise TableError(f"a search bot: {no_search(self.data['engine'])}")
        lua = self.game.lua
        state, refusal = self._call("setup", self.game.engine.setup, self.game.data, lua.table(list(players)),
                                    lua.table({"seed": seed, "mode": mode}), results=2)
        if state is None:
            what = f"mode {mode}" if mode else self.path.stem
            raise TableError(f"{what} with {len(players)} player{'' if len(players) == 1 else 's'} is refused by the "
                             f"game: {self._refusal_text(refusal)}")
        self.players, self.mode, self.seed = dict(players), mode, seed
        self.events, self.moves, self._state, self._step = [], 0, state, None
        self._random = self.game.bots.generator(seed * 7919 + 104729)

    # --- What a seat is shown -----------------------------------------------------------------------------

    def snapshot(self, seat: str | None) -> dict:
        """What the page shows the human `seat` (None: a spectator, who has no hand and no moves): plain JSON,
        nothing in it that the seat cannot see. In a game of bots alone, nobody's cards are hidden from
        anybody: a spectator may look through any seat's eyes (its view, no moves)."""
        self._started()
        if seat is not None and (seat not in self.players or "human" in self.players.values()):
            self._human(seat)
        acting, kind = self._to_act()
        view, note, cards = None, NO_VIEW if self.game.engine.view is None else WATCHING, {}
        if seat is not None and self.game.engine.view is not None:
            view = self._json(self._call("view", self.game.engine.view, self._state, seat)[0], "view")
            note = None
            cards = self._cards(view)
        moves: Any = []
        if seat is not None and seat in acting and self.players[seat] == "human" and not self.unfinished:
            moves = self._json(self._call("legal_moves", self.game.engine.legal_moves, self._state, seat)[0],
                               "legal_moves")
        return {"game": self.name, "mode": self.mode, "seed": self.seed, "players": dict(self.players),
                "seats": list(self.players), "to_act": acting, "kind": kind, "seat": seat, "view": view,
                "note": note, "moves": moves, "events": [dict(e) for e in self.events], "scores": self._scores(),
                "cards": cards, "unfinished": self.unfinished}

    @property
    def unfinished(self) -> bool:
        """True once the game has been played MAX_MOVES moves without ending (playtest counts it unfinished)."""
        return self.moves >= MAX_MOVES

    def _cards(self, view) -> dict:
        """The deck's cards the view shows: each one's name, component and face file, as the build names it."""
        out: dict[str, dict] = {}
        zones = view.get("zones") if isinstance(view, dict) else None
        for zone in zones if isinstance(zones, list) else []:
            for entry in zone.get("cards") or [] if isinstance(zone, dict) else []:
                card = entry.get("card") if isinstance(entry, dict) else None
                known = self.faces.get(card) if isinstance(card, str) else None
                if not known or card in out:
                    continue
                component, name, face = next((k for k in known if k[0] == entry.get("component")), known[0])
                out[card] = {"name": name, "component": component, "face": face}
        return out

    def _scores(self) -> dict:
        points, winners = self._call("scores", self.game.engine.scores, self._state, results=2)
        points = self._json(points, "scores")
        return {"points": points or {}, "winners": self._json(winners, "scores") or []}

    # --- Moves --------------------------------------------------------------------------------------------

    def move(self, seat: str, move) -> dict:
        """A human seat's move, as JSON from the page: {"ok": true, "events": [...]} when the engine takes it,
        {"ok": false, "refusal": "Clause 5 (turns): ..."} (and nothing changed) when it refuses it; a seat that
        is not a human's, or not to act, or a move that is no plain JSON, is a TableError."""
        self._started()
        self._human(seat)
        self._check_move(move, 0, [0])
        acting, kind = self._to_act()
        if seat not in acting:
            raise TableError(self._not_acting(acting, kind))
        after, events = self._call("play", self.game.engine.play, self._state, seat, self.game.lua.table(move),
                                   results=2)
        if after is None:
            return {"ok": False, "refusal": self._refusal_text(events)}
        return {"ok": True, "events": self._played(seat, after, events)}

    def bot_move(self) -> dict | None:
        """The move of a bot whose seat is to act, chosen and played: {"ok": true, "seat": ..., "events": [...]};
        None when no bot is to act (a human's turn, or the game over or unfinished)."""
        self._started()
        acting, kind = self._to_act()
        seat = next((s for s in acting if self.players[s] != "human"), None)
        if seat is None or self.unfinished:
            return None
        state, together = self._state, [seat]
        if kind == "simultaneous":
            step = self._step_of(acting)
            state, together = step.state, step.seats
        others = self.game.lua.table([s for s in together if s != seat])
        chosen = self._call("the bot's choice", self.game.bots.choose, self.players[seat], self.game.engine, state,
                            seat, others, self._random, BUDGET)[0]
        after, events = self._call("play", self.game.engine.play, self._state, seat, chosen, results=2)
        if after is None:
            raise TableError(f"{seat}'s bot chose a move the game refuses: {self._refusal_text(events)}")
        return {"ok": True, "seat": seat, "events": self._played(seat, after, events)}

    def _played(self, seat: str, after, events) -> list[dict]:
        """Take the state after `seat`'s move, and its events as the page sees them."""
        if self._step is not None:
            self._step.pending.discard(seat)
        self._state = after
        self.moves += 1
        new = []
        for event in self._json(events, "play's events") or []:
            event = event if isinstance(event, dict) else {}
            new.append({"n": len(self.events) + len(new) + 1, "seat": _text(event.get("seat")),
                        "what": _text(event.get("what")), "text": _text(event.get("text"))})
        self.events += new
        return new

    def _step_of(self, acting: list[str]) -> _Step:
        """The choice at once under way, whose seats still to choose are `acting`; a new one from this state
        when it has ended."""
        step = self._step
        if step is None or not step.pending or not set(acting) <= step.pending:
            step = self._step = _Step(self._state, list(acting), set(acting))
        return step

    def _to_act(self) -> tuple[list[str], str]:
        seats, kind = self._call("to_act", self.game.engine.to_act, self._state, results=2)
        acting = [str(s) for s in self._json(seats, "to_act") or []]
        if kind == "simultaneous":
            self._step_of(acting)
        else:
            self._step = None
        return acting, str(kind)

    def _not_acting(self, acting: list[str], kind: str) -> str:
        if self.unfinished:
            return f"the game is unfinished: it was still going after {MAX_MOVES:,} moves"
        if kind == "over":
            return "the game is over"
        if kind == "simultaneous":
            return f"{', '.join(acting)} choose now"
        return f"it is {acting[0]}'s turn" if acting else "nobody is to act"

    def _human(self, seat: str) -> None:
        if seat not in self.players:
            raise TableError(f"seat {seat!r} does not play this game; its seats: {', '.join(self.players)}")
        if self.players[seat] != "human":
            raise TableError(f"{seat} is a bot's seat")

    def _check_move(self, value, depth: int, count: list[int]) -> None:
        """A move from the page is plain JSON of bounded size; else a TableError saying what a move is."""
        count[0] += 1
        problem = None
        if depth > MOVE_DEPTH:
            problem = f"more than {MOVE_DEPTH} levels deep"
        elif count[0] > MOVE_VALUES:
            problem = f"more than {MOVE_VALUES} values"
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str) or len(key) > MOVE_TEXT:
                    problem = f"a key {str(key)[:40]!r} that is no string of at most {MOVE_TEXT} characters"
                    break
                self._check_move(item, depth + 1, count)
        elif isinstance(value, list):
            for item in value:
                self._check_move(item, depth + 1, count)
        elif isinstance(value, str):
            if len(value) > MOVE_TEXT:
                problem = f"a string of more than {MOVE_TEXT} characters"
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int):
            if abs(value) > MOST_INTEGER:
                problem = f"the number {value}, past {MOST_INTEGER}"
        elif isinstance(value, float):
            if not math.isfinite(value):
                problem = f"the number {value}"
        else:
            problem = "null" if value is None else f"a {type(value).__name__}"
        if problem is not None:
            raise TableError(f"a move is JSON of objects, lists, strings, numbers and true/false, at most "
                             f"{MOVE_DEPTH} levels deep and {MOVE_VALUES} values, as the seat's moves are listed; "
                             f"this one has {problem}")

    # --- Lua ----------------------------------------------------------------------------------------------

    def _started(self) -> None:
        if self._state is None:
            raise TableError("no game is under way: start one first")

    def _call(self, what: str, function, *args, results: int = 1) -> tuple:
        """A call of the engine (bounded, as every guarded call is); a Lua error is a TableError, one line."""
        try:
            return self.game.lua.call(function, *args, results=results)
        except LuaFailure as failure:
            raise TableError(f"{failure.line} (in {what}, move {self.moves + 1} of {self.path.stem}, seed "
                             f"{self.seed})") from None

    def _refusal_text(self, refusal) -> str:
        """The refusal as the players read it at the TTS table: lib.turns.refusal_text's words."""
        text = self._call("refusal_text", self.game.lua.use("lib.turns").refusal_text, refusal)[0]
        return str(text)

    def _json(self, value, what: str, depth: int = 0):
        """A Lua value the engine gave as JSON: a sequence 1..n (or an empty table) as a list, any other table
        as an object; a function, or a table nested past SHOWN_DEPTH, is the engine's mistake, said so."""
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, float)):
            return value if math.isfinite(value) else str(value)
        if not hasattr(value, "items") or depth > SHOWN_DEPTH:
            raise TableError(f"{self.data['engine']}'s {what} gave {'a table nested too deep' if depth else value} "
                             f"where plain data goes (strings, numbers, booleans, tables; docs/scripting.md)")
        items = list(value.items())
        if all(isinstance(k, int) for k, _ in items) and sorted(k for k, _ in items) == list(range(1, len(items) + 1)):
            return [self._json(v, what, depth + 1) for _, v in sorted(items, key=lambda kv: kv[0])]
        return {str(k): self._json(v, what, depth + 1) for k, v in sorted(items, key=lambda kv: str(kv[0]))}


def _text(value) -> str | None:
    return None if value is None else str(value)
