"""SVG wherever an image goes (an `image` element's `src`, an inline icon of the deck's `icons:`), and
fonts by family name, as a build sees them: drawn on the faces and the rules pages, recorded as inputs,
redrawn when they change, and one located line when they are wrong."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run_cli
from deckpress import system_fonts
from deckpress.fonts import builtin_fonts
from deckpress.render import mm_to_px

BLEED = 3.175
NS = 'xmlns="http://www.w3.org/2000/svg"'
STRIPES = (f'<svg {NS} viewBox="0 0 30 15"><rect width="10" height="15" fill="#ff0000"/>'
           '<rect x="10" width="10" height="15" fill="#00ff00"/>'
           '<rect x="20" width="10" height="15" fill="#0000ff"/></svg>')
SHIELD = f'<svg {NS} viewBox="0 0 10 10"><path d="M1 1h8v4c0 3-4 5-4 5s-4-2-4-5z" fill="#000"/></svg>'


def project(root: Path, elements: str, deck_extra: str = "") -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "art").mkdir()
    (root / "art" / "stripes.svg").write_text(STRIPES, encoding="utf-8")
    (root / "art" / "shield.svg").write_text(SHIELD, encoding="utf-8")
    (root / "decks" / "art.yaml").write_text(
        "game: {name: Art, players: {min: 1, max: 2}}\n" + deck_extra +
        "components:\n  - {id: deck, name: Deck, template: front, cards: [{name: One}]}\n"
        "print: {profiles: []}\n", encoding="utf-8")
    (root / "templates" / "front.yaml").write_text(
        "elements:\n  - {type: rect, box: bleed, fill: '#ffffff'}\n" + elements, encoding="utf-8")
    return root


def face(root: Path) -> Image.Image:
    with Image.open(root / "build" / "art" / "faces" / "deck" / "one.png") as image:
        return image.convert("RGB")


def at(image: Image.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    return image.getpixel((round(mm_to_px(x_mm + BLEED)), round(mm_to_px(y_mm + BLEED))))


def near(colour, expected, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def build(root: Path, *args: str):
    result = run_cli("build", "--quiet", *args, cwd=root)
    assert result.exit_code == 0, result.stderr
    return result


@pytest.mark.parametrize("fit, at_three_tenths, at_the_top", [
    ("contain", (255, 0, 0), (255, 255, 255)),
    ("cover", (0, 255, 0), (0, 255, 0)),
    ("stretch", (255, 0, 0), (0, 255, 0)),
])
def test_an_svg_image_is_drawn_with_fit(tmp_path, fit, at_three_tenths, at_the_top):
    root = project(tmp_path, f"  - {{type: image, src: ../art/stripes.svg, x: 10, y: 20, w: 40, h: 40, fit: {fit}}}\n")
    build(root)
    image = face(root)
    assert near(at(image, 10 + 40 * 0.3, 40), at_three_tenths)
    assert near(at(image, 30, 22), at_the_top)
    assert near(at(image, 5, 40), (255, 255, 255))


def test_an_svg_image_is_crisp_at_300_dpi(tmp_path):
    """The stripes' edges fall on whole pixels of the face: an SVG drawn at the face's resolution has no
    blurred column between red and green (a 30-pixel bitmap stretched to 472 would blur 16)."""
    root = project(tmp_path, "  - {type: image, src: ../art/stripes.svg, x: 0, y: 0, w: 25.4, h: 12.7}\n")
    build(root)
    image = face(root)
    y = round(mm_to_px(BLEED + 6))
    row = [image.getpixel((x, y)) for x in range(round(mm_to_px(BLEED)), 1 + round(mm_to_px(BLEED + 25.4)))]
    assert sum(1 for p in row if p not in ((255, 0, 0), (0, 255, 0), (0, 0, 255))) <= 3


def test_opacity_and_colour_of_an_svg_image(tmp_path):
    root = project(tmp_path, "  - {type: image, src: ../art/shield.svg, x: 10, y: 10, w: 40, h: 40, "
                             "color: '#1d6fb8', opacity: 0.5}\n")
    build(root)
    assert near(at(face(root), 30, 20), (142, 183, 220))  # #1d6fb8 at half over white
    (root / "templates" / "front.yaml").write_text(
        "elements:\n  - {type: image, src: ../art/stripes.svg, x: 10, y: 10, w: 40, h: 40, color: '#1d6fb8'}\n",
        encoding="utf-8")
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "has 3 colours" in lines[0] and lines[0].startswith("decks/art.yaml:")


def test_an_svg_is_an_input_and_a_change_redraws_its_faces_as_a_clean_build_would(tmp_path):
    root = project(tmp_path, "  - {type: image, src: ../art/stripes.svg, x: 10, y: 20, w: 40, h: 40, fit: stretch}\n")
    build(root)
    manifest = json.loads((root / "build" / "art" / "manifest.json").read_text())
    assert "art/stripes.svg" in json.dumps(manifest)
    (root / "art" / "stripes.svg").write_text(STRIPES.replace("#00ff00", "#ff00ff"), encoding="utf-8")
    build(root)
    incremental = (root / "build" / "art" / "faces" / "deck" / "one.png").read_bytes()
    assert near(at(face(root), 30, 40), (255, 0, 255))
    build(root, "--out", str(tmp_path / "clean"))
    assert (tmp_path / "clean" / "art" / "faces" / "deck" / "one.png").read_bytes() == incremental


ICONS = "icons:\n  shield: {image: ../art/shield.svg, color: '#d62828'}\n  stripes: {image: ../art/stripes.svg}\n"


def test_svg_icons_in_text_and_on_the_rules_pages(tmp_path):
    root = project(tmp_path, "  - {type: text, x: 5, y: 10, w: 53.5, h: 20, size: 40, text: ':shield: :stripes:'}\n",
                   ICONS + "rules:\n  - heading: Play\n    body: ['Take a :shield: and a :stripes:.']\n")
    (root / "decks" / "art.yaml").write_text((root / "decks" / "art.yaml").read_text().replace(
        "print: {profiles: []}", "print: {profiles: [a4]}"), encoding="utf-8")
    temporary = set(Path(tempfile.gettempdir()).glob("deckpress-svg-*"))
    build(root)
    assert set(Path(tempfile.gettempdir()).glob("deckpress-svg-*")) <= temporary  # nothing left behind
    image = face(root)
    ink = [image.getpixel((x, y)) for x in range(image.width) for y in range(round(mm_to_px(BLEED + 10)),
                                                                                round(mm_to_px(BLEED + 30)), 4)]
    assert any(near(p, (214, 40, 40), 2) for p in ink)  # the shield, in its colour
    assert any(near(p, (0, 255, 0), 2) for p in ink)  # the stripes, in theirs
    pdf = root / "build" / "art" / "print" / "art-a4.pdf"
    images = [name for page in PdfReader(pdf).pages
              for name in (page["/Resources"].get("/XObject") or {}).keys()]
    assert len(images) >= 2
    build(root, "--out", str(tmp_path / "again"))
    assert (tmp_path / "again" / "art" / "print" / "art-a4.pdf").read_bytes() == pdf.read_bytes()


def test_a_malformed_svg_icon_is_one_line_at_its_declaration(tmp_path):
    root = project(tmp_path, "  - {type: text, x: 5, y: 10, w: 53.5, h: 20, text: ':shield:'}\n", ICONS)
    (root / "art" / "shield.svg").write_text(SHIELD[:-3], encoding="utf-8")
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("decks/art.yaml:3:") and "not well-formed XML" in lines[0]


def test_an_svg_that_refers_outside_itself_is_refused(tmp_path):
    root = project(tmp_path, "  - {type: image, src: ../art/ref.svg, x: 10, y: 20, w: 40, h: 40}\n")
    shutil.copy(builtin_fonts()["sans"], tmp_path / "secret.png")
    (root / "art" / "ref.svg").write_text(f'<svg {NS} width="9" height="9"><image width="9" height="9" '
                                          f'href="{tmp_path / "secret.png"}"/></svg>', encoding="utf-8")
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "deckpress reads nothing an SVG refers to" in lines[0]


# --- fonts by family name ----------------------------------------------------------------------------

def test_an_unknown_system_font_is_one_line_that_says_how_to_bundle_it(tmp_path):
    root = project(tmp_path, "  - {type: text, x: 5, y: 10, w: 53.5, h: 20, text: Hi,\n"
                             "     font: Deckpress No Such Family}\n")
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("templates/front.yaml:4:")
    assert "'Deckpress No Such Family'" in lines[0] and "a font installed on this machine (this one is not)" in lines[0]
    assert "fonts: {Deckpress No Such Family: ../fonts/FILE.ttf}" in lines[0]


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A family "Test Family" installed outside the project (as a system font is): DejaVu Sans, regular and
    bold; what fontconfig would find is given by system_fonts.find."""
    folder = tmp_path / "system"
    folder.mkdir()
    faces = {"Test Family": folder / "TestFamily.ttf", "Test Family-bold": folder / "TestFamily-Bold.ttf"}
    shutil.copy(builtin_fonts()["sans"], faces["Test Family"])
    shutil.copy(builtin_fonts()["sans-bold"], faces["Test Family-bold"])
    monkeypatch.setattr(system_fonts, "find", lambda name: faces.get(name))
    return faces


