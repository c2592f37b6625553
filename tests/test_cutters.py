"""Sheets for cutting machines (docs/print.md, "Cutting machines"): Silhouette's registration marks where
Silhouette Studio looks for them, the cards inside the marks and clear of them, a cut contour at every trim;
Cricut's Print Then Cut images within Design Space's print area, each card's outline its cut."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader

from deckpress.builders.pdf import steps as pdf_builder
from deckpress.deck import load_deck
from deckpress.errors import DeckError
from deckpress.builders.pdf.profiles import deck_profiles
from conftest import run_cli
from helpers.pdf import MM, box, build_pdfs, placements

POKER = (63.5, 88.9)
DPI = 300
PX = DPI / 25.4

DECK = """\
game: {name: Cut, players: {min: 2, max: 4}}
card_size: poker
components:
  - id: cards
    name: Cards
    template: plain
    back: plain-back
    cards:
      - {name: "A", count: 10}
  - id: chips
    name: Chips
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: plain
    cards:
      - {name: "1", count: 12}
print:
  profiles: [silhouette-letter, silhouette-a4, cricut-letter]
"""


def _project(root: Path, deck: str = DECK) -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "templates" / "plain.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#ffcc00"}
          - {type: rect, box: trim, fill: "#336699"}
        """), encoding="utf-8")
    (root / "templates" / "plain-back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#aa3333"}
        """), encoding="utf-8")
    (root / "decks" / "cut.yaml").write_text(deck, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = _project(tmp_path_factory.mktemp("cut"))
    return build_pdfs(root, "cut", root / "build")


PAGES = {"silhouette-letter": (279.4, 215.9), "silhouette-a4": (297, 210)}  # landscape, mm
INSET, SQUARE, ARM, LINE, KEEPOUT = 10, 5, 5, 0.5, 2  # mm: the shipped profiles' marks (docs/print.md)


def _render(pdf: Path, page: int, out: Path) -> np.ndarray:
    """Page `page` (from 1) at 300 DPI, grey levels, row 0 at the top of the page."""
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(page), "-l", str(page), str(pdf), str(out)],
                   check=True)
    return np.asarray(Image.open(next(out.parent.glob(out.name + "*.pgm"))))


def _dark_box(dark: np.ndarray, x0: float, y0: float, x1: float, y1: float):
    """Bounding box in mm from the top left (x0, y0, x1, y1) of the dark pixels within the given mm region,
    and the share of that box they fill; None when there are none."""
    r = dark[round(y0 * PX):round(y1 * PX), round(x0 * PX):round(x1 * PX)]
    ys, xs = np.nonzero(r)
    if not len(xs):
        return None
    bx0, bx1, by0, by1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    fill = r[by0:by1, bx0:bx1].mean()
    return (x0 + bx0 / PX, y0 + by0 / PX, x0 + bx1 / PX, y0 + by1 / PX), fill


@pytest.mark.parametrize("name", list(PAGES))
def test_silhouette_registration_marks_are_where_studio_looks(built, tmp_path, name):
    w, h = PAGES[name]
    dark = _render(built / f"cut-{name}.pdf", 1, tmp_path / "front") < 60
    assert dark.shape == pytest.approx((h * PX, w * PX), abs=1)  # true size
    k, t = KEEPOUT, LINE / 2  # each mark alone in its keep-out (checked below), looked for there
    square, fill = _dark_box(dark, INSET - k, INSET - k, INSET + SQUARE + k, INSET + SQUARE + k)
    assert square == pytest.approx((INSET, INSET, INSET + SQUARE, INSET + SQUARE), abs=0.1)
    assert fill > 0.97  # filled
    top_right, fill = _dark_box(dark, w - INSET - ARM - k, INSET - t - k, w - INSET + t + k, INSET + ARM + k)
    assert top_right == pytest.approx((w - INSET - ARM, INSET - t, w - INSET + t, INSET + ARM), abs=0.1)
    assert 0.1 < fill < 0.3  # two arms of an L, not a square
    bottom_left, fill = _dark_box(dark, INSET - t - k, h - INSET - ARM - k, INSET + ARM + k, h - INSET + t + k)
    assert bottom_left == pytest.approx((INSET - t, h - INSET - ARM, INSET + ARM, h - INSET + t), abs=0.1)
    assert 0.1 < fill < 0.3
    # The L's open sides face the page: the top right one's corner is its top right pixel.
    assert dark[round((INSET - t + 0.1) * PX), round((w - INSET + t - 0.1) * PX)]
    assert not dark[round((INSET + ARM - 0.5) * PX), round((w - INSET - ARM + 0.5) * PX)]
    assert _dark_box(dark, w - INSET - ARM - k, h - INSET - ARM - k, w, h) is None  # no fourth mark
    assert _dark_box(dark, 0, 0, w, INSET - t - 0.2) is None  # nothing between the marks and the edge


def _keepouts(w: float, h: float) -> list[tuple[float, float, float, float]]:
    """Each mark's box (x0, y0, x1, y1 in PDF mm, y up) grown by the keep-out."""
    k, t = KEEPOUT, LINE / 2
    return [(INSET - k, h - INSET - SQUARE - k, INSET + SQUARE + k, h - INSET + k),
            (w - INSET - ARM - k, h - INSET - ARM - k, w - INSET + t + k, h - INSET + t + k),
            (INSET - t - k, INSET - t - k, INSET + ARM + k, INSET + ARM + k)]


