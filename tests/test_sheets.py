"""Cards from a published sheet: `deckpress pull` fetches it from a server on 127.0.0.1 (CSV, Google's 307
redirect, errors, a sign-in page, slow and too large answers) into data/<deck>/<component>.csv and reports
the cards it changed; `check` and `build` read that copy alone and name its rows `sheet NAME, row R, column
HEADING`."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import run_cli
from deckpress import sheets, tables

LINE = re.compile(r"^decks/sheet\.yaml:\d+:\d+: sheet Units: [^\n]+; [^\n]+$")
UNITS = "name,count,value\r\nKnight,2,5\r\nQueen,1,9\r\nPawn,8,1\r\n"
UNITS_2 = "name,count,value\r\nKnight,2,6\r\nQueen,1,9\r\nRook,2,4\r\n"
TEMPLATE = "elements:\n  - {type: text, box: safe, text: '{{ card.name }} {{ card.value }}'}\n"
DECK = """\
game: {name: Sheet, players: {min: 2, max: 4}}
components:
  - id: units
    name: Units
    template: card
    fields:
      value: {type: integer, doc: The value.}
    cards_from: %s
print: {profiles: []}
"""


class Sheet(BaseHTTPRequestHandler):
    """Answers by path: /pub?gid=N the CSV of tab N, /redirect as Google does (307 to another host's path),
    /login a sign-in page, /slow nothing for a long while, /trickle a byte at a time, /big more than
    tables.MAX_BYTES, /missing 404, /broken 500."""

    tabs: dict[str, str] = {}
    stop = threading.Event()

    def do_GET(self):
        path = self.path
        if path.startswith("/redirect"):
            self.send_response(307)
            self.send_header("Location", f"http://127.0.0.1:{self.server.server_port}/hop{path[9:]}")
            self.end_headers()
        elif path.startswith("/hop"):
            self.send_response(302)
            self.send_header("Location", "/pub" + path[4:])  # a relative Location
            self.end_headers()
        elif path.startswith("/pub"):
            self._send(self.tabs[path.split("gid=")[1].split("&")[0]].encode(), "text/csv; charset=utf-8")
        elif path == "/login":
            self._send(b"<!DOCTYPE html><html><body>Sign in</body></html>", "text/html; charset=utf-8")
        elif path == "/latin-1":
            self._send("name,count\nCaf\xe9,1\n".encode("latin-1"), "text/csv")
        elif path == "/login-as-csv":
            self._send(b"\n  <html><body>Sign in</body></html>", "text/csv")
        elif path == "/slow":
            self.stop.wait(30)
        elif path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            self.wfile.write(b"name,count\n")
            while not self.stop.wait(0.05):
                self.wfile.write(b"x")
                self.wfile.flush()
        elif path == "/big":
            self.send_response(200)
            self.send_header("Content-Type", "text/csv")
            self.end_headers()
            row = b"Card,1\n" * 10_000
            for _ in range(tables.MAX_BYTES // len(row) + 2):
                self.wfile.write(row)
        elif path == "/rows":
            self._send(("name,count\n" + "Card,1\n" * (tables.MAX_ROWS + 1)).encode(), "text/csv")
        elif path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.end_headers()
        elif path == "/elsewhere":
            self.send_response(301)
            self.send_header("Location", "http://example.org/sheet.csv")
            self.end_headers()
        else:
            self.send_error(404 if path == "/missing" else 500)

    def _send(self, body: bytes, kind: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    """The sheets' server; a client that hangs up mid-answer (pull stopping at the size limit) is no error
    of the server's, and is not printed into the output the test reads."""

    def handle_error(self, request, client_address):
        pass


@pytest.fixture
def server():
    Sheet.tabs = {"0": UNITS, "7": "name,count,value\nChip,3,1\n"}
    Sheet.stop.clear()
    httpd = Server(("127.0.0.1", 0), Sheet)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    Sheet.stop.set()
    httpd.shutdown()
    httpd.server_close()


def project(root: Path, cards_from: str) -> Path:
    (root / "decks").mkdir(parents=True, exist_ok=True)
    (root / "templates").mkdir(exist_ok=True)
    (root / "templates" / "card.yaml").write_text(TEMPLATE, encoding="utf-8")
    (root / "decks" / "sheet.yaml").write_text(DECK % cards_from, encoding="utf-8")
    return root


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_pull_follows_the_redirects_writes_the_copy_and_reports_the_cards(tmp_path, server):
    root = project(tmp_path, f"{{sheet: '{server}/redirect?gid=0&single=true&output=csv', name: Units}}")
    result = run_cli("pull", "sheet", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "sheet Units: 3 cards, new copy data/sheet/units.csv"
    copy = root / "data" / "sheet" / "units.csv"
    assert copy.read_bytes().decode() == UNITS
    Sheet.tabs["0"] = UNITS_2
    result = run_cli("pull", "sheet", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == ("sheet Units: 1 added (rook), 1 removed (pawn), 1 changed (knight) "
                                     "(data/sheet/units.csv)")
    assert copy.read_bytes().decode() == UNITS_2
    assert sorted(p.name for p in copy.parent.iterdir()) == [".deckpress-pulled.json", "units.csv"]  # no temporary
    result = run_cli("pull", "sheet", cwd=root)
    assert result.stdout.strip() == "sheet Units: no card changed (data/sheet/units.csv)"


@pytest.mark.parametrize("how", ["edited since", "the user's own"])
def test_pull_replaces_only_a_copy_it_wrote(tmp_path, server, how):
    """A copy edited by hand since pull wrote it, or a file of the user's where the copy goes, is kept as it
    is and said in one line; moved away, the sheet is pulled."""
    root = project(tmp_path, f"{{sheet: '{server}/pub?gid=0', name: Units}}")
    copy = root / "data" / "sheet" / "units.csv"
    if how == "edited since":
        assert run_cli("pull", "sheet", cwd=root).exit_code == 0
        Sheet.tabs["0"] = UNITS_2
    else:
        copy.parent.mkdir(parents=True)
    copy.write_text(UNITS + "Queen,1,9\n", encoding="utf-8", newline="")
    mine = copy.read_bytes()
    line = one_line(run_cli("pull", "sheet", cwd=root))
    assert LINE.match(line) and "data/sheet/units.csv is not the copy pull wrote" in line, line
    assert copy.read_bytes() == mine
    copy.rename(copy.with_name("mine.csv"))
    assert run_cli("pull", "sheet", cwd=root).exit_code == 0
    assert copy.read_bytes().decode() == Sheet.tabs["0"] and copy.with_name("mine.csv").read_bytes() == mine


def test_tabs_of_one_sheet_by_their_gid(tmp_path, server):
    root = project(tmp_path, f"'{server}/pub?gid=0&single=true&output=csv'")
    deck = root / "decks" / "sheet.yaml"
    deck.write_text(deck.read_text().replace("print:", f"""\
  - id: chips
    name: Chips
    type: tokens
    template: card
    fields:
      value: {{type: integer, doc: The value.}}
    cards_from: {{sheet: '{server}/pub?gid=7&single=true&output=csv', name: Chips}}
print:"""), encoding="utf-8")
    result = run_cli("pull", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["sheet units: 3 cards, new copy data/sheet/units.csv",  # name: the id
                                          "sheet Chips: 1 cards, new copy data/sheet/chips.csv"]
    result = run_cli("check", "sheet", cwd=root)
    assert result.exit_code == 0 and "(2 components, 14 cards and tokens)" in result.stdout, result.stderr


def test_pull_then_build_offline_equals_a_build_from_the_same_local_csv(tmp_path, server, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the TTS save's date: the same for both builds
    pulled = project(tmp_path / "pulled", f"{{sheet: '{server}/redirect?gid=0&output=csv', name: Units}}")
    assert run_cli("pull", "sheet", cwd=pulled).exit_code == 0
    Sheet.stop.set()  # the build reads the copy alone: no server
    local = project(tmp_path / "local", "cards.csv")
    (local / "decks" / "cards.csv").write_text(UNITS, encoding="utf-8", newline="")
    for root in (pulled, local):
        result = run_cli("build", "sheet", "--quiet", "--asset-url", "https://example.org/sheet/", cwd=root)
        assert result.exit_code == 0, result.stderr

    def outputs(root: Path) -> dict[str, str]:
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted((root / "build" / "sheet").rglob("*")) if p.is_file() and p.name != "manifest.json"}

    assert outputs(pulled) == outputs(local) and len(outputs(pulled)) > 3
    # An edited copy is rebuilt like any edited spreadsheet: the Knight's face changes.
    knight = pulled / "build" / "sheet" / "faces" / "units" / "knight.png"
    before = knight.read_bytes()
    copy = pulled / "data" / "sheet" / "units.csv"
    copy.write_text(UNITS.replace("Knight,2,5", "Knight,2,7"), encoding="utf-8", newline="")
    assert run_cli("build", "sheet", "--quiet", "--asset-url", "https://example.org/sheet/", cwd=pulled).exit_code == 0
    assert knight.read_bytes() != before


def test_check_without_a_copy_says_to_pull(tmp_path):
    root = project(tmp_path, "{sheet: 'https://docs.google.com/spreadsheets/d/e/2PACX-x/pub?gid=0&output=csv', "
                             "name: Units}")
    for command in ("check", "build"):
        line = one_line(run_cli(command, "sheet", cwd=root))
        assert line == ("decks/sheet.yaml:8:25: sheet Units: no copy in the project (data/sheet/units.csv); run "
                        "deckpress pull sheet")
    assert not (root / "build").exists()


def test_a_mistake_in_a_row_of_the_sheet_names_the_sheet_row_and_column(tmp_path):
    root = project(tmp_path, "{sheet: 'https://example.org/units.csv', name: Units}")
    (root / "data" / "sheet").mkdir(parents=True)
    (root / "data" / "sheet" / "units.csv").write_text('name,count,value\nKnight,2,5\n"Queen\nof hearts",1,nine\n',
                                                       encoding="utf-8")
    line = one_line(run_cli("check", "sheet", cwd=root))
    assert line.startswith("sheet Units, row 3, column value: value: expected a whole number, got text 'nine'")
    (root / "data" / "sheet" / "units.csv").write_text("name,count,valeu\nKnight,2,5\n", encoding="utf-8")
    line = one_line(run_cli("check", "sheet", cwd=root))
    assert line.startswith("sheet Units, row 1, column C: unknown column 'valeu'; did you mean 'value'?")


@pytest.mark.parametrize("url, expect", [
    ("http://docs.google.com/spreadsheets/d/e/x/pub?output=csv", "is not an https address"),
    ("ftp://127.0.0.1/units.csv", "is not an https address"),
    ("https:///units.csv", "is not a web address"),
])
def test_a_sheet_address_that_is_not_https_is_one_line(tmp_path, url, expect):
    root = project(tmp_path, f"{{sheet: '{url}', name: Units}}")
    for command in ("check", "pull"):
        line = one_line(run_cli(command, "sheet", cwd=root))
        assert line.startswith("decks/sheet.yaml:8:25: sheet: ") and expect in line, line
    assert not (root / "data").exists()


@pytest.mark.parametrize("path, expect", [
    ("/missing", "the server answered 404 Not Found"),
    ("/broken", "the server answered 500 Internal Server Error"),
    ("/login", "it answered a web page, not CSV"),
    ("/login-as-csv", "it answered a web page, not CSV"),
    ("/big", f"more than the {tables.MAX_BYTES} bytes"),
    ("/rows", f"more than {tables.MAX_ROWS} rows"),
    ("/latin-1", "the answer is not UTF-8 text (byte 14)"),
    ("/loop", f"more than {sheets.MAX_REDIRECTS} redirects"),
    ("/elsewhere", "redirects to 'http://example.org/sheet.csv', which is not https"),
])
def test_a_failed_pull_is_one_line_and_keeps_the_old_copy(tmp_path, server, path, expect):
    root = project(tmp_path, f"{{sheet: '{server}{path}', name: Units}}")
    copy = root / "data" / "sheet" / "units.csv"
    copy.parent.mkdir(parents=True)
    copy.write_text(UNITS, encoding="utf-8", newline="")
    line = one_line(run_cli("pull", "sheet", cwd=root))
    assert LINE.match(line) and expect in line and "kept the old copy data/sheet/units.csv" in line, line
    assert copy.read_bytes().decode() == UNITS
    assert sorted(p.name for p in copy.parent.iterdir()) == ["units.csv"]


def test_pull_with_the_server_down_keeps_the_old_copy(tmp_path, server):
    root = project(tmp_path, f"{{sheet: '{server}/pub?gid=0', name: Units}}")
    assert run_cli("pull", "sheet", cwd=root).exit_code == 0
    copy = root / "data" / "sheet" / "units.csv"
    before = copy.read_bytes()
    Sheet.stop.set()
    deck = root / "decks" / "sheet.yaml"
    deck.write_text(deck.read_text().replace(server, "http://127.0.0.1:9"), encoding="utf-8")  # nothing listens
    line = one_line(run_cli("pull", "sheet", cwd=root))
    assert LINE.match(line) and "cannot reach 127.0.0.1" in line and "kept the old copy" in line, line
    assert copy.read_bytes() == before
    assert run_cli("check", "sheet", cwd=root).exit_code == 0


@pytest.mark.parametrize("path", ["/slow", "/trickle"])
def test_a_slow_sheet_stops_within_the_timeout(tmp_path, server, monkeypatch, path):
    monkeypatch.setattr(sheets, "TIMEOUT", 0.5)
    root = project(tmp_path, f"{{sheet: '{server}{path}', name: Units}}")
    started = time.monotonic()
    line = one_line(run_cli("pull", "sheet", cwd=root))
    assert time.monotonic() - started < 2 * sheets.TIMEOUT + 0.5
    assert LINE.match(line) and ("no answer within 0.5 s" in line or "took more than 0.5 s" in line), line
    assert "no copy written to data/sheet/units.csv" in line and not (root / "data" / "sheet" / "units.csv").exists()
