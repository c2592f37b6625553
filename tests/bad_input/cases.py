"""The bad-input corpus: one row per mistake a user (or an attacker) can make, run by test_bad_input.py.

A row is `Case(id, change, expect)`: `change` is one edit or a list of them (`edit` replaces text that
occurs once in a file of the tiny project, `write` writes a whole file), `expect` a piece of the one
error line. The line must name `where` (default: the file and line of the first edit; `line=None` for
a file-level line). `bomb=True` runs the case in a subprocess limited to 1 GB of address space; `args`
are the command's arguments (default `build tiny`), and `status` its exit status (default 1).

To add a case, add a row; the categories follow issue 9.
"""

from __future__ import annotations

import base64
import gzip
import io
import struct
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from PIL.ImageCms import ImageCmsProfile, createProfile

from bad_input.project import FILES

DECK, CARD, PROFILE = "decks/tiny.yaml", "templates/tiny-card.yaml", "print/tiny.yaml"


@dataclass(frozen=True)
class Edit:
    file: str
    old: str | None  # None: write `new` as the whole file
    new: str | bytes | Callable[[], bytes]  # a callable: a large file, made only when the case runs

    def line(self) -> int:
        if self.old is None:
            return 1
        text = FILES[self.file]
        assert text.count(self.old) == 1, f"{self.old!r} must occur once in {self.file}"
        return text[: text.index(self.old)].count("\n") + 1


def edit(file: str, old: str, new: str | bytes) -> Edit:
    return Edit(file, old, new)


def write(file: str, new: str | bytes | Callable[[], bytes]) -> Edit:
    return Edit(file, None, new)


UNSET = object()


@dataclass(frozen=True)
class Case:
    id: str
    change: Edit | list[Edit]
    expect: str
    line: int | None | object = UNSET  # UNSET: the line of the first edit; None: a file-level line
    file: str | None = None  # default: the file of the first edit
    bomb: bool = False
    args: tuple[str, ...] = ("build", "tiny", "--quiet")
    status: int = 1
    edits: list[Edit] = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "edits", self.change if isinstance(self.change, list) else [self.change])

    def where(self) -> tuple[str, int | None]:
        if not self.edits:  # a command's mistake, in no file of the project: `file` and `line` say where
            return self.file, self.line
        first = self.edits[0]
        line = first.line() if self.line is UNSET else self.line
        return (self.file or first.file), line


def png_header(width: int, height: int) -> bytes:
    """A PNG file that claims `width` x `height` pixels (its data is one empty row; Pillow checks the
    size from the header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0")) + chunk(b"IEND", b"")


def _element(extra: str) -> Edit:
    """Lines added after the last key of the card template's title element: more keys of it, or a new
    element after it (lines starting `  - `)."""
    return edit(CARD, "    color: \"{{ style.ink }}\"\n", "    color: \"{{ style.ink }}\"\n" + extra)


def _text(expr: str) -> Edit:
    """The card template's title text replaced by `expr` (written in double quotes)."""
    return edit(CARD, 'text: "{{ card.name }}"', f'text: "{expr}"')


def _svg(name: str, content: str | bytes) -> list[Edit]:
    """decks/art/NAME written with `content` and drawn by an image element after the title."""
    return [write(f"decks/art/{name}", content),
            _element(f"  - {{type: image, name: art, src: art/{name}, x: 5, y: 20, w: 20, h: 20}}\n")]


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9">'
SVG_USES = "<defs><rect id=\"u0\" width=\"1\" height=\"1\"/>" + "".join(
    f'<g id="u{i + 1}">' + f'<use xlink:href="#u{i}"/>' * 10 + "</g>" for i in range(9)) + \
    '</defs><use xlink:href="#u9"/>'
SVG_ENTITIES = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">' + "".join(
    f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9)) + "]>"

NAME = "  name: Tiny\n"
LAUGHS = "lol: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"lol{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, "
    f"*a{i - 1}, *a{i - 1}]\n" for i in range(1, 9))

def _sheet(rows: str) -> list[Edit]:
    """The chips read from decks/chips.csv (header `name,count,weight,marks`, then `rows`)."""
    return [write("decks/chips.csv", "name,count,weight,marks\n" + rows),
            edit(DECK, "    cards:\n      - name: Chip\n        count: 3",
                 "    fields:\n      weight: {type: number, doc: W., default: 1}\n"
                 "      marks: {type: list, doc: M., default: []}\n    cards_from: chips.csv")]


def _published(url: str) -> list[Edit]:
    """The chips read from the published sheet at `url`, named Chips."""
    return [edit(DECK, "    cards:\n      - name: Chip\n        count: 3", f"    cards_from: {{sheet: {url}, name: Chips}}")]


SHEET = "decks/chips.csv"
BOOK = "decks/chips.xlsx"


def _xlsx(rows: dict[int, list[str | int]], dimension: str = "A1:B2", padding: int = 0) -> bytes:
    """The smallest XLSX workbook openpyxl reads: one sheet whose `<dimension>` claims `dimension`, holding
    `rows` (row number: the values of its cells from column A on; `(column, value)` for a cell placed in a
    given column such as XFD; a float is written in a date's style), then `padding` spaces."""
    def cell(ref: str, value) -> str:
        if isinstance(value, float):
            return f'<c r="{ref}" s="1"><v>{value}</v></c>'  # a number in a date's style
        return (f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>' if isinstance(value, str) else
                f'<c r="{ref}"><v>{value}</v></c>')
    data = "".join(f'<row r="{n}">' + "".join(
        cell(f"{v[0]}{n}", v[1]) if isinstance(v, tuple) else cell(f"{chr(65 + i)}{n}", v)
        for i, v in enumerate(values)) + "</row>" for n, values in rows.items())
    main = "http://schemas.openxmlformats.org/"
    rel = f'<Relationship Id="rId1" Type="{main}officeDocument/2006/relationships/'
    parts = {
        "[Content_Types].xml": f'<Types xmlns="{main}package/2006/content-types"><Default Extension="rels" '
        f'ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override '
        f'PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
        f'sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
        f'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{main}package/2006/relationships">{rel}officeDocument" '
                       'Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}spreadsheetml/2006/main" xmlns:r="{main}officeDocument/2006/'
                           'relationships"><sheets><sheet name="Cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{main}package/2006/relationships">{rel}worksheet" '
                                      'Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": f'<worksheet xmlns="{main}spreadsheetml/2006/main"><dimension '
                                    f'ref="{dimension}"/><sheetData>{data}</sheetData></worksheet>' + " " * padding,
        # Style 1 is a date: a number in a cell of that style is read as one (what column B's "1e20" is
        # not, to openpyxl's warning).
        "xl/styles.xml": f'<styleSheet xmlns="{main}spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/>'
                         '<xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as book:
        for name, text in parts.items():
            book.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), text, zipfile.ZIP_DEFLATED, 1)
    return out.getvalue()


def _book(rows: dict[int, list], dimension: str = "A1:B2") -> list[Edit]:
    """The chips read from decks/chips.xlsx (see `_xlsx`)."""
    return [write(BOOK, _xlsx(rows, dimension)),
            edit(DECK, "    cards:\n      - name: Chip\n        count: 3", "    cards_from: chips.xlsx")]
FLOW_LAUGHS = "[&a0 [x, x, x, x, x, x, x, x, x, x], " + ", ".join(
    f"&a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)) + "]"

