"""The game in a box (issue 26): tts/saved-objects/<deck>-box.json, a bag of the game's components whose own
LuaScript and XmlUI are the full save's runtime and table. Built from the real decks, loaded into the strict
fake of TTS as a player loads a saved object (into an empty table, beside another box and beside the full
save's own game), played through its own controls at delays 0, 1 and 20 frames, saved and loaded again. Every
table test of the four games (test_*_table.py) also runs in the box, through conftest's `table_of`."""

from __future__ import annotations

import json
import random
import re
import shutil

import pytest

from conftest import run_cli
from deckpress.builders.tts import save as tts_save
from deckpress.builders.tts.lua import BOX_ENTRY
from helpers.fake_tts import FakeTTS, inner, timing, to_lua, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.score_table import place, select_mode, target
from helpers.tables import BOX_END, InBox, empty_table

SEATS = ["White", "Red", "Blue"]
# The fields TTS writes for every object (docs/tts.md, "As TTS writes them", names the saves), and the ones
# it adds for a Bag: MaterialIndex and MeshIndex -1, Bag {Order: 0}, ContainedObjects (docs/tts.md).
OBJECT_KEYS = {"GUID", "Name", "Transform", "Nickname", "Description", "GMNotes", "AltLookAngle", "ColorDiffuse",
               "Tags", "LayoutGroupSortIndex", "Value", "Locked", "Grid", "Snap", "IgnoreFoW", "MeasureMovement",
               "DragSelectable", "Autoraise", "Sticky", "Tooltip", "GridProjection", "HideWhenFaceDown", "Hands",
               "LuaScript", "LuaScriptState", "XmlUI"}
BAG_KEYS = OBJECT_KEYS | {"MaterialIndex", "MeshIndex", "Bag", "ContainedObjects"}
# The envelope of a saved object as TTS writes one (docs/tts.md): the save's fields, left empty.
ENVELOPE_KEYS = {"SaveName", "Date", "VersionNumber", "GameMode", "GameType", "GameComplexity", "Tags", "Gravity",
                 "PlayArea", "Table", "Sky", "Note", "TabStates", "LuaScript", "LuaScriptState", "XmlUI",
                 "ObjectStates"}


@pytest.fixture(scope="module")
def skorch(shipped):
    return shipped("skorch")


@pytest.fixture(scope="module")
def scoop(shipped):
    return shipped("scoop")


def scope_of(box) -> str:
    return box.globals.use("lib.box").scope


def origin_of(box) -> tuple[float, float]:
    origin = to_py(box.globals.use("lib.box").origin)
    return origin[0], origin[2]


def mine(table, box) -> list:
    return [o for o in table.objects() if o.hasTag(scope_of(box))]


def snapshot(objects) -> dict:
    """Where each object lies (or whose hand holds it: TTS spaces a hand's cards out as cards come and go)
    and how it is turned, and what a deck holds, by GUID."""
    out = {}
    for o in objects:
        rec = inner(o)
        held = tuple(e["guid"] for e in to_py(o.getObjects())) if o.type == "Deck" else ()
        where = rec.hand if rec.hand is not None else (round(rec.position.x, 6), round(rec.position.z, 6))
        out[o.getGUID()] = (where, rec.rotation.z % 360, held)
    return out


# --- The box as a file ---------------------------------------------------------------------------

def test_the_box_is_one_bag_of_the_saves_components_carrying_its_script_and_ui(skorch):
    full, box_file, tts = skorch
    assert set(box_file) == ENVELOPE_KEYS
    component_file = json.loads((tts / "saved-objects" / "deck.json").read_text(encoding="utf-8"))
    assert set(component_file) == ENVELOPE_KEYS  # the box's envelope is every saved object's
    [box] = box_file["ObjectStates"]
    assert set(box) == BAG_KEYS, set(box) ^ BAG_KEYS
    assert box["Name"] == "Bag" and box["Bag"] == {"Order": 0}
    assert box["MaterialIndex"] == -1 and box["MeshIndex"] == -1 and box["LuaScriptState"] == ""
    assert box["Nickname"] == "Skorch" and box["Tags"] == []
    # field by field, the components are the full save's objects but the table's hand zones
    assert box["ContainedObjects"] == [o for o in full["ObjectStates"] if o["Name"] != "HandTrigger"]
    # one source: the box's script is the Global script and the one line that makes it the box's
    assert box["LuaScript"].count(BOX_ENTRY) == 1
    assert box["LuaScript"].replace(BOX_ENTRY, "") == full["LuaScript"]
    ids = set(re.findall(r'\bid="([^"]+)"', full["XmlUI"]))
    assert set(re.findall(r'\bid="([^"]+)"', box["XmlUI"])) == ids | {"deckpress_box"}
    assert {"get_ready", "skorch_turn", "skorch_deal"} <= ids
    assert (tts / "saved-objects" / "skorch-box.png").read_bytes() == (tts / "skorch.png").read_bytes()


