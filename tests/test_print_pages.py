"""What a home printer makes of the print-and-play pages: rendered with pdfium, the outer 1/4 in that
printers cannot print blanked, then the cut guides measured, text located, bleed sampled; and the
rules reminder pages checked as a rulebook (SCORE! in English, Scout in Russian)."""

from __future__ import annotations

import math
import re

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from conftest import ROOT
from deckpress.deck import load_deck
from helpers.pdf import build_pdfs, placements

BORDER = 6.35  # mm: BoardGameGeek's 1/4 in
GUIDE = 2.0  # mm of cut guide each trim edge keeps inside the border
DPI = 300
PX = DPI / 25.4  # pixels per mm
PT = 72 / 25.4  # points per mm
FACE_BLEED = 3.175
DARK = 50  # cut guides are black; labels, scale bar and fold line are grey (#555555)


@pytest.fixture(scope="module")
def scout(tmp_path_factory):
    """Scout's faces and PDFs (a4, letter): Russian rules, four token sets, one a single token."""
    return build_pdfs(ROOT, "scout", tmp_path_factory.mktemp("scout") / "scout")


def _page_mm(page) -> tuple[float, float]:
    return page.get_width() / PT, page.get_height() / PT


def _trims(page) -> list[tuple[float, float, float, float]]:
    """Trim (x0, y0, x1, y1) mm of every face drawn on the page: its image less the face bleed."""
    out = []
    for obj in page.get_objects():
        if obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE:
            l, b, r, t = (v / PT for v in obj.get_bounds())
            out.append((l + FACE_BLEED, b + FACE_BLEED, r - FACE_BLEED, t - FACE_BLEED))
    return out


def printed_lines(pdf, index: int) -> tuple[np.ndarray, list, tuple[float, float]]:
    """The page as a home printer prints its lines: images removed, rendered at 300 DPI, the border
    blanked; returns the mask of black pixels, the trims and the page size (mm)."""
    page = pdf[index]
    trims = _trims(page)
    for obj in [o for o in page.get_objects() if o.type == pdfium_c.FPDF_PAGEOBJ_IMAGE]:
        page.remove_obj(obj)
    page.gen_content()
    grey = np.asarray(page.render(scale=DPI / 72).to_pil().convert("L"))
    dark = grey < DARK
    edge = round(BORDER * PX)
    dark[:edge, :] = dark[-edge:, :] = False
    dark[:, :edge] = dark[:, -edge:] = False
    return dark, trims, _page_mm(page)


def guide_length(dark: np.ndarray, size: tuple[float, float], trims, vertical: bool, at: float) -> float:
    """Millimetres of printed line along the cut x = `at` (vertical) or y = `at`, outside the trims."""
    if vertical:
        c = round(at * PX)
        along = dark[:, max(0, c - 1):c + 2].any(axis=1).copy()
        for x0, y0, x1, y1 in trims:
            if x0 - 0.1 <= at <= x1 + 0.1:
                along[round((size[1] - y1) * PX):round((size[1] - y0) * PX)] = False
    else:
        r = round((size[1] - at) * PX)
        along = dark[max(0, r - 1):r + 2, :].any(axis=0).copy()
        for x0, y0, x1, y1 in trims:
            if y0 - 0.1 <= at <= y1 + 0.1:
                along[round(x0 * PX):round(x1 * PX)] = False
    return float(along.sum()) / PX


def card_guides(path) -> list[float]:
    """For every trim edge of every card on the PDF's front (or gutterfold) pages: the printed cut
    guide along it, in mm."""
    pdf = pdfium.PdfDocument(str(path))
    reader = PdfReader(str(path))
    lengths = []
    pages = [i for i, p in enumerate(reader.pages) if "/XObject" in p["/Resources"]]
    gutterfold = "gutterfold" in path.name
    for index in pages if gutterfold else pages[::2]:
        dark, trims, size = printed_lines(pdf, index)
        assert trims
        for x0, y0, x1, y1 in trims:
            for vertical, at in ((True, x0), (True, x1), (False, y0), (False, y1)):
                lengths.append(guide_length(dark, size, trims, vertical, at))
    return lengths