def test_a_system_font_is_drawn_recorded_and_redraws_when_it_changes(tmp_path, installed):
    root = project(tmp_path / "game", "  - {type: text, x: 5, y: 10, w: 53.5, h: 20, size: 30, text: '**Hi** there',\n"
                                      "     font: Test Family}\n")
    build(root)
    manifest = (root / "build" / "art" / "manifest.json").read_text()
    assert str(installed["Test Family"]) in manifest and str(installed["Test Family-bold"]) in manifest
    first = (root / "build" / "art" / "faces" / "deck" / "one.png").read_bytes()
    shutil.copy(builtin_fonts()["serif"], installed["Test Family"])  # the installed font changes
    build(root)
    changed = (root / "build" / "art" / "faces" / "deck" / "one.png").read_bytes()
    assert changed != first
    build(root, "--out", str(tmp_path / "clean"))
    assert (tmp_path / "clean" / "art" / "faces" / "deck" / "one.png").read_bytes() == changed


def test_a_system_font_without_the_face_the_markup_needs(tmp_path, installed):
    root = project(tmp_path / "game", "  - {type: text, x: 5, y: 10, w: 53.5, h: 20, text: '*Hi*',\n"
                                      "     font: Test Family}\n")
    result = run_cli("build", "--quiet", cwd=root)
    assert result.exit_code == 1 and "no italic face" in result.stderr


def test_an_installed_font_by_family_name(tmp_path):
    """With a real fontconfig: the family with most faces on this machine (skipped on a machine with no
    font installed)."""
    from helpers.fonts import installed_family

    found = installed_family()
    if found is None:
        pytest.skip("no font is installed on this machine")
    family = found[0]
    root = project(tmp_path, f"  - {{type: text, x: 5, y: 10, w: 53.5, h: 20, text: Hi, font: '{family}'}}\n")
    build(root)
    assert str(system_fonts.find(family)) in (root / "build" / "art" / "manifest.json").read_text()
