"""`deckpress test`: the table scenarios of a project's tests/*.scenarios.yaml played on the fake of TTS, through
the command line: the scaffold's three pass in a `deckpress new --scripted` project, the four games' pass in
this repository, a wrong expectation fails naming its step, what only a late TTS breaks fails at 20 frames,
each mistake in a scenario file is one located line, and a Lua error is reported at the table's own line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from deckpress.tabletest import scenarios
from deckpress.scripting import runtime


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("designer") / "climb"
    assert run_cli("new", str(root), "--scripted").exit_code == 0
    return root


def scenario_file(project: Path, text: str):
    """Run `deckpress test` in `project` with tests/extra.scenarios.yaml holding `text` beside the scaffold's."""
    extra = project / "tests" / "extra.scenarios.yaml"
    extra.write_text(text, encoding="utf-8")
    try:
        return run_cli("test", cwd=project)
    finally:
        extra.unlink()


def test_the_scaffolds_three_scenarios_pass(project):
    result = run_cli("test", cwd=project)
    assert result.exit_code == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["ok    tests/climb.scenarios.yaml"] * 3
    assert lines[3] == "3 scenarios: all ok" and len(lines) == 4 and result.stderr == ""


def test_the_four_games_scenarios_pass(built):
    """The repository's tests/ holds the pytest suite and, found by their names alone, the games' scenario files."""
    found = [p.name for p in scenarios.files(ROOT / "tests")]
    assert found == ["scoop.scenarios.yaml", "score.scenarios.yaml", "scout.scenarios.yaml", "skorch.scenarios.yaml"]
    result = run_cli("test", "--out", str(built.parent))  # SCORE! is built already; the others once here
    assert result.exit_code == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    count = sum(len(scenarios.read(ROOT / "tests" / name, ["scoop", "score", "scout", "skorch"]).scenarios)
                for name in found)
    assert len(lines) == count + 1 and all(line.startswith("ok    tests/") for line in lines[:-1])
    assert lines[-1] == f"{count} scenarios: all ok"


WRONG = """\
seats: [White, Red]
scenarios:
  - name: A wrong count
    steps:
      - press: {button: New game, as: White}
      - expect:
          says: White dealt a new game
          hand: {White: 6}
"""


def test_a_wrong_expectation_fails_naming_the_step_and_what_differed(project):
    result = scenario_file(project, WRONG)
    assert result.exit_code == 1
    [fail] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert fail.startswith("FAIL  tests/extra.scenarios.yaml:6: A wrong count: step 2 (expect): hand of White: "
                           "expected 6 cards, got 7 (")
    assert "frames late" not in fail  # it fails at TTS's own timing already
    assert result.stdout.splitlines()[-1] == "4 scenarios: 1 failed, 3 ok"


@pytest.mark.parametrize("expect, fails", [
    ('says: "White dealt a new game!"', 'says: expected "White dealt a new game!", got "White dealt a new game: '),
    ('refused: "Clause 2"', 'refused: expected a warning with "Clause 2", got nothing'),
    ("shows: {game_turn: \"White's turn\"}",
     "shows game_turn: expected \"White's turn\", got \"White's turn: any card"),
    ("scores: {Red: 1}", "scores Red: expected 1, got 0"),
    ("hand: {Red: [Wild]}", "hand of Red: expected [Wild], got ["),
    ("on: {pile: [Number 1]}", "on pile: expected [Number 1], got []"),
    ("on: {draw: 5}", "on draw: expected 5 cards, got 6"),
])
def test_each_expectation_compares_exactly(project, expect, fails):
    result = scenario_file(project, WRONG.replace("says: White dealt a new game\n          hand: {White: 6}", expect))
    assert result.exit_code == 1, result.stdout + result.stderr
    [fail] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert f"step 2 (expect): {fails}" in fail, fail


def test_what_a_late_tts_breaks_fails_at_20_frames(project):
    """After a press that does not wait, 10 frames are enough for the deal when TTS answers a frame late, not
    when it answers 20 frames late: the delay is applied to every call that completes later."""
    result = scenario_file(project, WRONG.replace("press: {button: New game, as: White}",
                                                  "press: {button: New game, as: White, wait: false}\n"
                                                  "      - frames: 10").replace("{White: 6}", "{White: 7}"))
    assert result.exit_code == 1
    [fail] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert fail.startswith("FAIL  tests/extra.scenarios.yaml:7: A wrong count: step 3 (expect): ")
    assert fail.endswith(" (TTS 20 frames late)")


def test_a_hidden_button_cannot_be_pressed(project):
    """The scaffold's table replaces the generic Get ready! button (GAME.get_ready = false), which is hidden."""
    result = scenario_file(project, WRONG.replace("button: New game", "button: Get ready!"))
    [fail] = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert "step 1 (press): the button 'Get ready!' is hidden (get_ready is not active)" in fail


