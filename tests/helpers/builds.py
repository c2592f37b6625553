"""Builds of a small project, and what tests compare of them: a new project whose faces read a font, an image
and game.version of its own (the `game` fixture), a build of it, a clean build of a copy elsewhere, and every
file of a build folder by its sha256."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from conftest import run_cli
from deckpress.paths import PACKAGE_DATA

URL = "https://example.org/game/"


def tree(root: Path) -> dict[str, str]:
    """Every file of `root` by its path, as its sha256 (a failure lists the files that differ at once)."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def identities(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under `folder` by its path, as its inode and modification time: the same for a file a build
    took from the previous one (a hard link, as the build makes it), another for one it wrote anew."""
    return {p.relative_to(folder).as_posix(): (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def game(tmp_path) -> Path:
    """A new project whose faces read a font, an image and game.version of its own."""
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    (root / "fonts").mkdir()
    shutil.copy(PACKAGE_DATA / "fonts" / "DejaVuSerif.ttf", root / "fonts" / "mine.ttf")
    (root / "art").mkdir()
    Image.new("RGB", (40, 20), (200, 30, 30)).save(root / "art" / "logo.png")
    edit(root / "decks" / "game.yaml", "card_size: poker", "fonts: {mine: ../fonts/mine.ttf}\ncard_size: poker")
    back = root / "templates" / "back.yaml"
    back.write_text(back.read_text(encoding="utf-8") + (
        "  - {type: text, name: version, when: \"{{ component.id == 'deck' }}\", x: 5, y: 5, w: 30, h: 6,\n"
        "     text: 'v{{ game.version }}', font: mine}\n"
        "  - {type: image, src: ../art/logo.png, x: 5, y: 12, w: 10, h: 5}\n"), encoding="utf-8")
    return root


def build(project: Path, *options: str) -> str:
    result = run_cli("build", "--asset-url", URL, *options, cwd=project)
    assert result.exit_code == 0, result.stderr
    return result.stdout


ELSEWHERE = {"TZ": "Asia/Tokyo", "LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8", "PYTHONHASHSEED": "4242"}


def clean_build(project: Path, tmp_path: Path, *options: str, deck: str = "game") -> dict[str, str]:
    """A clean build of a copy of `project` in another folder (deeper, another name) and another
    environment (time zone, locale, hash seed, umask) than the tests' own."""
    fresh = tmp_path / f"clean-{len(list(tmp_path.glob('clean-*')))}" / "elsewhere" / project.name
    shutil.copytree(project, fresh, ignore=shutil.ignore_patterns("build"))
    run = subprocess.run([sys.executable, "-m", "deckpress", "build", "--asset-url", URL, "--quiet", *options],
                         cwd=fresh, env={**os.environ, **ELSEWHERE}, capture_output=True, text=True,
                         preexec_fn=lambda: os.umask(0o077), timeout=300)
    assert run.returncode == 0, run.stderr
    return tree(fresh / "build" / deck)


def age(project: Path) -> None:
    """Every file of the project but its build as last changed a minute ago: old enough to be stamped."""
    past = time.time() - 60
    for path in project.rglob("*"):
        if path.is_file() and "build" not in path.relative_to(project).parts:
            os.utime(path, (past, past))
