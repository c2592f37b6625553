"""Card data from spreadsheets: `cards_from` reads CSV and XLSX, validates each row like a YAML card and
names FILE:ROW:COLUMN in every mistake."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from conftest import run_cli
from deckpress.deck import load_deck

DECK = """\
game: {name: Sheet, players: {min: 2, max: 4}}
components:
  - id: deck
    name: Deck
    template: card
    fields:
      value: {type: integer, doc: The value.}
      rare: {type: boolean, doc: Rare or not., default: false}
      text: {doc: Rules text., default: ""}
    cards_from: cards.%s
    cards:
      - {name: From YAML, value: 9}
print: {profiles: []}
"""
TEMPLATE = "elements:\n  - {type: text, box: safe, text: '{{ card.name }} {{ card.value }} {{ card.rare }}'}\n"
ROWS = [["name", "count", "value", "rare", "text"],
        ["Knight", 2, 5, "yes", "Moves, then jumps"],
        ["Queen", "", 9, "", "Rules the board"],
        [1830, 1, 3, "no", ""]]


def project(root: Path, kind: str, rows=ROWS) -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "templates" / "card.yaml").write_text(TEMPLATE, encoding="utf-8")
    (root / "decks" / "sheet.yaml").write_text(DECK % kind, encoding="utf-8")
    if kind == "csv":
        lines = [",".join(f'"{c}"' if "," in str(c) else str(c) for c in row) for row in rows]
        (root / "decks" / "cards.csv").write_text("\ufeff" + "\n".join(lines) + "\n", encoding="utf-8")
    else:
        book = openpyxl.Workbook()
        for row in rows:
            book.active.append([None if c == "" else c for c in row])
        book.save(root / "decks" / "cards.xlsx")
    return root


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_rows_become_cards_typed_by_their_fields(tmp_path, kind):
    deck = load_deck(project(tmp_path, kind) / "decks" / "sheet.yaml")
    cards = {c.name: c for c in deck.model.components[0].cards}
    assert list(cards) == ["From YAML", "Knight", "Queen", "1830"]
    assert (cards["Knight"].count, cards["Knight"].extra) == (2, {"value": 5, "rare": True, "text": "Moves, then jumps"})
    assert (cards["Queen"].count, cards["Queen"].extra["rare"]) == (1, False)  # empty cells: the defaults
    assert cards["1830"].id == "1830"


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_yes_or_no_cell_with_spaces_around_it_is_a_boolean(tmp_path, kind):
    """As typed, or padded for alignment: ' Yes ' is true, ' no' false."""
    rows = [ROWS[0], ["Knight", 2, 5, " Yes ", ""], ["Queen", 1, 9, " no", ""]]
    deck = load_deck(project(tmp_path, kind, rows) / "decks" / "sheet.yaml")
    cards = {c.name: c.extra["rare"] for c in deck.model.components[0].cards}
    assert (cards["Knight"], cards["Queen"]) == (True, False)


def test_whole_numbers_an_xlsx_stores_as_floats_are_whole_numbers(tmp_path):
    """A sheet may store a whole number as a float (`<v>2.0</v>`, as some spreadsheet programs and formulas
    write it): the count 2 and the value 5, as typed."""
    root = project(tmp_path, "xlsx", [ROWS[0], ["Knight", 2, 5, "yes", ""]])
    book = root / "decks" / "cards.xlsx"
    with zipfile.ZipFile(book) as old:
        files = {name: old.read(name) for name in old.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    assert b"<v>2</v>" in files[sheet] and b"<v>5</v>" in files[sheet]
    files[sheet] = files[sheet].replace(b"<v>2</v>", b"<v>2.0</v>").replace(b"<v>5</v>", b"<v>5.0</v>")
    with zipfile.ZipFile(book, "w") as new:
        for name, data in files.items():
            new.writestr(name, data)
    knight = {c.name: c for c in load_deck(root / "decks" / "sheet.yaml").model.components[0].cards}["Knight"]
    assert (knight.count, knight.extra["value"]) == (2, 5)
    assert type(knight.count) is int and type(knight.extra["value"]) is int


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_spreadsheet_build_rebuilds_when_the_sheet_changes(tmp_path, kind):
    root = project(tmp_path, kind)
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    assert "up to date" in run_cli("build", cwd=root).stdout
    rows = [row[:] for row in ROWS]
    rows[1][2] = 6
    (root / "decks" / f"cards.{kind}").unlink()
    project(tmp_path / "again", kind, rows)
    (tmp_path / "again" / "decks" / f"cards.{kind}").rename(root / "decks" / f"cards.{kind}")
    assert "1 faces rendered" in run_cli("build", cwd=root).stdout


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
@pytest.mark.parametrize("row, column, cell, message", [
    (2, 3, "five", "expected a whole number"),
    (3, 2, -1, "-1 is too small"),
    (2, 4, "maybe", "expected true or false"),
])
def test_a_bad_cell_is_one_line_naming_file_row_and_column(tmp_path, kind, row, column, cell, message):
    rows = [r[:] for r in ROWS]
    rows[row - 1][column - 1] = cell
    root = project(tmp_path, kind, rows)
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"decks/cards.{kind}:{row}:{column}: ") and message in lines[0]


@pytest.mark.parametrize("text, place, message", [
    ("name,count\nCaf\xe9,1\n".encode("latin-1"), "decks/cards.csv: ", "not UTF-8 text (byte 14); export the "
     "sheet as CSV UTF-8"),
    (f'name,text\nA,"{"x" * 140_000}"\n'.encode(), "decks/cards.csv:2:1: ", "a cell of more than"),
])
def test_a_csv_deckpress_cannot_read_is_one_line_at_its_place(tmp_path, text, place, message):
    root = project(tmp_path, "csv")
    (root / "decks" / "cards.csv").write_bytes(text)
    result = run_cli("check", cwd=root)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith(place) and message in lines[0], lines


def test_an_unknown_column_is_named_with_its_place(tmp_path):
    rows = [r[:] for r in ROWS]
    rows[0][4] = "txet"
    result = run_cli("check", cwd=project(tmp_path, "csv", rows))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1  # once, at the column's heading
    assert lines[0].startswith("decks/cards.csv:1:5: unknown column 'txet'") and "did you mean 'text'?" in lines[0]


def test_a_missing_or_escaping_spreadsheet_is_one_line(tmp_path):
    root = project(tmp_path / "p", "csv")
    (root / "decks" / "cards.csv").unlink()
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1 and "'cards.csv' not found" in result.stderr
    deck = root / "decks" / "sheet.yaml"
    deck.write_text(deck.read_text().replace("cards_from: cards.csv", "cards_from: ../../../x.csv"))
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1 and "leads outside the project" in result.stderr
