"""`deckpress build DECK --changed-since REF` (REF an earlier build folder, its manifest or a git revision): a
reprint PDF per print profile holding every copy of each card whose front or back changed, laid out as the
full sheets, the list of them after; nothing when nothing changed; a REF naming nothing is one line."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from bad_input.project import FILES
from conftest import run_cli
from deckpress import png
from helpers.pdf import placements

DECK = "decks/tiny.yaml"
REPRINT = "build/tiny/print/tiny-tiny-changed.pdf"


def write_project(root: Path) -> Path:
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def edit(root: Path, old: str, new: str) -> None:
    text = (root / DECK).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    (root / DECK).write_text(text.replace(old, new), encoding="utf-8")


def build(root: Path, *args: str):
    result = run_cli("build", "tiny", *args, cwd=root)
    assert result.exit_code == 0, result.stderr
    return result


@pytest.fixture
def project(tmp_path) -> Path:
    """The tiny project built, and a copy of its build in old/."""
    root = write_project(tmp_path / "game")
    build(root, "--quiet")
    shutil.copytree(root / "build" / "tiny", tmp_path / "old")
    return root


def stream(reader: PdfReader, number: int) -> bytes:
    return reader.get_object(number)._data  # the image's data as stored: the face PNG's own zlib data


def check_reprint(root: Path, front: str, copies: int, listed: str) -> None:
    """The reprint holds `copies` of the card whose front is `front` on its page of fronts, its back behind each
    on the next page, then the list naming `listed`."""
    reader = PdfReader(root / REPRINT)
    pages = [placements(reader, page) for page in reader.pages]
    assert [len(p) for p in pages] == [copies, copies, 0]
    face = png.image_data(root / "build/tiny" / front)
    back = png.image_data(root / "build/tiny/faces/deck/back.png")
    assert all(stream(reader, slot["id"]) == face for slot in pages[0])
    assert all(stream(reader, slot["id"]) == back for slot in pages[1])
    full = PdfReader(root / "build/tiny/print/tiny-tiny.pdf")
    slots = [(round(s["x"], 2), round(s["y"], 2), round(s["w"], 2)) for s in placements(full, full.pages[0])]
    assert [(round(s["x"], 2), round(s["y"], 2), round(s["w"], 2)) for s in pages[0]] == slots[:copies]
    assert reader.pages[0].trimbox == full.pages[0].trimbox or copies != len(slots)
    assert listed in reader.pages[2].extract_text()


def test_a_card_edited_since_a_build_folder_is_reprinted_alone(project: Path, tmp_path: Path):
    edit(project, "      - name: One\n", "      - name: Uno\n        id: one\n")
    result = build(project, "--changed-since", str(tmp_path / "old"))
    lines = result.stdout.splitlines()
    assert lines[1].startswith(f"tiny: 1 card changed since {tmp_path / 'old'}, reprinted in ")
    assert lines[2:] == ["  deck: Uno (one): front, 2 copies"]
    check_reprint(project, "faces/deck/one.png", 2, "deck: Uno (one): front, 2 copies")
    again = build(project, "--changed-since", str(tmp_path / "old" / "manifest.json"))  # the manifest alone
    assert again.stdout.splitlines()[2:] == lines[2:] and "manifest.json, reprinted in" in again.stdout


def test_a_copy_of_the_whole_build_folder_serves_the_deck(project: Path, tmp_path: Path):
    shutil.copytree(project / "build", tmp_path / "round-1")
    edit(project, "      - name: One\n", "      - name: Uno\n        id: one\n")
    result = build(project, "--changed-since", str(tmp_path / "round-1"))
    assert result.stdout.splitlines()[2:] == ["  deck: Uno (one): front, 2 copies"]
    check_reprint(project, "faces/deck/one.png", 2, "deck: Uno (one): front, 2 copies")


def test_nothing_changed_writes_no_reprint_and_removes_the_last(project: Path, tmp_path: Path):
    result = build(project, "--changed-since", str(tmp_path / "old"))
    assert result.stdout.splitlines()[1:] == [f"tiny: no card changed since {tmp_path / 'old'}; no reprint written"]
    assert not (project / REPRINT).exists()
    edit(project, "      - name: One\n", "      - name: Uno\n        id: one\n")
    build(project, "--changed-since", str(tmp_path / "old"))
    assert (project / REPRINT).is_file()
    shutil.copytree(project / "build" / "tiny", tmp_path / "now")
    result = build(project, "--changed-since", str(tmp_path / "now"))
    assert "no card changed" in result.stdout and not (project / REPRINT).exists()


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=T", "-c", "user.email=t@example.org", *args],
                          check=True, capture_output=True, text=True).stdout


def test_a_git_revision_added_and_removed_cards(tmp_path: Path):
    root = write_project(tmp_path / "repo" / "game")  # the project in a folder of the repository
    git(tmp_path / "repo", "init", "-q")
    git(tmp_path / "repo", "add", ".")
    git(tmp_path / "repo", "commit", "-q", "-m", "first")
    build(root, "--quiet")
    edit(root, "      - name: Two\n        value: 2\n", "      - name: Three\n        value: 3\n        count: 2\n")
    settled = time.time_ns() - 60 * 10**9  # inputs old enough for a stamp to stand for them (stamp.py)
    for file in FILES:
        os.utime(root / file, ns=(settled, settled))
    result = build(root, "--changed-since", "HEAD")
    sha = git(root, "rev-parse", "HEAD").strip()[:10]
    assert result.stdout.splitlines()[1:] == [
        f"tiny: 1 card changed since HEAD ({sha}), reprinted in build/tiny/print/tiny-tiny-changed.pdf",
        "  deck: Three (three): new, 2 copies", "  deck: Two (two): removed"]
    check_reprint(root, "faces/deck/three.png", 2, "deck: Two (two): removed")
    git(tmp_path / "repo", "commit", "-q", "-am", "second")  # the deck as it was built: HEAD now names it
    result = build(root, "--changed-since", "HEAD")
    assert "no card changed since HEAD" in result.stdout and not (root / REPRINT).exists()


def snapshot(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("ref, expect", [
    ("nowhere", "'nowhere' names no build folder, manifest or git revision of the project; name a copy of "
                "build/tiny/"),
    ("decks", "'decks' is no build of deckpress (no manifest.json of deckpress there); name a copy"),
    ("-x", "'-x' names no build folder"),
])
def test_a_ref_naming_nothing_is_one_line(project: Path, ref: str, expect: str):
    before = snapshot(project)
    result = run_cli("build", "tiny", "--changed-since", ref, cwd=project)
    assert result.exit_code == 1 and result.stderr.startswith("--changed-since: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and expect in result.stderr, result.stderr
    assert snapshot(project) == before


def test_another_decks_build_is_refused(project: Path, tmp_path: Path):
    other = tmp_path / "other"
    shutil.copytree(tmp_path / "old", other)
    manifest = (other / "manifest.json").read_text(encoding="utf-8")
    (other / "manifest.json").write_text(manifest.replace('"deck": "tiny"', '"deck": "score"'), encoding="utf-8")
    result = run_cli("build", "tiny", "--changed-since", str(other), cwd=project)
    assert result.exit_code == 1 and "is a build of 'score', not of 'tiny'; name a build of tiny" in result.stderr


def test_a_changed_back_reprints_the_cards_behind_it_and_a_count_its_added_copies(project: Path, tmp_path: Path):
    back = project / "templates/tiny-back.yaml"
    back.write_text(back.read_text(encoding="utf-8").replace("#204080", "#802040"), encoding="utf-8")
    edit(project, "        value: 1\n        count: 2\n", "        value: 1\n        count: 5\n")
    result = build(project, "--changed-since", str(tmp_path / "old"))
    assert result.stdout.splitlines()[2:] == ["  deck: One (one): back, 5 copies", "  deck: Two (two): back, 1 copy"]
    reader = PdfReader(project / REPRINT)
    assert [len(placements(reader, page)) for page in reader.pages] == [6, 6, 0]
    shutil.rmtree(tmp_path / "old")
    shutil.copytree(project / "build" / "tiny", tmp_path / "old")
    edit(project, "        value: 1\n        count: 5\n", "        value: 1\n        count: 7\n")
    edit(project, "      - name: Chip\n        count: 3\n", "      - name: Chip\n        count: 1\n")
    result = build(project, "--changed-since", str(tmp_path / "old"))
    assert result.stdout.splitlines()[2:] == ["  deck: One (one): 2 more, 2 copies", "  chips: Chip (chip): 2 fewer"]
    reader = PdfReader(project / REPRINT)
    assert [len(placements(reader, page)) for page in reader.pages] == [2, 2, 0]
