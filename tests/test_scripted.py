"""A scripted game is a folder found by the deck's `script:` (src/deckpress/scripting/games.py): in the project's
tts/, then in an installed package (entry points `deckpress.games`), then among deckpress's own; its records
file types the deck's game data."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from jsonschema import Draft202012Validator

from conftest import ROOT, run_cli

MODULE = re.compile(r'^MODULES\["([\w.]+)"\]', re.M)


def lua_modules(save: dict) -> list[str]:
    return MODULE.findall(save["LuaScript"])


def test_a_renamed_copy_of_a_deck_plays_the_same_game(tmp_path, built):
    """decks/score.yaml saved as decks/score-duel.yaml, in a project without a tts/ folder: its Global script
    bundles SCORE!'s whole referee from deckpress's own games, by `script: score`, as the original's does."""
    (tmp_path / "decks").mkdir()
    shutil.copy(ROOT / "decks" / "score.yaml", tmp_path / "decks" / "score-duel.yaml")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    result = run_cli("build", "score-duel", "--quiet", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    duel = json.loads((tmp_path / "build/score-duel/tts/score-duel.json").read_text(encoding="utf-8"))
    original = json.loads((built / "tts" / "score.json").read_text(encoding="utf-8"))
    assert lua_modules(duel) == lua_modules(original)
    assert {"score.engine", "score.referee", "score.table"} <= set(lua_modules(duel))
    assert 'script = "score"' in duel["LuaScript"]
    assert abs(len(duel["LuaScript"]) - len(original["LuaScript"])) < 1000  # the deck's name, the file paths
    inputs = json.loads((tmp_path / "build/score-duel/manifest.json").read_text(encoding="utf-8"))["inputs"]
    assert {"script:score/engine.lua", "script:score/game.yaml", "script:score/checks.py"} <= set(inputs)
    assert not [name for name in inputs if name.startswith("/")]  # named the same wherever deckpress is


GAME = """\
setup: MySetup
modes: MyMode
cards:
  power: {type: map, keys: {choices: [fire, ice], doc: An element.}, values: {type: integer, min: 0, doc: Points.},
          doc: The card's power by element.}
records:
  MySetup:
    doc: My game's setup.options.
    keys:
      rounds: {type: integer, min: 1, max: 9, doc: Rounds a game has.}
      first: {type: card, default: null, doc: The card whose holder starts.}
  MyMode:
    doc: A mode's changes.
    keys_of: MySetup
"""

DECK = """\
game: {name: Mine, players: {min: 2, max: 4}}
script: mine
components:
  - id: deck
    name: Deck
    template: card
    fields:
      power: {type: map, doc: Power., default: {}}
    cards:
      - {name: Spark, power: {fire: 2}}
      - {name: Frost, power: {ice: 1}}
modes:
  - {id: short, name: Short, options: {rounds: 2}}
setup:
  options: {rounds: 3, first: spark}
"""


# The smallest engine `check` accepts: every function of the engine contract (docs/scripting.md), and a game
# that keeps it, the first seat's one move ending it.
ENGINE = """local E = {name = 'mine'}
function E.setup(data, seats, opts) return {seats = seats, over = false} end
function E.to_act(s) if s.over then return {}, "over" end return {s.seats[1]}, "turn" end
function E.legal_moves(s, seat) return {{stop = true}} end
function E.play(s, seat, move) return {seats = s.seats, over = true}, {} end
function E.scores(s)
  local points = {}
  for _, seat in ipairs(s.seats) do points[seat] = 0 end
  return points, s.over and {s.seats[1]} or {}
end
function E.all_ids(s) return {} end
return E
"""


def project(root: Path, deck: str = DECK, game: str | None = GAME) -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "decks" / "mine.yaml").write_text(deck, encoding="utf-8")
    (root / "templates" / "card.yaml").write_text("elements:\n  - {type: rect, box: bleed, fill: \"#ffffff\"}\n",
                                                  encoding="utf-8")
    if game is not None:
        (root / "tts" / "mine").mkdir(parents=True)
        (root / "tts" / "mine" / "game.yaml").write_text(game, encoding="utf-8")
        (root / "tts" / "mine" / "engine.lua").write_text(ENGINE, encoding="utf-8")
    return root


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.stderr
    return lines[0]


def test_a_projects_own_game_types_its_options(tmp_path):
    root = project(tmp_path)
    assert run_cli("check", "mine", cwd=root).exit_code == 0
    deck = root / "decks" / "mine.yaml"
    for old, new, message in [
        ("{rounds: 3, first: spark}", "{rounds: 30, first: spark}", "rounds: 30 is too large"),
        ("first: spark}", "first: sprak}", "first: no card has the id 'sprak'; did you mean 'spark'?"),
        ("options: {rounds: 2}", "options: {round: 2}", "unknown key 'round' in MyMode; did you mean 'rounds'?"),
        ("power: {fire: 2}", "power: {fir: 2}", "unknown value 'fir'; did you mean 'fire'?"),
    ]:
        deck.write_text(DECK.replace(old, new), encoding="utf-8")
        line = one_line(run_cli("check", "mine", cwd=root))
        row = DECK.replace(old, new).splitlines().index(next(l for l in DECK.replace(old, new).splitlines() if new in l))
        assert line.startswith(f"decks/mine.yaml:{row + 1}:") and message in line, line


