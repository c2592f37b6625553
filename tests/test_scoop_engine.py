"""Scoop rules engine (tts/scoop/engine.lua) under lupa.lua52: one test per numbered play clause of
docs/rules/scoop.md (14-21); the random playouts are tests/test_engine_contract.py's. Seats are numbered
1..n here (the table names them by colour). Game facts come from decks/scoop.yaml as the table bundles it
(deck_data)."""

from __future__ import annotations

import re

from conftest import ROOT
from helpers.deck_data import deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime

lua = runtime()
use = modules("scoop", lua)
engine = use("scoop.engine")
DATA = deck_data("scoop", lua)
CARDS = from_lua(engine.cards(DATA))
BY_ID = {c["id"]: c for c in CARDS}
VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13}


def k(rank, suit):
    """The deck's card of that rank and suit."""
    return next(c for c in CARDS if c["rank"] == str(rank) and c["suit"] == suit)


def setup(seats, deck=None, seed=None):
    """The engine's setup for seats 1..seats: `deck` taken as given, or the deck shuffled with `seed`."""
    opts = {"seed": seed} if deck is None else {"cards": deck}
    new = engine.setup(DATA, to_lua(lua, list(range(1, seats + 1))), to_lua(lua, opts))
    assert not isinstance(new, tuple), from_lua(new[1])
    return from_lua(new)


def state(piles, deck=(), drawn=None, turn=1):
    """piles: one {"go": [...], "game": [...]} per player."""
    s = setup(len(piles), list(deck) or [k(5, "clubs")])
    s["deck"] = list(deck)
    s["players"] = [{"go": list(p.get("go", [])), "game": list(p.get("game", []))} for p in piles]
    s["drawn"] = drawn if drawn is not None else False
    s["turn"] = turn
    return s


def pile(p, name):
    return {"player": p, "pile": name}


def play(s, p, **move):
    """The move played through the engine, which must leave the state it was given as it was."""
    given = to_lua(lua, s)
    new, info = engine.play(given, p, to_lua(lua, move))
    assert from_lua(given) == from_lua(to_lua(lua, s)), "play changed the state it was given"
    if new is None:
        return None, info
    return from_lua(new), from_lua(info)


def ok(s, p, **move):
    new, events = play(s, p, **move)
    assert new is not None, events
    return new, events


def refused(s, p, clause, **move):
    new, refusal = play(s, p, **move)
    assert new is None, "the move was accepted"
    assert refusal["clause"] == clause, refusal
    return refusal["text"]


def ids(cards):
    return [c["id"] for c in cards]


def test_rules_come_from_the_deck_yaml():
    rules = from_lua(engine.rules(DATA))
    assert rules["piles"] == ["go", "game"] and rules["draw_per_turn"] == 1
    assert rules["faces"] == {"J": True, "Q": True, "K": True}
    assert rules["scoring"]["go"]["10"] == 2 and rules["scoring"]["game"]["K"] == 1
    assert len(CARDS) == 52 and len(BY_ID) == 52
    assert {c["suit"] for c in CARDS} == {"spades", "hearts", "diamonds", "clubs"}


def test_clause_14_each_turn_starts_with_one_card_from_the_deck():
    deck = [k(3, "hearts"), k(4, "hearts")]
    s = setup(2, deck)
    assert s["turn"] == 1 and ids(s["deck"]) == ids(deck)
    refused(s, 1, 14, place="go")                              # take the card first
    drew, events = ok(s, 1, draw=True)
    assert drew["drawn"]["id"] == deck[0]["id"] and ids(drew["deck"]) == [deck[1]["id"]]
    assert events[0]["what"] == "drew" and events[0]["seat"] == 1
    refused(drew, 1, 14, draw=True)                            # one card per turn
    refused(s, 2, 14, draw=True)
    shuffled = setup(3, seed=42)
    assert sorted(ids(shuffled["deck"])) == sorted(BY_ID) and ids(shuffled["deck"]) != ids(CARDS)
    assert setup(3, seed=42) == shuffled                      # the seed decides the shuffle


def test_an_empty_deck_or_a_wrong_seat_count_is_refused_at_setup():
    for seats, deck in ((2, []), (7, [k(3, "hearts")]), (0, [k(3, "hearts")])):
        new, refusal = engine.setup(DATA, to_lua(lua, list(range(1, seats + 1))), to_lua(lua, {"cards": deck}))
        assert new is None and from_lua(refusal)["clause"] == 14


def test_clause_15_a_card_not_used_goes_on_your_own_pile():
    s = state([{}, {}], deck=[k(9, "clubs")], drawn=k(3, "hearts"))
    after, _ = ok(s, 1, place="game")
    assert ids(after["players"][0]["game"]) == [k(3, "hearts")["id"]] and after["turn"] == 2
    refused(s, 1, 15, place="other")