GAME = "tts/tiny/game.yaml"  # the records file of a scripted game of the project's own
OPTIONS = "  options: {hand: 3}\n"
PLAYS_TINY = edit(DECK, OPTIONS, OPTIONS + "script: tiny\n")  # the deck names it: `script: tiny`
TINY_RECORDS = ("setup: TinySetup\nmodes: TinyMode\nrecords:\n  TinySetup:\n    doc: Setup.\n    keys:\n"
                "      hand: {type: integer, min: 1, max: 2, doc: Cards in hand.}\n"
                "  TinyMode:\n    doc: A mode.\n    keys:\n      target: {type: integer, doc: Points.}\n")

CASES: list[Case] = [
    # --- scripted games: the game a deck names, its records file (issue 22) ----------------------------
    Case("script-nowhere", edit(DECK, OPTIONS, OPTIONS + "script: nowhere\n"), "no scripted game 'nowhere'",
         line=FILES[DECK][:FILES[DECK].index(OPTIONS)].count("\n") + 2),
    Case("records-not-a-mapping", [write(GAME, "- records\n"), PLAYS_TINY], "a records file is a mapping"),
    Case("records-bad-yaml", [write(GAME, "records: {TinySetup: [\n"), PLAYS_TINY], "YAML syntax error", line=2),
    Case("records-unknown-type", [write(GAME, TINY_RECORDS.replace("type: integer, min", "type: integr, min")),
                                  PLAYS_TINY], "unknown type 'integr'; did you mean 'integer'?", line=7),
    Case("records-unknown-record", [write(GAME, TINY_RECORDS.replace("setup: TinySetup", "setup: TinySetp")),
                                    PLAYS_TINY], "unknown record 'TinySetp'; did you mean 'TinySetup'?"),
    Case("records-misspelt-key", [write(GAME, TINY_RECORDS.replace("min: 1, max", "mni: 1, max")), PLAYS_TINY],
         "unknown key 'mni' in FieldDecl; did you mean 'min'?", line=7),
    Case("records-min-on-text", [write(GAME, TINY_RECORDS.replace("type: integer, min", "type: text, min")),
                                 PLAYS_TINY], "`min` and `max` bound an integer, a number or a list", line=7),
    Case("engine-without-contract", [write("tts/tiny/engine.lua", "local E = {}\nfunction E.setup() end\n"
                                          "function E.play() end\nreturn E\n"), PLAYS_TINY],
         "the engine has no to_act, legal_moves, scores, all_ids", line=4),
    Case("records-python-syntax", [write("tts/tiny/checks.py", "def hand(record, ctx:\n"),
                                   write(GAME, "python: checks.py\n" + TINY_RECORDS), PLAYS_TINY],
         "'(' was never closed"),
    Case("records-python-check-fails", [write("tts/tiny/checks.py", "def hand(record, ctx):\n    return 1 / 0\n"),
                                        write(GAME, "python: checks.py\n" + TINY_RECORDS.replace(
                                            "    doc: Setup.\n", "    doc: Setup.\n    check: hand\n").replace(
                                            "max: 2", "max: 5")),
                                        PLAYS_TINY], "the game's check 'hand' fails: ZeroDivisionError", line=None),
    Case("records-option-too-large", [write(GAME, TINY_RECORDS), PLAYS_TINY], "hand: 3 is too large", file=DECK,
         line=FILES[DECK][:FILES[DECK].index(OPTIONS)].count("\n") + 1),
    # --- the game in a box (issue 26) -------------------------------------------------------------------
    Case("box-name-taken", [write(DECK, FILES[DECK].replace("  - id: chips", "  - id: tiny-box").replace(
                                OPTIONS, OPTIONS + "script: tiny\n")), write("tts/tiny/table.lua", "return {}\n")],
         "the component id 'tiny-box' is the name of the game's box",
         line=FILES[DECK][:FILES[DECK].index("  - id: chips")].count("\n") + 1),
    # --- 5. YAML: tags --------------------------------------------------------------------------------
    Case("tag-python-apply-on-list", edit(DECK, "profiles: [tiny]",
                                          "profiles: !!python/object/apply:os.system [echo pwned]"), "YAML tag"),
    Case("tag-python-apply-on-map", edit(DECK, "  options: {hand: 3}",
                                         "  options: !!python/object/apply:os.system {args: [echo]}"), "YAML tag"),
    Case("tag-python-name", edit(DECK, "  author: Tester", "  author: !!python/name:os.system"), "YAML tag"),
    Case("tag-python-object-new", edit(DECK, "  author: Tester", "  author: !!python/object/new:str [x]"),
         "YAML tag"),
    Case("tag-binary", edit(DECK, "  author: Tester", "  author: !!binary aGVsbG8="), "YAML tag"),
    Case("tag-set", edit(DECK, "  options: {hand: 3}", "  options: !!set {a, b}"), "YAML tag"),
    Case("tag-omap", edit(DECK, "  options: {hand: 3}", "  options: !!omap [a: 1]"), "YAML tag"),
    Case("tag-local", edit(DECK, "  author: Tester", "  author: !secret Tester"), "YAML tag"),
    Case("tag-verbatim", edit(DECK, "  author: Tester", "  author: !<tag:example.com,2000:x> Tester"), "YAML tag"),
    Case("tag-str-explicit", edit(DECK, "  author: Tester", "  author: !!str Tester"), "YAML tag"),
    Case("tag-in-template", edit(CARD, "    x: 5\n", "    x: !!python/object/apply:os.getcwd []\n"), "YAML tag"),
    Case("tag-in-profile", edit(PROFILE, "margin: 5", "margin: !!float 5"), "YAML tag"),
    Case("tag-on-document", write(DECK, "--- !!python/object/apply:os.system\n- echo\n"), "YAML tag"),
    # --- 5. YAML: characters and encodings ----------------------------------------------------------
    Case("nul-byte", edit(DECK, "  author: Tester", "  author: Tes\0ter"), "U+0000"),
    Case("control-bell", edit(DECK, "  author: Tester", "  author: Tes\x07ter"), "U+0007"),
    Case("control-escape", edit(DECK, "  author: Tester", "  author: \x1b[31mTester"), "U+001B"),
    Case("control-del", edit(DECK, "  author: Tester", "  author: Test\x7fer"), "U+007F"),
    Case("control-c1", edit(DECK, "  author: Tester", "  author: Test\x9ber"), "U+009B"),
    Case("control-nel", edit(DECK, "  author: Tester", "  author: Test\x85er"), "U+0085"),
    Case("line-separator", edit(DECK, "  author: Tester", "  author: Test\u2028er"), "U+2028"),
    Case("control-in-template", edit(CARD, "    x: 5\n", "    x: 5\x0c\n"), "U+000C"),
    Case("escaped-nul", edit(DECK, "  author: Tester", '  author: "Tes\\0ter"'), "U+0000"),
    Case("escaped-x00", edit(DECK, "  name: Tiny\n", '  name: "Ti\\x00ny"\n'), "U+0000"),
    Case("escaped-escape", edit(DECK, "  name: Tiny\n", '  name: "\\e[31mTiny"\n'), "U+001B"),
    Case("escaped-bell-u", edit(DECK, "      - name: Two", '      - name: "T\\u0007wo"'), "U+0007"),
    Case("escaped-carriage-return", edit(DECK, "  author: Tester", '  author: "Tes\\rter"'), "U+000D"),
    Case("escaped-tab-in-name", edit(DECK, "      - name: Two", '      - name: "T\\two"'), "a tab"),
    Case("quoted-tab-in-rule", edit(DECK, "      - Play a card.", '      - "Play\ta card."'), "a tab"),
    Case("escaped-surrogate", edit(DECK, "  author: Tester", '  author: "\\ud800"'), "U+D800"),
    Case("escaped-bom-in-text", edit(DECK, "  author: Tester", '  author: "\\ufeffTester"'), "U+FEFF"),
    Case("bom-at-start", write(DECK, "\ufeff" + FILES[DECK]), "byte-order mark"),
    Case("bom-in-middle", edit(DECK, "  author: Tester", "  author: \ufeffTester"), "byte-order mark"),
    Case("latin1-byte", edit(DECK, "  author: Tester", b"  author: Ren\xe9"), "not UTF-8"),
    Case("invalid-start-byte", write(DECK, b"\xff\xfe" + FILES[DECK].encode()), "0xff is not UTF-8"),
    Case("utf16-file", write(DECK, FILES[DECK].encode("utf-16")), "not UTF-8"),
    Case("truncated-utf8", edit(DECK, "  author: Tester", b"  author: Tester\xd0"), "not UTF-8"),
    Case("latin1-in-template", edit(CARD, "description: The front", b"description: Th\xe9 front"), "not UTF-8"),
    Case("latin1-in-profile", edit(PROFILE, "description: A4", b"description: A4 \xa9"), "not UTF-8"),
    # --- 5. YAML: keys, merges, documents, structure ------------------------------------------------
    Case("duplicate-top-key", edit(DECK, "card_size: mini\n", "card_size: mini\ncard_size: poker\n"),
         "duplicate key 'card_size'", line=7),
    Case("duplicate-nested-key", edit(DECK, "  version: \"1.0\"\n", "  version: \"1.0\"\n  version: \"2.0\"\n"),
         "duplicate key 'version'", line=4),
    Case("duplicate-card-field", edit(DECK, "        value: 1\n", "        value: 1\n        value: 3\n"),
         "duplicate key 'value'", line=19),
    Case("duplicate-flow-key", edit(DECK, "{min: 2, max: 4}", "{min: 2, max: 4, min: 3}"), "duplicate key 'min'"),
    Case("duplicate-template-key", edit(CARD, "    x: 5\n", "    x: 5\n    x: 6\n"), "duplicate key 'x'", line=11),
    Case("duplicate-profile-key", edit(PROFILE, "margin: 5\n", "margin: 5\nmargin: 6\n"), "duplicate key 'margin'",
         line=5),
    Case("merge-key", edit(DECK, "  players: {min: 2, max: 4}", "  players: &p {min: 2, max: 4}\n  <<: *p"),
         "merge keys", line=5),
    Case("merge-key-in-template", edit(CARD, "    x: 5\n", "    <<: {x: 5}\n"), "merge keys"),
    Case("second-document", write(DECK, FILES[DECK] + "---\ngame: {}\n"), "second YAML document", line=None),
    Case("deck-is-a-list", write(DECK, "- game\n- components\n"), "a deck file is a mapping"),
    Case("deck-is-a-scalar", write(DECK, "just text\n"), "a deck file is a mapping"),
    Case("template-is-a-list", write(CARD, "- type: rect\n"), "a template file is a mapping"),
    Case("template-is-a-scalar", write(CARD, "rect\n"), "a template file is a mapping"),
    Case("profile-is-a-list", write(PROFILE, "- a4\n"), "a print profile is a mapping"),
    Case("complex-key", edit(DECK, "  author: Tester", "  ? [a, b]\n  : Tester"), "a key must be a plain value"),
    Case("deep-nesting", edit(DECK, "  options: {hand: 3}", "  options: " + "[" * 60 + "]" * 60),
         "nested more than 50 levels", bomb=True),
    Case("huge-integer-literal", edit(DECK, "        count: 2", "        count: " + "9" * 5000), "not a value"),
    Case("yaml-syntax-bracket", edit(DECK, "profiles: [tiny]", "profiles: [tiny"), "YAML syntax error", line=None),
    Case("yaml-syntax-indent", edit(DECK, "  version: \"1.0\"", "   version: \"1.0\""), "YAML syntax error",
         line=None),
    Case("yaml-tab-indent", edit(DECK, "  author: Tester", "\tauthor: Tester"), "not tabs"),
    Case("yaml-unclosed-quote", edit(DECK, "  author: Tester", "  author: \"Tester"), "YAML syntax error",
         line=None),
    Case("unknown-alias", edit(DECK, "  author: Tester", "  author: *nowhere"), "YAML syntax error"),
    # --- 3. Bounded resources: YAML ------------------------------------------------------------------
    Case("alias-bomb", edit(DECK, "  options: {hand: 3}", "  options: {hand: 3}\n" + "".join(
        "  " + line + "\n" for line in LAUGHS.splitlines())), "expands to more than", line=None, bomb=True),
    Case("alias-self-sequence", edit(DECK, "  options: {hand: 3}", "  options: &me [1, *me]"),
         "refers to the value that holds it", bomb=True),
    Case("alias-self-mapping", edit(DECK, "  options: {hand: 3}", "  options: &me {a: *me}"),
         "refers to the value that holds it"),
    Case("alias-self-deep", edit(DECK, "    options: {target: 10}", "    options: &m {a: [{b: *m}]}"),
         "refers to the value that holds it", line=None),
    Case("too-many-values", edit(DECK, "  options: {hand: 3}", "  options: [" + "1," * 900_000 + "1]"),
         "holds more than 100000 values", line=None, bomb=True),
    Case("text-too-long", edit(DECK, "  author: Tester", "  author: " + "abc " * 12_600), "more than 50000"),
    Case("file-too-large", edit(DECK, "  author: Tester", "  author: Tester\n  description: \"" + "x" * 2_100_000 +
                                "\""), "more than the 2000000", line=None, bomb=True),
    # --- 3. Bounded resources: counts and families ----------------------------------------------------
    Case("count-hundred-million", edit(DECK, "        count: 2", "        count: 100000000"), "at most 1000",
         bomb=True),
    Case("count-just-over", edit(DECK, "        count: 2", "        count: 1001"), "at most 1000"),
    Case("count-expression-huge", edit(DECK, "      - name: Two\n        value: 2",
                                       "      - name: \"Two {{ n }}\"\n        value: 2\n"
                                       "        count: \"{{ n * 100000 }}\"\n"
                                       "        each: {n: [1]}"), "at most 1000", line=None),
    Case("component-total", edit(DECK, "      - name: Two\n        value: 2",
                                 "      - name: \"Two {{ n }}\"\n        value: 2\n        count: 1000\n"
                                 "        each: {n: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}"), "cards in all, more than",
         line=17),
    Case("family-million", edit(DECK, "      - name: Two\n        value: 2",
                                "      - name: \"{{ a }}-{{ b }}\"\n        value: 2\n        each: {a: "
                                + str(list(range(1000))) + ", b: " + str(list(range(1000))) + "}"),
         "makes 1000000 cards", line=22, bomb=True),
    Case("family-list-too-long", edit(DECK, "      - name: Two\n        value: 2",
                                      "      - name: \"C{{ n }}\"\n        value: 2\n        each: ["
                                      + ", ".join(f"{{n: {i}}}" for i in range(1001)) + "]"), "lists 1001 members",
         line=22),
    Case("too-many-cards", edit(DECK, "      - name: Two\n        value: 2", "".join(
        f"      - name: \"{letter}{{{{ n }}}}\"\n        each: {{n: {list(range(1000))}}}\n" for letter in "ABCDEF")),
         "more than 5000 different cards", line=17),
    Case("too-many-cards-in-deck", edit(DECK, "  - id: chips\n    name: Chips\n", "".join(
        f"  - id: more{i}\n    name: More\n    template: tiny-card\n    cards:\n" + "".join(
            f"      - name: \"M{j}-{{{{ n }}}}\"\n        each: {{n: {list(range(1000))}}}\n" for j in range(4))
        for i in range(3)) + "  - id: chips\n    name: Chips\n"),
         "12003 different cards, more than the 10000", line=9),
    Case("too-many-elements", edit(CARD, "elements:\n", "elements:\n" + "  - {type: rect, box: trim}\n" * 499),
         "501 items, more than the 500", line=6),
    Case("family-not-a-mapping", edit(DECK, "      - name: Two\n        value: 2",
                                      "      - name: Two\n        value: 2\n        each: 3"), "`each` needs", line=22),
    Case("family-only-bomb", edit(DECK, "      - name: Two\n        value: 2",
                                  "      - name: \"T{{ n }}\"\n        each: {n: [1]}\n"
                                  "        only: \"{{ 'x' * 10**9 }}\""),
         "goes past a limit"),
    # --- 3. Bounded resources: jinja2 -----------------------------------------------------------------
    Case("jinja-string-times-billion", _text("{{ 'x' * 10**9 }}"), "goes past a limit", file=DECK, line=None,
         bomb=True),
    Case("jinja-power-tower", _text("{{ 9 ** (9 ** 9) }}"), "more than 4096 bits", file=DECK, line=None, bomb=True),
    Case("jinja-nested-ranges", _text("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
                                      "{% endfor %}"), "loop turns and calls", file=DECK, line=None, bomb=True),
    Case("jinja-center", _text("{{ card.name.center(10**9) }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-center-filter", _text("{{ card.name|center(10**9) }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-format-width", _text("{{ '{:999999999}'.format(1) }}"), "format width", file=DECK, line=None),
    Case("jinja-percent-width", _text("{{ '%0999999999d' % 1 }}"), "format width", file=DECK, line=None),
    Case("jinja-format-filter-width", _text("{{ '%999999999s'|format(1) }}"), "goes past a limit", file=DECK,
         line=None),
    Case("jinja-list-times", _text("{{ [card.name] * 10**8 }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-list-of-big-strings", _text("{{ ['x' * 100000] * 100000 }}"), "goes past a limit", file=DECK,
         line=None),
    Case("jinja-replace-blowup", _text("{{ ('x' * 90000)|replace('x', 'yy') }}"), "goes past a limit", file=DECK,
         line=None),
    Case("jinja-namespace-doubling", _text("{% set ns = namespace(s='x') %}{% for i in range(60) %}"
                                           "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}"),
         "goes past a limit", file=DECK, line=None),
    Case("jinja-recursive-macro", _text("{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}"), "too deeply",
         file=DECK, line=None),
    Case("jinja-exponential-macro", _text("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}"
                                          "{% endmacro %}{{ f(40) }}"), "loop turns and calls", file=DECK, line=None,
         bomb=True),
    Case("jinja-lipsum", _text("{{ lipsum(10**6) }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-join-range", _text("{{ range(100000)|join(', ') }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-big-range", _text("{{ range(10**9)|list }}"), "goes past a limit", file=DECK, line=None),
    Case("jinja-each-bomb", _element("    each: \"{{ range(100000) | list }}\"\n"), "more than the 1000", file=DECK,
         line=None, bomb=True),
    Case("jinja-when-bomb", _element("    when: \"{{ 'x' * 10**9 }}\"\n"), "goes past a limit", file=DECK,
         line=None),
    Case("jinja-style-by-bomb", edit(CARD, "style_by: \"{{ 'default' }}\"", "style_by: \"{{ 'd' * 10**9 }}\""),
         "goes past a limit", file=DECK, line=None),
    Case("jinja-family-name-bomb", edit(DECK, "      - name: Two\n        value: 2",
                                        "      - name: \"{{ 'x' * n }}\"\n        each: {n: [1000000000]}"),
         "goes past a limit", line=20),
    Case("jinja-sandbox-escape", _text("{{ ''.__class__.__mro__ }}"), "unsafe", file=DECK, line=None),
    Case("jinja-sandbox-globals", _text("{{ cycler.__init__.__globals__ }}"), "unsafe", file=DECK, line=None),
    Case("jinja-syntax", _text("{{ card.name "), "in expression", file=DECK, line=None),
    Case("jinja-undefined", _text("{{ card.nme }}"), "in expression", file=DECK, line=None),
    Case("jinja-divide-by-zero", _element("    min_size: \"{{ 1 / 0 }}\"\n"), "division by zero", file=DECK, line=None),
    # --- 3. Bounded resources: images, cards, pages, elements -----------------------------------------
    Case("image-pixel-bomb", [write("decks/art/bomb.png", png_header(100_000, 100_000)),
                              _element("  - {type: image, name: art, src: art/bomb.png, x: 5, y: 20, w: 20, h: 20}\n")],
         "more pixels than Pillow will open", file=DECK, line=None,
         bomb=True),
    Case("image-over-limit", [write("decks/art/big.png", png_header(8000, 6000)),
                              _element("  - {type: image, name: art, src: art/big.png, x: 5, y: 20, w: 20, h: 20}\n")],
         "8000 x 6000 pixels", file=DECK, line=None),
    Case("image-not-an-image", [write("decks/art/fake.png", b"not a png at all"),
                                _element("  - {type: image, name: art, src: art/fake.png, x: 5, y: 20, w: 20, "
                                         "h: 20}\n")],
         "not an image", file=DECK, line=None),
    Case("image-truncated", [write("decks/art/cut.png", png_header(10, 10)[:30]),
                             _element("  - {type: image, name: art, src: art/cut.png, x: 5, y: 20, w: 20, h: 20}\n")],
         "not an image", file=DECK, line=None),
    Case("image-outside-project", _element("  - {type: image, name: art, src: ../../etc/passwd, x: 5, y: 20, "
                                           "w: 20, h: 20}\n"), "leads outside the project", file=DECK, line=None),
    Case("image-missing", _element("  - {type: image, name: art, src: art/none.png, x: 5, y: 20, w: 20, h: 20}\n"),
         "not found", file=DECK, line=None),
    # SVG art (issue 23): malformed, bombs, and what it refers to outside itself
    Case("svg-malformed", _svg("bad.svg", SVG + "<rect></svg>"), "not well-formed XML", file=DECK, line=None),
    Case("svg-not-svg", _svg("page.svg", "<html><body/></html>"), "not an SVG", file=DECK, line=None),
    Case("svg-not-utf8", _svg("latin.svg", b"<svg>\xe9</svg>"), "not UTF-8", file=DECK, line=None),
    Case("svg-reads-a-file", _svg("ref.svg", SVG + '<image width="9" height="9" href="/etc/passwd"/></svg>'),
         "reads nothing an SVG refers to", file=DECK, line=None),
    Case("svg-fetches-a-url", _svg("url.svg", SVG + '<image width="9" height="9" href="http://127.0.0.1:9/x.png"/>'
                                               "</svg>"), "reads nothing an SVG refers to", file=DECK, line=None),
    Case("svg-deep-nesting-bomb", _svg("deep.svg", SVG + "<g>" * 200_000 + "</g>" * 200_000 + "</svg>"),
         "nests them more than 256 deep", file=DECK, line=None, bomb=True),
    Case("svg-million-elements-bomb", _svg("many.svg", SVG + "<g/>" * 1_000_000 + "</svg>"),
         "more than 100000 elements", file=DECK, line=None, bomb=True),
    Case("svg-use-bomb", _svg("uses.svg", SVG + SVG_USES + "</svg>"), "nodes limit reached", file=DECK, line=None,
         bomb=True),
    Case("svg-entity-bomb", _svg("lol.svg", SVG_ENTITIES + SVG + "<text>&j;</text></svg>"), "amplification",
         file=DECK, line=None, bomb=True),
    Case("svg-huge-size-bomb", [write("decks/art/tall.svg", '<svg xmlns="http://www.w3.org/2000/svg" width="1" '
                                                           'height="100000000"><rect width="1" height="1e8"/></svg>'),
                                _element("  - {type: image, name: art, src: art/tall.svg, fit: cover, x: 5, y: 20, "
                                         "w: 20, h: 20}\n")],
         "so tall", file=DECK, line=None, bomb=True),
    Case("svg-embedded-bitmap-bomb", _svg("pixels.svg", SVG + '<image width="9" height="9" href="data:image/png;base64,'
                                          + base64.b64encode(png_header(100_000, 100_000)).decode() + '"/></svg>'),
         "more pixels than Pillow", file=DECK, line=None, bomb=True),
    Case("svgz-bomb", _svg("zip.svgz", gzip.compress(b"<svg>" + b" " * 200_000_000 + b"</svg>")),
         "unzips to more than", file=DECK, line=None, bomb=True),
    Case("svg-icon-malformed", [write("decks/art/coin.svg", SVG + "<rect></svg>"),
                                edit(DECK, "card_size: mini\n",
                                     "card_size: mini\nicons:\n  coin: {image: art/coin.svg}\n")],
         "icon 'coin': SVG 'art/coin.svg' is not well-formed XML", file=DECK, line=8),
    Case("card-400mm", edit(DECK, "card_size: mini", "card_size: {width: 400, height: 400}"),
         "between 10 and 270", bomb=True),
    Case("card-too-small", edit(DECK, "card_size: mini", "card_size: {width: 5, height: 40}"), "between 10 and 270"),
    Case("card-zero", edit(DECK, "card_size: mini", "card_size: {width: 0, height: 0}"), "between 10 and 270"),
    Case("card-larger-than-page", edit(DECK, "card_size: mini", "card_size: {width: 250, height: 250}"),
         "do not fit on a page", line=None),
    Case("token-larger-than-page", edit(DECK, "    size: {width: 20, height: 20}",
                                        "    size: {width: 260, height: 260}"), "do not fit on a page"),
    Case("token-larger-than-cricut-area", [edit(DECK, "    size: {width: 20, height: 20}",
                                                "    size: {width: 180, height: 180}"),
                                           edit(PROFILE, "layout: duplex\n", "layout: duplex\ncutter: cricut\n")],
         "do not fit Design Space's print area (171.45 x 234.95 mm)"),
    Case("token-larger-than-silhouette-marks", [edit(DECK, "    size: {width: 20, height: 20}",
                                                     "    size: {width: 200, height: 200}"),
                                                edit(PROFILE, "layout: duplex\n", "layout: duplex\ncutter: silhouette\n")],
         "inside registration marks 10 mm from its edges"),
    Case("card-size-text", edit(DECK, "card_size: mini", "card_size: {width: big, height: 40}"),
         "between 10 and 270"),
    Case("page-too-large", edit(PROFILE, "page: a4", "page: {width: 5000, height: 5000}"), "between 50 and 1200"),
    Case("page-too-small", edit(PROFILE, "page: a4", "page: {width: 10, height: 10}"), "between 50 and 1200"),
    Case("element-far-away", edit(CARD, "    x: 5\n", "    x: 100000\n"), "more than 1000 mm", file=DECK, line=None),
    Case("font-size-huge", edit(CARD, "    size: 10\n", "    size: 100000\n"), "between 1 and 500", file=DECK,
         line=None),
    Case("font-min-size-negative", _element("    min_size: -1000000\n"), "between 1 and 500", file=DECK, line=None),
    Case("unknown-size-preset", edit(DECK, "card_size: mini", "card_size: minni"), "did you mean 'mini'"),
    # --- 4. Every number finite -----------------------------------------------------------------------
    Case("nan-bleed", edit(DECK, "bleed: 2", "bleed: .nan"), "not a finite number"),
    Case("inf-bleed", edit(DECK, "bleed: 2", "bleed: .inf"), "not a finite number"),
    Case("minus-inf-bleed", edit(DECK, "bleed: 2", "bleed: -.inf"), "not a finite number"),
    Case("inf-thickness", edit(DECK, "    token: {thickness: 0.2}", "    token: {thickness: .inf}"),
         "not a finite number"),
    Case("nan-thickness-text", edit(DECK, "    token: {thickness: 0.2}", "    token: {thickness: \"nan\"}"),
         "not a finite number"),
    Case("huge-thickness", edit(DECK, "    token: {thickness: 0.2}", "    token: {thickness: 1.0e300}"),
         "at most 5"),
    Case("overflow-float-literal", edit(DECK, "bleed: 2", "bleed: 1.0e999"), "not a finite number"),
    Case("nan-card-width", edit(DECK, "card_size: mini", "card_size: {width: .nan, height: 40}"),
         "not a finite number"),
    Case("inf-card-height", edit(DECK, "card_size: mini", "card_size: {width: 40, height: .inf}"),
         "not a finite number"),
    Case("nan-count", edit(DECK, "        count: 2", "        count: .nan"), "not a finite number"),
    Case("nan-field-number", edit(DECK, "        value: 1\n", "        value: 1\n        power: .nan\n"),
         "not a finite number", line=19),
    Case("inf-field-number-text", edit(DECK, "        value: 1\n", "        value: 1\n        power: \"-inf\"\n"),
         "not a finite number", line=None),
    Case("huge-field-integer", edit(DECK, "        value: 1\n", "        value: 99999999999999999999\n"),
         "beyond 2^53"),
    Case("huge-field-integer-expression", edit(DECK, "      - name: Two\n        value: 2",
                                               "      - name: \"T{{ n }}\"\n        value: \"{{ n * 10**17 }}\"\n"
                                               "        each: {n: [1]}"), "beyond 2^53", line=20),
    Case("inf-from-family-list-field", [edit(DECK, "      power: {type: number, doc: The power., default: 1.5}",
                                             "      power: {type: number, doc: The power., default: 1.5}\n"
                                             "      marks: {type: list, doc: Marks., default: []}"),
                                        edit(DECK, "      - name: Two\n        value: 2",
                                             "      - name: \"T{{ n }}\"\n        marks: \"{{ [n * 1e308 * 10] }}\"\n"
                                             "        each: {n: [1]}")], "not a finite number", line=20),
    Case("huge-mode-option", edit(DECK, "    options: {target: 10}", "    options: {target: 99999999999999999999}"),
         "beyond 2^53"),
    Case("huge-player-count", edit(DECK, "{min: 2, max: 4}", "{min: 2, max: -99999999999999999999}"),
         "beyond 2^53"),
    Case("nan-field-default", edit(DECK, "default: 1.5}", "default: .nan}"), "not a finite number"),
    Case("nan-mode-option", edit(DECK, "    options: {target: 10}", "    options: {target: .nan}"),
         "not a finite number"),
    Case("inf-setup-option", edit(DECK, "  options: {hand: 3}", "  options: {hand: .inf}"), "not a finite number"),
    Case("nan-in-family", edit(DECK, "      - name: Two\n        value: 2",
                               "      - name: \"T{{ n }}\"\n        power: \"{{ n }}\"\n        each: {n: [.nan]}"),
         "not a finite number", line=22),
    Case("nan-template-x", edit(CARD, "    x: 5\n", "    x: .nan\n"), "not a finite number"),
    Case("nan-template-x-text", edit(CARD, "    x: 5\n", "    x: nan\n"), "not a finite number", file=DECK,
         line=None),
    Case("inf-template-size-text", edit(CARD, "    size: 10\n", "    size: \"inf\"\n"), "not a finite number",
         file=DECK, line=None),
    Case("inf-template-expression", edit(CARD, "    y: 5\n", "    y: \"{{ 1e308 * 10 }}\"\n"),
         "not a finite number", file=DECK, line=None),
    Case("nan-line-spacing", _element("    line_spacing: .nan\n"), "not a finite number", line=16),
    Case("nan-style-value", edit(CARD, "{ink: \"#202020\"}", "{ink: \"#202020\", w: .nan}"), "not a finite number"),
    Case("nan-profile-margin", edit(PROFILE, "margin: 5", "margin: .nan"), "not a finite number"),
    Case("inf-profile-back-offset", edit(PROFILE, "back_offset: [0, 0]", "back_offset: [.inf, 0]"),
         "not a finite number"),
    Case("nan-profile-back-offset-text", edit(PROFILE, "back_offset: [0, 0]", "back_offset: [\"nan\", 0]"),
         "not a finite number"),
    Case("profile-back-offset-far", edit(PROFILE, "back_offset: [0, 0]", "back_offset: [0, 500]"), "at most 20"),
    Case("cli-back-offset-nan-inf", [], "--back-offset", args=("build", "tiny", "--back-offset", "nan,inf"),
         status=2),
    Case("cli-back-offset-inf", [], "--back-offset", args=("build", "tiny", "--back-offset", "inf,0"), status=2),
    Case("cli-back-offset-huge", [], "--back-offset", args=("build", "tiny", "--back-offset", "1e9,0"), status=2),
    Case("cli-back-offset-words", [], "--back-offset", args=("build", "tiny", "--back-offset", "left,up"),
         status=2),
    Case("cli-back-offset-one-number", [], "--back-offset", args=("build", "tiny", "--back-offset", "1"), status=2),
    # --- Cards from a spreadsheet: the same rules as YAML -----------------------------------------------
    Case("sheet-control-character", _sheet("Ch\x07ip,3,1,\n"), "U+0007", file=SHEET, line=2),
    Case("sheet-count-huge", _sheet("Chip,100000000,1,\n"), "at most 1000", file=SHEET, line=2),
    Case("sheet-nan-number", _sheet("Chip,3,nan,\n"), "not a finite number", file=SHEET, line=2),
    Case("sheet-inf-number", _sheet("Chip,3,-inf,\n"), "not a finite number", file=SHEET, line=2),
    Case("sheet-huge-integer", _sheet("Chip,3,1,[99999999999999999999]\n"), "beyond 2^53", file=SHEET,
         line=2),
    Case("sheet-yaml-tag", _sheet("Chip,3,1,\"!!python/object/apply:os.system [echo]\"\n"), "YAML tag",
         file=SHEET, line=2),
    Case("sheet-alias-bomb", _sheet(f"Chip,3,1,\"{FLOW_LAUGHS}\"\n"), "expands to more than", file=SHEET,
         line=2, bomb=True),
    Case("sheet-bad-list", _sheet("Chip,3,1,\"[1, 2\"\n"), "is not a YAML list", file=SHEET, line=2),
    # --- 7. User text stays data: control characters reach nothing --------------------------------------
    Case("control-in-game-name", edit(DECK, NAME, '  name: "Tiny\\x0b"\n'), "U+000B"),
    Case("control-in-rules-heading", edit(DECK, "  - heading: Play", '  - heading: "Pl\\x1fay"'), "U+001F"),
    Case("control-in-mode-name", edit(DECK, "    name: Basic", '    name: "Ba\\x08sic"'), "U+0008"),
    Case("control-in-component-name", edit(DECK, "    name: Chips", '    name: "Chips\\x00"'), "U+0000"),
    Case("control-in-language-text", edit(DECK, "  author: Tester", '  description: {en: "A\\x01"}'), "U+0001"),
    Case("control-from-expression", edit(DECK, "      - name: Two\n        value: 2",
                                         "      - name: \"T{{ '\\\\x07' }}{{ n }}\"\n        each: {n: [1]}"),
         "U+0007", line=20),
    Case("control-in-mode-option-text", edit(DECK, "    options: {target: 10}", '    options: {target: "\\x1b"}'),
         "U+001B"),
    Case("control-in-card-field-key", edit(DECK, "        value: 1\n", '        "va\\x00lue": 1\n'), "U+0000"),
    # --- Located mistakes of every kind: what the schema checks -----------------------------------------
    Case("unknown-key", edit(DECK, "        count: 2", "        cuont: 2"), "did you mean 'count'"),
    Case("wrong-type", edit(DECK, "{min: 2, max: 4}", "{min: two, max: 4}"), "expected a whole number"),
    Case("negative-count", edit(DECK, "        count: 2", "        count: -2"), "at least 0"),
    Case("missing-template", edit(DECK, "    template: tiny-card", "    template: tiny-crad"), "not found"),
    Case("misspelt-card-field", edit(DECK, "        value: 2", "        valeu: 2"), "did you mean 'value'"),
    Case("players-swapped", edit(DECK, "{min: 2, max: 4}", "{min: 4, max: 2}"), "swap them"),
    Case("duplicate-card-id", edit(DECK, "      - name: Two", "      - name: One"), "used twice"),
    Case("duplicate-component-id", edit(DECK, "  - id: chips", "  - id: deck"), "used twice"),
    Case("bad-colour", edit(CARD, "fill: \"#ffffff\"", "fill: \"#fffff\""), "not a colour", file=DECK, line=None),
    Case("bad-id", edit(DECK, "  - id: chips", "  - id: Chips!"), "lower-case letters"),
    Case("unknown-profile", edit(DECK, "profiles: [tiny]", "profiles: [tinny]"), "not found"),
    Case("unknown-font", edit(CARD, "    size: 10\n", "    size: 10\n    font: comic\n"), "unknown font", line=15),
    Case("unknown-system-font", edit(CARD, "    size: 10\n", "    size: 10\n    font: Deckpress Missing Sans\n"),
         "not), or bundle it with the project", line=15),
    Case("unknown-element-type", edit(CARD, "type: rect", "type: rectangle"), "did you mean 'rect'"),
    Case("option-of-another-type", edit(CARD, "box: bleed, fill", "box: bleed, fit: cover, fill"),
         "`fit` is an option of image, not of rect"),
    Case("text-option-on-a-shape", edit(CARD, "box: bleed, fill", "box: bleed, font: serif, fill"),
         "`font` is an option of text and icon, not of rect"),
    Case("gradient-stops-out-of-order",
         edit(CARD, 'fill: "#ffffff"', 'fill: {stops: ["#ffffff 60%", "#000000 20%"]}'), "gradient stops out of order"),
    Case("gradient-stop-not-a-colour", edit(CARD, 'fill: "#ffffff"', 'fill: {stops: ["white", "#000000"]}'),
         "is not a colour with an optional position"),
    Case("dash-of-zeros", edit(CARD, 'fill: "#ffffff"', 'fill: "#ffffff", stroke: "#000000", dash: [0, 0]'),
         "a dash pattern of zeros draws nothing"),
    Case("polygon-of-two-points", edit(CARD, "{type: rect, name: background, box: bleed, fill: \"#ffffff\"}",
                                       "{type: polygon, points: [[0, 0], [10, 10]], fill: \"#ffffff\"}"),
         "a polygon needs at least 3 points, not 2"),
    Case("polygon-points-and-corners", edit(CARD, "{type: rect, name: background, box: bleed, fill: \"#ffffff\"}",
                                            "{type: polygon, corners: 5, points: [[0, 0], [1, 0], [0, 1]]}"),
         "either `points`"),
    Case("path-data-broken", edit(CARD, "{type: rect, name: background, box: bleed, fill: \"#ffffff\"}",
                                  "{type: path, d: \"M 0 0 L 10\", fill: \"#ffffff\"}"),
         "path data: a number expected after 'L'"),
    Case("dash-too-fine", edit(CARD, 'fill: "#ffffff"', 'fill: "#ffffff", stroke: "#000000", dash: [0.01, 0.01]'),
         "a dash pattern repeats every 0.2 mm at least"),
    Case("path-far-away", edit(CARD, "{type: rect, name: background, box: bleed, fill: \"#ffffff\"}",
                               "{type: path, d: \"M 0 0 L 1e300 0 L 0 5 Z\", fill: \"#ffffff\"}"),
         "reaches more than 1000 mm"),
    Case("span-unknown-key", edit(CARD, 'text: "{{ card.name }}"', 'text: "[{{ card.name }}]{colour=#ff0000}"'),
         "unknown key 'colour' in [One]", file=DECK, line=None),
    Case("dash-expression-of-zeros", edit(CARD, 'fill: "#ffffff"',
                                          'fill: "#ffffff", stroke: "#000000", dash: "{{ [0] }}"'),
         "a dash pattern of zeros draws nothing", file=DECK, line=None),
    Case("unknown-shape", edit(DECK, "    shape: circle", "    shape: circel"), "did you mean 'circle'"),
    Case("bad-language", edit(DECK, "  author: Tester", "  language: english"), "language code"),
    Case("true-as-text", edit(DECK, "  author: Tester", "  author: true"), "put the word in quotes"),
    Case("yes-is-text-in-yaml-1-2", edit(DECK, "    shape: circle", "    shape: circle\n    optional: yes"),
         "write true or false", line=28),
    Case("text-does-not-fit", edit(DECK, "      - name: Two\n", "      - name: " + "Very long name " * 20 + "\n"),
         "does not fit", line=20),
    Case("outside-safe-zone", edit(CARD, "    x: 5\n", "    x: 0\n"),  # one line for the element, both cards
         "element 'title' reaches outside the safe zone on card 'One', card 'Two'", line=7),
    Case("empty-cards", edit(DECK, "    cards:\n      - name: Chip\n        count: 3", "    cards: []"),
         "non-empty list"),
    Case("back-offset-three-numbers", edit(PROFILE, "back_offset: [0, 0]", "back_offset: [0, 0, 0]"),
         "3 items where it takes exactly 2; list 2"),
    # --- Issue 21: the newer features (spreadsheets, languages, modes, fields, icons, images, profiles) ---
    Case("sheet-cell-past-csv-limit", _sheet("\"" + "x" * 140_000 + "\",3,1,\n"), "more than 50000 characters",
         file=SHEET, line=2),
    Case("sheet-cell-past-text-limit", _sheet("\"" + "x" * 60_000 + "\",3,1,\n"), "more than 50000", file=SHEET,
         line=2),
    Case("xlsx-dimension-claims-every-column", _book({1: ["name", "count"], 2: ["Chip", 3], 9001: ["Last", "many"]},
                                                     "A1:XFD9001"), "expected a whole number", file=BOOK,
         line=9001, bomb=True),
    Case("xlsx-value-past-the-last-column", _book({1: ["name", "count"], 2: ["Chip", 3, ("XFD", "far")]}),
         "column 16384, past the 256 columns", file=BOOK, line=2),
    Case("xlsx-date-cell-out-of-range", _book({1: ["name", "count"], 2: ["Chip", 1e20]}), "expected a whole number",
         file=BOOK, line=2, bomb=True),  # run apart: openpyxl's warnings would print lines of their own
    Case("xlsx-unpacks-past-the-limit",  # a sheet that unpacks to 50 MB from 0.2 MB, as a zip bomb does
         [write(BOOK, lambda: _xlsx({1: ["name", "count"], 2: ["Chip", 3]}, padding=50_000_000)),
          edit(DECK, "    cards:\n      - name: Chip\n        count: 3", "    cards_from: chips.xlsx")],
         "its part 'xl/worksheets/sheet1.xml' is 50000", file=BOOK, line=None, bomb=True),
    Case("xlsx-million-rows", _book({1: ["name", "count"], 2: ["Chip", 3], 1_048_576: ["Last", 1]},
                                    "A1:B1048576"), "more than 10000 rows, blank ones included", file=BOOK,
         line=None, bomb=True),
    # --- Issue 39.1: published sheets, read from their copies in data/<deck>/ ---
    Case("sheet-not-https", _published("'http://docs.google.com/spreadsheets/d/e/x/pub?output=csv'"),
         "is not an https address"),
    Case("sheet-without-a-copy", _published("'https://example.org/chips.csv'"),
         "sheet Chips: no copy in the project (data/tiny/chips.csv); run deckpress pull tiny"),
    Case("sheet-row-not-a-number", [*_published("'https://example.org/chips.csv'"),
                                    write("data/tiny/chips.csv", "name,count\r\nChip,3\r\nStar,many\r\n")],
         "expected a whole number", file="sheet Chips, row 3, column count", line=None),
    Case("language-a-list", edit(DECK, "  author: Tester", "  author: Tester\n  language: [ru]\n"
                                 "  description: {en: Tiny, ru: Tiny}"), "language: expected text", line=6),
    Case("languages-holding-a-list", edit(DECK, "  author: Tester", "  author: Tester\n  languages: [[en]]\n"
                                          "  description: {en: Tiny}"), "expected text", line=6),
    Case("duplicate-mode-id", edit(DECK, "    options: {target: 10}", "    options: {target: 10}\n  - id: basic\n"
                                   "    name: Again"), "mode id 'basic' is used twice", line=41),
    Case("map-field-given-a-list", edit(DECK, "default: 1.5}\n    cards:\n      - name: One\n",
                                        "default: 1.5}\n      marks: {type: map, doc: M., default: {}}\n    cards:\n"
                                        "      - name: One\n        marks: [1, 2]\n"), "marks: expected a mapping",
         line=19),
    Case("list-field-given-a-map", edit(DECK, "default: 1.5}\n    cards:\n      - name: One\n",
                                        "default: 1.5}\n      marks: {type: list, doc: M., default: []}\n    cards:\n"
                                        "      - name: One\n        marks: {a: 1}\n"), "marks: expected a list",
         line=19),
    Case("icon-empty-glyph", edit(DECK, "modes:\n", "icons:\n  star: {glyph: \"\"}\nmodes:\n"),
         "glyph is empty", line=38),
    Case("icon-blank-glyph", edit(DECK, "modes:\n", "icons:\n  star: {glyph: \" \"}\nmodes:\n"),
         "glyph is empty", line=38),
    Case("icon-glyph-of-a-thousand-characters", edit(DECK, "modes:\n", "icons:\n  star: {glyph: \"" + "★" * 1000
                                                    + "\"}\nmodes:\n"),
         "an icon's glyph of 1000 characters; an icon is one character or a few: write at most 8", line=38),
    Case("image-src-a-folder-with-placeholder",
         [write("decks/art/readme.txt", "art goes here\n"),
          _element("  - {type: image, name: art, src: art, placeholder: true, x: 5, y: 20, w: 20, h: 20}\n")],
         "image 'art' is a folder", file=DECK, line=None),
    Case("profile-bleed-past-the-decks", edit(PROFILE, "margin: 5\n", "margin: 5\nbleed: 3\n"),
         "bleed: 3 mm is more than the deck's bleed (2 mm)", line=5),
    Case("builtin-shop-profile-bleed-past-the-decks", edit(DECK, "profiles: [tiny]",
                                                           "profiles: [tiny, drivethrucards]"),
         "write `bleed: 3.175` in the deck"),
    Case("builtin-image-profile-bleed-past-the-decks", edit(DECK, "profiles: [tiny]",
                                                            "profiles: [tiny, makeplayingcards]"),
         "write `bleed: 3.048` in the deck"),
    Case("card-id-past-the-file-name-limit", edit(DECK, "      - name: Two\n", "      - name: Two\n        id: "
                                                  + "x" * 300 + "\n"), "an id of 300 characters, more than the 100",
         line=21),
    Case("component-id-past-the-file-name-limit", edit(DECK, "  - id: chips", "  - id: " + "c" * 101),
         "an id of 101 characters"),
    Case("cli-asset-url-without-scheme", [], "--asset-url",
         args=("build", "tiny", "--asset-url", "example.org/score/"), status=2),
    Case("cli-asset-url-with-a-space", [], "--asset-url",
         args=("build", "tiny", "--asset-url", "https://ex ample.org/"), status=2),
    Case("cli-preview-out-not-png", [], "--out", args=("preview", "tiny", "--out", "p.jpg"), status=2),
    Case("cli-check-links-no-build", [], "no build to check the links of; run deckpress build tiny first",
         file="nowhere/tiny/tts/tiny.json", line=None, args=("check", "tiny", "--links", "--out", "nowhere")),
    Case("cli-check-links-timeout-zero", [], "--timeout", args=("check", "tiny", "--links", "--timeout", "0"),
         status=2),
    Case("cli-preview-simulate-unknown", [], "'deutan' is no colour blindness deckpress simulates; write deuteranopia",
         args=("preview", "tiny", "--simulate", "deutan"), status=2),
    Case("colour-blind-distinct-by-no-field",
         edit(DECK, "    back: tiny-back\n", "    back: tiny-back\n    colour_blind: {distinct_by: suit}\n"),
         "distinct_by: 'suit' is no field of the cards of 'deck'; name one of their fields: id, name, count, value, "
         "power", line=FILES[DECK][:FILES[DECK].index("    back: tiny-back")].count("\n") + 2),
    Case("colour-blind-distinct-by-misspelt",
         edit(DECK, "    back: tiny-back\n", "    back: tiny-back\n    colour_blind: {distinct_by: vlaue}\n"),
         "did you mean 'value'?", line=FILES[DECK][:FILES[DECK].index("    back: tiny-back")].count("\n") + 2),
    Case("cli-build-a-folder-not-the-project", [], "'templates' is a folder, not a deck",
         args=("build", "templates"), status=2),
    Case("icon-image-corrupt-in-the-rules",
         [edit(DECK, "      - Play a card.\n      - list: [Draw one, Play one]\nmodes:\n",
               "      - \"Play a :pearl: card.\"\n      - list: [Draw one, Play one]\n"
               "icons:\n  pearl: {image: art/pearl.png}\nmodes:\n"),
          write("decks/art/pearl.png", png_header(10, 10)[:30])],
         "icon 'pearl': 'art/pearl.png' is not an image", line=38),
    Case("rule-read-as-a-mapping", edit(DECK, "      - Play a card.",
                                        "      - Have the most points and :pearl: when the tide runs out."),
         "YAML reads this text as a mapping, because of the colon and space after 'st points and :pearl'; "
         "put the whole text in quotes"),
    Case("rich-text-does-not-fit-keeps-its-spaces",
         edit(DECK, "      - name: Two\n", "      - name: \"**Very** long name" + " of a card" * 30 + "\"\n"),
         "('Very long name of a card of a card of a '...)", line=20),
    # --- Issue 27: print shops' colour and sizes ---
    Case("profile-pdfx-without-cards-output", edit(PROFILE, "layout: duplex\n", "layout: duplex\npdfx: true\n"),
         "pdfx: true needs `output: cards`", line=4),
    Case("profile-cmyk-profile-not-a-profile",
         [edit(PROFILE, "layout: duplex\n", "output: cards\npdfx: true\ncmyk_profile: shop.icc\n"),
          write("print/shop.icc", b"this is no ICC profile")],
         "cmyk_profile 'shop.icc' is not an ICC profile", line=5),
    Case("profile-cmyk-profile-is-rgb",
         [edit(PROFILE, "layout: duplex\n", "output: cards\npdfx: true\ncmyk_profile: shop.icc\n"),
          write("print/shop.icc", lambda: ImageCmsProfile(createProfile("sRGB")).tobytes())],
         "is an ICC profile of RGB colour, not CMYK", line=5),
    Case("profile-cmyk-profile-missing",
         edit(PROFILE, "layout: duplex\n", "output: cards\npdfx: true\ncmyk_profile: shop.icc\n"),
         "cmyk_profile 'shop.icc' not found", line=5),
    Case("profile-ink-limit-below-100", edit(PROFILE, "margin: 5\n", "margin: 5\nink_limit: 80\n"),
         "at least 100", line=5),
    Case("rules-style-columns-past-4", write("print/rules-style.yaml", "font_size: 8\ncolumns: 9\n"), "at most 4",
         line=2),
    Case("rules-style-not-a-mapping", write("print/rules-style.yaml", "- columns\n"), "the rules style is a mapping",
         line=1),
    Case("profile-ink-limit-above-400", edit(PROFILE, "margin: 5\n", "margin: 5\nink_limit: 480\n"),
         "at most 400", line=5),
]

for _number, _case in enumerate(CASES):
    assert _case.id, f"case {_number} has no id"
assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
