"""Scout refereed at the table: the real deck built, its save run under Lua 5.2 against the strict fake
of TTS (delays 0, 1, 20), and played through Setup, Show, Scout, Scout & Show and Turn my hand. What
the table does is checked against the engine's state and the objects on the table: hands in order and
orientation, the active set, the cards won, the Scout tokens, the chips, the marker, the stars."""

from __future__ import annotations

import math
import random

import pytest

from helpers.fake_tts import FakeTTS, inner, timing, to_lua, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.tables import laid

DECK = "scout"
SEATS = ["White", "Red", "Yellow"]
ALL = ["White", "Red", "Yellow", "Green", "Blue"]


@pytest.fixture(scope="module")
def save(shipped) -> dict:
    return shipped(DECK)[0]


def set_up(lay, seed=5, seated=SEATS):
    table = lay(seated)
    table.lua.execute(f"math.randomseed({seed})")
    table.click("uiScoutSetup", seated[0], None, "scout_setup")
    return table


def state(table) -> dict:
    return to_py(table.globals.GAME.state())


def obj(table, card_id):
    """The object of the card `card_id` (the engine names Scout's cards by id; each is one of a kind)."""
    [deck] = [c for c in to_py(table.globals.DATA.components) if c["id"] == "deck"]
    [guid] = next(c["guids"] for c in deck["cards"] if c["id"] == card_id)
    found = table.globals.getObjectFromGUID(guid)
    assert found is not None, card_id
    return found


def hand_transform(table, color):
    return to_py(table.player(color).getHandTransform())


def along(table, color, o) -> float:
    h = hand_transform(table, color)
    p = inner(o).position
    return (p.x - h["position"]["x"]) * h["right"]["x"] + (p.z - h["position"]["z"]) * h["right"]["z"]


def upright(color, seats=ALL) -> float:
    return (360 * seats.index(color) / len(seats) + 180) % 360


def turned(color, o) -> bool:
    diff = (inner(o).rotation.y - upright(color)) % 360
    return 90 < diff < 270


def active_spot(table):
    x, y, z = to_py(table.globals.DATA.layout.home)
    return x, y, z + 5.0


def show(table, color, k, first, last, hand=None):
    """`color` drags cards first..last of their hand onto the play area."""
    hand = hand or state(table)["hands"][k - 1]
    x, y, z = active_spot(table)
    for i, card in enumerate(hand[first - 1:last]):
        obj(table, card["id"]).setPosition(table.lua.table_from([x - 4 + 1.5 * i, y + 0.5, z - 1.5]))


def scout(table, color, k, side, position, turn):
    """`color` drags the end card of the active set into their hand at `position`, turned or not."""
    s = state(table)
    card = s["active"]["cards"][0 if side == "left" else -1]
    mine = sorted((along(table, color, obj(table, c["id"])) for c in s["hands"][k - 1]))
    gap = (mine[-1] - mine[0]) / (len(mine) - 1) / 2 if len(mine) > 1 else 0.5
    if not mine:
        x = 0.0
    elif position == 1:
        x = mine[0] - gap
    elif position > len(mine):
        x = mine[-1] + gap
    else:
        x = (mine[position - 2] + mine[position - 1]) / 2
    h = hand_transform(table, color)
    o = obj(table, card["id"])
    o.setPosition(table.lua.table_from([h["position"]["x"] + h["right"]["x"] * x, h["position"]["y"],
                                        h["position"]["z"] + h["right"]["z"] * x]))
    r = inner(o).rotation
    o.setRotation(table.lua.table_from([r.x, (r.y + (180 if turn else 0)) % 360, r.z]))


def check_table(table, s):
    for k, color in enumerate(SEATS, 1):
        objects = table.hand_objects(color)
        assert [o.getGUID() for o in objects] == [obj(table, c["id"]).getGUID() for c in s["hands"][k - 1]], color
        assert [turned(color, o) for o in objects] == [c["flipped"] for c in s["hands"][k - 1]], color
        for card in s["won"][k - 1]:
            assert inner(obj(table, card["id"])).rotation.z == 180
    x, _, z = active_spot(table)
    for card in (s["active"] or {"cards": []})["cards"]:
        p = inner(obj(table, card["id"])).position
        assert abs(p.x - x) <= 9 and abs(p.z - z) <= 2.5 and inner(obj(table, card["id"])).hand is None