def test_clause_16_scoop_the_top_card_of_the_same_suit_from_any_pile():
    queen = k("Q", "diamonds")
    s = state([{"go": [k(5, "clubs")]}, {"go": [k(2, "spades"), queen]}], deck=[k(9, "clubs")],
              drawn=k(3, "diamonds"))
    after, _ = ok(s, 1, scoop={"from": pile(2, "go"), "to": pile(1, "game")})
    assert ids(after["players"][0]["game"]) == [k(3, "diamonds")["id"], queen["id"]]   # the 3, the Q on it
    assert ids(after["players"][1]["go"]) == [k(2, "spades")["id"]]
    after, _ = ok(s, 1, scoop={"from": pile(2, "go"), "to": pile(2, "game")})         # onto anyone's pile
    assert ids(after["players"][1]["game"]) == [k(3, "diamonds")["id"], queen["id"]]
    assert "not a diamonds card" in refused(s, 1, 16, scoop={"from": pile(1, "go"), "to": pile(1, "game")})
    refused(s, 1, 16, scoop={"from": pile(2, "go"), "to": pile(2, "go")})
    refused(s, 1, 16, scoop={"from": pile(2, "game"), "to": pile(1, "go")})              # empty


def test_clause_17_scoop_more_by_the_face_card_differential():
    block = [k(4, "hearts"), k(7, "hearts"), k(9, "hearts")]
    faces_to = [k("K", "clubs"), k("Q", "spades")]                  # 2 face cards
    s = state([{"go": faces_to}, {"go": [k("J", "diamonds")] + block}], deck=[k(9, "clubs")],
              drawn=k(3, "hearts"))
    # to: 2 faces, from: 1 face -> differential 1 -> 1 + 1 = 2 cards
    after, _ = ok(s, 1, scoop={"from": pile(2, "go"), "to": pile(1, "go"), "count": 2})
    assert ids(after["players"][0]["go"]) == ids(faces_to + [k(3, "hearts")] + block[1:])
    assert ids(after["players"][1]["go"]) == ids([k("J", "diamonds"), block[0]])
    assert "1 more face cards" in refused(s, 1, 17, scoop={"from": pile(2, "go"), "to": pile(1, "go"), "count": 3})
    refused(s, 1, 17, scoop={"from": pile(2, "go"), "to": pile(1, "game"), "count": 2})  # 0 - 1 < 1
    mixed = state([{"go": faces_to * 1 + [k("K", "hearts"), k("Q", "hearts")]},
                   {"go": [k(5, "spades"), k(6, "hearts")]}], deck=[k(9, "clubs")], drawn=k(3, "hearts"))
    assert "not all hearts" in refused(mixed, 1, 17, scoop={"from": pile(2, "go"), "to": pile(1, "go"), "count": 2})
    # more cards than the pile holds, however many face cards allow: the pile's count, not a wrap past its bottom
    rich = state([{"go": faces_to * 3}, {"go": [k(5, "hearts"), k(6, "hearts")]}], deck=[k(9, "clubs")],
                 drawn=k(3, "hearts"))
    assert refused(rich, 1, 17, scoop={"from": pile(2, "go"), "to": pile(1, "go"), "count": 3}) == \
        "2's Go Pile has only 2 cards"


def test_clause_18_switch_same_value_swaps_whole_piles():
    mine = [k(5, "clubs"), k(6, "clubs")]
    theirs = [k("K", "spades"), k(8, "hearts")]
    s = state([{"go": mine, "game": [k("A", "clubs")]}, {"game": theirs}], deck=[k(9, "clubs")],
              drawn=k(8, "diamonds"))
    after, events = ok(s, 1, switch={"own": "go", "with": pile(2, "game")})
    assert ids(after["players"][0]["go"]) == ids(theirs)
    assert ids(after["players"][1]["game"]) == ids(mine + [k(8, "diamonds")])
    assert events[0]["what"] == "switched"
    assert "is not a 8" in refused(s, 1, 18, switch={"own": "go", "with": pile(1, "game")})
    own = state([{"go": mine, "game": [k(8, "clubs")]}, {}], deck=[k(9, "clubs")], drawn=k(8, "diamonds"))
    after, _ = ok(own, 1, switch={"own": "go", "with": pile(1, "game")})   # your other pile (G-Scoop-4)
    assert ids(after["players"][0]["go"]) == [k(8, "clubs")["id"]]
    refused(own, 1, 18, switch={"own": "game", "with": pile(1, "game")})


