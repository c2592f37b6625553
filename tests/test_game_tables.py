"""The scripted tables of Skorch ("Deal"), Scout ("Setup", "Turn my hand") and Scoop (mats, "Count"):
the real decks built, their saves run under Lua 5.2 against the fake TTS API, the controls clicked,
and the resulting objects checked: positions, orientations, hands, chips, scores."""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlparse

import lupa.lua52 as lua52
import pytest

from conftest import ROOT, run_cli
from helpers.fake_tts import FakeTTS, inner, timing, to_lua, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)

SKORCH_SEATS = ["White", "Red", "Yellow", "Green", "Blue"]
SCOUT_SEATS = SKORCH_SEATS
SCOOP_SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]
RADIUS = 24.8  # save.SEAT_RADIUS: where TTS puts its own hands on a round table
CLOSE = 0.01


@pytest.fixture(scope="module")
def saves(shipped) -> dict[str, dict]:
    return {deck: shipped(deck)[0] for deck in ("skorch", "scout", "scoop")}


def image_urls(save: dict) -> list[str]:
    urls = []
    for state in save["ObjectStates"]:
        for obj in [state, *state.get("ContainedObjects", [])]:
            for entry in obj.get("CustomDeck", {}).values():
                urls += [entry["FaceURL"], entry["BackURL"]]
            if "CustomImage" in obj:
                urls += [obj["CustomImage"]["ImageURL"], obj["CustomImage"]["ImageSecondaryURL"]]
    return urls


@pytest.mark.parametrize("deck", ["skorch", "scout", "scoop"])
def test_an_image_several_components_use_is_uploaded_once(shipped, saves, deck):
    assets = sorted((shipped(deck)[2] / "assets").iterdir())
    digests = [hashlib.sha256(p.read_bytes()).hexdigest() for p in assets]
    assert len(set(digests)) == len(digests), [p.name for p in assets]
    used = {Path(urlparse(u).path).name for u in image_urls(saves[deck])}
    assert used == {p.name for p in assets}
    if deck == "skorch":  # the deck, the Face-off card and the help cards share one back
        backs = {entry["BackURL"] for state in saves[deck]["ObjectStates"]
                 for entry in state.get("CustomDeck", {}).values()}
        assert len(backs) == 1


def test_scout_token_piles_are_tile_stacks(saves):
    stacks = {o["Nickname"]: o for o in saves["scout"]["ObjectStates"] if o["Name"] == "Custom_Tile_Stack"}
    assert {name: o["Number"] for name, o in stacks.items()} == {"Scout & Show": 5, "Scout": 25, "Звезда 1": 40,
                                                                 "Звезда 5": 12}
    assert not [o for o in saves["scout"]["ObjectStates"] if o["Name"] == "Custom_Tile" and o["Nickname"] == "Звезда 1"]


def seat_point(seats: list[str], color: str, x: float, d: float) -> tuple[float, float]:
    """World (x, z) of the seat-local offset (x to the player's right, d towards the centre)."""
    i, n = seats.index(color), len(seats)
    a = math.radians(360 * i / n)
    tx, tz = math.sin(a), math.cos(a)
    return (-RADIUS * tx + tz * x + tx * d, -RADIUS * tz - tx * x + tz * d)


def upright_y(seats: list[str], color: str) -> float:
    return (360 * seats.index(color) / len(seats) + 180) % 360


def same_angle(a: float, b: float) -> bool:
    return abs((a - b + 180) % 360 - 180) < 0.01


def notes(obj) -> dict:
    return json.loads(obj.getGMNotes())


def loose_cards(table: FakeTTS) -> list:
    return [o for o in table.objects() if o.type == "Card" and inner(o).hand is None]


def at(objects, point, y=None) -> list:
    return [o for o in objects if abs(inner(o).position.x - point[0]) < CLOSE and abs(inner(o).position.z - point[1]) < CLOSE]


def main_decks(table: FakeTTS) -> list:
    return [o for o in table.tagged("deck") if o.type == "Deck"]


def test_hand_zones_sit_where_the_tables_assume(saves):
    for deck, seats in (("skorch", SKORCH_SEATS), ("scout", SCOUT_SEATS), ("scoop", SCOOP_SEATS)):
        zones = {o["FogColor"]: o["Transform"] for o in saves[deck]["ObjectStates"] if o["Name"] == "HandTrigger"}
        assert list(zones) == seats
        for color, t in zones.items():
            x, z = seat_point(seats, color, 0, 0)
            assert abs(t["posX"] - x) < 0.001 and abs(t["posZ"] - z) < 0.001, color


