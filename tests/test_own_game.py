"""deckpress as a tool for any designer's own game: `deckpress new`, and `python -m deckpress`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run_cli
from deckpress.render import face_pixels
from deckpress.schema import CARD_SIZES


@pytest.mark.parametrize("size", ["poker", "mini", "tarot"])
def test_a_new_project_builds_every_artifact_with_no_edit(tmp_path, size):
    root = tmp_path / "dragons"
    result = run_cli("new", str(root), "--name", "Dragons & Dice", "--card-size", size)
    assert result.exit_code == 0, result.stderr
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()) == [
        "README.md", "decks/dragons-dice.yaml", "templates/back.yaml", "templates/card.yaml"]
    assert run_cli("check", cwd=root).exit_code == 0
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 0 and result.stderr == ""
    out = root / "build" / "dragons-dice"
    with Image.open(out / "faces" / "deck" / "number-1.png") as face:
        assert face.size == face_pixels(CARD_SIZES[size], 3.175)
    save = json.loads((out / "tts" / "dragons-dice.json").read_text(encoding="utf-8"))
    assert save["SaveName"] == "Dragons & Dice"
    decks = [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "DeckCustom")]
    assert len(decks) == 1 and len(decks[0]["DeckIDs"]) == 20
    assert len(PdfReader(out / "print" / "dragons-dice-a4.pdf").pages) >= 4


def test_new_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    result = run_cli("new", str(tmp_path))
    assert result.exit_code == 1 and "is not empty" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]


@pytest.mark.parametrize("command", ["build", "check", "install", "new", "schema"])
def test_python_m_deckpress_runs_every_subcommand(command):
    run = subprocess.run([sys.executable, "-m", "deckpress", command, "--help"], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"Usage: deckpress {command}")
