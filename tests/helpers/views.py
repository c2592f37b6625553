"""The check of an engine's `view(state, seat)` (docs/scripting.md, the optional contract function): what a
seat sees of the table, for the studio's table page. `check_view` asserts the contract's four points on one
state and seat: plain data of the view's shape, every card a card of DATA and every id one of all_ids, the
state unchanged, the same view twice, and no leak: the view of determinize(state, seat, s) is the same view
for three seeds, so nothing the seat cannot see shows.

    view = check_view(game, state, "Red")     # game: helpers.contract_driver.Game; the view as Python data
"""

from __future__ import annotations

from collections import Counter

import lupa.lua52 as lua52

from helpers.fake_tts import to_py as from_lua

SEEDS = (1, 2, 3)
DEPTH = 6  # view > zones > zone > cards > card > value: deeper is no view (or a cycle)
_deck_cards: dict[int, frozenset[str]] = {}


def plain(value, where: str, depth: int = 0) -> None:
    """Assert that the Lua `value` is plain data: strings, booleans, numbers and tables of them, no function,
    no cycle, every table a list (keys 1..n) or a record (string keys)."""
    kind = lua52.lua_type(value)
    assert kind in (None, "table"), f"{where} is a Lua {kind}: a view holds plain data alone"
    if kind is None:
        assert isinstance(value, (str, bool, int, float)), f"{where} is {value!r}: a view holds plain data alone"
        return
    assert depth < DEPTH, f"{where} nests deeper than a view does: a cycle?"
    keys = list(value.keys())
    numbered = [k for k in keys if isinstance(k, int)]
    assert not numbered or sorted(numbered) == list(range(1, len(keys) + 1)), \
        f"{where} mixes keys or has holes ({sorted(keys, key=str)}): a list is 1..n, a record has string keys"
    assert numbered or all(isinstance(k, str) for k in keys), f"{where} has keys that are no strings: {keys}"
    for k in keys:
        plain(value[k], f"{where}[{k!r}]", depth + 1)


def deck_cards(game) -> frozenset[str]:
    """The card ids of DATA's components: the faces a view may name."""
    if id(game) not in _deck_cards:
        data = from_lua(game.data)
        _deck_cards[id(game)] = frozenset(c["id"] for comp in data["components"] for c in comp.get("cards", []))
    return _deck_cards[id(game)]


def shape(view: dict, seats: list, cards: frozenset[str], ids: Counter, where: str) -> None:
    """Assert the view's shape: {zones = {{name, owner?, cards}}, lines? = {text}}, each card entry
    {down = true} alone or {id, card, down?, turned?, component?}, `card` a card of DATA, `id` one of all_ids."""
    assert isinstance(view, dict) and set(view) <= {"zones", "lines"} and "zones" in view, \
        f"{where}: a view is {{zones, lines}}, not {view!r}"
    assert isinstance(view["zones"], list), f"{where}: zones is a list, not {view['zones']!r}"
    assert isinstance(view.get("lines", []), list) and all(isinstance(t, str) and t for t in view.get("lines", [])), \
        f"{where}: lines is a list of texts, not {view.get('lines')!r}"
    names = [z.get("name") for z in view["zones"] if isinstance(z, dict)]
    assert len(set(names)) == len(names), f"{where}: two zones have one name: {names}"
    for zone in view["zones"]:
        assert isinstance(zone, dict) and set(zone) <= {"name", "owner", "cards"}, f"{where}: a zone is {zone!r}"
        name = zone.get("name")
        assert isinstance(name, str) and name, f"{where}: a zone without its name: {zone!r}"
        assert "owner" not in zone or zone["owner"] in seats, f"{where}: zone {name!r}'s owner {zone['owner']!r} is no seat"
        assert isinstance(zone.get("cards"), list), f"{where}: zone {name!r}'s cards are {zone.get('cards')!r}, not a list"
        for card in zone["cards"]:
            assert isinstance(card, dict), f"{where}: zone {name!r} holds {card!r}, not a card entry"
            if "id" not in card:
                assert card == {"down": True}, f"{where}: zone {name!r}: an unknown card is {{down = true}} alone, not {card!r}"
                continue
            assert set(card) <= {"id", "card", "down", "turned", "component"}, f"{where}: zone {name!r} card {card!r}"
            assert card.get("card") in cards, f"{where}: zone {name!r} shows {card.get('card')!r}, no card of DATA"
            assert ids[card["id"]] > 0, f"{where}: zone {name!r} shows id {card['id']!r}, not one of all_ids"
            assert card.get("down", True) is True and card.get("turned", True) is True, \
                f"{where}: zone {name!r}: down and turned are true or absent, not {card!r}"


def leak(seen: dict, redealt: dict) -> str:
    """What differs between a view and the view of a determinized state: the first zone or the lines."""
    for a, b in zip(seen["zones"], redealt["zones"]):
        if a != b:
            return f"zone {a.get('name')!r}: {a.get('cards')} becomes {b.get('cards')}"
    if len(seen["zones"]) != len(redealt["zones"]):
        return f"the zones {[z['name'] for z in seen['zones']]} become {[z['name'] for z in redealt['zones']]}"
    return f"the lines {seen.get('lines')} become {redealt.get('lines')}"


def check_view(game, state, seat) -> dict:
    """Assert points 1-4 of the view's spec for `seat` at `state` (a Lua state of `game`'s engine); return the
    view as Python data."""
    engine, where = game.engine, f"view(state, {seat!r})"
    before = from_lua(state)
    raw = engine.view(state, seat)
    plain(raw, where)
    view = from_lua(raw)
    assert from_lua(state) == before, f"{where} changed the state it was given"
    seats = list(from_lua(game.contract.scores(state)[0]))  # scores: a number for every seat
    shape(view, seats, deck_cards(game), Counter(from_lua(engine.all_ids(state))), where)
    assert from_lua(engine.view(state, seat)) == view, f"{where} gives another view the second time"
    if engine.determinize is not None:
        for s in SEEDS:
            redealt = from_lua(engine.view(engine.determinize(state, seat, s), seat))
            assert redealt == view, (f"{where} shows what {seat} cannot see: determinize(state, {seat!r}, {s}) "
                                     f"changes {leak(view, redealt)}")
    return view
