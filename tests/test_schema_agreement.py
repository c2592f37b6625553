"""The JSON Schema an editor validates with agrees with `deckpress check`: over a corpus of accepted and
rejected decks, loaded as editors load YAML (1.2, with ruamel.yaml), both give the same verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from conftest import run_cli
from helpers.yaml12 import load_12

# (what, old, new): an edit of the deck `deckpress new` writes; accepted decks first.
ACCEPTED = [
    ("as written", "", ""),
    ("a version written as a number", 'version: "0.1"', "version: 0.1"),
    ("a name written as a number", "name: Main deck", "name: 1830"),
    ("a count written as digits in quotes", "count: 3", 'count: "3"'),
    ("an expression in a family", "count: 3", 'count: "{{ n }}"'),
    ("a size in millimetres", "card_size: poker", "card_size: {width: 60, height: 90}"),
    ("text per language", "    body:\n      - Be the first", "    body:\n      - {en: Be the first"),
    ("one player", "players: {min: 2, max: 4}", "players: {min: 1, max: 4}"),
    ("an id that is a number", "  - id: coins", "  - id: 7"),
    ("a colour field given", 'colour: "#7d3c98"', 'colour: "#000000"'),
    ("an octal-looking number is ten in YAML 1.2", "count: 2\n", "count: 010\n"),
    ("a JPEG quality of 100, its maximum", "card_size: poker", "card_size: poker\ntts: {quality: 100}"),
    ("a bleed of 10 mm, its maximum", "card_size: poker", "card_size: poker\nbleed: 10"),
    ("a bleed written as a number in quotes", "card_size: poker", 'card_size: poker\nbleed: "2.5"'),
]
REJECTED = [
    ("an undeclared card field", '        colour: "#7d3c98"', '        colour: "#7d3c98"\n        power: 3'),
    ("a player count written as a word", "deal: {2: 7, 3: 6, 4: 5}", "deal: {2: 7, three: 6, 4: 5}"),
    ("an expression outside a family", "count: 2\n", 'count: "{{ 1 }}"\n'),
    ("a card too large", "card_size: poker", "card_size: {width: 600, height: 90}"),
    ("a card too small", "card_size: poker", "card_size: {width: 5, height: 90}"),
    ("min above max players", "players: {min: 2, max: 4}", "players: {min: 5, max: 4}"),
    ("too many players", "players: {min: 2, max: 4}", "players: {min: 2, max: 400}"),
    ("yes is text in YAML 1.2", "    type: tokens", "    type: tokens\n    optional: yes"),
    ("a negative count", "count: 3", "count: -3"),
    ("an unknown component key", "    shape: circle", "    shpe: circle"),
    ("an unknown card size", "card_size: poker", "card_size: pokerr"),
    ("a missing required field", "        value: 0\n", ""),
    ("a field of the wrong type", "        value: 0\n", "        value: zero\n"),
    ("an unknown shape", "shape: circle", "shape: blob"),
    ("a language code that is not one", 'version: "0.1"', 'version: "0.1"\n  language: english'),
    ("no components", "components:\n", "components: []\nunused:\n"),
    ("a count of 3.5", "count: 2\n", "count: 3.5\n"),
    ("a count of 3.5 in quotes", "count: 2\n", 'count: "3.5"\n'),
    ("a JPEG quality above its maximum", "card_size: poker", "card_size: poker\ntts: {quality: 101}"),
    ("a bleed above its maximum", "card_size: poker", "card_size: poker\nbleed: 10.5"),
    ("a bleed of nan in quotes", "card_size: poker", 'card_size: poker\nbleed: "nan"'),
]


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("agree") / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    return root


@pytest.fixture(scope="module")
def schema(base) -> dict:
    result = run_cli("schema", "--deck", "game", cwd=base)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("what, old, new, accepted", [(*c, True) for c in ACCEPTED] + [(*c, False) for c in REJECTED],
                         ids=[c[0] for c in ACCEPTED + REJECTED])
def test_the_schema_and_check_give_the_same_verdict(base, schema, tmp_path, what, old, new, accepted):
    project = tmp_path / "game"
    shutil.copytree(base, project)
    deck = project / "decks" / "game.yaml"
    text = deck.read_text(encoding="utf-8")
    if old:
        assert old in text, old
        text = text.replace(old, new, 1)
        if what == "text per language":
            line = next(line for line in text.splitlines() if "{en: Be the first" in line)
            english = line.split("{en: ", 1)[1]
            text = text.replace(line, line.replace(english, json.dumps(english) + ", fr: Soyez le premier.}"), 1)
    deck.write_text(text, encoding="utf-8")
    check = run_cli("check", cwd=project)
    assert "Traceback" not in check.stderr
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(load_12(text)))
    assert (check.exit_code == 0) == accepted, check.stderr
    assert (not errors) == accepted, [e.message for e in errors][:3]


@pytest.mark.parametrize("kind, path", [("--template", "templates/card.yaml"), ("--template", "templates/back.yaml"),
                                        ("--profile", None)])
def test_templates_and_profiles_have_schemas_that_accept_the_shipped_files(base, kind, path):
    from deckpress.paths import PACKAGE_DATA
    schema = json.loads(run_cli("schema", kind, cwd=base).stdout)
    files = [base / path] if path else sorted(p for p in (PACKAGE_DATA / "print").glob("*.yaml")
                                              if p.name != "rules-style.yaml")  # the rules pages' style, no profile
    for file in files:
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(load_12(file.read_text(encoding="utf-8"))))
        assert not errors, (file, [e.message for e in errors][:3])
    broken = {"elements": [{"type": "blob"}]} if path else {"page": "a4", "gap": -1}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(broken))


def test_the_template_schema_gives_each_element_type_its_own_options(base):
    """An editor offers each element type exactly its options: `fit` on an image, never on a rect."""
    validator = jsonschema.Draft202012Validator(json.loads(run_cli("schema", "--template", cwd=base).stdout))
    fine = [{"type": "image", "src": "../art/a.png", "fit": "cover"}, {"type": "rect", "stroke": "#000000"},
            {"type": "text", "text": "Hi", "size": 9, "align": "left"}, {"type": "line", "color": "#000000"},
            {"type": "polygon", "points": [[0, 0], [9, 0], [0, 9]], "join": "round"}, {"type": "rect", "dash": [2, 1]},
            {"type": "star", "corners": 6, "fill": {"gradient": "radial", "stops": ["#ffffff", "{{ style.c }} 40%"]}},
            {"type": "text", "color": {"stops": ["#ffffff", "#000000"]}, "shadow": {"x": 1}, "opacity": 0.5}]
    assert not list(validator.iter_errors({"elements": fine}))
    for wrong in ({"type": "rect", "fit": "cover"}, {"type": "text", "stroke": "#000000"},
                  {"type": "line", "font": "sans"}, {"type": "image", "text": "Hi"}, {"type": "blob"}, {"x": 3},
                  {"type": "polygon", "points": [[0, 0], [9, 0]]}, {"type": "rect", "dash": [0, 0]},
                  {"type": "ellipse", "join": "round"}, {"type": "rect", "fill": {"gradent": "linear"}},
                  {"type": "rect", "fill": {"stops": ["white", "#000000"]}},
                  {"type": "path"}):
        assert list(validator.iter_errors({"elements": [wrong]})), wrong
