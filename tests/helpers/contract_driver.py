"""A driver of scripted games that knows nothing but the engine contract of docs/scripting.md: what
tests/test_engine_contract.py plays the four games with, and the test of `deckpress new --scripted` its
scaffold's game. It plays through `Game.contract`, the engine's functions that scripting/contract.py declares
and no others, as playtest's bots do.

    game = Game(lua, use("score.engine"), deck_data("score", lua))
    final_state, moves = playout(game, ["White", "Red"], seed=1)
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from deckpress.scripting.contract import CONTRACT
from helpers.fake_tts import to_lua, to_py as from_lua

LIMIT = 5000  # moves: every game here ends long before


class Game:
    """An engine as lupa holds it (`engine`: the whole module, for a test of one game's own functions;
    `contract`: the declared functions it has), with the deck data its setup takes."""

    def __init__(self, lua, engine, data):
        self.lua, self.engine, self.data = lua, engine, data
        missing = [f.name for f in CONTRACT if not f.optional and engine[f.name] is None]
        assert not missing, f"the engine has no {', '.join(missing)}"
        self.contract = SimpleNamespace(**{f.name: engine[f.name] for f in CONTRACT if engine[f.name] is not None})


def expand(description, rng: random.Random):
    """A move from a move description: {choose = k, from = list, ordered = bool} becomes k items of the
    list (in a random order when ordered), {one_of = list} one of them; everything else is as it is."""
    if isinstance(description, dict):
        if "choose" in description:
            picked = rng.sample(description["from"], description["choose"])
            return picked if description.get("ordered") else sorted(picked)
        if "one_of" in description:
            return rng.choice(description["one_of"])
        return {key: expand(value, rng) for key, value in description.items()}
    if isinstance(description, list):
        return [expand(value, rng) for value in description]
    return description


def choose(game: Game, state, seat, legal: list, rng: random.Random):
    """Usually the move after which `seat` has the most points (the first of the best), else a random one."""
    moves = [expand(m, rng) for m in legal]
    if rng.random() < 0.15 or len(moves) > 60:
        return rng.choice(moves)
    def points(move):
        after, _ = game.contract.play(state, seat, to_lua(game.lua, move))
        return from_lua(game.contract.scores(after)[0])[seat]
    return max(moves, key=points)


def setup(game: Game, seats, **opts):
    made = game.contract.setup(game.data, to_lua(game.lua, seats), to_lua(game.lua, opts))
    return (made, None) if not isinstance(made, tuple) else made


def playout(game: Game, seats: list, seed: int, visit=None, **opts) -> tuple[dict, int]:
    """A whole game played by `choose` through the contract, every move checked (accepted, the state given
    unchanged, by it and by the moves `choose` tried from it, every card kept, events with their text); returns
    the final state and the number of moves. `visit(state, moves)`, when given, sees each state as the engine
    holds it: before each move and the final one."""
    e, lua = game.contract, game.lua
    rng = random.Random(seed)
    state, refusal = setup(game, seats, seed=seed, **opts)
    assert state is not None, from_lua(refusal)
    every = sorted(from_lua(e.all_ids(state)))
    assert every, "a game without cards"
    for moves in range(LIMIT):
        if visit:
            visit(state, moves)
        acting, kind = e.to_act(state)
        acting = from_lua(acting)
        if kind == "over":
            assert acting == []
            break
        assert kind in ("turn", "simultaneous") and acting and set(acting) <= set(seats), (kind, acting)
        if kind == "turn":
            assert len(acting) == 1
        seat = rng.choice(acting)
        before = from_lua(state)
        legal = from_lua(e.legal_moves(state, seat))
        assert legal, f"{seat} must act and has no legal move"
        move = choose(game, state, seat, legal, rng)
        new, events = e.play(state, seat, to_lua(lua, move))
        assert new is not None, (move, from_lua(events))
        assert from_lua(state) == before, "play changed the state it was given"
        for event in from_lua(events):
            assert isinstance(event["what"], str) and isinstance(event["text"], str) and event["text"], event
        assert sorted(from_lua(e.all_ids(new))) == every, "a card was created or lost"
        state = new
    else:
        pytest.fail(f"the game did not end in {LIMIT} moves")
    points, winners = e.scores(state)
    points, winners = from_lua(points), from_lua(winners)
    assert (winners or len(seats) == 1) and set(winners) <= set(seats)   # a solo game may be lost
    assert set(points if isinstance(points, dict) else []) <= set(seats)
    return from_lua(state), moves
