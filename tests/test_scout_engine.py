"""Scout rules engine (tts/scout/engine.lua) under lupa.lua52: one test per numbered play clause of
docs/rules/scout.md (10-21); the random playouts of whole games are tests/test_engine_contract.py's.
Seats are numbered 1..n here (the table names them by colour). Game facts come from decks/scout.yaml as
the table bundles it (deck_data)."""

from __future__ import annotations

import itertools
import re

import pytest

from conftest import ROOT
from helpers.deck_data import deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime

lua = runtime()
use = modules("scout", lua)
engine, setup = use("scout.engine"), use("scout.setup")
DATA = deck_data("scout", lua)
_ids = itertools.count(1)


def c(v, other=None, flipped=False):
    """A card whose active value is v (the other end `other`, by default v + 1 or 1 for a 10)."""
    other = other if other is not None else (v + 1 if v < 10 else 1)
    top, bottom = (other, v) if flipped else (v, other)
    return {"id": f"k{next(_ids)}", "top": top, "bottom": bottom, "flipped": flipped}


def values(cards):
    return [(c["bottom"] if c["flipped"] else c["top"]) for c in cards]


def round_state(hands, first=1, active=None, owner=None, chips=None, tokens=None, won=None, stars=None):
    n = len(hands)
    game = engine.new_game(DATA, to_lua(lua, list(range(1, n + 1))))
    if stars is not None:
        g = from_lua(game)
        g["stars"] = stars
        game = to_lua(lua, g)
    plan = to_lua(lua, {"seat_count": n, "hands": hands, "first_player": first, "unused": []})
    state = from_lua(engine.start_round(game, plan))
    if active is not None:
        state["active"] = {"owner": owner, "cards": active}
    if chips is not None:
        state["chips"] = chips
    if tokens is not None:
        state["tokens"] = tokens
    if won is not None:
        state["won"] = won
    state["out"] = []
    return state


def play(state, p, **move):
    """The move played through the engine, which must leave the state it was given as it was."""
    given = to_lua(lua, state)
    new, info = engine.play(given, p, to_lua(lua, move))
    assert from_lua(given) == from_lua(to_lua(lua, state)), "play changed the state it was given"
    if new is None:
        return None, info
    return from_lua(new), from_lua(info)


def ok(state, p, **move):
    new, events = play(state, p, **move)
    assert new is not None, events
    return new, events


def refused(state, p, clause, **move):
    new, refusal = play(state, p, **move)
    assert new is None, "the move was accepted"
    assert refusal["clause"] == clause, refusal
    return refusal["text"]


def beats(a, b):
    return engine.beats(to_lua(lua, a), to_lua(lua, b))


def test_rules_come_from_the_deck_yaml():
    rules = from_lua(engine.rules(DATA))
    assert rules == {"rounds": "players", "chips_per_player": 1, "round_score": {"won": 1, "scout": 1, "hand": -1},
                     "stars": [5, 1]}
    cards = from_lua(engine.cards(DATA))
    assert len(cards) == 45 and all(c["top"] < c["bottom"] for c in cards)
    assert from_lua(engine.new_game(DATA, to_lua(lua, [1, 2, 3, 4])))["rounds"] == 4


def test_clause_10_turns_go_clockwise_from_the_first_player_and_hands_turn_before_play():
    hands = [[c(1), c(2)], [c(5), c(6)], [c(8), c(9)]]
    s = round_state(hands, first=2)
    assert s["turn"] == 2
    refused(s, 1, 10, show={"first": 1, "last": 1})
    assert {"turn_hand": True} in from_lua(engine.legal_moves(to_lua(lua, s), 3))   # not its turn, but it may
    turned, events = ok(s, 3, turn_hand=True)
    assert values(turned["hands"][2]) == [10, 9]          # order reversed, every card turned
    assert events == [{"what": "turned", "seat": 3, "text": "3 turned their hand."}]
    refused(turned, 3, 8, turn_hand=True)                  # once per round
    after, _ = ok(turned, 2, show={"first": 1, "last": 1})
    assert after["turn"] == 3
    refused(after, 1, 8, turn_hand=True)                   # only before the round's first move
    refused(s, 2, 10)
    refused(s, 4, 10, show={"first": 1, "last": 1})        # not a seat of this game