@pytest.mark.parametrize("name", ["score-a4.pdf", "score-letter.pdf", "score-gutterfold-a4.pdf",
                                  "score-gutterfold-letter.pdf"])
def test_every_trim_edge_keeps_a_printed_cut_guide(built, name):
    lengths = card_guides(built / "print" / name)
    assert len(lengths) >= 4 * 44  # every edge of every card
    assert min(lengths) >= GUIDE, f"shortest printed guide {min(lengths):.2f} mm"


def test_a_butted_letter_sheet_would_lose_its_guides(tmp_path):
    """The check sees the problem it guards against: 3 x 3 poker cards butted on portrait Letter (a
    profile for a printer that prints to the edge) put the outer trims on the 1/4 in border, and the
    vertical cuts keep no guide a home printer prints."""
    for folder in ("decks", "templates", "print"):
        (tmp_path / folder).mkdir()
    (tmp_path / "templates" / "plain.yaml").write_text(
        "elements:\n  - {type: rect, box: bleed, fill: \"#336699\"}\n", encoding="utf-8")
    (tmp_path / "print" / "letter.yaml").write_text("page: letter\nmargin: 6.35\ngap: 0\nborder: 0\n",
                                                    encoding="utf-8")
    (tmp_path / "decks" / "nine.yaml").write_text(
        "game: {name: Nine, players: {min: 2, max: 2}}\ncomponents:\n  - id: cards\n    name: Cards\n"
        "    template: plain\n    cards:\n      - {name: Card, count: 9}\nprint: {profiles: [letter]}\n",
        encoding="utf-8")
    out = build_pdfs(tmp_path, "nine", tmp_path / "out")
    assert len(_trims(pdfium.PdfDocument(str(out / "nine-letter.pdf"))[0])) == 9
    assert min(card_guides(out / "nine-letter.pdf")) < 0.5


def _outline_printed(dark: np.ndarray, size, trim, shape: str) -> float:
    """The share of points along a token's cut outline (circle or rectangle) that print."""
    x0, y0, x1, y1 = trim
    points = []
    for i in range(96):
        t = i / 96
        if shape == "circle":
            a = 2 * math.pi * t
            points.append(((x0 + x1) / 2 + (x1 - x0) / 2 * math.cos(a), (y0 + y1) / 2 + (y1 - y0) / 2 * math.sin(a)))
        else:
            w, h = x1 - x0, y1 - y0
            d = t * 2 * (w + h)
            points.append((x0 + d, y0) if d < w else (x1, y0 + d - w) if d < w + h else
                          (x1 - (d - w - h), y1) if d < 2 * w + h else (x0, y1 - (d - 2 * w - h)))
    printed = 0
    for x, y in points:
        c, r = round(x * PX), round((size[1] - y) * PX)
        printed += bool(dark[r - 2:r + 3, c - 2:c + 3].any())
    return printed / len(points)


def test_token_outlines_print_whole(scout):
    """Every token's circular cut outline lies inside the printable area, on every token sheet."""
    for name in ("scout-a4.pdf", "scout-letter.pdf"):
        pdf = pdfium.PdfDocument(str(scout / name))
        reader = PdfReader(str(scout / name))
        token_pages = [i for i, p in enumerate(reader.pages)
                       if "/XObject" in p["/Resources"] and i % 2 == 0 and len(_trims(pdf[i])) != 9]
        counts = []
        for index in token_pages:
            dark, trims, size = printed_lines(pdf, index)
            round_ones = [t for t in trims if abs((t[2] - t[0]) - (t[3] - t[1])) < 0.01 and t[2] - t[0] < 40]
            counts.append(len(round_ones))
            for trim in round_ones:
                assert _outline_printed(dark, size, trim, "circle") == 1.0, (name, index, trim)
        assert sum(counts) == 5 + 25 + 52 + 1, (name, counts)  # chips, scout tokens, stars, first player


def _text_outside(path) -> list[str]:
    """Characters whose glyph box reaches into the border, as 'page: char'."""
    pdf = pdfium.PdfDocument(str(path))
    bad = []
    for index in range(len(pdf)):
        page = pdf[index]
        w, h = _page_mm(page)
        text = page.get_textpage()
        for i in range(text.count_chars()):
            char = text.get_text_range(i, 1)
            if not char.strip():
                continue
            l, b, r, t = (v / PT for v in text.get_charbox(i))
            if l < BORDER - 0.05 or b < BORDER - 0.05 or r > w - BORDER + 0.05 or t > h - BORDER + 0.05:
                bad.append(f"{index + 1}: {char}")
    return bad


