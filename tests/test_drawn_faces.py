"""A build leaves build/<deck>/ exactly as it was until it is put in place whole, after any interruption:
a failure, a stop, kill -9 at each stage (faces, TTS, PDFs, manifest, the swap itself); the next build then
equals a clean one. Under `deckpress watch` each face shows in build/.drawn/<deck>/ as soon as it is drawn
(build.DrawnFaces), which between builds holds build/<deck>/'s faces."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from deckpress import build as build_module
from deckpress import cli
from deckpress.builders.tts import steps as tts_builder
from deckpress.errors import DeckError, Where
from helpers.builds import URL, age, build, clean_build, edit, game, tree  # noqa: F401 (game: a fixture)

CARD = ("then play again", "then play twice")  # the Wild card's text: one face changes
NEW_CARD = ("      - name: Wild", "      - {name: Joker, value: 9, colour: '#000000', count: 1}\n      - name: Wild")
WILD = "faces/deck/wild.png"


def failing_tts_builder(monkeypatch, seen: Path) -> None:
    """The TTS builder (in its process) notes the build folders as it finds them, then fails on bad input."""
    def fail(ctx):
        drawn = ctx.final.parent / ".drawn" / ctx.deck.name
        seen.write_text(json.dumps({"tree": tree(ctx.final), "drawn": tree(drawn),
                                    "beside": sorted(os.listdir(ctx.final.parent))}), encoding="utf-8")
        raise DeckError.at(Where("decks/game.yaml"), "made to fail by the test")
    monkeypatch.setattr(tts_builder, "build", fail)


def drawing(monkeypatch) -> None:
    """Builds of the command line show their faces as they are drawn, as `deckpress watch`'s do."""
    options = cli._options
    monkeypatch.setattr(cli, "_options", lambda **values: dataclasses.replace(options(**values), drawn=True))


def faces_of(tree_: dict[str, str]) -> dict[str, str]:
    return {name: digest for name, digest in tree_.items() if name.startswith("faces/")}


def test_a_drawn_face_shows_before_the_builders_run_and_the_build_is_untouched_when_one_fails(game, tmp_path,
                                                                                             monkeypatch):
    out = game / "build" / "game"
    drawing(monkeypatch)
    build(game)
    before = tree(out)
    drawn = game / "build" / ".drawn" / "game"
    assert {name: d for name, d in tree(drawn).items() if name != ".deckpress-drawn"} == faces_of(before)
    edit(game / "decks/game.yaml", *CARD)
    edit(game / "decks/game.yaml", *NEW_CARD)
    seen = tmp_path / "seen.json"
    with monkeypatch.context() as patched:
        failing_tts_builder(patched, seen)
        result = run_cli("build", "--asset-url", URL, cwd=game)
    assert result.exit_code == 1 and "made to fail by the test" in result.stderr
    during = json.loads(seen.read_text(encoding="utf-8"))
    assert during["tree"] == before  # build/game/ as it was while the builders ran
    changed = sorted(name for name in during["drawn"] if during["drawn"][name] != before.get(name))
    assert changed == [".deckpress-drawn", "faces/deck/joker.png", WILD]  # the new faces shown, nothing else
    # the build failed: build/game/ is the previous build, and so are the faces shown
    assert tree(out) == before
    assert {name: d for name, d in tree(drawn).items() if name != ".deckpress-drawn"} == faces_of(before)
    assert sorted(os.listdir(out.parent)) == [".drawn", "game"]
    build(game)
    assert tree(out)[WILD] == during["drawn"][WILD]  # the face drawn then
    assert tree(out) == clean_build(game, tmp_path)
    assert {name: d for name, d in tree(drawn).items() if name != ".deckpress-drawn"} == faces_of(tree(out))


def test_a_plain_build_shows_nothing_and_a_folder_not_deckpress_s_is_left_alone(game, monkeypatch):
    build(game)
    assert sorted(os.listdir(game / "build")) == ["game"]
    mine = game / "build" / ".drawn" / "game"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    drawing(monkeypatch)
    edit(game / "decks/game.yaml", *CARD)
    build(game)
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


# Run as `python KILLER STAGE deckpress-arguments...`: the build, killed outright (SIGKILL to its whole process
# group: the deck's process, its face workers and its builders at once) at STAGE.
KILLER = """
import dataclasses, os, signal, sys
from deckpress import build, cli
from deckpress.builders.pdf import steps as pdf
from deckpress.builders.tts import steps as tts

def kill():
    os.killpg(0, signal.SIGKILL)

def after(module, name, wanted=lambda *args: True):
    original = getattr(module, name)
    def killing(*args, **kwargs):
        result = original(*args, **kwargs)
        if wanted(*args):
            kill()
        return result
    setattr(module, name, killing)

stage = sys.argv[1]
options = cli._options
cli._options = lambda **values: dataclasses.replace(options(**values), drawn=True)
if stage == "faces":  # the edited face drawn and shown, the others not yet
    after(build.DrawnFaces, "show", lambda self, path, relative: relative == "faces/deck/wild.png")
elif stage in ("tts", "pdf"):  # the builder's files written into the staging folder
    after(tts if stage == "tts" else pdf, "build")
elif stage == "manifest":  # the manifest written, the build not yet in place
    build._swap = lambda staging, final: kill()
elif stage == "swap":  # where two folders cannot be exchanged in one step: the previous build moved aside
    def moved_aside(staging, final):
        final.rename(final.with_name(f".{final.name}.old-killed"))
        kill()
    build._exchanged = moved_aside
cli.main(sys.argv[2:])
"""