@pytest.mark.parametrize("deck", ["skorch", "scout", "scoop"])
def test_each_table_has_its_controls_and_hides_get_ready(saves, deck):
    save = saves[deck]
    table = FakeTTS(save, seated=["White", "Red"])
    root = ET.fromstring(f"<root>{save['XmlUI']}</root>")
    handlers = {re.match(r"\w+", e.get("onClick")).group() for e in root.iter() if e.get("onClick")}
    own = {"skorch": {"uiSkorchDeal", "uiSkorchFaceoff", "uiSkorchPlay", "uiSkorchPickUp"}, "scout": {"uiScoutSetup", "uiScoutTurnHand", "uiScoutShow", "uiScoutScout", "uiScoutScoutShow"},
           "scoop": {"uiScoopCount", "uiScoopNewGame", "uiScoopDraw", "uiScoopPlace", "uiScoopScoop", "uiScoopSwitch"}}[deck]
    assert own <= handlers
    for name in handlers:
        assert lua52.lua_type(table.globals[name]) == "function", name
    assert f'id="{deck}_panel"' in save["XmlUI"]
    assert table.ui_attribute("get_ready", "active") == "false"
    assert lua52.lua_type(table.globals.GAME) == "table"


# --- Skorch: "Deal" ----------------------------------------------------------------------------------

BACK = [False, True, False, True, False]   # face up? slot 1-5, left to right as the owner sees it
FRONT = [True, False, True, False, True]


def prison(table: FakeTTS, color: str) -> dict[tuple[str, int], object]:
    """The card at each prison slot of `color` (exactly one each, else the test fails)."""
    cards = loose_cards(table)
    out = {}
    for row, d in (("back", 9.6), ("front", 6.0)):
        for slot in range(1, 6):
            found = at(cards, seat_point(SKORCH_SEATS, color, (slot - 3) * 2.6, d))
            assert len(found) == 1, (color, row, slot, len(found))
            out[(row, slot)] = found[0]
    return out


@pytest.mark.parametrize("seated", [["White", "Red"], ["Blue", "White", "Green"],
                                    ["White", "Red", "Yellow", "Green"], SKORCH_SEATS])
def test_skorch_deal_builds_prisons_hands_and_the_discard(saves, seated):
    table = FakeTTS(saves["skorch"], seated=seated)
    table.lua.execute("math.randomseed(7)")
    table.click("uiSkorchDeal", seated[0], None, "skorch_deal")
    n = len(seated)
    in_prisons = set()
    for color in SKORCH_SEATS:
        if color not in seated:
            assert table.hand(color) == []
            continue
        cells = prison(table, color)
        for (row, slot), card in cells.items():
            face_up = (BACK if row == "back" else FRONT)[slot - 1]
            assert inner(card).rotation.z == (0 if face_up else 180), (color, row, slot)
            assert same_angle(inner(card).rotation.y, upright_y(SKORCH_SEATS, color))
            assert card.hasTag("deck")
            in_prisons.add(card.getGUID())
        assert len(table.hand(color)) == 5
    assert len(in_prisons) == 10 * n
    others = [c for c in loose_cards(table) if c.getGUID() not in in_prisons and c.hasTag("deck")]
    if n < 5:
        [draw] = main_decks(table)
        assert draw.getQuantity() == 77 - 15 * n - 1
    else:  # 76 of the 77 cards dealt: the draw pile is the deck's last card
        assert main_decks(table) == []
        [draw] = [c for c in others if inner(c).rotation.z == 180]
        others.remove(draw)
    assert inner(draw).rotation.z == 180
    pile = draw.getPosition()
    [discard] = others
    assert inner(discard).rotation.z == 0
    assert (inner(discard).position.x, inner(discard).position.z) == (pile.x + 3.0, pile.z)
    # who starts: the dealer's left (next seat clockwise), or the one after if the discard is special
    order = [c for c in SKORCH_SEATS if c in seated]
    dealer = seated[0]
    left = order[(order.index(dealer) + 1) % n]
    second = order[(order.index(dealer) + 2) % n]
    first = left if notes(discard)["kind"] == "attack" else second
    assert any(b.startswith(f"{first} starts") for b in table.broadcasts), table.broadcasts
    assert any(f"{dealer} dealt" in b for b in table.broadcasts)


