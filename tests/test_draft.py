"""Low-ink drafts (a print profile's ink_coverage, the shipped draft-a4 and draft-letter): the images a draft PDF
places hold at most the coverage over every 10 mm square, their text stays dark, the same deck gives the same
bytes, and a4's PDF is the same with or without a draft profile beside it."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run_cli
from deckpress.ink import lightened
from helpers.builds import URL, clean_build, edit, identities, tree

ROOT = Path(__file__).resolve().parents[1]
SQUARE = round(10 * 300 / 25.4)  # a 10 mm square at 300 DPI, px


def worst_square(pixels: np.ndarray) -> float:
    """The most ink (mean of 1 - RGB / 255) of any SQUARE x SQUARE square of an RGB image."""
    ink = 1 - pixels.astype(np.float64).mean(axis=2) / 255
    sums = np.pad(ink.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    n = SQUARE
    return float((sums[n:, n:] - sums[:-n, n:] - sums[n:, :-n] + sums[:-n, :-n]).max()) / n / n


def images(pdf: Path) -> dict[str, np.ndarray]:
    """Every image the PDF holds, by its object's number."""
    reader = PdfReader(pdf)
    out = {}
    for page in reader.pages:
        for name, ref in (page["/Resources"].get("/XObject") or {}).items():
            form = ref.get_object()
            for inner in (form.get("/Resources", {}).get("/XObject") or {}).values():
                image = inner.get_object()
                if image["/Subtype"] == "/Image":
                    data = image.get_data()
                    width, height = image["/Width"], image["/Height"]
                    out[inner.idnum] = np.frombuffer(data, np.uint8).reshape(height, width, 3)
            if form.get("/Subtype") == "/Image":
                data = form.get_data()
                out[ref.idnum] = np.frombuffer(data, np.uint8).reshape(form["/Height"], form["/Width"], 3)
    return out


@pytest.fixture(scope="module")
def drafts(tmp_path_factory) -> Path:
    """A copy of the project whose SCORE! deck prints a4 and draft-a4, built; the project."""
    project = tmp_path_factory.mktemp("draft") / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns("build", ".git", ".venv", "tests", "src", "docs"))
    edit(project / "decks" / "score.yaml", "profiles: [a4, letter, gutterfold-a4, gutterfold-letter]",
         "profiles: [a4, draft-a4]")
    result = run_cli("build", "score", "--quiet", cwd=project)
    assert result.exit_code == 0, result.stderr
    return project


def test_every_square_of_every_placed_face_holds_at_most_the_coverage(drafts):
    placed = images(drafts / "build/score/print/score-draft-a4.pdf")
    normal = images(drafts / "build/score/print/score-a4.pdf")
    assert len(placed) == len(normal) >= 20  # SCORE!'s faces, each once
    assert max(worst_square(p) for p in normal.values()) > 0.8  # the dark back, the red fills
    assert max(worst_square(p) for p in placed.values()) <= 0.25 + 0.01


def test_text_stays_dark_and_fills_keep_their_hue(drafts):
    face = np.asarray(Image.open(drafts / "build/score/faces/deck/fire-1.png").convert("RGB"))
    placed = [p for p in images(drafts / "build/score/print/score-draft-a4.pdf").values() if p.shape == face.shape]
    draft = min(placed, key=lambda p: np.abs(p.astype(int) - face).mean() if worst_square(p) < 0.3 else 1e9)
    h = face.shape[0]
    body = slice(int(h * 0.76), int(h * 0.93))  # "Target a player or yourself...", dark grey on cream
    lum = draft[body].astype(float) @ [0.299, 0.587, 0.114]
    was = face[body].astype(float) @ [0.299, 0.587, 0.114]
    dark = was < 80
    assert dark.sum() > 2000 and np.median(lum[dark]) < 90  # the text as dark as it was
    red = face[5:30, 5:30].reshape(-1, 3).mean(axis=0)  # the border's red fill in the bleed
    light = draft[5:30, 5:30].reshape(-1, 3).mean(axis=0)
    assert light.mean() > red.mean() + 60 and light[0] > light[1] + 30 and light[0] > light[2] + 30  # paler, red


def test_the_same_deck_gives_the_same_draft_and_a4_is_unchanged(drafts, tmp_path):
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    again = tmp_path / "again"
    shutil.copytree(drafts, again, ignore=shutil.ignore_patterns("build"))
    edit(again / "decks" / "score.yaml", "profiles: [a4, draft-a4]", "profiles: [a4]")
    assert run_cli("build", "score", "--quiet", cwd=again).exit_code == 0
    assert digest(again / "build/score/print/score-a4.pdf") == digest(drafts / "build/score/print/score-a4.pdf")
    edit(again / "decks" / "score.yaml", "profiles: [a4]", "profiles: [a4, draft-a4]")
    assert run_cli("build", "score", "--quiet", cwd=again).exit_code == 0
    assert (digest(again / "build/score/print/score-draft-a4.pdf")
            == digest(drafts / "build/score/print/score-draft-a4.pdf"))


