"""The engines' `view(state, seat)` (docs/scripting.md): what each seat sees of the table, as the studio's table
page shows it. Seeded games of Scout and of every SCORE! mode, played to their end by the contract driver
(tests/helpers/contract_driver.py), are checked at every move for every seat by helpers.views.check_view
(plain data, DATA's cards and all_ids' ids, the state unchanged, the same view twice, nothing determinize
redeals shows), and the cards each view shows face up, or face down but known, are exactly the seat's own
and the public ones the state holds. Then what a player relies on: a SCORE! roster laid face down, a Scout
hand turned, and check_view failing on a view that leaks or breaks the shape."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from helpers.contract_driver import Game, playout, setup
from helpers.deck_data import _data, deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime
from helpers.views import check_view

SEATS = ["White", "Red", "Yellow", "Green", "Blue"]
GAMES = ("scout", "score", "skorch", "scoop")


@lru_cache(maxsize=None)
def game_of(name: str) -> Game:
    lua = runtime()
    return Game(lua, modules(name, lua)(f"{name}.engine"), deck_data(name, lua))


def cases(name: str) -> list[tuple[str, int, str | None]]:
    """(game, players, SCORE! mode): each game at its fewest and most players (SCORE!: up to 4), every mode."""
    if name == "scout":
        deal = _data("scout")["setup"]["deal"]
        return [("scout", n, None) for n in (min(deal), max(deal))]
    out = []
    for mode in _data("score")["modes"]:
        options = game_of("score").engine.options(game_of("score").data, mode["id"])
        for n in sorted({options.players_min, min(options.players_max or 5, 4)}):
            out.append(("score", n, mode["id"]))
    return out


def entry(card_id, **flags) -> dict:
    return {"id": card_id, "card": card_id, **{k: True for k, v in flags.items() if v}}


def key(card: dict) -> tuple:
    """A card entry as a Counter counts it: its keys and values, but for `down`."""
    return tuple(sorted((k, v) for k, v in card.items() if k != "down"))


def by_seat(table) -> dict:
    """A Lua table of seats as from_lua gives it: an empty one comes back as a list."""
    return table if isinstance(table, dict) else {}


def zone(view: dict, name: str) -> list:
    return next(z["cards"] for z in view["zones"] if z["name"] == name)


def expected(name: str, state: dict, seat) -> tuple[Counter, Counter, dict]:
    """What `seat` knows by the state: the cards shown face up and those lying face down that it knows (as
    Counters of card entries), and its own zones, whose order is the game's: {zone name: card entries}."""
    up, known = Counter(), Counter()
    def show(counter, ids):
        counter.update(key(entry(i)) for i in ids or [] if i)
    if name == "scout":
        me = state["seats"].index(seat)
        hand = [entry(c["id"], turned=c.get("flipped")) for c in state["hands"][me]]
        active = [entry(c["id"], turned=c.get("flipped")) for c in state["active"]["cards"]] if state["active"] else []
        up.update(key(c) for c in hand + active)
        return up, known, {f"{seat}'s hand": hand, "active set": active}
    if state["opts"].get("solo") in ("scorlitaire", "scorliroad"):
        show(up, [c for c in state["covered"] if c])
        show(up, [state["deny"]] + list(state["discard"]))
        spots = {f"spot {k}": ([{"down": True}] if card else []) + ([entry(deny)] if deny else [])
                 for k, (card, deny) in enumerate(zip(state["layout"], state["covered"]), 1)}
        return up, known, {**spots, "discard pile": [entry(i) for i in state["discard"]]}
    hand = by_seat(state["hands"]).get(seat) or []
    chosen = by_seat(state["chosen"]).get(seat)
    roster = [i for i in chosen["roster"] if i] if chosen else list(reversed(by_seat(state.get("kept")).get(seat) or []))
    show(up, hand)
    show(known, roster)
    own = {f"{seat}'s {'draw' if state['opts'].get('deck_per_player') else 'hand'}": [entry(i) for i in hand],
           f"{seat}'s roster": [entry(i, down=True) for i in roster]}
    if state["opts"].get("deck_per_player"):
        for grave in by_seat(state["graves"]).values():
            show(up, grave)
        show(up, state.get("discard"))
    return up, known, own


def shown(view: dict) -> tuple[Counter, Counter]:
    up, known = Counter(), Counter()
    for zone in view["zones"]:
        for card in zone["cards"]:
            if "id" in card:
                (known if card.get("down") else up)[key(card)] += 1
    return up, known


@pytest.mark.parametrize("name,players,mode", [c for g in GAMES for c in cases(g)],
                         ids=lambda v: str(v) if v is not None else "")