def test_skorch_special_first_discard_skips_the_dealers_left(saves):
    """Deal until a special card turns up first (seeded): the second player after the dealer starts."""
    seen = set()
    for seed in range(1, 60):
        table = FakeTTS(saves["skorch"], seated=["White", "Red", "Blue"])
        table.lua.execute(f"math.randomseed({seed})")
        plans = []
        table.globals.GAME.deal("Red", lambda plan=None: plans.append(to_py(plan)))
        table.settle()
        [plan] = plans
        kind = plan["discard"]["kind"]
        # deal order from the dealer Red: Blue (the dealer's left), White, Red
        expected = "Blue" if kind == "attack" else "White"
        assert plan["first_player"] == expected
        assert any(b.startswith(f"{expected} starts") for b in table.broadcasts)
        seen.add(kind == "attack")
        if seen == {True, False}:
            break
    assert seen == {True, False}


@pytest.mark.parametrize("seated", [["White", "Red", "Yellow"], SKORCH_SEATS])
def test_skorch_deal_again_gathers_everything_first(saves, seated):
    """With 5 players the first Deal leaves no deck (the draw pile is its last card): the second one
    gathers loose cards only, and must wait for the new deck to form before shuffling and dealing."""
    table = FakeTTS(saves["skorch"], seated=seated)
    table.click("uiSkorchDeal", "White")
    first = table.hand("Red")
    table.click("uiSkorchDeal", "Yellow")
    for color in seated:
        assert len(table.hand(color)) == 5
        prison(table, color)
    left = 77 - 15 * len(seated) - 1
    if left > 1:
        [draw] = main_decks(table)
        assert draw.getQuantity() == left
    else:
        assert main_decks(table) == []
    cards = sum(1 for o in table.tagged("deck") if o.type == "Card")
    assert cards + sum(d.getQuantity() for d in main_decks(table)) == 77
    assert table.hand("Red") != first


def test_skorch_deal_pressed_again_while_dealing_is_refused(saves):
    table = FakeTTS(saves["skorch"], seated=["White", "Red"])
    table.click("uiSkorchDeal", "White", settle=False)
    table.click("uiSkorchDeal", "Red", settle=False)
    table.click("uiSkorchFaceoff", "Red", settle=False)
    assert "Deal is still under way" in table.broadcasts[-2] and "Wait a moment" in table.broadcasts[-1]
    table.settle()
    assert sum(1 for b in table.broadcasts if " dealt: " in b) == 1
    assert len(table.hand("White")) == len(table.hand("Red")) == 5
    assert table.ui_value("skorch_faceoff") == "Face-off: out"
    table.click("uiSkorchDeal", "Red")  # once done, it deals again
    assert any(b.startswith("Red dealt") for b in table.broadcasts)


def test_skorch_faceoff_toggle_shuffles_the_expansion_in_and_out(saves):
    table = FakeTTS(saves["skorch"], seated=["White", "Red"])
    table.click("uiSkorchFaceoff", "White")
    assert table.ui_value("skorch_faceoff") == "Face-off: in"
    assert "faceoff" in table.call("onSave")
    table.click("uiSkorchDeal", "White")
    [draw] = main_decks(table)
    dealt = [o for o in table.objects() if o.type == "Card" and notes(o)["component"] in ("deck", "faceoff")]
    assert draw.getQuantity() + len(dealt) == 78  # 77 + the Face-off card, dealt or in the draw pile
    table.click("uiSkorchFaceoff", "Red")
    table.click("uiSkorchDeal", "White")
    [card] = table.tagged("faceoff")
    assert inner(card).hand is None and (inner(card).position.x, inner(card).position.z) == (0, -5) and inner(card).rotation.z == 180
    [draw] = main_decks(table)
    assert draw.getQuantity() == 77 - 31


def test_skorch_deal_needs_two_players(saves):
    table = FakeTTS(saves["skorch"], seated=["White"])
    table.click("uiSkorchDeal", "White")
    assert table.hand("White") == [] and any("at least 2" in b for b in table.broadcasts)
    [draw] = main_decks(table)
    assert draw.getQuantity() == 77


# --- Scout: "Setup" and "Turn my hand" ------------------------------------------------------------------

