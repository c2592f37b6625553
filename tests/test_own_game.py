"""deckpress as a tool for any designer's own game: `deckpress new`, and `python -m deckpress`."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run_cli
from deckpress.render import face_pixels
from deckpress.schema import CARD_SIZES


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_a_new_project_builds_every_artifact_with_no_edit(tmp_path, size):
    root = tmp_path / "dragons"
    result = run_cli("new", str(root), "--name", "Dragons & Dice", "--card-size", size)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "README.md", "decks/dragons-dice.yaml", "templates/back.yaml", "templates/card.yaml"]
    assert run_cli("check", cwd=root).exit_code == 0
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 0 and result.stderr == ""
    out = root / "build" / "dragons-dice"
    with Image.open(out / "faces" / "deck" / "number-1.png") as face:
        assert face.size == face_pixels(CARD_SIZES[size], 3.175)
    save = json.loads((out / "tts" / "dragons-dice.json").read_text(encoding="utf-8"))
    assert save["SaveName"] == "Dragons & Dice"
    decks = [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "DeckCustom")]
    assert len(decks) == 1 and len(decks[0]["DeckIDs"]) == 20
    assert len(PdfReader(out / "print" / "dragons-dice-a4.pdf").pages) >= 4


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    result = run_cli("new", str(tmp_path))
    assert result.exit_code == 1 and "is not empty" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


LINE = re.compile(r"^[^\n]+: [^\n]+; [^\n]+$")  # `where: what is wrong; what to write instead`


@pytest.mark.parametrize("name", ["Evil\ngame: {}", "Ev\x07il", "Tab\there"])
def test_new_refuses_a_name_that_would_write_yaml_of_its_own(tmp_path, name):
    """The name goes into the deck's first-line comment: a line break there starts YAML of its own."""
    result = run_cli("new", str(tmp_path / "game"), "--name", name)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2 and len(errors) == 1 and "--name" in errors[0] and "on one line" in errors[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where, expected", [
    ("file/game", "is a file, not a folder"),
    ("a/link", "a symbolic link to"),
    ("a/" + "x" * 300, "300 bytes long, more than the 255"),
    ("/proc/game", "cannot create the project"),
])
def test_new_where_no_project_can_be_is_one_line_and_leaves_nothing(tmp_path, where, expected):
    (tmp_path / "file").write_text("mine", encoding="utf-8")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "link").symlink_to(tmp_path / "nowhere" / "deeper")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run_cli("new", where, cwd=tmp_path)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and LINE.match(lines[0]) and expected in lines[0], result.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_new_that_fails_half_way_leaves_no_half_project(tmp_path, monkeypatch):
    """The files are written beside the project's folder, which appears only once all are there."""
    written = []

    def write_text(self, text, encoding=None):
        if written:
            raise OSError(28, "No space left on device")
        written.append(self)
        return self.open("w", encoding=encoding).write(text)

    monkeypatch.setattr(Path, "write_text", write_text)
    result = run_cli("new", "deep/game", cwd=tmp_path)
    assert result.exit_code == 1 and "No space left on device" in result.stderr and written
    assert list(tmp_path.iterdir()) == []  # neither the project nor the folders made on its way


@pytest.mark.parametrize("command", ["build", "check", "install", "new", "schema"])
def test_python_m_deckpress_runs_every_subcommand(command):
    run = subprocess.run([sys.executable, "-m", "deckpress", command, "--help"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"Usage: deckpress {command}")


@pytest.fixture(scope="module")
def new_game(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("designer") / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    return root


def check_after(project: Path, tmp_path: Path, *edits: tuple[str, str], file: str = "decks/game.yaml"):
    copy = tmp_path / "game"
    shutil.copytree(project, copy)
    path = copy / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    result = run_cli("check", cwd=copy)
    assert "Traceback" not in result.stderr
    return result, result.stderr.strip().splitlines()


@pytest.mark.parametrize("edits, expected", [
    ([('        colour: "#7d3c98"', '        colour: "#7d3c98"\n        power: 3')],
     "unknown key 'power' in Card; expected one of: name, id, count, template, back, each, only, value, colour, "
     "text (or declare a new field under the component's `fields:`"),
    ([('        value: "{{ n }}"', '        value: "{{ n }}"\n        vaule: 1')],  # once, not once per member
     "unknown key 'vaule' in Card; did you mean 'value'?"),
    ([('        value: "{{ n }}"', '        value: "{{ s.suite }}"')], "'s' is undefined; names you can use: n"),
    ([("value: {type: integer", "value: {type: int")], "type: unknown value 'int'; did you mean 'integer'?"),
    ([("deal: {2: 7, 3: 6, 4: 5}", "deal: {2: 7, 3: 6, 4: 15}")],
     "dealing 15 cards to each of 4 players takes 60, but 'deck' holds 20; deal at most 5"),
    ([("deal: {2: 7, 3: 6, 4: 5}", "deal: {2: 7, 3: 6, 4: 5, 6: 2}")],
     "deal for 6 players, but the game is for 2 to 4; remove it or change game.players"),
    ([("game:\n", "game:\n  languages: [en, fr]\n"), ("  - heading: Goal\n", "  - heading: {en: Goal, de: Ziel}\n")],
     "no text in fr, a language the deck declares in game.languages; add `fr:`"),
])
def test_the_messages_a_new_designer_meets_are_one_located_line(new_game, tmp_path, edits, expected):
    result, lines = check_after(new_game, tmp_path, *edits)
    assert result.exit_code == 1
    assert len(lines) == 1 and expected in lines[0], lines
    assert lines[0].startswith("decks/game.yaml:")


def test_box_with_a_size_and_shrunk_text_are_located_warnings(new_game, tmp_path):
    result, lines = check_after(new_game, tmp_path, (
        "  - {type: rect, name: panel, box: safe, radius: 3,", "  - {type: rect, name: panel, box: safe, h: 20, radius: 3,"),
        ("size: 14, min_size: 7", "size: 40"), file="templates/card.yaml")
    assert result.exit_code == 0
    assert lines[0].startswith("templates/card.yaml:9:42: warning:") and "`box: safe` sets the whole box, so h is ignored" in lines[0]
    assert lines[1].startswith("templates/card.yaml:11:5: warning: element 'title' shrinks its text below size 40 pt "
                               "on 7 faces")
    build = run_cli("build", "--quiet", cwd=tmp_path / "game")
    assert build.exit_code == 0 and build.stderr.strip().splitlines() == [lines[0]]  # a build repeats only the first