@pytest.mark.parametrize("change, where, message", [
    (("hand: {White: 6}", "hand: {White: 6"), "9:1", "YAML syntax error"),
    (("button: New game", "button: New Game"), "5:25", "no button 'New Game' at this table; did you mean 'New game'?"),
    (("as: White", "as: Blue"), "5:39", "'Blue' is no seat at this table"),
    (("seats: [White, Red]", "seats: [White, Orange]"), "1:16", "'Orange' is no seat at this table"),
    (("as: White", "as: Yellow"), "5:39", "Yellow is not seated in this scenario; seat them"),
    (("hand: {White: 6}", "hand: {White: [Number 7]}"), "8:26", "no card 'Number 7' in the deck"),
    (("      - expect:", "      - expectt:"), "6:9", "no step kind 'expectt'; did you mean 'expect'?"),
    (("hand: {White: 6}", "on: {discard: 0}"), "8:16", "'discard' is no place of this table; write one it names "
                                                       "(draw, pile) or hand of <seat>"),
])
def test_a_mistake_in_a_scenario_file_is_one_located_line(project, change, where, message):
    result = scenario_file(project, WRONG.replace(*change))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tests/extra.scenarios.yaml:{where}"), result.stderr
    assert message in lines[0], lines[0]


def broken_table(project: Path, text: str, instead: str) -> tuple[int, str]:
    """Replace `text` in the scaffold's table.lua by `instead`; returns its line number and the old source."""
    table = project / "tts" / "climb" / "table.lua"
    source = table.read_text(encoding="utf-8")
    number = source[:source.index(text)].count("\n") + 1
    table.write_text(source.replace(text, instead), encoding="utf-8")
    return number, source


@pytest.mark.parametrize("line_text, broken, error, first, caller", [
    # in a callback: the Global script's gathering called table.lua's (a line outside the bundled modules)
    ("    deck.shuffle()", "    deck.shufle()", r"Object has no member shufle \(not in the TTS API\)", "done",
     r"Global:\d+: in function 'fn'"),
    # in the button's flow, which lib/table.lua runs under pcall and rethrows: the traceback is where it began
    ("  Api.gather_main_deck(function", "  Api.gather_main_dek(function",
     r"attempt to call field 'gather_main_dek' \(a nil value\)", "fn", r"\(deckpress\) lib/turns\.lua:\d+: .+"),
])
def test_a_lua_error_is_reported_at_the_tables_own_line_then_its_lua_traceback(project, line_text, broken, error,
                                                                                 first, caller):
    line, source = broken_table(project, line_text, broken)
    try:
        result = run_cli("test", cwd=project)
    finally:
        (project / "tts" / "climb" / "table.lua").write_text(source, encoding="utf-8")
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    fails = [i for i, text in enumerate(out) if text.startswith("FAIL")]
    assert len(fails) == 3 and result.stderr == ""
    assert re.search(rf"step \d \(press\): tts/climb/table\.lua:{line}: {error}$", out[fails[0]]), out[fails[0]]
    # Then the traceback, innermost first, deckpress's own Lua named as such; never the fake's frames (TTS's),
    # Python's or C's.
    frames = out[fails[0] + 2:fails[1]]
    assert out[fails[0] + 1] == "Lua traceback:" and frames, out
    assert frames[0] == f"  tts/climb/table.lua:{line}: in function '{first}'", frames
    assert re.fullmatch(rf"  {caller}", frames[1]), frames
    assert all(re.match(r"  (tts/climb/\w+\.lua|\(deckpress\) [\w/.]+|Global):\d+: ", frame)
               for frame in frames), frames
    assert not any("<python>" in frame or "[C]" in frame or "site-packages" in frame for frame in frames), frames


def test_an_endless_loop_at_the_table_is_stopped_at_its_line(project, monkeypatch):
    """The fake bounds every call into the table by deckpress.scripting.runtime's instruction limit (lowered here to
    keep the test quick): the step fails at the loop's line, naming the handler it ran in."""
    monkeypatch.setattr(runtime, "INSTRUCTIONS", 2_000_000)
    line, source = broken_table(project, "    deck.shuffle()", "    while deck do end")
    try:
        result = run_cli("test", cwd=project)
    finally:
        (project / "tts" / "climb" / "table.lua").write_text(source, encoding="utf-8")
    assert result.exit_code == 1
    fails = [text for text in result.stdout.splitlines() if text.startswith("FAIL")]
    assert len(fails) == 3 and result.stderr == ""
    assert re.search(rf"step \d \(press\): tts/climb/table\.lua:{line}: .+ ran past 2000000 Lua instructions: an "
                     r"endless loop\? Every handler and callback of the table must end$", fails[0]), fails[0]
