"""The SCORE! referee in TTS: tts/score/table.lua (TTS layer) and tts/score/referee.lua (pure glue) running in
the real Global script of the built save, under Lua 5.2 (lupa) against the fake TTS API."""

from __future__ import annotations

import hashlib
import json
import math
import random
import re
import shutil
import xml.etree.ElementTree as ET

import lupa.lua52 as lua52
import pytest

from conftest import ROOT, run_cli
from deckpress.builders.tts.lua import sandbox_problems
from helpers.fake_tts import FakeTTS, inner, timing, to_lua, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.lua_modules import modules, runtime
from helpers.score_lua import ScoreLua
from helpers.score_table import FACE_DOWN, place, select_mode, take, target

DECK = "score"
SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]


@pytest.fixture(scope="module")
def save(shipped) -> dict:
    return shipped(DECK)[0]


def pad(table, color) -> int:
    return int(table.ui_value(f"score_{color}"))


def state(table) -> dict:
    return to_py(table.globals.GAME.state())


ENGINE = ScoreLua()  # tts/score/engine.lua through lupa, with the deck's data
CARDS = {c["name"]: c for c in ENGINE.cards.values()}


# --- the pieces -------------------------------------------------------------------------------------------

def test_table_lua_fits_the_sandbox():
    for name in ("table.lua", "referee.lua"):
        assert sandbox_problems((ROOT / "tts" / "score" / name).read_text(encoding="utf-8")) == [], name


def test_panel_parses_and_its_handlers_exist(save, table_of):
    root = ET.fromstring(f"<root>{save['XmlUI']}</root>")
    panel = root.find(".//Panel[@id='score_referee']")
    assert panel is not None
    handlers = {re.match(r"\w+", e.get("onClick")).group() for e in panel.iter() if e.get("onClick")}
    assert handlers == {"scoreModePrev", "scoreModeNext", "scoreReveal", "scoreScore", "scoreTarget", "scoreNewGame",
                        "scoreTeam", "scoreKeep"}
    assert {e.get("id") for e in panel.iter()} >= {f"score_target_{c}" for c in SEATS}
    table = table_of(["White"])
    for name in handlers:
        assert lua52.lua_type(table.globals[name]) == "function", name


def test_slots_are_drawn_in_front_of_each_seated_hand_left_to_right(table_of):
    table = table_of(["White", "Red", "Green"])
    points = to_py(table.globals.Global.getSnapPoints())
    lines = to_py(table.globals.Global.getVectorLines())
    assert len(points) == 3 * 3 + 1 and len(lines) == 9  # three slots per seated player, plus the discard pile
    game = table.globals.GAME
    for color in ("White", "Red", "Green"):
        hand = to_py(table.player(color).getHandTransform())
        right, forward, centre = hand["right"], hand["forward"], hand["position"]
        along, depth = [], []
        for k in (1, 2, 3):
            p = to_py(game.slot_position(color, k))
            dx, dz = p[0] - centre["x"], p[2] - centre["z"]
            along.append(dx * right["x"] + dz * right["z"])
            depth.append(dx * forward["x"] + dz * forward["z"])
        assert along[0] < along[1] < along[2]         # slot 1 is the player's leftmost
        assert all(abs(d - 5.8) < 1e-3 for d in depth)  # in front of the hand zone (depth 4.87 / 2 + a card and a gap)
    white = to_py(game.slot_position("White", 1))
    assert white[0] < 0 and white[2] < 0              # White sits south: left is -x


# --- modes and Get ready! ---------------------------------------------------------------------------------

def modes_offered(table):
    seen = []
    for _ in range(15):
        name = table.ui_value("score_mode")
        if name in seen:
            break
        seen.append(name)
        table.click("scoreModeNext", "White")
    return seen


def test_mode_selector_offers_what_the_seated_count_allows(table_of):
    two = modes_offered(table_of(["White", "Red"]))
    assert two == ["Classic!", "Brutal!", "Duel!", "Teamwork!", "Teamscore!", "New order!", "Randomness!", "Decking!"]
    three = modes_offered(table_of(["White", "Red", "Blue"]))
    assert "Duel!" not in three and len(three) == 7
    solo = modes_offered(table_of(["White"]))
    assert solo == ["Classic!", "Scorlitaire!", "Scorliroad!", "Score Against!"][:1] + solo[1:] and \
        set(solo[1:]) == {"Scorlitaire!", "Scorliroad!", "Score Against!"}


def test_classic_get_ready_deals_15_each_to_two(table_of):
    table = table_of(["White", "Red"])
    table.click("uiGetReady", "White")
    assert len(table.hand("White")) == 15 and len(table.hand("Red")) == 15
    assert any("Classic! Get ready! 15 cards to each of 2 players" in b for b in table.broadcasts)


