"""determinize(state, seat, seed) of Scoop, Skorch and Scout (docs/scripting.md), under lupa.lua52: what the
seat sees stays as it is, what it cannot see is redealt at random with the seed (every card kept, the state
still a game that plays on), and the result depends on what the seat sees alone, so issue 24's search bot,
which plays out from it, decides the same whatever the other players' hidden cards are."""

from __future__ import annotations

import copy
import random

import pytest

from conftest import ROOT
from helpers.contract_driver import expand
from helpers.deck_data import deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime

SEATS = ["White", "Red", "Yellow", "Green"]
GAMES = ("scoop", "skorch", "scout")
BOTS = ROOT / "src" / "deckpress" / "data" / "playtest" / "bots.lua"


class Game:
    def __init__(self, name: str):
        self.name, self.lua = name, runtime()
        self.engine = modules(name, self.lua)(f"{name}.engine")
        self.data = deck_data(name, self.lua)
        self.bots = self.lua.execute(BOTS.read_text(encoding="utf-8"))

    def lua_state(self, state: dict):
        return to_lua(self.lua, state)

    def determinize(self, state: dict, seat: str, seed: int) -> dict:
        return from_lua(self.engine.determinize(self.lua_state(state), seat, seed))

    def ids(self, state: dict) -> list[str]:
        return sorted(from_lua(self.engine.all_ids(self.lua_state(state))))


GAME = {name: Game(name) for name in GAMES}


def hidden_slots(name: str, state: dict, seat: str) -> list[tuple]:
    """Where the cards `seat` cannot see lie (paths into the state), by each game's rules."""
    if name == "scoop":                                        # the deck's order, for everyone
        return [("deck", i) for i in range(len(state["deck"]))]
    if name == "skorch":                                       # other hands (but shown cards), face-down prison, draw pile
        out = []
        for s in state["order"]:
            player = state["players"][s]
            if s != seat:
                out += [("players", s, "hand", i) for i, c in enumerate(player["hand"]) if not c.get("shown")]
            for row in ("front", "back"):
                out += [("players", s, row, i) for i, c in enumerate(player[row]) if c and not c["face_up"]]
        return out + [("draw", i) for i in range(len(state["draw"]))]
    me = state["seats"].index(seat)                            # scout: other hands (but scouted cards), cards out
    out = [("hands", p, i) for p, hand in enumerate(state["hands"]) if p != me
           for i, c in enumerate(hand) if not c.get("seen")]
    return out + [("out", i) for i in range(len(state["out"]))]


def get(state, path):
    for key in path:
        state = state[key]
    return state


def put(state, path, value):
    get(state, path[:-1])[path[-1]] = value


def card_id(card) -> str:
    return card if isinstance(card, str) else card["id"]


def view(name: str, state: dict, seat: str) -> dict:
    """The state as `seat` sees it: every hidden card a "?" (Scout's generator, the later deals, dropped)."""
    seen = copy.deepcopy(state)
    for path in hidden_slots(name, state, seat):
        put(seen, path, "?")
    seen.pop("rng", None)
    return seen


def hidden(name: str, state: dict, seat: str) -> list[str]:
    return [card_id(get(state, path)) for path in hidden_slots(name, state, seat)]


def walk(game: Game, seed: int, until, limit: int = 400) -> dict:
    """A state of a game of four seats played by random legal moves, the first for which until(state) holds."""
    rng = random.Random(seed)
    e, lua = game.engine, game.lua
    state = e.setup(game.data, to_lua(lua, SEATS), to_lua(lua, {"seed": seed}))
    for _ in range(limit):
        py = from_lua(state)
        if until(py):
            return py
        acting, kind = e.to_act(state)
        assert kind != "over", "the game ended first"
        seat = rng.choice(from_lua(acting))
        move = expand(rng.choice(from_lua(e.legal_moves(state, seat))), rng)
        state, _ = e.play(state, seat, to_lua(lua, move))
    pytest.fail("no such state")