DEAL = {2: 11, 3: 12, 4: 11, 5: 9}


def values(card) -> tuple[int, int]:
    data = notes(card)
    return data["top"], data["bottom"]


def scout_table(saves, seated, seed=11) -> FakeTTS:
    table = FakeTTS(saves["scout"], seated=seated)
    table.lua.execute(f"math.randomseed({seed})")
    table.click("uiScoutSetup", seated[0], None, "scout_setup")
    return table


def turned(color, card) -> bool:
    if same_angle(inner(card).rotation.y, upright_y(SCOUT_SEATS, color)):
        return False
    assert same_angle(inner(card).rotation.y, upright_y(SCOUT_SEATS, color) + 180), inner(card).rotation.y
    return True


def test_scout_data_matches_the_pure_setup(saves):
    """The deck's setup.deal (the 2-player count included) is what scout.setup deals."""
    table = FakeTTS(saves["scout"], seated=["White"])
    assert to_py(table.globals.DATA.setup.deal) == to_py(table.globals.use("scout.setup").rules(table.globals.DATA).deal) == DEAL


@pytest.mark.parametrize("seated", [["White", "Red"], ["White", "Red", "Blue"],
                                    ["Green", "White", "Red", "Blue"], SCOUT_SEATS])
def test_scout_setup_removes_shuffles_orients_and_deals(saves, seated):
    table = scout_table(saves, seated)
    n = len(seated)
    order = [c for c in SCOUT_SEATS if c in seated]
    hands = {c: table.hand_objects(c) for c in order}
    for color in SCOUT_SEATS:
        assert len(table.hand_objects(color)) == (DEAL[n] if color in seated else 0)
    held = [values(c) for h in hands.values() for c in h]
    assert len(set(held)) == len(held) == DEAL[n] * n
    # removed by player count: set aside, face down, on the aside pile
    aside = [o for o in loose_cards(table) if o.hasTag("deck")]
    removed = sorted(values(c) for c in aside)
    expected = {2: [(9, 10)], 3: [(a, 10) for a in range(1, 10)], 4: [(9, 10)], 5: []}[n]
    assert removed == expected
    assert all((inner(o).position.x, inner(o).position.z) == (9.0, 0.0) and inner(o).rotation.z == 180 for o in aside)
    assert not any(10 in v for v in held) if n == 3 else (9, 10) not in held if n in (2, 4) else True
    decks = main_decks(table)
    assert [d.getQuantity() for d in decks] == ([22] if n == 2 else [])
    # orientation: every card upright or turned 180 for its holder, both kinds present
    flags = [turned(c, card) for c, h in hands.items() for card in h]
    assert 0.25 < sum(flags) / len(flags) < 0.75
    assert all(inner(card).rotation.z == 0 for h in hands.values() for card in h)
    # a Scout & Show chip in front of each player, the marker with the first player
    chips = table.tagged("chips")
    for color in order:
        assert len(at(chips, seat_point(SCOUT_SEATS, color, 6.5, 4.0))) == 1, color
    [marker] = table.tagged("first-player")
    holder = [c for c in order if at([marker], seat_point(SCOUT_SEATS, c, -6.5, 4.0))]
    assert len(holder) == 1
    lowest = min((tuple(sorted(values(card))), c) for c, h in hands.items() for card in h)
    assert holder[0] == lowest[1]
    if (1, 2) in held:
        assert lowest[0] == (1, 2)
    assert any(f"{holder[0]} gets the first-player marker" in b for b in table.broadcasts)


def test_scout_two_players_marker_falls_back_to_the_lowest_card(saves):
    """With 2 players the 1/2 card may stay undealt: the holder of the lowest card gets the marker."""
    for seed in range(1, 40):
        table = scout_table(saves, ["White", "Red"], seed)
        held = {c: [tuple(sorted(values(card))) for card in table.hand_objects(c)] for c in ("White", "Red")}
        if (1, 2) not in held["White"] + held["Red"]:
            break
    else:
        pytest.fail("the 1/2 card was dealt with every seed")
    lowest = min((card, c) for c, cards in held.items() for card in cards)
    [marker] = table.tagged("first-player")
    assert at([marker], seat_point(SCOUT_SEATS, lowest[1], -6.5, 4.0))
    assert any("Nobody holds the 1/2 card" in b for b in table.broadcasts)


