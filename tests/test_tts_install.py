"""`deckpress install`: copies the save, thumbnail and saved objects; never overwrites a stranger's file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from deckpress.builders.tts.install import RECORD, default_tts_dir


def install(built: Path, tts_dir: Path, *extra: str):
    return run_cli("install", "score", "--out", str(built.parent), "--tts-dir", str(tts_dir), *extra)


def test_install_copies_save_thumbnail_and_saved_objects(built, tmp_path):
    result = install(built, tmp_path)
    assert result.exit_code == 0, result.stderr
    saves = tmp_path / "Saves"
    assert (saves / "score.json").read_bytes() == (built / "tts" / "score.json").read_bytes()
    assert (saves / "score.png").read_bytes() == (built / "tts" / "score.png").read_bytes()
    objects = saves / "Saved Objects" / "score"
    assert sorted(p.name for p in objects.iterdir()) == sorted(p.name for p in (built / "tts/saved-objects").iterdir())
    for name in ("score-box.json", "score-box.png"):  # the game in its box goes with the rest
        assert (objects / name).read_bytes() == (built / "tts/saved-objects" / name).read_bytes()
    record = json.loads((saves / RECORD).read_text(encoding="utf-8"))
    assert "Saves/score.json" in record["files"] and len(record["files"]) == 8
    again = install(built, tmp_path)
    assert again.exit_code == 0 and "up to date" in again.stdout


def test_install_keeps_a_file_it_did_not_write_unless_forced(built, tmp_path):
    saves = tmp_path / "Saves"
    saves.mkdir()
    mine = saves / "score.json"
    mine.write_text('{"SaveName": "my own game"}', encoding="utf-8")
    result = install(built, tmp_path)
    assert result.exit_code == 1
    assert "kept it and installed nothing" in result.stderr and "--force" in result.stderr
    assert mine.read_text(encoding="utf-8") == '{"SaveName": "my own game"}'
    assert sorted(p.name for p in saves.iterdir()) == ["score.json"]  # a game whole or not at all: no record
    forced = install(built, tmp_path, "--force")
    assert forced.exit_code == 0
    assert mine.read_bytes() == (built / "tts" / "score.json").read_bytes()


def test_install_keeps_a_file_changed_since_it_wrote_it(built, tmp_path):
    assert install(built, tmp_path).exit_code == 0
    save = tmp_path / "Saves" / "score.json"
    save.write_text(save.read_text(encoding="utf-8").replace("SCORE!", "MY SCORE!"), encoding="utf-8")
    result = install(built, tmp_path)
    assert result.exit_code == 1 and "MY SCORE!" in save.read_text(encoding="utf-8")


def test_install_needs_a_build(tmp_path):
    result = run_cli("install", "score", "--out", str(tmp_path / "nothing"), "--tts-dir", str(tmp_path))
    assert result.exit_code == 2 and "deckpress build score" in result.stderr


def test_default_tts_dir_per_system(tmp_path):
    home = Path("/home/someone")
    assert default_tts_dir("Linux", home, {}) == home / ".local/share/Tabletop Simulator"
    assert default_tts_dir("Linux", home, {"XDG_DATA_HOME": "/data"}) == Path("/data/Tabletop Simulator")
    assert default_tts_dir("Darwin", home, {}) == home / "Library/Tabletop Simulator"
    assert default_tts_dir("Windows", home, {"USERPROFILE": "C:/Users/me"}) == \
        Path("C:/Users/me/Documents/My Games/Tabletop Simulator")


def test_install_checks_every_place_before_it_writes_anything(built, tmp_path):
    """A file where the saved objects' folder goes: one line, and not even the save is written."""
    objects = tmp_path / "Saves" / "Saved Objects"
    objects.mkdir(parents=True)
    (objects / "score").write_text("mine", encoding="utf-8")
    result = install(built, tmp_path)
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert f"{objects / 'score'} is a file where a folder is needed" in result.stderr
    assert sorted(p.name for p in (tmp_path / "Saves").iterdir()) == ["Saved Objects"]
    assert (objects / "score").read_text(encoding="utf-8") == "mine"


def test_install_into_a_saves_folder_names_the_folder_above(built, tmp_path):
    saves = tmp_path / "Saves"
    saves.mkdir()
    result = install(built, saves)
    assert result.exit_code == 1 and len(result.stderr.strip().splitlines()) == 1
    assert "this is TTS's Saves folder" in result.stderr and f"--tts-dir {tmp_path}" in result.stderr
    assert list(saves.iterdir()) == []


def test_an_install_that_fails_mid_copy_leaves_the_installed_file_whole(built, tmp_path, monkeypatch):
    """A full disk while copying: the save TTS holds stays the one installed before, never half a file."""
    import errno
    import shutil

    from deckpress.builders.tts import install as installer

    assert install(built, tmp_path).exit_code == 0
    save = tmp_path / "Saves" / "score.json"
    before = save.read_bytes()
    newer = tmp_path / "newer"
    shutil.copytree(built / "tts", newer / "score" / "tts")
    (newer / "score" / "tts" / "score.json").write_bytes(before.replace(b"SCORE!", b"SCORE?"))

    def half_then_full(source, target):
        Path(target).write_bytes(Path(source).read_bytes()[:100])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(installer.shutil, "copyfile", half_then_full)
    with pytest.raises(OSError):
        installer.install(newer / "score" / "tts", "score", tmp_path)
    assert save.read_bytes() == before