def test_no_text_in_the_border(built, scout):
    files = sorted((built / "print").glob("*.pdf")) + sorted(scout.glob("*.pdf"))
    assert len(files) == 10
    for path in files:
        assert _text_outside(path) == [], path.name


@pytest.mark.parametrize("name", ["scout-a4.pdf", "scout-letter.pdf"])
def test_token_sets_share_sheets_and_their_backs_register(scout, name):
    """Scout's four token sets (chips, tokens, stars, the single first-player marker) share two duplex
    sheets instead of taking four; every back lands behind its front (A4 portrait flips long edge: the
    page mirrors left to right; Letter is landscape, so the long-edge flip mirrors it top to bottom, each
    back turned); each page of fronts has its notice on the page."""
    deck = load_deck(ROOT / "decks" / "scout.yaml")
    tokens = sum(card.count for c in deck.model.components if c.type == "tokens" for card in c.cards)
    reader = PdfReader(str(scout / name))
    pages = [i for i, page in enumerate(reader.pages)
             if (found := placements(reader, page)) and all(p["w"] < 45 * PT for p in found)]
    assert len(pages) == 4 and pages == list(range(pages[0], pages[0] + 4))
    width, height = (float(v) for v in reader.pages[pages[0]].mediabox[2:])
    drawn = 0
    for front, back in zip(pages[::2], pages[1::2]):
        fronts, backs = placements(reader, reader.pages[front]), placements(reader, reader.pages[back])
        drawn += len(fronts)
        if width < height:
            expected = sorted((round(width - p["cx"], 1), round(p["cy"], 1), round(p["w"], 1)) for p in fronts)
        else:
            expected = sorted((round(p["cx"], 1), round(height - p["cy"], 1), round(p["w"], 1)) for p in fronts)
            assert all(p["turned"] for p in backs)
        assert sorted((round(p["cx"], 1), round(p["cy"], 1), round(p["w"], 1)) for p in backs) == expected
        assert "100%" in reader.pages[front].extract_text()
    assert drawn == tokens


