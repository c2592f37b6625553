"""`deckpress playtest`: whole games by bots through the engines' own Lua, and the report they give."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, heeds_ctrl_c, run_cli
from deckpress import playtest

# A rigged game whose results are known: each seat in turn takes a card, Gold or Lead; once every seat has
# one, the Gold holders win together (everybody, when nobody took Gold). Greedy always takes Gold.
RIGGED_ENGINE = """\
local E = {}
function E.setup(data, seats, opts)
  return {seats = seats, n = #seats, turn = 1, took = {}}
end
function E.to_act(s)
  if s.turn > s.n then return {}, "over" end
  return {s.seats[s.turn]}, "turn"
end
function E.legal_moves(s, seat)
  if s.turn > s.n or seat ~= s.seats[s.turn] then return {} end
  return {{take = "lead"}, {take = "gold"}}
end
function E.play(s, seat, move)
  if s.turn > s.n or seat ~= s.seats[s.turn] then return nil, {clause = 1, rule = "turns", text = "wait"} end
  if type(move) ~= "table" or (move.take ~= "gold" and move.take ~= "lead") then
    return nil, {clause = 2, rule = "take", text = "take gold or lead"}
  end
  local t = {seats = s.seats, n = s.n, turn = s.turn + 1, took = {}}
  for k, v in pairs(s.took) do t.took[k] = v end
  t.took[seat] = move.take
  return t, {{what = "took", seat = seat, last = t.turn > t.n, text = seat .. " takes " .. move.take}}
end
function E.determinize(s, seat, seed)  -- nothing is hidden: each seat knows the whole state
  return s
end
function E.scores(s)
  local points, winners, gold = {}, {}, false
  for _, seat in ipairs(s.seats) do
    points[seat] = s.took[seat] == "gold" and 1 or 0
    if points[seat] == 1 then gold = true end
  end
  if s.turn > s.n then
    for _, seat in ipairs(s.seats) do
      if points[seat] == 1 or not gold then winners[#winners + 1] = seat end
    end
  end
  return points, winners
end
function E.all_ids(s) return {"gold", "lead"} end
return E
"""

RIGGED_DECK = """\
game: {name: Rigged, players: {min: 2, max: 3}}
script: rigged
components:
  - id: deck
    name: Deck
    template: card
    cards:
      - {name: Gold}
      - {name: Lead}
"""


@pytest.fixture(scope="module")
def rigged(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rigged")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "tts" / "rigged").mkdir(parents=True)
    (root / "decks" / "rigged.yaml").write_text(RIGGED_DECK, encoding="utf-8")
    (root / "templates" / "card.yaml").write_text("elements:\n  - {type: rect, box: bleed, fill: \"#ffffff\"}\n",
                                                  encoding="utf-8")
    (root / "tts" / "rigged" / "engine.lua").write_text(RIGGED_ENGINE, encoding="utf-8")
    return root


def figures(deck: Path, cores: int = 2, **options) -> dict:
    return playtest.report(playtest.play(playtest.prepare(deck, **options), cores))


def test_one_seed_gives_one_report_on_any_number_of_cores_and_under_either_lua():
    deck = ROOT / "decks" / "score.yaml"
    first = figures(deck, 2, games=12, seed=5)
    assert figures(deck, 1, games=12, seed=5) == first
    assert figures(deck, 2, games=12, seed=5, runtime="5.2") == first
    assert figures(deck, 2, games=12, seed=6) != first


@pytest.mark.parametrize("name", ["scoop", "scout"])
def test_the_other_games_play_the_same_under_lua_5_2_and_luajit(name):
    deck = ROOT / "decks" / f"{name}.yaml"
    assert figures(deck, 1, games=3, seed=2, runtime="5.2") == figures(deck, 2, games=3, seed=2)


def test_the_json_report_has_the_documented_shape_and_its_sums_add_up(tmp_path):
    result = run_cli("playtest", "score", "--games", "16", "--seed", "3", "--bots", "greedy,random,random",
                     "--players", "3", "--json", str(tmp_path / "r.json"), "--out", str(tmp_path / "build"))
    assert result.exit_code == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert {"deck", "mode", "players", "games", "seed", "bots", "seats", "cards", "length"} <= set(report)
    assert (report["deck"], report["mode"], report["players"], report["games"], report["seed"]) == \
        ("score", "classic", 3, 16, 3)
    assert report["bots"] == ["greedy", "random", "random"]
    assert [s["seat"] for s in report["seats"]] == [1, 2, 3]
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(16)
    for row in report["seats"]:
        assert set(row) >= {"seat", "bot", "wins", "win_rate", "ci95"}
        assert row["win_rate"] == pytest.approx(row["wins"] / 16, abs=1e-4)
        assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    ids = [c["id"] for c in report["cards"]]
    assert "score-6" in ids
    order = [(-c["win_rate_when_played"], playtest.natural(c["name"])) for c in report["cards"]]
    assert order == sorted(order)                              # by win rate, then by name in the natural order
    assert sum(c["played"] for c in report["cards"]) > 16 * 3 * 2     # each player lays several kinds of card
    for card in report["cards"]:
        assert set(card) >= {"id", "played", "win_rate_when_played", "ci95"}
        assert 1 <= card["played"] <= 16 * 3 and card["ci95"][0] <= card["win_rate_when_played"] <= card["ci95"][1]
    length = report["length"]
    assert length["p10"] <= length["mean"] <= length["p90"]
    assert report["engine"]["round_over.bug"]["events"] >= 16       # SCORE!'s Bug! rate: over every round
    assert "greedy" in result.stdout and "Score! 6" in result.stdout
    page = tmp_path / "build" / "score" / "playtest" / "classic-3p-greedy+random+random-seed3.html"
    text = page.read_text(encoding="utf-8")
    svgs = [ET.fromstring(s[:s.index("</svg>") + 6]) for s in ("<svg" + p for p in text.split("<svg")[1:])]
    assert len(svgs) == 3 and [len(svg.findall(".//{http://www.w3.org/2000/svg}circle")) for svg in svgs[:2]] == [3, 3]
    assert svgs[1].get("aria-label") == "win rate by place in the turn order"
    manifest = json.loads((tmp_path / "build" / "score" / "manifest.json").read_text(encoding="utf-8"))
    assert f"playtest/{page.name}" in manifest["artifacts"]          # a build counts it as its own


def test_a_rigged_game_gives_its_known_results(rigged):
    deck = rigged / "decks" / "rigged.yaml"
    report = figures(deck, games=40, players=2, bots="greedy,random")
    cards = {c["id"]: c for c in report["cards"]}
    gold_by_random = cards["gold"]["played"] - 40                   # greedy takes Gold every game
    assert 0 < gold_by_random < 40
    assert report["seats"][0]["wins"] == pytest.approx(40 - gold_by_random / 2)
    assert report["seats"][1]["wins"] == pytest.approx(gold_by_random / 2)
    assert cards["lead"]["played"] == 40 - gold_by_random and cards["lead"]["win_rate_when_played"] == 0
    assert report["engine"] == {"took.last": {"rate": 0.5, "events": 80}}
    assert report["length"] == {"mean": 2, "p10": 2, "p90": 2, "unit": "moves"}


def test_a_tie_gives_each_of_its_winners_a_share(rigged):
    report = figures(rigged / "decks" / "rigged.yaml", games=10, players=3, bots="greedy")
    assert [s["wins"] for s in report["seats"]] == pytest.approx([10 / 3] * 3, abs=1e-4)   # all take Gold: a 3-way tie
    assert report["cards"] == [{"id": "gold", "name": "Gold", "played": 30,
                                "win_rate_when_played": pytest.approx(1 / 3, abs=1e-4),
                                "ci95": report["cards"][0]["ci95"]}]


def test_against_the_same_deck_every_difference_is_zero(tmp_path):
    result = run_cli("playtest", "scoop", "--games", "6", "--against", "scoop", "--json", str(tmp_path / "r.json"),
                     "--out", str(tmp_path / "build"))
    assert result.exit_code == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    differences = report["against"]["differences"]
    assert report["against"]["report"]["seats"] == report["seats"]
    assert all(s["difference"] == 0 and not s["significant"] and s["ci95"][0] < 0 < s["ci95"][1]
               for s in differences["seats"])
    assert len(differences["cards"]) == 52 and not any(c["significant"] for c in differences["cards"])
    page = (tmp_path / "build" / "scoop" / "playtest" / "default-4p-random-seed1-vs-scoop.html").read_text("utf-8")
    assert page.count("<svg") == 4 and "Differences: scoop minus scoop" in page  # seats, places, cards, differences


def test_wilson_intervals_match_the_published_values():
    assert playtest.wilson(0, 10) == pytest.approx([0.0, 0.2775], abs=1e-4)
    assert playtest.wilson(5, 10) == pytest.approx([0.2366, 0.7634], abs=1e-4)
    assert playtest.wilson(81, 263) == pytest.approx([0.2553, 0.3662], abs=1e-4)
    # Newcombe (1998), table II, example (a): 56/70 - 48/80 = 0.2000, method 10: 0.0524 to 0.3339
    assert playtest.newcombe((56, 70), (48, 80)) == pytest.approx([0.0524, 0.3339], abs=1e-4)


@pytest.mark.parametrize("args,message", [
    (["score", "--games", "0"], "--games 0: play 1 to 1,000,000 games"),
    (["score", "--games", "1000001"], "--games 1000001: play 1 to 1,000,000 games"),
    (["score", "--bots", "random,clever"], "unknown bot 'clever'"),
    (["score", "--bots", "random,random", "--players", "3"], "one per seat"),
    (["score", "--mode", "speedy"], "--mode speedy: score has no such mode"),
    (["score", "--mode", "duel", "--players", "3"], "--players 3: mode duel is for 2 to 2 players"),
    (["scoop", "--players", "1"], "--players 1: scoop is for 2 to 6 players"),
    (["score", "--budget", "0"], "--budget 0"),
    (["score", "--against", "scoop"], "--against decks/scoop.yaml: it plays 'scoop', score plays 'score'; compare two "
                                      "decks of one game"),
])
def test_bad_input_is_one_line_and_exit_1(tmp_path, args, message):
    result = run_cli("playtest", *args, "--out", str(tmp_path))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and message in lines[0], result.stderr
    assert not any(tmp_path.iterdir())


def test_a_deck_without_a_table_script_is_one_line(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "templates").mkdir()
    deck = RIGGED_DECK.replace("script: rigged\n", "")
    (tmp_path / "decks" / "plain.yaml").write_text(deck, encoding="utf-8")
    (tmp_path / "templates" / "card.yaml").write_text("elements:\n  - {type: rect, box: bleed, fill: \"#ffffff\"}\n",
                                                      encoding="utf-8")
    result = run_cli("playtest", "plain", cwd=tmp_path)
    assert result.exit_code == 1 and result.stderr.strip() == \
        "decks/plain.yaml: the deck has no table script (`script:`) whose rules the bots could play; playtest " \
        "plays scripted games only (docs/scripting.md)"


def test_a_build_keeps_the_playtest_pages_of_its_folder(tmp_path, built):
    out = tmp_path / "build"
    shutil.copytree(built, out / "score")
    assert run_cli("playtest", "score", "--games", "4", "--out", str(out)).exit_code == 0
    page = out / "score" / "playtest" / "classic-4p-random-seed1.html"
    shutil.rmtree(out / "score" / "faces" / "deck")                    # the next build must remake the folder
    result = run_cli("build", "score", "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert page.is_file() and (out / "score" / "faces" / "deck").is_dir()


def test_ctrl_c_stops_within_a_second_and_prints_the_finished_games(tmp_path):
    child = subprocess.Popen([sys.executable, "-m", "deckpress", "playtest", "scoop", "--games", "1000000", "--out",
                              str(tmp_path), "--json", str(tmp_path / "r.json")], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=heeds_ctrl_c)
    time.sleep(6)
    asked = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert time.monotonic() - asked < 3 and child.returncode == 130, err  # 0.3 s measured; room for a loaded machine
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["stopped"] and 0 < report["games"] < 1_000_000 and "(stopped" in out.splitlines()[0]
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(report["games"])


def test_a_game_plays_the_same_in_any_batch(rigged):
    deck = rigged / "decks" / "rigged.yaml"
    assert playtest.chunks(120, 1) != playtest.chunks(120, 2)
    assert figures(deck, 1, games=120, players=3) == figures(deck, 2, games=120, players=3)


def test_search_finds_the_winning_move_of_the_rigged_game(rigged):
    report = figures(rigged / "decks" / "rigged.yaml", games=20, players=2, bots="search,random", budget=8)
    cards = {c["id"]: c for c in report["cards"]}
    gold_by_random = cards["gold"]["played"] - 20                   # search takes Gold every game too
    assert cards.get("lead", {"played": 0})["played"] == 20 - gold_by_random
    assert report["seats"][0]["wins"] == pytest.approx(20 - gold_by_random / 2)
    assert report["budget"] == 8


def test_an_engine_that_fails_mid_game_is_its_line_then_the_game_that_replays_it_and_the_lua_traceback(rigged, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(rigged, root)
    engine = root / "tts" / "rigged" / "engine.lua"
    engine.write_text(engine.read_text(encoding="utf-8").replace(
        "  t.took[seat] = move.take", "  if s.turn == 2 then error(\"no more cards\") end\n  t.took[seat] = move.take"),
        encoding="utf-8")
    result = run_cli("playtest", "rigged", "--games", "3", "--out", str(tmp_path / "build"), cwd=root)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1, result.stderr
    line = 1 + engine.read_text(encoding="utf-8").splitlines().index('  if s.turn == 2 then error("no more cards") end')
    assert lines[0] == f"tts/rigged/engine.lua:{line}: no more cards"
    game = re.fullmatch(r"\(game (\d) of the run, set up with seed \d+: the run's first \d games replay it, "
                        r"--seed 1 --games (\d)\)", lines[1])
    assert game and game[1] == game[2], lines[1]
    assert lines[2] == "Lua traceback:" and lines[3] == f"  tts/rigged/engine.lua:{line}: in function 'play'"
    assert all(frame.startswith("  (deckpress) playtest/bots.lua:") for frame in lines[4:]), lines
    replay = run_cli("playtest", "rigged", "--games", game[2], "--out", str(tmp_path / "build"), cwd=root)
    assert replay.exit_code == 1 and replay.stderr == result.stderr
    if game[2] != "1":
        assert run_cli("playtest", "rigged", "--games", str(int(game[2]) - 1), "--out", str(tmp_path / "build"),
                       cwd=root).exit_code == 0


def test_a_game_that_its_engine_refuses_to_set_up_is_one_line(rigged, tmp_path):
    root = tmp_path / "crowded"
    shutil.copytree(rigged, root)
    engine = root / "tts" / "rigged" / "engine.lua"
    engine.write_text(engine.read_text(encoding="utf-8").replace("function E.setup(data, seats, opts)\n", """\
function E.setup(data, seats, opts)
  if #seats == 3 then return nil, {clause = 4, rule = "seats", text = "three is a crowd"} end
"""), encoding="utf-8")
    result = run_cli("playtest", "rigged", "--players", "3", "--out", str(tmp_path / "build"), cwd=root)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.stderr
    assert lines[0].endswith("rigged with 3 players is refused by the game: clause 4: three is a crowd"), lines[0]


def test_an_engine_without_a_function_of_the_contract_is_the_line_check_says(rigged, tmp_path):
    root = tmp_path / "partial"
    shutil.copytree(rigged, root)
    engine = root / "tts" / "rigged" / "engine.lua"
    engine.write_text(engine.read_text(encoding="utf-8").replace("function E.all_ids(s)", "function E.every_id(s)"),
                      encoding="utf-8")
    line = engine.read_text(encoding="utf-8").splitlines().index("return E") + 1
    out = tmp_path / "build"
    result = run_cli("playtest", "rigged", "--games", "3", "--out", str(out), cwd=root)
    assert (result.exit_code, result.stdout) == (1, ""), result.stdout
    assert result.stderr == (f"tts/rigged/engine.lua:{line}:1: the engine has no all_ids; define every function of "
                             "the engine contract, setup, to_act, legal_moves, play, scores, all_ids "
                             "(docs/scripting.md)\n")
    assert run_cli("check", cwd=root).stderr == result.stderr and not out.exists()


@pytest.mark.parametrize("mode", ["scorlitaire", "scorliroad", "score-against"])
def test_score_solo_modes_play_under_playtest(mode, tmp_path):
    result = run_cli("playtest", "score", "--mode", mode, "--games", "20", "--json", str(tmp_path / "r.json"),
                     "--out", str(tmp_path / "build"))
    assert result.exit_code == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["players"] == 1 and report["games"] == 20 and report["cards"]
    assert 0 <= report["seats"][0]["wins"] <= 20


def test_search_is_refused_on_an_engine_without_determinize_rather_than_seeing_hidden_cards(rigged, tmp_path):
    root = tmp_path / "open"
    shutil.copytree(rigged, root)
    engine = root / "tts" / "rigged" / "engine.lua"
    source = engine.read_text(encoding="utf-8")
    engine.write_text(source.replace("function E.determinize(s, seat, seed)", "local function unused(s, seat, seed)"),
                      encoding="utf-8")
    out = tmp_path / "build"
    result = run_cli("playtest", "rigged", "--games", "3", "--players", "2", "--bots", "greedy,search", "--out", str(out), cwd=root)
    assert result.exit_code == 1 and result.stdout == "", result.stdout
    assert result.stderr.strip() == (
        "--bots search: the search bot needs the engine's determinize(state, seat, seed), which rigged.engine has not "
        "(without it the bot would see every hidden card; docs/scripting.md); use greedy or random bots")
    assert not out.exists()
    assert run_cli("playtest", "rigged", "--games", "3", "--players", "2", "--bots", "greedy,random", "--out", str(out),
                   cwd=root).exit_code == 0


def test_search_plays_out_from_the_engines_determinize_when_it_has_one(rigged, tmp_path):
    root = tmp_path / "fooled"
    shutil.copytree(rigged, root)
    engine = root / "tts" / "rigged" / "engine.lua"
    source = engine.read_text(encoding="utf-8")
    # what the seat may know, as this engine tells it: that Lead wins (the real game does not change)
    source = source.replace("function E.scores(s)", """function E.determinize(s, seat, seed)
  local t = {seats = s.seats, n = s.n, turn = s.turn, took = s.took, fooled = true}
  return t
end
function E.scores(s)
  if s.fooled then
    local points, winners = {}, {}
    for _, seat in ipairs(s.seats) do
      points[seat] = s.took[seat] == "lead" and 1 or 0
      if s.turn > s.n and points[seat] == 1 then winners[#winners + 1] = seat end
    end
    if s.turn > s.n and winners[1] == nil then winners = s.seats end
    return points, winners
  end""")
    source = source.replace("local t = {seats = s.seats, n = s.n, turn = s.turn + 1, took = {}}",
                            "local t = {seats = s.seats, n = s.n, turn = s.turn + 1, took = {}, fooled = s.fooled}")
    engine.write_text(source, encoding="utf-8")
    report = figures(root / "decks" / "rigged.yaml", games=10, players=2, bots="search", budget=8)
    assert [c["id"] for c in report["cards"]] == ["lead"]            # both seats, fooled, take Lead


def test_the_scaffold_of_a_scripted_game_plays_under_playtest(tmp_path):
    root = tmp_path / "mine"
    assert run_cli("new", str(root), "--scripted").exit_code == 0
    deck = next((root / "decks").glob("*.yaml"))
    report = figures(deck, games=20, bots="greedy")
    assert report["games"] == 20 and sum(s["wins"] for s in report["seats"]) == pytest.approx(20)
    report = figures(deck, games=4, players=2, bots="search,random", budget=8)  # its determinize: a fair search
    assert report["games"] == 4 and report["seats"][0]["bot"] == "search"


def test_games_past_max_moves_are_counted_and_left_out_and_the_hint_replays_one(tmp_path):
    out = str(tmp_path / "build")
    result = run_cli("playtest", "skorch", "--players", "2", "--games", "12", "--max-moves", "40", "--json",
                     str(tmp_path / "r.json"), "--out", out)
    assert result.exit_code == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    left = report["unfinished"]
    assert left["max_moves"] == 40 and 0 < left["games"] <= 12 and report["games"] + left["games"] == 12
    assert sum(s["wins"] for s in report["seats"]) == pytest.approx(report["games"])   # the figures: finished games
    line = (f"{left['games']} of 12 games did not end in 40 moves and are left out of the figures; replay one: "
            f"--seed 1 --games {left['replay'][0]}")
    assert line in result.stdout.splitlines()
    replay = run_cli("playtest", "skorch", "--players", "2", "--games", str(left["replay"][0]), "--max-moves", "40",
                     "--json", str(tmp_path / "replay.json"), "--out", out)
    again = json.loads((tmp_path / "replay.json").read_text(encoding="utf-8"))["unfinished"]
    assert replay.exit_code == 0 and again["replay"][-1] == left["replay"][0]   # that game, the last of the replay
    assert run_cli("playtest", "skorch", "--max-moves", "0", "--out", out).stderr == (
        "--max-moves 0: give 1 to 10,000,000 moves (a game still going then is counted as unfinished)\n")


def test_rotate_starts_each_seat_equally_and_reports_the_first_players_advantage(rigged, tmp_path):
    deck = rigged / "decks" / "rigged.yaml"
    run = playtest.prepare(deck, games=40, players=2, bots="greedy,random", rotate=True)
    played = playtest.play(run, cores=2)
    for g, one in played.games.items():  # game g moves seat (g - 1) % 2 + 1 first: each seat starts 20 games
        assert one["winners"] == [(place - 1 + (g - 1) % 2) % 2 + 1 for place in one["places"]]
    assert {g: one["places"] for g, one in played.games.items()} != {g: one["winners"] for g, one in played.games.items()}
    report = playtest.report(played)
    assert report["rotate"] and [p["place"] for p in report["places"]] == [1, 2]
    assert sum(p["wins"] for p in report["places"]) == pytest.approx(sum(s["wins"] for s in report["seats"]))
    first = report["first_player"]
    assert first["advantage"] == pytest.approx(report["places"][0]["win_rate"] - 0.5, abs=1e-4)
    assert first["ci95"][0] <= first["advantage"] <= first["ci95"][1]
    plain = playtest.report(playtest.play(playtest.prepare(deck, games=40, players=2, bots="greedy,random"), cores=1))
    assert plain["places"][0]["wins"] == plain["seats"][0]["wins"]         # unrotated, seat 1 always moves first
    assert report != plain
    assert report == playtest.report(playtest.play(run, cores=1))         # one seed, one report, on any cores
    assert "first player's advantage" in playtest.text(report)
    result = run_cli("playtest", "score", "--mode", "scorlitaire", "--rotate", "--out", str(tmp_path))
    assert result.exit_code == 1 and result.stderr.startswith("--rotate: a game of 1 player has one seating")


def test_cards_are_sorted_by_win_rate_then_by_name_in_the_natural_order():
    names = ["Comet 10", "Comet 2", "Comet 1", "Comet 12", "Comet 11"]
    assert sorted(names, key=playtest.natural) == ["Comet 1", "Comet 2", "Comet 10", "Comet 11", "Comet 12"]
