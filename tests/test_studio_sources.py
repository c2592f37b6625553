"""studio.sources.card_sources: for each card, where it and each of its fields were written (the deck's line,
a CSV or XLSX cell, a component's default) and, for each face, the file the build wrote and where each element
is laid out on it, checked against the real files: the lines they name, the rows, the build's PNGs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from PIL import Image, ImageChops, ImageDraw

from conftest import ROOT, run_cli
from deckpress.deck import load_deck
from deckpress.studio.sources import card_sources

DECK = """\
game: {name: Rows, players: {min: 2, max: 4}}
components:
  - id: deck
    name: Deck
    template: card
    fields:
      value: {type: integer, doc: The value.}
      text: {doc: Rules text., default: "Nothing happens."}
    cards:
      - name: From YAML
        value: 9
    cards_from: cards.%s
print: {profiles: []}
"""
# A white face: a text element in a box of its own, and a red mark turned about the card's centre.
TEMPLATE = """\
elements:
  - {type: rect, name: background, box: bleed, fill: "#ffffff"}
  - type: text
    x: 8
    y: 30
    w: 40
    h: 14
    text: "{{ card.text }}"
    size: 12
    min_size: 6
  - {type: rect, name: mark, x: 6, y: 6, w: 10, h: 5, rotate: 180, fill: "#ff0000"}
