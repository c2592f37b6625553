"""Print-shop output: the drivethrucards profile's one-card-per-page PDFs, and the image sets of the
makeplayingcards and thegamecrafter profiles, opened and measured."""

from __future__ import annotations

import csv
import shutil
import textwrap

import pytest
from PIL import Image
from pypdf import PdfReader

from deckpress.errors import DeckError
from test_pdf import build_pdfs, placements

MM = 72 / 25.4

DECK = """\
game: {name: Shop test, language: en, players: {min: 2, max: 4}}
card_size: poker
components:
  - id: cards
    name: Cards
    template: plain
    back: plain-back
    cards:
      - {name: Ace, count: 2}
      - {name: King, count: 1}
      - {name: Spare, count: 0}
  - id: chips
    name: Chips
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: plain
    cards:
      - {name: "1", count: 4}
print:
  profiles: [drivethrucards, makeplayingcards, thegamecrafter]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("shop")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "templates" / "plain.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#336699"}
          - {type: rect, box: trim, fill: "#eeeeee"}
          - {type: text, box: safe, text: "{{ card.name }}", size: 12}
        """), encoding="utf-8")
    (root / "templates" / "plain-back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#aa3333"}
        """), encoding="utf-8")
    (root / "decks" / "shop.yaml").write_text(DECK, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def shop(project, tmp_path_factory):
    """The project has no print/ folder: the shop profiles are deckpress's own."""
    return build_pdfs(project, "shop", tmp_path_factory.mktemp("out") / "shop")


def test_files(shop):
    names = sorted(p.relative_to(shop).as_posix() for p in shop.rglob("*") if p.is_file())
    assert names == sorted([
        "shop-drivethrucards-cards.pdf",  # one PDF per deck of cards; tokens are no card deck
        "shop-makeplayingcards/chips/1.png", "shop-makeplayingcards/chips/cards.csv",
        "shop-makeplayingcards/cards/ace.png", "shop-makeplayingcards/cards/back.png",
        "shop-makeplayingcards/cards/cards.csv", "shop-makeplayingcards/cards/king.png",
        "shop-thegamecrafter/chips/1.png", "shop-thegamecrafter/chips/cards.csv",
        "shop-thegamecrafter/cards/ace.png", "shop-thegamecrafter/cards/back.png",
        "shop-thegamecrafter/cards/cards.csv", "shop-thegamecrafter/cards/king.png",
    ])


def test_drivethrucards_one_card_per_page_back_then_front(shop):
    reader = PdfReader(str(shop / "shop-drivethrucards-cards.pdf"))
    assert len(reader.pages) == 2 * 3  # every copy (2 aces, 1 king), back and front
    ids = []
    for page in reader.pages:
        # 2.75 x 3.75 in: the poker card with 1/8 in bleed on every side
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((198, 270), abs=0.01)
        trim = page.trimbox
        assert (float(trim.left), float(trim.bottom), float(trim.right), float(trim.top)) == pytest.approx(
            (9, 9, 189, 261), abs=0.01)
        (image,) = placements(reader, page)
        assert (image["x"], image["y"], image["w"], image["h"]) == pytest.approx((0, 0, 198, 270), abs=0.01)
        ids.append(image["id"])
    back, ace, king = ids[0], ids[1], ids[5]
    assert ids == [back, ace, back, ace, back, king]
    assert len({back, ace, king}) == 3
    text = "".join(page.extract_text() for page in reader.pages)
    assert text.strip() == ""  # no marks, labels or guides on a shop's page


def test_thegamecrafter_images_are_the_faces(shop):
    faces = shop.parent / "faces" / "cards"
    for name in ("ace.png", "king.png", "back.png"):
        image = shop / "shop-thegamecrafter" / "cards" / name
        assert Image.open(image).size == (825, 1125)
        assert image.read_bytes() == (faces / name).read_bytes()


def test_makeplayingcards_images_are_cut_to_36_px_of_bleed(shop):
    faces = shop.parent / "faces" / "cards"
    for name in ("ace.png", "king.png", "back.png"):
        with Image.open(shop / "shop-makeplayingcards" / "cards" / name) as image, Image.open(faces / name) as face:
            assert image.size == (822, 1122)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
            assert image.tobytes() == face.crop((1, 1, 823, 1123)).tobytes()
    with Image.open(shop / "shop-makeplayingcards" / "chips" / "1.png") as chip:
        assert chip.size == (236 + 72, 236 + 72)  # a 20 mm token: 236 px, plus 36 px each side


def test_image_lists_give_the_counts(shop):
    rows = list(csv.DictReader((shop / "shop-makeplayingcards" / "cards" / "cards.csv").open(encoding="utf-8")))
    assert rows == [{"front": "ace.png", "back": "back.png", "count": "2"},
                    {"front": "king.png", "back": "back.png", "count": "1"}]
    chips = list(csv.DictReader((shop / "shop-thegamecrafter" / "chips" / "cards.csv").open(encoding="utf-8")))
    assert chips == [{"front": "1.png", "back": "", "count": "4"}]


def test_image_bleed_beyond_the_faces_is_a_located_error(project, tmp_path):
    root = tmp_path / "p"
    shutil.copytree(project, root)
    (root / "print").mkdir()
    (root / "print" / "thegamecrafter.yaml").write_text("output: images\nimage_bleed: 5\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "shop", tmp_path / "out")
    message = str(err.value)
    assert "thegamecrafter.yaml:2:14:" in message and "more than the deck's bleed" in message



def test_shop_output_is_deterministic(project, shop, tmp_path):
    again = build_pdfs(project, "shop", tmp_path / "shop")
    files = sorted(p.relative_to(shop) for p in shop.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in files:
        assert (again / rel).read_bytes() == (shop / rel).read_bytes(), rel
