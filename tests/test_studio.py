"""`deckpress studio` over HTTP, as a page (or another site's page) would talk to it: what it serves, what it
refuses (other Hosts, paths out of the build, changes without the token), playtest from the page, and how it
starts and stops (docs/studio.md)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time

import pytest
from PIL import Image

from conftest import ROOT
from helpers.studio import project, running, start


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("studio"), ["score", "scoop"])
    with running(root, "score", "scoop") as studio:
        yield studio


def test_it_listens_on_loopback_and_names_its_address(studio):
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", studio.url)
    decks = studio.json("/api/decks")
    assert [d["deck"] for d in decks] == ["scoop", "score"]
    assert all(d["errors"] == [] and d["builds"] >= 1 for d in decks)


def test_a_request_must_name_the_studio_in_its_host(studio):
    port = studio.host.rsplit(":", 1)[1]
    for host in (f"evil.example:{port}", "127.0.0.1", f"127.0.0.1.evil.example:{port}", f"127.0.0.2:{port}"):
        status, _, body = studio.request("GET", "/api/decks", headers={"Host": host})
        assert status == 421, host
        assert b"answers requests for 127.0.0.1:" in body
    assert studio.request("GET", "/api/decks", headers={"Host": None})[0] == 400  # HTTP/1.1 requires one
    assert studio.request("GET", "/api/decks", headers={"Host": f"localhost:{port}"})[0] == 200


def test_paths_out_of_the_build_are_refused(studio):
    outside = studio.root / "decks" / "score.yaml"
    link = studio.root / "build" / "score" / "print" / "out.pdf"
    link.symlink_to(outside)
    face_link = studio.root / "build" / ".drawn" / "score" / "faces" / "out.png"
    face_link.symlink_to(outside)
    try:
        for path in ("/face/score/../../decks/score.yaml", "/face/score/%2e%2e/%2e%2e/decks/score.yaml",
                     "/face/score/faces/..%2f..%2f..%2fdecks%2fscore.yaml", "/file/score//etc/passwd",
                     "/file/score/%2Fetc%2Fpasswd", "/file/score/..%5c..%5cdecks%5cscore.yaml",
                     "/file/score/print/out.pdf", "/face/score/faces/out.png", "/print/score/out.pdf/1",
                     "/api/deck/score/print/out.pdf", "/assets/../../build.py", "/assets/%2e%2e/server.py",
                     "/file/..%2fscoop/manifest.json"):
            status, _, body = studio.request("GET", path)
            assert status == 404, path
            assert b"cards:" not in body and b"root:" not in body and b"import" not in body, path
    finally:
        link.unlink()
        face_link.unlink()


def test_a_change_needs_the_pages_token(studio):
    body = json.dumps({"games": 5}).encode()
    for token in (None, "", "not-the-token", studio.token + "x"):
        status, _, answer = studio.request("POST", "/api/playtest/scoop", body, {"X-Deckpress-Token": token})
        assert status == 403, token
        assert b"needs the studio's token" in answer
    status, answer = studio.post("/api/playtest/scoop", ["not", "an", "object"])
    assert status == 400 and "JSON object" in answer["error"]


def test_its_pages_are_not_framed_by_another_site(studio):
    for path in ("/", "/deck/score", "/table/score"):
        status, headers, _ = studio.request("GET", path)
        assert status == 200 and headers["x-frame-options"] == "SAMEORIGIN", path


def test_an_unknown_deck_or_file_is_a_404_that_says_so(studio):
    for path, words in (("/deck/nope", "no deck 'nope' in this studio; its decks: scoop, score"),
                        ("/api/deck/nope", "no deck 'nope'"),
                        ("/face/score/faces/deck/nope.png", "score has no image 'faces/deck/nope.png'"),
                        ("/file/score/print/nope.pdf", "score has no file 'print/nope.pdf' in its build"),
                        ("/api/table/nope", "no deck 'nope'")):
        status, _, body = studio.request("GET", path)
        assert status == 404, path
        assert words in json.loads(body)["error"], path


def test_a_face_comes_at_the_width_asked_for(studio):
    full = (studio.root / "build" / "score" / "faces" / "deck" / "score-1.png").read_bytes()
    status, headers, body = studio.request("GET", "/face/score/faces/deck/score-1.png?w=240")
    assert status == 200 and headers["content-type"] == "image/jpeg"
    with Image.open(io.BytesIO(body)) as thumb, Image.open(io.BytesIO(full)) as face:
        assert thumb.width == 240
        assert abs(thumb.height / thumb.width - face.height / face.width) < 0.01
        small = face.convert("RGB").resize(thumb.size)
        assert max(abs(a - b) for a, b in zip(small.resize((8, 8)).tobytes(), thumb.convert("RGB").resize((8, 8)).tobytes())) < 40
    assert studio.request("GET", "/face/score/faces/deck/score-1.png")[2] == full
    for width in ("5", "9000", "abc", "-3"):
        status, _, body = studio.request("GET", f"/face/score/faces/deck/score-1.png?w={width}")
        assert status == 400 and b"give a width in pixels" in body


def test_a_print_pdf_is_served_as_built_for_the_browser_to_show(studio):
    status, headers, body = studio.request("GET", "/file/score/print/score-a4.pdf?b=3")
    assert status == 200 and headers["content-type"] == "application/pdf"
    assert "attachment" not in headers.get("content-disposition", "")  # shown in the page, not downloaded
    assert body == (studio.root / "build" / "score" / "print" / "score-a4.pdf").read_bytes()


def test_the_deck_page_lists_what_the_build_made(studio):
    summary = studio.json("/api/deck/score")
    manifest = json.loads((studio.root / "build" / "score" / "manifest.json").read_text())
    assert summary["cards"] == manifest["cards"]
    assert set(summary["faces"]) == set(manifest["faces"])
    assert "score-a4.pdf" in summary["print"] and summary["sheets"]
    assert summary["scripted"] is True and summary["errors"] == []


def test_playtest_from_the_page_gives_the_command_lines_figures(studio):
    options = {"games": 60, "seed": 7, "players": 2, "bots": "random"}
    status, started = studio.post("/api/playtest/scoop", options)
    assert status == 200 and started["running"] in (True, False)
    end = time.monotonic() + 120
    run = started
    while run.get("running") and time.monotonic() < end:
        time.sleep(0.1)
        run = studio.json("/api/playtest/scoop")
    assert not run.get("error"), run
    cli = subprocess.run([sys.executable, "-m", "deckpress", "playtest", "scoop", "--games", "60", "--seed", "7",
                          "--players", "2", "--out", str(studio.root / "other-build")],
                         cwd=studio.root, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith(run["report"]), (run["report"], cli.stdout)
    assert studio.request("GET", f"/file/scoop/{run['page']}")[0] == 200
    assert run["page"] in studio.json("/api/deck/scoop")["playtest"]


@pytest.mark.parametrize("options, words", [
    ({"games": "many"}, "games: 'many' is not a whole number"),
    ({"games": 0}, "games: 0; play 1 to 100,000 games"),
    ({"players": 9}, "--players 9: scoop is for"),
    ({"bots": "clever"}, "unknown bot 'clever'"),
    ({"mode": 3}, "mode: 3 is not text"),
])
def test_a_wrong_playtest_option_is_one_line(studio, options, words):
    status, answer = studio.post("/api/playtest/scoop", {"games": 5, **options})
    assert status == 400
    assert words in answer["error"] and "\n" not in answer["error"]


def _fails(root, *args) -> str:
    process = start(root, *args)
    try:
        process.process.wait(60)
    finally:
        process.stop()
    assert process.process.returncode == 1, process.lines
    assert len(process.lines) == 1, process.lines
    return process.lines[0]


def test_a_second_studio_on_the_project_says_where_the_first_is(studio):
    line = _fails(studio.root, "score", "--port", "0")
    assert line == f"a studio is already running on this project (build) at {studio.url}; open it, or stop it " \
                   "(Ctrl-C where it runs) first"


def test_a_port_in_use_or_an_address_not_here_is_one_line(studio, tmp_path):
    root = project(tmp_path / "other", ["scoop"])
    port = studio.host.rsplit(":", 1)[1]
    assert _fails(root, "scoop", "--port", port) == \
        f"--port {port}: the port is in use on 127.0.0.1; give another, or --port 0 for any free port"
    assert _fails(root, "scoop", "--host", "192.0.2.1", "--port", "0") == \
        "--host 192.0.2.1: not an address of this machine; give one of its addresses, e.g. 127.0.0.1"
    assert _fails(root, "scoop", "--host", "no-such-host.invalid", "--port", "0") == \
        "--host no-such-host.invalid: no such address; give an address of this machine, e.g. 127.0.0.1"
    out = subprocess.run([sys.executable, "-m", "deckpress", "studio", "--port", "70000"], cwd=root,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "70000 is not in the range 0<=x<=65535" in out.stderr


def test_ctrl_c_stops_it_cleanly_and_frees_the_project(tmp_path):
    root = project(tmp_path / "p", ["scoop"])
    with running(root, "scoop") as studio:
        started = time.monotonic()
        assert studio.stop() == 130
        assert time.monotonic() - started < 5
        assert studio.lines[-1] == "interrupted; the studio stopped"
    with running(root, "scoop") as again:  # the lock is free
        assert again.json("/api/decks")[0]["deck"] == "scoop"


def test_the_page_assets_ship_in_the_package():
    from deckpress.studio.server import ASSETS

    assert ASSETS.is_relative_to(ROOT / "src" / "deckpress")
    for name in ("index.html", "deck.html", "table.html", "common.js", "deck.js", "table.js", "studio.css"):
        assert (ASSETS / name).is_file(), name


def test_a_move_in_the_wrong_format_is_one_line(studio):
    setup = studio.json("/api/table/scoop?setup=1")
    assert setup["seats"][:2] == ["White", "Red"] and "random" in setup["bots"]
    status, started = studio.post("/api/table/scoop/start", {"players": {"White": "human", "Red": "random"}, "seed": 2})
    assert status == 200 and started["started"] and started["players"] == {"White": "human", "Red": "random"}
    deep: list = []
    for _ in range(20):
        deep = [deep]
    for body, words in (({"seat": "White"}, 'a move is {"seat": "Red", "move":'),
                        ({"seat": 3, "move": {"draw": True}}, 'a move is {"seat": "Red", "move":'),
                        ({"seat": "White", "move": deep}, "a move is JSON of objects, lists"),
                        ({"seat": "White", "move": {"draw": None}}, "a move is JSON of objects, lists"),
                        ({"seat": "Red", "move": {"draw": True}}, "Red is a bot's seat"),
                        ({"seat": "Blue", "move": {"draw": True}}, "Blue")):
        status, answer = studio.post("/api/table/scoop/move", body)
        assert status == 400, body
        assert words in answer["error"] and "\n" not in answer["error"], (body, answer)
    for body, words in (({"players": "everyone"}, "players: give each seat's player"),
                        ({"players": {"White": "human", "Red": "clever"}}, "'clever' plays no seat"),
                        ({"players": {"White": "human"}, "seed": "x"}, "seed: 'x'"),
                        ({"players": {"White": "human", "Red": "random"}, "seed": -1},
                         "seed -1: give a seed from 0 to 2147483647")):
        status, answer = studio.post("/api/table/scoop/start", body)
        assert status == 400 and words in answer["error"], (body, answer)
    status, _, body = studio.request("POST", "/api/table/scoop/move", b'{"seat": "White", "move": {"draw": true}}',
                                     {"Content-Type": "application/json"})
    assert status == 403
    status, _, body = studio.request("POST", "/api/table/scoop/move", b"x" * 70_000,
                                     {"X-Deckpress-Token": studio.token})
    assert status == 413
