"""Skorch refereed at the table: the real deck built, its save run under Lua 5.2 against the strict fake
of TTS (delays 0, 1, 20), dealt, and played through the Play and Pick up buttons. What the table does is
checked against the engine's state and the objects on the table: where every card lies, the hands, the
turn, the messages."""

from __future__ import annotations

import random
import re

import pytest

from helpers.fake_tts import FakeTTS, inner, timing, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.tables import laid

DECK = "skorch"
SEATS = ["White", "Red", "Blue"]
RADIUS = 1.5


@pytest.fixture(scope="module")
def save(shipped) -> dict:
    return shipped(DECK)[0]


def dealt(lay, seed=7, seated=SEATS):
    table = lay(seated)
    table.lua.execute(f"math.randomseed({seed})")
    table.click("uiSkorchDeal", "White", None, "skorch_deal")
    return table


def state(table) -> dict:
    return to_py(table.globals.GAME.state())


def obj(table, guid):
    found = table.globals.getObjectFromGUID(guid)
    assert found is not None, guid
    return found


def pile_spot(table):
    """The discard pile lies 3 units right (+x) of where the save puts the deck."""
    x, y, z = to_py(table.globals.DATA.layout.home)
    return x + 3.0, y, z


def put_on_pile(table, guids):
    x, y, z = pile_spot(table)
    for k, guid in enumerate(guids):
        card = obj(table, guid)
        card.setPosition(table.lua.table_from([x, y + 0.1 * (k + 1), z]))


def on_pile(table) -> set[str]:
    x, _, z = pile_spot(table)
    out = set()
    for o in table.objects():
        p = inner(o).position
        if (p.x - x) ** 2 + (p.z - z) ** 2 <= RADIUS ** 2 and o.type in ("Card", "Deck"):
            out |= {o.getGUID()} if o.type == "Card" else {e["guid"] for e in to_py(o.getObjects())}
    return out


def hand_guids(table, color) -> set[str]:
    return {o.getGUID() for o in table.hand_objects(color)}


def test_a_legal_play_goes_on_the_pile_the_player_draws_and_the_turn_passes(table_of):
    table = dealt(table_of)
    s = state(table)
    turn = s["turn"]
    moves = to_py(table.globals.use("skorch.engine").legal_moves(table.globals.GAME.state(), turn))
    move = next(m for m in moves if "cards" in m and len(m) == 1
                and all(c["kind"] == "attack" for c in s["players"][turn]["hand"] if c["id"] in m["cards"]))
    before = hand_guids(table, turn)
    put_on_pile(table, move["cards"])
    table.click("uiSkorchPlay", turn, None, "skorch_play")
    after = state(table)
    assert [c["id"] for c in after["pile"][-len(move["cards"]):]] == move["cards"]
    assert set(move["cards"]) <= on_pile(table)
    for guid in move["cards"]:
        assert inner(obj(table, guid)).rotation.z == 0  # face up on the pile
    drawn = hand_guids(table, turn) - before
    assert len(drawn) == 1 and drawn == {after["players"][turn]["hand"][-1]["id"]}
    assert hand_guids(table, turn) == {c["id"] for c in after["players"][turn]["hand"]}
    assert after["turn"] != turn and table.ui_value("skorch_turn").startswith(after["turn"] + "'s turn")
    assert any(b.startswith(f"{turn} plays") for b in table.broadcasts)


def test_a_play_out_of_turn_is_refused_and_the_card_goes_back_to_the_hand(table_of):
    table = dealt(table_of)
    s = state(table)
    other = next(c for c in SEATS if c != s["turn"])
    card = s["players"][other]["hand"][0]["id"]
    put_on_pile(table, [card])
    table.click("uiSkorchPlay", other, None, "skorch_play")
    assert any("Clause 10 (turn order)" in b and "go back" in b for b in table.broadcasts), table.broadcasts
    assert card in hand_guids(table, other) and card not in on_pile(table)
    assert state(table) == s


def test_a_prison_card_played_with_cards_in_hand_is_refused_and_goes_back_to_its_slot(table_of):
    table = dealt(table_of)
    s = state(table)
    turn = s["turn"]
    card = s["players"][turn]["front"][0]["id"]  # slot 1 of the front row: face up
    home = inner(obj(table, card)).position
    home = (home.x, home.z)
    put_on_pile(table, [card])
    table.click("uiSkorchPlay", turn, None, "skorch_play")
    assert any("Clause 12 (hand first)" in b for b in table.broadcasts), table.broadcasts
    p = inner(obj(table, card)).position
    assert (round(p.x, 6), round(p.z, 6)) == (round(home[0], 6), round(home[1], 6))
    assert inner(obj(table, card)).rotation.z == 0
    assert state(table) == s


