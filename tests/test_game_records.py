"""Skorch, Scout and Scoop name their table script, so `deckpress check` types their setup options: a
misspelt option, a wrong value or an unknown card id is one located line."""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import ROOT, run_cli


@pytest.mark.parametrize("game, old, new, expected", [
    ("skorch", "    start_discard: 1\n", "    start_dicsard: 1\n", "unknown key 'start_dicsard' in SkorchSetupOptions; "
                                                                   "did you mean 'start_discard'?"),
    ("skorch", "prison_deal_order: [back, front, hand]", "prison_deal_order: [back, frnt, hand]",
     "unknown value 'frnt'; did you mean 'front'?"),
    ("scout", "first_player_card: 1-2 ", "first_player_card: 1-11 ", "first_player_card: no card has the id '1-11'"),
    ("scout", "rounds: players ", "rounds: everyone ", "unknown value 'everyone'; expected one of: players (or: integer)"),
    ("scoop", "    draw_per_turn: 1\n", "    draw_per_turn: 2\n", "2 is too large; write a number of at most 1"),
    # the engine plays a go pile and a game pile, nothing else: check says so, not the table
    ("scoop", "piles: [go, game] ", "piles: [go, game, bonus] ", "3 items where it takes exactly 2; list 2"),
    ("scoop", "piles: [go, game] ", "piles: [go, go] ", "'go' is listed twice"),
])
def test_a_mistake_in_a_scripted_games_options_is_one_located_line(tmp_path, game, old, new, expected):
    (tmp_path / "decks").mkdir()
    text = (ROOT / "decks" / f"{game}.yaml").read_text(encoding="utf-8")
    assert old in text, old
    (tmp_path / "decks" / f"{game}.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    line = text[:text.index(old)].count("\n") + 1 + (old.startswith("\n"))
    result = run_cli("check", game, cwd=tmp_path)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.stderr
    assert lines[0].startswith(f"decks/{game}.yaml:{line}:") and expected in lines[0], lines[0]


def score_without_modes(root) -> str:
    """SCORE!'s deck with `modes: []`, in the project at `root`; the text as it was."""
    (root / "decks").mkdir(parents=True, exist_ok=True)
    text = (ROOT / "decks" / "score.yaml").read_text(encoding="utf-8")
    start = text.index("\nmodes:\n") + 1
    end = start + re.search(r"\n(?=\S)", text[start:]).start() + 1
    (root / "decks" / "score.yaml").write_text(text[:start] + "modes: []\n" + text[end:], encoding="utf-8")
    return text


def test_a_score_deck_without_modes_is_its_own_line_and_the_build_stays(tmp_path):
    """SCORE!'s table offers the deck's modes: a deck with none is said at its `modes:` line, not as a failure
    of deckpress's own template or engine, and the previous build stays as it was."""
    (tmp_path / "decks").mkdir()
    shutil.copy(ROOT / "decks" / "score.yaml", tmp_path / "decks" / "score.yaml")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    assert run_cli("build", "--quiet", cwd=tmp_path).exit_code == 0
    before = {p: p.read_bytes() for p in (tmp_path / "build").rglob("*") if p.is_file()}
    text = score_without_modes(tmp_path)
    line = text[:text.index("\nmodes:\n") + 1].count("\n") + 1
    expected = [f"decks/score.yaml:{line}:8: a SCORE! deck needs at least one mode; list the modes it plays under "
                "`modes:`, e.g. `- {id: classic, name: Classic!, players: {min: 2, max: 6}}`"]
    for args in (["check"], ["build", "--quiet"]):
        result = run_cli(*args, cwd=tmp_path)
        assert result.exit_code == 1 and result.stderr.splitlines() == expected, result.stderr
    assert {p: p.read_bytes() for p in (tmp_path / "build").rglob("*") if p.is_file()} == before


def test_deckpresss_own_template_failing_on_a_decks_data_is_located_at_the_deck_and_asks_for_a_report(tmp_path):
    """A built-in template (here SCORE!'s table controls) that a deck's data breaks in a way no check catches:
    the line names the deck and asks for a report, never deckpress's own file."""
    from deckpress.builders.tts import lua
    from deckpress.deck import load_deck
    from deckpress.errors import DeckError

    deck = ROOT / "decks" / "score.yaml"
    uis = lua.Templates(deck, load_deck(deck).model.scripted)
    with pytest.raises(DeckError) as err:
        uis.render("ui.xml.j2", title="Night", script="score", data={"modes": [], "seats": []}, box=False, seats=[])
    (problem,) = err.value.problems
    assert problem.where.path == str(deck)
    assert problem.message.startswith("deckpress's TTS template (deckpress) ui.xml.j2 failed on this deck: ")
    assert problem.message.endswith("please report it with the deck") and "src/deckpress" not in problem.message


def test_deckpresss_own_lua_failing_on_a_decks_data_is_located_at_the_deck_and_asks_for_a_report(tmp_path):
    """SCORE!'s engine, shipped with deckpress, set up by check's self-play in a project of the designer's with
    data it cannot play (no mode): located at the deck, asking for a report, the Lua traceback below."""
    from deckpress.builders.tts import lua, save
    from deckpress.builders.tts.data import lua_data
    from deckpress.deck import load_deck
    from deckpress.errors import DeckError
    from deckpress.scripting import contract

    path = tmp_path / "decks" / "score.yaml"
    path.parent.mkdir()
    shutil.copy(ROOT / "decks" / "score.yaml", path)
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    deck = load_deck(path)
    data = {**lua_data(deck, save.seats(deck.model), None, [], "score.engine"), "modes": []}
    with pytest.raises(DeckError) as err:
        contract.self_play(lua.find_modules(path, deck.model.scripted), "score.engine", data, path)
    (problem,) = err.value.problems
    assert problem.where.path == str(path)
    head, *traceback = problem.message.splitlines()
    assert head.startswith("deckpress's own Lua failed on this deck: (deckpress) score/engine.lua:")
    assert head.endswith("please report it with the deck") and traceback[0] == "Lua traceback:"