"""
ROWS = [["name", "value", "text"], ["Knight", 5, "Moves, then jumps."], ["Queen", 7, ""]]


def line_at(where: str, root: Path = ROOT) -> tuple[str, int]:
    """The line a `file:line:col` place names, and its column."""
    file, line, col = where.rsplit(":", 2)
    return (root / file).read_text(encoding="utf-8").splitlines()[int(line) - 1], int(col)


@pytest.fixture(scope="module")
def score():
    return card_sources(load_deck(ROOT / "decks" / "score.yaml"))


def test_every_card_of_the_deck_in_its_order_as_json(score):
    deck = load_deck(ROOT / "decks" / "score.yaml")
    expected = [(c.id, card.id, card.name, card.count) for c in deck.model.components for card in c.cards]
    assert [(s["component"], s["card"], s["name"], s["count"]) for s in score] == expected
    assert json.loads(json.dumps(score)) == score


def test_a_cards_where_is_the_line_of_its_entry(score):
    for card in score:
        line, col = line_at(card["where"])
        assert card["where"].startswith("decks/score.yaml:")
        assert line[col - 1:].startswith(("name:", "each:")), card["where"]
    double = next(card for card in score if card["name"] == "Double!")
    line, col = line_at(double["where"])
    assert line[col - 1:] == "name: Double!"


def test_each_field_is_where_its_value_was_written_or_defaulted(score):
    double = next(card for card in score if card["name"] == "Double!")
    fields = {f["name"]: f for f in double["fields"]}
    assert list(fields) == ["id", "name", "count", "kind", "value", "priority", "target", "effect", "text"]
    assert fields["text"]["value"] == "Target a player or yourself. The target's score doubles."
    for name in ("count", "kind", "priority", "text"):
        line, col = line_at(fields[name]["where"])
        assert line[:col - 1].strip() == f"{name}:" and line[col - 1:] == str(fields[name]["value"])
    assert fields["id"]["where"] == fields["name"]["where"]  # the name it is made from
    line, col = line_at(fields["value"]["where"])  # left out: the component's default
    assert (line[:col - 1].rstrip().endswith("default:"), line[col - 1:].startswith("0,")) == (True, True)
    assert "value:" in line and fields["value"]["value"] == 0


def test_the_faces_are_the_files_the_build_wrote_at_their_size(score, built):
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    printed = {(c["component"], c["card"]): (c["front"], c["back"]) for c in manifest["cards"]}
    for card in score:
        faces = card["faces"]
        back = faces["back"]["file"] if faces["back"] else None
        if card["count"]:
            assert (faces["front"]["file"], back) == printed[(card["component"], card["card"])]
        for face in filter(None, faces.values()):
            with Image.open(built / face["file"]) as image:
                assert list(image.size) == face["size"]
    assert score[0]["faces"]["front"]["template"] == "templates/score-card.yaml"
    assert score[0]["faces"]["back"]["template"] == "templates/score-back.yaml"


def test_each_element_is_at_its_template_line_with_its_box_on_the_face(score):
    face = next(card for card in score if card["name"] == "Double!")["faces"]["front"]
    labels = [e["label"] for e in face["elements"]]
    assert "symbol" in labels and "value" not in labels  # Double!'s value is 0: its `when` draws the symbol
    assert next(e for e in face["elements"] if e["label"] == "effect")["reads"] == ["text"]
    assert next(e for e in face["elements"] if e["label"] == "title")["reads"] == ["name"]
    for element in face["elements"]:
        line, col = line_at(element["where"])
        after = "\n".join([line[col - 1:], *(ROOT / face["template"]).read_text().splitlines()[
            int(element["where"].split(":")[1]):int(element["where"].split(":")[1]) + 2]])
        assert f"type: {element['type']}" in line and f"name: {element['label']}" in after, element
        x, y, w, h = element["box"]
        assert 0 <= x and 0 <= y and x + w <= face["size"][0] and y + h <= face["size"][1], element


def test_a_text_elements_box_on_scores_face_holds_its_letters(score, built):
    """Double!'s rules text, on the card's cream panel: letters inside its box, and only the panel's colour
    in a band 10 px wide around it (but for the other elements' boxes; the panel's rounded corners
    are further)."""
    face = next(card for card in score if card["name"] == "Double!")["faces"]["front"]
    effect = next(e for e in face["elements"] if e["label"] == "effect")
    with Image.open(built / face["file"]) as image:
        image = image.convert("RGB")
    panel = Image.new("RGB", image.size, (0xff, 0xfd, 0xf6))
    differs = ImageChops.difference(image, panel).convert("L").point(lambda v: 255 if v > 24 else 0)
    x0, y0, x1, y1 = corners(effect["box"])
    band = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(band)
    draw.rectangle((x0 - 10, y0 - 10, x1 + 9, y1 + 9), fill=255)
    for element in face["elements"]:
        if element["label"] not in ("background", "panel"):
            x, y, w, h = element["box"]
            draw.rectangle((x, y, x + w - 1, y + h - 1), fill=0)
    assert differs.crop(corners(effect["box"])).histogram()[255] > 1000
    assert ImageChops.multiply(differs, band).histogram()[255] == 0


def make_project(root: Path, kind: str) -> Path:
    (root / "decks").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "templates" / "card.yaml").write_text(TEMPLATE, encoding="utf-8")
    (root / "decks" / "rows.yaml").write_text(DECK % kind, encoding="utf-8")
    if kind == "csv":
        text = "\n".join(",".join(f'"{c}"' if "," in str(c) else str(c) for c in row) for row in ROWS)
        (root / "decks" / "cards.csv").write_text(text + "\n", encoding="utf-8")
    else:
        book = openpyxl.Workbook()
        for row in ROWS:
            book.active.append([None if c == "" else c for c in row])
        book.save(root / "decks" / "cards.xlsx")
    return root / "decks" / "rows.yaml"


def cell(root: Path, where: str, kind: str):
    """The value in the spreadsheet cell `where` names (`decks/cards.csv:3:2`)."""
    file, row, column = where.rsplit(":", 2)
    if kind == "csv":
        rows = list(csv.reader((root / file).read_text(encoding="utf-8").splitlines()))
        return rows[int(row) - 1][int(column) - 1]
    book = openpyxl.load_workbook(root / file)
    return book.active.cell(int(row), int(column)).value


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_spreadsheets_cards_are_its_rows_and_their_fields_its_cells(tmp_path, kind):
    cards = {c["name"]: c for c in card_sources(load_deck(make_project(tmp_path, kind)))}
    assert list(cards) == ["From YAML", "Knight", "Queen"]
    assert cards["Knight"]["where"] == f"decks/cards.{kind}:2" and cards["Queen"]["where"] == f"decks/cards.{kind}:3"
    knight = {f["name"]: f for f in cards["Knight"]["fields"]}
    for name in ("name", "value", "text"):
        assert knight[name]["where"].startswith(f"decks/cards.{kind}:2:")
        assert str(cell(tmp_path, knight[name]["where"], kind)) == str(knight[name]["value"])
    queen = {f["name"]: f for f in cards["Queen"]["fields"]}
    line, col = line_at(queen["text"]["where"], tmp_path)  # its empty cell: the component's default
    assert queen["text"]["value"] == "Nothing happens." and line[col - 1:].startswith('"Nothing happens."')
    line, col = line_at(cards["From YAML"]["where"], tmp_path)
    assert line[col - 1:] == "name: From YAML"


def test_a_text_in_several_languages_is_where_the_deck_language_s_is(tmp_path):
    deck_path = make_project(tmp_path, "csv")
    deck_path.write_text((DECK % "csv").replace("game: {name: Rows,", "game: {name: Rows, languages: [en, fr],")
                         .replace("      - name: From YAML\n", "      - name:\n          en: From YAML\n"
                                  "          fr: Du YAML\n        id: from-yaml\n"), encoding="utf-8")
    for lang, text in [("en", "From YAML"), ("fr", "Du YAML")]:
        card = card_sources(load_deck(deck_path, lang))[0]
        name = next(f for f in card["fields"] if f["name"] == "name")
        line, col = line_at(name["where"], tmp_path)
        assert name["value"] == text and line[:col - 1].strip() == f"{lang}:" and line[col - 1:] == text


def test_a_published_sheets_rows_are_named_as_its_messages_name_them(tmp_path):
    deck_path = make_project(tmp_path, "csv")
    deck_path.write_text(DECK.replace("cards.%s", "{sheet: 'https://example.com/pub?output=csv', name: Units}"),
                         encoding="utf-8")
    (tmp_path / "data" / "rows").mkdir(parents=True)
    (tmp_path / "decks" / "cards.csv").rename(tmp_path / "data" / "rows" / "deck.csv")
    knight = next(c for c in card_sources(load_deck(deck_path)) if c["name"] == "Knight")
    assert knight["where"] == "data/rows/deck.csv, sheet Units, row 2"
    value = next(f for f in knight["fields"] if f["name"] == "value")
    assert value["where"] == "data/rows/deck.csv, sheet Units, row 2, column value"


def ink(image: Image.Image, box: list[int]) -> tuple[int, int]:
    """How many pixels of `image` are not white inside `box` (x, y, w, h), and outside it."""
    pixels = image.convert("L").point(lambda v: 255 if v < 250 else 0)
    x, y, w, h = box
    inside = pixels.crop((x, y, x + w, y + h)).histogram()[255]
    return inside, pixels.histogram()[255] - inside


def corners(box: list[int]) -> tuple[int, int, int, int]:
    x, y, w, h = box
    return x, y, x + w, y + h


def test_an_elements_box_holds_what_was_drawn_of_it(tmp_path):
    deck_path = make_project(tmp_path, "csv")
    result = run_cli("build", "rows", "--out", str(tmp_path / "out"), "--quiet", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    knight = next(c for c in card_sources(load_deck(deck_path)) if c["name"] == "Knight")
    face = knight["faces"]["front"]
    text, mark = face["elements"][1], face["elements"][2]
    assert (text["label"], text["reads"], text["where"]) == ("text text", ["text"], "templates/card.yaml:3:5")
    with Image.open(tmp_path / "out" / "rows" / face["file"]) as image:
        image = image.convert("RGB")
    assert list(image.size) == face["size"]
    red, green, _ = image.split()
    reds = ImageChops.subtract(red, green).point(lambda v: 255 if v > 128 else 0)
    x0, y0, x1, y1 = corners(mark["box"])
    drawn = reds.getbbox()  # turned, the mark is where its box says: all of it, filling the box but an edge
    assert x0 <= drawn[0] and y0 <= drawn[1] and drawn[2] <= x1 and drawn[3] <= y1, (drawn, mark["box"])
    assert reds.histogram()[255] >= 0.95 * mark["box"][2] * mark["box"][3]
    assert x0 > face["size"][0] / 2 and y0 > face["size"][1] / 2
    image.paste((255, 255, 255), corners(mark["box"]))
    inside, outside = ink(image, text["box"])
    assert inside > 500 and outside == 0  # the text's letters, all in its box


@pytest.mark.parametrize("game", ["scoop", "scout", "skorch"])
def test_every_shipped_decks_places_are_lines_of_its_files_and_its_boxes_on_its_faces(game):
    """Tokens, families, `each` elements: every place named is a line of a file of the project, every box on
    its face; a token without a back shows its front on both sides."""
    deck = load_deck(ROOT / "decks" / f"{game}.yaml")
    cards = card_sources(deck)
    assert len(cards) == sum(len(c.cards) for c in deck.model.components)
    for card in cards:
        places = [card["where"], *(f["where"] for f in card["fields"])]
        for face in filter(None, card["faces"].values()):
            places += [e["where"] for e in face["elements"]]
            for element in face["elements"]:
                x, y, w, h = element["box"]
                assert 0 <= x and 0 <= y and x + w <= face["size"][0] and y + h <= face["size"][1], element
        for where in places:
            assert not where.startswith("/") and line_at(where)[0].strip(), where
        component = next(c for c in deck.model.components if c.id == card["component"])
        if component.type == "tokens" and component.back is None:
            assert card["faces"]["back"] == card["faces"]["front"]