def stripes(fill: tuple[int, int, int], every: int, wide: int) -> Image.Image:
    """A face-sized image of `fill` crossed by black vertical lines `wide` px wide, one every `every` px."""
    pixels = np.empty((1125, 825, 3), np.uint8)
    pixels[:] = fill
    for x in range(0, 825, every):
        pixels[:, x:x + wide] = 0
    return Image.fromarray(pixels)


@pytest.mark.parametrize("fill, every, wide", [((30, 30, 70), 24, 5), ((255, 255, 255), 12, 4)],
                         ids=["lines-over-navy", "dense-black-lines"])
def test_lines_over_a_fill_and_dense_lines_are_brought_to_the_coverage(fill, every, wide):
    face = stripes(fill, every, wide)
    draft = np.asarray(lightened(face, 0.25))
    assert worst_square(np.asarray(face)) > 0.3
    assert worst_square(draft) <= 0.25 + 0.01
    x = 300 - 300 % every  # a line's first column
    lines, ground = draft[:, x:x + wide].mean(), draft[:, x + wide + 2:x + every - 2].mean()
    assert ground - lines > 60  # the lines still stand out


def kept_drafts(project: Path) -> dict[str, tuple[int, int]]:
    """The lightened faces kept in the build's cache/drafts/, by path: their inode and modification time."""
    return identities(project / "build" / "score" / "cache" / "drafts")


def test_a_draft_after_a_cards_edit_is_the_clean_builds(drafts, tmp_path):
    """After a card's text edit (its face's image patched in the draft PDF) and then a copy count's (every card
    placed anew), the build is the clean build's, file for file; the unchanged faces are not lightened again
    but taken from the previous build (hard links of its files, as the faces themselves are)."""
    project = tmp_path / "edited"
    shutil.copytree(drafts, project)
    before = kept_drafts(project)
    assert len(before) == 21  # every face SCORE!'s draft prints, lightened
    edit(project / "decks" / "score.yaml", "The target's score doubles.", "The target's score is doubled.")
    result = run_cli("build", "score", "--quiet", "--asset-url", URL, cwd=project)  # as clean_build's
    assert result.exit_code == 0, result.stderr
    built = tree(project / "build" / "score")
    assert built["print/score-draft-a4.pdf"] != tree(drafts / "build" / "score")["print/score-draft-a4.pdf"]
    assert built == clean_build(project, tmp_path, deck="score")
    after = kept_drafts(project)
    assert [p for p in before if after[p] != before[p]] == ["faces/deck/double@ink25.png"]
    edit(project / "decks" / "score.yaml", "count: 3", "count: 4")
    assert run_cli("build", "score", "--quiet", "--asset-url", URL, cwd=project).exit_code == 0
    assert kept_drafts(project) == after
    assert tree(project / "build" / "score") == clean_build(project, tmp_path, deck="score")


def test_coverage_on_a_shop_profile_is_one_located_line(drafts, tmp_path):
    project = tmp_path / "shop"
    shutil.copytree(drafts, project, ignore=shutil.ignore_patterns("build"))
    (project / "print" / "shop.yaml").write_text("output: cards\nink_coverage: 25\n", encoding="utf-8")
    edit(project / "decks" / "score.yaml", "profiles: [a4, draft-a4]", "profiles: [shop]")
    result = run_cli("build", "score", cwd=project)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("shop.yaml:2:15: ink_coverage lightens the faces of print-and-play "
                                          "sheets; write `output: sheets` (and no cricut cutter), or remove "
                                          "ink_coverage")


def test_the_fill_between_light_letters_on_a_dark_fill_is_lightened_with_it():
    """Large white letters on a dark red bar (SCORE!'s titles): the bar showing through the thin gaps between
    the letters' strokes is the bar, lightened as it is, not dark detail left as dark specks."""
    pixels = np.empty((1125, 825, 3), np.uint8)
    pixels[:] = (110, 16, 16)
    letters = range(120, 700, 110)  # letters of two strokes 24 px (2 mm) wide, 6 px (0.5 mm) apart, 6 mm tall
    for x in letters:
        pixels[100:170, x:x + 24] = pixels[100:170, x + 30:x + 54] = 255
    draft = np.asarray(lightened(Image.fromarray(pixels), 0.25)).astype(int)
    bar = draft[600:700, 100:700].mean(axis=(0, 1))
    gaps = np.concatenate([draft[105:165, x + 25:x + 29] for x in letters], axis=1)
    assert bar.sum() / 3 > 190  # the bar lightened
    assert np.abs(gaps.mean(axis=(0, 1)) - bar).max() < 25, (gaps.mean(axis=(0, 1)), bar)
    assert draft[105:165, 124:140].min() > 240  # the strokes still white


def test_preview_of_a_draft_profile_shows_the_faces_lightened_as_its_pdf_places_them(drafts, tmp_path):
    shown = tmp_path / "fire.png"
    result = run_cli("preview", "score", "--card", "fire-1", "--profile", "draft-a4", "--out", str(shown),
                     cwd=drafts)
    assert result.exit_code == 0, result.stderr
    with Image.open(drafts / "build/score/faces/deck/fire-1.png") as face, Image.open(shown) as preview:
        assert preview.convert("RGB").tobytes() == lightened(face, 0.25).tobytes()