@pytest.mark.parametrize("seated", [["White", "Red", "Yellow"], ["White", "Red", "Yellow", "Green"], SCOUT_SEATS])
def test_scout_setup_twice_is_a_new_round(saves, seated):
    """The second round gathers the hands (no deck is left with 3 to 5 players) and waits for the deck."""
    table = scout_table(saves, seated)
    table.click("uiScoutSetup", "Red")
    n = len(seated)
    for color in seated:
        assert len(table.hand_objects(color)) == DEAL[n]
    assert len([o for o in loose_cards(table) if o.hasTag("deck")]) == {3: 9, 4: 1, 5: 0}[n]
    chips = table.tagged("chips")
    assert sum(1 for c in seated for _ in at(chips, seat_point(SCOUT_SEATS, c, 6.5, 4.0))) == n


def test_scout_chips_come_out_of_their_stack_as_players_join(saves):
    table = scout_table(saves, ["White", "Red", "Yellow"])
    [stack] = [o for o in table.tagged("chips") if o.getQuantity() > 1]
    assert stack.getQuantity() == 2  # 3 of the 5 chips taken out
    table.fake.seated = to_lua(table.lua, SCOUT_SEATS)
    table.click("uiScoutSetup", "Blue")
    chips = table.tagged("chips")
    assert len(chips) == 5 and all(c.getQuantity() == -1 for c in chips)  # the stack's last chip is a tile now
    for color in SCOUT_SEATS:
        assert len(at(chips, seat_point(SCOUT_SEATS, color, 6.5, 4.0))) == 1, color
    table.fake.seated = to_lua(table.lua, ["White", "Red"])
    table.click("uiScoutSetup", "Red")
    spare = [c for c in chips if not any(at([c], seat_point(SCOUT_SEATS, s, 6.5, 4.0)) for s in ("White", "Red"))]
    assert len(spare) == 3 and all(abs(inner(c).position.x - 9.0) < 1e-6 for c in spare)  # by the aside pile


def test_scout_setup_pressed_again_while_dealing_is_refused(saves):
    table = FakeTTS(saves["scout"], seated=["White", "Red", "Blue"])
    table.click("uiScoutSetup", "White", settle=False)
    table.click("uiScoutSetup", "Red", settle=False)
    assert "Setup is still under way" in table.broadcasts[-1]
    table.settle()
    assert sum(1 for b in table.broadcasts if b.startswith("Setup:")) == 1
    assert all(len(table.hand_objects(c)) == 12 for c in ("White", "Red", "Blue"))


def test_scout_turn_hand_once_per_round(saves):
    table = scout_table(saves, ["White", "Red", "Blue"])
    before = [(values(c), turned("Red", c)) for c in table.hand_objects("Red")]
    white = [(values(c), turned("White", c)) for c in table.hand_objects("White")]
    table.click("uiScoutTurnHand", "Red", None, "scout_turn_hand")
    after = [(values(c), turned("Red", c)) for c in table.hand_objects("Red")]
    assert after == [(v, not t) for v, t in reversed(before)]
    assert [(values(c), turned("White", c)) for c in table.hand_objects("White")] == white
    assert "Red turned their hand." in table.broadcasts
    table.click("uiScoutTurnHand", "Red")
    assert [(values(c), turned("Red", c)) for c in table.hand_objects("Red")] == after
    assert table.broadcasts[-1] == "You have already turned your hand this round."
    table.click("uiScoutTurnHand", "White")  # another player still can
    assert [(values(c), turned("White", c)) for c in table.hand_objects("White")] == \
        [(v, not t) for v, t in reversed(white)]
    table.reload()  # saved and loaded again: the round still knows who turned
    for color in ("Red", "White"):
        table.click("uiScoutTurnHand", color)
        assert table.broadcasts[-1] == "You have already turned your hand this round."
    table.click("uiScoutSetup", "White")  # a new round allows it again
    before = [(values(c), turned("Red", c)) for c in table.hand_objects("Red")]
    table.click("uiScoutTurnHand", "Red")
    assert [(values(c), turned("Red", c)) for c in table.hand_objects("Red")] == \
        [(v, not t) for v, t in reversed(before)]


def test_scout_turn_hand_with_nothing_in_hand(saves):
    table = FakeTTS(saves["scout"], seated=["White", "Red"])
    table.click("uiScoutTurnHand", "White")
    assert table.broadcasts[-1] == "You have no cards in hand to turn."
    table.click("uiScoutSetup", "White")
    table.click("uiScoutTurnHand", "White")
    assert table.broadcasts[-1] == "White turned their hand."


