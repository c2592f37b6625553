"""Print-and-play PDFs: opened with pypdf and checked for sizes, boxes, fonts, shared images, the rules
text, the placement of backs (duplex long and short edge, gutterfold, back offset) and determinism."""

from __future__ import annotations

import math
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import ROOT, run_cli
from helpers.pdf import MM, box, build_pdfs, card_pages, placements
from deckpress.builders.pdf import steps as pdf_builder
from deckpress.deck import load_deck
from deckpress.errors import DeckError
from deckpress.builders.pdf.layout import duplex_sheet, fit, gutterfold_sheet
from deckpress.paths import PACKAGE_DATA
from deckpress.builders.pdf.profiles import deck_profiles

A4 = (210 * MM, 297 * MM)
LETTER = (612.0, 792.0)
POKER = (63.5, 88.9)
BLEED = 3.175


MINI_DECK = """\
game: {name: "Тест ♠♥♦♣", language: ru, players: {min: 2, max: 4}}
card_size: tarot
components:
  - id: cards
    name: Карты
    template: plain
    back: plain-back
    cards:
      - {name: "Туз ♠", count: 5}
  - id: chips
    name: Фишки
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: plain
    cards:
      - {name: "1", count: 30}
rules:
  - heading: Подготовка
    body:
      - Перемешайте колоду.
      - list: [Раз, Два]
      - numbered: [Первый, Второй]
      - table: {header: [Игроки, Карты], rows: [["2", "10"]]}
modes:
  - id: fast
    name: Быстрый режим
    rules: [Играйте быстро.]
print:
  profiles: [a4, gutterfold-a4, mine]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A small project: tarot cards, circle tokens without backs, Russian rules, three profiles."""
    root = tmp_path_factory.mktemp("project")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "print").mkdir()
    (root / "print" / "mine.yaml").write_text("page: letter\ngap: 2\nbleed: 1\ncut_lines: dashed\n"
                                              "back_offset: [0.5, 0]\nrules: false\n", encoding="utf-8")
    (root / "templates" / "plain.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#336699"}
          - {type: text, box: safe, text: "{{ card.name }}", size: 12}
        """), encoding="utf-8")
    (root / "templates" / "plain-back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#aa3333"}
          - {type: text, box: safe, text: "РУБАШКА", size: 10}
        """), encoding="utf-8")
    (root / "decks" / "mini.yaml").write_text(MINI_DECK, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def mini(project, tmp_path_factory) -> Path:
    return build_pdfs(project, "mini", tmp_path_factory.mktemp("mini") / "mini", duplex="short-edge",
                      offset=(1.5, -0.5))


# --- SCORE!, default profiles ----------------------------------------------------------------------

def test_score_pdfs_are_written(built):
    names = sorted(p.name for p in (built / "print").iterdir())
    assert names == ["calibration-a4.pdf", "calibration-letter.pdf", "score-a4.pdf", "score-gutterfold-a4.pdf",
                     "score-gutterfold-letter.pdf", "score-letter.pdf"]


# profile: (page of the card sheets, columns, rows); A4 portrait 3 x 3, Letter landscape 4 x 2.
SHEETS = {"a4": (A4, 3, 3), "letter": (LETTER[::-1], 4, 2)}
GAP = 2


@pytest.mark.parametrize("profile", ["a4", "letter"])
def test_pages_are_true_size_and_counted(built, profile):
    size, cols, rows = SHEETS[profile]
    reader = PdfReader(built / "print" / f"score-{profile}.pdf")
    cards = card_pages(reader)
    # 42 game cards and 2 reminder cards, each set on its own sheets, each sheet a front and a back page.
    sheets = -(-42 // (cols * rows)) + 1
    assert cards == list(range(2 * sheets))
    assert len(reader.pages) > 2 * sheets  # then the rules reminder, on portrait pages
    for index, page in enumerate(reader.pages):
        expected = size if index in cards else A4 if profile == "a4" else LETTER
        assert float(page.mediabox.width) == pytest.approx(expected[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(expected[1], abs=0.01)
    first = placements(reader, reader.pages[0])
    assert len(first) == cols * rows
    for image in first:  # the face (trim + bleed) drawn at its true size
        assert image["w"] == pytest.approx((POKER[0] + 2 * BLEED) * MM, abs=0.05)
        assert image["h"] == pytest.approx((POKER[1] + 2 * BLEED) * MM, abs=0.05)
    assert len(placements(reader, reader.pages[cards[-2]])) == 2  # the reminder cards


@pytest.mark.parametrize("profile", ["a4", "letter"])
def test_trim_and_bleed_boxes(built, profile):
    size, cols, rows = SHEETS[profile]
    reader = PdfReader(built / "print" / f"score-{profile}.pdf")
    page = reader.pages[0]
    x0, y0, x1, y1 = box(page, "/TrimBox")
    assert (x1 - x0) == pytest.approx((cols * POKER[0] + (cols - 1) * GAP) * MM, abs=0.05)
    assert (y1 - y0) == pytest.approx((rows * POKER[1] + (rows - 1) * GAP) * MM, abs=0.05)
    assert x0 == pytest.approx(size[0] - x1, abs=0.05)  # centred
    assert y0 == pytest.approx(size[1] - y1, abs=0.05)
    assert min(x0, y0) >= 6.35 * MM - 0.01  # every trim inside the 1/4 in border printers cannot print
    bx0, by0, bx1, by1 = box(page, "/BleedBox")
    assert (x0 - bx0, y0 - by0, bx1 - x1, by1 - y1) == pytest.approx((BLEED * MM,) * 4, abs=0.05)
    # The cards sit on a grid with 2 mm between them.
    for image in placements(reader, page):
        col = (image["x"] + BLEED * MM - x0) / ((POKER[0] + GAP) * MM)
        row = (image["y"] + BLEED * MM - y0) / ((POKER[1] + GAP) * MM)
        assert col == pytest.approx(round(col), abs=1e-3) and row == pytest.approx(round(row), abs=1e-3)
    rules = reader.pages[-1]
    assert box(rules, "/TrimBox") == pytest.approx(tuple(float(v) for v in rules.mediabox))


def test_print_at_actual_size_line(built):
    reader = PdfReader(built / "print" / "score-a4.pdf")
    for index in card_pages(reader)[::2]:
        assert "100%" in reader.pages[index].extract_text()
        assert "50 mm" in reader.pages[index].extract_text()  # beside the scale bar


def test_long_edge_backs_mirror_the_fronts(built):
    reader = PdfReader(built / "print" / "score-a4.pdf")
    width = A4[0]
    for front_index in (0, 10):  # a full sheet and the 2 reminders on a partial one (A4: 5 sheets of 9)
        fronts = placements(reader, reader.pages[front_index])
        backs = placements(reader, reader.pages[front_index + 1])
        assert len(backs) == len(fronts)
        for front, back in zip(fronts, backs):
            assert back["cx"] == pytest.approx(width - front["cx"], abs=0.05)
            assert back["cy"] == pytest.approx(front["cy"], abs=0.05)
            assert not back["turned"]
        if len(fronts) == 2:  # a partial sheet: the backs really moved to the other side
            assert {round(b["cx"]) for b in backs} != {round(f["cx"]) for f in fronts}
    back_box, front_box = box(reader.pages[11], "/TrimBox"), box(reader.pages[10], "/TrimBox")
    assert back_box[0] == pytest.approx(width - front_box[2], abs=0.05)


def test_fonts_are_embedded_truetype(built):
    for name in ("score-a4.pdf", "score-letter.pdf", "calibration-a4.pdf"):
        reader = PdfReader(built / "print" / name)
        fonts = {}
        for page in reader.pages:
            for ref in page["/Resources"].get("/Font", {}).values():
                font = ref.get_object()
                fonts[font["/BaseFont"]] = font
        assert fonts, name
        for base, font in fonts.items():
            assert "DejaVu" in base, base  # no standard (unembedded) font such as Helvetica
            assert "/FontFile2" in font["/FontDescriptor"], base
            assert font["/FontDescriptor"]["/FontName"] == base
        # each subset its own tag (reportlab gives every font's first subset AAAAAA)
        tags = [base[1:7] for base in fonts]
        assert len(set(tags)) == len(tags) and all(base[7] == "+" for base in fonts), sorted(fonts)


def test_a_subsets_tag_comes_from_its_glyphs(tmp_path):
    """The same glyphs give a font subset the same tag in any PDF, others another (reportlab's first subset holds
    every ASCII character, whether drawn or not): PDFs merged keep their subsets apart."""
    from deckpress.builders.pdf.canvas import new_canvas, save

    def tags(text: str) -> dict[bytes, bytes]:
        canvas = new_canvas((100, 100), "Title", "Author", "Subject")
        canvas.drawString(10, 10, text)
        save(canvas, tmp_path / "tags.pdf")
        data = (tmp_path / "tags.pdf").read_bytes()
        return {name: tag for tag, name in re.findall(rb"/BaseFont /([A-Z]{6})\+(\S+)", data)}

    one, again, other = tags("Cards \u2014 \u0416"), tags("Cards \u2014 \u0416"), tags("Cards \u2014 \u0414")
    assert len(one) == 1 and one == again and one.keys() == other.keys() and one != other


def test_each_face_is_stored_once(built):
    faces = sorted((built / "faces").rglob("*.png"))
    for name in ("score-a4.pdf", "score-letter.pdf"):
        reader = PdfReader(built / "print" / name)
        drawn = [p["id"] for i in card_pages(reader) for p in placements(reader, reader.pages[i])]
        assert len(drawn) == 2 * 44  # every copy, front and back
        assert len(set(drawn)) == len(faces)  # but each face image once in the file
        assert (built / "print" / name).stat().st_size < 1.5 * sum(f.stat().st_size for f in faces)


def test_streams_are_not_ascii85(built):
    data = (built / "print" / "score-a4.pdf").read_bytes()
    assert b"ASCII85Decode" not in data
    assert b"FlateDecode" in data


def test_rules_reminder_text(built):
    reader = PdfReader(built / "print" / "score-a4.pdf")
    text = "\n".join(reader.pages[i].extract_text() for i in range(12, len(reader.pages)))
    for expected in ("Rules reminder", "Overview", "Game content", "How to play", "Deal table", "Card order",
                     "Game modes", "Cards each", "Classic!", "Score Against!", "Bug!"):
        assert expected in text, expected
    assert text.index("Deal table") < text.index("Card order") < text.index("Game modes")


def test_output_is_deterministic(built, tmp_path):
    result = run_cli("build", "score", "--out", str(tmp_path), "--quiet")
    assert result.exit_code == 0, result.stderr
    for pdf in sorted((built / "print").iterdir()):
        assert (tmp_path / "score" / "print" / pdf.name).read_bytes() == pdf.read_bytes(), pdf.name


def test_calibration_sheet(built):
    reader = PdfReader(built / "print" / "calibration-a4.pdf")
    assert len(reader.pages) == 2
    front, back = (p.extract_text() for p in reader.pages)
    assert "--back-offset X,Y" in front and "100 mm" in front
    assert "+10" in back and "-10" in back


# --- Another deck: tarot cards, circle tokens, Russian, short edge, offsets, gutterfold -------------

def test_mini_files(mini):
    assert sorted(p.name for p in mini.iterdir()) == ["calibration-a4.pdf", "calibration-mine.pdf",
                                                      "mini-a4.pdf", "mini-gutterfold-a4.pdf", "mini-mine.pdf"]


def test_short_edge_backs_with_offset(mini):
    reader = PdfReader(mini / "mini-a4.pdf")
    height = A4[1]
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    fronts, backs = placements(reader, reader.pages[0]), placements(reader, reader.pages[1])
    assert len(fronts) == 4  # tarot: 2 x 2 on A4
    for front, back in zip(fronts, backs):
        assert back["turned"]
        assert back["cx"] == pytest.approx(front["cx"] + 1.5 * MM, abs=0.05)
        assert back["cy"] == pytest.approx(height - front["cy"] - 0.5 * MM, abs=0.05)


def test_tokens_sheet(mini):
    reader = PdfReader(mini / "mini-a4.pdf")
    pages = card_pages(reader)
    assert len(pages) == 6  # 5 tarot cards on 2 sheets, 30 tokens on 1, each with a back page
    tokens = placements(reader, reader.pages[4])
    assert len(tokens) == 30
    assert tokens[0]["w"] == pytest.approx((20 + 2 * BLEED) * MM, abs=0.05)
    assert {t["id"] for t in tokens} == {t["id"] for t in placements(reader, reader.pages[5])}  # face twice
    ops = reader.pages[4]["/Contents"].get_object().get_data().split()
    assert ops.count(b"c") >= 30 * 4 * 2  # a circular clip and a circular cut outline per token


def test_token_sets_sharing_a_sheet_have_their_backs_shifted_by_the_offset(project, tmp_path):
    """Two token sets on one duplex sheet: the back offset moves their backs as it moves a card's, here
    1.5 mm right and 0.5 mm down of where the long-edge flip puts them (A4 portrait: mirrored left to
    right)."""
    stars = ('  - {name: "1", count: 10}\n  - id: stars\n    name: Звёзды\n    type: tokens\n    shape: circle\n'
             '    size: {width: 15, height: 15}\n    template: plain\n    cards:\n      - {name: "5", count: 4}\n')
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[a4]"))
    deck = root / "decks" / "mini.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('  - {name: "1", count: 30}\n', stars),
                    encoding="utf-8")
    reader = PdfReader(build_pdfs(root, "mini", tmp_path / "out", offset=(1.5, -0.5)) / "mini-a4.pdf")
    width = A4[0]
    fronts, backs = (placements(reader, reader.pages[i]) for i in (4, 5))  # after 5 tarot cards on 2 sheets
    assert sorted(round(p["w"] / MM - 2 * BLEED) for p in fronts) == [15] * 4 + [20] * 10  # both sets, one sheet
    assert len(backs) == len(fronts)
    for front in fronts:  # the tokens lie 15 mm or more apart: a back within 0.05 pt is this front's
        x, y = width - front["cx"] + 1.5 * MM, front["cy"] - 0.5 * MM
        assert any(abs(b["cx"] - x) < 0.05 and abs(b["cy"] - y) < 0.05 for b in backs), (front, x, y)


def test_token_sets_share_gutterfold_sheets_and_fold_onto_their_backs(project, tmp_path):
    """Two token sets on a gutterfold profile share one page instead of taking two: both sets' fronts above
    the fold, each token's back mirrored about the fold line and turned, so that it folds onto its front."""
    stars = ('  - {name: "1", count: 10}\n  - id: stars\n    name: Звёзды\n    type: tokens\n    shape: circle\n'
             '    size: {width: 24, height: 24}\n    template: plain\n    back: plain-back\n    cards:\n'
             '      - {name: "5", count: 4}\n')
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[gutterfold-a4]"))
    deck = root / "decks" / "mini.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('  - {name: "1", count: 30}\n', stars),
                    encoding="utf-8")
    reader = PdfReader(build_pdfs(root, "mini", tmp_path / "out") / "mini-gutterfold-a4.pdf")
    tarot = [i for i, page in enumerate(reader.pages) if any(p["w"] > 60 * MM for p in placements(reader, page))]
    tokens = [i for i, page in enumerate(reader.pages)
              if (found := placements(reader, page)) and all(p["w"] < 45 * MM for p in found)]
    assert len(tokens) == 1 and tokens[0] == tarot[-1] + 1  # one page for both sets, after the cards
    page = reader.pages[tokens[0]]
    height = float(page.mediabox.height)
    drawn = placements(reader, page)
    fronts = [p for p in drawn if p["cy"] > height / 2]
    backs = [p for p in drawn if p["cy"] < height / 2]
    assert sorted(round(p["w"] / MM - 2 * BLEED) for p in fronts) == [20] * 10 + [24] * 4  # both sets
    assert not any(p["turned"] for p in fronts) and all(p["turned"] for p in backs)
    for front in fronts:  # the back folds onto its front, and it is that token's back face
        twin = [b for b in backs if abs(b["cx"] - front["cx"]) < 0.05 and abs(b["cy"] - (height - front["cy"])) < 0.05]
        assert len(twin) == 1 and twin[0]["w"] == pytest.approx(front["w"])
    stars = {p["id"] for p in fronts if p["w"] > 28 * MM}
    assert stars and not stars & {p["id"] for p in backs if p["w"] > 28 * MM}  # the stars' backs are their own


def test_russian_rules_and_fonts(mini):
    reader = PdfReader(mini / "mini-a4.pdf")
    text = reader.pages[-1].extract_text()
    for expected in ("Памятка по правилам", "Подготовка", "Перемешайте колоду.", "Игроки", "Режимы игры",
                     "Быстрый режим", "Тест ♠♥♦♣"):
        assert expected in text, expected
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            assert "/FontFile2" in ref.get_object()["/FontDescriptor"]


def test_gutterfold_backs_are_mirrored_about_the_fold_and_turned(mini):
    reader = PdfReader(mini / "mini-gutterfold-a4.pdf")
    page = reader.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert width < height  # tarot does not fit a landscape gutterfold page: the page turns
    images = placements(reader, page)
    fronts = [i for i in images if not i["turned"]]
    backs = [i for i in images if i["turned"]]
    assert len(fronts) == len(backs) == 2
    fold = height / 2
    for front, back in zip(fronts, backs):
        assert front["cy"] > fold > back["cy"]
        assert back["cx"] == pytest.approx(front["cx"], abs=0.05)
        assert back["cy"] == pytest.approx(2 * fold - front["cy"], abs=0.05)
    tokens = placements(reader, reader.pages[3])
    assert float(reader.pages[3].mediabox.width) > float(reader.pages[3].mediabox.height)  # landscape
    assert len(tokens) == 60


def test_custom_profile_gap_bleed_and_offset(mini):
    reader = PdfReader(mini / "mini-mine.pdf")
    assert float(reader.pages[0].mediabox.width) == pytest.approx(LETTER[0], abs=0.01)
    assert len(reader.pages) == 6  # rules: false
    fronts = sorted(placements(reader, reader.pages[0]), key=lambda i: (-i["cy"], i["cx"]))
    assert fronts[1]["x"] - fronts[0]["x"] == pytest.approx((69.85 + 2) * MM, abs=0.05)  # gap: 2
    x0, _, x1, _ = box(reader.pages[0], "/TrimBox")
    bx0, _, bx1, _ = box(reader.pages[0], "/BleedBox")
    assert x0 - bx0 == pytest.approx(1 * MM, abs=0.05)  # bleed: 1
    backs = placements(reader, reader.pages[1])
    # short edge on the command line, plus 0.5 mm from the profile
    assert backs[0]["cx"] == pytest.approx(fronts[0]["cx"] + 2.0 * MM, abs=0.05)


# --- Layout and errors -----------------------------------------------------------------------------

def test_as_many_as_fit():
    assert fit(200, 63.5, 0) == 3 and fit(190.5, 63.5, 0) == 3 and fit(190.4, 63.5, 0) == 2
    assert duplex_sheet((210, 297), 5, 63.5, 88.9, 0, 3).per_page == 9
    assert duplex_sheet((215.9, 279.4), 5, 63.5, 88.9, 0, 3).per_page == 9
    assert duplex_sheet((210, 297), 5, 44.45, 63.5, 0, 3).per_page == 4 * 4  # mini cards
    assert duplex_sheet((210, 297), 5, 400, 88.9, 0, 3) is None
    sheet = gutterfold_sheet((297, 210), 5, 63.5, 88.9, 0, 3, 10)
    assert sheet.per_page == 4 and sheet.fold_y == 105
    assert math.isclose(sheet.front_slot(0).bleed[1], 3)  # towards the fold: min(bleed, gutter / 2)


@pytest.mark.parametrize("name, size", [("euro", (59, 92)), ("mini-euro", (44, 68)), ("japanese", (59, 86)),
                                        ("business", (50.8, 88.9)), ("business-eu", (55, 85))])
def test_named_card_sizes(project, tmp_path, name, size):
    root = _deck_with(project, tmp_path, ("card_size: tarot", f"card_size: {name}"))
    assert load_deck(root / "decks" / "mini.yaml").model.components[0].size == pytest.approx(size)


def test_letter_portrait_holds_nine_poker_cards_inside_a_5_mm_border(project, tmp_path):
    root = _deck_with(project, tmp_path, ("card_size: tarot", "card_size: poker"))
    (root / "decks" / "mini.yaml").write_text(
        (root / "decks" / "mini.yaml").read_text(encoding="utf-8").replace("count: 5}", "count: 9}")
        .replace("[a4, gutterfold-a4, mine]", "[letter-portrait]"), encoding="utf-8")
    reader = PdfReader(build_pdfs(root, "mini", tmp_path / "out") / "mini-letter-portrait.pdf")
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(LETTER, abs=0.01)
    assert len(placements(reader, page)) == 9
    x0, y0, x1, y1 = box(page, "/TrimBox")
    border = 5 * MM
    assert min(x0, y0, LETTER[0] - x1, LETTER[1] - y1) > border
    assert y1 - y0 == pytest.approx((3 * 88.9 + 2) * MM, abs=0.05)  # 1 mm gaps
    lines = [line for line in page.extract_text().splitlines() if line.strip()]
    assert lines  # the notices are on the page (on the sides, where the room is)


def test_a_projects_rules_style_sets_columns_sizes_and_colours(project, tmp_path):
    """print/rules-style.yaml of the project is the rules pages' look: three columns, 7 pt text, red
    headings; the profile's own rules_columns would win, as `mine` shows (rules: false there)."""
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[a4]"))
    (root / "print" / "rules-style.yaml").write_text("columns: 3\nfont_size: 7\nheading_color: \"#ff0000\"\n",
                                                     encoding="utf-8")
    reader = PdfReader(build_pdfs(root, "mini", tmp_path / "out") / "mini-a4.pdf")
    rules = [p for p in reader.pages if "/XObject" not in p["/Resources"]]
    runs = []
    for page in rules:
        page.extract_text(visitor_text=lambda text, cm, tm, font, size: text.strip() and runs.append(
            (round(tm[4] * cm[0] + cm[4]), size * tm[3] * cm[3], text.strip())))
    body = [r for r in runs if r[2] == "Перемешайте колоду."]
    assert body and abs(body[0][1] - 7) < 0.05
    lefts = sorted({x for x, size, text in runs})
    # three columns 58 mm wide, 6 mm apart, from the 12 mm margin: text from 12, 76 and 140 mm (a bullet
    # hangs 0.3 em in)
    starts = [c for c in (12, 76, 140) if any(-0.5 < x / MM - c < 1.5 for x in lefts)]
    assert starts == [12, 76, 140], [round(x / MM, 1) for x in lefts]
    assert not any(abs(x - 108 * MM) < 1 for x in lefts)  # where two columns would put the second
    content = b"".join(page.get_contents().get_data() for page in rules)
    assert b"1 0 0 rg" in content


def test_the_rules_style_sets_the_rules_fonts(project, tmp_path):
    """`font` and `bold_font` (and the italic ones) of print/rules-style.yaml are the faces the rules pages
    are set in, every text of them: here DejaVu Serif, where the default is DejaVu Sans."""
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[a4]"))
    (root / "print" / "rules-style.yaml").write_text(
        "font: serif\nbold_font: serif-bold\nitalic_font: serif-italic\nbold_italic_font: serif-bold\n",
        encoding="utf-8")
    reader = PdfReader(build_pdfs(root, "mini", tmp_path / "out") / "mini-a4.pdf")
    rules = [p for p in reader.pages if "/XObject" not in p["/Resources"]]

    def faces(pages) -> set[str]:
        out: set[str] = set()
        for page in pages:
            page.extract_text(visitor_text=lambda text, cm, tm, font, size: text.strip() and font and out.add(
                str(font["/BaseFont"]).split("+")[-1]))
        return out

    assert faces(rules) == {"DejaVuSerif", "DejaVuSerif-Bold"}
    assert faces(reader.pages[:1]) == {"DejaVuSans"}  # the sheets' own notices keep theirs


def test_an_unknown_rules_font_is_a_located_error(project, tmp_path):
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[a4]"))
    (root / "print" / "rules-style.yaml").write_text("columns: 2\nbold_font: no-such-face-xyz\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    message = str(err.value)
    assert "rules-style.yaml:2:12: bold_font: unknown font 'no-such-face-xyz'" in message and "serif" in message


def test_the_shipped_project_keeps_its_rules_style_in_its_print_folder():
    from deckpress.builders.pdf.rules_style import load_rules_style

    assert (ROOT / "print" / "rules-style.yaml").is_file()
    assert load_rules_style(load_deck(ROOT / "decks" / "score.yaml")).heading_color == "#1b3a5c"
    profiles = {p.name: p.path for p in deck_profiles(load_deck(ROOT / "decks" / "score.yaml"))}
    assert all(path.parent == PACKAGE_DATA / "print" for path in profiles.values())  # profiles: the built-in


def _deck_with(project: Path, tmp_path: Path, replace: tuple[str, str]) -> Path:
    root = tmp_path / "p"
    shutil.copytree(project, root)
    deck = root / "decks" / "mini.yaml"
    deck.write_text(MINI_DECK.replace(*replace), encoding="utf-8")
    return root


def test_unknown_profile_is_a_located_error(project, tmp_path):
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[a4, a5]"))
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    message = str(err.value)
    assert "mini.yaml:" in message and "print profile 'a5' not found" in message and "letter" in message


def test_bad_profile_key_is_a_located_error(project, tmp_path):
    root = _deck_with(project, tmp_path, ("[a4, gutterfold-a4, mine]", "[mine]"))
    (root / "print" / "mine.yaml").write_text("page: a4\nlayout: duplx\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    assert "mine.yaml:2:9" in str(err.value) and "duplex" in str(err.value)


def test_unprintable_rules_text_is_an_error(project, tmp_path):
    root = _deck_with(project, tmp_path, ("Играйте быстро.", "Играйте 漢 быстро."))
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    assert "mini.yaml:" in str(err.value) and "cannot print" in str(err.value)


def test_a_heading_is_checked_against_the_bold_face_it_is_set_in(project, tmp_path):
    # U+1D5A0 (mathematical sans-serif A) is in DejaVu Sans but not in DejaVu Sans Bold
    root = _deck_with(project, tmp_path, ("heading: Подготовка", "heading: Подготовка \U0001d5a0"))
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    assert "mini.yaml:" in str(err.value) and "cannot print '\U0001d5a0'" in str(err.value)


def test_card_too_large_for_the_page(project, tmp_path):
    root = _deck_with(project, tmp_path, ("size: {width: 20, height: 20}", "size: {width: 250, height: 250}"))
    deck = load_deck(root / "decks" / "mini.yaml")
    profile = deck_profiles(deck)[0]
    with pytest.raises(DeckError) as err:
        pdf_builder.sheet_for(profile, deck.model.components[1])
    assert "mini.yaml:14:" in str(err.value) and "do not fit" in str(err.value)

def test_a_project_without_print_uses_the_shipped_profiles(project, tmp_path):
    """A project without print/ still builds a4 and letter, from deckpress's own print/ files."""
    root = tmp_path / "bare"
    shutil.copytree(project, root)
    shutil.rmtree(root / "print")
    deck = root / "decks" / "mini.yaml"
    deck.write_text(MINI_DECK.replace("[a4, gutterfold-a4, mine]", "[a4, gutterfold-a4]"), encoding="utf-8")
    profiles = {p.name: p for p in deck_profiles(load_deck(deck))}
    assert sorted(profiles) == ["a4", "gutterfold-a4"]
    assert all(p.path.parent == PACKAGE_DATA / "print" for p in profiles.values())


def test_a_rules_block_larger_than_a_column_is_a_located_error(project, tmp_path):
    root = _deck_with(project, tmp_path, ('rows: [["2", "10"]]', 'rows: [["2", "' + "слово " * 4000 + '"]]'))
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "mini", tmp_path / "out")
    assert "mini.yaml:24:9:" in str(err.value) and "too large for a whole column" in str(err.value)


def test_a_pdf_is_the_file_reportlab_makes_but_for_its_subset_tags(tmp_path):
    """canvas.save writes the file of reportlab's public getpdfdata as it is but for the font subsets' tags,
    which keep their length: without faces, reportlab's bytes everywhere else."""
    from deckpress.builders.pdf.canvas import new_canvas, save

    def saved(canvas) -> bytes:
        save(canvas, tmp_path / "saved.pdf")
        return (tmp_path / "saved.pdf").read_bytes()

    files = []
    for finish in (lambda canvas: canvas.getpdfdata(), saved):
        canvas = new_canvas((210, 297), "Title", "Author", "Subject")
        for page in range(3):
            canvas.drawString(100, 700, f"page {page} \u2014 \u0416")
            canvas.showPage()
        files.append(finish(canvas))
    untagged = [re.sub(rb"/[A-Z]{6}\+", b"/TAG+", data) for data in files]
    assert files[0] != files[1] and len(files[0]) == len(files[1]) and untagged[0] == untagged[1]
    assert len(PdfReader(tmp_path / "saved.pdf").pages) == 3
