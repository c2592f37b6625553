"""The engine contract of docs/scripting.md, on the four games' engines under lupa.lua52, through the
contract alone: setup with a seed, then legal moves chosen by a bot that knows nothing but the contract
(now and then a random move, a move description expanded at random; else the move that leaves its seat the
most points by the engine's own scores, as issue 24's greedy bot) until to_act says the game is over. Every move must be accepted, leave the state it was given unchanged and keep
every card (all_ids); every event carries its text; the game ends with winners among its seats; the same
seed plays the same game. These playouts replace the engines' own hand-written ones."""

from __future__ import annotations

import random

import pytest

from deck_data import _data, deck_data
from fake_tts import to_lua, to_py as from_lua
from lua_modules import modules, runtime

CONTRACT = ("setup", "to_act", "legal_moves", "play", "scores", "all_ids")
SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]
GAMES = ("score", "skorch", "scout", "scoop")
LIMIT = 5000  # moves: every game here ends long before


class Game:
    def __init__(self, name: str):
        self.lua = runtime()
        self.engine = modules(name, self.lua)(f"{name}.engine")
        self.data = deck_data(name, self.lua)


ENGINES = {name: Game(name) for name in GAMES}


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
        after, _ = game.engine.play(state, seat, to_lua(game.lua, move))
        return from_lua(game.engine.scores(after)[0])[seat]
    return max(moves, key=points)


def setup(game: Game, seats, **opts):
    made = game.engine.setup(game.data, to_lua(game.lua, seats), to_lua(game.lua, opts))
    return (made, None) if not isinstance(made, tuple) else made


def playout(name: str, seats: list[str], seed: int, **opts) -> tuple[dict, int]:
    """A whole game of random legal moves; returns the final state and the number of moves."""
    game = ENGINES[name]
    e, lua = game.engine, game.lua
    rng = random.Random(seed)
    state, refusal = setup(game, seats, seed=seed, **opts)
    assert state is not None, from_lua(refusal)
    every = sorted(from_lua(e.all_ids(state)))
    assert every, "a game without cards"
    for moves in range(LIMIT):
        acting, kind = e.to_act(state)
        acting = from_lua(acting)
        if kind == "over":
            assert acting == []
            break
        assert kind in ("turn", "simultaneous") and acting and set(acting) <= set(seats), (kind, acting)
        if kind == "turn":
            assert len(acting) == 1
        seat = rng.choice(acting)
        legal = from_lua(e.legal_moves(state, seat))
        assert legal, f"{seat} must act and has no legal move"
        move = choose(game, state, seat, legal, rng)
        before = from_lua(state) if moves % 7 == 0 else None
        new, events = e.play(state, seat, to_lua(lua, move))
        assert new is not None, (move, from_lua(events))
        if before is not None:
            assert from_lua(state) == before, "play changed the state it was given"
        for event in from_lua(events):
            assert isinstance(event["what"], str) and isinstance(event["text"], str) and event["text"], event
        assert sorted(from_lua(e.all_ids(new))) == every, "a card was created or lost"
        state = new
    else:
        pytest.fail(f"{name}: the game did not end in {LIMIT} moves")
    points, winners = e.scores(state)
    points, winners = from_lua(points), from_lua(winners)
    assert winners and set(winners) <= set(seats)
    assert set(points if isinstance(points, dict) else []) <= set(seats)
    return from_lua(state), moves


def players_of(name: str, mode: str | None = None) -> list[int]:
    """The player counts a game (and a SCORE! mode) deals for, from the deck's data."""
    data = _data(name)
    if name == "score":
        options = ENGINES["score"].engine.options(ENGINES["score"].data, mode)
        low, high = options.players_min, options.players_max or 5
        return sorted({low, min(high, 4)})
    if name == "scoop":
        return [data["game"]["players"]["min"] + 1, data["game"]["players"]["max"]]
    return sorted({min(data["setup"]["deal"]), max(data["setup"]["deal"])} - {1})


def score_modes() -> list[str]:
    return [m["id"] for m in _data("score")["modes"]]


@pytest.mark.parametrize("name", GAMES)
def test_every_engine_implements_the_contract(name):
    engine = ENGINES[name].engine
    assert all(callable(engine[f]) for f in CONTRACT), [f for f in CONTRACT if engine[f] is None]


@pytest.mark.parametrize("name,players,seed", [(name, n, seed) for name in ("skorch", "scout", "scoop")
                                               for n in players_of(name) for seed in (1, 2, 3)])
def test_random_games_through_the_contract_keep_every_card_and_end(name, players, seed):
    final, moves = playout(name, SEATS[:players], seed)
    if name == "scoop":
        assert final["turns"] == 52                       # one card a turn, to the last
    elif name == "scout":
        assert final["round"] == final["rounds"] == len(final["history"])
    else:
        assert ENGINES[name].engine.cards_left(to_lua(ENGINES[name].lua, final), final["winner"]) == 0


@pytest.mark.parametrize("mode", score_modes())
def test_random_score_games_through_the_contract_in_every_mode_the_engine_plays(mode):
    game = ENGINES["score"]
    options = from_lua(game.engine.options(game.data, mode))
    if options.get("solo") or options.get("deck_per_player"):
        state, refusal = setup(game, SEATS[:2], seed=1, mode=mode)
        assert state is None and from_lua(refusal)["clause"] == 1     # played at the table only
        return
    for players in players_of("score", mode):
        final, _ = playout("score", SEATS[:players], players, mode=mode)
        assert final["over"] and final["rounds"] >= 1


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_plays_the_same_game(name):
    seats = SEATS[:players_of(name)[0]]
    assert playout(name, seats, 7) == playout(name, seats, 7)


@pytest.mark.parametrize("name", GAMES)
def test_a_move_out_of_turn_or_malformed_is_refused_with_its_clause(name):
    game = ENGINES[name]
    seats = SEATS[:players_of(name)[0]]
    state, _ = setup(game, seats, seed=3)
    acting, _ = game.engine.to_act(state)
    idle = next((s for s in seats if s not in from_lua(acting)), "Pink")
    for seat, move in ((idle, {"nonsense": True}), (from_lua(acting)[0], {"nonsense": True})):
        before = from_lua(state)
        new, refusal = game.engine.play(state, seat, to_lua(game.lua, move))
        refusal = from_lua(refusal)
        assert new is None and isinstance(refusal["clause"], int) and refusal["rule"] and refusal["text"], refusal
        assert from_lua(state) == before
