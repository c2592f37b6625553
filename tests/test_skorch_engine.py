"""Skorch rules engine (tts/skorch/engine.lua) under lupa.lua52: one test per numbered play clause of
docs/rules/skorch.md (10-22); the random playouts are tests/test_engine_contract.py's.
Game facts come from decks/skorch.yaml as the table bundles it (deck_data)."""

from __future__ import annotations

import re

from conftest import ROOT

from helpers.deck_data import deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime

lua = runtime()
use = modules("skorch", lua)
engine, setup = use("skorch.engine"), use("skorch.setup")
DATA = deck_data("skorch", lua)
RULES = from_lua(engine.rules(DATA))
SEATS = ["White", "Red", "Blue"]


def card(kind, value=0, id=None, up=True):
    return {"id": id or f"{kind}-{value}", "kind": kind, "value": value, "face_up": up}


def a(value, id=None, up=True):
    return card("attack", value, id or f"a{value}", up)


def player(hand=(), front=(), back=()):
    """Prison rows as lists of up to 5 cards; missing slots are empty (False)."""
    rows = {"front": list(front) + [False] * (5 - len(front)), "back": list(back) + [False] * (5 - len(back))}
    return {"hand": list(hand), **rows}


def filler(prefix, n=5):
    """A prison row of face-up 10s (ids prefix1..): keeps a player in the game."""
    return [a(10, f"{prefix}{i}") for i in range(1, n + 1)]


def game(players, pile=(), draw=(), value=None, turn="White", direction=1, order=SEATS):
    for seat in order:
        players.setdefault(seat, player(front=filler(seat)))
    top = [c for c in pile if c["kind"] == "attack"]
    return {"rules": RULES, "order": list(order), "players": players, "pile": list(pile), "draw": list(draw),
            "burned": [], "value": (top[-1]["value"] if top else 0) if value is None else value,
            "turn": turn, "direction": direction, "winner": False, "turns": 0}


def play(state, seat, **move):
    """The move played through the engine, which must leave the state it was given as it was."""
    given = to_lua(lua, state)
    new, info = engine.play(given, seat, to_lua(lua, move))
    assert from_lua(given) == from_lua(to_lua(lua, state)), "play changed the state it was given"
    if new is None:
        return None, info
    return from_lua(new), from_lua(info)


def ok(state, seat, **move):
    new, events = play(state, seat, **move)
    assert new is not None, events
    return new, events


def refused(state, seat, clause, **move):
    new, refusal = play(state, seat, **move)
    assert new is None, "the move was accepted"
    assert refusal["clause"] == clause, refusal
    return refusal["text"]


def hand_ids(state, seat):
    return [c["id"] for c in state["players"][seat]["hand"]]


# ---------------------------------------------------------------------------------------------------


def test_rules_come_from_the_deck_yaml():
    assert RULES == {"draw_per_turn": 1, "elude_empty_value": 1}
    cards = from_lua(engine.cards(DATA))
    assert len(cards) == 77 and len({c["id"] for c in cards}) == 77
    kinds = {}
    for c in cards:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    assert kinds == {"attack": 60, "elude": 4, "shield": 4, "demoter": 4, "skorch": 4, "undead": 1}
    assert len(from_lua(engine.cards(DATA, to_lua(lua, ["deck", "faceoff"])))) == 78


def test_clause_10_turn_order_clockwise_from_the_dealers_left_shield_reverses():
    cards = from_lua(engine.cards(DATA))
    plan = setup.deal_plan(to_lua(lua, SEATS), to_lua(lua, cards), to_lua(lua, {"dealer": "Blue", "seed": 7}),
                            setup.rules(DATA))
    state = from_lua(engine.new_game(DATA, plan, to_lua(lua, cards)))
    assert state["order"] == ["White", "Red", "Blue"] and state["turn"] == from_lua(plan.first_player)
    s = game({"White": player(hand=[a(5), card("shield", id="sh")])}, pile=[a(3, "p")])
    refused(s, "Red", 10, cards=["a5"])
    after, _ = ok(s, "White", cards=["a5"])
    assert after["turn"] == "Red"                                   # clockwise
    after, events = ok(s, "White", cards=["sh"])
    assert after["turn"] == "Blue" and after["direction"] == -1     # reversed: White's right
    assert "reversed" in [e["what"] for e in events]
    after, _ = ok(after, "Blue", cards=["Blue1"])
    assert after["turn"] == "Red"


