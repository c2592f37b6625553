"""Cards from spreadsheets: a CSV or XLSX file whose first row names the card keys and whose every other
row is one card. Rows load as `Map`s located at FILE:ROW:COLUMN, so they are validated, and their
mistakes reported, exactly like cards written in YAML.

A published sheet (a Google Sheet's "publish to the web" CSV link) is read from the copy `deckpress pull`
keeps in the project (`copy_path`), never from the network; its places are named as the sheet's owner sees
them: `sheet Units, row 12, column text`."""

from __future__ import annotations

import io
import ipaddress
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import DeckError, Where
from .options import did_you_mean
from .paths import project_root
from .source import MAX_TEXT_CHARS, Map, Seq, not_plain, parse_yaml

MAX_ROWS = 10_000  # cards of one spreadsheet: far more than any deck, small enough to stay fast
MAX_COLUMNS = 256  # keys of one card: far more than any component declares (and Excel 2003's limit)
MAX_BYTES = 50_000_000  # a spreadsheet, and each part of an XLSX unpacked: 10000 rows of cards take far less
TRUE, FALSE = {"true", "yes", "y", "1", "x"}, {"false", "no", "n", "0", ""}
COPIES = "data"  # the project's folder of the published sheets' copies: data/<deck>/<component>.csv


@dataclass(frozen=True)
class SheetCell(Where):
    """A place in a published sheet, located in its copy (`path`) but named as the sheet shows it: `sheet
    Units, row 12, column text` (the column's heading, or its letter where the heading is the mistake)."""

    sheet: str = ""
    column: str = ""

    def __str__(self) -> str:
        return ", ".join([f"sheet {self.sheet}", *([f"row {self.line}"] if self.line else []),
                          *([f"column {self.column}"] if self.column else [])])


def copy_path(deck_path: Path, component: str) -> Path:
    """Where the copy of a component's published sheet is kept: data/<deck>/<component>.csv in the project."""
    return project_root(deck_path) / COPIES / deck_path.stem / f"{component}.csv"


def url_problem(url: str) -> str | None:
    """What is wrong with `url` as a published sheet's address, or None: https, or plain http to a loopback
    address (a server on this machine)."""
    parts = urlsplit(url)
    if any(c.isspace() or not c.isprintable() for c in url) or not parts.hostname:
        return f"{url!r} is not a web address; copy the sheet's CSV link whole"
    if parts.scheme == "https":
        return None
    try:
        loopback = parts.scheme == "http" and ipaddress.ip_address(parts.hostname).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    return (f"{url!r} is not an https address; write the sheet's https link (Google Sheets: File > Share > "
            "Publish to web, Comma-separated values)")


def letter(column: int) -> str:
    """A spreadsheet's name of column `column`: 1 is A, 27 is AA."""
    out = ""
    while column:
        column, rest = divmod(column - 1, 26)
        out = chr(65 + rest) + out
    return out


def _cell(value: Any, kind: str | None, where: Where) -> Any:
    """A cell's text (CSV) or value (XLSX) as the type its column's field declares."""
    if kind == "boolean" and isinstance(value, str):
        text = value.strip().lower()
        if text in TRUE | FALSE:
            return text in TRUE
    if kind in ("list", "map") and isinstance(value, str):
        try:
            return parse_yaml(value, where.path)
        except DeckError as err:
            problem = err.problems[0].message
            if problem.startswith("YAML syntax error"):
                problem = f"{value!r} is not a YAML {kind}; write e.g. {'[1, 2]' if kind == 'list' else '{a: 1}'}"
            raise DeckError.at(where, problem) from None
    if kind in ("integer", None) and isinstance(value, float) and value.is_integer():
        return int(value)  # spreadsheets store whole numbers as floats
    if kind in ("text", "id") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


Place = Callable[..., Where]  # (line, column) -> where a mistake is; both 0 for the whole file


def _check_size(path: Path, place: Place) -> None:
    """The file, and each part of an XLSX (a zip archive) once unpacked, is at most MAX_BYTES."""
    sizes = [("the file", path.stat().st_size)]
    import zipfile  # for a deck with cards in a spreadsheet only, as csv below

    if path.suffix.lower() == ".xlsx" and zipfile.is_zipfile(path):  # what is not a zip, openpyxl reports
        with zipfile.ZipFile(path) as book:
            sizes += [(f"its part {part.filename!r}", part.file_size) for part in book.infolist()]
    for what, size in sizes:
        if size > MAX_BYTES:
            raise DeckError.at(place(0, 0), f"{what} is {size} bytes{' unpacked' if what != 'the file' else ''}, "
                                                 f"more than the {MAX_BYTES} a sheet of cards may have; split the "
                                                 "cards over several files")


class Unreadable(ValueError):
    """CSV that `csv_rows` cannot read: what it is, what to do, and the line where it stopped (0: the text as a
    whole)."""

    def __init__(self, what: str, fix: str, line: int = 0):
        super().__init__(what)
        self.fix, self.line = fix, line