def test_clause_11_a_show_is_adjacent_cards_of_the_hand():
    s = round_state([[c(4), c(9), c(4)], [c(1)]])
    refused(s, 1, 11, show={"first": 2, "last": 4})
    refused(s, 1, 11, show={"first": 2, "last": 1})
    refused(s, 1, 12, show={"first": 1, "last": 3})        # the two 4s are not side by side
    after, _ = ok(s, 1, show={"first": 2, "last": 2})
    assert values(after["hands"][0]) == [4, 4] and values(after["active"]["cards"]) == [9]


def test_clause_12_a_run_or_a_set():
    assert engine.kind(to_lua(lua, [3, 4, 5])) == "run" and engine.kind(to_lua(lua, [5, 4, 3])) == "run"
    assert engine.kind(to_lua(lua, [7, 7, 7])) == "set" and engine.kind(to_lua(lua, [6])) == "set"
    assert engine.kind(to_lua(lua, [3, 5])) is None and engine.kind(to_lua(lua, [3, 4, 3])) is None
    s = round_state([[c(5), c(4), c(3), c(6)], [c(1)]])
    after, _ = ok(s, 1, show={"first": 1, "last": 3})        # shown as in the hand: 5-4-3
    assert values(after["active"]["cards"]) == [5, 4, 3]
    assert "neither" in refused(s, 1, 12, show={"first": 3, "last": 4})


def test_clause_13_what_beats_what():
    assert beats([1, 2], [10]) and beats([2, 3, 4], [9, 9])           # more cards
    assert beats([1, 1, 1], [2, 3, 4]) and not beats([2, 3, 4], [1, 1, 1])  # a set over a run
    assert beats([3, 3], [2, 2]) and not beats([2, 2], [2, 2])         # higher set; equal does not beat
    assert beats([2, 3, 4], [1, 2, 3]) and beats([4, 3, 2], [1, 2, 3]) and not beats([3, 2, 1], [1, 2, 3])
    assert beats([7], [6]) and not beats([6], [7])
    s = round_state([[c(2), c(2), c(8)], [c(1)]], active=[c(3), c(3)], owner=2)
    assert "does not beat 3-3" in refused(s, 1, 13, show={"first": 1, "last": 2})


def test_clause_14_the_beaten_cards_go_to_the_score_pile():
    beaten = [c(3), c(3)]
    s = round_state([[c(8), c(8), c(1)], [c(1)], [c(2)]], active=beaten, owner=3)
    after, events = ok(s, 1, show={"first": 1, "last": 2})
    assert [x["id"] for x in after["won"][0]] == [x["id"] for x in beaten]
    assert after["active"]["owner"] == 1 and values(after["active"]["cards"]) == [8, 8]
    assert events[-1]["won"] == 2


def test_clause_15_scout_takes_an_end_card_anywhere_either_way_up():
    left, mid, right = c(4, 7), c(5), c(6)
    s = round_state([[c(1), c(2)], [c(9)], [c(9)]], active=[left, mid, right], owner=3)
    after, events = ok(s, 1, scout={"side": "left", "position": 2, "turn": True})
    assert values(after["hands"][0]) == [1, 7, 2]                # turned: its other value counts
    assert values(after["active"]["cards"]) == [5, 6] and after["tokens"] == [0, 0, 1]
    assert events[0]["what"] == "scouted" and after["turn"] == 2
    after, _ = ok(s, 1, scout={"side": "right", "position": 3})
    assert values(after["hands"][0]) == [1, 2, 6]
    refused(s, 1, 15, scout={"side": "middle", "position": 1})
    refused(s, 1, 15, scout={"side": "left", "position": 4})
    refused(round_state([[c(1)], [c(2)]]), 1, 15, scout={"side": "left", "position": 1})
    one = round_state([[c(1)], [c(2)], [c(3)]], active=[c(5)], owner=3)
    after, _ = ok(one, 1, scout={"side": "right", "position": 1})
    assert after["active"] is False                            # the set is gone: anything may be shown
    mine = round_state([[c(1)], [c(2)]], active=[c(5)], owner=1)
    refused(mine, 1, 15, scout={"side": "left", "position": 1})