def other_hand_known(name: str):
    """A state to redeal: under way, and (where the game has them) with a card every player saw go into
    another player's hand."""
    if name == "scoop":
        return lambda s: s["turns"] >= 10 and s["drawn"] and s["turn"] == SEATS[0]
    if name == "skorch":
        return lambda s: s["turn"] == SEATS[0] and not all(c.get("shown") for c in s["players"][SEATS[1]]["hand"]) \
            and any(c.get("shown") for seat in SEATS[1:] for c in s["players"][seat]["hand"])
    return lambda s: not s["round_over"] and s["turn"] == 1 and any(c.get("seen") for h in s["hands"][1:] for c in h)


@pytest.fixture(scope="module", params=GAMES)
def case(request):
    name = request.param
    return name, walk(GAME[name], 3, other_hand_known(name))


def test_the_seat_sees_the_same_state_and_every_card_is_kept(case):
    name, state = case
    game, seat = GAME[name], SEATS[0]
    before = copy.deepcopy(state)
    for seed in range(1, 6):
        redealt = game.determinize(state, seat, seed)
        assert view(name, redealt, seat) == view(name, state, seat)
        assert game.ids(redealt) == game.ids(state)
        assert sorted(hidden(name, redealt, seat)) == sorted(hidden(name, state, seat))
    lua_state = game.lua_state(state)
    game.engine.determinize(lua_state, seat, 1)
    assert from_lua(lua_state) == before                      # determinize leaves its input as it was


def test_the_hidden_cards_vary_with_the_seed_and_one_seed_gives_one_redeal(case):
    name, state = case
    game, seat = GAME[name], SEATS[0]
    deals = [tuple(hidden(name, game.determinize(state, seat, seed), seat)) for seed in range(1, 9)]
    assert len(set(deals)) == 8
    assert game.determinize(state, seat, 4) == game.determinize(state, seat, 4)
    if name == "skorch":                                       # the seat's own face-down prison cards too
        own = [("players", seat, row, i) for row in ("front", "back")
               for i, c in enumerate(state["players"][seat][row]) if c and not c["face_up"]]
        assert own and len({tuple(card_id(get(game.determinize(state, seat, s), p)) for p in own)
                            for s in range(1, 9)}) > 1


def test_cards_every_player_saw_go_into_a_hand_stay_where_they_are(case):
    name, state = case
    if name == "scoop":
        pytest.skip("Scoop has no hands")
    game, seat = GAME[name], SEATS[0]
    flag = "shown" if name == "skorch" else "seen"
    hands = ([("players", s, "hand") for s in SEATS[1:]] if name == "skorch"
             else [("hands", p) for p in range(1, len(state["hands"]))])
    known = [(path + (i,), c["id"]) for path in hands for i, c in enumerate(get(state, path)) if c.get(flag)]
    assert known
    redealt = game.determinize(state, seat, 2)
    assert [card_id(get(redealt, path)) for path, _ in known] == [cid for _, cid in known]


def swapped(name: str, state: dict, seat: str) -> dict:
    """The same state for `seat` with two of its hidden cards swapped: one of the next player's (Scoop: the
    deck's top card) and one lying elsewhere out of its sight."""
    slots = hidden_slots(name, state, seat)
    first = next(p for p in slots if p[:2] in (("players", SEATS[1]), ("hands", 1), ("deck", 0)))
    second = [p for p in slots if p[:2] != first[:2] and not isinstance(get(state, p), str)][-1]
    other = copy.deepcopy(state)
    put(other, first, get(state, second))
    put(other, second, get(state, first))
    assert view(name, other, seat) == view(name, state, seat) and other != state
    return other


def test_a_state_that_differs_only_in_hidden_cards_gives_the_same_redeal(case):
    name, state = case
    game, seat = GAME[name], SEATS[0]
    other = swapped(name, state, seat)
    assert game.ids(other) == game.ids(state)
    for seed in range(1, 6):
        assert game.determinize(other, seat, seed) == game.determinize(state, seat, seed)
    if name != "scoop":                                        # the player whose hand changed sees the change
        assert game.determinize(other, SEATS[1], 1) != game.determinize(state, SEATS[1], 1)