def test_play_with_nothing_on_the_pile_says_what_to_do(table_of):
    table = dealt(table_of)
    table.click("uiSkorchPlay", state(table)["turn"], None, "skorch_play")
    assert "put the cards you play on the discard pile first" in table.broadcasts[-1]


@pytest.mark.parametrize("as_deck", [False, True], ids=["loose", "as_deck"])
def test_pick_up_is_refused_while_the_player_can_play_and_takes_the_pile_when_not(save, as_deck):
    """...also when the cards on the pile have formed a deck, as cards dropped on each other do in TTS:
    the deck is taken apart card by card in one frame, its last card as the remainder."""
    for seed in range(1, 80):
        table = dealt(laid(save), seed)
        s = state(table)
        engine = table.globals.use("skorch.engine")
        if not engine.can_play(table.globals.GAME.state(), s["turn"]):
            if as_deck:  # a pile of one card: no deck to form
                continue
            break
        table.click("uiSkorchPickUp", s["turn"], None, "skorch_pick_up")
        assert "Clause 19 (picking up)" in table.broadcasts[-1]
        assert state(table) == s
        if as_deck:
            break
    # play on until someone cannot beat the pile, then pick up
    for _ in range(200):
        s = state(table)
        turn = s["turn"]
        engine = table.globals.use("skorch.engine")
        if not engine.can_play(table.globals.GAME.state(), turn):
            break
        moves = to_py(engine.legal_moves(table.globals.GAME.state(), turn))
        move = next((m for m in moves if set(m) == {"cards"}), None)
        if move is None:
            pytest.skip("only Undead or Face-off moves left")
        put_on_pile(table, move["cards"])
        table.click("uiSkorchPlay", turn, None, "skorch_play")
        assert state(table)["turns"] == s["turns"] + 1, table.broadcasts[-3:]
    else:
        pytest.fail("everyone could always play")
    pile = [c["id"] for c in s["pile"]]
    if as_deck:
        assert len(pile) >= 2
        [deck] = table.globals.group(table.lua.table_from([obj(table, guid) for guid in pile])).values()
        table.settle()
        assert deck.type == "Deck" and on_pile(table) == set(pile)
    before = hand_guids(table, turn)
    table.click("uiSkorchPickUp", turn, None, "skorch_pick_up")
    after = state(table)
    assert after["pile"] == [] and after["turn"] != turn
    assert hand_guids(table, turn) == before | set(pile)
    assert not on_pile(table)
    check_table_matches_the_engine(table, after)


def test_a_skorch_burns_the_pile_out_of_the_game(table_of):
    for seed in range(1, 200):
        table = dealt(table_of, seed)
        s = state(table)
        skorch = [c["id"] for c in s["players"][s["turn"]]["hand"] if c["kind"] == "skorch"]
        if skorch:
            break
    else:
        pytest.fail("no seed gave the first player a Skorch")
    turn, pile = s["turn"], [c["id"] for c in s["pile"]]
    put_on_pile(table, skorch[:1])
    table.click("uiSkorchPlay", turn, None, "skorch_play")
    after = state(table)
    assert after["pile"] == [] and sorted(c["id"] for c in after["burned"]) == sorted(pile + skorch[:1])
    assert not on_pile(table)
    x, _, z = pile_spot(table)
    for guid in pile + skorch[:1]:
        holder = table.globals.getObjectFromGUID(guid) or next(
            o for o in table.objects() if o.type == "Deck" and guid in {e["guid"] for e in to_py(o.getObjects())})
        p = inner(holder).position
        assert (round(p.x, 6), round(p.z, 6)) == (round(x, 6), round(z + 3.0, 6))
        assert inner(holder).rotation.z == 180
    assert any(b.startswith("Skorch!") for b in table.broadcasts)
    assert table.ui_value("skorch_turn") == f"{after['turn']}'s turn: any card"


def test_play_pressed_again_while_its_cards_move_is_refused(table_of, timing):
    table = dealt(table_of)
    s = state(table)
    turn = s["turn"]
    moves = to_py(table.globals.use("skorch.engine").legal_moves(table.globals.GAME.state(), turn))
    move = next(m for m in moves if set(m) == {"cards"})
    put_on_pile(table, move["cards"])
    table.click("uiSkorchPlay", turn, None, "skorch_play", settle=False)
    table.click("uiSkorchPlay", turn, None, "skorch_play", settle=False)
    if timing > 0:  # the card drawn is still on its way
        assert table.broadcasts[-1].startswith("Play is still under way")
    table.settle()
    assert state(table)["turns"] == s["turns"] + 1
    assert sum(1 for b in table.broadcasts if b.startswith(f"{turn} plays")) == 1