def test_every_deck_with_a_table_script_has_its_box(built, skorch):
    objects = built / "tts" / "saved-objects"
    assert (objects / "score-box.json").is_file() and (objects / "score-box.png").is_file()
    [box] = json.loads((objects / "score-box.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert box["LuaScript"].count(BOX_ENTRY) == 1 and "score.table" in box["LuaScript"]


# --- Loaded into a game --------------------------------------------------------------------------

def test_a_box_loaded_into_an_empty_table_lays_the_game_out_around_itself(skorch):
    full, box_file, _ = skorch
    table = empty_table(full, SEATS)
    box = table.load_box(box_file, (30.0, 1.5, 10.0))
    assert box.obj.getQuantity() == 0  # everything came out of the box
    ox, oz = origin_of(box)
    assert (ox + tts_save.BOX_SPOT[0], oz + tts_save.BOX_SPOT[1]) == (30.0, 10.0)  # the box lies where the save puts it
    placed = sorted((o.getName(), round(inner(o).position.x - ox, 6), round(inner(o).position.z - oz, 6))
                    for o in mine(table, box))
    saved = sorted((o["Nickname"], o["Transform"]["posX"], o["Transform"]["posZ"])
                   for o in box_file["ObjectStates"][0]["ContainedObjects"])
    assert placed == saved
    assert scope_of(box).startswith("box:") and all(o.hasTag(scope_of(box)) for o in mine(table, box))
    assert box.ui_value("skorch_faceoff") == "Face-off: out" and table.ui_value("skorch_faceoff") is None


def test_a_box_deals_and_referees_exactly_as_the_full_save_does(skorch):
    """The same seed deals the same table: every prison slot holds a card of the same name, at the same
    place relative to the table's centre, whether the game is the save's or the box's."""
    full, box_file, _ = skorch
    whole = FakeTTS(full, seated=SEATS)
    whole.lua.execute("math.randomseed(7)")
    whole.click("uiSkorchDeal", "White", None, "skorch_deal")
    table = empty_table(full, SEATS)
    box = table.load_box(box_file, (-20.0, 1.5, 30.0))
    box.globals.math.randomseed(7)
    box.click("uiSkorchDeal", "White", None, "skorch_deal")
    ox, oz = origin_of(box)

    def layout(t, state, dx, dz):
        out = {}
        for seat in SEATS:
            for row in ("back", "front"):
                for slot, card in enumerate(state["players"][seat][row], 1):
                    o = t.globals.getObjectFromGUID(card["id"])
                    p = inner(o).position
                    out[seat, row, slot] = (o.getName(), round(p.x - dx, 6), round(p.z - dz, 6), card["face_up"])
            out[seat, "hand"] = sorted(c["kind"] + str(c["value"]) for c in state["players"][seat]["hand"])
        return out

    whole_state, box_state = to_py(whole.globals.GAME.state()), to_py(box.globals.GAME.state())
    assert layout(table, box_state, ox, oz) == layout(whole, whole_state, 0.0, 0.0)
    assert box_state["turn"] == whole_state["turn"]
    assert box.ui_value("skorch_turn") == whole.ui_value("skorch_turn") and table.ui_value("skorch_turn") is None
    assert [len(table.hand(c)) for c in SEATS] == [5, 5, 5]


def plain_moves(box) -> list[dict]:
    """The legal moves of the player whose turn it is that only put cards on the pile."""
    state = box.globals.GAME.state()
    return [m for m in to_py(box.globals.use("skorch.engine").legal_moves(state, to_py(state)["turn"]))
            if set(m) == {"cards"}]


def deal(box, color, seed=1):
    """`color` deals in `box`, again until the first player has a move that only puts cards on the pile."""
    for k in range(seed, seed + 50):
        box.globals.math.randomseed(k)
        box.click("uiSkorchDeal", color, None, "skorch_deal")
        if plain_moves(box):
            return
    raise AssertionError("no deal gave the first player a plain move")


def legal_single(box, rng):
    s = to_py(box.globals.GAME.state())
    return s, s["turn"], rng.choice(plain_moves(box))


def play(table, box, turn, cards):
    """`turn` puts `cards` on the box's discard pile (3 units right of its deck's place) and presses Play."""
    x, y, z = to_py(box.globals.DATA.layout.home)
    for k, guid in enumerate(cards, 1):
        table.globals.getObjectFromGUID(guid).setPosition(table.lua.table_from([x + 3.0, y + 0.1 * k, z]))
    box.click("uiSkorchPlay", turn, None, "skorch_play")


def test_two_boxes_and_the_saves_own_game_at_one_table_never_touch_each_others_cards(skorch):
    full, box_file, _ = skorch
    table = FakeTTS(full, seated=SEATS)  # the table holds Skorch's own save: the same tags, its Global script
    table.lua.execute("math.randomseed(3)")
    table.click("uiSkorchDeal", "White", None, "skorch_deal")
    one = table.load_box(box_file, (80.0, 1.5, 0.0))
    two = table.load_box(box_file, (-80.0, 1.5, 0.0))
    assert one.obj.getGUID() != two.obj.getGUID() and scope_of(one) != scope_of(two)
    for k, box in enumerate((one, two)):
        deal(box, "Red", 11 + 50 * k)
    guids = [o.getGUID() for o in table.objects()]
    assert len(guids) == len(set(guids))
    games = {"global": table.globals.GAME, "one": one.globals.GAME, "two": two.globals.GAME}
    for color in SEATS:  # each hand holds five cards of each of the three games
        held = {o.getGUID() for o in table.hand_objects(color)}
        for game in games.values():
            assert {c["id"] for c in to_py(game.state())["players"][color]["hand"]} <= held
        assert len(held) == 15
    rng = random.Random(5)
    for name, box, other in (("one", one, two), ("two", two, one)):
        others = [o for o in table.objects() if not o.hasTag(scope_of(box)) and o.type != "Bag"]
        before = snapshot(others)
        states = {n: to_py(game.state()) for n, game in games.items() if n != name}
        ui = (other.ui_value("skorch_turn"), table.ui_value("skorch_turn"))
        s, turn, move = legal_single(box, rng)
        play(table, box, turn, move["cards"])
        after = to_py(box.globals.GAME.state())
        assert after != s and [c["id"] for c in after["pile"][-len(move["cards"]):]] == move["cards"]
        assert snapshot(others) == before
        assert {n: to_py(game.state()) for n, game in games.items() if n != name} == states
        assert (other.ui_value("skorch_turn"), table.ui_value("skorch_turn")) == ui
        assert box.ui_value("skorch_turn").startswith(after["turn"])


def test_a_box_gathers_only_its_own_deck(skorch):
    """Dealing again gathers the box's cards from the hands and the table, and never the other box's."""
    full, box_file, _ = skorch
    table = empty_table(full, SEATS)
    one = table.load_box(box_file, (80.0, 1.5, 0.0))
    two = table.load_box(box_file, (-80.0, 1.5, 0.0))
    one.click("uiSkorchDeal", "White", None, "skorch_deal")
    two.click("uiSkorchDeal", "White", None, "skorch_deal")
    theirs = snapshot(mine(table, two))
    one.click("uiSkorchDeal", "Blue", None, "skorch_deal")
    assert snapshot(mine(table, two)) == theirs
    assert [len(table.hand(c)) for c in SEATS] == [10, 10, 10]
    assert any(b.startswith("Blue dealt") for b in table.broadcasts)


def test_a_saved_and_loaded_game_goes_on_in_its_box(skorch):
    full, box_file, _ = skorch
    table = empty_table(full, SEATS)
    box = table.load_box(box_file, (25.0, 1.5, -5.0))
    box.click("uiSkorchFaceoff", "White", None, "skorch_faceoff")
    deal(box, "White")
    state, scope, origin = to_py(box.globals.GAME.state()), scope_of(box), origin_of(box)
    components = to_py(box.globals.DATA.components)
    cards = {o.getGUID() for o in mine(table, box) if o.type == "Card"} | {
        e["guid"] for o in mine(table, box) if o.type == "Deck" for e in to_py(o.getObjects())}
    assert {g for c in components for card in c["cards"] for g in card["guids"]} == cards  # DATA names the box's
    count = len(table.objects())
    saved = box.save()
    box.obj.setPosition(table.lua.table_from([60.0, 1.5, 40.0]))  # a player moved the box away: the game stays
    table.reload()
    assert len(table.objects()) == count  # a loaded box does not unpack again
    assert scope_of(box) == scope and origin_of(box) == origin
    assert to_py(box.globals.GAME.state()) == state and to_py(box.globals.DATA.components) == components
    assert box.ui_value("skorch_faceoff") == "Face-off: in"
    assert saved.startswith(box.save()[: saved.index(BOX_END)])
    _, turn, move = legal_single(box, random.Random(2))
    play(table, box, turn, move["cards"])
    assert to_py(box.globals.GAME.state())["pile"][-1]["id"] == move["cards"][-1]


@pytest.mark.parametrize("state", ["", "White=7;Red=2", "{S5:broken" + BOX_END + "White=7;Red=2"])
def test_a_new_box_unpacks_and_gives_the_game_its_saved_state(skorch, state):
    """A box whose saved state has no part of its own (none, as built), or a damaged one, is new: it unpacks,
    and the game gets the rest of the text."""
    full, box_file, _ = skorch
    table = empty_table(full, SEATS)
    box = table.load_box(dict(box_file, ObjectStates=[dict(box_file["ObjectStates"][0], LuaScriptState=state)]),
                         (30.0, 1.5, 0.0))
    assert box.obj.getQuantity() == 0 and len(mine(table, box)) == len(box_file["ObjectStates"][0]["ContainedObjects"])
    assert [box.ui_value(f"score_{c}") for c in ("White", "Red")] == (["0", "0"] if state == "" else ["7", "2"])


def test_scoop_in_its_box_draws_and_places_around_the_box(scoop):
    full, box_file, _ = scoop
    table = empty_table(full, SEATS)
    other = table.load_box(box_file, (-80.0, 1.5, 0.0))
    box = table.load_box(box_file, (80.0, 1.5, 0.0))
    other.click("uiScoopNewGame", "White", None, "scoop_new_game")
    box.click("uiScoopNewGame", "White", None, "scoop_new_game")
    theirs = snapshot(mine(table, other))
    assert box.ui_value("scoop_turn") == "White: Draw (52 left)" and table.ui_value("scoop_turn") is None
    box.click("uiScoopDraw", "White", None, "scoop_draw")
    drawn = to_py(box.globals.GAME.state())["drawn"]["id"]
    data, piles = box.globals.DATA, box.globals.use("scoop.piles")
    spot = piles.place(data.seats, data.layout.seat_radius, "White", "game", 1.5)
    table.globals.getObjectFromGUID(drawn).setPosition(spot)
    box.click("uiScoopPlace", "White", None, "scoop_place")
    s = to_py(box.globals.GAME.state())
    assert [c["id"] for c in s["players"]["White"]["game"]] == [drawn] and s["turn"] == "Red"
    p = inner(table.globals.getObjectFromGUID(drawn)).position
    ox, oz = origin_of(box)
    assert tuple(piles.pile_at(data.seats, data.layout.seat_radius, p.x, p.z)) == ("White", "game")
    assert abs(p.x - ox) < 30 and abs(p.z - oz) < 30  # around the box, not the table's centre
    assert snapshot(mine(table, other)) == theirs and other.ui_value("scoop_turn") == "White: Draw (52 left)"


@pytest.mark.parametrize("deck, button, element", [("scout", "uiScoutSetup", "scout_setup"),
                                                   ("score", "uiGetReady", "get_ready")])
def test_each_games_deal_in_its_box_deals_what_the_full_save_deals_and_leaves_the_other_box_alone(
        shipped, deck, button, element):
    full, box_file, _ = shipped(deck)
    whole = FakeTTS(full, seated=SEATS)
    whole.lua.execute("math.randomseed(5)")
    whole.click(button, "White", None, element)
    table = empty_table(full, SEATS)
    one = table.load_box(box_file, (80.0, 1.5, 0.0))
    two = table.load_box(box_file, (-80.0, 1.5, 0.0))
    theirs = snapshot(mine(table, two))
    one.globals.math.randomseed(5)
    one.click(button, "White", None, element)
    assert [len(table.hand(c)) for c in SEATS] == [len(whole.hand(c)) for c in SEATS]
    assert sum(len(whole.hand(c)) for c in SEATS) > 0
    assert all(o.hasTag(scope_of(one)) for c in SEATS for o in table.hand_objects(c))
    assert snapshot(mine(table, two)) == theirs
    assert table.broadcasts == whole.broadcasts  # the same messages: the same deal


# --- Global's snap points and vector lines, shared by the save's script and every box ------------------------

def xz(p) -> tuple[float, float]:
    """A point's x and z, given as {x, y, z} or [x, y, z]."""
    return (p["x"], p["z"]) if isinstance(p, dict) else (p[0], p[2])


def whose(x: float) -> str:
    """Which game a place belongs to, in test_score_boxes_...: the save's lies around 0, box one's around
    x = 109 and box two's around x = -91 (the boxes put at x = +-100, 9 units left of their layout's middle)."""
    return "one" if x > 50 else "two" if x < -50 else "save"


def lines_by_game(table, drawn: dict) -> dict:
    """Every vector line on the table (as the fake keeps them, TTS's 32-bit numbers), by the game whose
    region it lies in; the player's own line apart."""
    out = {"one": [], "two": [], "save": [], "player": []}
    for line in to_py(table.fake.vector_lines):
        points = [xz(p) for p in line["points"]]
        key = "player" if points == [xz(p) for p in drawn["points"]] else whose(points[0][0])
        out[key].append(points)
    return {k: sorted(v) for k, v in out.items()}


def points_by_tag(table) -> dict:
    """Every snap point on the table by its tags (a box's carry its scope tag)."""
    out: dict[tuple, list] = {}
    for point in to_py(table.fake.snap_points):
        out.setdefault(tuple(point["tags"]), []).append(xz(point["position"]))
    return {k: sorted(v) for k, v in out.items()}


def around(places: list, ox: float, oz: float) -> list:
    """Places (or lists of them) relative to (ox, oz), rounded: one game's layout compared with another's."""
    def rel(p):
        return [rel(q) for q in p] if isinstance(p, list) else (round(p[0] - ox, 2), round(p[1] - oz, 2))
    return sorted(rel(p) for p in places)


def test_score_boxes_and_the_full_save_each_draw_their_slots_and_lose_nothing_of_the_others(shipped):
    """SCORE!'s table draws its roster slots as Global's snap points and vector lines, which TTS keeps one list
    of for the whole table. Two SCORE! boxes and the full save's own game at one table (and a line a player
    drew) each draw, redraw for another mode or seating, and are saved and loaded: each one's slots are its
    own layout's, and nothing of the others' is lost or doubled."""
    full, box_file, _ = shipped("score")
    table = FakeTTS(full, seated=SEATS)
    drawn = {"points": [[1, 1, 1], [4, 1, 2], [6, 1, -3]], "color": [0.2, 0.6, 1], "thickness": 0.1}
    lines = to_py(table.globals.Global.getVectorLines())
    table.globals.Global.setVectorLines(to_lua(table.lua, lines + [drawn]))
    one = table.load_box(box_file, (100.0, 1.5, 0.0))
    two = table.load_box(box_file, (-100.0, 1.5, 20.0))
    tags = {"one": (scope_of(one),), "two": (scope_of(two),), "save": ()}
    origins = {"one": origin_of(one), "two": origin_of(two), "save": (0.0, 0.0)}
    discard = xz(to_py(table.globals.use("score.referee").DISCARD))  # the save's, at the table's centre

    def slots(points, game):  # the roster slots of a game's snap points: all but its discard pile's, by its layout
        pile = (discard[0] + origins[game][0], discard[1] + origins[game][1])
        out = [p for p in points if abs(p[0] - pile[0]) > 1e-3 or abs(p[1] - pile[1]) > 1e-3]
        assert len(out) == len(points) - 1, (game, pile, points)
        return out

    lines, points = lines_by_game(table, drawn), points_by_tag(table)
    assert set(points) == set(tags.values())  # the save's untagged, each box's with its scope tag
    assert lines["player"] == [[xz(p) for p in drawn["points"]]]
    for game in ("one", "two", "save"):  # 3 seated, Classic!: three slots each, drawn around each layout
        assert len(lines[game]) == 9 and len(points[tags[game]]) == 9 + 1
        assert around(lines[game], *origins[game]) == around(lines["save"], 0.0, 0.0)
        assert around(slots(points[tags[game]], game), *origins[game]) == around(slots(points[()], "save"), 0, 0)

    def redraws(game, action, slots_now):
        """`action` makes `game` draw again: its lines and points change, nobody else's do."""
        lines, points = lines_by_game(table, drawn), points_by_tag(table)
        action()
        after, after_points = lines_by_game(table, drawn), points_by_tag(table)
        assert len(after[game]) == slots_now and len(after_points[tags[game]]) == slots_now + 1
        for other in {"one", "two", "save", "player"} - {game}:
            assert after[other] == lines[other], other
            if other != "player":
                assert after_points[tags[other]] == points[tags[other]], other

    redraws("two", lambda: select_mode(two, "Randomness!"), 3 * 6)  # six slots each
    table.fake.seated = to_lua(table.lua, SEATS + ["Green"])
    redraws("one", lambda: one.call("onPlayerChangeColor", "Green"), 4 * 3)
    redraws("save", lambda: table.call("onPlayerChangeColor", "Green"), 4 * 3)
    redraws("two", lambda: two.call("onPlayerChangeColor", "Green"), 4 * 6)
    before, before_points = lines_by_game(table, drawn), points_by_tag(table)
    table.reload()  # every script starts afresh, draws again, and knows its own lines from its saved state
    assert lines_by_game(table, drawn) == before and points_by_tag(table) == before_points
    redraws("one", lambda: select_mode(one, "Randomness!"), 4 * 6)
    redraws("save", lambda: select_mode(table, "Randomness!"), 4 * 6)


def test_score_in_its_box_has_its_discard_pile_by_the_box(shipped):
    full, box_file, _ = shipped("score")
    table = empty_table(full, SEATS)
    box = table.load_box(box_file, (100.0, 1.5, 0.0))
    ox, oz = origin_of(box)
    dx, dz = xz(to_py(box.globals.use("score.referee").DISCARD))
    assert (round(ox + dx, 3), round(oz + dz, 3)) in [
        (round(x, 3), round(z, 3)) for x, z in points_by_tag(table)[(scope_of(box),)]]


def test_a_box_knows_its_lines_as_tts_keeps_them(skorch):
    """TTS keeps a line's points as 32-bit floats: a box finds the lines it set by the numbers TTS gives back,
    not its own (1.00050001 reads back as 1.00049996, on the other side of a rounding); it sees and replaces
    only its own lines and snap points, and leaves the table's."""
    full, box_file, _ = skorch
    table = empty_table(full, SEATS)
    theirs = {"points": [[1, 1, 1], [4, 1, 2]], "color": [0.2, 0.6, 1], "thickness": 0.1}
    table.globals.Global.setVectorLines(to_lua(table.lua, [theirs]))  # the host table's: a player drew it
    table.globals.Global.setSnapPoints(to_lua(table.lua, [{"position": [5, 1, 5]}]))
    box = table.load_box(box_file, (30.0, 1.5, 0.0))
    mine = {"points": [[1.00050001, 1, 0], [2, 1, 0]], "thickness": 0.2}
    box.globals.Global.setVectorLines(to_lua(table.lua, [mine]))
    box.globals.Global.setSnapPoints(to_lua(table.lua, [{"position": [1, 1, 0], "tags": ["deck"]}]))
    assert [xz(p) for p in to_py(box.globals.Global.getVectorLines())[0]["points"]] == [(1.0004999637603760, 0), (2, 0)]
    assert len(to_py(table.fake.vector_lines)) == 2
    assert [p["tags"] for p in to_py(table.fake.snap_points)] == [[], ["deck", scope_of(box)]]
    assert [p["tags"] for p in to_py(box.globals.Global.getSnapPoints())] == [["deck", scope_of(box)]]
    box.globals.Global.setVectorLines(to_lua(table.lua, []))
    box.globals.Global.setSnapPoints(to_lua(table.lua, []))
    assert to_py(table.fake.vector_lines) == [theirs] and to_py(box.globals.Global.getVectorLines()) == []
    assert to_py(table.fake.snap_points) == [{"position": [5, 1, 5], "rotation": [0, 0, 0], "rotation_snap": False,
                                              "tags": []}]


def test_a_project_with_its_own_runtime_from_before_the_box_still_plays_and_gets_no_box(tmp_path):
    """A project's tts/lib/ replaces deckpress's whole: one copied before lib/box.lua existed still builds a
    full save that loads, deals and saves, and its deck gets no box (which would need the box's layer)."""
    from bad_input.project import FILES
    from deckpress.builders.tts.lua import find_modules

    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text.replace("  options: {hand: 3}\n", "  options: {hand: 3}\nscript: tiny\n"),
                                     encoding="utf-8")
    (tmp_path / "tts" / "tiny").mkdir(parents=True)
    (tmp_path / "tts" / "tiny" / "table.lua").write_text("return {}\n", encoding="utf-8")  # a table script
    library = next(m.path.parent for m in find_modules(tmp_path / "decks" / "tiny.yaml") if m.name == "lib.box")
    shutil.copytree(library, tmp_path / "tts" / "lib", ignore=shutil.ignore_patterns("box.lua", "seating.lua"))
    result = run_cli("build", "tiny", "--quiet", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    tts = tmp_path / "build" / "tiny" / "tts"
    assert not list((tts / "saved-objects").glob("*-box.*"))
    save = json.loads((tts / "tiny.json").read_text(encoding="utf-8"))
    assert "lib.box" not in {m.name for m in find_modules(tmp_path / "decks" / "tiny.yaml")}
    table = FakeTTS(save, seated=["White", "Red"])
    table.click("uiGetReady", "White")
    assert [len(table.hand(c)) for c in ("White", "Red")] == [1, 1]
    table.reload()
    assert table.broadcasts[-1].startswith("Get ready! 1 cards to each of 2 players")


def test_score_in_a_box_away_from_the_centre_discards_by_its_box(shipped):
    """A round of SCORE! played in a box 60 units right of the table's centre: the cards it resolves go face up
    to the box's own discard pile, not to the table's centre (where another game's pile may lie)."""
    full, box_file, _ = shipped("score")
    table = InBox(full, box_file, ["White", "Red"], shift=60.0)
    table.click("uiGetReady", "White")
    [five] = place(table, "White", ["Score! 5"])
    place(table, "White", ["Score! 1", "Score! 2"], start=2)
    [fire] = place(table, "Red", ["Fire! 2"])
    place(table, "Red", ["Score! 2", "Score! 3"], start=2)
    target(table, "Red", "White")
    table.click("scoreScore", "Red")
    assert table.ui_value("score_run_White") == "3"
    ox, oz = origin_of(table.box)
    assert ox == 60.0
    for obj in (five, fire):
        p = obj.getPosition()
        assert (round(p.x - ox, 3), round(p.z - oz, 3)) == (-4.0, 0.0) and obj.getRotation().z == 0


def test_the_box_scripts_lookups_see_only_the_boxs_own_objects(skorch):
    """What the layer hands the runtime: getObjectsWithTag, getObjects and a hand's objects, only the box's;
    Global's own lookups still see everything."""
    full, box_file, _ = skorch
    table = FakeTTS(full, seated=SEATS)
    table.click("uiSkorchDeal", "White", None, "skorch_deal")
    one = table.load_box(box_file, (80.0, 1.5, 0.0))
    two = table.load_box(box_file, (-80.0, 1.5, 0.0))
    for box in (one, two):
        box.click("uiSkorchDeal", "White", None, "skorch_deal")
    for box in (one, two):
        ours = {o.getGUID() for o in mine(table, box)}
        looked = {
            "tagged": [o.getGUID() for o in box.globals.getObjectsWithTag("deck").values()],
            "objects": [o.getGUID() for o in box.globals.getObjects().values()],
            "hand": [o.getGUID() for o in box.globals.Player["White"].getHandObjects().values()],
        }
        assert all(looked.values()) and all(set(guids) <= ours for guids in looked.values()), looked
        assert set(looked["objects"]) == ours and len(looked["hand"]) == 5
    assert len(table.globals.Player["White"].getHandObjects()) == 15
    seated = [p.color for p in one.globals.Player.getPlayers().values()]  # Player's own members pass through
    assert seated == [p.color for p in table.globals.Player.getPlayers().values()] and seated
    assert len(table.globals.getObjects()) == len(table.objects())