def test_clause_16_scout_and_show_once_per_round_with_the_chip():
    s = round_state([[c(6), c(8)], [c(1), c(1)], [c(2)]], active=[c(7), c(3)], owner=3)
    # scout the 7 between 6 and 8: 6-7-8 beats the 3 that is left
    after, events = ok(s, 1, scout={"side": "left", "position": 2}, show={"first": 1, "last": 3})
    assert after["chips"] == [0, 1, 1] and after["tokens"] == [0, 0, 1]
    assert values(after["active"]["cards"]) == [6, 7, 8] and values(after["won"][0]) == [3]
    assert [e["what"] for e in events] == ["chip", "scouted", "shown", "round_over"]  # hand emptied
    spent = round_state([[c(6), c(8)], [c(1)], [c(2)]], active=[c(7), c(3)], owner=3, chips=[0, 1, 1])
    refused(spent, 1, 16, scout={"side": "left", "position": 2}, show={"first": 1, "last": 3})
    # the show is checked against what the scout left: 6 alone does not beat 7
    s = round_state([[c(6), c(8)], [c(1)], [c(2)]], active=[c(3), c(7)], owner=3)
    refused(s, 1, 13, scout={"side": "left", "position": 3}, show={"first": 1, "last": 1})


def test_clause_17_the_round_ends_on_an_empty_hand_or_when_the_owner_comes_round():
    s = round_state([[c(9)], [c(1), c(2)], [c(3), c(3)]])
    after, events = ok(s, 1, show={"first": 1, "last": 1})
    assert after["round_over"] and after["ender"] == 1 and events[-1]["what"] == "round_over"
    refused(after, 2, 17, show={"first": 1, "last": 1})
    s = round_state([[c(9), c(1)], [c(1), c(2)], [c(3), c(4)]])
    s, _ = ok(s, 1, show={"first": 1, "last": 1})
    s, _ = ok(s, 2, scout={"side": "left", "position": 1})   # the 9 is taken: the set is gone
    s, _ = ok(s, 3, scout={"side": "left", "position": 1}) if s["active"] else ok(s, 3, show={"first": 1, "last": 1})
    assert not s["round_over"] and s["turn"] == 1             # nobody owns a set: play goes on
    s = round_state([[c(1), c(2), c(3), c(9)], [c(5)], [c(6)]])
    s, _ = ok(s, 1, show={"first": 1, "last": 3})
    s, _ = ok(s, 2, scout={"side": "left", "position": 1})
    assert not s["round_over"]
    s, events = ok(s, 3, scout={"side": "right", "position": 1})
    assert s["round_over"] and s["ender"] == 1 and events[-1]["what"] == "round_over"
    assert [x["exempt"] for x in events[-1]["scores"]] == [True, False, False]


def test_clause_18_round_score_in_stars_the_ender_exempt():
    won = [[c(1), c(1), c(1)], [c(2)], []]
    s = round_state([[c(5), c(6)], [c(7)], [c(1), c(2), c(3), c(4)]], active=[c(4)], owner=1,
                    tokens=[1, 2, 0], won=won, stars=[3, 0, 1], first=2)
    after, events = ok(s, 2, show={"first": 1, "last": 1})    # player 2 empties the hand
    scores = [x["points"] for x in events[-1]["scores"]]
    # 1: 3 won + 1 token - 2 in hand = 2; 2: 1 + 1 (the 4) won + 2 tokens, exempt = 4; 3: 0 + 0 - 4 = -4
    assert scores == [2, 4, -4]
    assert after["stars"] == [5, 4, 0]                       # player 3 gives back the 1 star held
    assert events[-1]["paid"] == [2, 4, -1]
    assert from_lua(engine.stars_for(17, to_lua(lua, [5, 1]))) == {5: 3, 1: 2}


