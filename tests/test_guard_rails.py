"""A designer's own scripted game (`deckpress new --scripted`) is as safe to write as a deck: its Lua is compiled
before anything is written, its XmlUI parsed, its engine loaded and played against the engine contract by `check`
(a break of each invariant is one line naming the function, the seat, the move and the game that replays it), and
a Lua error at run time names the designer's file and line, with the Lua traceback below."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from deckpress.scripting import runtime

ENGINE = "tts/climb/engine.lua"


@pytest.fixture(scope="module")
def scaffold(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("guard") / "climb"
    assert run_cli("new", str(root), "--scripted").exit_code == 0
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    return root


@pytest.fixture
def game(scaffold, tmp_path) -> Path:
    root = tmp_path / "climb"
    shutil.copytree(scaffold, root)
    return root


def edit(root: Path, file: str, old: str, new: str) -> int:
    """Replace `old` (found once) in the project's `file`; the line the replacement starts at."""
    path = root / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def line_of(root: Path, file: str, text: str) -> int:
    return (root / file).read_text(encoding="utf-8").splitlines().index(text) + 1


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_scaffold_passes_check_with_its_self_play(scaffold):
    result = run_cli("check", cwd=scaffold)
    assert result.exit_code == 0 and result.stdout.startswith("decks/climb.yaml: ok"), result.stderr


def test_a_syntax_error_is_one_line_at_the_designers_file_and_the_build_is_untouched(game):
    before = digests(game / "build")
    start = line_of(game, ENGINE, "function Engine.to_act(state)")
    edit(game, ENGINE, "  return { state.turn }, \"turn\"\nend\n", "  return { state.turn }, \"turn\"\n")
    near = line_of(game, ENGINE, "local function to_beat(state)")
    for command in ("check", "build"):
        result = run_cli(command, cwd=game)
        assert result.exit_code == 1 and result.stderr == (
            f"{ENGINE}:{near}:1: 'end' expected (to close 'function' at line {start}) near 'local'\n")
    assert digests(game / "build") == before
    edit(game, ENGINE, "  return { state.turn }, \"turn\"\n", "  return { state.turn }, \"turn\"\nend\n")
    opened = edit(game, ENGINE, "return Engine\n", "function Engine.extra()\nreturn Engine\n")
    last = len((game / ENGINE).read_text(encoding="utf-8").splitlines())
    result = run_cli("check", cwd=game)
    assert result.stderr == (f"{ENGINE}:{last}:1: 'end' expected (to close 'function' at line {opened}) at the end "
                             "of the file\n"), result.stderr


def test_a_syntax_error_near_a_token_points_at_it_when_the_line_has_it_once(game):
    line = edit(game, "tts/climb/table.lua", "\nreturn M\n", "\nlocal x = 1 +* 2\nreturn M\n") + 1
    result = run_cli("check", cwd=game)
    assert (result.exit_code, result.stderr) == (1, f"tts/climb/table.lua:{line}:14: unexpected symbol near '*'\n")
    edit(game, "tts/climb/table.lua", "local x = 1 +* 2", "local x = = 1")
    result = run_cli("check", cwd=game)
    assert (result.exit_code, result.stderr) == (1, f"tts/climb/table.lua:{line}:1: unexpected symbol near '='\n")


def test_an_xmlui_that_is_not_well_formed_is_one_line_at_the_template(game):
    before = digests(game / "build")
    edit(game, "tts/climb/ui.xml.j2", ">Play</Button>", ">Play")
    line = line_of(game, "tts/climb/ui.xml.j2", "  </VerticalLayout>")
    for command in ("check", "build"):
        result = run_cli(command, cwd=game)
        assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stderr.startswith(f"tts/climb/ui.xml.j2:{line}:5: the XmlUI is not well-formed (mismatched "
                                        "tag); close every element you open"), result.stderr
    assert digests(game / "build") == before


