"""Every input of every record: a face, a TTS image (sheet, back, token), a thumbnail, a PDF and a
calibration sheet each record what they were made from, and an incremental build reuses them only when
that record is unchanged. Each input here is changed alone on a built project; the incremental build
that follows must equal a clean build, byte for byte (a record missing the input reuses a stale file)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import run_cli

URL = "https://example.org/game/"


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def edit(old: str, new: str, file: str = "decks/game.yaml"):
    def change(project: Path) -> None:
        path = project / file
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return change


def build(project: Path, *options: str) -> None:
    result = run_cli("build", "--asset-url", URL, "--quiet", *options, cwd=project)
    assert result.exit_code == 0, result.stderr


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A new project whose fronts show their component's name, built once."""
    root = tmp_path_factory.mktemp("records") / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    card = root / "templates" / "card.yaml"
    card.write_text(card.read_text(encoding="utf-8") + "  - {type: text, x: 10, y: '{{ H * 0.22 }}', w: 40, h: 5, "
                    "text: '{{ component.name }}', size: 8}\n", encoding="utf-8")
    build(root)
    return root


# (what, the records it reaches, the change, the build's options after it)
INPUTS = [
    ("card_size", "faces, sheets, thumbnails, PDFs", edit("card_size: poker", "card_size: bridge"), ()),
    ("token size", "token faces and images", edit("size: {width: 20, height: 20}", "size: {width: 24, height: 24}"),
     ()),
    ("bleed", "faces, sheets, PDFs", edit("card_size: poker", "card_size: poker\nbleed: 2"), ()),
    ("safe", "faces", edit("card_size: poker", "card_size: poker\nsafe: 5"), ()),
    ("component name", "faces, PDFs", edit("name: Main deck", "name: Draw pile"), ()),
    ("card field", "one face, its sheet, PDFs", edit("then play again", "then play twice"), ()),
    ("tts quality", "sheets, backs", edit("card_size: poker", "card_size: poker\ntts: {quality: 60}"), ()),
    ("tts image format", "sheets, backs, tokens",
     edit("card_size: poker", "card_size: poker\ntts: {image_format: png}"), ()),
    ("author", "calibration sheets, PDFs", edit('author: ""', 'author: "Ann Author"'), ()),
    ("--back-offset", "PDFs, calibration sheets", lambda project: None, ("--back-offset", "1.5,-0.5")),
    ("--duplex", "PDFs, calibration sheets", lambda project: None, ("--duplex", "short-edge")),
    ("--asset-url", "the saves", lambda project: None, ("--asset-url", "https://example.com/other/")),
]


@pytest.mark.parametrize("what, reaches, change, options", INPUTS, ids=[i[0] for i in INPUTS])
def test_an_incremental_build_after_one_input_changed_equals_a_clean_one(base, tmp_path, what, reaches, change,
                                                                       options):
    project = tmp_path / "incremental" / "game"
    shutil.copytree(base, project)
    before = tree(project / "build" / "game")
    change(project)
    build(project, *options)
    after = tree(project / "build" / "game")
    assert after != before, f"changing {what} changed nothing"
    clean = tmp_path / "clean" / "game"
    shutil.copytree(project, clean, ignore=shutil.ignore_patterns("build"))
    build(clean, *options)
    fresh = tree(clean / "build" / "game")
    stale = sorted(name for name in fresh.keys() | after.keys() if fresh.get(name) != after.get(name))
    assert not stale, f"after a change of {what} ({reaches}) the incremental build differs in {stale[:8]}"