def test_clause_19_the_marker_passes_and_chips_come_back():
    s = round_state([[c(9)], [c(1)], [c(2)]], first=3, chips=[0, 1, 0])
    s["turn"] = 3
    s, _ = ok(s, 3, show={"first": 1, "last": 1})
    assert s["round_over"]
    plan = setup.setup_plan(3, engine.cards(DATA), 5, setup.rules(DATA))
    nxt = from_lua(engine.start_round(to_lua(lua, s), plan))
    assert nxt["round"] == 2 and nxt["first_player"] == 1 and nxt["turn"] == 1   # 3 -> 1, clockwise
    assert nxt["chips"] == [1, 1, 1] and nxt["tokens"] == [0, 0, 0] and nxt["active"] is False
    assert [len(h) for h in nxt["hands"]] == [12, 12, 12]
    refused(s, 1, 19, deal=True)                         # a state without its own cards: nothing to deal
    game = engine.setup(DATA, to_lua(lua, ["White", "Red", "Blue"]), to_lua(lua, {"seed": 5}))
    assert from_lua(engine.legal_moves(game, "Blue")) == [{"turn_hand": True}]
    first = from_lua(game)["first_player"]
    g = from_lua(game)
    g["round_over"] = True                               # as a round's last move leaves it
    seats, kind = engine.to_act(to_lua(lua, g))
    assert (from_lua(seats), kind) == ([["White", "Red", "Blue"][first % 3]], "turn")
    dealt, events = ok(g, "Red", deal=True)              # any seat deals the next round
    assert dealt["round"] == 2 and dealt["first_player"] == first % 3 + 1 and events[0]["what"] == "dealt"
    assert ok(g, "Red", deal=True)[0] == dealt                 # with the game's own seed: the same deal
    refused(dealt, "Red", 19, deal=True)


def test_clause_20_the_game_ends_after_one_round_per_player():
    s = round_state([[c(9)], [c(1)]], stars=[0, 6])
    s["round"] = 2
    s, events = ok(s, 1, show={"first": 1, "last": 1})      # 1: +0 (ender); 2: -1 -> 5 stars
    assert s["game_over"] and s["winners"] == [2] and events[-1]["what"] == "game_over"
    with pytest.raises(Exception, match="over"):
        engine.start_round(to_lua(lua, s), setup.setup_plan(2, engine.cards(DATA), 1, setup.rules(DATA)))
    tie = round_state([[c(9)], [c(1)]], stars=[1, 1])
    tie["round"] = 2
    tie["won"] = [[], []]
    tie["tokens"] = [0, 1]
    tie, _ = ok(tie, 1, show={"first": 1, "last": 1})      # 1 + 0 = 1; 1 + 1 - 1 = 1
    assert tie["winners"] == [1, 2]


def test_clause_21_a_refused_turn_changes_nothing():
    s = round_state([[c(2), c(5)], [c(1)]], active=[c(3), c(3)], owner=2)
    before = to_lua(lua, s)
    new, refusal = engine.play(before, 1, to_lua(lua, {"show": {"first": 1, "last": 2}}))
    assert new is None and from_lua(refusal)["clause"] == 12 and from_lua(refusal)["rule"] == "run or set"
    assert from_lua(before) == from_lua(to_lua(lua, s))


def test_every_play_clause_has_its_test():
    doc = (ROOT / "docs" / "rules" / "scout.md").read_text(encoding="utf-8")
    play_part = doc[doc.index("## Clauses: the play"):]
    clauses = {int(n) for n in re.findall(r"^Clause (\d+)\.", play_part, re.M)}
    tests = {int(n) for n in re.findall(r"^def test_clause_(\d+)_", open(__file__, encoding="utf-8").read(), re.M)}
    assert clauses == tests == set(range(10, 22))


# legal_moves as it was before it was written to build no hand per scout (issue 28, point 3): the hand
# after each scout copied, every stretch of it rechecked with kind and beats. The new one must list the
# same moves in the same order.
OLD_LEGAL_MOVES = """
local E = ...
local function value(c) if c.flipped then return c.bottom end return c.top end
local function values(cards)
  local out = {}
  for i, c in ipairs(cards) do out[i] = value(c) end
  return out
end
return function(state, seat)
  local out, n = {}, 0
  local function add(m) n = n + 1; out[n] = m end
  local player
  for p, s in ipairs(state.seats) do if s == seat then player = p end end
  if player == nil or state.game_over then return out end
  if state.round_over then
    if state.cards then add({deal = true}) end
    return out
  end
  if E.check(state, seat, {turn_hand = true}) then add({turn_hand = true}) end
  if player ~= state.turn then return out end
  local function shows(hand, active, scout)
    local beaten = active and values(active.cards)
    for first = 1, #hand do
      local vs = {}
      for last = first, #hand do
        vs[last - first + 1] = value(hand[last])
        if E.kind(vs) == nil then break end
        if not beaten or E.beats(vs, beaten) then add({scout = scout, show = {first = first, last = last}}) end
      end
    end
  end
  local active = state.active
  shows(state.hands[player], active, nil)
  if active and active.owner ~= player then
    for _, side in ipairs({"left", "right"}) do
      for position = 1, #state.hands[player] + 1 do
        for _, turn in ipairs({false, true}) do
          local scout = {side = side, position = position, turn = turn}
          add({scout = scout})
          if state.chips[player] > 0 then
            local rest, k = {}, 0
            for i, c in ipairs(active.cards) do
              if i ~= (side == "left" and 1 or #active.cards) then k = k + 1; rest[k] = c end
            end
            shows(E.scouted_hand(state, seat, scout), k > 0 and {cards = rest}, scout)
          end
        end
      end
    end
  end
  return out
end
"""

