"""Skorch, Scout and Scoop name their table script, so `deckpress check` types their setup options: a
misspelt option, a wrong value or an unknown card id is one located line."""

from __future__ import annotations

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
