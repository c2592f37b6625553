"""Scoop refereed at the table: the real deck built, its save run under Lua 5.2 against the strict fake
of TTS (delays 0, 1, 20), and played through New game, Draw, Place, SCOOP, SWITCH and Count. What the
table does is checked against the engine's state and the objects on the table."""

from __future__ import annotations

import random

import pytest

from helpers.fake_tts import FakeTTS, inner, timing, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.tables import laid

DECK = "scoop"
SEATS = ["White", "Red", "Yellow"]


@pytest.fixture(scope="module")
def save(shipped) -> dict:
    return shipped(DECK)[0]


def new_game(lay, seated=SEATS):
    table = lay(seated)
    table.click("uiScoopNewGame", "White", None, "scoop_new_game")
    return table


def state(table) -> dict:
    return to_py(table.globals.GAME.state())


def holder(table, guid):
    found = table.globals.getObjectFromGUID(guid)
    if found is not None:
        return found
    return next(o for o in table.objects() if o.type == "Deck" and guid in {e["guid"] for e in to_py(o.getObjects())})


def lies_on(table, guid):
    """(colour, pile) of the area the card lies on, or None."""
    p = inner(holder(table, guid)).position
    data = table.globals.DATA
    found = table.globals.use("scoop.piles").pile_at(data.seats, data.layout.seat_radius, p.x, p.z)
    return None if found is None else tuple(found)


def pile_spot(table, color, pile, k=1):
    data = table.globals.DATA
    return table.globals.use("scoop.piles").place(data.seats, data.layout.seat_radius, color, pile, 1.0 + 0.5 * k)


def face_up_to(table, card, color) -> bool:
    """Whether `card` lies face up and reads upright to `color`'s player: turned as their hand zone, half a
    turn round (TTS's own seat, whatever yaw the table script computed)."""
    r = inner(card).rotation
    upright = to_py(table.player(color).getHandTransform())["rotation"]["y"] + 180
    return (r.x, r.z) == (0, 0) and abs((r.y - upright + 180) % 360 - 180) < 0.01


def drop(table, guid, color, pile, k=1):
    holder(table, guid).setPosition(pile_spot(table, color, pile, k))


def test_draw_turns_the_top_card_up_in_front_of_the_player_whose_turn_it_is(table_of):
    table = new_game(table_of)
    assert table.ui_value("scoop_turn") == "White: Draw (52 left)"
    table.click("uiScoopDraw", "Red", None, "scoop_draw")
    assert "Clause 14 (turns): it is White's turn" in table.broadcasts[-1]
    assert state(table)["drawn"] is False
    table.click("uiScoopDraw", "White", None, "scoop_draw")
    s = state(table)
    card = holder(table, s["drawn"]["id"])
    assert card.type == "Card" and inner(card).rotation.z == 0 and inner(card).hand is None
    assert [o for o in table.tagged("deck") if o.type == "Deck"][0].getQuantity() == 51
    assert any(b.startswith("White takes the") for b in table.broadcasts)
    table.click("uiScoopDraw", "White", None, "scoop_draw")
    assert "you have taken your card" in table.broadcasts[-1]
    table.click("uiScoopPlace", "White", None, "scoop_place")
    assert "Clause 15 (placing): put the card you drew on a pile first" in table.broadcasts[-1]


def test_place_puts_the_card_on_your_pile_and_another_players_pile_is_refused(table_of):
    table = new_game(table_of)
    table.click("uiScoopDraw", "White", None, "scoop_draw")
    drawn = state(table)["drawn"]["id"]
    spot = inner(holder(table, drawn)).position
    spot = (spot.x, spot.z)
    drop(table, drawn, "Red", "go")
    table.click("uiScoopPlace", "White", None, "scoop_place")
    assert "Clause 15 (placing): put it on one of your own piles. The cards go back." in table.broadcasts[-1]
    p = inner(holder(table, drawn)).position
    assert (p.x, p.z) == spot and state(table)["drawn"]["id"] == drawn
    drop(table, drawn, "White", "game")
    table.click("uiScoopPlace", "White", None, "scoop_place")
    s = state(table)
    assert [c["id"] for c in s["players"]["White"]["game"]] == [drawn] and s["turn"] == "Red"
    assert lies_on(table, drawn) == ("White", "game")
    assert table.ui_value("scoop_turn") == "Red: Draw (51 left)"
    assert any("White puts the" in b and "White's Game Pile" in b for b in table.broadcasts)