def test_clause_11_equal_or_higher():
    s = game({"White": player(hand=[a(4), a(7), a(9)])}, pile=[a(7, "p")])
    message = refused(s, "White", 11, cards=["a4"])
    assert "does not equal or beat the 7" in message
    assert ok(s, "White", cards=["a7"])[0]["value"] == 7
    assert ok(s, "White", cards=["a9"])[0]["value"] == 9
    assert ok(game({"White": player(hand=[a(1)])}, value=0), "White", cards=["a1"])[0]["value"] == 1


def test_clause_12_hand_first_then_the_front_row():
    s = game({"White": player(hand=[a(5)], front=[a(9, "f1")])}, pile=[a(3, "p")])
    assert "hand" in refused(s, "White", 12, cards=["f1"])
    s = game({"White": player(front=[a(9, "f1")], back=[a(8, "b1")])}, pile=[a(3, "p")])
    after, _ = ok(s, "White", cards=["f1"])
    assert after["players"]["White"]["front"][0] is False and after["pile"][-1]["id"] == "f1"


def test_clause_13_back_row_unlocks_behind_an_empty_slot_face_down_cards_are_blind():
    s = game({"White": player(front=[a(9, "f1"), False], back=[a(8, "b1"), a(6, "b2", up=False)])},
             pile=[a(7, "p")])
    refused(s, "White", 13, cards=["b1"])                  # f1 still in front of it
    after, events = ok(s, "White", cards=["b2"])            # face down, slot 2 free: tried blind
    assert [e["what"] for e in events][:2] == ["revealed", "played"]
    assert sorted(hand_ids(after, "White")) == ["b2", "p"]  # a 6 on a 7: the pile is picked up
    assert after["pile"] == [] and after["value"] == 0 and after["turn"] == "Red"


def test_clause_14_several_cards_of_one_value():
    s = game({"White": player(hand=[a(4, "x"), a(4, "y"), a(4, "z"), a(5), card("demoter", id="d")])},
             pile=[a(3, "p")], draw=[a(1, "d1"), a(1, "d2")])
    after, _ = ok(s, "White", cards=["x", "y", "z"])
    assert [c["id"] for c in after["pile"]] == ["p", "x", "y", "z"]
    assert hand_ids(after, "White") == ["a5", "d", "d1"]     # one card drawn however many played
    refused(s, "White", 14, cards=["x", "a5"])
    refused(s, "White", 14, cards=["d", "x"])
    s = game({"White": player(front=[a(6, "f1"), a(6, "f2", up=False)])}, pile=[a(3, "p")])
    assert "on its own" in refused(s, "White", 14, cards=["f1", "f2"])


def test_clause_15_elude_shield_demoter():
    hand = [card("elude", id="e"), card("shield", id="s"), card("demoter", id="d"), a(2)]
    s = game({"White": player(hand=hand)}, pile=[a(8, "p")])
    assert ok(s, "White", cards=["e"])[0]["value"] == 8        # copies the top value
    assert ok(game({"White": player(hand=hand)}), "White", cards=["e"])[0]["value"] == 1  # empty pile
    assert ok(s, "White", cards=["s"])[0]["value"] == 8        # Shield: the value stays
    after, _ = ok(s, "White", cards=["d"])
    assert after["value"] == 0 and len(after["pile"]) == 2     # Demoter: anything goes
    assert ok(after, "Red", cards=["Red1"])[0]["value"] == 10


def test_clause_16_skorch_burns_the_pile_and_ends_the_turn():
    s = game({"White": player(hand=[card("skorch", id="k"), a(9)])}, pile=[a(3, "p"), a(10, "q")],
             draw=[a(1, "d1")])
    after, events = ok(s, "White", cards=["k"])
    assert after["pile"] == [] and [c["id"] for c in after["burned"]] == ["p", "q", "k"]
    assert after["value"] == 0 and after["turn"] == "Red" and hand_ids(after, "White") == ["a9", "d1"]
    assert "burned" in [e["what"] for e in events]


