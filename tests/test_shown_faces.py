"""A face a build draws is put in place in the build folder as soon as it is drawn (build.ShownFaces), before
the builders make the rest; a build that then fails puts the previous faces back, and one killed outright
leaves nothing the next build takes for its own or the user's."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import run_cli
from deckpress import build as build_module
from deckpress.builders.tts import steps as tts_builder
from deckpress.errors import DeckError, Where
from helpers.builds import URL, age, build, clean_build, edit, game, tree  # noqa: F401 (game: a fixture)

CARD = ("then play again", "then play twice")  # the Wild card's text: one face changes
NEW_CARD = ("      - name: Wild", "      - {name: Joker, value: 9, colour: '#000000', count: 1}\n      - name: Wild")


def states(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file of `root` with its size, modification time and inode: the same files, not only the same bytes."""
    return {p.relative_to(root).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns, p.stat().st_ino)
            for p in sorted(root.rglob("*")) if p.is_file()}


def failing_tts_builder(monkeypatch, seen: Path) -> None:
    """The TTS builder (in its process) notes the build folder as it finds it, then fails on bad input."""
    def fail(ctx):
        seen.write_text(json.dumps({"tree": tree(ctx.final), "beside": sorted(os.listdir(ctx.final.parent))}),
                        encoding="utf-8")
        raise DeckError.at(Where("decks/game.yaml"), "made to fail by the test")
    monkeypatch.setattr(tts_builder, "build", fail)


def test_a_drawn_face_is_in_place_before_the_builders_run_and_put_back_when_one_fails(game, tmp_path, monkeypatch):
    out = game / "build" / "game"
    build(game)
    before, files = tree(out), states(out)
    edit(game / "decks/game.yaml", *CARD)
    edit(game / "decks/game.yaml", *NEW_CARD)
    seen = tmp_path / "seen.json"
    with monkeypatch.context() as patched:
        failing_tts_builder(patched, seen)
        result = run_cli("build", "--asset-url", URL, cwd=game)
    assert result.exit_code == 1 and "made to fail by the test" in result.stderr
    during = json.loads(seen.read_text(encoding="utf-8"))
    changed = sorted(name for name in before if during["tree"].get(name) != before[name])
    assert changed == ["faces/deck/wild.png"]  # the new face in place, nothing else
    assert set(during["tree"]) == set(before)  # no file the manifest does not list (the new card's face)
    assert [name for name in during["beside"] if not name.startswith(".game.")] == ["game"]
    # the build failed: the previous build's own files are back, and nothing of this build is left
    assert states(out) == files
    assert sorted(os.listdir(out.parent)) == ["game"]
    build(game)
    assert tree(out)["faces/deck/wild.png"] == during["tree"]["faces/deck/wild.png"]  # the face drawn then
    assert tree(out) == clean_build(game, tmp_path)


def test_a_face_a_killed_build_left_is_drawn_again_and_no_stamp_vouches_for_it(game, tmp_path, monkeypatch):
    """A build killed after its face was put in place leaves it under the previous manifest: the next build
    (the deck as it was then, its stamp still there) finds the file is not the manifest's, draws the face
    again and takes nothing of the killed build's."""
    out = game / "build" / "game"
    age(game)
    build(game)
    before = tree(out)
    text = (game / "decks/game.yaml").read_text(encoding="utf-8")
    edit(game / "decks/game.yaml", *CARD)
    with monkeypatch.context() as patched:  # killed outright: nothing put back, nothing removed
        failing_tts_builder(patched, tmp_path / "seen.json")
        patched.setattr(build_module.ShownFaces, "restore", lambda self: None)
        patched.setattr(build_module.ShownFaces, "close", lambda self: None)
        assert run_cli("build", "--asset-url", URL, cwd=game).exit_code == 1
    assert tree(out)["faces/deck/wild.png"] != before["faces/deck/wild.png"]
    assert any(name.startswith(".game.old-") for name in os.listdir(out.parent))
    (game / "decks/game.yaml").write_text(text, encoding="utf-8")
    age(game)
    summary = build(game)
    assert "up to date" not in summary and "(1 faces rendered" in summary
    assert tree(out) == before == clean_build(game, tmp_path)
    assert sorted(os.listdir(out.parent)) == ["game"]


def test_a_build_that_fails_once_in_place_keeps_its_own_faces(game, tmp_path, monkeypatch):
    """An error after the build was put in place (the old folder's removal) puts back no previous face."""
    out = game / "build" / "game"
    build(game)
    edit(game / "decks/game.yaml", *CARD)
    swap = build_module._swap

    def swap_then_fail(staging, final):
        swap(staging, final)
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as patched:
        patched.setattr(build_module, "_swap", swap_then_fail)
        assert run_cli("build", "--asset-url", URL, cwd=game).exit_code == 1
    assert tree(out) == clean_build(game, tmp_path)


def test_the_previous_build_is_removed_beside_the_stamp_and_its_failure_still_said(game, tmp_path, monkeypatch):
    """The previous build's folder, moved aside, is removed in a thread of its own while the deck's process
    stamps the build, and is gone when the command ends; a failure to remove it still fails the command, the
    new build in place."""
    out = game / "build" / "game"
    build(game)
    rmtree = build_module.shutil.rmtree
    removed_by = []

    def watched(path, *args, **kwargs):
        if ".game.old-" in str(path) and not kwargs.get("ignore_errors"):
            removed_by.append(build_module.threading.current_thread())
        return rmtree(path, *args, **kwargs)
    with monkeypatch.context() as patched:
        patched.setattr(build_module.shutil, "rmtree", watched)
        edit(game / "decks/game.yaml", *CARD)
        build(game)
    assert len(removed_by) == 1 and removed_by[0] is not build_module.threading.main_thread()
    assert sorted(os.listdir(out.parent)) == ["game"]

    def failing(path, *args, **kwargs):
        if ".game.old-" in str(path) and not kwargs.get("ignore_errors"):
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