# --- Scoop: mats, piles and "Count" ---------------------------------------------------------------

PLACE = """
return function(name, color, pile)
  local Piles = use("scoop.piles")
  local deck = nil
  for _, obj in ipairs(getObjectsWithTag("deck")) do
    if obj.type == "Deck" and (deck == nil or obj.getQuantity() > deck.getQuantity()) then deck = obj end
  end
  for _, entry in ipairs(deck.getObjects()) do
    if entry.name == name then
      return deck.takeObject({guid = entry.guid, position = Piles.place(DATA.seats, DATA.layout.seat_radius, color, pile),
                              rotation = {0, 180, 0}})
    end
  end
  error("no card " .. name)
end
"""

RANKS = {"A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
         "8": "Eight", "9": "Nine", "10": "Ten", "J": "Jack", "Q": "Queen", "K": "King"}
SUITS = {"s": "Spades", "h": "Hearts", "d": "Diamonds", "c": "Clubs"}


def card_name(short: str) -> str:
    return f"{RANKS[short[:-1]]} of {SUITS[short[-1]]}"


def scoop_table(saves, seated, piles: dict[str, tuple[list[str], list[str]]], as_deck=()) -> FakeTTS:
    """Seat `seated` and put the cards named in `piles` (colour -> (go, game), e.g. "10c") on the piles;
    the piles of colours in `as_deck` are grouped into one Deck object each."""
    table = FakeTTS(saves["scoop"], seated=seated)
    place = table.lua.execute(PLACE)
    for color, (go, game) in piles.items():
        for pile, cards in (("go", go), ("game", game)):
            objects = [place(card_name(c), color, pile) for c in cards]
            table.settle()  # the cards taken arrive frames later
            if color in as_deck and len(objects) > 1:
                position = objects[0].getPosition()
                [deck] = table.globals.group(table.lua.table_from(objects)).values()
                table.settle()  # a new deck takes a frame to form
                deck.setPosition(position)
    return table


def test_scoop_mats_lie_in_front_of_every_seat(saves):
    table = FakeTTS(saves["scoop"], seated=[])
    mats = table.tagged("mats")
    assert len(mats) == 6
    for color in SCOOP_SEATS:
        [mat] = at(mats, seat_point(SCOOP_SEATS, color, 0, 6.5))
        assert same_angle(inner(mat).rotation.y, upright_y(SCOOP_SEATS, color)) and inner(mat).locked
    state = table.call("onSave")
    for mat in mats:
        mat.setPosition(table.lua.table_from([1, 1, 1]))
    FakeTTS(dict(saves["scoop"], LuaScriptState=state), seated=[])  # a reloaded game keeps its mats


def test_scoop_pile_areas_are_left_and_right_and_never_overlap(saves):
    table = FakeTTS(saves["scoop"], seated=[])
    piles, seating = table.globals.use("scoop.piles"), table.globals.use("lib.seating")
    seats = table.lua.table_from(SCOOP_SEATS)
    for color in SCOOP_SEATS:
        for pile, x in (("go", -2.9), ("game", 2.9)):
            px, pz = seat_point(SCOOP_SEATS, color, x, 6.5)
            assert piles.pile_at(seats, RADIUS, px, pz) == (color, pile)
    assert piles.pile_at(seats, RADIUS, 0, 0) is None  # the draw pile
    for gx in range(-30, 31):
        for gz in range(-30, 31):
            inside = 0
            for i in range(1, 7):
                x, d = seating.offset(i, 6, RADIUS, gx * 0.7, gz * 0.7)
                inside += abs(x) <= 5.5 and 3.5 <= d <= 9.5
            assert inside <= 1, (gx, gz)


def scores(table, colors):
    return {c: int(table.ui_value(f"score_{c}")) for c in colors}