def test_a_show_goes_to_the_play_area_and_a_show_that_does_not_beat_it_is_refused(table_of):
    table = set_up(table_of)
    s = state(table)
    k = s["turn"]
    color = SEATS[k - 1]
    show(table, color, k, 1, 1)
    table.click("uiScoutShow", color, None, "scout_show")
    after = state(table)
    assert after["active"]["owner"] == k and after["active"]["cards"][0]["id"] == s["hands"][k - 1][0]["id"]
    assert after["turn"] == k % 3 + 1
    check_table(table, after)
    assert table.ui_value("scout_turn") == f"Round 1: {SEATS[after['turn'] - 1]}'s turn"
    # the next player shows a lower single card: refused, and it goes back into the hand, in its place
    nxt = after["turn"]
    other = SEATS[nxt - 1]
    lower = [i for i, c in enumerate(after["hands"][nxt - 1], 1)
             if (c["bottom"] if c["flipped"] else c["top"]) < (lambda c: c["bottom"] if c["flipped"] else c["top"])(
                 after["active"]["cards"][0])]
    if lower:
        show(table, other, nxt, lower[0], lower[0])
        table.click("uiScoutShow", other, None, "scout_show")
        assert "Clause 13 (what beats what)" in table.broadcasts[-1] and "go back" in table.broadcasts[-1]
        assert state(table) == after
        check_table(table, after)


def test_cards_shown_must_be_adjacent(table_of):
    table = set_up(table_of)
    s = state(table)
    k = s["turn"]
    color = SEATS[k - 1]
    hand = s["hands"][k - 1]
    x, y, z = active_spot(table)
    for i in (0, 2):
        obj(table, hand[i]["id"]).setPosition(table.lua.table_from([x + i, y + 0.5, z]))
    table.click("uiScoutShow", color, None, "scout_show")
    assert "Clause 11 (Show): the cards shown are adjacent cards of your hand" in table.broadcasts[-1]
    assert state(table) == s


def test_a_scout_goes_into_the_hand_turned_and_the_owner_gets_a_token(table_of):
    table = set_up(table_of)
    s = state(table)
    k = s["turn"]
    show(table, SEATS[k - 1], k, 1, 1)
    table.click("uiScoutShow", SEATS[k - 1], None, "scout_show")
    s = state(table)
    nxt = s["turn"]
    color = SEATS[nxt - 1]
    card = s["active"]["cards"][0]
    scout(table, color, nxt, "left", 2, True)
    table.click("uiScoutScout", color, None, "scout_scout")
    after = state(table)
    assert after["hands"][nxt - 1][1]["id"] == card["id"]
    assert after["hands"][nxt - 1][1]["flipped"] is (not card["flipped"])
    assert after["tokens"][k - 1] == 1 and after["active"] is False
    check_table(table, after)
    tokens = [o for o in table.tagged("scout-tokens") if o.type != "Custom_Tile_Stack" or o.getQuantity() == 1]
    x, d = 3.2, 4.0
    i, n = ALL.index(SEATS[k - 1]), len(ALL)
    a = math.radians(360 * i / n)
    tx, tz = math.sin(a), math.cos(a)
    spot = (-24.8 * tx + tz * x + tx * d, -24.8 * tz - tx * x + tz * d)
    assert sum(1 for o in tokens if abs(inner(o).position.x - spot[0]) < 0.01
               and abs(inner(o).position.z - spot[1]) < 0.01) == 1
    assert any(f"{color} scouts" in b and f"{SEATS[k - 1]} gets a Scout token" in b for b in table.broadcasts)


def test_scouting_a_middle_card_is_refused_and_it_goes_back(table_of):
    for seed in range(1, 60):  # a deal whose first player can show three cards or more
        table = set_up(table_of, seed)
        s = state(table)
        k = s["turn"]
        moves = to_py(table.globals.use("scout.engine").legal_moves(table.globals.GAME.state(), SEATS[k - 1]))
        long = [m["show"] for m in moves if "show" in m and m["show"]["last"] - m["show"]["first"] >= 2]
        if long:
            break
    else:
        pytest.fail("no deal with a show of three cards")
    color = SEATS[k - 1]
    show(table, color, k, long[0]["first"], long[0]["last"])
    table.click("uiScoutShow", color, None, "scout_show")
    s = state(table)
    nxt = s["turn"]
    middle = s["active"]["cards"][1]
    h = hand_transform(table, SEATS[nxt - 1])
    obj(table, middle["id"]).setPosition(table.lua.table_from([h["position"]["x"], h["position"]["y"], h["position"]["z"]]))
    table.click("uiScoutScout", SEATS[nxt - 1], None, "scout_scout")
    assert "Clause 15 (Scout): take the leftmost or the rightmost card of the set" in table.broadcasts[-1]
    assert state(table) == s
    check_table(table, s)


def act(table, s, move):
    k = s["turn"]
    color = SEATS[k - 1]
    if "scout" in move:
        sc = move["scout"]
        scout(table, color, k, sc["side"], sc["position"], sc["turn"])
        if "show" not in move:
            table.click("uiScoutScout", color, None, "scout_scout")
            return
        table.click("uiScoutScoutShow", color, None, "scout_scout_show")
        hand = to_py(table.globals.use("scout.engine").scouted_hand(
            table.globals.GAME.state(), color, to_lua(table.lua, sc)))
        show(table, color, k, move["show"]["first"], move["show"]["last"], hand)
    else:
        show(table, color, k, move["show"]["first"], move["show"]["last"])
    table.click("uiScoutShow", color, None, "scout_show")


