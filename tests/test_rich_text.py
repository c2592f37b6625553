"""Rich text: `**bold**`, `*italic*` and `:name:` icons flow, wrap and shrink with the text on real faces,
are set in bold, oblique and icons on the PDF's rules pages, and become BBCode in the TTS notebook and
descriptions; mistakes are located."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pypdf
import pytest
from PIL import Image, ImageChops

from conftest import run_cli
from helpers.docs import pictures
from helpers.yaml12 import load_12
from deckpress.deck import load_deck
from deckpress.errors import DeckError, Where
from deckpress.fonts import FONT_DIR
from deckpress.markup import IconRef, Run, parse
from deckpress.render import DPI, FaceRenderer
from deckpress.schema import json_schema

DECK = """\
game: {name: Rich, players: {min: 2, max: 4}}
icons:
  star: {glyph: "★", color: "#00c000"}
  coin: {image: ../art/coin.png}
fonts:
  title: ../fonts/Title.ttf
components:
  - id: deck
    name: Deck
    template: card
    fields:
      text: {doc: Rules text., default: ""}
      font: {doc: Font of the text., default: sans}
    cards:
      - {name: Plain, text: Discard a card.}
      - {name: Marked, text: "**Discard** a card, *then* gain a :star: and 2:coin:."}
rules:
  - heading: Goal
    body:
      - "Be the **first** to play *every* card :star: and take a :coin:."
      - table:
          header: [Cards, Points]
          rows: [["**Ace**", "1 :coin:"]]
  - heading: Spans
    body:
      - "Score [3 points]{color=#d62828 size=150%} in [a title]{font=title}."
  - heading: Signs
    body:
      - "Ties & draws: 2 < 3 > 1, <b>as written</b>."
      - "[A & B < C]{color=#d62828} stay as written."
print: {profiles: [a4]}
"""
TEMPLATE = """\
elements:
  - {type: text, name: body, x: 6, y: 6, w: "{{ card.w | default(51.5) }}", h: "{{ card.h | default(40) }}",
     text: "{{ card.text }}", font: "{{ card.font }}", align: left, valign: top}
