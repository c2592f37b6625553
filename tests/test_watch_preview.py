"""The designer's loop: `deckpress watch` rebuilds on each save and survives mistakes; `deckpress preview`
writes a contact sheet and a hand fan (or one card) without building."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from conftest import heeds_ctrl_c, run_cli
from deckpress.render import face_pixels
from deckpress.schema import CARD_SIZES


def wait_for(condition, seconds: float = 60, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out; the watcher said: {log.read_text() if log else ''}"
        time.sleep(0.05)



def start_watch(root: Path, log: Path) -> subprocess.Popen:
    with open(log, "w") as err:
        run = subprocess.Popen([sys.executable, "-m", "deckpress", "watch", "--quiet"], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=err, text=True, preexec_fn=heeds_ctrl_c)
    wait_for(lambda: "watching" in log.read_text(), log=log)
    return run


def changed_lines(log: Path) -> list[str]:
    return [line for line in log.read_text().splitlines() if line.startswith("changed: ")]


def test_watch_rebuilds_on_save_reports_mistakes_and_stops_on_ctrl_c(tmp_path):
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    log = tmp_path / "watch.log"
    run = start_watch(root, log)
    try:
        face = root / "build" / "game" / "faces" / "deck" / "wild.png"
        drawn = root / "build" / ".drawn" / "game" / "faces" / "deck" / "wild.png"  # the face as soon as drawn
        first = face.read_bytes()
        assert drawn.read_bytes() == first
        deck = root / "decks" / "game.yaml"
        text = deck.read_text(encoding="utf-8")
        deck.write_text(text.replace("then play again", "then play twice"), encoding="utf-8")
        wait_for(lambda: face.read_bytes() != first, log=log)
        wait_for(lambda: "rebuilt in" in log.read_text(), log=log)
        assert drawn.read_bytes() == face.read_bytes()
        deck.write_text(text.replace("count: 2\n", "count: -2\n"), encoding="utf-8")
        wait_for(lambda: "not rebuilt" in log.read_text(), log=log)
        assert run.poll() is None
        lines = log.read_text().splitlines()
        mistakes = [line for line in lines if "too small" in line]
        assert len(mistakes) == 1 and mistakes[0].startswith("decks/game.yaml:")
        assert lines[-1].startswith("not rebuilt (") and lines[-1].endswith("fix what is said above and save")
        assert sum(line.startswith("rebuilt in") for line in lines) == 1  # the failed rebuild does not say so
        deck.write_text(text, encoding="utf-8")
        wait_for(lambda: face.read_bytes() == first)
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=30)
    assert run.returncode == 130  # as the README says
    assert log.read_text().splitlines()[-1] == "interrupted; stopped watching"
    assert "Traceback" not in log.read_text()


def test_watch_goes_on_when_the_deck_file_is_deleted_and_ignores_editors_files(tmp_path):
    """A deck file deleted (as some editors do while saving) is said, and watching goes on: the deck is
    built again once it is back. The files editors write beside the one saved are not changes."""
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    log = tmp_path / "watch.log"
    run = start_watch(root, log)
    try:
        deck = root / "decks" / "game.yaml"
        text = deck.read_text(encoding="utf-8")
        editors = [".game.yaml.swp", ".game.yaml.swx", "game.yaml~", ".#game.yaml", "4913", "#game.yaml#",
                   ".goutputstream-X1Y2Z3", "game.yaml.tmp", "game.yaml.kate-swp", ".~lock.cards.csv#"]
        for name in editors:
            (root / "decks" / name).write_text("x", encoding="utf-8")
            (root / "templates" / name).write_text("x", encoding="utf-8")
        deck.unlink()
        wait_for(lambda: "watching goes on" in log.read_text(), log=log)
        assert run.poll() is None
        problem = [line for line in log.read_text().splitlines() if "watching goes on" in line]
        assert len(problem) == 1 and "no decks found in decks/" in problem[0]
        deck.write_text(text.replace("then play again", "then play twice"), encoding="utf-8")
        wait_for(lambda: "rebuilt in" in log.read_text(), log=log)
        reported = {name for line in changed_lines(log) for name in line.removeprefix("changed: ").split(", ")}
        assert reported == {"game.yaml"}, changed_lines(log)
        assert run.poll() is None
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=30)
    assert run.returncode == 130 and "Traceback" not in log.read_text()


def test_ctrl_c_during_a_rebuild_ends_watch_at_once(tmp_path):
    """Ctrl-C while a rebuild draws faces and its builders prepare ends watch well within the time a
    stopped builder used to be given (STOP_WAIT, 10 s), with exit status 130 and nothing left behind."""
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    log = tmp_path / "watch.log"
    run = start_watch(root, log)
    deck = root / "decks" / "game.yaml"
    numbers = ", ".join(str(n) for n in range(1, 61))
    deck.write_text(deck.read_text(encoding="utf-8").replace("each: {n: [1, 2, 3, 4, 5, 6]}",
                                                              f"each: {{n: [{numbers}]}}"), encoding="utf-8")
    wait_for(lambda: list((root / "build").glob(".game.staging-*/faces/deck/number-1*.png")), log=log)
    stopped = time.monotonic()
    run.send_signal(signal.SIGINT)
    try:
        run.wait(timeout=30)
    except subprocess.TimeoutExpired:  # what the stuck watch said, for the one who looks into it
        run.kill()
        pytest.fail(f"watch did not end 30 s after Ctrl-C; its output:\n{log.read_text()}")
    assert time.monotonic() - stopped < 10, log.read_text()
    assert run.returncode == 130, log.read_text()
    assert sorted(p.name for p in (root / "build").iterdir()) == [".drawn", "game"]
    build = root / "build" / "game" / "faces"  # the faces shown as drawn, put back to the build's
    shown = root / "build" / ".drawn" / "game" / "faces"
    assert {p.relative_to(shown): p.read_bytes() for p in shown.rglob("*.png")} == \
        {p.relative_to(build): p.read_bytes() for p in build.rglob("*.png")}


def test_watch_does_not_react_to_what_its_builds_write(tmp_path):
    """A build writes into the output folder inside the project; those writes start no other build (or
    watch would rebuild for ever), a saved deck does."""
    import threading

    from deckpress.watch import watch

    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    deck, out, builds = root / "decks" / "game.yaml", root / "build", []

    def build(path: Path) -> bool:
        builds.append(path)
        (out / "game").mkdir(parents=True, exist_ok=True)
        (out / "game" / f"face-{len(builds)}.png").write_bytes(b"drawn")
        return True

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(lambda: [deck], out, build, lambda message: None, stop))
    watcher.start()
    try:
        wait_for(lambda: len(builds) >= 1)
        time.sleep(1)
        assert len(builds) == 1
        deck.write_text(deck.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        wait_for(lambda: len(builds) >= 2)
        time.sleep(1)
        assert len(builds) == 2
    finally:
        stop.set()
        watcher.join(timeout=30)


def rebuilds(log: Path) -> int:
    return sum(line.startswith(("rebuilt in", "not rebuilt")) for line in log.read_text().splitlines())


def test_watch_rebuilds_for_the_decks_inputs_only_even_with_its_output_in_the_project(tmp_path):
    """`deckpress watch > watch.log 2>&1` in the project: its own output, a file no deck reads and git's files
    start no rebuild (they rebuilt for ever); a saved input, and a file added where the deck looks for
    templates, each start one."""
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    log = root / "watch.log"
    with open(log, "w") as output:
        run = subprocess.Popen([sys.executable, "-m", "deckpress", "watch"], cwd=root, stdout=output,
                               stderr=subprocess.STDOUT, text=True, preexec_fn=heeds_ctrl_c)
    try:
        wait_for(lambda: "watching" in log.read_text(), log=log)
        template = root / "templates" / "card.yaml"
        template.write_text(template.read_text(encoding="utf-8").replace('"#ffffff"', '"#fdf6e3"', 1),
                            encoding="utf-8")
        wait_for(lambda: rebuilds(log) == 1, log=log)
        (root / "notes.txt").write_text("playtest notes", encoding="utf-8")
        (root / ".git").mkdir()
        (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
        time.sleep(2)
        assert rebuilds(log) == 1, log.read_text()
        (root / "templates" / "extra.yaml").write_text("elements: []\n", encoding="utf-8")
        wait_for(lambda: rebuilds(log) == 2, log=log)
        time.sleep(2)
        assert rebuilds(log) == 2, log.read_text()
        assert [line for line in log.read_text().splitlines() if line.startswith("changed: ")] == [
            "changed: card.yaml", "changed: extra.yaml"]
        deck = root / "decks" / "game.yaml"  # a build that fails: then any change counts, but for watch.log
        deck.write_text(deck.read_text(encoding="utf-8").replace("count: 2\n", "count: -2\n"), encoding="utf-8")
        wait_for(lambda: rebuilds(log) == 3, log=log)
        time.sleep(2)
        assert rebuilds(log) == 3 and "not rebuilt" in log.read_text().splitlines()[-1], log.read_text()
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=30)
    assert run.returncode == 130 and "Traceback" not in log.read_text()


def test_preview_writes_a_contact_sheet_and_a_hand_fan(tmp_path):
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    result = run_cli("preview", "game", cwd=root)
    assert result.exit_code == 0, result.stderr
    sheet, hand = (root / line for line in result.stdout.split())
    assert (sheet.name, hand.name) == ("game-preview.png", "game-preview-hand.png")
    with Image.open(sheet) as image:
        assert image.width > 8 * 240 and 2 * 300 < image.height < 3 * 500  # 9 faces: 8 on the first row
    with Image.open(hand) as image:
        assert image.width > image.height > 300
    assert not (root / "build" / "game").exists()  # no build happened

    result = run_cli("preview", "game", "--card", "wild", "--out", "wild.png", cwd=root)
    assert result.exit_code == 0 and result.stdout.strip() == "wild.png"
    with Image.open(root / "wild.png") as image:
        assert image.size == face_pixels(CARD_SIZES["poker"], 3.175)


def test_preview_never_overwrites_a_file_it_did_not_write(tmp_path):
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    Image.new("RGB", (10, 10)).save(root / "mine.png")
    result = run_cli("preview", "game", "--out", "mine.png", cwd=root)
    assert result.exit_code == 1 and "is not a deckpress preview" in result.stderr
    result = run_cli("preview", "game", "--card", "nope", cwd=root)
    assert result.exit_code == 1 and "has no card 'nope'" in result.stderr


def test_preview_of_a_large_deck_stays_bounded(tmp_path, monkeypatch):
    """Faces are drawn a few at a time and only their thumbnails kept; the sheet shows at most MAX_SHEET of
    them and counts the rest (a deck of thousands of cards made a sheet of a billion pixels)."""
    from deckpress import preview

    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0  # 9 faces: 8 fronts and a back
    drawn = []
    face_images = preview.face_images
    monkeypatch.setattr(preview, "face_images", lambda *args: drawn.append(len(args[2])) or face_images(*args))
    monkeypatch.setattr(preview, "MAX_SHEET", 4)
    monkeypatch.setattr(preview, "CHUNK", 2)
    result = run_cli("preview", "game", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert max(drawn) == preview.HAND and all(n <= 2 for n in drawn[1:])  # the hand fan's seven, then pairs
    sheet, hand = (root / line for line in result.stdout.split())
    with Image.open(sheet) as image:
        assert 4 * 240 < image.width < 5 * 256 and image.height < 500  # one row of four, and the count
    with Image.open(hand) as image:
        assert image.width > image.height > 300