@pytest.mark.parametrize("name", list(PAGES))
def test_silhouette_cards_lie_inside_the_marks_and_clear_of_them(built, name):
    w, h = PAGES[name]
    reader = PdfReader(built / f"cut-{name}.pdf")
    front, back = reader.pages[0], reader.pages[1]
    assert (float(front.mediabox.width) / MM, float(front.mediabox.height) / MM) == pytest.approx((w, h), abs=0.01)
    assert len(placements(reader, front)) == 8  # 4 x 2 poker cards
    x0, y0, x1, y1 = (v / MM for v in box(front, "/BleedBox"))  # everything the page prints of the cards
    assert x0 >= INSET and y0 >= INSET and x1 <= w - INSET and y1 <= h - INSET
    for kx0, ky0, kx1, ky1 in _keepouts(w, h):
        assert x1 <= kx0 or kx1 <= x0 or y1 <= ky0 or ky1 <= y0
    tx0, ty0, tx1, ty1 = (v / MM for v in box(front, "/TrimBox"))
    assert (tx1 - tx0, ty1 - ty0) == pytest.approx((4 * POKER[0] + 3, 2 * POKER[1] + 1), abs=0.01)  # 1 mm gaps
    # Centred, so the back page's mirrored cards land behind the fronts.
    assert (tx0 + tx1) / 2 == pytest.approx(w / 2, abs=0.01) and (ty0 + ty1) / 2 == pytest.approx(h / 2, abs=0.01)
    fronts = sorted((round(p["cx"], 1), round(p["cy"], 1)) for p in placements(reader, front))
    backs = sorted((round(p["cx"], 1), round(p["cy"], 1)) for p in placements(reader, back))
    assert fronts == backs
    assert "100%" in back.extract_text() and not front.extract_text().strip()  # the notice on the back only


def _stroked_shapes(reader: PdfReader, page) -> list[tuple[float, ...]]:
    """Every outline the page strokes (a rectangle `re`, or a path of lines and curves, then `S`): its bounding
    box (x, y, w, h in mm) and how many curves it has."""
    from pypdf.generic import ContentStream
    out, points, curves = [], [], 0
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        values = [float(v) / MM for v in operands] if op in (b"re", b"m", b"l", b"c") else []
        if op == b"re":
            x, y, w, h = values
            points += [(x, y), (x + w, y + h)]
        elif op in (b"m", b"l", b"c"):
            points += list(zip(values[::2], values[1::2]))
            curves += op == b"c"
        elif op in (b"S", b"s", b"B", b"b", b"f", b"F", b"n", b"W"):
            if op in (b"S", b"s", b"B", b"b") and points:
                xs, ys = [x for x, _ in points], [y for _, y in points]
                out.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys), curves))
            if op != b"W":
                points, curves = [], 0
    return out


