"""`deckpress push` and the Global script's line map, against the fake TTS on loopback (ports the system
picks): a made-up deck in a temporary project, built for real."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, heeds_ctrl_c, run_cli
from deckpress.builders.tts import editor, push
from deckpress.builders.tts.push import Talkback, map_error
from helpers.fake_tts_editor import FakeTTS

DECK = """
game: {name: Tiny, players: {min: 2, max: 3}}
script: tiny
card_size: mini
components:
  - id: cards
    name: Cards
    template: tiny-card
    cards:
      - {name: One}
      - {name: Two}
  - id: chips
    name: Chips
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: tiny-card
    cards:
      - {name: CHIP, count: 3}
setup:
  deal: {2: 1, 3: 0}
print: {profiles: []}
tts: {seats: [White, Red]}
"""
TEMPLATE = """elements:
  - {type: rect, box: bleed, fill: "#d0e0f0"}
  - {type: text, box: safe, h: 8, text: "{{ card.name }}", size: 8, min_size: 4}
"""
ENGINE = """local M = {}
function M.answer()
  return error("boom")
end
function M.setup(data, seats, opts) return {seats = seats} end
function M.to_act(state) return {}, "over" end
function M.legal_moves(state, seat) return {} end
function M.play(state, seat, move) return nil, {text = "no moves here"} end
function M.scores(state) return {}, {} end
function M.all_ids(state) return {} end
return M
"""


def free_port() -> int:
    with socket.create_server((editor.HOST, 0)) as server:
        return server.getsockname()[1]


def build(root: Path) -> dict:
    result = run_cli("build", "tiny", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    return json.loads((root / "build/tiny/tts/tiny.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tiny")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "decks" / "tiny.yaml").write_text(DECK, encoding="utf-8")
    (root / "templates" / "tiny-card.yaml").write_text(TEMPLATE, encoding="utf-8")
    (root / "tts" / "tiny").mkdir(parents=True)
    (root / "tts" / "tiny" / "engine.lua").write_text(ENGINE, encoding="utf-8")
    build(root)
    return root


def test_the_line_map_places_each_module_at_its_own_lines(project):
    script = json.loads((project / "build/tiny/tts/tiny.json").read_text(encoding="utf-8"))["LuaScript"]
    lines = json.loads((project / "build/tiny/tts/global-lines.json").read_text(encoding="utf-8"))
    [entry] = [e for e in lines if e["path"] == "tts/tiny/engine.lua"]
    assert entry["lines"] == ENGINE.count("\n") + 1
    rendered = script.split("\n")
    assert rendered[entry["first"] + 2 - 1] == '  return error("boom")'  # line 3 of engine.lua
    line = entry["first"] + 2
    assert map_error(f"chunk_0:({line},10-22): boom", lines) == "tts/tiny/engine.lua:3:10: boom"
    assert map_error(f"Global:({line},10-{line},22): boom", lines) == "tts/tiny/engine.lua:3:10: boom"
    assert map_error("chunk_0:(1,1-2): in the template", lines) == "chunk_0:(1,1-2): in the template"
    assert map_error("no position here", lines) == "no position here"
    assert map_error(f"chunk_0:({line},10-22): boom\n  at chunk_0:({line},4-9)\n  at chunk_0:(1,1-2)", lines) == \
        "tts/tiny/engine.lua:3:10: boom\n  at tts/tiny/engine.lua:3:4\n  at chunk_0:(1,1-2)"   # the traceback's frames
    # deckpress's own modules, outside the project, are named as deckpress's: never by where it is installed,
    # which would make the build differ from one machine to the next
    assert "(deckpress) lib/setup.lua" in [e["path"] for e in lines]
    assert not any(Path(e["path"]).is_absolute() or str(ROOT) in e["path"] for e in lines), lines
    assert [e["first"] for e in lines] == sorted(e["first"] for e in lines)


def test_talkback_shows_global_errors_at_the_projects_line(project):
    lines = json.loads((project / "build/tiny/tts/global-lines.json").read_text(encoding="utf-8"))
    [entry] = [e for e in lines if e["path"] == "tts/tiny/engine.lua"]
    said: list[str] = []
    talk = Talkback(said.append)
    talk.lines = lines
    talk({"messageID": editor.ERROR, "guid": "-1", "errorMessagePrefix": "Error in Global Script: ",
          "error": f"chunk_0:({entry['first'] + 2},10-22): boom"})
    talk({"messageID": editor.ERROR, "guid": "abc123", "errorMessagePrefix": "Error in Script (x): ",
          "error": f"chunk_0:({entry['first'] + 2},10-22): boom"})
    talk({"messageID": editor.PRINT, "message": "hello"})
    talk({"messageID": editor.GAME_SAVED})
    assert said == ["tts: Error in Global Script: tts/tiny/engine.lua:3:10: boom",
                    f"tts: Error in Script (x): chunk_0:({entry['first'] + 2},10-22): boom", "tts: hello"]


def test_talkback_tells_a_game_tts_loaded_from_the_reload_deckpress_asked_for(monkeypatch):
    games: list[dict] = []
    talk = Talkback(lambda line: None)
    talk.on_game = games.append
    loaded = {"messageID": editor.GAME_LOADED, "scriptStates": [
        {"name": "Bag", "guid": "abc123", "script": "x"}, {"name": "Global", "guid": "-1", "script": "a", "ui": "u"}]}
    talk(loaded)  # the player loaded a game
    assert games == [{"name": "Global", "guid": "-1", "script": "a", "ui": "u"}] and not talk.loaded.is_set()
    talk.expect_reload()
    talk(loaded)  # the reload of deckpress's own save & play
    assert len(games) == 1 and talk.loaded.is_set()
    talk(loaded)  # the expectation is used up: the next load is the player's again
    assert len(games) == 2
    monkeypatch.setattr(push, "LOAD_WAIT", 0.0)
    talk.expect_reload()
    talk(loaded)  # too late to be that reload
    assert len(games) == 3
    talk({"messageID": editor.GAME_LOADED, "scriptStates": "not a list"})
    talk({"messageID": editor.GAME_LOADED})
    assert games[3:] == [{}, {}]


def test_push_sends_the_script_and_every_object_then_only_what_changed(project):
    save = json.loads((project / "build/tiny/tts/tiny.json").read_text(encoding="utf-8"))
    editor_port = free_port()
    tts = FakeTTS(editor_port, save["ObjectStates"])
    try:
        args = ("push", "tiny", "--tts-port", str(tts.port), "--editor-port", str(editor_port), "--listen", "0.5")
        first = run_cli(*args, cwd=project)
        assert first.exit_code == 0, first.stderr
        received = tts.wait_for(len(save["ObjectStates"]) + 1)
        assert [m["messageID"] for m in received] == [1] + [3] * len(save["ObjectStates"])
        assert tts.lost == []  # the objects waited until the game had reloaded
        assert tts.script == save["LuaScript"] and tts.ui == save["XmlUI"]
        assert set(tts.objects) == {o["GUID"] for o in save["ObjectStates"]}  # each GUID kept
        assert "tts: game loaded" in first.stderr and "replaced" in first.stderr

        again = run_cli(*args, cwd=project)
        assert again.exit_code == 0 and "nothing changed since the last push" in again.stderr
        assert len(tts.received) == len(received)

        deck = project / "decks" / "tiny.yaml"
        deck.write_text(DECK.replace("CHIP", "Chip"), encoding="utf-8")
        changed = build(project)
        third = run_cli(*args, cwd=project)
        assert third.exit_code == 0, third.stderr
        [chips] = [o for o in changed["ObjectStates"] if "chips" in o["Tags"]]
        new = tts.wait_for(len(received) + 2)[len(received):]
        assert [m["messageID"] for m in new] == [1, 3]  # the script (its DATA changed), then the tile stack
        assert tts.lost == []
        assert tts.objects[chips["GUID"]]["Nickname"] == "Chip"
        assert tts.objects[chips["GUID"]]["position"] == [1.0, 2.0, 3.0]  # where the old one lay
    finally:
        tts.stop()
        (project / "decks" / "tiny.yaml").write_text(DECK, encoding="utf-8")


def test_push_without_tts_is_one_line_and_records_nothing(project, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(project / "build", out)
    shutil.rmtree(out / ".deckpress-push", ignore_errors=True)
    result = run_cli("push", "tiny", "--out", str(out), "--tts-port", str(free_port()), "--editor-port", "0",
                     "--listen", "0", cwd=project)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "tiny: not pushed: Tabletop Simulator is not listening" in result.stderr
    assert not (out / ".deckpress-push").exists()


def test_a_taken_editor_port_is_one_line_and_the_push_goes_on(project, tmp_path, monkeypatch):
    """Without the listener deckpress can't hear TTS reload: it pauses before replacing objects."""
    monkeypatch.setattr(push, "RELOAD_PAUSE", 0.5)
    out = tmp_path / "out"
    shutil.copytree(project / "build", out)
    shutil.rmtree(out / ".deckpress-push", ignore_errors=True)
    save = json.loads((out / "tiny/tts/tiny.json").read_text(encoding="utf-8"))
    with socket.create_server((editor.HOST, 0)) as taken:
        tts = FakeTTS(taken.getsockname()[1], save["ObjectStates"], reload_seconds=0.2)
        try:
            result = run_cli("push", "tiny", "--out", str(out), "--tts-port", str(tts.port), "--editor-port",
                             str(taken.getsockname()[1]), "--listen", "0", cwd=project)
            received = tts.wait_for(len(save["ObjectStates"]) + 1)
        finally:
            tts.stop()
    assert result.exit_code == 0, result.stderr
    assert "is taken" in result.stderr.splitlines()[0] and "pushing goes on" in result.stderr
    assert [m["messageID"] for m in received] == [1] + [3] * len(save["ObjectStates"]) and tts.lost == []