def test_the_contract_functions_are_those_the_loaded_engine_has(game):
    line = line_of(game, ENGINE, "return Engine")
    edit(game, ENGINE, "function Engine.all_ids(state)", "function Engine.every_id(state)")
    result = run_cli("check", cwd=game)
    assert result.exit_code == 1 and result.stderr.startswith(f"{ENGINE}:{line}:1: the engine has no all_ids;")
    edit(game, ENGINE, "return Engine", 'Engine["all" .. "_ids"] = Engine.every_id\nreturn Engine')
    assert run_cli("check", cwd=game).exit_code == 0  # defined as the engine runs, not as a regex reads it


VIOLATIONS = {
    "cards-lost": ("  for _, card in ipairs(state.pile) do add(card.id) end",
                   "  for i, card in ipairs(state.pile) do\n    if i > 1 then add(card.id) end\n  end",
                   "function Engine.all_ids(state)", r"all_ids gave other cards after the move: 1 lost \(.+\)"),
    "state-changed": ("  if state.over then return refuse(2, \"turns\", \"the game is over\") end",
                      "  state.passes = state.passes + 1\n  if state.over then return refuse(2, \"turns\", \"over\") end",
                      "function Engine.play(state, seat, move)", "play changed the state it was given"),
    "legal-refused": ("  if out[1] == nil then add({ draw = true }) end",
                      "  if out[1] == nil then add({ draw = true }) end\n  add({ play = \"no-such-card\" })",
                      "function Engine.play(state, seat, move)",
                      "play refused a move legal_moves listed: that card is not in your hand"),
    "no-move": ("  if out[1] == nil then add({ draw = true }) end", "",
                "function Engine.legal_moves(state, seat)", "legal_moves listed no move for a seat to_act names"),
    "over-with-seats": ("  if state.over then return {}, \"over\" end", "  if state.over then return { state.turn }, \"over\" end",
                        "function Engine.to_act(state)", "to_act said the game is over and named seats to act"),
    "no-seat-mid-game": ("  return { state.turn }, \"turn\"", "  return {}, \"turn\"", "function Engine.to_act(state)",
                         "to_act named no seat while the game is not over"),
    "no-winner": ("  return points, copy(state.winners)", "  return points, {}",
                  "function Engine.scores(state)", "scores named no winner of a game that is over"),
    "determinize-changes-input": ("  local out = copy(state)\n  local k = 0", "  local out = state\n  local k = 0",
                                  "function Engine.determinize(state, seat, seed)",
                                  "determinize changed the state it was given"),
    "determinize-ignores-seed": ("function Engine.determinize(state, seat, seed)\n",
                                 "local calls = 0\nfunction Engine.determinize(state, seat, seed)\n  calls = calls + 1\n"
                                 "  seed = seed + calls\n",
                                 "function Engine.determinize(state, seat, seed)", "determinize gave two states for one seed"),
    "determinize-sees-hidden": ("  table.sort(hidden, function(a, b) return a.id < b.id end)\n", "",
                                "function Engine.determinize(state, seat, seed)",
                                "determinize gave a result that depends on what the seat cannot see"),
    "view-leaks-a-hand": ("put(other == seat and face_up(card) or { down = true })", "put(face_up(card))",
                          "function Engine.view(state, seat)",
                          r"view shows (White|Red) a card it cannot see \((White|Red)'s hand, card 1: number-\d-\d\)"),
    "view-face-not-in-data": ('card = string.match(card.id, "^(.-)%-%d+$")', "card = card.id",
                              "function Engine.view(state, seat)",
                              r"view gave the card number-\d-\d the face number-\d-\d, which is no card of DATA's "
                              r"components \((White|Red)'s hand, card 1\)"),
    "view-id-not-a-card": ("return { id = card.id, card", "return { id = \"x\" .. card.id, card",
                           "function Engine.view(state, seat)", "view named the card x.+, which all_ids does not give"),
    "view-returns-a-function": ("  return { zones = zones, lines = lines }", "  return function() return zones end",
                                "function Engine.view(state, seat)",
                                "view returned function where the view goes"),
    "view-changes-state": ("  return { zones = zones, lines = lines }",
                           "  state.viewed = true\n  return { zones = zones, lines = lines }",
                           "function Engine.view(state, seat)", "view changed the state it was given"),
    "view-not-deterministic": ("  return { zones = zones, lines = lines }",
                               "  Engine.views = (Engine.views or 0) + 1\n  say(\"view \" .. Engine.views)\n"
                               "  return { zones = zones, lines = lines }",
                               "function Engine.view(state, seat)", "view gave two views of one state"),
}


