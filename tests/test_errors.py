"""Bad input is normal input: each mistake gives one located line, exit status 1, and no traceback."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

LINE = re.compile(r"^decks/score\.yaml:(\d+):(\d+): .+; .+$")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's SCORE! deck and templates to break."""
    (tmp_path / "decks").mkdir()
    shutil.copy(ROOT / "decks" / "score.yaml", tmp_path / "decks" / "score.yaml")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    return tmp_path


def edit(path: Path, old: str, new: str) -> int:
    """Replace `old` (which must occur once) and return the 1-based line where it was."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


def one_error(project: Path, command: str = "check") -> tuple[int, str]:
    result = run_cli(command, "score", cwd=project) if command == "check" else \
        run_cli("build", "score", "--quiet", cwd=project)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    match = LINE.match(lines[0])
    assert match, lines[0]
    return int(match.group(1)), lines[0]


def test_yaml_syntax_error(project):
    line = edit(project / "decks/score.yaml", "  - id: reminders", "  - id: [reminders")
    at, message = one_error(project)
    assert at >= line and "YAML syntax error" in message


def test_unknown_key_suggests_the_right_one(project):
    line = edit(project / "decks/score.yaml", "        count: 3\n        kind: double",
                "        cuont: 3\n        kind: double")
    at, message = one_error(project)
    assert at == line and "unknown key 'cuont'" in message and "did you mean 'count'?" in message


def test_wrong_type(project):
    line = edit(project / "decks/score.yaml", "  players: {min: 1, max: 6}", "  players: {min: one, max: 6}")
    at, message = one_error(project)
    assert at == line and "expected a whole number" in message


def test_a_mistake_is_located_at_the_column_its_value_starts(project):
    """An editor jumps to line:column: both are 1-based, the column that of the wrong value's first character."""
    line = edit(project / "decks/score.yaml", "  players: {min: 1, max: 6}", "  players: {min: 1, max: six}")
    _, message = one_error(project)
    column = "  players: {min: 1, max: six}".index("six") + 1
    assert message.startswith(f"decks/score.yaml:{line}:{column}: ")


def test_negative_count(project):
    line = edit(project / "decks/score.yaml", "        count: 3\n        kind: deny",
                "        count: -3\n        kind: deny")
    at, message = one_error(project)
    assert at == line and "-3 is too small" in message and "at least 0" in message


def test_missing_template(project):
    line = edit(project / "decks/score.yaml", "    template: score-reminder", "    template: score-remindr")
    at, message = one_error(project)
    assert at == line and "template 'score-remindr' not found" in message


def test_missing_font(project):
    edit(project / "templates/score-back.yaml", "font: sans-oblique", "font: sans-obliq")
    result = run_cli("check", "score", cwd=project)
    assert result.exit_code == 1
    assert re.fullmatch(r"templates/score-back\.yaml:\d+:\d+: unknown font 'sans-obliq'; .+\n", result.stderr)


def test_missing_deck_font_file(project):
    edit(project / "decks/score.yaml", "card_size: poker", "card_size: poker\nfonts: {title: fonts/title.ttf}")
    at, message = one_error(project)
    assert "font file 'fonts/title.ttf' not found" in message


def test_a_deck_font_that_is_not_a_font(project):
    edit(project / "decks/score.yaml", "card_size: poker", "card_size: poker\nfonts: {sans: ../fonts/title.ttf}")
    (project / "fonts").mkdir()
    (project / "fonts" / "title.ttf").write_text("not a font\n", encoding="utf-8")
    at, message = one_error(project, "build")
    assert "title.ttf is not a TrueType font deckpress can read" in message


def test_missing_image(project):
    edit(project / "templates/score-back.yaml", "elements:\n",
         "elements:\n  - {type: image, name: logo, src: art/logo.png, x: 10, y: 10, w: 20, h: 20}\n")
    at, message = one_error(project)
    assert "image 'art/logo.png' not found" in message and "back of 'deck'" in message


def test_text_that_cannot_fit_names_the_card(project):
    edit(project / "decks/score.yaml", "        text: Every adversary loses {{ n }}",
                "        text: " + "Every adversary loses a great many points, again and again, " * 6 + "{{ n }}")
    at, message = one_error(project)
    assert "card 'Bomb! 1'" in message and "element 'effect'" in message and "does not fit" in message


