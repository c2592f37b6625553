"""A print PDF after only some faces changed is the previous build's file with those faces' images replaced,
byte for byte the PDF a clean build writes; after any other change the PDF is written again (and equals a
clean one too). The previous file is used only with the bytes its record lists."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import run_cli
from deckpress import png
from deckpress.builders.pdf import steps as pdf_builder
from deckpress.paths import PACKAGE_DATA
from deckpress.builders.pdf.canvas import Images, new_canvas, plain_streams, save
from deckpress.builders.pdf.pdffile import Layout

URL = "https://example.org/game/"


def build(project: Path, *options: str) -> None:
    result = run_cli("build", "--asset-url", URL, "--quiet", *options, cwd=project)
    assert result.exit_code == 0, result.stderr


def edit(project: Path, old: str, new: str, file: str = "decks/game.yaml") -> None:
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pdfs(project: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project / "build" / "game" / "print").glob("*.pdf"))}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A new project (two print profiles, a4 and letter), built once."""
    root = tmp_path_factory.mktemp("pdf-incremental") / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    build(root)
    return root


@pytest.fixture
def project(base, tmp_path, monkeypatch) -> Path:
    """A copy of the built project; each call of write_pdf and _replaced (with its result) is a line of
    made.txt beside it (the builders may run in processes of their own)."""
    root = tmp_path / "incremental" / "game"
    shutil.copytree(base, root)
    log = tmp_path / "made.txt"
    for name in ("write_pdf", "_replaced"):
        def spy(*args, _original=getattr(pdf_builder, name), _name=name):
            result = _original(*args)
            with open(log, "a", encoding="utf-8") as file:
                file.write(f"{_name} {result if _name == '_replaced' else ''}".strip() + "\n")
            return result
        monkeypatch.setattr(pdf_builder, name, spy)
    return root


def made(project: Path) -> list[str]:
    log = project.parents[1] / "made.txt"
    return sorted(log.read_text(encoding="utf-8").splitlines()) if log.is_file() else []


def clean_pdfs(project: Path, tmp_path: Path, *options: str) -> dict[str, bytes]:
    clean = tmp_path / "clean" / "game"
    shutil.copytree(project, clean, ignore=shutil.ignore_patterns("build"))
    build(clean, *options)
    return pdfs(clean)


def face_data(project: Path, rel: str) -> bytes:
    return png.image_data(project / "build" / "game" / rel)


def test_a_card_text_edit_replaces_the_face_image_in_each_pdf(project, tmp_path):
    before = pdfs(project)
    edit(project, "then play again", "then play twice")
    build(project)
    assert made(project) == ["_replaced True", "_replaced True"]  # a4 and letter; reportlab wrote nothing
    after = pdfs(project)
    assert all(after[name] != before[name] for name in ("game-a4.pdf", "game-letter.pdf"))
    assert after == clean_pdfs(project, tmp_path)
    for data in after.values():
        assert len(PdfReader(io.BytesIO(data)).pages) > 1


def test_a_face_whose_image_data_changes_size(project, tmp_path):
    """The face's image grows: every object after it moves, and the cross-reference table with them."""
    rel = "faces/deck/wild.png"
    old = face_data(project, rel)
    before = pdfs(project)
    edit(project, "then play again.", "then play again, and again, and once more with feeling, twice.")
    build(project)
    assert made(project) == ["_replaced True", "_replaced True"]
    grown = len(face_data(project, rel)) - len(old)
    assert grown > 0
    after = pdfs(project)
    assert len(after["game-a4.pdf"]) - len(before["game-a4.pdf"]) == grown
    assert after == clean_pdfs(project, tmp_path)
    reader = PdfReader(project / "build" / "game" / "print" / "game-a4.pdf")
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Goal" in text and "Main deck" in text


def test_a_template_edit_replaces_every_face_it_draws(project, tmp_path):
    """Every front changed at once (the template's panel): all their images replaced in each PDF."""
    before = pdfs(project)
    edit(project, "radius: 3", "radius: 4", "templates/card.yaml")
    build(project)
    assert made(project) == ["_replaced True", "_replaced True"]
    after = pdfs(project)
    assert all(after[name] != before[name] for name in ("game-a4.pdf", "game-letter.pdf"))
    assert after == clean_pdfs(project, tmp_path)


FALLBACKS = {
    "a card added": (lambda p: edit(p, "      - name: Wild\n", "      - {name: Extra, value: 9, colour: '#000000'}\n"
                                                                 "      - name: Wild\n"), ()),
    "a card's count": (lambda p: edit(p, "count: 2", "count: 3"), ()),
    "a card's text and a rules text": (lambda p: (edit(p, "then play again", "then play twice"),
                                                  edit(p, "Be the first to play", "Be the very first to play")), ()),
    "a component's name and a card's text": (lambda p: (edit(p, "then play again", "then play twice"),
                                                        edit(p, "name: Main deck", "name: Draw pile")), ()),
    "a build option": (lambda p: None, ("--duplex", "short-edge")),
    "a print profile": (lambda p: (p / "print").mkdir() or (p / "print/a4.yaml").write_text(
        "page: a4\ngap: 2\n", encoding="utf-8"), ()),
}