def killed_build(game: Path, tmp_path: Path, stage: str) -> None:
    killer = tmp_path / "killer.py"
    killer.write_text(KILLER, encoding="utf-8")
    run = subprocess.run([sys.executable, str(killer), stage, "build", "--asset-url", URL, "--quiet"], cwd=game,
                         capture_output=True, text=True, timeout=120, start_new_session=True)
    assert run.returncode == -signal.SIGKILL, run.stderr


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="kills the build's process group")
@pytest.mark.parametrize("stage", ["faces", "tts", "pdf", "manifest"])
def test_after_kill_9_at_any_stage_the_previous_build_is_whole_and_the_next_equals_a_clean_one(game, tmp_path,
                                                                                               stage):
    out = game / "build" / "game"
    build(game)
    before = tree(out)
    edit(game / "decks/game.yaml", *CARD)
    killed_build(game, tmp_path, stage)
    assert tree(out) == before  # every file, by its sha256: no new face beside the old manifest
    drawn = tree(game / "build" / ".drawn" / "game")
    if stage == "faces":
        assert drawn[WILD] != before[WILD]  # the edited face showed where watch shows it
    summary = build(game)
    assert "(1 faces rendered" in summary
    assert tree(out) == clean_build(game, tmp_path)
    assert sorted(os.listdir(out.parent)) == [".drawn", "game"]  # what the killed build left, removed


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="kills the build's process group")
def test_a_build_killed_between_the_two_renames_of_its_swap_has_the_previous_build_put_back(game, tmp_path):
    """Where the system cannot exchange two folders in one step, the previous build is renamed aside before the
    new one takes its place: the next build, or one with nothing to do, puts it back first."""
    out = game / "build" / "game"
    age(game)
    build(game)
    before = tree(out)
    text = (game / "decks/game.yaml").read_text(encoding="utf-8")
    edit(game / "decks/game.yaml", *CARD)
    killed_build(game, tmp_path, "swap")
    assert not out.exists()
    (game / "decks/game.yaml").write_text(text, encoding="utf-8")
    age(game)
    assert "up to date" in build(game)
    assert tree(out) == before
    assert sorted(os.listdir(out.parent)) == [".drawn", "game"]


def test_a_build_that_fails_once_in_place_keeps_its_own_faces(game, tmp_path, monkeypatch):
    """An error after the build was put in place (the old folder's removal) puts back no previous face, nor
    shows one."""
    out = game / "build" / "game"
    drawing(monkeypatch)
    build(game)
    edit(game / "decks/game.yaml", *CARD)
    edit(game / "decks/game.yaml", *NEW_CARD)  # a face the previous build has not
    swap = build_module._swap

    def swap_then_fail(staging, final):
        swap(staging, final)
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as patched:
        patched.setattr(build_module, "_swap", swap_then_fail)
        assert run_cli("build", "--asset-url", URL, cwd=game).exit_code == 1
    assert tree(out) == clean_build(game, tmp_path)
    drawn = tree(game / "build" / ".drawn" / "game")
    assert {name: d for name, d in drawn.items() if name != ".deckpress-drawn"} == faces_of(tree(out))


def test_the_previous_build_is_removed_beside_the_stamp_and_its_failure_still_said(game, tmp_path, monkeypatch):
    """The previous build's folder, moved aside, is removed in a thread of its own while the deck's process
    stamps the build, and is gone when the command ends; a failure to remove it still fails the command, the
    new build in place."""
    out = game / "build" / "game"
    build(game)
    rmtree = build_module.shutil.rmtree
    removed_by = []

    def watched(path, *args, **kwargs):
        if ".game." in str(path) and not kwargs.get("ignore_errors"):
            removed_by.append(build_module.threading.current_thread())
        return rmtree(path, *args, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(build_module.shutil, "rmtree", watched)
        edit(game / "decks/game.yaml", *CARD)
        build(game)
    assert len(removed_by) == 1 and removed_by[0] is not build_module.threading.main_thread()
    assert sorted(os.listdir(out.parent)) == ["game"]

    def failing(path, *args, **kwargs):
        if ".game." in str(path) and not kwargs.get("ignore_errors"):
            raise OSError(13, "Permission denied", str(path))
        return rmtree(path, *args, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(build_module.shutil, "rmtree", failing)
        edit(game / "decks/game.yaml", *reversed(CARD))
        result = run_cli("build", "--asset-url", URL, cwd=game)
    assert result.exit_code == 1
    assert "cannot write the build: Permission denied" in result.stderr and "Traceback" not in result.stderr
    assert tree(out) == clean_build(game, tmp_path)
    build(game)
    assert sorted(os.listdir(out.parent)) == ["game"]  # the next build removes what was left


def test_a_build_checks_its_output_folder_once_holding_the_lock(game, monkeypatch):
    """The output folder is checked for deckpress's (its files listed, its manifest read) once, under the lock:
    no other build changes it after."""
    build(game)
    check_output, calls = build_module.check_output, []

    def counted(final, deck):
        calls.append(final)
        return check_output(final, deck)
    with monkeypatch.context() as patched:
        patched.setattr(build_module, "check_output", counted)
        edit(game / "decks/game.yaml", *CARD)
        build(game)
    assert len(calls) == 1