def test_clause_17_undead_trades_unlocked_cards_or_takes():
    s = game({"White": player(front=[card("undead", id="u"), a(3, "mine")]),
              "Red": player(front=[a(10, "theirs"), a(5, "hidden", up=False)])}, pile=[a(4, "p")])
    refused(s, "White", 17, cards=["u"])                                   # must trade
    refused(s, "White", 17, cards=["u"], give="mine", take="hidden")       # face down: not takeable
    after, events = ok(s, "White", cards=["u"], give="mine", take="theirs")
    assert after["players"]["White"]["front"][1]["id"] == "theirs"
    assert after["players"]["Red"]["front"][0]["id"] == "mine" and after["value"] == 4
    assert "traded" in [e["what"] for e in events]
    s = game({"White": player(front=[card("undead", id="u")], back=[a(9, "locked")]),
              "Red": player(front=[a(10, "theirs")])}, pile=[a(4, "p")])
    refused(s, "White", 17, cards=["u"], give="locked", take="theirs")     # nothing unlocked to give
    after, _ = ok(s, "White", cards=["u"], take="theirs")
    assert hand_ids(after, "White") == ["theirs"] and after["players"]["Red"]["front"][0] is False


def test_clause_18_face_off_reveal_two_play_one():
    prison = [card("faceoff", id="fo"), a(9, "d9", up=False), a(2, "d2", up=False)]
    s = game({"White": player(front=prison, back=[card("elude", id="de", up=False), a(5, "d5", up=False)])},
             pile=[a(6, "p")])
    refused(s, "White", 18, cards=["fo"], reveal=["d9"], choose="d9")
    refused(s, "White", 18, cards=["fo"], reveal=["d9", "de"], choose="d9")   # an Elude is no attack card
    refused(s, "White", 18, cards=["fo"], reveal=["d9", "d2"], choose="d5")
    after, _ = ok(s, "White", cards=["fo"], reveal=["d9", "d5"], choose="d9")
    assert [c["id"] for c in after["pile"]] == ["p", "fo", "d9"] and after["value"] == 9
    back = after["players"]["White"]["back"]
    assert back[1]["id"] == "d5" and back[1]["face_up"] is True    # stays, face up, still locked
    after, _ = ok(s, "White", cards=["fo"], reveal=["d9", "d2"], choose="d2")
    assert sorted(hand_ids(after, "White")) == ["d2", "fo", "p"]     # a 2 on a 6: pick the pile up
    assert after["players"]["White"]["front"][1]["face_up"] is True
    # no face-down attack card left: any attack card of the prison, locked or not
    s = game({"White": player(front=[card("faceoff", id="fo"), a(3, "f3")], back=[a(8, "b8")])},
             pile=[a(6, "p")])
    after, _ = ok(s, "White", cards=["fo"], choose="b8")
    assert after["value"] == 8 and after["players"]["White"]["back"][0] is False


def test_clause_19_pick_up_only_when_nothing_beats_the_pile():
    s = game({"White": player(hand=[a(3), a(4)])}, pile=[a(6, "p"), a(8, "q")], draw=[a(1, "d1")])
    after, _ = ok(s, "White", pick_up=True)
    assert sorted(hand_ids(after, "White")) == ["a3", "a4", "p", "q"]
    assert after["pile"] == [] and after["value"] == 0 and after["turn"] == "Red"
    assert len(after["draw"]) == 1                             # no draw after picking up
    s = game({"White": player(hand=[a(3), card("demoter", id="d")])}, pile=[a(8, "q")])
    refused(s, "White", 19, pick_up=True)


def test_clause_20_draw_one_while_the_draw_pile_lasts():
    s = game({"White": player(hand=[a(5), a(6)])}, pile=[a(3, "p")], draw=[a(1, "d1"), a(1, "d2")])
    after, _ = ok(s, "White", cards=["a5"])
    assert hand_ids(after, "White") == ["a6", "d1"] and [c["id"] for c in after["draw"]] == ["d2"]
    after, _ = ok(game({"White": player(hand=[a(5), a(6)])}, pile=[a(3, "p")]), "White", cards=["a5"])
    assert hand_ids(after, "White") == ["a6"]