@pytest.mark.parametrize("name", list(PAGES))
def test_silhouette_fronts_carry_a_cut_contour_at_every_trim(built, tmp_path, name):
    """A contour of the card's own shape at each trim: the poker cards' corners rounded at their
    corner_radius (1/8 in by default), as a playing card is cut."""
    reader = PdfReader(built / f"cut-{name}.pdf")
    front = reader.pages[0]
    contours = [c for c in _stroked_shapes(reader, front) if c[2:4] == pytest.approx(POKER, abs=0.01)]
    cards = placements(reader, front)
    assert len(contours) == len(cards) == 8
    assert all(c[4] == 4 for c in contours)  # a rounded rectangle: four corner curves
    bleed = 3.175  # the faces' own
    trims = sorted((round(p["x"] / MM + bleed, 2), round(p["y"] / MM + bleed, 2)) for p in cards)
    assert sorted((round(c[0], 2), round(c[1], 2)) for c in contours) == trims
    # The contour prints black over the card's edge, where the machine's software traces it, and cuts the
    # corner off along its arc.
    dark = _render(built / f"cut-{name}.pdf", 1, tmp_path / "front") < 60
    h = PAGES[name][1]
    x, y = contours[0][:2]
    top = h - y - POKER[1]  # the card's top edge, from the page's top
    middle = round((h - y - POKER[1] / 2) * PX)
    assert dark[middle, round(x * PX) - 1:round(x * PX) + 2].any()
    assert not dark[middle, round((x + 5) * PX)]  # inside the card, its art
    arc = 3.175 * (1 - 2 ** -0.5)  # where the arc crosses the corner's diagonal
    assert not dark[round(top * PX), round(x * PX)]  # the trim's own corner is off the contour
    assert dark[round((top + arc) * PX) - 2:round((top + arc) * PX) + 3,
                round((x + arc) * PX) - 2:round((x + arc) * PX) + 3].any()
    assert not [c for c in _stroked_shapes(reader, reader.pages[1]) if c[2:4] == pytest.approx(POKER, abs=0.01)]


def test_silhouette_token_sheets_carry_marks_and_outlines(built, tmp_path):
    reader = PdfReader(built / "cut-silhouette-letter.pdf")
    assert len(reader.pages) == 6  # 10 cards on 2 sheets, 12 chips on 1, each front and back
    dark = _render(built / "cut-silhouette-letter.pdf", 5, tmp_path / "chips") < 60
    square, _ = _dark_box(dark, INSET - KEEPOUT, INSET - KEEPOUT, INSET + SQUARE + KEEPOUT, INSET + SQUARE + KEEPOUT)
    assert square == pytest.approx((INSET, INSET, INSET + SQUARE, INSET + SQUARE), abs=0.1)


def test_silhouette_cards_keep_clear_of_longer_marks(tmp_path):
    """With 20 mm arms (inkscape-silhouette's) the corner marks reach past the cards' corners: fewer cards fit, all
    clear of the marks."""
    root = _project(tmp_path / "p", DECK.replace("[silhouette-letter, silhouette-a4, cricut-letter]", "[long]"))
    (root / "print").mkdir()
    (root / "print" / "long.yaml").write_text("page: letter\norientation: landscape\ncutter: silhouette\n"
                                              "mark_length: 20\ngap: 1\nbleed: 1\n", encoding="utf-8")
    deck = load_deck(root / "decks" / "cut.yaml")
    profile = deck_profiles(deck)[0]
    sheet = pdf_builder.sheet_for(profile, deck.model.components[0])
    assert 0 < sheet.per_page < 8
    w, h = sheet.page
    k, t = KEEPOUT, LINE / 2
    keepouts = [(INSET - k, h - INSET - SQUARE - k, INSET + SQUARE + k, h - INSET + k),
                (w - INSET - 20 - k, h - INSET - 20 - k, w - INSET + t + k, h - INSET + t + k),
                (INSET - t - k, INSET - t - k, INSET + 20 + k, INSET + 20 + k)]
    for slot in sheet.front_slots(sheet.per_page):
        c = slot.clip
        for kx0, ky0, kx1, ky1 in keepouts:
            assert c.x1 <= kx0 or kx1 <= c.x or c.y1 <= ky0 or ky1 <= c.y


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Runs of True, as (start, end) index pairs."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(int), [0]])))
    return list(zip(edges[::2], edges[1::2]))