def act(table, s, move, rng):
    """What the player whose turn it is does at the table for the engine's `move`, and the button."""
    me = s["turn"]
    drawn = s["drawn"]["id"]
    if "place" in move:
        drop(table, drawn, me, move["place"])
        table.click("uiScoopPlace", me, None, "scoop_place")
    elif "scoop" in move:
        sc = move["scoop"]
        to, frm = sc["to"], sc["from"]
        drop(table, drawn, to["player"], to["pile"])
        block = s["players"][frm["player"]][frm["pile"]][-sc.get("count", 1):]
        for k, card in enumerate(block, 2):
            drop(table, card["id"], to["player"], to["pile"], k)
        table.click("uiScoopScoop", me, None, "scoop_scoop")
    else:
        sw = move["switch"]
        drop(table, drawn, me, sw["own"])
        with_ = sw["with"]
        value = s["drawn"]["value"]
        showing = [(p, pile) for p in SEATS for pile in ("go", "game")
                   if (p, pile) != (s["turn"], sw["own"]) and s["players"][p][pile]
                   and s["players"][p][pile][-1]["value"] == value]
        if len(showing) > 1 or rng.random() < 0.3:  # mark the pile switched with: its top card on your card
            top = s["players"][with_["player"]][with_["pile"]][-1]["id"]
            drop(table, top, me, sw["own"], 2)
        table.click("uiScoopSwitch", me, None, "scoop_switch")


def check_piles(table, s):
    for color in SEATS:
        for pile in ("go", "game"):
            for card in s["players"][color][pile]:
                assert lies_on(table, card["id"]) == (color, pile), (color, pile)
                assert face_up_to(table, holder(table, card["id"]), color), (color, pile)


@pytest.mark.parametrize("seed, reload_every", [(1, 0), (2, 3)])
def test_random_games_through_the_buttons_end_with_the_count_of_the_engine(save, seed, reload_every):
    """...also with the game saved and loaded again every few turns, between Draw and the move: the table
    goes on where it was."""
    rng = random.Random(seed)
    table = new_game(laid(save))
    engine = table.globals.use("scoop.engine")
    every = sorted(to_py(engine.all_ids(table.globals.GAME.state())))
    assert len(every) == 52
    kinds = set()
    while not state(table)["over"]:
        turn = state(table)["turn"]
        table.click("uiScoopDraw", turn, None, "scoop_draw")
        s = state(table)
        drawn = holder(table, s["drawn"]["id"])  # taken out of the deck: face up, upright to who drew it
        assert drawn.type == "Card" and face_up_to(table, drawn, turn), to_py(drawn.getRotation())
        if reload_every and s["turns"] % reload_every == 0:
            shown = table.ui_value("scoop_turn")
            table.reload()
            engine = table.globals.use("scoop.engine")
            assert state(table) == s and table.ui_value("scoop_turn") == shown
        moves = to_py(engine.legal_moves(table.globals.GAME.state(), turn))
        special = [m for m in moves if "place" not in m]
        move = rng.choice(special) if special and rng.random() < 0.8 else rng.choice(moves)
        kinds.add(next(iter(move)))
        act(table, s, move, rng)
        after = state(table)
        assert after["turns"] == s["turns"] + 1, (move, table.broadcasts[-2:])
        assert sorted(to_py(engine.all_ids(table.globals.GAME.state()))) == every  # no card created or lost
        check_piles(table, after)
    assert kinds == {"place", "scoop", "switch"}
    assert table.ui_value("scoop_turn") == "Game over: press Count"
    table.click("uiScoopDraw", "White", None, "scoop_draw")
    assert "Clause 19 (the end)" in table.broadcasts[-1]
    table.click("uiScoopCount", "White", None, "scoop_count")
    result = state(table)["result"]
    assert {c: int(table.ui_value(f"score_{c}")) for c in SEATS} == {
        SEATS[k]: row["score"] for k, row in enumerate(result["players"])}  # the table's Count, the engine's


def test_a_scoop_of_the_wrong_suit_is_refused_and_every_card_goes_back(table_of):
    table = new_game(table_of)
    for color in ("White", "Red"):  # White and Red place a card each on their Go Pile
        table.click("uiScoopDraw", color, None, "scoop_draw")
        drop(table, state(table)["drawn"]["id"], color, "go")
        table.click("uiScoopPlace", color, None, "scoop_place")
    table.click("uiScoopDraw", "Yellow", None, "scoop_draw")
    s = state(table)
    [(owner, top)] = [(c, s["players"][c]["go"][-1]) for c in SEATS[:2]
                      if s["players"][c]["go"][-1]["suit"] != s["drawn"]["suit"]][:1]
    drop(table, s["drawn"]["id"], "Yellow", "go")
    drop(table, top["id"], "Yellow", "go", 2)
    table.click("uiScoopScoop", "Yellow", None, "scoop_scoop")
    assert "Clause 16 (SCOOP)" in table.broadcasts[-1] and "The cards go back." in table.broadcasts[-1]
    assert state(table) == s
    assert lies_on(table, top["id"]) == (owner, "go")
    assert lies_on(table, s["drawn"]["id"]) is None


def test_draw_pressed_again_while_its_card_moves_is_refused(table_of, timing):
    table = new_game(table_of)
    table.click("uiScoopDraw", "White", None, "scoop_draw", settle=False)
    table.click("uiScoopDraw", "White", None, "scoop_draw", settle=False)
    if timing > 0:  # the card is still on its way out of the deck
        assert table.broadcasts[-1].startswith("Draw is still under way")
    table.settle()
    assert sum(1 for b in table.broadcasts if b.startswith("White takes the")) == 1