def test_failed_build_leaves_previous_output_untouched(project):
    assert run_cli("build", "score", "--quiet", cwd=project).exit_code == 0
    out = project / "build"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    edit(project / "decks/score.yaml", "        text: Every adversary loses {{ n }}",
         "        text: " + "Every adversary loses a great many points, again and again, " * 6 + "{{ n }}")
    one_error(project, command="build")
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in out.iterdir()) == ["score"]


def test_usage_errors_exit_2():
    assert run_cli("build", "no-such-deck").exit_code == 2
    assert run_cli("build", "--back-offset", "x").exit_code == 2
    assert run_cli("frobnicate").exit_code == 2


def test_unknown_card_size_suggests_a_preset(project):
    line = edit(project / "decks/score.yaml", "card_size: poker", "card_size: pokr")
    at, message = one_error(project)
    assert at == line and "unknown card size 'pokr'; did you mean 'poker'?" in message


def test_a_tab_in_the_indentation(project):
    line = edit(project / "decks/score.yaml", "  version: \"1.1\"", "\tversion: \"1.1\"")
    at, message = one_error(project)
    assert at == line and "indent with spaces, not tabs" in message


def test_check_reports_an_unknown_print_profile(project):
    line = edit(project / "decks/score.yaml", "profiles: [a4, letter, gutterfold-a4", "profiles: [a4, leter, gutterfold-a4")
    at, message = one_error(project)
    assert at == line and "print profile 'leter' not found" in message


@pytest.mark.parametrize("source, expected", [
    ("{{ '{:,}'.format(1234567) }}", "1,234,567"),
    ("{{ '%5.2f' % 3.14159 }}", " 3.14"),
    ("{{ 'ab' * 3 }}", "ababab"),
    ("{{ [1, 2] + [3] }}", "[1, 2, 3]"),
    ("{{ 2 ** 100 }}", str(2 ** 100)),
    ("{{ range(5) | list }}", "[0, 1, 2, 3, 4]"),
    ("{{ 'x' | center(5) }}", "  x  "),
    ("{% for i in range(1000) %}{{ i % 10 }}{% endfor %}", "0123456789" * 100),
    ("{{ ('a' * 99999) | length }}", "99999"),
])
def test_expression_limits_leave_ordinary_expressions_alone(source, expected):
    from deckpress.expr import render_text
    assert render_text(source, {}) == expected


def test_a_date_stays_text(project):
    """YAML 1.1 reads 2024-01-01 as a date; a deck means the text (deckpress loads no timestamps)."""
    edit(project / "decks/score.yaml", "  version: \"1.1\"", "  version: 2024-01-01")
    result = run_cli("check", "score", cwd=project)
    assert result.exit_code == 0, result.stderr


def test_reading_a_deck_without_mistakes_imports_no_module_for_mistakes():
    """difflib (a mistake's suggestion) and the spreadsheet readers' zipfile are imported only when needed."""
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; import deckpress.cli, deckpress.build, deckpress.faces; "
            "from deckpress.deck import load_deck; sys.modules.pop('zipfile', None); "
            f"load_deck(Path({str(ROOT / 'decks' / 'score.yaml')!r})); print(sorted({{'difflib', 'zipfile'}} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_library_warning_is_one_line_never_the_raw_python_warning(tmp_path):
    """A warning a library raises while deckpress works (here Pillow's, from a deck's read) reaches the terminal
    as one line of deckpress's: not Python's two lines with a path in the library."""
    code = """
import sys, warnings
from PIL import Image
from deckpress import cli, deck

read = deck.load_deck
def load_deck(*args, **kwargs):
    warnings.warn("Image size (104828000 pixels) exceeds limit", Image.DecompressionBombWarning)
    return read(*args, **kwargs)
deck.load_deck = load_deck
sys.argv = ["deckpress", "check"]
cli.run()
"""
    assert run_cli("new", str(tmp_path / "game"), "--name", "Game").exit_code == 0
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "game", capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "warning: PIL says: Image size (104828000 pixels) exceeds limit (DecompressionBombWarning); deckpress "
        "should have said this in a line of its own about your deck: please report it"], done.stderr