# Random states compared in Lua: games played from many seeds with random moves (scouting often, so that
# hands grow), and random hands of up to 19 cards of few values (many runs and sets) against random
# active sets, with and without the chip, cards turned or not (`flipped` nil as well as false).
COMPARE = """
local E, old, Random, data, seats = ...
local function key(m)
  if m.deal then return "deal" end
  if m.turn_hand then return "turn" end
  local s = ""
  if m.scout then s = m.scout.side .. m.scout.position .. tostring(m.scout.turn) end
  if m.show then s = s .. "/" .. m.show.first .. "-" .. m.show.last end
  return s
end
local function same(state, seat)
  local a, b = E.legal_moves(state, seat), old(state, seat)
  if #a ~= #b then return false, #a .. " moves instead of " .. #b end
  for i = 1, #a do
    if key(a[i]) ~= key(b[i]) then return false, "move " .. i .. ": " .. key(a[i]) .. " instead of " .. key(b[i]) end
  end
  return true, #a
end
local rng, compared, moves = Random.seed(28), 0, 0
local function draw(n) rng = Random.next(rng); return rng % n + 1 end
local function check(state, seat)
  local ok, why = same(state, seat)
  if not ok then error(why) end
  compared, moves = compared + 1, moves + why
end
for game = 1, 12 do
  local count = 2 + game % 4
  local list = {}
  for k = 1, count do list[k] = seats[k] end
  local state = E.setup(data, list, {seed = game})
  for _ = 1, 300 do
    if state.game_over then break end
    for k = 1, count do check(state, list[k]) end
    local seat = E.to_act(state)[1]
    local legal = E.legal_moves(state, seat)
    local pick = legal[draw(#legal)]
    if draw(3) > 1 then
      for _, m in ipairs(legal) do if m.scout and draw(4) == 1 then pick = m end end
    end
    state = E.play(state, seat, pick)
  end
end
local function card(i)
  local top, bottom = draw(6), draw(6)
  local flipped = ({true, false, nil})[draw(3)]
  return {id = "r" .. i, top = top, bottom = bottom, flipped = flipped}
end
for trial = 1, 400 do
  local hand, size = {}, draw(19)
  for i = 1, size do hand[i] = card(i) end
  local active, length = {}, draw(5)
  local start, step = draw(6), ({-1, 0, 1})[draw(3)]
  for i = 1, length do
    local v = start + step * (i - 1)
    active[i] = {id = "a" .. i, top = v, bottom = draw(6), flipped = (i % 2 == 0) and false or nil}
  end
  local state = {seats = {"A", "B"}, seat_count = 2, turn = 1, round_over = false, game_over = false,
    hands = {hand, {card(99)}}, chips = {draw(2) - 1, 1}, tokens = {0, 0}, won = {{}, {}},
    active = trial % 7 ~= 0 and {owner = draw(2), cards = active}, flip = {}}
  state.flip = use("scout.setup").begin_play(use("scout.setup").new_round())
  check(state, "A")
end
return compared, moves
"""


def test_legal_moves_lists_the_same_moves_as_the_old_algorithm():
    old = lua.execute(OLD_LEGAL_MOVES, engine)
    seats = to_lua(lua, ["White", "Red", "Blue", "Green", "Yellow"])
    compared, moves = lua.execute(COMPARE, engine, old, use("lib.random"), DATA, seats)
    assert compared > 1000 and moves > 50000
