"""The designer's loop: `deckpress watch` rebuilds on each save and survives mistakes; `deckpress preview`
writes a contact sheet and a hand fan (or one card) without building."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from conftest import run_cli
from deckpress.render import face_pixels
from deckpress.schema import CARD_SIZES


def wait_for(condition, seconds: float = 60, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out; the watcher said: {log.read_text() if log else ''}"
        time.sleep(0.05)


def test_watch_rebuilds_on_save_reports_mistakes_and_stops_on_ctrl_c(tmp_path):
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    log = tmp_path / "watch.log"
    with open(log, "w") as err:
        run = subprocess.Popen([sys.executable, "-m", "deckpress", "watch", "--quiet"], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=err, text=True)
    try:
        wait_for(lambda: "watching" in log.read_text(), log=log)
        face = root / "build" / "game" / "faces" / "deck" / "wild.png"
        first = face.read_bytes()
        deck = root / "decks" / "game.yaml"
        text = deck.read_text(encoding="utf-8")
        deck.write_text(text.replace("then play again", "then play twice"), encoding="utf-8")
        wait_for(lambda: face.read_bytes() != first, log=log)
        deck.write_text(text.replace("count: 2\n", "count: -2\n"), encoding="utf-8")
        wait_for(lambda: "count: -2 is too small" in log.read_text())
        assert run.poll() is None
        mistakes = [line for line in log.read_text().splitlines() if "too small" in line]
        assert len(mistakes) == 1 and mistakes[0].startswith("decks/game.yaml:")
        deck.write_text(text, encoding="utf-8")
        wait_for(lambda: face.read_bytes() == first)
    finally:
        run.send_signal(signal.SIGINT)
        run.wait(timeout=30)
    assert run.returncode == 0
    assert log.read_text().splitlines()[-1] == "stopped watching"
    assert "Traceback" not in log.read_text()


def test_watch_does_not_react_to_what_its_builds_write(tmp_path):
    """A build writes into the output folder inside the project; those writes start no other build (or
    watch would rebuild for ever), a saved deck does."""
    import threading

    from deckpress.watch import watch

    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    deck, out, builds = root / "decks" / "game.yaml", root / "build", []

    def build(path: Path) -> None:
        builds.append(path)
        (out / "game").mkdir(parents=True, exist_ok=True)
        (out / "game" / f"face-{len(builds)}.png").write_bytes(b"drawn")

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