"""
EM_PX = 10 / 72 * DPI  # the text's size (10 pt) in pixels of the face


def project(root: Path, deck: str = DECK) -> Path:
    for folder in ("decks", "templates", "art", "fonts"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / "templates" / "card.yaml").write_text(TEMPLATE, encoding="utf-8")
    (root / "decks" / "rich.yaml").write_text(deck, encoding="utf-8")
    Image.new("RGB", (50, 50), (255, 0, 0)).save(root / "art" / "coin.png")
    shutil.copy(FONT_DIR / "DejaVuSerif.ttf", root / "fonts" / "Title.ttf")
    return root / "decks" / "rich.yaml"


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    return FaceRenderer(load_deck(project(tmp_path_factory.mktemp("rich"))))


def face(renderer: FaceRenderer, text: str, font: str = "sans", **box) -> Image.Image:
    card = {"id": "x", "name": "X", "count": 1, "text": text, "font": font, **box}
    return renderer.render("card", card, {"id": "deck", "name": "Deck"}, (63.5, 88.9), Where("rich.yaml", 1, 1),
                           "card 'X'")


def mask(image: Image.Image, test) -> Image.Image:
    """A mask of the pixels whose (r, g, b) pass `test`, one channel test each."""
    channels = [c.point(lambda v, t=t: 255 if t(v) else 0) for c, t in zip(image.split(), test)]
    return ImageChops.multiply(ImageChops.multiply(channels[0], channels[1]), channels[2])


def ink(image):  # black text
    return mask(image, (lambda v: v < 110, lambda v: v < 110, lambda v: v < 110))


def tinted(image: Image.Image, main: int) -> Image.Image:
    """A mask of the pixels where channel `main` stands out over both others (edges included)."""
    channels = image.split()
    others = [c for i, c in enumerate(channels) if i != main]
    above = [ImageChops.subtract(channels[main], c).point(lambda v: 255 if v > 40 else 0) for c in others]
    return ImageChops.multiply(*above)


def red(image):  # the coin
    return tinted(image, 0)


def green(image):  # the star
    return tinted(image, 1)


def rows(m: Image.Image) -> list[tuple[int, int]]:
    """The bands of rows holding any pixel of the mask: one (top, bottom) per line of text."""
    column = m.resize((1, m.height), Image.BOX).tobytes()
    bands, start = [], None
    for y, value in enumerate([*column, 0]):
        if value and start is None:
            start = y
        elif not value and start is not None:
            bands.append((start, y))
            start = None
    return bands


# --- faces ------------------------------------------------------------------------------------------

def test_a_bold_run_is_wider_than_the_same_words_regular_and_set_in_the_bold_face(renderer):
    regular = ink(face(renderer, "Discard a card")).getbbox()
    bold = ink(face(renderer, "**Discard a card**")).getbbox()
    assert bold[2] - bold[0] > (regular[2] - regular[0]) * 1.05
    as_bold_font = ink(face(renderer, "Discard a card", font="sans-bold")).getbbox()
    assert all(abs(a - b) <= 2 for a, b in zip(bold, as_bold_font))
    italic = ink(face(renderer, "*Discard a card*")).getbbox()
    as_oblique_font = ink(face(renderer, "Discard a card", font="sans-oblique")).getbbox()
    assert italic != regular and all(abs(a - b) <= 2 for a, b in zip(italic, as_oblique_font))


def test_only_the_marked_words_change(renderer):
    plain = face(renderer, "Discard a card")
    marked = face(renderer, "Discard a **card**")
    left_of = ink(plain).getbbox()[0] + round(EM_PX * 3)  # "Discard" is untouched
    assert plain.crop((0, 0, left_of, plain.height)).tobytes() == marked.crop((0, 0, left_of, plain.height)).tobytes()


def test_an_icon_is_as_tall_as_the_text_and_sits_in_its_line(renderer):
    image = face(renderer, "Gain 2 :coin: now :star:")
    coin, star, text = red(image).getbbox(), green(image).getbbox(), ink(image).getbbox()
    assert abs((coin[3] - coin[1]) - EM_PX) <= 1.5 and abs((coin[2] - coin[0]) - EM_PX) <= 1.5
    assert abs(max(star[2] - star[0], star[3] - star[1]) - EM_PX) <= 2
    (top, bottom), = rows(ink(image))  # one line
    for icon in (coin, star):
        assert top <= (icon[1] + icon[3]) / 2 <= bottom
    words = ink(image)
    assert words.crop((0, 0, coin[0], image.height)).getbbox()  # "Gain 2" before the coin
    assert words.crop((coin[2], 0, star[0], image.height)).getbbox()  # "now" between coin and star
    assert text[0] < coin[0] < coin[2] < star[0]


def test_wrapping_moves_an_icon_with_its_word(renderer):
    short = face(renderer, "aaa ggg:coin:", w=30)
    long = face(renderer, "aaa bbb ccc ddd eee ggg:coin:", w=30)
    lines = rows(ink(long))
    assert len(rows(ink(short))) == 1 and len(lines) == 2
    coin = red(long).getbbox()
    assert coin[1] > lines[0][1]  # on the second line
    word = ink(long).crop((0, coin[1], coin[0], coin[3])).getbbox()
    assert word is not None and coin[0] - word[2] < 0.3 * EM_PX  # right after its word


def test_text_with_icons_shrinks_to_fit(renderer):
    text = " ".join(["Gain a :coin:"] * 14)
    roomy, tight = face(renderer, text, h=60), face(renderer, text, h=14)
    assert red(tight).getbbox()[3] - red(tight).getbbox()[1] < red(roomy).getbbox()[3] - red(roomy).getbbox()[1]
    assert ink(tight).getbbox()[3] <= (6 + 14 + 3.175) / 25.4 * DPI + 1  # inside its box


def test_an_unclosed_marker_and_escapes_are_literal_text(renderer):
    assert face(renderer, "**Discard a card").tobytes() == face(renderer, r"\*\*Discard a card").tobytes()
    assert face(renderer, "2 * 3 * 4").tobytes() == face(renderer, r"2 \* 3 \* 4").tobytes()
    assert parse(r"\:star: at 10:30 \\", {"star"}) == [Run(":star: at 10:30 \\")]
    assert parse("***both*** :star:", {"star"}) == [Run("both", True, True), Run(" "), IconRef("star")]


def test_text_that_does_not_fit_still_fails_located(renderer):
    with pytest.raises(DeckError, match=r"rich\.yaml:1:1: card 'X', template 'card' element 'body': text "
                                        r"does not fit .* even at 6 pt"):
        face(renderer, " ".join(["**Gain** a :coin:"] * 40), h=8)


def test_bold_and_italic_need_a_face_of_the_font(renderer):
    with pytest.raises(DeckError, match="font 'mono' has no italic face .* `mono-italic: ../fonts/FILE.ttf`"):
        face(renderer, "*x*", font="mono")
    with pytest.raises(DeckError, match="font 'title' has no bold face .*`title-bold: "):
        face(renderer, "**x**", font="title")
    # the same glyph, its line placed by the regular face's ascent (a pixel less than the bold's at 10 pt)
    rich = ink(face(renderer, "**x**", font="serif")).getbbox()
    bold = ink(face(renderer, "x", font="serif-bold")).getbbox()
    assert rich[0] == bold[0] and rich[2] == bold[2] and all(abs(a - b) <= 1 for a, b in zip(rich, bold))


def test_a_deck_font_takes_the_bold_face_the_deck_names(tmp_path):
    deck = DECK.replace("  title: ../fonts/Title.ttf\n",
                        "  title: ../fonts/Title.ttf\n  title-bold: ../fonts/Title-Bold.ttf\n")
    path = project(tmp_path, deck)
    shutil.copy(FONT_DIR / "DejaVuSerif-Bold.ttf", tmp_path / "fonts" / "Title-Bold.ttf")
    renderer = FaceRenderer(load_deck(path))
    assert ink(face(renderer, "**Rich** text", font="title")).getbbox() == \
        ink(face(renderer, "**Rich** text", font="serif")).getbbox()


# --- located mistakes -----------------------------------------------------------------------------

def lines_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_undeclared_icon_stays_text_and_a_close_one_is_one_located_warning(tmp_path, renderer):
    """As in Squib and GitHub, `:name:` the deck does not declare is text: a deck that built before rich
    text (`10 + bid :star:` and no `icons:`) still builds. A name close to a declared icon is warned of,
    located at the card; one that is not (a time, `Note:see:`) is not."""
    deck = DECK.replace("2:coin:.", "2:coins: at 10:30:45 (note:see:)")
    project(tmp_path, deck)
    result = run_cli("check", "decks/rich.yaml", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip() == (
        f"decks/rich.yaml:{lines_of(deck, '2:coins:')}:9: warning: card 'Marked': ':coins:' is no icon "
        "of the deck, so it stays text; did you mean ':coin:'? (write \\: before it to keep the text and "
        "drop this warning)")
    assert parse("2:coins: and :star:", {"star"}) == [Run("2:coins: and "), IconRef("star")]
    assert parse("10 + bid :star:") == [Run("10 + bid :star:")]
    drawn = face(renderer, "a :gem: b")
    assert renderer.warnings == []  # not close to :coin: or :star:
    assert not ImageChops.difference(drawn, face(renderer, r"a \:gem: b")).getbbox()  # as a literal colon
    face(renderer, "a :sta: b")
    assert renderer.warnings == ["':sta:' is no icon of the deck, so it stays text; did you mean ':star:'? (write "
                                 "\\: before it to keep the text and drop this warning)"]


def test_a_deck_without_icons_builds_as_it_did_before_rich_text(tmp_path):
    """`10 + bid :star:` in a deck that declares no icons: text, with nothing to warn of."""
    deck = DECK.replace('icons:\n  star: {glyph: "★", color: "#00c000"}\n  coin: {image: ../art/coin.png}\n', "")
    deck = deck.replace("text: Discard a card.", 'text: "10 + bid :star:"')
    project(tmp_path, deck)
    result = run_cli("build", "--quiet", cwd=tmp_path)
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    save = json.loads((tmp_path / "build" / "rich" / "tts" / "rich.json").read_text(encoding="utf-8"))
    cards = [c for obj in save["ObjectStates"] for c in obj.get("ContainedObjects", [])]
    assert "10 + bid :star:" in {c["Description"] for c in cards}


def test_a_close_undeclared_icon_in_the_rules_is_warned_at_its_block(tmp_path):
    deck = DECK.replace("take a :coin:.", "take a :coins:.")
    project(tmp_path, deck)
    result = run_cli("check", "decks/rich.yaml", cwd=tmp_path)
    assert result.exit_code == 0
    assert result.stderr.startswith(f"decks/rich.yaml:{lines_of(deck, ':coins:')}:")
    assert "did you mean ':coin:'?" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("icon, message", [
    ("{image: ../../outside.png}", "icon image '../../outside.png' leads outside the project"),
    ("{image: ../art/none.png}", "icon image '../art/none.png' not found"),
    ('{glyph: "*", image: ../art/coin.png}', "an icon is either `glyph:` or `image:`"),
    ('{glyph: "★", color: gold}', "color: 'gold' is not valid here"),
    ('{glyph: "★", font: serif}', "icon 'coin': font 'serif' has no glyph for '★'; pick a font that has it"),
    ('{glyph: "x", font: fancy}', "icon 'coin': unknown font 'fancy'; use one of mono, mono-bold"),
])
def test_a_bad_icon_is_located_at_its_entry(tmp_path, icon, message):
    deck = DECK.replace("{image: ../art/coin.png}", icon)
    path = project(tmp_path / "game", deck)
    with pytest.raises(DeckError) as err:
        load_deck(path)
    (problem,) = err.value.problems
    assert problem.where.line == lines_of(deck, "  coin:") and message in problem.message


def test_a_bad_icon_of_the_template_docs_is_located_on_their_page(tmp_path):
    """docs/templates.md's examples draw with the icons of its deck block; a mistake there is found on the
    page, like one in an example."""
    text = pictures.PAGE.read_text(encoding="utf-8").replace("coin: {image: ../art/coin.png}", "coin: {image: ../art/none.png}", 1)
    line = lines_of(text, "../art/none.png")
    with pytest.raises(DeckError) as err:
        pictures.draw(pictures.read_page(text), tmp_path / "project")
    assert [(p.where.path, p.where.line) for p in err.value.problems] == [(str(pictures.PAGE), line)]
    assert "icon image '../art/none.png' not found" in str(err.value)


@pytest.mark.parametrize("icon, valid", [
    ('{glyph: "★", color: "#00c000"}', True), ("{image: ../art/coin.png}", True),
    ('{glyph: "★", image: ../art/coin.png}', False), ("{font: sans}", False), ('{glyph: "★", size: 3}', False),
])
def test_the_editor_schema_agrees_on_icons(tmp_path, icon, valid):
    deck = DECK.replace("{image: ../art/coin.png}", icon)
    errors = list(jsonschema.Draft202012Validator(json_schema()).iter_errors(load_12(deck)))
    assert (not errors) == valid
    if valid:
        load_deck(project(tmp_path, deck))
    else:
        with pytest.raises(DeckError):
            load_deck(project(tmp_path, deck))


def test_an_icon_name_is_a_word(tmp_path):
    deck = DECK.replace("  coin: {image", "  Coin 2: {image")
    with pytest.raises(DeckError, match="'Coin 2' is not valid here; use lower-case letters"):
        load_deck(project(tmp_path, deck))


# --- the build: PDF rules pages, TTS notebook and descriptions --------------------------------------

@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("rich-build")
    project(root)
    result = run_cli("build", "rich", "--out", "out", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    return root / "out" / "rich"


def test_the_rules_pages_set_the_markup_in_bold_oblique_and_icons(built):
    reader = pypdf.PdfReader(built / "print" / "rich-a4.pdf")
    page = next(p for p in reader.pages if "Goal" in p.extract_text())
    text = " ".join(page.extract_text().split())
    assert "Be the first to play every card ★ and take a" in text and "*" not in text and ":coin:" not in text
    runs = {}  # each piece of text shown, with its font and size

    def visit(piece, cm, tm, font, size):
        if piece.strip():
            runs.setdefault(piece.strip(), (str(font["/BaseFont"]).split("+")[1], size))

    page.extract_text(visitor_text=visit)
    body = runs["to play"][1]
    assert runs["Be the"] == runs["to play"] == ("DejaVuSans", body)
    assert runs["first"] == ("DejaVuSans-Bold", body) and runs["every"] == ("DejaVuSans-Oblique", body)
    assert runs["Ace"][0] == "DejaVuSans-Bold"  # the table cell's markup
    assert runs["★"][0] == "DejaVuSans" and runs["★"][1] > body * 1.1  # its ink an em across
    images = [x.get_object() for x in page["/Resources"]["/XObject"].values()]
    assert any((x["/Width"], x["/Height"]) == (50, 50) for x in images)  # the coin, twice on the page


def test_the_notebook_and_descriptions_are_bbcode(built):
    save = json.loads((built / "tts" / "rich.json").read_text(encoding="utf-8"))
    body = save["TabStates"]["0"]["body"]
    assert body.startswith("Be the [b]first[/b] to play [i]every[/i] card [00c000]★[-] and take a coin.")
    assert "[b]Cards | Points[/b]\n[b]Ace[/b] | 1 coin" in body
    deck = next(o for o in save["ObjectStates"] if o["Name"] == "DeckCustom")
    descriptions = {c["Nickname"]: c["Description"] for c in deck["ContainedObjects"]}
    assert descriptions == {"Plain": "Discard a card.",
                            "Marked": "[b]Discard[/b] a card, [i]then[/i] gain a [00c000]★[-] and 2coin."}


def test_a_changed_icon_redraws_the_faces_that_show_it(tmp_path):
    path = project(tmp_path, DECK.replace("print: {profiles: [a4]}", "print: {profiles: []}"))
    assert run_cli("build", "rich", "--out", "out", "--quiet", cwd=tmp_path).exit_code == 0
    marked = tmp_path / "out" / "rich" / "faces" / "deck" / "marked.png"
    first = marked.read_bytes()
    Image.new("RGB", (50, 50), (0, 0, 255)).save(tmp_path / "art" / "coin.png")
    assert run_cli("build", "rich", "--out", "out", "--quiet", cwd=tmp_path).exit_code == 0
    second = marked.read_bytes()
    assert second != first
    path.write_text(path.read_text(encoding="utf-8").replace("#00c000", "#c00000"), encoding="utf-8")
    assert run_cli("build", "rich", "--out", "out", "--quiet", cwd=tmp_path).exit_code == 0
    assert marked.read_bytes() != second


def test_ampersands_and_angle_brackets_in_the_rules_are_printed_as_written(built):
    """Rules text reaches reportlab's paragraph markup escaped, plain or styled: `&`, `<` and `>` and a tag
    written in the rules are printed, not read as markup."""
    reader = pypdf.PdfReader(built / "print" / "rich-a4.pdf")
    text = " ".join(next(p for p in reader.pages if "Signs" in p.extract_text()).extract_text().split())
    assert "Ties & draws: 2 < 3 > 1, <b>as written</b>." in text and "A & B < C stay as written." in text


def test_a_span_keeps_its_colour_size_and_font_on_the_rules_pages_and_its_colour_in_tts(built):
    reader = pypdf.PdfReader(built / "print" / "rich-a4.pdf")
    page = next(p for p in reader.pages if "Spans" in p.extract_text())
    runs = {}

    def visit(piece, cm, tm, font, size):
        if piece.strip():
            runs.setdefault(piece.strip(), (str(font["/BaseFont"]).split("+")[1], size))

    page.extract_text(visitor_text=visit)
    body = runs["Score"][1]
    assert runs["3 points"] == ("DejaVuSans", body * 1.5) and runs["a title"] == ("DejaVuSerif", body)
    content = page.get_contents().get_data().decode("latin1")  # #d62828 set just before the span's words
    assert ".839216 .156863 .156863 rg" in content[content.index("(Score )"):content.index("(3 points)")]
    save = json.loads((built / "tts" / "rich.json").read_text(encoding="utf-8"))
    assert any(tab["body"] == "Score [d62828]3 points[-] in a title." for tab in save["TabStates"].values())


def test_text_between_marks_is_read_a_run_at_a_time():
    """The reading of a text goes from mark to mark (a deck's read parses every rules text and description,
    each face every text it draws), the same spans as a character at a time."""
    from deckpress.markup import _tokens

    assert _tokens("Score 2 points, then play again.", {"star"}) == ["Score 2 points, then play again."]
    assert [t for t in _tokens("a :star: b: [red]{color=#d62828} c\\*", {"star"}) if isinstance(t, str)] == \
        ["a ", " b", ":", " ", "red", " c", "*"]
    assert parse("a :star: b: [red]{color=#d62828} **c**", {"star"}) == [
        Run("a "), IconRef("star"), Run(" b: "), Run("red", color="#d62828"), Run(" "), Run("c", bold=True)]
