"""The studio's table (studio/table.py): whole games of the four shipped games and of a `deckpress new
--scripted` project played through `Table` alone, a human seat choosing from the moves the snapshot offers and
playtest's bots playing the others; what the engine refuses said in its own words; the bots' choices at once
blind to a human's; and a seat shown nothing it cannot see (an engine of the test's own with a view)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from deckpress.errors import DeckError
from deckpress.studio import table as table_module
from deckpress.studio.table import NO_VIEW, Table, TableError
from helpers.fake_tts import to_py

MOVES = 3000  # moves of a game here at most: every game ends long before

# A view for the scaffold's engine (docs/scripting.md's shape): the draw pile face down, the pile face up, each
# hand face up to its owner alone.
VIEW = """
local function entry(card, known)
  if not known then return { down = true } end
  return { id = card.id, card = string.match(card.id, "^(.*)%-%d+$") }
end
function Engine.view(state, seat)
  local zones = {}
  local draw = {}
  for i = 1, #state.draw do draw[i] = { down = true } end
  zones[1] = { name = "Draw pile", cards = draw }
  local pile = {}
  for i, card in ipairs(state.pile) do pile[i] = entry(card, true) end
  zones[2] = { name = "Pile", cards = pile }
  for i, other in ipairs(state.seats) do
    local hand = {}
    for j, card in ipairs(state.hands[other]) do hand[j] = entry(card, other == seat) end
    zones[2 + i] = { name = other .. "'s hand", owner = other, cards = hand }
  end
  return { zones = zones, lines = { "Coins: " .. state.coins[seat or state.seats[1]] } }
end
"""
BLIND = "Engine.view = nil\nEngine.determinize = nil\n"


def project(root: Path, engine_lua: str = "", scripted: bool = True) -> Path:
    """`deckpress new ROOT [--scripted]`, with `engine_lua` run at the end of its engine; returns its deck."""
    result = run_cli("new", str(root), *(["--scripted"] if scripted else []))
    assert result.exit_code == 0, result.stderr
    if engine_lua:
        engine = root / "tts" / root.name / "engine.lua"
        source = engine.read_text(encoding="utf-8")
        at = source.rindex("return Engine")
        engine.write_text(source[:at] + engine_lua + source[at:], encoding="utf-8")
    return root / "decks" / f"{root.name}.yaml"


@pytest.fixture(scope="module")
def viewed(tmp_path_factory) -> Path:
    """A scaffold's game whose engine has the view above, built (its manifest names the faces)."""
    deck = project(tmp_path_factory.mktemp("viewed") / "climb", VIEW)
    assert run_cli("build", "--quiet", cwd=deck.parent.parent).exit_code == 0
    return deck


@pytest.fixture(scope="module")
def blind(tmp_path_factory) -> Path:
    """A scaffold's game whose engine has neither view nor determinize."""
    return project(tmp_path_factory.mktemp("blind") / "climb", BLIND)


def first_move(description):
    """The page's fixed choice of a move description: the first k of a `choose`, the first of a `one_of`."""
    if isinstance(description, dict):
        if "choose" in description:
            return description["from"][: description["choose"]]
        if "one_of" in description:
            return description["one_of"][0]
        return {key: first_move(value) for key, value in description.items()}
    if isinstance(description, list):
        return [first_move(value) for value in description]
    return description


def step(table: Table, humans: list[str], watch=None) -> dict:
    """One move of the game: a bot's when one is to act, else the first human to act plays its first move;
    `watch(snapshot)` sees each human's snapshot before its move. Returns the snapshot it moved from."""
    spectator = table.snapshot(None)
    assert spectator["moves"] == []
    if table.bot_move() is not None:
        return spectator
    seat = next(s for s in spectator["to_act"] if s in humans)
    shown = table.snapshot(seat)
    if watch is not None:
        watch(shown)
    assert shown["moves"], f"{seat} is to act and is offered no move"
    played = table.move(seat, first_move(shown["moves"][0]))
    assert played["ok"], played
    return shown


def play_to_end(table: Table, humans: list[str], watch=None) -> dict:
    for _ in range(MOVES):
        if table.snapshot(None)["kind"] == "over":
            break
        step(table, humans, watch)
    end = table.snapshot(humans[0])
    assert end["kind"] == "over" and end["to_act"] == [] and not end["unfinished"]
    json.dumps(end)  # what the server sends
    return end


def engine_scores(table: Table) -> dict:
    """The engine's own scores of the game's state, read straight from Lua."""
    points, winners = table.game.engine.scores(table._state)
    return {"points": to_py(points) or {}, "winners": to_py(winners)}