def test_clause_21_the_last_card_played_wins_at_once():
    s = game({"White": player(front=[a(7, "last")])}, pile=[a(3, "p")], draw=[a(1, "d1")])
    after, events = ok(s, "White", cards=["last"])
    assert after["winner"] == "White" and events[-1]["what"] == "won" and len(after["draw"]) == 1
    assert "over" in refused(after, "Red", 21, cards=["Red1"])


def test_clause_22_a_refused_play_changes_nothing():
    s = game({"White": player(hand=[a(4)])}, pile=[a(7, "p")])
    before = to_lua(lua, s)
    new, refusal = engine.play(before, "White", to_lua(lua, {"cards": ["a4"]}))
    assert new is None and from_lua(refusal) == {"clause": 11, "rule": "equal or higher",
                                                   "text": "a 4 does not equal or beat the 7 to beat"}
    assert from_lua(before) == from_lua(to_lua(lua, s))
    assert [c["id"] for c in from_lua(before)["players"]["White"]["hand"]] == ["a4"]


def test_every_play_clause_has_its_test():
    doc = (ROOT / "docs" / "rules" / "skorch.md").read_text(encoding="utf-8")
    play = doc[doc.index("## Clauses: the play"):]
    clauses = {int(n) for n in re.findall(r"^Clause (\d+)\.", play, re.M)}
    tests = {int(n) for n in re.findall(r"^def test_clause_(\d+)_", open(__file__, encoding="utf-8").read(), re.M)}
    assert clauses == tests == set(range(10, 23))


def test_view_shows_a_seat_its_own_hand_the_others_face_down_and_the_prisons_as_they_lie():
    """view (docs/scripting.md): White's hand face up, Red's and Blue's as many face-down cards, a card every
    player saw go into Red's hand known but face down, each prison slot's card as it lies (face down unknown to
    its owner too), the draw pile's size, the discard pile and the burned cards face up; every face a card of
    the deck."""
    state = from_lua(engine.setup(DATA, to_lua(lua, SEATS), to_lua(lua, {"seed": 4})))
    state["players"]["Red"]["hand"][0]["shown"] = True
    state["burned"] = [state["draw"].pop()]
    faces = {c["id"] for component in from_lua(DATA)["components"] for c in component["cards"]}
    view = from_lua(engine.view(to_lua(lua, state), "White"))
    zones = {z["name"]: z for z in view["zones"]}
    assert [z["name"] for z in view["zones"]][:4] == ["draw pile", "discard pile", "burned cards", "Red's hand"]
    assert zones["draw pile"] == {"name": "draw pile", "cards": [{"down": True}] * len(state["draw"])}
    for name, cards in (("discard pile", state["pile"]), ("burned cards", state["burned"]),
                        ("White's hand", state["players"]["White"]["hand"])):
        assert [c["id"] for c in zones[name]["cards"]] == [c["id"] for c in cards] and cards
        assert all(c["card"] == c["id"].rsplit("-", 1)[0] and c["card"] in faces for c in zones[name]["cards"])
        assert not any(c.get("down") for c in zones[name]["cards"])
    red = state["players"]["Red"]["hand"]
    assert zones["Red's hand"]["cards"] == [{"id": red[0]["id"], "card": red[0]["id"].rsplit("-", 1)[0], "down": True},
                                            *[{"down": True}] * (len(red) - 1)]
    blue = len(state["players"]["Blue"]["hand"])
    assert zones["Blue's hand"] == {"name": "Blue's hand", "owner": "Blue", "cards": [{"down": True}] * blue} and blue
    for seat in SEATS:
        for row in ("front", "back"):
            for slot, c in enumerate(state["players"][seat][row], 1):
                shown = zones[f"{seat}'s {row} {slot}"]["cards"]
                assert shown == ([{"id": c["id"], "card": c["id"].rsplit("-", 1)[0]}] if c["face_up"] else [{"down": True}])
    assert view["lines"] == [f"The value to beat: {state['value']}" if state["value"] else "Any card may be played",
                             "Play goes clockwise"]
    assert from_lua(engine.view(to_lua(lua, state), "Red"))["zones"][3]["cards"][0].get("down") is None