def test_scoop_count_most_go_pile_points_wins(saves):
    # White: Go 10 10 5 = 5, Game K Q A = 3.  Red: Go 7 8 = 2, Game J J J 2 = 2.
    table = scoop_table(saves, ["White", "Red"], {
        "White": (["10c", "10h", "5s"], ["Ks", "Qd", "Ah"]),
        "Red": (["7c", "8d"], ["Jc", "Jd", "Jh", "2s"]),
    }, as_deck=("White",))
    table.click("uiScoopCount", "Red", None, "scoop_count")
    assert scores(table, ["White", "Red"]) == {"White": 3, "Red": 0}
    text = "\n".join(table.broadcasts)
    assert "White has the most Go Pile points (5)." in text
    assert "White wins and scores 3 points from the Game Pile." in text
    assert "Red: Go Pile 2 points, Game Pile 2 points, 3 face cards in both piles." in text
    assert "40 cards are not on anyone's piles yet" in text


def test_scoop_count_tie_break_on_face_cards(saves):
    # Go Pile tie at 3: White 10 3 (1 face card: K), Red 9 8 7 Q (2: Q, J) -> Red wins, scores J 2 A = 1.
    # Blue has the best Game Pile (K K K = 3) but only 1 Go Pile point: nothing.
    table = scoop_table(saves, ["White", "Red", "Blue"], {
        "White": (["10c", "3h"], ["Kd"]),
        "Red": (["9c", "8c", "7c", "Qh"], ["Jd", "2c", "Ad"]),
        "Blue": (["4d"], ["Kc", "Kh", "Ks"]),
    }, as_deck=("Red",))
    for _ in range(4):
        table.click("uiScorePlus", "White", "Blue")
    table.click("uiScoopCount", "White")
    assert scores(table, ["White", "Red", "Blue"]) == {"White": 0, "Red": 1, "Blue": 4}  # added to the score
    text = "\n".join(table.broadcasts)
    assert "Go Pile tie at 3 between White and Red; Red has the most face cards (2)." in text
    assert "Red wins and scores 1 point from the Game Pile." in text


def test_scoop_count_still_tied_everyone_tied_scores(saves):
    table = scoop_table(saves, ["White", "Red", "Yellow"], {
        "White": (["10s"], ["Kh", "As"]),
        "Red": (["5c", "6c"], ["Qs"]),
        "Yellow": (["2d"], ["Jh", "Jc"]),
    })
    table.click("uiScoopCount", "Yellow")
    assert scores(table, ["White", "Red", "Yellow"]) == {"White": 2, "Red": 1, "Yellow": 0}
    assert "so each scores their Game Pile" in "\n".join(table.broadcasts)


def test_scoop_count_only_reads_the_seated_players_piles(saves):
    table = scoop_table(saves, ["White", "Red"], {"White": (["3c"], []), "Red": (["4c"], ["Kc"]),
                                                 "Green": (["10c", "10d"], ["Kh"])})
    table.click("uiScoopCount", "White")
    assert scores(table, ["White", "Red"]) == {"White": 0, "Red": 1}
    assert "Go Pile tie at 1 between White and Red; Red has the most face cards (1)." in "\n".join(table.broadcasts)


def test_scoop_new_game_pressed_again_while_gathering_is_refused(saves):
    table = scoop_table(saves, ["White", "Red"], {"White": (["10c"], ["Kc", "Qc"]), "Red": (["3c"], ["Jc"])})
    table.click("uiScoopNewGame", "White", settle=False)
    table.click("uiScoopNewGame", "Red", settle=False)
    table.click("uiScoopCount", "Red", settle=False)
    assert "New game is still under way" in table.broadcasts[-2] and "Wait a moment" in table.broadcasts[-1]
    table.settle()
    [deck] = main_decks(table)
    assert deck.getQuantity() == 52
    assert sum(1 for b in table.broadcasts if "shuffled the deck" in b) == 1


def test_scoop_count_with_nobody_seated(saves):
    table = FakeTTS(saves["scoop"], seated=[])
    table.click("uiScoopCount", "White")
    assert any("nobody is seated" in b for b in table.broadcasts)