@pytest.mark.parametrize("deck", ["score", "scoop", "scout", "skorch"])
def test_a_shipped_game_is_played_to_the_end_by_a_human_and_bots(deck):
    table = Table.load(ROOT / "decks" / f"{deck}.yaml")
    seats = table.data["seats"][:3]
    table.start({seats[0]: "human", seats[1]: "random", seats[2]: "random"}, seed=3)
    end = play_to_end(table, [seats[0]])
    assert end["scores"] == engine_scores(table)
    assert end["scores"]["winners"] and set(end["scores"]["points"]) == set(seats)
    assert [e["n"] for e in end["events"]] == list(range(1, len(end["events"]) + 1))
    assert all(set(e) == {"n", "seat", "what", "text"} for e in end["events"])
    assert any(e["seat"] == seats[0] for e in end["events"]), "the human played no move"
    assert (end["view"] is None) == (end["note"] == NO_VIEW)


def test_a_scaffold_game_is_played_to_the_end_with_greedy_bots(viewed):
    table = Table.load(viewed)
    table.start({"White": "human", "Red": "greedy", "Yellow": "greedy"}, seed=5)
    end = play_to_end(table, ["White"])
    assert end["scores"] == engine_scores(table)
    assert end["game"] == "Climb" and end["seats"] == ["White", "Red", "Yellow"]


def test_a_move_the_engine_refuses_is_its_refusal_text_and_changes_nothing():
    table = Table.load(ROOT / "decks" / "skorch.yaml")
    table.start({"White": "human", "Red": "random"}, seed=2)
    while "White" not in table.snapshot(None)["to_act"]:
        table.bot_move()
    before = table.snapshot("White")
    assert table.move("White", {"cards": ["nobody-holds-this"]}) == {
        "ok": False, "refusal": "Clause 11 (a play): card nobody-holds-this is not yours"}
    assert table.snapshot("White") == before


def test_the_table_refuses_a_bots_seat_a_seat_not_to_act_and_a_move_that_is_no_plain_json(blind):
    table = Table.load(blind)
    table.start({"White": "human", "Red": "human", "Yellow": "random"})
    move = first_move(table.snapshot("White")["moves"][0])
    assert table.snapshot("Red")["moves"] == [] and table.snapshot("Red")["to_act"] == ["White"]
    with pytest.raises(TableError, match="^it is White's turn$"):
        table.move("Red", move)
    with pytest.raises(TableError, match="^Yellow is a bot's seat$"):
        table.move("Yellow", move)
    with pytest.raises(TableError, match="^Yellow is a bot's seat$"):
        table.snapshot("Yellow")
    deep: list = []
    for _ in range(20):
        deep = [deep]
    for bad in (None, {"play": None}, deep, {"play": ["x"] * 2000}, {"play": "x" * 5000}, {"play": float("nan")},
                {"play": 2 ** 60}):
        with pytest.raises(TableError, match="^a move is JSON of objects, lists") as refused:
            table.move("White", bad)
        assert "\n" not in str(refused.value)
    assert table.bot_move() is None  # White, a human, is to act
    while table.snapshot(None)["to_act"] != ["Yellow"]:
        step(table, ["White", "Red"])
    assert table.bot_move()["seat"] == "Yellow"


def test_start_checks_the_seats_the_players_the_mode_and_the_bots(blind, tmp_path):
    table = Table.load(ROOT / "decks" / "score.yaml")
    with pytest.raises(TableError, match="^no game is under way"):
        table.snapshot(None)
    with pytest.raises(TableError, match="^1 player: mode classic is for 2 to 6 players$"):
        table.start({"White": "human"})
    with pytest.raises(TableError, match="^mode fast: score has no such mode; its modes: classic, "):
        table.start({"White": "human", "Red": "random"}, mode="fast")
    with pytest.raises(TableError, match="^seat 'Pink': score has no such seat"):
        table.start({"White": "human", "Pink": "random"})
    with pytest.raises(TableError, match="^seat Red: 'clever' plays no seat; use human, random, greedy, search$"):
        table.start({"White": "human", "Red": "clever"})
    with pytest.raises(TableError, match="^a search bot: the search bot needs the engine's determinize"):
        Table.load(blind).start({"White": "human", "Red": "search"})
    with pytest.raises(TableError, match="the deck has no table script"):
        Table.load(project(tmp_path / "plain", scripted=False))
    broken = project(tmp_path / "broken")
    broken.write_text(broken.read_text(encoding="utf-8").replace("card_size: poker", "card_size: huge"),
                      encoding="utf-8")
    with pytest.raises(DeckError):
        Table.load(broken)


def test_the_same_seed_plays_the_same_game_and_another_seed_or_bot_another():
    def events(seed: int, bot: str = "random") -> list:
        table = Table.load(ROOT / "decks" / "scoop.yaml")
        table.start({"White": "human", "Red": bot, "Yellow": "random"}, seed=seed)
        return play_to_end(table, ["White"])["events"]
    assert events(4) == events(4)
    assert events(4) != events(5)
    assert events(4, "greedy") != events(4)


