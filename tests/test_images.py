"""Images in templates: found wherever the build runs from and however the deck is named, drawn with
`fit`, `opacity` and `placeholder`, and kept inside the project."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import run_cli
from deckpress.render import face_pixels, mm_to_px

POKER = (63.5, 88.9)
BLEED = 3.175
BOX = (10, 20, 40, 40)  # x, y, w, h in mm: a square


def stripes(path: Path) -> None:
    """A 2:1 image of three vertical stripes: red, green, blue."""
    image = Image.new("RGB", (300, 150))
    for i, colour in enumerate([(255, 0, 0), (0, 255, 0), (0, 0, 255)]):
        image.paste(colour, (100 * i, 0, 100 * (i + 1), 150))
    image.save(path)


def project(root: Path, element: str) -> Path:
    """A one-card project whose front draws `element` (YAML flow mapping) over white."""
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "images").mkdir()
    stripes(root / "images" / "stripes.png")
    (root / "decks" / "art.yaml").write_text(
        "game: {name: Art, players: {min: 1, max: 2}}\n"
        "components:\n  - {id: deck, name: Deck, template: front, cards: [{name: One}, {name: Two}]}\n"
        "print: {profiles: []}\n", encoding="utf-8")
    (root / "templates" / "front.yaml").write_text(
        f"elements:\n  - {{type: rect, box: bleed, fill: '#ffffff'}}\n  - {element}\n", encoding="utf-8")
    return root


def pixel(face: Path, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    with Image.open(face) as image:
        return image.getpixel((round(mm_to_px(x_mm + BLEED)), round(mm_to_px(y_mm + BLEED))))


def near(colour, expected, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


IMAGE = "{type: image, src: ../images/stripes.png, x: 10, y: 20, w: 40, h: 40"


@pytest.mark.parametrize("how", ["stem", "relative", "absolute", "absolute from elsewhere"])
def test_an_image_is_found_however_the_deck_is_named(tmp_path, how):
    root = project(tmp_path / "game", IMAGE + "}")
    deck, cwd = {"stem": ("art", root), "relative": ("decks/art.yaml", root),
                 "absolute": (str(root / "decks" / "art.yaml"), root),
                 "absolute from elsewhere": (str(root / "decks" / "art.yaml"), tmp_path)}[how]
    out = tmp_path / "out"
    result = run_cli("build", deck, "--out", str(out), "--quiet", cwd=cwd)
    assert result.exit_code == 0, result.stderr
    face = out / "art" / "faces" / "deck" / "one.png"
    with Image.open(face) as image:
        assert image.size == face_pixels(POKER, BLEED)
    assert near(pixel(face, 30, 40), (0, 255, 0))  # the green middle stripe at the box's centre


@pytest.mark.parametrize("fit, at_three_tenths, at_the_top", [
    ("contain", (255, 0, 0), (255, 255, 255)),  # all of it, 40 x 20 mm, centred: white above and below
    ("cover", (0, 255, 0), (0, 255, 0)),        # its middle half, cropped: green fills two thirds
    ("stretch", (255, 0, 0), (0, 255, 0)),      # distorted to the box: the three stripes are thirds
])
def test_fit(tmp_path, fit, at_three_tenths, at_the_top):
    root = project(tmp_path, IMAGE + f", fit: {fit}}}")
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    face = root / "build" / "art" / "faces" / "deck" / "one.png"
    assert near(pixel(face, 10 + 40 * 0.3, 40), at_three_tenths)
    assert near(pixel(face, 10 + 40 * 0.5, 20 + 2), at_the_top)
    assert near(pixel(face, 5, 40), (255, 255, 255))  # nothing outside the box


def test_opacity(tmp_path):
    root = project(tmp_path, IMAGE + ", fit: stretch, opacity: 0.5}")
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    assert near(pixel(root / "build" / "art" / "faces" / "deck" / "one.png", 15, 40), (255, 128, 128))


def test_opacity_out_of_range_is_one_located_line(tmp_path):
    root = project(tmp_path, IMAGE + ", opacity: 1.5}")
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "opacity 1.5 is not between 0 and 1" in lines[0]


def test_a_placeholder_stands_in_for_missing_art_until_it_exists(tmp_path):
    root = project(tmp_path, "{type: image, src: '../images/{{ card.id }}.png', placeholder: true, "
                             "x: 10, y: 20, w: 40, h: 40}")
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    warnings = result.stderr.strip().splitlines()
    assert len(warnings) == 2 and all(": warning: card '" in w and "does not exist yet" in w for w in warnings)
    assert warnings[0].startswith("decks/art.yaml:3:")
    face = root / "build" / "art" / "faces" / "deck" / "one.png"
    assert near(pixel(face, 12, 40), (200, 200, 200))
    # A rebuild with nothing changed still warns; once the art exists the face is redrawn with it.
    assert len(run_cli("build", "--quiet", cwd=root).stderr.strip().splitlines()) == 2
    shutil.copy(root / "images" / "stripes.png", root / "images" / "one.png")
    result = run_cli("build", "--quiet", cwd=root)
    assert len(result.stderr.strip().splitlines()) == 1
    assert near(pixel(face, 30, 40), (0, 255, 0))


def test_missing_art_without_a_placeholder_fails_and_says_how_to_go_on(tmp_path):
    root = project(tmp_path, "{type: image, src: ../images/none.png, x: 10, y: 20, w: 40, h: 40}")
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1 and "set `placeholder: true`" in result.stderr


def test_images_stay_inside_the_project(tmp_path):
    root = project(tmp_path / "game", "{type: image, src: ../../secret.png, x: 10, y: 20, w: 40, h: 40}")
    stripes(tmp_path / "secret.png")
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1 and "leads outside the project" in result.stderr
    assert os.path.exists(tmp_path / "secret.png")
