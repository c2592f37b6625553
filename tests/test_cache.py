"""What a command keeps in the user's cache folder for the next one (cache.py): the installed packages'
entry points, kept until a folder packages are installed into changes, and deckpress's own digest, kept until
one of its files does; each is worked out again as soon as what it was worked out from changes."""

from __future__ import annotations

import os
import sys
import time

from deckpress import cache, inputs

OLD = time.time_ns() - 10 * inputs.YOUNG_NS


def install(site, name: str, points: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(points, encoding="utf-8")


def settle(folder) -> None:
    """As if `folder` had last changed a while ago (a cache is kept only for folders that did), each time
    at another moment."""
    settle.moments += 1
    os.utime(folder, ns=(OLD + settle.moments * 10**9, OLD + settle.moments * 10**9))  # importlib: float s


settle.moments = 0


def test_an_installed_or_removed_package_is_seen_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    settle(site)
    assert cache.entry_points("deckpress.builders") == []
    assert (tmp_path / "cache" / "deckpress" / "entry-points.json").is_file()
    install(site, "zine", "[deckpress.builders]\nzine = zine:ZineBuilder\n[deckpress.games]\nclimb = climb_game\n")
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:ZineBuilder", "zine")]
    assert cache.entry_points("deckpress.games") == [("climb", "climb_game", "zine")]
    settle(site)
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:ZineBuilder", "zine")]
    for file in (site / "zine-1.0.dist-info").iterdir():
        file.unlink()
    (site / "zine-1.0.dist-info").rmdir()
    assert cache.entry_points("deckpress.builders") == []


def test_nothing_is_kept_while_a_package_folder_is_changing(tmp_path, monkeypatch):
    """A folder changed just now may change again within its clock's tick, keeping its time: what is read
    from it then is not kept."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    install(site, "zine", "[deckpress.builders]\nzine = zine:ZineBuilder\n")
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:ZineBuilder", "zine")]
    assert not (tmp_path / "cache" / "deckpress" / "entry-points.json").exists()


def test_entry_points_are_read_again_only_when_a_package_folder_changed(tmp_path, monkeypatch):
    """Kept: a distribution's entry points changed in place, its folder's time as it was, are not read (a
    command then takes the kept ones, as importlib.metadata would have found them)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    install(site, "zine", "[deckpress.builders]\nzine = zine:ZineBuilder\n")
    settle(site)
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:ZineBuilder", "zine")]
    (site / "zine-1.0.dist-info" / "entry_points.txt").write_text("[deckpress.builders]\nzine = zine:Other\n")
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:ZineBuilder", "zine")]
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])  # another sys.path: read again
    assert cache.entry_points("deckpress.builders") == [("zine", "zine:Other", "zine")]


def test_a_value_is_kept_for_its_key_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    worked: list[int] = []

    def work_out() -> dict:
        worked.append(1)
        return {"n": len(worked)}
    assert cache.remembered("thing", ["a", 1], work_out) == {"n": 1}
    assert cache.remembered("thing", ["a", 1], work_out) == {"n": 1}
    assert cache.remembered("thing", ["a", 2], work_out) == {"n": 2}
    assert cache.remembered("thing", None, work_out) == {"n": 3}  # no key: worked out, not kept
    assert cache.remembered("thing", ["a", 2], work_out) == {"n": 2}
    (tmp_path / "cache" / "deckpress" / "thing.json").write_text("{not json", encoding="utf-8")
    assert cache.remembered("thing", ["a", 2], work_out) == {"n": 4}


def test_a_cache_folder_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert cache.remembered("thing", ["a"], lambda: 5) == 5


def test_deckpress_digest_changes_with_any_of_its_files(tmp_path, monkeypatch):
    """Kept by the state of deckpress's files, worked out again when one of them changed (in a copy of the
    package, as an editable checkout changes)."""
    import shutil

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    package = tmp_path / "deckpress"
    shutil.copytree(inputs.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for file in package.rglob("*"):
        os.utime(file, ns=(OLD, OLD))
    monkeypatch.setattr(inputs, "PACKAGE", package)

    def digest() -> str:
        inputs.package_digest.cache_clear()
        return inputs.package_digest()
    first = digest()
    assert digest() == first and (tmp_path / "cache" / "deckpress" / "package-digest.json").is_file()
    changed = package / "data" / "tts" / "lib" / "util.lua"
    changed.write_text("-- changed\n", encoding="utf-8")
    kept = (tmp_path / "cache" / "deckpress" / "package-digest.json").read_bytes()
    assert digest() != first  # changed a moment ago: worked out, not kept
    assert (tmp_path / "cache" / "deckpress" / "package-digest.json").read_bytes() == kept
    os.utime(changed, ns=(OLD, OLD))
    second = digest()
    assert second != first and digest() == second
    inputs.package_digest.cache_clear()