@pytest.mark.parametrize("case", list(VIOLATIONS))
def test_a_break_of_each_invariant_is_one_line_naming_function_seat_move_and_game(game, case):
    old, new, defined, message = VIOLATIONS[case]
    edit(game, ENGINE, old, new)
    line = line_of(game, ENGINE, defined)
    result = run_cli("check", cwd=game)
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
    found = re.fullmatch(rf"{re.escape(ENGINE)}:{line}:1: {message}.* \((seat \"(White|Red|Yellow)\", )?(move .+, )?"
                         r"at move \d+ of the game setup\(DATA, \{.+\}, \{seed = \d\}\)\); .+\n", result.stderr)
    assert found, result.stderr
    if case not in ("over-with-seats", "no-winner", "no-seat-mid-game"):
        assert found[1], result.stderr                                 # the seat
    if case in ("cards-lost", "state-changed", "legal-refused"):
        assert re.fullmatch(r'move \{(play = "[\w-]+"|draw = true)\}, ', found[3] or ""), result.stderr  # its move
    if case == "cards-lost":  # the move that put the first card on the pile, where all_ids no longer sees it
        assert re.search(r'1 lost \(([\w-]+)\) .*move \{play = "\1"\}', result.stderr), result.stderr


def test_a_lua_error_in_the_self_play_is_its_line_then_the_lua_traceback(game):
    line = edit(game, ENGINE, "Util.index_of(state.seats, seat)", "Util.indexof(state.seats, seat)")
    result = run_cli("check", cwd=game)
    lines = result.stderr.splitlines()
    assert result.exit_code == 1
    assert re.fullmatch(rf"{re.escape(ENGINE)}:{line}: attempt to call field 'indexof' \(a nil value\) \(move \d+ "
                        r"of the game setup\(DATA, \{.+\}, \{seed = 1\}\)\)", lines[0]), lines[0]
    assert lines[1:3] == ["Lua traceback:", f"  {ENGINE}:{line}: in function 'next_seat'"], lines
    play = re.fullmatch(rf"  {re.escape(ENGINE)}:(\d+): in function 'play'", lines[3])
    assert play and "next_seat(state, seat)" in (game / ENGINE).read_text(encoding="utf-8").splitlines()[int(play[1]) - 1]
    assert all(frame.startswith("  (deckpress) playtest/contract.lua:") for frame in lines[4:]), lines


def test_an_engine_that_never_returns_is_stopped_at_the_instruction_limit_naming_the_function(game):
    line = edit(game, ENGINE, "  if state.over or seat ~= state.turn then return out end",
                "  while #out == 0 do out = {} end")
    result = run_cli("check", cwd=game)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{ENGINE}:{line}: legal_moves ran past {runtime.INSTRUCTIONS} Lua instructions: "
                                    "an endless loop?"), result.stderr
    playtest = run_cli("playtest", "climb", "--games", "2", "--lua", "jit", cwd=game)
    assert playtest.exit_code == 1 and playtest.stderr.startswith(
        f"{ENGINE}:{line}: legal_moves ran past {runtime.INSTRUCTIONS} Lua instructions"), playtest.stderr


def test_an_engine_that_grows_without_end_is_stopped_at_the_memory_limit(game):
    line = edit(game, ENGINE, "  if state.over then return {}, \"over\" end",
                "  local grow = {}\n  while true do grow[#grow + 1] = {state} end") + 1
    result = run_cli("check", cwd=game)
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{ENGINE}:{line}: to_act made the Lua state hold more than "
                                    f"{runtime.MEMORY >> 20} MB"), result.stderr