def test_duel_deals_six_each_from_nineteen_cards(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Duel!")
    table.click("uiGetReady", "Red")
    assert len(table.hand("White")) == 6 and len(table.hand("Red")) == 6
    [deck] = [o for o in table.tagged("deck") if o.type == "Deck"]
    assert deck.getQuantity() == 19 - 12
    dealt = table.hand("White") + table.hand("Red") + [e.name for e in deck.getObjects().values()]
    assert not {"CW!", "CCW!", "Score! 4", "Score! 5", "Score! 6", "Bomb! 1", "Bomb! 2", "Bomb! 3"} & set(dealt)
    assert any("23 cards set aside" in b for b in table.broadcasts)


def test_randomness_has_six_slots_per_roster(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Randomness!")
    assert len(to_py(table.globals.Global.getSnapPoints())) == 2 * 6 + 1
    table.click("uiGetReady", "White")
    assert len(table.hand("White")) == 15


def test_decking_gives_each_player_a_full_deck_and_get_ready_again_clears_the_copies(table_of):
    table = table_of(["White", "Red", "Blue"])
    select_mode(table, "Decking!")
    for _ in range(2):
        table.click("uiGetReady", "White")
        decks = [o for o in table.objects() if o.type == "Deck" and o.getQuantity() == 42 - 8]
        assert len(decks) == 3
        assert [len(table.hand(c)) for c in ("White", "Red", "Blue")] == [8, 8, 8]   # the first draw of 8
        copies = [o for o in decks if o.hasTag("score:copy")]
        assert len(copies) == 2 and not any(o.hasTag("deck") for o in copies)
    assert len([o for o in table.objects() if o.type == "Deck"]) == 3


def hand_objects(table, color):
    return sorted((o for o in table.objects() if o.type == "Card" and inner(o).hand == color), key=lambda o: o.getGUID())


def keep(table, color, slot, settle=True):
    """Lay the first card of color's hand face down in roster slot `slot`, then press Keep."""
    card = hand_objects(table, color)[0]
    card.setPosition(table.globals.GAME.slot_position(color, slot))
    card.setRotation(table.lua.table_from([0, 0, FACE_DOWN]))
    table.click("scoreKeep", color, settle=settle)
    return card


def own_cards(table, color):
    """Cards of color's own deck wherever they are (a copy's tag, or the main deck's for the first player)."""
    tag = "deck" if color == "White" else "score:copy"
    return sum(o.getQuantity() if o.type == "Deck" else 1 for o in table.objects() if o.hasTag(tag))


def test_decking_draw_eight_keep_one_rest_to_the_graveyard_for_each_slot(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Decking!")
    table.click("uiGetReady", "White")
    wrong = hand_objects(table, "Red")[0]
    wrong.setPosition(table.globals.GAME.slot_position("Red", 1))
    table.click("scoreKeep", "Red")                 # the right end first
    assert "put one card of your draw face down in roster slot 3" in table.broadcasts[-1]
    wrong.setPosition(table.globals.GAME.slot_position("Red", 3))
    table.click("scoreKeep", "Red")
    assert len(table.hand("Red")) == 8 and len(table.hand("White")) == 8
    referee = table.globals.use("score.referee")
    grave = to_py(referee.graveyard_position(table.globals.DATA, "Red", 3))
    graveyard = [o for o in table.objects() if o.type == "Card" and near(o, grave, 0.5)]
    assert len(graveyard) == 7 and all(o.getRotation().z == 0 for o in graveyard)   # face up
    keep(table, "Red", 2)
    keep(table, "Red", 1)
    assert table.hand("Red") == [] and any("the roster is full" in b for b in table.broadcasts)
    assert len([o for o in table.objects() if o.type == "Card" and near(o, grave, 0.5)]) == 21
    assert own_cards(table, "Red") == 42 and own_cards(table, "White") == 42        # no card created or lost
    [deck] = [o for o in table.objects() if o.type == "Deck" and o.hasTag("score:copy")]
    assert deck.getQuantity() == 42 - 24
    table.click("scoreKeep", "Red")
    assert "your roster is full" in table.broadcasts[-1]
    for slot in (3, 2, 1):
        keep(table, "White", slot)
    table.click("scoreScore", "White")              # both rosters full: an action turn, no Bug!
    assert not any("Bug!" in b for b in table.broadcasts) and state(table)["round"]["turn"] == 1


def test_keep_pressed_twice_at_once_keeps_once(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Decking!")
    table.click("uiGetReady", "White")
    keep(table, "White", 3, settle=False)
    table.click("scoreKeep", "White", settle=False)
    assert "Keep is still under way" in table.broadcasts[-1]
    table.settle()
    assert len(table.hand("White")) == 8 and to_py(state(table)["kept"]) == {"White": 1}


def test_team_modes_alternate_teams_round_the_table(table_of):
    table = table_of(["White", "Red", "Yellow", "Green"])
    select_mode(table, "Teamwork!")
    table.click("uiGetReady", "White")
    assert any("Teams: White T1, Red T2, Yellow T1, Green T2" in b for b in table.broadcasts)
    assert table.ui_value("score_team_Red") == "T2"


def test_players_choose_the_teams_and_get_ready_keeps_team_mates_apart(table_of):
    table = table_of(["White", "Red", "Yellow", "Green"])
    select_mode(table, "Teamwork!")
    table.click("scoreTeam", "Red", "Red")
    table.click("scoreTeam", "Yellow", "Yellow")    # White T1, Red T1, Yellow T2, Green T2: side by side
    assert [table.ui_value(f"score_team_{c}") for c in ("White", "Red", "Yellow", "Green")] == ["T1", "T1", "T2", "T2"]
    table.click("uiGetReady", "White")
    assert any("side by side" in b for b in table.broadcasts) and table.hand("White") == []
    table.click("scoreTeam", "Red", "Red")
    table.click("scoreTeam", "Green", "Green")      # White T1, Red T2, Yellow T2, Green T1: still two pairs
    table.click("uiGetReady", "White")
    assert table.hand("White") == []
    table.click("scoreTeam", "Yellow", "Yellow")
    table.click("scoreTeam", "Green", "Green")      # back to alternating: dealt
    table.click("uiGetReady", "White")
    assert len(table.hand("White")) == 9
    assert any("Teams: White T1, Red T2, Yellow T1, Green T2" in b for b in table.broadcasts)
    table.click("scoreTeam", "Red", "Red")          # fixed once the game runs
    place(table, "White", ["Score! 3"] * 3)
    for color, card in (("Red", "Score! 4"), ("Yellow", "Score! 5"), ("Green", "Score! 6")):
        place(table, color, [card] * 3)
    table.click("scoreScore", "White")
    table.click("scoreTeam", "Red", "Red")
    assert "the teams are fixed during a game" in table.broadcasts[-1]


@pytest.mark.parametrize("lineup,ok", [(["T1", "T2", "T2"], True), (["T1", "T1", "T1"], False),
                                       (["T1", "T2", "T1", "T2", "T2"], True), (["T1", "T1", "T2", "T2", "T2"], False),
                                       (["T2", "T1", "T1", "T2", "T1"], True)])
def test_clause_21_odd_team_splits_allow_the_forced_pair(save, lineup, ok):
    seated = SEATS[:len(lineup)]
    table = FakeTTS(save, seated=seated)
    select_mode(table, "Teamscore!")
    for color, team in zip(seated, lineup):
        if table.ui_value(f"score_team_{color}") != team:
            table.click("scoreTeam", color, color)
    assert [table.ui_value(f"score_team_{c}") for c in seated] == lineup
    table.click("uiGetReady", seated[0])
    assert (len(table.hand(seated[0])) > 0) == ok, table.broadcasts[-3:]


def test_reveal_warns_of_a_target_that_cannot_be_targeted(table_of):
    table = table_of(["White", "Red", "Blue"])
    place(table, "White", ["Fire! 2", "Score! 3", "Score! 3"])
    place(table, "Red", ["No!", "Score! 4", "Score! 4"])
    place(table, "Blue", ["Double!", "Score! 5", "Score! 5"])
    target(table, "White", "Red")
    target(table, "Blue", "Blue")
    table.click("scoreReveal", "White")
    warnings = [b for b in table.broadcasts if "cannot be targeted" in b]
    assert warnings == ["White's Fire! 2 targets Red, who plays No! and cannot be targeted: it will have no "
                        "effect; choose another target"]


def test_mode_cannot_change_during_a_game(table_of):
    table = table_of(["White", "Red"])
    place(table, "White", ["Score! 3", "Score! 3", "Score! 3"])
    place(table, "Red", ["Score! 4", "Score! 4", "Score! 4"])
    table.click("scoreScore", "White")
    table.click("scoreModeNext", "White")
    assert table.ui_value("score_mode") == "Classic!"
    assert any("press New game" in b for b in table.broadcasts)
    table.click("scoreNewGame", "White")
    table.click("scoreModeNext", "White")
    assert table.ui_value("score_mode") == "Brutal!"


# --- SCORE! -------------------------------------------------------------------------------------------------

def test_score_five_against_fire_two_on_him(table_of):
    table = table_of(["White", "Red"])
    table.click("uiGetReady", "White")
    [five] = place(table, "White", ["Score! 5"])
    place(table, "White", ["Score! 1", "Score! 2"], start=2)
    [fire] = place(table, "Red", ["Fire! 2"])
    place(table, "Red", ["Score! 2", "Score! 3"], start=2)
    target(table, "Red", "White")
    table.click("scoreScore", "Red")
    # Score! 5 (priority 4): White 5; Fire! 2 (7) x 1 adversary: White 3
    assert table.ui_value("score_run_White") == "3" and table.ui_value("score_run_Red") == "0"
    assert any("Red: Fire! 2 on White" in b for b in table.broadcasts)
    for obj in (five, fire):  # turned face up and on the discard pile
        assert obj.getRotation().z == 0
        p = obj.getPosition()
        assert (round(p.x, 3), round(p.z, 3)) == (-4.0, 0.0)
    assert pad(table, "White") == 0  # saved only at the end of the round


def test_auto_targets_double_yourself_and_fire_the_leader(table_of):
    table = table_of(["White", "Red", "Blue"])
    place(table, "White", ["Score! 6", "Double!", "Score! 2"])
    place(table, "Red", ["Score! 3", "Fire! 1", "Score! 2"])
    place(table, "Blue", ["Score! 4", "Score! 4", "Score! 5"])
    table.click("scoreScore", "White")   # White 6, Red 3, Blue 4
    table.click("scoreScore", "White")   # Blue 8; Double! on White: 12; Fire! 1 x 2 on the leader (White): 10
    assert [table.ui_value(f"score_run_{c}") for c in ("White", "Red", "Blue")] == ["10", "3", "8"]
    assert any("White: Double! on White" in b and "Red: Fire! 1 on White" in b for b in table.broadcasts)


def test_a_full_round_of_three_action_turns_saves_the_scores(table_of):
    table = table_of(["White", "Red"])
    table.click("uiGetReady", "White")
    place(table, "White", ["Score! 5", "Double!", "Score! 2"])
    place(table, "Red", ["Fire! 2", "Score! 3", "Bomb! 1"])
    for _ in range(3):
        table.click("scoreScore", "White")
    # 1: White 5 - 2 = 3. 2: Score! 3 (4) then Double! (5): White 6, Red 3. 3: Bomb! 1 (6), Score! 2 (8): White 7.
    assert (pad(table, "White"), pad(table, "Red")) == (7, 3)
    expected = ENGINE.resolve_round(
        {"totals": [0, 0]},
        [[{"card": CARDS["Score! 5"], "target": None}, {"card": CARDS["Double!"], "target": 0},
          {"card": CARDS["Score! 2"], "target": None}],
         [{"card": CARDS["Fire! 2"], "target": 0}, {"card": CARDS["Score! 3"], "target": None},
          {"card": CARDS["Bomb! 1"], "target": None}]], {})
    assert expected["totals"] == [7, 3]
    assert any("Round 1 over. Totals: White 7, Red 3" in b for b in table.broadcasts)
    assert state(table)["rounds"] == 1 and not state(table)["round"]
    assert table.ui_value("score_status") == "Round 2: Get ready!"


def test_classic_round_score_is_floored_at_zero(table_of):
    table = table_of(["White", "Red"])
    place(table, "White", ["Fire! 3", "Fire! 3", "Fire! 3"])
    place(table, "Red", ["Score! 1", "Score! 2", "Score! 2"])
    for _ in range(3):
        table.click("scoreScore", "White")
    assert (pad(table, "White"), pad(table, "Red")) == (0, 0)  # Red: 1 - 3 + 2 - 3 + 2 - 3 = -4 -> 0


MODE_SEATS = {"Classic!": 3, "Brutal!": 2, "Duel!": 2, "Teamwork!": 4, "Teamscore!": 4, "New order!": 3,
              "Randomness!": 2, "Decking!": 3, "Scorlitaire!": 1, "Scorliroad!": 1, "Score Against!": 1}


def main_cards(table) -> int:
    return sum(o.getQuantity() if o.type == "Deck" else 1 for o in table.objects() if o.hasTag("deck"))


@pytest.mark.parametrize("mode", MODE_SEATS)
def test_get_ready_twice_in_every_mode_keeps_every_card(save, mode):
    seated = SEATS[:MODE_SEATS[mode]]
    table = FakeTTS(save, seated=seated)
    select_mode(table, mode)
    for who in (seated[0], seated[-1]):
        table.click("uiGetReady", who)
        assert main_cards(table) == 42
        assert state(table)["players"] == seated
    assert not [b for b in table.broadcasts if "did not finish" in b or "still under way" in b]
    copies = sum(o.getQuantity() if o.type == "Deck" else 1 for o in table.objects() if o.hasTag("score:copy"))
    assert copies == (42 * (len(seated) - 1) if mode == "Decking!" else 0)   # every player's whole deck


def test_a_short_roster_is_a_bug(table_of):
    table = table_of(["White", "Red", "Blue"])
    place(table, "White", ["Score! 6", "Score! 6", "Score! 6"])
    place(table, "Red", ["Score! 5", "Score! 5"])
    place(table, "Blue", ["Score! 4", "Score! 4", "Score! 4"])
    table.click("scoreScore", "White")
    assert any("Bug!" in b and "Red score -20" in b for b in table.broadcasts)
    assert (pad(table, "White"), pad(table, "Red"), pad(table, "Blue")) == (0, -20, 0)
    assert state(table)["rounds"] == 1


def test_a_card_dropped_onto_another_in_a_slot_is_two_cards_a_long_roster(table_of):
    """In TTS a card dropped onto another forms a Deck: the referee counts both, so Red's roster is long."""
    table = table_of(["White", "Red", "Blue"])
    place(table, "White", ["Score! 6", "Score! 6", "Score! 6"])
    [_, second, _] = place(table, "Red", ["Score! 5", "Score! 5", "Score! 5"])
    place(table, "Blue", ["Score! 4", "Score! 4", "Score! 4"])
    extra = take(table, "Score! 1")
    table.settle()
    [pile] = table.globals.group(table.lua.table_from([second, extra])).values()
    table.settle()
    pile.setPosition(table.globals.GAME.slot_position("Red", 2))
    assert pile.type == "Deck" and pile.getQuantity() == 2
    table.click("scoreScore", "White")
    assert "Red's roster slot 2 holds more than one card" in table.broadcasts
    assert any(b.startswith("Bug!") and "Red score -" in b for b in table.broadcasts), table.broadcasts
    assert pad(table, "Red") < 0 and pad(table, "White") == pad(table, "Blue") == 0


def test_drawing_the_outlines_keeps_the_lines_players_drew(table_of):
    table = table_of(["White", "Red"])
    drawn = {"points": [[1, 1, 1], [4, 1, 2], [6, 1, -3]], "color": [0.2, 0.6, 1], "thickness": 0.1}
    lines = to_py(table.globals.Global.getVectorLines())
    assert len(lines) == 6
    table.globals.Global.setVectorLines(to_lua(table.lua, lines + [drawn]))
    table.fake.seated = to_lua(table.lua, ["White", "Red", "Blue"])
    table.call("onPlayerChangeColor", "Blue")  # the outlines are drawn again, for three players now
    after = to_py(table.globals.Global.getVectorLines())
    assert len(after) == 9 + 1 and after.count(drawn) == 1
    select_mode(table, "Randomness!")  # six slots each
    after = to_py(table.globals.Global.getVectorLines())
    assert len(after) == 3 * 6 + 1 and after.count(drawn) == 1


def test_leaving_score_against_takes_its_virtual_roster_outlines_away(table_of):
    table = against_table(table_of)
    drawn = {"points": [[1, 1, 1], [4, 1, 2]], "color": [0.2, 0.6, 1], "thickness": 0.1}
    lines = to_py(table.globals.Global.getVectorLines())
    assert len(lines) == 3 + 9
    table.globals.Global.setVectorLines(to_lua(table.lua, lines + [drawn]))
    table.click("scoreModeNext", "White")
    after = to_py(table.globals.Global.getVectorLines())
    assert table.ui_value("score_mode") != "Score Against!" and after.count(drawn) == 1
    assert all(line["color"] == [1, 1, 1] for line in after if line != drawn)  # the red virtual outlines are gone


def test_score_pressed_again_while_the_cards_move_is_refused(table_of):
    table = table_of(["White", "Red"])
    place(table, "White", ["Score! 3", "Score! 2", "Score! 4"])
    place(table, "Red", ["Score! 4", "Score! 3", "Score! 2"])
    table.settle()
    table.click("scoreScore", "White", settle=False)
    table.click("scoreScore", "Red", settle=False)
    table.click("scoreNewGame", "Red", settle=False)
    assert "SCORE! is still under way" in table.broadcasts[-2] and "Wait a moment" in table.broadcasts[-1]
    table.settle()
    assert state(table)["round"]["turn"] == 1  # one action turn, not two


def test_brutal_keeps_running_totals_above_zero(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Brutal!")
    place(table, "White", ["Score! 4", "Score! 2", "Score! 3"])
    place(table, "Red", ["Fire! 3", "Fire! 3", "Score! 2"])
    target(table, "Red", "White")
    for _ in range(3):
        table.click("scoreScore", "White")
    # White 4 - 3 = 1, then 1 - 3 -> 0 (floor after every step) + 2 = 2, then + 3 = 5; Red 2
    assert (pad(table, "White"), pad(table, "Red")) == (5, 2)


def test_first_to_fifty_wins(table_of):
    table = table_of(["White", "Red"], state="White=45;Red=10")
    place(table, "White", ["Score! 6", "Score! 2", "Score! 3"])
    place(table, "Red", ["Score! 3", "Score! 4", "Score! 5"])
    for _ in range(3):
        table.click("scoreScore", "White")
    assert (pad(table, "White"), pad(table, "Red")) == (56, 22)
    assert any("White wins with 56 points" in b for b in table.broadcasts)
    assert state(table)["over"] is True
    table.click("scoreScore", "White")
    assert table.broadcasts[-1].startswith("White: the game is over")   # a refusal names its seat


def test_a_tie_plays_one_more_round_between_the_tied(table_of):
    table = table_of(["White", "Red", "Blue"], state="White=47;Red=47;Blue=10")
    place(table, "White", ["Score! 3", "Score! 4", "Score! 5"])
    place(table, "Red", ["Score! 5", "Score! 4", "Score! 3"])
    place(table, "Blue", ["Score! 6", "Score! 6", "Score! 6"])
    for _ in range(3):
        table.click("scoreScore", "White")
    assert any("Tie at 59 between White and Red" in b for b in table.broadcasts)
    assert state(table)["contenders"] == ["White", "Red"]
    table.click("uiGetReady", "White")  # deals only to the contenders
    assert len(table.hand("White")) == 15 and table.hand("Blue") == []
    place(table, "White", ["Score! 6", "Score! 5", "Score! 4"])
    place(table, "Red", ["Score! 5", "Score! 4", "Score! 2"])
    for _ in range(3):
        table.click("scoreScore", "White")
    assert (pad(table, "White"), pad(table, "Red"), pad(table, "Blue")) == (74, 70, 28)
    assert any("White wins with 74 points" in b for b in table.broadcasts)


def test_teamscore_pools_the_team_scores(table_of):
    table = table_of(["White", "Red", "Yellow", "Green"])
    select_mode(table, "Teamscore!")
    table.click("uiGetReady", "White")
    place(table, "White", ["Score! 5", "Score! 6", "Score! 6"])
    place(table, "Red", ["Bomb! 1", "Score! 6", "Score! 6"])
    place(table, "Yellow", ["Score! 3", "Score! 5", "Score! 5"])
    place(table, "Green", ["Score! 4", "Score! 4", "Score! 4"])
    table.click("scoreScore", "White")
    # team 1 (White, Yellow): 5 + 3 - 2 x 1 (Bomb! hits two opponents) = 6; team 2 (Red, Green): 4
    assert table.ui_value("score_run_White") == "6" == table.ui_value("score_run_Yellow")
    assert table.ui_value("score_run_Red") == "4"
    for _ in range(2):
        table.click("scoreScore", "White")
    # turns 2 and 3: team 1 + 6 + 5 twice = 28, team 2 + 6 + 4 twice = 24
    assert pad(table, "White") == 28 == pad(table, "Yellow") and pad(table, "Green") == 24 == pad(table, "Red")
    assert any("team 1 (White, Yellow) 28" in b for b in table.broadcasts)


def dice_of(table):
    line = [b for b in table.broadcasts if b.startswith("Dice")][-1]
    return [int(d) for d in re.findall(r"\w+ (\d+)", line.split(":", 1)[1])]


def test_new_order_rolls_dice_and_resolves_by_them(table_of):
    table = table_of(["White", "Red", "Blue"])
    select_mode(table, "New order!")
    rosters = {"White": ["Score! 2", "Double!", "Score! 1"], "Red": ["Fire! 1", "Score! 3", "Score! 3"],
               "Blue": ["Score! 4", "Bomb! 1", "Score! 2"]}
    for color, cards in rosters.items():
        place(table, color, cards)
    for color in rosters:
        target(table, color, "White")
    table.click("scoreReveal", "White")
    dice = dice_of(table)
    table.click("scoreScore", "White")
    assert dice_of(table) == dice  # SCORE! uses the dice Reveal rolled
    expected = ENGINE.resolve_action_turn(
        {"scores": [0, 0, 0], "dice": dice},
        [{"card": CARDS[cards[0]], "target": 0} for cards in rosters.values()], {"order": "dice"})
    assert [int(table.ui_value(f"score_run_{c}")) for c in rosters] == expected["scores"]


def test_randomness_dice_pick_the_cards_which_stay(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Randomness!")
    rosters = {"White": ["Score! 1", "Score! 2", "Score! 3", "Score! 4", "Score! 5", "Score! 6"],
               "Red": ["Score! 6", "Score! 5", "Score! 4", "Score! 3", "Score! 2", "Score! 6"]}
    placed = {color: place(table, color, cards) for color, cards in rosters.items()}
    totals = {"White": 0, "Red": 0}
    for turn in range(3):
        table.click("scoreScore", "White")
        dice = dice_of(table)
        assert all(1 <= d <= 6 for d in dice)
        for color, die in zip(rosters, dice):
            totals[color] += CARDS[rosters[color][die - 1]]["effect"][0]["add"]
        if turn == 0:  # the whole roster turned face up, nothing discarded
            assert all(o.getRotation().z == 0 for objs in placed.values() for o in objs)
    assert (pad(table, "White"), pad(table, "Red")) == (totals["White"], totals["Red"])
    p = placed["White"][0].getPosition()
    assert (round(p.x, 3), round(p.z, 3)) == tuple(round(v, 3) for v in to_py(
        table.globals.GAME.slot_position("White", 1))[::2])


def test_deny_on_a_chosen_target(table_of):
    table = table_of(["White", "Red", "Blue"])
    place(table, "White", ["Deny!", "Score! 2", "Score! 2"])
    place(table, "Red", ["Score! 6", "Score! 3", "Score! 3"])
    place(table, "Blue", ["Score! 5", "Score! 4", "Score! 4"])
    target(table, "White", "Blue")
    table.click("scoreScore", "White")
    assert [table.ui_value(f"score_run_{c}") for c in ("White", "Red", "Blue")] == ["0", "6", "0"]
    assert any("Blue: Score! 5 (denied)" in b for b in table.broadcasts)


def test_state_survives_save_and_load(table_of):
    table = table_of(["White", "Red"])
    select_mode(table, "Brutal!")
    place(table, "White", ["Score! 6", "Score! 3", "Score! 3"])
    place(table, "Red", ["Score! 2", "Score! 4", "Score! 4"])
    target(table, "Red", "White")
    table.click("scoreScore", "White")
    saved = table.call("onSave")
    before = state(table)
    again = table_of(["White", "Red"], state=saved)
    assert state(again) == before
    assert again.ui_value("score_mode") == "Brutal!" and again.ui_value("score_target_Red") == "White"
    assert again.ui_value("score_status") == "Round 1, action turn 2"
    place(again, "White", ["Score! 3", "Score! 3"], start=2)
    place(again, "Red", ["Score! 4", "Score! 4"], start=2)
    again.click("scoreScore", "White")
    again.click("scoreScore", "White")
    assert (pad(again, "White"), pad(again, "Red")) == (12, 10)


def test_a_press_is_played_on_a_copy_and_a_refused_one_changes_nothing(table_of):
    table = table_of(["White", "Red"])
    place(table, "White", ["Score! 6", "Score! 3", "Score! 3"])
    place(table, "Red", ["Score! 2", "Score! 4", "Score! 4"])
    game, before = table.globals.GAME.state(), state(table)
    table.click("scoreScore", "White")
    assert to_py(game) == before and state(table)["round"]["turn"] == 1      # the state pressed on is kept
    for o in table.objects():
        if o.type == "Card":
            o.setPosition(table.lua.table_from([0.0, 1.0, 0.0]))               # every roster emptied
    table.click("scoreScore", "Red")
    after = state(table)
    table.click("scoreScore", "Red")
    assert state(table) == after and table.broadcasts[-1].startswith("Red: no card lies in a roster slot")


def test_damaged_state_starts_a_fresh_game(table_of):
    table = table_of(["White", "Red"], state="White=3\n--game state--\n{S4:mode")
    assert table.ui_value("score_mode") == "Classic!" and pad(table, "White") == 3


def test_state_codec_round_trips(table_of):
    table = table_of(["White"])
    saved = table.globals.use("lib.saved")
    value = table.lua.execute('return {a = 1, b = "x:y}{S3", c = {1, 2.5, -3, true, false}, [4] = {}, [7] = 0}')
    back = saved.decode(saved.encode(value))
    assert to_py(back) == to_py(value)
    assert saved.decode("") is None and saved.decode("{N1;") is None
    with pytest.raises(Exception, match="cannot save a function"):
        saved.encode(table.lua.execute("return {f = print}"))


# --- the referee against the engine's whole round ------------------------------------------------------------

def test_turn_by_turn_refereeing_matches_the_engines_resolve_round(table_of):
    """Random rosters (sometimes a short one: Bug!) and fixed targets, resolved turn by turn by the referee
    from synthetic slot contents, give the totals of the Python engine's resolve_round."""
    table = table_of(SEATS)
    referee = table.globals.use("score.referee")
    data = table.globals.DATA
    names = sorted(CARDS)
    rng = random.Random(6)
    for mode in ("classic", "brutal", "duel", "teamwork", "teamscore"):
        options = mode
        for trial in range(25):
            n = 2 if mode == "duel" else rng.randint(2, 6)
            players = SEATS[:n]
            st = referee.new_state(data, 7)
            st.mode = mode
            totals = [rng.randint(0, 30) for _ in players]
            pad = table.lua.table_from(dict(zip(players, totals)))
            targets = [rng.randrange(n) for _ in players]
            st.targets = table.lua.table_from({c: players[t] for c, t in zip(players, targets)})
            rosters, py_rosters = {}, []
            for s, color in enumerate(players):
                size = 3 if rng.random() > 0.1 else 2
                cards = [rng.choice(names) for _ in range(size)]
                rosters[color] = table.lua.table_from(
                    [table.lua.table_from({"guid": f"{color}{k}", "id": CARDS[c]["id"], "y": 1}) for k, c in
                     enumerate(cards)] + [False] * (3 - size))
                py_rosters.append([{"card": CARDS[c], "target": targets[s]} for c in cards])
            teams = [s % 2 for s in range(n)]
            opts = ENGINE.mode_options(options)
            start = totals if opts["teams"] != "pooled" else [0, 0]
            expected = ENGINE.resolve_round({"totals": start, "teams": teams}, py_rosters, options)
            seated = table.lua.table_from(players)
            out = None
            for turn in range(3):
                lua_rosters = {}
                for color in players:
                    slots = [rosters[color][k] for k in range(1, 4)]
                    lua_rosters[color] = table.lua.table_from(
                        [False] * turn + slots[turn:]) if opts["discard"] else rosters[color]
                out = referee.score(data, st, seated, table.lua.table_from(lua_rosters), pad)
                assert out is not None
                if out.round_over:
                    break
            got = to_py(out.pad)
            if opts["teams"] == "pooled":
                assert [st.team_totals[1], st.team_totals[2]] == expected["totals"], (mode, trial)
            else:
                assert [got[c] for c in players] == expected["totals"], (mode, trial)


# --- data-driven: every game fact comes from the YAML; a new card needs no Lua ------------------------------

CHANGES = [  # (what decks/score.yaml says, what the copy says)
    ("deal: {2: 15, 3: 12, 4: 9, 5: 8, 6: 7}", "deal: {2: 15, 3: 10, 4: 9, 5: 8, 6: 7}"),
    ("        priority: 5\n        target: true\n        effect: [{who: target, multiply: 2}]",
     "        priority: 9\n        target: true\n        effect: [{who: target, multiply: 3}]"),
    ("    bug_penalty: 20", "    bug_penalty: 5"),
    ("    fields:\n      kind:", "    fields: &fields\n      kind:"),
    ("  - id: reminders\n", """\
  - id: extras
    name: SCORE! extra cards
    optional: true   # a separate deck beside the 42 cards; lay one in a roster to play it
    template: score-card
    back: score-back
    fields: *fields
    cards:
      - name: Steal! 2
        kind: steal
        value: 2
        priority: 6.5
        target: true
        effect: [{take: 2, from: target, to: you}]
        text: Target a player. The target loses 2 points and you score 2.
      - name: Swap!
        kind: swap
        priority: 5.5
        target: true
        effect: [{who: you, set: {score_of: target}}, {who: target, set: {score_of: you}}]
        text: Target a player. You and the target swap your round scores.

  - id: reminders
"""),
]


@pytest.fixture(scope="module")
def changed_save(tmp_path_factory) -> dict:
    """A copy of the SCORE! project whose deck changes a few numbers and adds two cards, Steal! 2 and Swap!
    (CHANGES, YAML only); built once. Returns the save and the build folder."""
    project = tmp_path_factory.mktemp("changed")
    yaml = (ROOT / "decks" / "score.yaml").read_text(encoding="utf-8")
    for old, new in CHANGES:
        assert yaml.count(old) == 1, old
        yaml = yaml.replace(old, new)
    (project / "decks").mkdir()
    (project / "decks" / "score.yaml").write_text(yaml, encoding="utf-8")
    shutil.copytree(ROOT / "templates", project / "templates")
    shutil.copytree(ROOT / "tts", project / "tts")
    result = run_cli("build", "score", "--quiet", cwd=project)
    assert result.exit_code == 0, result.stderr
    return json.loads((project / "build/score/tts/score.json").read_text(encoding="utf-8")), project / "build/score"


def test_the_table_follows_the_numbers_of_the_yaml(changed_save):
    table = FakeTTS(changed_save[0], seated=["White", "Red", "Blue"])
    table.click("uiGetReady", "White")
    assert [len(table.hand(c)) for c in ("White", "Red", "Blue")] == [10, 10, 10]   # setup.deal: 3 -> 10
    assert any("10 cards to each of 3 players" in b for b in table.broadcasts)
    for color in ("White", "Red", "Blue"):
        for obj in [o for o in table.objects() if o.type == "Card" and inner(o).hand == color]:
            obj.setPosition(table.lua.table_from([0, 3, -30]))  # hands back, out of the way
    table.settle()
    place(table, "White", ["Score! 2", "Score! 3", "Score! 3"])
    place(table, "Red", ["Double!", "Score! 4", "Score! 4"])
    place(table, "Blue", ["Score! 1", "Score! 5", "Score! 5"])
    target(table, "Red", "White")
    table.click("scoreScore", "White")
    # Double! now triples at priority 9, after Score! 2 (8): White (0 + 2) x 3 = 6 (the shipped deck: 2)
    assert [table.ui_value(f"score_run_{c}") for c in ("White", "Red", "Blue")] == ["6", "0", "1"]
    table.click("scoreScore", "White")
    take(table, "Score! 6").setPosition(table.globals.GAME.slot_position("Blue", 1))
    table.settle()
    table.click("scoreScore", "White")   # Blue's roster is long: a Bug! costing 5 (bug_penalty), not 20
    assert any("Bug!" in b and "Blue score -5" in b for b in table.broadcasts), table.broadcasts


def test_steal_and_swap_come_from_the_yaml_and_play_at_the_table(changed_save):
    """Steal! 2 and Swap!, extra cards made in the YAML only, from their own deck into rosters."""
    extras = [o for o in FakeTTS(changed_save[0], seated=["White"]).objects() if o.hasTag("extras")]
    assert [o.getQuantity() for o in extras] == [2]
    table = FakeTTS(changed_save[0], seated=["White", "Red", "Blue"])
    place(table, "White", ["Steal! 2", "Score! 3", "Score! 3"])
    place(table, "Red", ["Score! 6", "Score! 4", "Score! 4"])
    place(table, "Blue", ["Swap!", "Score! 5", "Score! 5"])
    target(table, "White", "Red")
    target(table, "Blue", "Red")
    table.click("scoreScore", "White")
    # Score! 6 (4): Red 6; Swap! (5.5): Blue 6, Red 0; Steal! 2 (6.5) from Red: Red -2, White 2
    assert [table.ui_value(f"score_run_{c}") for c in ("White", "Red", "Blue")] == ["2", "-2", "6"]
    assert any("White: Steal! 2 on Red" in b and "Blue: Swap! on Red" in b for b in table.broadcasts)


def test_the_extra_cards_are_rendered_like_the_others(changed_save):
    from PIL import Image
    built = changed_save[1]
    faces = [built / "faces" / f for f in ("extras/steal-2.png", "extras/swap.png", "deck/fire-2.png")]
    assert len({Image.open(f).size for f in faces}) == 1   # same card size and bleed as the deck's


def test_the_extra_cards_are_printed_like_the_others(changed_save):
    """The print-and-play PDF draws the extras' faces, as it draws the deck's (images named by their face)."""
    from pypdf import PdfReader
    drawn = set()
    for page in PdfReader(changed_save[1] / "print" / "score-a4.pdf").pages:
        drawn.update(str(name) for name in (page["/Resources"].get("/XObject") or {}).keys())
    for face in ("faces/extras/steal-2.png", "faces/extras/swap.png", "faces/deck/fire-2.png"):
        assert any(hashlib.sha256(face.encode()).hexdigest()[:16] in name for name in drawn), face



# --- solo -------------------------------------------------------------------------------------------------------

def test_scorlitaire_lays_out_the_deck_and_applies_each_flipped_card(table_of):
    table = table_of(["White"])
    select_mode(table, "Scorlitaire!")
    table.click("uiGetReady", "White")
    cards = [o for o in table.objects() if o.type == "Card" and o.hasTag("deck")]
    assert len(cards) == 42 and all(o.getRotation().z == FACE_DOWN for o in cards)
    assert not [o for o in table.objects() if o.type == "Deck" and not o.hasTag("extras")]

    def flip(name):
        obj = next(o for o in table.objects()
                   if o.type == "Card" and o.getName() == name and o.getRotation().z == FACE_DOWN)
        obj.setRotation(table.lua.table_from([0, 0, 0]))
        table.click("scoreScore", "White")
        return obj

    four = flip("Score! 4")
    assert pad(table, "White") == 4 and round(four.getPosition().x, 3) == 11.0
    flip("Double!")                       # the last Score! again
    assert pad(table, "White") == 8
    cw = flip("CW!")                      # shuffle everything else and lay it out again
    on_table = [o for o in table.objects() if o.type == "Card" and o.hasTag("deck")]
    down = [o for o in on_table if o.getRotation().z == FACE_DOWN]
    assert len(down) == 41 and cw not in down and round(cw.getPosition().x, 3) == 11.0
    flip("No!")
    assert any("No! was flipped" in b for b in table.broadcasts) and state(table)["over"] is True


def solo_table(lay, mode):
    table = lay(["White"])
    select_mode(table, mode)
    table.click("uiGetReady", "White")
    referee = table.globals.use("score.referee")
    spots = [to_py(p) for p in referee.solo_layout(table.globals.DATA, "White", 42).values()]
    return table, spots


def at_spot(table, spot):
    """The face-down card lying on layout spot `spot` (a position)."""
    for o in table.objects():
        if o.type == "Card" and o.getRotation().z == FACE_DOWN and near(o, spot, 0.3):
            return o
    return None


def flip_at(table, spot):
    obj = at_spot(table, spot)
    obj.setRotation(table.lua.table_from([0, 0, 0]))
    table.click("scoreScore", "White")
    return obj


def harmless(table, spots, indices):
    """Make the cards on these spots Score! cards (swap a Score! card in from elsewhere on the layout)."""
    for i in indices:
        obj = at_spot(table, spots[i])
        if obj.getName().startswith("Score!"):
            continue
        other = next(o for o in table.objects() if o.type == "Card" and o.getName().startswith("Score!")
                     and o.getRotation().z == FACE_DOWN
                     and not any(near(o, spots[j], 0.3) for j in indices))
        p, q = obj.getPosition(), other.getPosition()
        obj.setPosition(table.lua.table_from([q.x, q.y, q.z]))
        other.setPosition(table.lua.table_from([p.x, p.y, p.z]))


def test_scorliroad_refuses_a_flip_not_next_to_the_previous_one(table_of):
    table, spots = solo_table(table_of, "Scorliroad!")
    harmless(table, spots, [8, 9, 20, 16])
    first = flip_at(table, spots[8])                # row 2, column 2
    score = pad(table, "White")
    assert score > 0 and state(table)["solo"]["spot"] == 9
    far = flip_at(table, spots[20])                 # row 3, column 7: not next to it
    assert "Scorliroad!: flip a card next to the one you flipped before" in table.broadcasts[-1]
    assert far.getRotation().z == FACE_DOWN and pad(table, "White") == score   # turned back, nothing applied
    flip_at(table, spots[16])                       # row 3, column 3: corner to corner
    assert pad(table, "White") > score and first.getRotation().z == 0


def test_scorlitaire_deny_covers_a_card_and_no_legal_flip_loses(table_of):
    table, spots = solo_table(table_of, "Scorlitaire!")
    deny = next(o for o in table.objects() if o.type == "Card" and o.getName() == "Deny!")
    deny.setRotation(table.lua.table_from([0, 0, 0]))
    table.click("scoreScore", "White")
    assert any("Deny!: put it on a face-down card" in b for b in table.broadcasts)
    covered_spot = next(p for p in spots if at_spot(table, p) is not None)
    harmless(table, spots, [spots.index(covered_spot)])
    covered = at_spot(table, covered_spot)
    table.click("scoreScore", "White")              # the Deny! lies on no card yet
    assert "put your Deny! on a face-down card" in table.broadcasts[-1]
    deny.setPosition(table.lua.table_from([covered_spot[0], 2.0, covered_spot[2]]))
    covered.setRotation(table.lua.table_from([0, 0, 0]))
    table.click("scoreScore", "White")
    assert "covered by Deny!" in table.broadcasts[-1] and covered.getRotation().z == FACE_DOWN
    # every other face-down card leaves the layout: only the covered one is left, so no legal flip remains
    free = [o for o in table.objects() if o.type == "Card" and o.getRotation().z == FACE_DOWN
            and o.getGUID() != covered.getGUID() and o.getName().startswith("Score!")]
    for o in [o for o in table.objects() if o.type == "Card" and o.getRotation().z == FACE_DOWN
              and o.getGUID() != covered.getGUID() and o not in free[:1]]:
        o.setPosition(table.lua.table_from([11.0, 2.0, -10.0]))   # the solo discard pile
    flip = free[0]
    flip.setRotation(table.lua.table_from([0, 0, 0]))
    table.click("scoreScore", "White")
    assert any("Game over: no legal flip remains" in b for b in table.broadcasts) and state(table)["over"] is True


# --- Score Against! ---------------------------------------------------------------------------------------------

def place_virtual(table, color, columns):
    """Lay `columns` (col number -> names top to bottom) face down in color's virtual roster."""
    game = table.globals.GAME
    placed = {}
    for col, names in columns.items():
        for row, name in enumerate(names, 1):
            obj = take(table, name)
            inner(obj).placed = True
            obj.setPosition(game.virtual_position(color, col, row))
            obj.setRotation(table.lua.table_from([0, 0, FACE_DOWN]))
            placed[(col, row)] = obj
    return placed


def against_table(lay, state_text=None):
    table = lay(["White"], state=state_text)
    select_mode(table, "Score Against!")
    return table


def near(obj, spot, radius=0.01):
    p = obj.getPosition()
    return (p.x - spot[0]) ** 2 + (p.z - spot[2]) ** 2 <= radius ** 2


def test_score_against_get_ready_deals_the_virtual_roster_above_the_roster(table_of):
    table = against_table(table_of)
    points = to_py(table.globals.Global.getSnapPoints())
    lines = to_py(table.globals.Global.getVectorLines())
    assert len(points) == 3 + 9 + 1 and len(lines) == 3 + 9  # roster, virtual roster, discard pile
    table.click("uiGetReady", "White")
    game = table.globals.GAME
    hand = to_py(table.player("White").getHandTransform())
    forward, right, centre = hand["forward"], hand["right"], hand["position"]

    def local(p):
        dx, dz = p[0] - centre["x"], p[2] - centre["z"]
        return dx * right["x"] + dz * right["z"], dx * forward["x"] + dz * forward["z"]

    cards = [o for o in table.objects() if o.type == "Card" and o.hasTag("deck") and inner(o).hand is None]
    assert len(cards) == 9 and all(o.getRotation().z == FACE_DOWN for o in cards)
    for col in (1, 2, 3):
        slot_x, slot_d = local(to_py(game.slot_position("White", col)))
        depths = []
        for row in (1, 2, 3):
            spot = to_py(game.virtual_position("White", col, row))
            assert sum(near(o, spot) for o in cards) == 1   # one card per virtual slot
            x, d = local(spot)
            assert abs(x - slot_x) < 1e-6                   # the columns stand over the roster slots
            depths.append(d)
        assert depths[0] > depths[1] > depths[2] > slot_d + 3  # above the roster, row 1 farthest
    assert len(table.hand("White")) == 8                     # the first draw of 8
    [deck] = [o for o in table.objects() if o.type == "Deck" and not o.hasTag("extras")]
    assert deck.getQuantity() == 42 - 9 - 8 and deck.getRotation().z == FACE_DOWN
    assert any("virtual roster" in b for b in table.broadcasts)


def test_score_against_score_resolves_with_the_engine(table_of):
    table = against_table(table_of)
    roster = ["Fire! 3", "Score! 2", "Double!"]
    columns = {3: ["Score! 4", "Bomb! 2", "Score! 1"], 2: ["Fire! 2", "Score! 6", "Score! 5"],
               1: ["Score! 3", "No!", "Score! 5"]}
    own = place(table, "White", roster)
    virtual = place_virtual(table, "White", columns)
    table.click("scoreScore", "White")
    # Fire! 3 in your roster (class 2, 3) beats Bomb! 2 (class 2, 2) and the Score! cards: +3
    expected = ENGINE.score_against_turn(0, CARDS["Fire! 3"], [CARDS[n] for n in columns[3]])
    assert expected["delta"] == 3 and expected["applied"] == {"card": CARDS["Fire! 3"]["id"], "source": "roster"}
    assert table.ui_value("score_run_White") == str(expected["score"]) == "3" and pad(table, "White") == 0
    assert any("White's Fire! 3 applies, +3 (round score 3)" in b for b in table.broadcasts)
    for obj in [own[0]] + [virtual[(3, r)] for r in (1, 2, 3)]:  # face up, on the discard pile
        assert obj.getRotation().z == 0 and near(obj, [-4.0, 0, 0.0])
    assert not any(near(o, [-4.0, 0, 0.0]) for o in own[1:])
    table.click("scoreReveal", "White")  # Reveal turns the next pair face up: your Score! 2 and column 2
    assert own[1].getRotation().z == 0 and own[2].getRotation().z == FACE_DOWN
    assert all(virtual[(2, r)].getRotation().z == 0 for r in (1, 2, 3))
    assert all(virtual[(1, r)].getRotation().z == FACE_DOWN for r in (1, 2, 3))
    table.click("scoreScore", "White")
    # the virtual Fire! 2 beats your Score! 2: -2
    assert table.ui_value("score_run_White") == "1"
    table.click("scoreScore", "White")
    # No! in the virtual column: nothing happens; the round ends at 1, saved
    assert pad(table, "White") == 1 and state(table)["rounds"] == 1 and state(table)["round"] is False
    want = ENGINE.score_against_round(0, [CARDS[n] for n in roster], [[CARDS[n] for n in columns[c]] for c in (3, 2, 1)],
                                      {"solo": "score-against"})
    assert want["total"] == pad(table, "White") == 1 and [t["delta"] for t in want["turns"]] == [3, -2, 0]
    assert any("virtual No! applies, nothing happens" in b for b in table.broadcasts)
    assert any("Round 1 is over: White scores 1" in b for b in table.broadcasts)


def test_score_against_round_is_floored_at_zero_and_a_win_is_announced(table_of):
    table = against_table(table_of, "White=44")
    place(table, "White", ["Score! 1", "Score! 2"], start=2)   # the leftmost slot may be empty
    place_virtual(table, "White", {3: ["Bomb! 3"], 2: ["Fire! 3", "Score! 4"]})
    table.click("scoreScore", "White")
    table.click("scoreScore", "White")   # -3 then -3: the round ends at 0, not -6
    assert pad(table, "White") == 44 and table.ui_value("score_status") == "Round 2: Get ready!"
    place(table, "White", ["Score! 6"])
    place_virtual(table, "White", {3: ["Score! 2", "Score! 3"]})
    table.click("scoreScore", "White")   # Score! 6 (yours) is the largest Score!: 50
    assert pad(table, "White") == 50 and state(table)["over"] is True
    assert any("White wins Score Against! with 50 points in 2 rounds" in b for b in table.broadcasts)
    table.click("scoreScore", "White")
    assert table.broadcasts[-1].startswith("White: the game is over")   # a refusal names its seat


def test_score_against_is_lost_after_eight_rounds(table_of):
    table = against_table(table_of, "White=30")
    table.globals.GAME.state().rounds = 7
    place(table, "White", ["Score! 5"])
    place_virtual(table, "White", {3: ["Score! 4"]})
    table.click("scoreScore", "White")
    assert pad(table, "White") == 35 and state(table)["over"] is True
    assert any("35 points after 8 rounds; Score Against! is lost" in b for b in table.broadcasts)


def test_score_against_three_draws_of_eight_and_the_graveyard(table_of):
    table = against_table(table_of)
    table.click("uiGetReady", "White")
    for slot in (3, 2, 1):
        assert len(table.hand("White")) == 8
        keep(table, "White", slot)
    assert table.hand("White") == []
    [deck] = [o for o in table.objects() if o.type == "Deck"]
    assert deck.getQuantity() == 42 - 9 - 24
    referee = table.globals.use("score.referee")
    grave = to_py(referee.graveyard_position(table.globals.DATA, "White", 3))
    assert len([o for o in table.objects() if o.type == "Card" and near(o, grave, 0.5)]) == 21
    for _ in range(3):
        table.click("scoreScore", "White")
    assert state(table)["rounds"] == 1
    table.click("uiGetReady", "White")               # the graveyard is gathered again
    assert main_cards(table) == 42 and len(table.hand("White")) == 8


def test_score_against_state_survives_save_and_load(table_of):
    table = against_table(table_of)
    place(table, "White", ["Score! 4", "Score! 5", "Double!"])
    place_virtual(table, "White", {3: ["Score! 2"], 2: ["Score! 1"], 1: ["Fire! 1"]})
    table.click("scoreScore", "White")
    saved = table.call("onSave")
    before = state(table)
    again = table_of(["White"], state=saved)
    assert state(again) == before and again.ui_value("score_mode") == "Score Against!"
    assert again.ui_value("score_status") == "Round 1, action turn 2" and again.ui_value("score_run_White") == "4"
    place(again, "White", ["Score! 5", "Double!"], start=2)
    place_virtual(again, "White", {2: ["Score! 1"], 1: ["Fire! 1"]})
    again.click("scoreScore", "White")   # Score! 5: 9
    again.click("scoreScore", "White")   # Double! worth 9 beats Fire! 1? no: Fire! is class 2: -1 -> 8
    assert pad(again, "White") == 8


def test_two_cards_in_one_slot_are_reported_and_the_top_one_counts():
    lua = runtime()
    referee = modules("score", lua)("score.referee")
    data = lua.table_from({"seats": lua.table_from(["White", "Red"]),
                           "layout": lua.table_from({"seat_radius": 21.5})})
    slot = referee.slots(data, "White", 3)[2]
    def card(guid, y):
        return lua.table_from({"guid": guid, "id": "score-3", "x": slot[1] + 0.2, "y": y, "z": slot[3]})
    rosters, problems = referee.read_rosters(data, 3, lua.table_from([card("low", 1.0), card("high", 1.2)]))
    assert rosters["White"][2]["guid"] == "high"
    assert rosters["White"][1] is False and rosters["Red"][2] is False
    assert list(problems.values()) == ["White's roster slot 2 holds more than one card"]


def test_a_card_lies_in_the_nearest_slot_within_reach_wherever_it_lies_around_it():
    # read_rosters looks each card up in a grid of the slots, and the table reads only the cards that
    # roster_reach says are in reach: both checked against every slot, in Python
    lua = runtime()
    referee = modules("score", lua)("score.referee")
    data = lua.table_from({"seats": lua.table_from(SEATS), "layout": lua.table_from({"seat_radius": 21.5})})
    radius = referee.SLOT_RADIUS
    for size in (3, 6):  # six slots 2.5 apart: a card between two is in reach of both
        centres = [(color, k, p[1], p[3]) for color in SEATS for k, p in referee.slots(data, color, size).items()]
        reach = referee.roster_reach(data, size)
        for _, _, cx, cz in centres:
            for step in range(8):
                angle = math.tau * step / 8 + 0.1
                for distance in (0.5, 1.2, 1.75, 1.85):
                    x, z = cx + distance * math.cos(angle), cz + distance * math.sin(angle)
                    near = [(math.dist((x, z), (px, pz)), color, k) for color, k, px, pz in centres]
                    expected = min((d, i, color, k) for i, (d, color, k) in enumerate(near) if d <= radius)[2:] \
                        if any(d <= radius for d, _, _ in near) else None
                    card = lua.table_from({"guid": "g", "id": "score-3", "x": x, "y": 1, "z": z})
                    rosters, _ = referee.read_rosters(data, size, lua.table_from([card]))
                    found = [(color, k) for color in SEATS for k, c in rosters[color].items() if c]
                    assert found == ([expected] if expected else []), (size, x, z)
                    assert reach(x, z) == (expected is not None), (size, x, z)
