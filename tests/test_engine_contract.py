"""The engine contract of docs/scripting.md, on the four games' engines under lupa.lua52, through the
contract alone (tests/contract_driver.py): setup with a seed, then legal moves chosen by a bot that knows
nothing but the contract (now and then a random move, a move description expanded at random; else the move
that leaves its seat the most points by the engine's own scores, as issue 24's greedy bot) until to_act says
the game is over. Every move must be accepted, leave the state it was given unchanged and keep every card
(all_ids); every event carries its text; the game ends with winners among its seats; the same seed plays the
same game. These playouts replace the engines' own hand-written ones."""

from __future__ import annotations

import pytest

from contract_driver import Game, playout, setup
from deck_data import _data, deck_data
from fake_tts import to_lua, to_py as from_lua
from lua_modules import modules, runtime

CONTRACT = ("setup", "to_act", "legal_moves", "play", "scores", "all_ids")
SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]
GAMES = ("score", "skorch", "scout", "scoop")


def game_of(name: str) -> Game:
    lua = runtime()
    return Game(lua, modules(name, lua)(f"{name}.engine"), deck_data(name, lua))


ENGINES = {name: game_of(name) for name in GAMES}



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
    final, moves = playout(ENGINES[name], SEATS[:players], seed)
    if name == "scoop":
        assert final["turns"] == 52                       # one card a turn, to the last
    elif name == "scout":
        assert final["round"] == final["rounds"] == len(final["history"])
    else:
        assert ENGINES[name].engine.cards_left(to_lua(ENGINES[name].lua, final), final["winner"]) == 0


@pytest.mark.parametrize("mode", score_modes())
def test_random_score_games_through_the_contract_in_every_mode(mode):
    game = ENGINES["score"]
    for players in players_of("score", mode):
        final, _ = playout(game, SEATS[:players], players, mode=mode)
        assert final["over"]
        if from_lua(game.engine.options(game.data, mode)).get("solo") in ("scorlitaire", "scorliroad"):
            assert final["winners"] or final["discard"]                    # won, or lost having flipped
        else:
            assert final["rounds"] >= 1


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_plays_the_same_game(name):
    seats = SEATS[:players_of(name)[0]]
    assert playout(ENGINES[name], seats, 7) == playout(ENGINES[name], seats, 7)


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


def test_decking_keeps_one_card_of_each_draw_filling_the_roster_from_the_right():
    game = ENGINES["score"]
    state, _ = setup(game, SEATS[:2], seed=2, mode="decking")
    s = from_lua(state)
    assert [len(s["hands"]["White"]), len(s["decks"]["White"])] == [8, 34]    # a draw of 8 from 42 cards
    assert from_lua(game.engine.legal_moves(state, "White")) == [{"keep": {"one_of": s["hands"]["White"]}}]
    kept = []
    for slot in (3, 2, 1):
        choice = from_lua(state)["hands"]["White"][slot]
        state, events = game.engine.play(state, "White", to_lua(game.lua, {"keep": choice}))
        kept.append(choice)
        assert from_lua(events)[0] == {"what": "kept", "seat": "White", "slot": slot,
                                       "text": f"White keeps a card in roster slot {slot}."}
    s = from_lua(state)
    assert s["chosen"]["White"]["roster"] == kept[::-1] and len(s["graves"]["White"]) == 21
    assert "White" not in from_lua(game.engine.to_act(state)[0]) and s["hands"]["White"] == []