def test_clause_19_the_game_ends_when_the_deck_is_used_up():
    s = state([{}, {}], deck=[], drawn=k(10, "hearts"), turn=2)
    after, events = ok(s, 2, place="go")
    assert after["over"] and events[-1]["what"] == "game_over" and after["result"]["winners"] == [2]
    refused(after, 2, 19, place="go")
    refused(after, 1, 19, draw=True)
    points, winners = engine.scores(to_lua(lua, after))
    assert from_lua(winners) == [2] and from_lua(points) == [0, 0]    # seats 1 and 2: a list here


def test_clause_20_the_count_is_scoop_scoring_with_the_decks_table():
    players = [{"go": [k(10, "clubs"), k(3, "hearts")], "game": [k("K", "spades"), k(2, "hearts")]},
               {"go": [k("A", "clubs")], "game": [k("Q", "clubs")]}]
    s = state(players, deck=[], drawn=k(5, "spades"))
    after, _ = ok(s, 1, place="game")
    result = after["result"]
    # go: 2 + 1 = 3 vs 1; the winner's Game Pile: K 1, 2 -1, 5 0 = 0
    assert result["winners"] == [1] and result["players"][0]["score"] == 0
    assert result["explanation"].startswith("1: Go Pile 3 points")
    # the face ranks are the deck's: with aces as face cards, the tie-break changes
    scoring = use("scoop.scoring")
    tied = to_lua(lua, [{"go_pile": [{"rank": "3", "suit": "clubs"}, {"rank": "A", "suit": "clubs"}]},
                        {"go_pile": [{"rank": "4", "suit": "clubs"}, {"rank": "5", "suit": "clubs"},
                                     {"rank": "K", "suit": "clubs"}]}])
    table = from_lua(engine.rules(DATA))["scoring"]
    assert from_lua(scoring.score(tied, to_lua(lua, table)))["winners"] == [2]
    assert from_lua(scoring.score(tied, to_lua(lua, {**table, "faces": ["A"]})))["winners"] == [1]


def test_clause_21_a_refused_move_changes_nothing():
    s = state([{"go": [k(5, "clubs")]}, {}], deck=[k(9, "clubs")], drawn=k(3, "hearts"))
    before = to_lua(lua, s)
    new, refusal = engine.play(before, 1, to_lua(lua, {"scoop": {"from": pile(1, "go"), "to": pile(1, "game")}}))
    assert new is None and from_lua(refusal)["clause"] == 16 and from_lua(refusal)["rule"] == "SCOOP"
    assert from_lua(before) == from_lua(to_lua(lua, s))


def test_every_play_clause_has_its_test():
    doc = (ROOT / "docs" / "rules" / "scoop.md").read_text(encoding="utf-8")
    play_part = doc[doc.index("## Clauses: the play"):]
    clauses = {int(n) for n in re.findall(r"^Clause (\d+)\.", play_part, re.M)}
    tests = {int(n) for n in re.findall(r"^def test_clause_(\d+)_", open(__file__, encoding="utf-8").read(), re.M)}
    assert clauses == tests == set(range(14, 22))


def test_view_shows_the_deck_face_down_and_every_pile_and_the_card_taken_face_up():
    """view (docs/scripting.md): the deck by its size alone, then each player's card taken (the turn's, once
    drawn) and its Go and Game Piles face up, bottom card first, faces the deck's card ids; every seat sees it."""
    s = state([{"go": [k(3, "hearts")], "game": [k("K", "spades"), k(2, "clubs")]}, {}],
              deck=[k(7, "clubs"), k(9, "diamonds")], drawn=k("Q", "hearts"), turn=2)
    def up(*cards):
        return [{"id": c["id"], "card": c["id"]} for c in cards]
    view = from_lua(engine.view(to_lua(lua, s), 1))
    assert view == {"zones": [
        {"name": "deck", "cards": [{"down": True}, {"down": True}]},
        {"name": "1's card taken", "owner": 1, "cards": []},
        {"name": "1's Go Pile", "owner": 1, "cards": up(k(3, "hearts"))},
        {"name": "1's Game Pile", "owner": 1, "cards": up(k("K", "spades"), k(2, "clubs"))},
        {"name": "2's card taken", "owner": 2, "cards": up(k("Q", "hearts"))},
        {"name": "2's Go Pile", "owner": 2, "cards": []},
        {"name": "2's Game Pile", "owner": 2, "cards": []}]}
    assert from_lua(engine.view(to_lua(lua, s), 2)) == view
    faces = {c["id"] for component in from_lua(DATA)["components"] for c in component["cards"]}
    assert k("Q", "hearts")["id"] in faces