@pytest.mark.parametrize("change, options", FALLBACKS.values(), ids=list(FALLBACKS))
def test_anything_but_the_faces_changed_writes_the_pdf_again(project, tmp_path, change, options):
    change(project)
    build(project, *options)
    assert "write_pdf" in made(project) and not any(m.startswith("_replaced") for m in made(project))
    assert pdfs(project) == clean_pdfs(project, tmp_path, *options)


def test_a_font_file_the_rules_are_set_in_is_an_input_too(project, tmp_path):
    """The rules set in a font of the project's: its file changed (and a card's text), the PDF is written
    again with the new font."""
    (project / "fonts").mkdir()
    shutil.copy(PACKAGE_DATA / "fonts" / "DejaVuSerif.ttf", project / "fonts" / "mine.ttf")
    edit(project, "card_size: poker", "fonts: {mine: ../fonts/mine.ttf}\ncard_size: poker")
    (project / "print").mkdir()
    (project / "print" / "rules-style.yaml").write_text("font: mine\n", encoding="utf-8")
    build(project)
    (project.parents[1] / "made.txt").unlink()
    shutil.copy(PACKAGE_DATA / "fonts" / "DejaVuSans-Bold.ttf", project / "fonts" / "mine.ttf")
    edit(project, "then play again", "then play twice")
    build(project)
    assert made(project) == ["write_pdf", "write_pdf"]
    assert pdfs(project) == clean_pdfs(project, tmp_path)


def test_a_previous_pdf_changed_since_its_build_is_not_used(project, tmp_path):
    """Its bytes are not those of the previous manifest (a byte in a face's image, the size kept): the PDF is
    written again by reportlab."""
    target = project / "build" / "game" / "print" / "game-a4.pdf"
    data = bytearray(target.read_bytes())
    data[len(data) // 3] ^= 0xFF
    target.write_bytes(bytes(data))
    edit(project, "then play again", "then play twice")
    build(project)
    assert made(project) == ["_replaced False", "_replaced True", "write_pdf"]
    assert pdfs(project) == clean_pdfs(project, tmp_path)


def _pdf(root: Path, target: Path) -> dict:
    with plain_streams():
        images = Images(root)
        canvas = new_canvas((100, 100), "Title", "Author", "Subject")
        for x in (10, 50):
            images.draw(canvas, "a.png", (20, 0, 0, 30, x, 10))
            images.draw(canvas, "b.png", (20, 0, 0, 30, x, 60))
            canvas.drawString(10, 5, "text \u2014 \u0416")
            canvas.showPage()
        return save(canvas, target, images)


def test_images_written_anew_give_the_bytes_of_a_pdf_made_with_them(tmp_path):
    """A PDF with an image written anew, of another size, is the PDF `save` writes with that image; a file
    laid out otherwise is refused (None)."""
    for name, (size, colour) in {"one": ((30, 40), (200, 10, 10)), "two": ((64, 90), (10, 10, 200))}.items():
        (tmp_path / name).mkdir()
        Image.effect_noise(size, 60).convert("RGB").save(tmp_path / name / "a.png")
        Image.new("RGB", (8, 8), colour).save(tmp_path / name / "b.png")
    numbers = _pdf(tmp_path / "one", tmp_path / "one.pdf")
    assert _pdf(tmp_path / "two", tmp_path / "two.pdf") == numbers and sorted(numbers) == ["a.png", "b.png"]
    one, two = (tmp_path / "one.pdf").read_bytes(), (tmp_path / "two.pdf").read_bytes()
    assert one != two
    pdf = Layout.read(one)
    images = Images(tmp_path / "two")
    pdf.write(tmp_path / "replaced.pdf", {n: images.writer(rel) for rel, n in numbers.items()})
    assert (tmp_path / "replaced.pdf").read_bytes() == two
    pdf.write(tmp_path / "only-a.pdf", {numbers["a.png"]: images.writer("a.png")})
    only_a = (tmp_path / "only-a.pdf").read_bytes()
    assert only_a != one and only_a != two and len(PdfReader(io.BytesIO(only_a)).pages) == 2
    assert Layout.read(one[:-1]) is None  # truncated
    assert Layout.read(one.replace(b"xref\n0 ", b"xref\n1 ")) is None
    with pytest.raises(ValueError):
        pdf.write(tmp_path / "none.pdf", {999: images.writer("b.png")})  # no such object