def test_the_deck_schema_types_a_projects_own_game(tmp_path):
    root = project(tmp_path)
    result = run_cli("schema", "--deck", "mine", cwd=root)
    assert result.exit_code == 0, result.stderr
    validator = Draft202012Validator(json.loads(result.stdout))
    import yaml
    data = yaml.safe_load(DECK)
    assert list(validator.iter_errors(data)) == []
    data["setup"]["options"]["rounds"] = 10
    data["modes"][0]["options"]["round"] = 1
    data["components"][0]["cards"][0]["power"] = {"fir": 2}
    paths = sorted(tuple(e.absolute_path) for e in validator.iter_errors(data))
    assert paths == [("components", 0, "cards", 0, "power"), ("modes", 0, "options"),
                     ("setup", "options", "rounds")], paths


def test_a_game_folder_without_records_keeps_the_data_free_form(tmp_path):
    root = project(tmp_path, DECK.replace("{rounds: 3, first: spark}", "{anything: [1, 2]}"), game=None)
    (root / "tts" / "mine").mkdir(parents=True)
    (root / "tts" / "mine" / "table.lua").write_text("return {}\n", encoding="utf-8")
    assert run_cli("check", "mine", cwd=root).exit_code == 0


def test_the_projects_folder_comes_before_deckpresss_own_game(tmp_path):
    """A project's tts/score/ is the whole game for its decks: its records, not SCORE!'s, type the options."""
    root = project(tmp_path, DECK.replace("script: mine", "script: score"), game=None)
    (root / "tts" / "score").mkdir(parents=True)
    (root / "tts" / "score" / "game.yaml").write_text(GAME, encoding="utf-8")
    assert run_cli("check", "mine", cwd=root).exit_code == 0


INSTALLED = """\
import sys
from deckpress.cli import main
sys.argv = ["deckpress", *sys.argv[1:]]
main()
"""


def test_an_installed_package_brings_a_game(tmp_path):
    """A distribution registering `mine` in the entry-point group deckpress.games: a project without tts/
    finds the game there, its records typing the deck and its Lua bundled under the game's name."""
    site = tmp_path / "site"
    package = site / "mine_game"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "game.yaml").write_text(GAME, encoding="utf-8")
    (package / "engine.lua").write_text(ENGINE.replace("'mine'", "'from the package'"), encoding="utf-8")
    info = site / "mine_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mine-game\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[deckpress.games]\nmine = mine_game\n", encoding="utf-8")
    root = project(tmp_path / "project", game=None)
    env = {**os.environ, "PYTHONPATH": str(site)}

    def deckpress(*args):
        return subprocess.run([sys.executable, "-c", INSTALLED, *args], cwd=root, env=env, capture_output=True,
                              text=True, timeout=120)
    done = deckpress("check", "mine")
    assert done.returncode == 0, done.stderr
    (root / "decks" / "mine.yaml").write_text(DECK.replace("rounds: 3", "rounds: 0"), encoding="utf-8")
    done = deckpress("check", "mine")
    assert done.returncode == 1 and "rounds: 0 is too small" in done.stderr, done.stderr
    (root / "decks" / "mine.yaml").write_text(DECK, encoding="utf-8")
    done = deckpress("build", "mine", "--quiet")
    assert done.returncode == 0, done.stderr
    save = json.loads((root / "build/mine/tts/mine.json").read_text(encoding="utf-8"))
    assert "mine.engine" in lua_modules(save) and "from the package" in save["LuaScript"]
    rules = json.loads(deckpress("schema").stdout)["allOf"]  # the generic schema knows it too
    assert {"script": {"const": "mine"}} in [rule["if"]["properties"] for rule in rules]
    (package / "game.yaml").write_text(GAME.replace("type: integer, min: 1", "type: integr, min: 1"), encoding="utf-8")
    for command in ("check", "schema"):
        done = deckpress(command)
        assert done.returncode == 1 and "game.yaml:10:" in done.stderr and "unknown type 'integr'" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_every_package_of_the_source_ships():
    """pyproject.toml lists the packages (the games' mapping needs it): every folder of Python under src/deckpress
    is one of them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    source = ROOT / "src"
    found = {".".join(p.parent.relative_to(source).parts) for p in source.rglob("*.py")}
    assert found <= listed, sorted(found - listed)
    assert config["package-dir"]["deckpress.games"] == "tts"
    assert all((ROOT / "tts" / game / "game.yaml").is_file() for game in ("score", "scout", "skorch", "scoop"))
