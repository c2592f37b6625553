"""`deckpress new PATH --scripted`: a designer's own scripted game that builds, types and checks its options
(its game.yaml), keeps the engine contract (tests/helpers/contract_driver.py, as the four games do) and plays at
the table in the strict fake of TTS (delays 0, 1, 20), a whole game through its buttons."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import run_cli
from helpers.contract_driver import Game, playout, setup
from deckpress.scripting import games
from deckpress.builders.tts.data import lua_data
from deckpress.deck import load_deck
from deckpress.errors import Where
from deckpress.builders.tts.lua import bundle, find_modules
from helpers.fake_tts import FakeTTS, inner, timing, to_lua, to_py  # noqa: F401 (timing: every test at 0, 1, 20 frames)
from helpers.lua_modules import runtime

SEATS = ["White", "Red", "Yellow"]


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("designer") / "climb"
    result = run_cli("new", str(root), "--scripted")
    assert result.exit_code == 0, result.stderr
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    return root


@pytest.fixture(scope="module")
def save(project) -> dict:
    return json.loads((project / "build" / "climb" / "tts" / "climb.json").read_text(encoding="utf-8"))


def test_the_scripted_game_is_a_folder_the_deck_names_and_its_options_are_typed(project, save):
    files = sorted(p.relative_to(project).as_posix() for p in project.rglob("*")
                   if p.is_file() and "build" not in p.parts)
    assert files == ["README.md", "decks/climb.yaml", "templates/back.yaml", "templates/card.yaml",
                     "tests/climb.scenarios.yaml", "tts/climb/engine.lua", "tts/climb/game.yaml", "tts/climb/table.lua",
                     "tts/climb/ui.xml.j2"]
    deck = (project / "decks" / "climb.yaml").read_text(encoding="utf-8")
    assert "\nscript: climb " in deck and "    coins_per_wild: 1\n" in deck
    assert 'MODULES["climb.engine"]' in save["LuaScript"] and 'MODULES["climb.table"]' in save["LuaScript"]
    assert 'onClick="uiGamePlay"' in save["XmlUI"]
    for bad, expected in (("coins_per_wild: 1", "coins_per_wild: 9 is too large; write a number of at most 3"),
                          ("wild_plays_again: true", "wild_plays_again")):
        broken = deck.replace(bad, bad.split(":")[0] + ": 9")
        (project / "decks" / "climb.yaml").write_text(broken, encoding="utf-8")
        try:
            result = run_cli("check", cwd=project)
        finally:
            (project / "decks" / "climb.yaml").write_text(deck, encoding="utf-8")
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("decks/climb.yaml:"), result.stderr
        assert expected in lines[0]


def engine_game(project: Path) -> Game:
    deck_path = project / "decks" / "climb.yaml"
    lua = runtime()
    lua.execute(bundle(find_modules(deck_path, games.find("climb", deck_path, Where(str(deck_path))))))
    data = lua_data(load_deck(deck_path), SEATS, None, [], "climb.engine")
    return Game(lua, lua.globals().use("climb.engine"), to_lua(lua, data))


def test_its_engine_keeps_the_contract(project):
    game = engine_game(project)
    for players, seed in ((2, 1), (3, 2), (3, 3)):
        final, _ = playout(game, SEATS[:players], seed)
        assert final["over"] and final["winners"]
    assert playout(game, SEATS[:2], 5) == playout(game, SEATS[:2], 5)


def test_its_determinize_redeals_only_what_the_seat_cannot_see(project):
    """The scaffold's determinize (for playtest's search bot): the seat's own hand and the pile stay, the other
    hands keep their sizes, every card is kept, and the other hands and the draw pile change with the seed."""
    game = engine_game(project)
    state, _ = setup(game, SEATS[:3], seed=4)
    before = to_py(state)
    redeals = [to_py(game.engine.determinize(state, "White", seed)) for seed in range(1, 6)]
    for after in redeals:
        assert after["hands"]["White"] == before["hands"]["White"] and after["pile"] == before["pile"]
        assert [len(after["hands"][s]) for s in SEATS[:3]] == [len(before["hands"][s]) for s in SEATS[:3]]
        assert sorted(to_py(game.engine.all_ids(to_lua(game.lua, after)))) == sorted(to_py(game.engine.all_ids(state)))
    assert len({str((r["hands"]["Red"], r["draw"])) for r in redeals}) == 5
    assert to_py(state) == before                                                  # the input unchanged


def test_its_view_shows_the_seat_its_hand_and_the_pile_and_the_rest_face_down(project):
    """The scaffold's view (for the table page of deckpress studio): the draw pile by its size, the pile face up
    bottom to top, the seat's own hand face up and the other hands face down, each card's face its deck card id;
    the coins as lines."""
    game = engine_game(project)
    state, _ = setup(game, SEATS[:2], seed=4)
    state, _ = game.engine.play(state, "White", to_lua(game.lua, to_py(game.engine.legal_moves(state, "White"))[0]))
    s = to_py(state)
    def up(cards):
        return [{"id": c["id"], "card": c["id"].rsplit("-", 1)[0]} for c in cards]
    assert to_py(game.engine.view(state, "Red")) == {
        "zones": [{"name": "draw pile", "cards": [{"down": True}] * len(s["draw"])},
                  {"name": "pile", "cards": up(s["pile"])},
                  {"name": "White's hand", "owner": "White", "cards": [{"down": True}] * len(s["hands"]["White"])},
                  {"name": "Red's hand", "owner": "Red", "cards": up(s["hands"]["Red"])}],
        "lines": [f"White: {s['coins']['White']} coins", f"Red: {s['coins']['Red']} coins"]}
    faces = {c["id"] for component in to_py(game.data)["components"] for c in component["cards"]}
    assert len(s["pile"]) == 1 and {c["card"] for c in up(s["pile"] + s["hands"]["Red"])} <= faces


def state(table) -> dict:
    return to_py(table.globals.GAME.state())


def pile_spot(table):
    x, y, z = to_py(table.globals.DATA.layout.home)
    return x + 3.0, y + 0.5, z


def put_on_pile(table, guid):
    table.globals.getObjectFromGUID(guid).setPosition(table.lua.table_from(list(pile_spot(table))))


def check_table(table, s):
    """Every hand holds the engine's cards; the pile's cards lie on the pile; nothing is lost."""
    for color in s["seats"]:
        assert sorted(o.getGUID() for o in table.hand_objects(color)) == sorted(c["id"] for c in s["hands"][color])
    x, _, z = pile_spot(table)
    for card in s["pile"]:
        p = inner(table.globals.getObjectFromGUID(card["id"])).position
        assert abs(p.x - x) < 1.5 and abs(p.z - z) < 1.5


def test_a_whole_game_through_the_buttons_follows_the_engine(save):
    table = FakeTTS(save, seated=SEATS)
    table.click("uiGameNewGame", "White", None, "game_new_game")
    engine = table.globals.use("climb.engine")
    s = state(table)
    every = sorted(to_py(engine.all_ids(table.globals.GAME.state())))
    assert len(every) == 20 and all(len(s["hands"][c]) == 6 for c in SEATS)
    check_table(table, s)
    rng = random.Random(4)
    for turn in range(200):
        if s["over"]:
            break
        if turn % 5 == 4:  # saved and loaded again: the table goes on where it was
            shown = table.ui_value("game_turn")
            table.reload()
            engine = table.globals.use("climb.engine")
            assert state(table) == s and table.ui_value("game_turn") == shown
        seat = s["turn"]
        move = rng.choice(to_py(engine.legal_moves(table.globals.GAME.state(), seat)))
        expected, _ = engine.play(table.globals.GAME.state(), seat, to_lua(table.lua, move))
        if "play" in move:
            put_on_pile(table, move["play"])
            table.click("uiGamePlay", seat, None, "game_play")
        else:
            table.click("uiGameDraw", seat, None, "game_draw")
        s = state(table)
        assert s == to_py(expected), table.broadcasts[-2:]
        assert sorted(to_py(engine.all_ids(table.globals.GAME.state()))) == every
        check_table(table, s)
    else:
        pytest.fail("the game did not end in 200 turns")
    winners = " and ".join(s["winners"])
    assert table.ui_value("game_turn") == winners + (" win" if len(s["winners"]) > 1 else " wins")
    assert any(winners in b for b in table.broadcasts[-2:])


def test_a_card_that_does_not_beat_the_pile_is_refused_and_goes_back(save):
    table = FakeTTS(save, seated=SEATS[:2])
    table.click("uiGameNewGame", "White", None, "game_new_game")
    table.click("uiGamePlay", "White", None, "game_play")
    assert table.broadcasts[-1] == "White: put one card of your hand on the pile, then press Play"
    s = state(table)
    hand = sorted((c for c in s["hands"]["White"] if c["value"] > 0), key=lambda c: c["value"])
    put_on_pile(table, hand[-1]["id"])  # the highest number first
    table.click("uiGamePlay", "White", None, "game_play")
    s = state(table)
    assert [c["id"] for c in s["pile"]] == [hand[-1]["id"]] and s["turn"] == "Red"
    lower = [c for c in s["hands"]["Red"] if 0 < c["value"] <= hand[-1]["value"]]
    if lower:
        put_on_pile(table, lower[0]["id"])
        table.click("uiGamePlay", "Red", None, "game_play")
        assert table.broadcasts[-1] == (f"Red: Clause 2 (turns): a {lower[0]['value']} does not beat the "
                                        f"{hand[-1]['value']} on the pile. The cards go back.")
        assert state(table) == s
        check_table(table, s)
    table.click("uiGameDraw", "White", None, "game_draw")
    assert table.broadcasts[-1] == "White: Clause 2 (turns): it is Red's turn"