def act(table, color, move):
    """What a player does at the table for the engine's `move`, then the button they press."""
    if move.get("pick_up"):
        table.click("uiSkorchPickUp", color, None, "skorch_pick_up")
        return
    cards = list(move["cards"])
    if move.get("take"):
        cards.append(move["take"])
    if move.get("give"):
        cards.append(move["give"])
    if move.get("choose"):
        cards.append(move["choose"])
    for guid in move.get("reveal") or []:
        if guid != move.get("choose"):  # the other card revealed: turned face up in its slot
            card = obj(table, guid)
            r = inner(card).rotation
            card.setRotation(table.lua.table_from([r.x, r.y, 0]))
    put_on_pile(table, cards)
    table.click("uiSkorchPlay", color, None, "skorch_play")


def every_card(s) -> list[dict]:
    out = list(s["pile"]) + list(s["draw"]) + list(s["burned"])
    for player in s["players"].values():
        out += player["hand"] + [c for c in player["front"] + player["back"] if c]
    return out


def turned_to(table, card, color) -> bool:
    """Whether `card` lies turned to `color`'s player (upright to them, face up or down): as their hand
    zone, half a turn round (TTS's own seat, whatever yaw the table script computed)."""
    upright = to_py(table.player(color).getHandTransform())["rotation"]["y"] + 180
    return abs((inner(card).rotation.y - upright + 180) % 360 - 180) < 0.01


def check_table_matches_the_engine(table, s):
    for color in s["order"]:
        player = s["players"][color]
        assert hand_guids(table, color) == {c["id"] for c in player["hand"]}, color
        for card in table.hand_objects(color):  # dealt, drawn from the deck, picked up or given back
            assert inner(card).rotation.z == 0 and turned_to(table, card, color), (color, card.getGUID())
        for row in ("front", "back"):
            for slot, c in enumerate(player[row], 1):
                if c:
                    card = obj(table, c["id"])
                    assert inner(card).hand is None and turned_to(table, card, color), (color, row, slot)
                    assert inner(card).rotation.z == (0 if c["face_up"] else 180), (color, row, slot)
                    x, _, z = to_py(table.globals.GAME.prison_place(color, row, slot, c["face_up"])[0])
                    p = inner(card).position
                    assert (p.x - x) ** 2 + (p.z - z) ** 2 < 0.01, (color, row, slot)  # in its own slot
    assert on_pile(table) == {c["id"] for c in s["pile"]}


@pytest.mark.parametrize("seed, special, reload_every", [(3, r" (trades|takes) ", 0), (11, r"with the Face-off", 4)])
def test_random_games_played_through_the_buttons_keep_the_table_and_the_engine_in_step(save, seed, special,
                                                                                       reload_every):
    """...also with the game saved and loaded again every few turns: the table goes on where it was."""
    rng = random.Random(seed)
    table = FakeTTS(save, seated=SEATS)
    table.click("uiSkorchFaceoff", "White")
    table.lua.execute(f"math.randomseed({seed})")
    table.click("uiSkorchDeal", "White", None, "skorch_deal")
    engine = table.globals.use("skorch.engine")
    by_id = {c["id"]: c for c in every_card(state(table))}
    every = sorted(to_py(engine.all_ids(table.globals.GAME.state())))
    assert len(every) == 78  # the deck and the Face-off card
    for turn in range(1500):
        s = state(table)
        if reload_every and turn % reload_every == 0:
            shown = (table.ui_value("skorch_turn"), table.ui_value("skorch_faceoff"))
            table.reload()
            engine = table.globals.use("skorch.engine")
            assert state(table) == s and (table.ui_value("skorch_turn"), table.ui_value("skorch_faceoff")) == shown
        if s["winner"]:
            break
        moves = to_py(engine.legal_moves(table.globals.GAME.state(), s["turn"]))
        sheds = [m for m in moves if set(m) == {"cards"} and by_id[m["cards"][0]]["kind"] == "attack"]
        if sheds and rng.random() < 0.75:  # a plausible player: usually sheds its lowest value, all copies
            move = min(sheds, key=lambda m: (by_id[m["cards"][0]]["value"], -len(m["cards"])))
        else:
            move = rng.choice(moves)
        act(table, s["turn"], move)
        after = state(table)
        assert after["turns"] == s["turns"] + 1, (move, table.broadcasts[-3:])
        check_table_matches_the_engine(table, after)
        assert sorted(to_py(engine.all_ids(table.globals.GAME.state()))) == every  # no card created or lost
    else:
        pytest.fail("no winner in 1500 turns")
    assert table.ui_value("skorch_turn") == f"{s['winner']} has won"
    assert any("wins!" in b for b in table.broadcasts)
    text = "\n".join(table.broadcasts)
    assert "Skorch!" in text and "picks up the discard pile" in text
    assert re.search(special, text), special  # the Undead and the Face-off were played through the table too
    on_table = [o for o in table.objects() if o.hasTag("deck") or o.hasTag("faceoff")]
    assert sum(o.getQuantity() if o.type == "Deck" else 1 for o in on_table) == 78