def test_scoop_scores_add_up_over_games_and_a_recount_never_doubles(saves):
    table = scoop_table(saves, ["White", "Red"], {"White": (["10c"], ["Kc", "Qc"]), "Red": (["3c"], ["Jc"])})
    table.click("uiScoopCount", "White")
    assert scores(table, ["White", "Red"]) == {"White": 2, "Red": 0}
    table.click("uiScoopCount", "Red")  # counting the same game again replaces its count
    assert scores(table, ["White", "Red"]) == {"White": 2, "Red": 0}
    table.reload()  # saved and loaded again: the scores, and what this game's Count added to them, are kept
    assert scores(table, ["White", "Red"]) == {"White": 2, "Red": 0}
    table.click("uiScoopCount", "White")  # so counting it again after the reload still replaces its count
    assert scores(table, ["White", "Red"]) == {"White": 2, "Red": 0}
    table.click("uiScoopNewGame", "Red", None, "scoop_new_game")
    [deck] = main_decks(table)
    assert deck.getQuantity() == 52 and (inner(deck).position.x, inner(deck).position.z) == (0, 0) and inner(deck).rotation.z == 180
    assert "shuffle" in table.calls
    place = table.lua.execute(PLACE)
    for name, color, pile in (("Ten of Hearts", "Red", "go"), ("King of Hearts", "Red", "game")):
        place(name, color, pile)
    table.click("uiScoopCount", "White")  # a new game adds to the scores
    assert scores(table, ["White", "Red"]) == {"White": 2, "Red": 1}


# --- Game facts: every number the tables use comes from decks/<game>.yaml ------------------------------

CHANGES = {  # one number (or layout) changed in a copy of each deck
    "skorch": [("deal: {2: 5, 3: 5,", "deal: {2: 5, 3: 4,"), ("back: [down, up, down, up, down]", "back: [up, up, down, down, up]")],
    "scout": [("deal: {2: 11, 3: 12,", "deal: {2: 11, 3: 10,")],
    "scoop": [('game: {A: 1, "2": -1, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 0, "10": 0, J: 1, Q: 1, K: 1}',
               'game: {A: 1, "2": -1, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 0, "10": 0, J: 1, Q: 1, K: 4}')],
}


@pytest.fixture(scope="module")
def changed(tmp_path_factory) -> dict[str, dict]:
    """Each deck built from a copy of its YAML with CHANGES applied (the Lua untouched)."""
    project = tmp_path_factory.mktemp("changed")
    (project / "decks").mkdir()
    shutil.copytree(ROOT / "templates", project / "templates")
    shutil.copytree(ROOT / "tts", project / "tts")
    out = {}
    for deck, edits in CHANGES.items():
        text = (ROOT / "decks" / f"{deck}.yaml").read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) == 1, (deck, old)
            text = text.replace(old, new)
        (project / "decks" / f"{deck}.yaml").write_text(text, encoding="utf-8")
        result = run_cli("build", deck, "--quiet", cwd=project)
        assert result.exit_code == 0, result.stderr
        out[deck] = json.loads((project / "build" / deck / "tts" / f"{deck}.json").read_text(encoding="utf-8"))
    return out


def test_skorch_table_follows_the_prison_layout_and_hand_size_of_the_yaml(changed):
    seated = ["White", "Red", "Blue"]
    table = FakeTTS(changed["skorch"], seated=seated)
    table.click("uiSkorchDeal", "White", None, "skorch_deal")
    for color in seated:
        cells = prison(table, color)
        assert [inner(cells[("back", s)]).rotation.z == 0 for s in range(1, 6)] == [True, True, False, False, True]
        assert len(table.hand(color)) == 4
    assert main_decks(table)[0].getQuantity() == 77 - 14 * 3 - 1
    assert any("a prison of 10 and 4 cards in hand to each of 3 players" in b for b in table.broadcasts)


def test_scout_table_follows_the_deal_of_the_yaml(changed):
    table = scout_table(changed, ["White", "Red", "Blue"])
    assert [len(table.hand_objects(c)) for c in ("White", "Red", "Blue")] == [10, 10, 10]
    assert any("10 cards to each of 3 players, 6 cards stay face down" in b for b in table.broadcasts)


def test_scoop_table_follows_the_points_of_the_yaml(saves, changed):
    piles = {"White": (["10c", "10h", "5s"], ["Ks", "Qd", "Ah"]), "Red": (["7c", "8d"], ["Jc", "2s"])}
    table = scoop_table(saves, ["White", "Red"], piles)
    table.click("uiScoopCount", "Red", None, "scoop_count")
    assert scores(table, ["White", "Red"]) == {"White": 3, "Red": 0}   # K Q A: 1 + 1 + 1
    table = scoop_table(changed, ["White", "Red"], piles)
    table.click("uiScoopCount", "Red", None, "scoop_count")
    assert scores(table, ["White", "Red"]) == {"White": 6, "Red": 0}   # K is worth 4 in the copy