def searched(game: Game, state: dict, seat: str, draw: int, cheat: bool = False) -> tuple[str, list[str]]:
    """The search bot's move for `seat` from its generator at `draw`, and every state it played out from (as
    texts), through the engine, or (cheat) through an engine whose determinize hands the bot the state as
    it is."""
    wrapped = game.lua.eval("""function(engine, key, cheat)
      local log, n = {}, 0
      local wrapper = setmetatable({}, {__index = engine})
      function wrapper.determinize(state, seat, seed)
        local d = cheat and state or engine.determinize(state, seat, seed)
        n = n + 1
        log[n] = key(d)
        return d
      end
      return wrapper, log
    end""")
    engine, log = wrapped(game.engine, game.bots.key, cheat)
    r = game.lua.table_from({"s": draw})
    move = game.bots.BOTS.search(engine, game.lua_state(state), seat, game.lua.table_from([]), r, 8)
    return game.bots.key(move), from_lua(log)


def test_the_search_bot_plays_out_from_the_same_states_whatever_the_other_players_hidden_cards_are(case):
    name, state = case
    game, seat = GAME[name], SEATS[0]
    other = swapped(name, state, seat)
    assert len(from_lua(game.engine.legal_moves(game.lua_state(state), seat))) > 1
    for draw in (1, 2):
        move, played_from = searched(game, state, seat, draw)
        assert len(played_from) == 8
        assert searched(game, other, seat, draw) == (move, played_from)
    assert searched(game, other, seat, 1, cheat=True)[1] != searched(game, state, seat, 1, cheat=True)[1]


def test_a_redealt_state_plays_on_to_the_end_keeping_every_card(case):
    name, state = case
    game, seat = GAME[name], SEATS[0]
    e, lua = game.engine, game.lua
    every = game.ids(state)
    rng = random.Random(5)
    current = e.determinize(game.lua_state(state), seat, 7)
    for _ in range(3000):
        acting, kind = e.to_act(current)
        if kind == "over":
            break
        mover = rng.choice(from_lua(acting))
        move = expand(rng.choice(from_lua(e.legal_moves(current, mover))), rng)
        current, events = e.play(current, mover, to_lua(lua, move))
        assert current is not None, from_lua(events)
    else:
        pytest.fail("the redealt game did not end")
    assert sorted(from_lua(e.all_ids(current))) == every


def test_the_search_bot_refuses_an_engine_without_determinize():
    game = GAME["scoop"]
    state = walk(game, 3, other_hand_known("scoop"))
    blind = game.lua.eval("function(engine) return setmetatable({determinize = false}, {__index = engine}) end")
    with pytest.raises(Exception, match=r"the search bot needs the engine's determinize\(state, seat, seed\)"):
        game.bots.BOTS.search(blind(game.engine), game.lua_state(state), SEATS[0], game.lua.table_from([]),
                              game.lua.table_from({"s": 1}), 8)


ENDLESS = """
local E = {}
function E.to_act(s) return {s.seats[s.turn]}, "turn" end
function E.legal_moves(s, seat) return {{take = "lead"}, {take = "gold"}} end
function E.play(s, seat, move)  -- a seat keeps what it took first; the game never ends
  local t = {seats = s.seats, turn = s.turn % 2 + 1, took = {}}
  for k, v in pairs(s.took) do t.took[k] = v end
  t.took[seat] = t.took[seat] or move.take
  return t, {}
end
function E.scores(s)
  local points = {}
  for _, seat in ipairs(s.seats) do points[seat] = s.took[seat] == "gold" and 1 or 0 end
  return points, {}
end
function E.determinize(s, seat, seed) return s end
return E
"""


def test_a_playout_still_going_after_its_moves_is_won_by_the_most_points_then():
    game = GAME["scoop"]
    endless, bots = game.lua.execute(ENDLESS), game.bots
    playout = bots.PLAYOUT
    bots.PLAYOUT = 30
    try:
        for draw in (1, 2, 3):
            move = bots.BOTS.search(endless, game.lua.eval('{seats = {"A", "B"}, turn = 1, took = {}}'), "A",
                                    game.lua.table_from([]), game.lua.table_from({"s": draw}), 40)
            assert move.take == "gold"
    finally:
        bots.PLAYOUT = playout