def test_exposed_edges_of_a_partial_sheet_print_their_bleed(built):
    """SCORE!'s two help cards on a 3 x 3 A4 sheet: their sides facing empty slots show the face's
    whole bleed (sampled 2.5 mm beyond the trim, past the 1 mm a gap allows); a side facing a card
    shows 1 mm."""
    pdf = pdfium.PdfDocument(str(built / "print" / "score-a4.pdf"))
    page = pdf[10]
    trims = sorted(_trims(page))
    assert len(trims) == 2
    image = np.asarray(page.render(scale=DPI / 72).to_pil().convert("L"))
    h = _page_mm(page)[1]

    def ink(x, y):
        return image[round((h - y) * PX), round(x * PX)] < 245

    (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = trims
    assert ink(bx1 + 2.5, (by0 + by1) / 2)  # the right card's right side: no neighbour
    assert ink((ax0 + ax1) / 2, ay0 - 2.5) and ink((bx0 + bx1) / 2, by0 - 2.5)  # below both: empty slots
    assert ink(ax0 - 2.5, (ay0 + ay1) / 2)  # the sheet's outside


def test_gap_between_cards_shows_each_cards_own_bleed(built):
    """Between two cards of a full A4 sheet: 1 mm of each card's own bleed, meeting in the middle."""
    reader = PdfReader(str(built / "print" / "score-a4.pdf"))
    content = reader.pages[0].get_contents().get_data().decode("latin-1")
    clips = [tuple(float(v) / PT for v in m.groups())
             for m in re.finditer(r"n ([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re W\* n", content)]
    assert len(clips) == 9
    widths = sorted({round(c[2], 2) for c in clips})
    # outer columns: 3.175 outside + 1 inside; the middle column 1 + 1
    assert widths == [round(63.5 + 2, 2), round(63.5 + 3.175 + 1, 2)]


def test_viewer_preferences(built):
    def prefs(name):
        return dict(PdfReader(str(built / "print" / name)).trailer["/Root"]["/ViewerPreferences"])

    assert prefs("score-a4.pdf") == {"/PrintScaling": "/None", "/Duplex": "/DuplexFlipLongEdge"}
    assert prefs("score-letter.pdf") == {"/PrintScaling": "/None", "/Duplex": "/DuplexFlipLongEdge"}
    assert prefs("score-gutterfold-a4.pdf") == {"/PrintScaling": "/None", "/Duplex": "/Simplex"}
    assert prefs("calibration-a4.pdf") == {"/PrintScaling": "/None", "/Duplex": "/DuplexFlipLongEdge"}


def _scale_bars(page) -> list[float]:
    """Lengths (mm) of the straight grey lines of 50 mm +- 0.5 on the page."""
    out = []
    for obj in page.get_objects():
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
            l, b, r, t = (v / PT for v in obj.get_bounds())
            length = max(r - l, t - b)
            if abs(length - 50) < 0.5 and min(r - l, t - b) < 0.5:
                out.append(length)
    return out


@pytest.mark.parametrize("name", ["score-a4.pdf", "score-letter.pdf", "score-gutterfold-a4.pdf"])
def test_each_card_sheet_has_a_50_mm_scale_bar(built, name):
    reader = PdfReader(str(built / "print" / name))
    pdf = pdfium.PdfDocument(str(built / "print" / name))
    sheets = [i for i, p in enumerate(reader.pages) if "/XObject" in p["/Resources"]]
    fronts = sheets if "gutterfold" in name else sheets[::2]
    for index in fronts:
        bars = _scale_bars(pdf[index])
        assert len(bars) == 1 and 50 <= bars[0] <= 50.45, (index, bars)  # pdfium adds the line width


def test_russian_sheets_print_in_russian(scout):
    """Russian Scout's notices, scale bars and duplex hints are in Russian; no reading code of
    docs/games.md (G-Scout-3) reaches the players' pages."""
    for name in ("scout-a4.pdf", "scout-letter.pdf"):
        text = "\n".join(page.extract_text() for page in PdfReader(str(scout / name)).pages)
        assert "50 мм" in text and "переворот по длинному краю" in text
        english = re.findall(r"\b(?:mm|long|short|edge|sheet|fronts|backs|Print|actual|size|fold)\b", text)
        assert english == [], english
        assert not re.search(r"G-\w+-\d", text)
    calibration = "\n".join(page.extract_text() for page in PdfReader(str(scout / "calibration-a4.pdf")).pages)
    assert "100 мм" in calibration and "100 mm" not in calibration


def test_font_subsets_have_distinct_tags(built, scout):
    for path in [built / "print" / "score-a4.pdf", built / "print" / "calibration-a4.pdf", scout / "scout-a4.pdf"]:
        reader = PdfReader(str(path))
        names = {ref.get_object()["/BaseFont"] for page in reader.pages
                 for ref in page["/Resources"].get("/Font", {}).values()}
        tags = [n.split("+")[0] for n in names]
        assert len(names) >= 2 and len(set(tags)) == len(tags), names
        assert all(re.fullmatch(r"/[A-Z]{6}", t) for t in tags), names


# --- The rules reminder, set like a rulebook ---------------------------------------------------------

BODY = 8.5  # the profiles' font_size
H1, H2 = BODY * 1.3, BODY * 1.08


def _runs(page) -> list[dict]:
    """The page's text runs: position (points), size, bold or not, text."""
    out = []

    def visit(text, cm, tm, font, size):
        if not text.strip() or font is None:
            return
        a, b, c, d, e, f = cm
        out.append({"x": tm[4] * a + tm[5] * c + e, "y": tm[4] * b + tm[5] * d + f, "size": size * tm[3] * d,
                    "bold": "Bold" in font["/BaseFont"], "text": text.strip()})

    page.extract_text(visitor_text=visit)
    return out


def rules_pages(path) -> list[list[list[dict]]]:
    """Each rules page (the pages without images) as its two columns of runs, top to bottom; the
    title and the footer left out."""
    reader = PdfReader(str(path))
    pages = []
    for page in reader.pages:
        if "/XObject" in page["/Resources"]:
            continue
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        runs = [r for r in _runs(page) if 20 * PT < r["y"] < height - 25 * PT]
        columns = [sorted((r for r in runs if (r["x"] < width / 2) == (c == 0)), key=lambda r: -r["y"])
                   for c in (0, 1)]
        pages.append(columns)
    return pages


def _is_heading(run) -> bool:
    return run["bold"] and any(abs(run["size"] - s) < 0.05 for s in (H1, H2))


RULEBOOKS = [("built", "score-a4.pdf"), ("built", "score-letter.pdf"), ("scout", "scout-a4.pdf"),
             ("scout", "scout-letter.pdf")]


@pytest.fixture(params=RULEBOOKS, ids=[name for _, name in RULEBOOKS])
def rulebook(request):
    fixture, name = request.param
    return rules_pages(request.getfixturevalue(fixture) / ("print" if fixture == "built" else "") / name)


def test_rules_pages_are_there(rulebook):
    assert len(rulebook) >= 2
    assert all(column for page in rulebook for column in page)  # both columns of every page hold text


def test_headings_stay_with_their_text(rulebook):
    for number, page in enumerate(rulebook, 1):
        for column in page:
            assert not _is_heading(column[-1]), (number, column[-1]["text"])  # never last in a column
            for above, below in zip(column, column[1:]):
                if _is_heading(above) and _is_heading(below):
                    assert above["size"] > below["size"], (number, above["text"])  # only a section's sub-heading


def test_more_space_above_a_sub_heading_than_between_paragraphs(rulebook):
    """From the line above to a sub-heading's baseline at least 2.3 body sizes (it was 1.85), where a
    paragraph's first line sits 1.73 below the previous paragraph's last (leading 1.28 and 0.45 between;
    reportlab keeps the larger of a block's space after and the next one's space before)."""
    gaps, between = [], []
    for page in rulebook:
        for column in page:
            lines = [r for i, r in enumerate(column) if i == 0 or abs(r["y"] - column[i - 1]["y"]) > 0.5]
            for above, below in zip(lines, lines[1:]):
                if _is_heading(below) and abs(below["size"] - H2) < 0.05:
                    gaps.append(above["y"] - below["y"])
                elif not _is_heading(above) and not _is_heading(below) and abs(below["size"] - BODY) < 0.05:
                    between.append(above["y"] - below["y"])
    assert gaps and min(gaps) >= 2.3 * BODY, sorted(gaps)[:3]
    assert max(between) < 2.3 * BODY, sorted(between)[-3:]


def test_a_rules_paragraph_wrapped_at_two_widths_keeps_each():
    """rules._Para keeps what wrapping at each width set: wrapped at one width, then another, then each again,
    it is the size a paragraph wrapped at that width alone is."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from deckpress.builders.pdf import rules
    from deckpress.builders.pdf.canvas import SANS, register_fonts

    register_fonts()
    style = ParagraphStyle("body", fontName=SANS, fontSize=9, leading=11)
    text = "Play a card of the same colour or number, then draw one. " * 6
    paragraph = rules._Para(text, style)
    sizes = [paragraph.wrap(width, 1000) for width in (100, 250, 100, 250)]
    assert sizes == [Paragraph(text, style).wrap(width, 1000) for width in (100, 250, 100, 250)]
    assert sizes[0][1] > sizes[1][1]


def test_trial_layouts_draw_nothing_and_change_no_byte(tmp_path, monkeypatch):
    """The typesetter's trial layouts (each column height and page plan it tries) draw nothing (rules._Trial):
    the rules pages are byte for byte those of trials that draw."""
    from deckpress.builders.pdf import rules
    from deckpress.builders.pdf.canvas import new_canvas, plain_streams, register_fonts, save
    from deckpress.builders.pdf.rules_style import load_rules_style

    register_fonts()
    deck = load_deck(ROOT / "decks" / "scout.yaml")
    look = load_rules_style(deck)

    def pdf(name: str) -> bytes:
        with plain_streams():
            canvas = new_canvas((210, 297), "Rules", "", "")
            assert rules.draw_rules(canvas, deck, (210, 297), 10, look, look.columns, look.font_size, "Scout") >= 2
            save(canvas, tmp_path / name)
        return (tmp_path / name).read_bytes()

    skipped = pdf("skipped.pdf")
    trials = []

    def always(self, canvas, x, y, _sW=0):
        trials.append(isinstance(canvas, rules._Scratch))
        super(rules._Trial, self).drawOn(canvas, x, y, _sW)

    monkeypatch.setattr(rules._Trial, "drawOn", always)
    assert pdf("drawn.pdf") == skipped
    assert trials.count(True) > trials.count(False) > 0  # trials drawn this time, more than the pages


def test_no_widows_or_orphans():
    """A paragraph split across columns keeps at least two lines on each side."""
    from deckpress.builders.pdf.canvas import register_fonts
    from deckpress.builders.pdf.rules import Faces, Styles, _Para
    from deckpress.builders.pdf.rules_style import load_rules_style

    register_fonts()
    deck = load_deck(ROOT / "decks" / "score.yaml")
    look = load_rules_style(deck)
    styles = Styles(BODY, look, Faces(deck, look))
    text = " ".join(["word"] * 200)
    whole = _Para(text, styles.body)
    whole.wrap(200, 10_000)
    n = len(whole.blPara.lines)
    for room in range(1, n):
        parts = _Para(text, styles.body).split(200, room * styles.body.leading + 0.1)
        lines = [len(p.blPara.lines) if hasattr(p, "blPara") else p.wrap(200, 10_000) and len(p.blPara.lines)
                 for p in parts]
        assert parts == [] or (len(parts) == 2 and min(lines) >= 2), (room, n, lines)


def test_tables_are_as_wide_as_their_content_numbers_right_aligned(scout):
    """Scout's scoring table (what for, points): narrower than the column; its points right-aligned."""
    reader = PdfReader(str(scout / "scout-a4.pdf"))
    rules = [p for p in reader.pages if "/XObject" not in p["/Resources"]]
    runs = [r for page in rules for r in _runs(page)]
    points = [r for r in runs if re.fullmatch(r"[+\-]1", r["text"])]
    assert len(points) >= 3
    right = [r["x"] + stringWidth(r["text"], "DeckpressSans", r["size"]) for r in points]
    assert max(right) - min(right) < 0.3  # right edges line up
    head = next(r for r in runs if r["text"] == "Очки")
    assert head["x"] < 105 * PT  # the table ends well inside the left column (A4: 210 mm, two columns)


def test_no_page_holds_a_single_section(rulebook):
    for number, page in enumerate(rulebook, 1):
        runs = page[0] + page[1]
        heads = [r for r in runs if _is_heading(r)]
        continued = not _is_heading(page[0][0])  # the page starts in the middle of a section
        assert len(heads) + continued >= 2, (number, [h["text"] for h in heads])


def test_list_bullets_are_body_size(rulebook):
    bullets = [r for page in rulebook for column in page for r in column
               if r["text"] == "\u2022" or re.fullmatch(r"\d+\.", r["text"])]
    assert bullets
    assert {round(b["size"], 2) for b in bullets} == {BODY}


def test_list_items_hang_from_one_indent(rulebook):
    """Every line of a list item starts at the same x, its first line after the bullet included."""
    for page in rulebook:
        for column in page:
            for i, run in enumerate(column):
                if re.fullmatch(r"\d+\.|\u2022", run["text"]):
                    first = next((r for r in column if r is not run and abs(r["y"] - run["y"]) < 0.5), None)
                    if first is None:  # a number that is not a bullet
                        continue
                    following = [r for r in column if 3 < run["y"] - r["y"] < 13]
                    if following and not re.fullmatch(r"\d+\.|\u2022", following[0]["text"]):
                        assert first["x"] == pytest.approx(following[0]["x"], abs=0.5), first["text"]


def test_the_last_page_columns_are_balanced(rulebook):
    """On the last page the two columns end within a few lines of each other."""
    left, right = rulebook[-1]
    full = rulebook[0][0][0]["y"] - 40 * PT  # a rough full column, for scale
    assert abs(left[-1]["y"] - right[-1]["y"]) <= 0.25 * full
