"""The deck format is defined once; its reference page and JSON Schema follow it."""

from __future__ import annotations

import json
import re

import pytest
import yaml
from jsonschema import Draft202012Validator

from conftest import ROOT, run_cli
from deckpress import reference
from deckpress.options import MAX_ID, Record
from deckpress.schema import slug


def test_reference_page_is_in_step_with_the_schema():
    page = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    assert page == reference.markdown(), "regenerate: deckpress schema --markdown > docs/deck-format.md"


def test_every_key_is_documented():
    page = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    for record in reference.documented():
        assert issubclass(record, Record)
        assert record.__doc__, record
        for key, option in record.OPTIONS.items():
            assert option.doc.strip(), f"{record.__name__}.{key} has no description"
            assert f"| `{key}` |" in page


def test_json_schema_command_describes_the_format():
    result = run_cli("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["required"] == ["game", "components"]
    component = schema["properties"]["components"]["items"]
    assert {"id", "name", "template", "cards", "fields"} <= set(component["properties"])
    assert schema["properties"]["card_size"]["anyOf"][0]["enum"][:2] == ["poker", "bridge"]


def test_help_everywhere():
    for args in ([], ["build"], ["check"], ["schema"], ["install"]):
        result = run_cli(*args, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout


@pytest.mark.parametrize("deck", ["score", "scoop", "scout", "skorch"])
def test_the_shipped_decks_validate_against_the_json_schema(deck):
    """What an editor shows: the JSON Schema accepts every shipped deck..."""
    schema = json.loads(run_cli("schema").stdout)
    Draft202012Validator.check_schema(schema)
    data = yaml.safe_load((ROOT / "decks" / f"{deck}.yaml").read_text(encoding="utf-8"))
    assert [e.message for e in Draft202012Validator(schema).iter_errors(data)] == []


def test_the_json_schema_flags_what_the_build_rejects():
    """...and flags the mistakes deckpress itself rejects."""
    validator = Draft202012Validator(json.loads(run_cli("schema").stdout))
    data = yaml.safe_load((ROOT / "decks" / "score.yaml").read_text(encoding="utf-8"))
    data["components"][0]["cards"][1]["count"] = -3
    data["components"][0]["cards"][2]["count"] = 1001
    data["components"][1]["templat"] = "x"
    data["card_size"] = "pokr"
    paths = sorted(tuple(e.absolute_path) for e in validator.iter_errors(data))
    assert paths == [("card_size",), ("components", 0, "cards", 1, "count"), ("components", 0, "cards", 2, "count"),
                     ("components", 1)]


def test_the_reference_page_states_the_limits():
    page = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    limits = page[page.index("## Limits"):]
    for what, limit in reference.limits():
        assert f"| {what} | {limit} |" in limits.replace("\\|", "|")
    assert "| Copies of one card (`count`) | 1000 |" in limits


# --- a scripted game's own records (src/deckpress/games.py): SCORE! -----------------------------------------

def test_the_json_schema_types_scores_effects_and_options():
    validator = Draft202012Validator(json.loads(run_cli("schema").stdout))
    data = yaml.safe_load((ROOT / "decks" / "score.yaml").read_text(encoding="utf-8"))
    cards = data["components"][0]["cards"]
    cards[1]["effect"] = [{"who": "target", "dubble": 2}]        # Double!
    data["modes"][2]["options"]["hand_sise"] = 6                 # Duel!
    data["setup"]["options"]["order"] = "priorty"
    paths = sorted(tuple(e.absolute_path) for e in validator.iter_errors(data))
    assert ("components", 0, "cards", 1, "effect") in paths
    assert ("modes", 2, "options") in paths and ("setup", "options", "order") in paths
    del data["script"]                                           # without a script the game data is free-form
    assert [e.message for e in validator.iter_errors(data)] == []


MISTAKES = [  # (in decks/score.yaml, instead, the message)
    ("effect: [{who: target, multiply: 2}]", "effect: [{who: target, dubble: 2}]", "unknown key 'dubble' in ScoreStep"),
    ("hand_size: 6, deck_remove", "hand_sise: 6, deck_remove", "did you mean 'hand_size'?"),
    ("deck_remove: [cw, ccw,", "deck_remove: [cw, ccv,", "deck_remove: no card has the id 'ccv'; did you mean 'ccw'?"),
    ("priority_override: {score-1: 4", "priority_override: {score-9: 4", "priority_override: no card has the id 'score-9'"),
    ("effect: [{who: adversaries, add: \"{{ -n }}\"}]", "effect: [{who: target, add: \"{{ -n }}\"}]",
     "acts on the target, but 'Bomb! 1' takes none"),
    ("    order: priority\n", "    order: priorty\n", "order: unknown value 'priorty'; did you mean 'priority'?"),
    ("effect: [{pass: cw}]", "effect: [{pass: cw, add: 1}]", "a step does exactly one of"),
    ("  deal: {2: 15", "  remove: {2: [fire-9]}\n  deal: {2: 15", "setup.remove: no card has the id 'fire-9'"),
]


@pytest.mark.parametrize("old,new,message", MISTAKES, ids=[m[2][:30] for m in MISTAKES])
def test_score_game_data_mistakes_are_located_errors(tmp_path, old, new, message):
    text = (ROOT / "decks" / "score.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "score.yaml").write_text(text.replace(old, new), encoding="utf-8")
    result = run_cli("check", "score", cwd=tmp_path)
    assert result.exit_code == 1
    line = next(l for l in result.stderr.splitlines() if message in l)
    assert re.match(r"decks/score\.yaml:\d+:\d+: ", line), line
    row = int(line.split(":")[1])
    assert new.splitlines()[0].strip()[:12] in text.replace(old, new).splitlines()[row - 1] or "remove" in new


def test_a_default_id_from_a_long_name_is_cut_to_the_id_limit():
    """An id names files (faces/<component>/<id>.png): one made from a long name stays a file name."""
    made = slug("Very long name! " * 20)
    assert len(made) == MAX_ID - 1 and made.startswith("very-long-name-very") and not made.endswith("-")
    assert slug("a" * 300) == "a" * MAX_ID