def pick(moves, rng):
    """A plausible player: usually shows the most cards they can, now and then scouts or scouts & shows
    (turning the hand is Turn my hand's, tested on its own)."""
    moves = [m for m in moves if "turn_hand" not in m]
    both = [m for m in moves if "scout" in m and "show" in m]
    shows = [m for m in moves if "scout" not in m]
    r = rng.random()
    if both and r < 0.2:
        return rng.choice(both)
    if shows and r < 0.8:
        return max(shows, key=lambda m: (m["show"]["last"] - m["show"]["first"], rng.random()))
    return rng.choice(moves)


@pytest.mark.parametrize("seed, reload_every", [(4, 0), (9, 3)])
def test_random_games_through_the_buttons_follow_the_engine_to_the_winner(save, seed, reload_every):
    """...also with the game saved and loaded again every few turns: the table goes on where it was."""
    rng = random.Random(seed)
    table = set_up(laid(save), seed)
    engine = table.globals.use("scout.engine")
    kinds = set()
    for turn in range(400):
        s = state(table)
        if reload_every and turn % reload_every == 0:
            shown = table.ui_value("scout_turn")
            table.reload()
            engine = table.globals.use("scout.engine")
            assert state(table) == s and table.ui_value("scout_turn") == shown
        if s["game_over"]:
            break
        if s["round_over"]:
            table.click("uiScoutSetup", "White", None, "scout_setup")
            check_table(table, state(table))
            continue
        moves = to_py(engine.legal_moves(table.globals.GAME.state(), SEATS[s["turn"] - 1]))
        move = pick(moves, rng)
        kinds.add(tuple(sorted(move)))
        expected, _ = engine.play(table.globals.GAME.state(), SEATS[s["turn"] - 1], to_lua(table.lua, move))
        act(table, s, move)
        after = state(table)
        assert after == to_py(expected), (move, table.broadcasts[-3:])
        if not after["round_over"]:
            check_table(table, after)
    else:
        pytest.fail("the game did not end in 400 turns")
    assert kinds == {("show",), ("scout",), ("scout", "show")}
    final = state(table)
    assert final["round"] == 3
    assert {c: int(table.ui_value(f"score_{c}")) for c in SEATS} == dict(zip(SEATS, final["stars"]))
    winners = " and ".join(final["winners"])
    assert any(b.startswith(winners + (" win" if len(final["winners"]) > 1 else " wins")) for b in table.broadcasts)
    assert table.ui_value("scout_turn") == "Game over"


def test_the_first_player_marker_passes_on_each_round(table_of):
    rng = random.Random(3)
    table = set_up(table_of, 3)
    first = state(table)["first_player"]
    for round_number in (2, 3):
        s = state(table)
        for _ in range(200):  # play until the round ends
            if s["round_over"]:
                break
            act(table, s, pick(to_py(table.globals.use("scout.engine").legal_moves(table.globals.GAME.state(),
                                                                                  SEATS[s["turn"] - 1])), rng))
            assert state(table) != s, table.broadcasts[-2:]
            s = state(table)
        assert s["round_over"]
        table.click("uiScoutSetup", "White", None, "scout_setup")
        s = state(table)
        assert s["round"] == round_number and s["first_player"] == (first + round_number - 2) % 3 + 1
        [marker] = table.tagged("first-player")
        color = SEATS[s["first_player"] - 1]
        i, n = ALL.index(color), len(ALL)
        a = math.radians(360 * i / n)
        tx, tz = math.sin(a), math.cos(a)
        x, d = -6.5, 4.0
        assert abs(inner(marker).position.x - (-24.8 * tx + tz * x + tx * d)) < 0.01
        assert any(f"{color} gets the first-player marker: the marker passes on" in b for b in table.broadcasts)


def seat_point(color, x, d):
    i, n = ALL.index(color), len(ALL)
    a = math.radians(360 * i / n)
    tx, tz = math.sin(a), math.cos(a)
    return -24.8 * tx + tz * x + tx * d, -24.8 * tz - tx * x + tz * d


def test_scout_and_show_spends_the_chip(table_of):
    table = set_up(table_of, 2)
    s = state(table)
    k = s["turn"]
    show(table, SEATS[k - 1], k, 1, 1)
    table.click("uiScoutShow", SEATS[k - 1], None, "scout_show")
    s = state(table)
    nxt = s["turn"]
    color = SEATS[nxt - 1]
    moves = [m for m in to_py(table.globals.use("scout.engine").legal_moves(table.globals.GAME.state(), color))
             if "scout" in m and "show" in m]
    act(table, s, moves[0])
    after = state(table)
    assert after["chips"][nxt - 1] == 0
    assert any(b == f"{color} gives up the Scout & Show chip." for b in table.broadcasts)
    check_table(table, after)
    def chips_at(c):
        x, z = seat_point(c, 6.5, 4.0)
        return [o for o in table.tagged("chips") if abs(inner(o).position.x - x) < 0.01 and abs(inner(o).position.z - z) < 0.01]
    assert chips_at(color) == [] and all(len(chips_at(c)) == 1 for c in SEATS if c != color)