def test_cricut_sheets_fit_design_spaces_print_area_and_cut_at_the_trim(built):
    folder = built / "cut-cricut-letter"
    sheets = sorted(folder.glob("cards-*.png"))
    assert [p.name for p in sheets] == ["cards-1.png", "cards-2.png", "cards-3.png"]  # 4 + 4 + 2 cards
    for path in sheets:
        with Image.open(path) as image:
            assert image.mode == "RGBA"
            assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
            assert image.size == (round(6.75 * DPI), round(9.25 * DPI))  # the largest print then cut image
            alpha = np.asarray(image)[:, :, 3]
        assert set(np.unique(alpha)) == {0, 255}  # the cut contour is the edge of the opaque cards
        cols, rows = _runs((alpha > 0).any(axis=0)), _runs((alpha > 0).any(axis=1))
        assert [b - a for a, b in cols] == [750, 750]  # 63.5 mm at 300 DPI: the trim, no bleed
        assert [b - a for a, b in rows] == [1050] * len(rows)
        assert cols[1][0] - cols[0][1] == round(4 * DPI / 25.4)  # the 4 mm gap stays transparent
        with Image.open(path) as image:
            rgb = np.asarray(image.convert("RGB")).astype(int)
        for x in (cols[0][0] + 1, cols[0][1] - 2):  # the card's own edge, not its bleed (yellow)
            assert abs(rgb[rows[0][0] + 500, x] - (0x33, 0x66, 0x99)).max() < 12
        # rounded at 3.175 mm (37.5 px): the corner is cut away along the arc, the edge beside it is not
        corner_x, corner_y = cols[0][0], rows[0][0]
        assert alpha[corner_y + 3, corner_x + 3] == 0 and alpha[corner_y + 12, corner_x + 12] == 255
        assert alpha[corner_y, corner_x + 40] == 255 and alpha[corner_y + 40, corner_x] == 255
    with Image.open(sheets[-1]) as image:
        alpha = np.asarray(image)[:, :, 3]
    assert len(_runs((alpha > 0).any(axis=1))) == 1  # the last sheet's 2 cards
    with Image.open(folder / "chips-1.png") as image:
        alpha = np.asarray(image)[:, :, 3]
    a, b = _runs((alpha > 0).any(axis=0))[0]
    assert b - a == 236  # 20 mm
    top = _runs((alpha > 0).any(axis=1))[0][0]
    assert alpha[top + 2, a + 2] == 0 and alpha[top + 118, a + 118] == 255  # round: its corner is cut away
    assert not list(built.glob("cut-cricut-letter.pdf"))


@pytest.mark.parametrize("name, says", [("cricut-letter", "Design Space's print area (171.45 x 234.95 mm)"),
                                        ("silhouette-a4", "inside registration marks 10 mm from its edges")])
def test_a_card_too_large_for_the_machine_is_one_located_line(tmp_path, name, says):
    deck = DECK.replace("size: {width: 20, height: 20}", "size: {width: 200, height: 260}")
    root = _project(tmp_path / "p", deck.replace("[silhouette-letter, silhouette-a4, cricut-letter]", f"[{name}]"))
    loaded = load_deck(root / "decks" / "cut.yaml")
    with pytest.raises(DeckError) as err:
        pdf_builder.check(loaded)
    message = str(err.value)
    assert message.count("\n") == 0
    assert "cut.yaml:14:" in message and "chips: 200 x 260 mm cards do not fit" in message and says in message


def test_silhouette_marks_need_duplex_sheets(tmp_path):
    root = _project(tmp_path / "p", DECK.replace("[silhouette-letter, silhouette-a4, cricut-letter]", "[mine]"))
    (root / "print").mkdir()
    (root / "print" / "mine.yaml").write_text("page: a4\ncutter: silhouette\nlayout: gutterfold\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        pdf_builder.check(load_deck(root / "decks" / "cut.yaml"))
    assert str(err.value).startswith(f"{root / 'print' / 'mine.yaml'}:3:9: cutter: silhouette prints its "
                                      "registration marks on duplex sheets")


def test_corners_larger_than_the_card_are_one_located_line(tmp_path):
    root = _project(tmp_path / "p", DECK.replace("    template: plain\n    back: plain-back\n",
                                                 "    template: plain\n    back: plain-back\n    corner_radius: 40\n", 1))
    result = run_cli("check", cwd=root)
    assert result.exit_code == 1 and result.stderr == (
        "decks/cut.yaml:8:20: corners of 40 mm do not fit a 63.5 x 88.9 mm card; give a corner_radius of at most "
        "31.75\n"), result.stderr