def test_every_seat_sees_its_own_and_the_public_cards_alone_at_every_move(name, players, mode):
    game = game_of(name)
    seats = SEATS[:players]
    opts = {"mode": mode} if mode else {}
    checked = []

    def visit(state, moves):
        py = from_lua(state)
        for seat in seats:
            view = check_view(game, state, seat)
            up, known, own = expected(name, py, seat)
            for zone_name, cards in own.items():
                assert zone(view, zone_name) == cards, \
                    f"move {moves}: {seat}'s view of {zone_name}: {zone(view, zone_name)}; the state gives {cards}"
            assert shown(view) == (up, known), (
                f"move {moves}: {seat}'s view shows face up {sorted(shown(view)[0].elements())} and known "
                f"{sorted(shown(view)[1].elements())}; the state gives {sorted(up.elements())}, {sorted(known.elements())}")
        checked.append(moves)

    playout(game, seats, 1, visit=visit, **opts)
    assert len(checked) > players, "the game was over before it was looked at"


def test_a_score_roster_laid_is_known_face_down_to_its_owner_and_unknown_to_the_others_until_the_round_resolves():
    game = game_of("score")
    lua = game.lua
    state, _ = setup(game, ["White", "Red"], seed=3, mode="classic")
    hand = from_lua(state)["hands"]["White"]
    move = {"roster": [hand[4], hand[0], hand[2]], "target": "Red"}
    laid, _ = game.contract.play(state, "White", to_lua(lua, move))
    red, white = check_view(game, laid, "Red"), check_view(game, laid, "White")
    assert zone(red, "White's roster") == [{"down": True}] * 3
    assert zone(white, "White's roster") == [entry(i, down=True) for i in move["roster"]]
    assert zone(white, "Red's roster") == [] and zone(red, "Red's roster") == []
    assert len(zone(white, "White's hand")) == len(hand) - 3
    assert zone(red, "White's hand") == [{"down": True}] * (len(hand) - 3)
    assert "White's targeted cards aim at Red" in white["lines"]
    assert not any("aim at" in line for line in red["lines"]), "Red cannot know White's target"
    reds = from_lua(laid)["hands"]["Red"]
    resolved, _ = game.contract.play(laid, "Red", to_lua(lua, {"roster": reds[:3], "target": False}))
    assert zone(check_view(game, resolved, "Red"), "White's roster") == [], "the round resolved and dealt anew"


def test_a_turned_scout_hand_shows_each_card_turned_to_its_other_number_to_its_owner_alone():
    game = game_of("scout")
    state, _ = setup(game, ["White", "Red", "Yellow"], seed=2)
    before = zone(check_view(game, state, "Red"), "Red's hand")
    turned, _ = game.contract.play(state, "Red", to_lua(game.lua, {"turn_hand": True}))
    after = zone(check_view(game, turned, "Red"), "Red's hand")
    assert after == [entry(c["id"], turned=not c.get("turned")) for c in reversed(before)]
    assert any(c.get("turned") for c in after)
    assert zone(check_view(game, turned, "White"), "Red's hand") == [{"down": True}] * len(after)


BROKEN = {
    "a line naming the next hand's first card": (
        "v.lines[#v.lines + 1] = state.hands[2][1].id", "shows what White cannot see"),
    "the state changed": ("state.round = state.round + 1", "changed the state it was given"),
    "a function in the view": ("v.lines[1] = print", "is a Lua function"),
    "a card of no deck": ("v.zones[1].cards[1] = {id = '1-2', card = 'joker'}", "no card of DATA"),
    "a card's id not in the game": ("v.zones[1].cards[1] = {id = 'joker', card = '1-2'}", "not one of all_ids"),
    "a hidden card with its id": ("v.zones[1].cards[1] = {down = true, seen = true}", "alone"),
    "a table's address in a line": ("v.lines[1] = tostring({})", "another view the second time"),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_check_view_fails_on_a_view_that_leaks_or_breaks_the_spec(broken):
    """Scout's view with one flaw: check_view names it."""
    game = game_of("scout")
    change, message = BROKEN[broken]
    wrap = game.lua.eval(f"""function(engine)
      return setmetatable({{view = function(state, seat)
        local v = engine.view(state, seat)
        {change}
        return v
      end}}, {{__index = engine}})
    end""")
    flawed = Game(game.lua, wrap(game.engine), game.data)
    state, _ = setup(game, ["White", "Red"], seed=1)
    first = from_lua(game.contract.to_act(state)[0])[0]
    state, _ = game.contract.play(state, first, to_lua(game.lua, {"show": {"first": 1, "last": 1}}))
    check_view(game, state, "White")
    with pytest.raises(AssertionError, match=message):
        check_view(flawed, state, "White")