def csv_rows(data: bytes, records: bool = False) -> list[tuple[int, list[str]]]:
    """The rows of CSV bytes (UTF-8, with the BOM spreadsheet programs write or without), each with its
    number: the line it starts on, or with `records` its place among the rows (a sheet's row number, whatever
    line breaks its cells hold). It stops past MAX_ROWS + 1 rows, for the caller to refuse; Unreadable when the
    bytes are not UTF-8 or not CSV."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise Unreadable(f"not UTF-8 text (byte {err.start})", "export the sheet as CSV UTF-8") from None
    import csv  # for a deck with cards in a spreadsheet only

    reader = csv.reader(io.StringIO(text, newline=""))
    rows: list[tuple[int, list[str]]] = []
    line = 1
    try:
        for row in reader:
            rows.append((len(rows) + 1 if records else line, row))
            line = len(rows) + 1 if records else reader.line_num + 1
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as err:  # csv's own limit on a cell (131072 characters), far above MAX_TEXT_CHARS
        if "field larger" in str(err):
            raise Unreadable(f"a cell of more than {MAX_TEXT_CHARS} characters", "shorten it or split it",
                             line) from None
        raise Unreadable(f"not CSV deckpress can read ({err})", "export the sheet as CSV UTF-8", line) from None
    return rows


def _rows_csv(path: Path, place: Place, records: bool) -> list[tuple[int, list[Any]]]:
    try:
        return csv_rows(path.read_bytes(), records)
    except Unreadable as err:
        raise DeckError.at(place(err.line, 1 if err.line else 0), f"{err}; {err.fix}") from None


def _rows_xlsx(path: Path) -> list[tuple[int, list[Any]]]:
    import openpyxl  # only projects with a spreadsheet pay for the import

    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as err:  # openpyxl raises many kinds for a file that is not a workbook
        raise DeckError.at(Where(str(path)), f"not an XLSX workbook openpyxl can read ({type(err).__name__}); "
                                             "save it as .xlsx") from None
    try:
        sheet = book.worksheets[0]
        # The sheet's own <dimension> may claim any size, and openpyxl pads every row to it: read each row
        # only as far as its last cell.
        sheet.reset_dimensions()
        rows = []
        for number, row in enumerate(sheet.iter_rows(values_only=True), 1):
            cells = list(row[:MAX_COLUMNS])
            if row[MAX_COLUMNS:].count(None) < len(row) - MAX_COLUMNS:
                column = MAX_COLUMNS + next(i for i, v in enumerate(row[MAX_COLUMNS:], 1) if v is not None)
                raise DeckError.at(Where(str(path), number, column),
                                   f"a value in column {column}, past the {MAX_COLUMNS} columns a sheet of cards "
                                   "may have; move it into the first columns")
            while cells and cells[-1] is None:
                cells.pop()
            rows.append((number, ["" if v is None else v for v in cells]))
            if len(rows) > MAX_ROWS + 1:
                break
        return rows
    finally:
        book.close()


def load_cards(path: Path, shown: str, kinds: dict[str, str], known: list[str], sheet: str | None = None) -> Seq:
    """The cards of the spreadsheet at `path` (named `shown` in messages, or with `sheet`, the copy of the
    published sheet of that name, as `sheet NAME, row R, column HEADING`); `kinds` gives the declared type
    of each field column (others are read as written), `known` every key a card may have: a column named
    otherwise is one mistake at its heading. An empty cell leaves its key out."""
    keys: list[str] = []

    def place(line: int, column: int, named: bool = True) -> Where:
        if sheet is None:
            return Where(shown, line, column)
        heading = keys[column - 1] if named and line > 1 and 0 < column <= len(keys) else ""
        return SheetCell(str(path), line, column, sheet, (heading or letter(column)) if named and column else "")

    suffix = path.suffix.lower()
    if suffix not in (".csv", ".xlsx"):
        raise DeckError.at(Where(shown), "cards_from reads .csv or .xlsx files; export the sheet as one of them")
    _check_size(path, place)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl's about what it does not read (styles, extensions...)
        rows = _rows_csv(path, place, sheet is not None) if suffix == ".csv" else _rows_xlsx(path)
    if not rows or not any(str(c).strip() for c in rows[0][1]):
        raise DeckError.at(place(1, 1, named=False), "the first row must name the card keys, e.g. name,count,text")
    if len(rows) > MAX_ROWS + 1:
        raise DeckError.at(place(0, 0), f"more than {MAX_ROWS} rows, blank ones included; delete the blank "
                                         "rows or split the cards over several files")
    header_line, header = rows[0]
    keys += [str(k).strip() for k in header]
    seen: dict[str, int] = {}
    for column, key in enumerate(keys, 1):
        if key in seen:
            raise DeckError.at(place(header_line, column), f"column {key!r} appears twice (also column "
                                                                  f"{seen[key]}); keep one")
        if key and key not in known:
            raise DeckError.at(place(header_line, column),
                               f"unknown column {key!r}; {did_you_mean(key, known)} (declare a new field under "
                               "the component's `fields:`)")
        if key:
            seen[key] = column
    cards = Seq()
    cards.where, cards.item_where = place(1, 1, named=False), []
    for line, row in rows[1:]:
        if not any(str(c).strip() for c in row):
            continue
        card = Map()
        card.where, card.key_where, card.value_where = place(line, 1, named=False), {}, {}
        for column, value in enumerate(row, 1):
            key = keys[column - 1] if column <= len(keys) else ""
            where = place(line, column)
            if value == "" or value is None:
                continue
            if not key:
                raise DeckError.at(where, "a value in a column without a name; name the column in the first row "
                                          "or empty the cell")
            card[key] = _cell(value, kinds.get(key, "integer" if key == "count" else "text"), where)
            problem = not_plain(card[key])  # as in a YAML file: finite numbers, no control characters
            if problem:
                raise DeckError.at(where, problem)
            card.key_where[key] = card.value_where[key] = where
        cards.append(card)
        cards.item_where.append(card.where)
    return cards
