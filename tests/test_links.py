"""`deckpress check --links` and `install`'s check, against a server on 127.0.0.1 only: a build of a small deck
with `--asset-url` of that server, whose paths answer 200, 404, refuse HEAD (405) but answer a ranged GET
(206), redirect once or on and on, answer a web page, or never answer; the exact lines, the exit status, and a hang
bounded by --timeout."""

from __future__ import annotations

import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import run_cli

from bad_input.project import DECK, FILES, TOKEN

TOKENS = DECK.replace("      - name: Chip\n        count: 3\n",
                      "      - name: Red\n      - name: Green\n      - name: Blue\n      - name: White\n"
                      "      - name: Black\n")
NAMED = TOKEN + '  - {type: text, name: label, text: "{{ card.name }}", x: 4, y: 4, w: 12, h: 12, size: 6}\n'


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.seen: list[tuple[str, str, str | None]] = []  # method, path, Range
        self.release = threading.Event()


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, *args) -> None:
        pass

    def answer(self, status: int, kind: str = "image/jpeg", **headers: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", "1" if self.command == "GET" else "0")
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(b"x")

    def do_HEAD(self) -> None:
        self.server.seen.append((self.command, self.path, self.headers.get("Range")))
        name = self.path.rsplit("/", 1)[-1]
        if name.startswith("deck-back-"):
            if self.command == "HEAD":
                return self.answer(405)
            return self.answer(206 if self.headers.get("Range") == "bytes=0-0" else 400)
        if name.startswith("chips-red-") and not self.path.startswith("/moved/"):
            return self.answer(302, Location=f"/moved/{name}")
        if name.startswith("chips-black-"):  # redirected on and on: /hop/1/, /hop/2/, ...
            hop = int(self.path.split("/")[2]) if self.path.startswith("/hop/") else 0
            return self.answer(302, Location=f"/hop/{hop + 1}/{name}")
        if name.startswith("chips-green-"):
            return self.answer(404)
        if name.startswith("chips-blue-"):
            self.server.release.wait(30)
            return None
        if name.startswith("chips-white-"):
            return self.answer(200, "text/html")
        return self.answer(200)

    do_GET = do_HEAD


@pytest.fixture()
def server(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    running = Server()
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.release.set()
    running.shutdown()
    running.server_close()


def project(root: Path, *build: str) -> Path:
    files = {**FILES, "decks/tiny.yaml": TOKENS, "templates/tiny-token.yaml": NAMED}
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    result = run_cli("build", "tiny", "--quiet", *build, cwd=root)
    assert result.exit_code == 0, result.stderr
    return root


def asset(root: Path, prefix: str) -> str:
    (found,) = (root / "build/tiny/tts/assets").glob(f"{prefix}-*")
    return found.name


def test_each_link_that_fails_is_one_line_and_a_hang_is_bounded(tmp_path, server):
    base = f"http://127.0.0.1:{server.server_port}/tiny/"
    root = project(tmp_path, "--asset-url", base)
    started = time.monotonic()
    result = run_cli("check", "tiny", "--links", "--timeout", "0.5", cwd=root)
    took = time.monotonic() - started
    assert result.exit_code == 1
    green, blue, white, black = (asset(root, f"chips-{c}") for c in ("green", "blue", "white", "black"))
    fix = "; upload build/tiny/tts/assets/{} to that address"
    save = "build/tiny/tts/tiny.json: "
    assert result.stderr.splitlines() == [
        save + f'Custom_Tile "Green" ImageURL and ImageSecondaryURL {base}{green}: 404 Not Found'
        + fix.format(green),
        save + f'Custom_Tile "Blue" ImageURL and ImageSecondaryURL {base}{blue}: no answer in 0.5 s'
        + fix.format(blue),
        save + f'Custom_Tile "White" ImageURL and ImageSecondaryURL {base}{white}: answers a web page '
        "(text/html), not the image" + fix.format(white),
        save + f'Custom_Tile "Black" ImageURL and ImageSecondaryURL {base}{black}: more than 5 redirects'
        + fix.format(black)]
    assert took < 5
    back, red, sheet = (asset(root, p) for p in ("deck-back", "chips-red", "deck-sheet"))
    seen = server.seen
    assert ("HEAD", f"/tiny/{back}", None) in seen and ("GET", f"/tiny/{back}", "bytes=0-0") in seen
    assert ("HEAD", f"/moved/{red}", None) in seen
    assert [method for method, path, _ in seen if path == f"/tiny/{sheet}"] == ["HEAD"]  # once, however many objects name it
    assert [path for _, path, _ in seen if black in path] == [f"/tiny/{black}"] + [f"/hop/{n}/{black}"
                                                                               for n in range(1, 6)]
    assert len(seen) == 14  # 7 links, the back's GET after its HEAD, the red's redirected HEAD, the black's 5


def test_install_loads_the_links_first(tmp_path, server):
    root = project(tmp_path / "game", "--asset-url", f"http://127.0.0.1:{server.server_port}/tiny/")
    tts = tmp_path / "tts"
    server.release.set()  # the blue token's request ends at once, unanswered, not after install's 10 s
    result = run_cli("install", "tiny", "--tts-dir", str(tts), cwd=root)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == ("build/tiny/tts: installed nothing, the links above do not load; "
                                              "upload the files, or install with --unchecked to see the game "
                                              "without them")
    assert len(result.stderr.splitlines()) == 5
    assert not tts.exists()
    result = run_cli("install", "tiny", "--tts-dir", str(tts), "--unchecked", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert (tts / "Saves/tiny.json").is_file()


def test_file_links_are_files_of_the_build(tmp_path):
    root = project(tmp_path)
    result = run_cli("check", "tiny", "--links", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "build/tiny/tts: 7 links load"
    sheet = root / "build/tiny/tts/assets" / asset(root, "deck-sheet")
    sheet.unlink()
    result = run_cli("check", "tiny", "--links", cwd=root)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f'build/tiny/tts/tiny.json: DeckCustom "Deck" FaceURL {sheet.resolve().as_uri()}: no such file; build the '
        "deck again: deckpress build tiny"]


def test_no_build_is_told(tmp_path):
    root = tmp_path
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    result = run_cli("check", "tiny", "--links", cwd=root)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == ["build/tiny/tts/tiny.json: no build to check the links of; run deckpress "
                                          "build tiny first"]


def test_a_file_link_outside_the_build_fails_unread(tmp_path):
    first = project(tmp_path / "first")
    moved = tmp_path / "moved"
    shutil.copytree(first, moved)  # its saves still name the first project's files, which are there
    result = run_cli("check", "tiny", "--links", cwd=moved)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 7 and all(": a file outside this build; build the deck again: deckpress build tiny" in line
                                   for line in lines), result.stderr
    assert all(f"file://{first.resolve()}/build/tiny/tts/assets/" in line for line in lines)