def wait_for(condition, log: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out; the watcher said: {log.read_text()}"
        time.sleep(0.05)


class Watching:
    """`deckpress watch tiny --tts` in a process of its own, on a copy of the project, with its output in a
    log; TTS's and the editor's ports are free ones the system picked."""

    def __init__(self, project: Path, tmp_path: Path, editor_port: int | None = None):
        self.root = tmp_path / "tiny"
        shutil.copytree(project, self.root, ignore=shutil.ignore_patterns("build"))
        self.tts_port, self.editor_port = free_port(), editor_port or free_port()
        self.log = tmp_path / "watch.log"
        with open(self.log, "w") as err:
            self.run = subprocess.Popen(
                [sys.executable, "-m", "deckpress", "watch", "tiny", "--tts", "--quiet", "--tts-port",
                 str(self.tts_port), "--editor-port", str(self.editor_port)],
                cwd=self.root, stdout=subprocess.DEVNULL, stderr=err, text=True, preexec_fn=heeds_ctrl_c)
        try:
            self.wait_until("watching")
        except BaseException:
            self.run.kill()
            self.run.wait(timeout=30)
            raise

    def text(self) -> str:
        return self.log.read_text()

    def wait_until(self, said: str) -> None:
        wait_for(lambda: said in self.text(), self.log)

    def save(self) -> dict:
        return json.loads((self.root / "build/tiny/tts/tiny.json").read_text(encoding="utf-8"))

    def stop(self) -> None:
        self.run.send_signal(signal.SIGINT)
        self.run.wait(timeout=30)
        assert "Traceback" not in self.text()
        assert self.text().splitlines()[-1] == "interrupted; stopped watching"


def test_watch_tts_pushes_as_soon_as_tts_appears_and_shows_what_it_says(project, tmp_path):
    """TTS starts, its game already loaded, after watch said it was not there: deckpress finds it on its
    own and pushes the current build, with no file saved."""
    watching = Watching(project, tmp_path)
    tts = None
    try:
        assert "tiny: not pushed: Tabletop Simulator is not listening" in watching.text()
        save = watching.save()
        tts = FakeTTS(watching.editor_port, port=watching.tts_port, save=save)
        received = tts.wait_for(1 + len(save["ObjectStates"]), timeout=60)
        # it asked for the game's scripts, saw the build's own Global script, and replaced every object
        assert [m["messageID"] for m in received] == [editor.GET_SCRIPTS] + [editor.EXECUTE_LUA] * len(
            save["ObjectStates"])
        assert tts.lost == [] and set(tts.objects) == {o["GUID"] for o in save["ObjectStates"]}
        watching.wait_until("tiny: replaced")
        assert watching.text().count("tiny: TTS loaded the game; pushing the current build") == 1
        lines = json.loads((watching.root / "build/tiny/tts/global-lines.json").read_text(encoding="utf-8"))
        [entry] = [e for e in lines if e["path"] == "tts/tiny/engine.lua"]
        tts.error(f"chunk_0:({entry['first'] + 2},10-22): boom")
        tts.print("hello from the table")
        watching.wait_until("tts: hello from the table")
        assert "tts: Error in Global Script: tts/tiny/engine.lua:3:10: boom" in watching.text()
        assert not [line for line in watching.text().splitlines() if line.startswith("changed:")]
        assert watching.run.poll() is None
    finally:
        watching.stop()
        if tts is not None:
            tts.stop()


def test_watch_tts_pushes_when_tts_loads_the_decks_game_and_never_into_another(project, tmp_path):
    """TTS runs with no game; the player loads another game (nothing pushed), then an older build of this
    deck's (announced by TTS): the current build goes at once, the script by save & play first."""
    watching = Watching(project, tmp_path)
    tts = FakeTTS(watching.editor_port, port=watching.tts_port)  # TTS at its menu: no game loaded
    try:
        wait_for(lambda: tts.lost, watching.log)  # it knocked: asked for the scripts of a game TTS lacks
        save = watching.save()
        other = {"LuaScript": "-- another game's Global script\n", "XmlUI": "", "ObjectStates": []}
        tts.load(other)
        watching.wait_until("tiny: not pushed: the game TTS has loaded is not tiny's")
        older = dict(save, LuaScript=save["LuaScript"] + "\n-- as an older build had it\n")
        before = len(tts.received)
        tts.load(older)
        received = tts.wait_for(before + 1 + len(save["ObjectStates"]), timeout=60)[before:]
        assert [m["messageID"] for m in received] == [editor.SAVE_AND_PLAY] + [editor.EXECUTE_LUA] * len(
            save["ObjectStates"])
        assert tts.script == save["LuaScript"]
        assert [m["messageID"] for m in tts.lost] == [editor.GET_SCRIPTS] * len(tts.lost)  # none lost reloading
        watching.wait_until("tiny: replaced")
        # the reload that followed its own save & play is no new game to push into
        assert watching.text().count("TTS loaded the game; pushing") == 1
        assert "TTS loaded the game" not in watching.text().split("tiny: not pushed: the game TTS has loaded")[0]
    finally:
        watching.stop()
        tts.stop()


def test_watch_tts_takes_the_editor_port_once_another_editor_lets_it_go(project, tmp_path):
    holder = socket.create_server((editor.HOST, 0))  # another editor listening for TTS
    try:
        watching = Watching(project, tmp_path, editor_port=holder.getsockname()[1])
    except BaseException:
        holder.close()
        raise
    tts = None
    try:
        assert watching.text().startswith(f"{editor.HOST}:{watching.editor_port} is taken")
        holder.close()
        watching.wait_until(f"tts: {editor.HOST}:{watching.editor_port} is free again; listening there")
        save = watching.save()
        tts = FakeTTS(watching.editor_port, port=watching.tts_port, save=save)
        tts.wait_for(1 + len(save["ObjectStates"]), timeout=60)
        tts.print("heard")
        watching.wait_until("tts: heard")
        assert watching.text().count("is taken") == 1
    finally:
        holder.close()
        watching.stop()
        if tts is not None:
            tts.stop()


def test_watch_tts_pushes_blind_when_tts_appears_while_another_editor_holds_its_port(project, tmp_path):
    """Deaf to TTS, deckpress knocks by pushing, and pauses before the objects while TTS reloads."""
    with socket.create_server((editor.HOST, 0)) as holder:
        watching = Watching(project, tmp_path, editor_port=holder.getsockname()[1])
        tts = None
        try:
            save = watching.save()
            tts = FakeTTS(watching.editor_port, port=watching.tts_port, save=save)
            received = tts.wait_for(1 + len(save["ObjectStates"]), timeout=60)
            assert [m["messageID"] for m in received] == [editor.SAVE_AND_PLAY] + [editor.EXECUTE_LUA] * len(
                save["ObjectStates"])
            assert tts.lost == [] and tts.script == save["LuaScript"]
            watching.wait_until("tiny: replaced")
            assert watching.text().count("not pushed") == 1  # the knocks before TTS came said nothing
        finally:
            watching.stop()
            if tts is not None:
                tts.stop()


def test_watch_tts_takes_one_deck(project):
    result = run_cli("watch", "tiny", "tiny", "--tts", cwd=project)
    assert result.exit_code == 2 and "name one deck" in result.stderr