def test_a_bot_choosing_at_once_with_a_human_does_not_see_the_humans_choice():
    """SCORE!'s classic rounds: every player lays a roster face down at once. Red's greedy bot choosing after
    White laid hers plays the game it plays choosing before."""
    def game(human_first: bool) -> tuple[Counter, dict]:
        table = Table.load(ROOT / "decks" / "score.yaml")
        table.start({"White": "human", "Red": "greedy"}, mode="classic", seed=7)
        shown = table.snapshot("White")
        assert shown["kind"] == "simultaneous" and shown["to_act"] == ["White", "Red"]
        move = first_move(shown["moves"][0])
        if human_first:
            assert table.move("White", move)["ok"]
            assert table.bot_move()["seat"] == "Red"
        else:
            assert table.bot_move()["seat"] == "Red"
            assert table.move("White", move)["ok"]
        end = play_to_end(table, ["White"])
        return Counter((e["seat"], e["what"], e["text"]) for e in end["events"]), end["scores"]
    assert game(True) == game(False)


def test_an_engine_without_view_shows_no_cards_and_says_so(blind):
    table = Table.load(blind)
    table.start({"White": "human", "Red": "random"})
    shown = table.snapshot("White")
    assert shown["view"] is None and shown["note"] == NO_VIEW and shown["cards"] == {}
    assert shown["moves"] and shown["kind"] == "turn"


def test_a_seat_is_shown_its_view_and_nothing_of_another_seats_hand(viewed):
    table = Table.load(viewed)
    table.start({"White": "human", "Red": "human", "Yellow": "random"}, seed=3)
    dealt = table.snapshot("White")["view"]
    table.start({"White": "human", "Red": "human", "Yellow": "random"}, seed=2)
    assert table.snapshot("White")["view"] != dealt, "the seed deals no other hands"
    manifest = json.loads((viewed.parent.parent / "build" / "climb" / "manifest.json").read_text(encoding="utf-8"))
    fronts = {c["card"]: c["front"] for c in manifest["cards"]}
    drew = []

    def watch(shown: dict) -> None:
        hands = {z["owner"]: z["cards"] for z in shown["view"]["zones"] if z.get("owner")}
        seat = shown["seat"]
        assert all("id" in card for card in hands[seat]) and all(card == {"down": True} for s, hand in hands.items()
                                                                  if s != seat for card in hand)
        assert shown["note"] is None
        for card, known in shown["cards"].items():
            assert known == {"name": known["name"], "component": "deck", "face": fronts[card]}
        other = "Red" if seat == "White" else "White"
        hidden = [card["id"] for card in table.snapshot(other)["view"]["zones"][2 + ["White", "Red"].index(other)]
                  ["cards"]]
        text = json.dumps(shown)
        assert not [i for i in hidden if f'"{i}"' in text], f"{seat} is shown a card of {other}'s hand"
        drew.extend(e for e in shown["events"] if e["what"] == "drew" and e["seat"] == other)

    play_to_end(table, ["White", "Red"], watch)
    assert drew, "no hidden draw was ever made: the game tested nothing of the events"


def test_a_game_of_bots_alone_is_watched_through_any_seat_and_a_persons_game_through_none(viewed):
    table = Table.load(viewed)
    table.start({"White": "random", "Red": "random", "Yellow": "greedy"}, seed=4)
    for _ in range(5):
        table.bot_move()
    for seat in ("White", "Red", "Yellow"):
        shown = table.snapshot(seat)
        hands = {z["owner"]: z["cards"] for z in shown["view"]["zones"] if z.get("owner")}
        assert hands[seat] and all("id" in card for card in hands[seat])  # the seat's own hand, face up
        assert all(card == {"down": True} for s, hand in hands.items() if s != seat for card in hand)
        assert shown["seat"] == seat and shown["moves"] == [] and shown["note"] is None and shown["cards"]
    assert table.snapshot(None)["view"] is None
    table.start({"White": "human", "Red": "random", "Yellow": "greedy"}, seed=4)
    with pytest.raises(TableError, match="^Red is a bot's seat$"):
        table.snapshot("Red")


def test_a_game_past_playtests_most_moves_is_unfinished(blind, monkeypatch):
    monkeypatch.setattr(table_module, "MAX_MOVES", 3)
    table = Table.load(blind)
    table.start({"White": "random", "Red": "random"})
    for _ in range(3):
        assert table.bot_move() is not None
    assert table.bot_move() is None
    shown = table.snapshot(None)
    assert shown["unfinished"] and shown["kind"] == "turn" and len(shown["events"]) >= 3


def test_a_search_bot_plays_at_the_table(viewed):
    table = Table.load(viewed)
    table.start({"White": "search", "Red": "human"})
    assert table.bot_move()["seat"] == "White"
    assert table.snapshot("Red")["events"][0]["seat"] == "White"


def test_a_lua_error_of_the_engine_is_one_line_at_its_file(tmp_path, monkeypatch):
    deck = project(tmp_path / "climb", 'Engine.legal_moves = function(state, seat) error("no moves today") end\n')
    monkeypatch.chdir(deck.parent.parent)  # where the studio runs: the project
    table = Table.load(deck)
    table.start({"White": "human", "Red": "random"})
    with pytest.raises(TableError, match=r"^tts/climb/engine\.lua:\d+: no moves today \(in legal_moves, move 1 of climb, "
                                         r"seed 1\)$") as failed:
        table.snapshot("White")
    assert "\n" not in str(failed.value)
