"""The deck format: every key a deck file may hold, typed, documented and defaulted.

This module is the single definition of a deck file. The reference page
(docs/deck-format.md), the JSON Schema (`deckpress schema`) and the validation of
`decks/*.yaml` all come from the records below; a test keeps the page in step.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from typing import Any, ClassVar

from . import elements
from .scripting import games
from .elements import Element, ElementOption
from .errors import DeckError, Where
from .expr import is_expression, render_value
from .markup import ICON_NAME
from .options import (MAX_ID, REQUIRED, Bool, Choice, Color, Context, Free, Id, Int, Invalid,
                      ListOf, MapOf, Number, Option, Record, Section, Str, Text, close_matches, did_you_mean)
from .paths import OutsideProject, confine, project_root
from .sizes import CARD_SIZES
from .source import Map, Seq, not_plain
from .tables import COPIES, copy_path, load_cards, url_problem

CARD_SIZE_NAMES = ", ".join(CARD_SIZES)

# Smallest and largest side of a card or token, mm: the largest still fits, with bleed and margins, on
# the shortest side of a letter or A4 page turned either way.
CARD_LIMITS = (10, 270)
MAX_COUNT = 1000  # copies of one card
MAX_COMPONENT_COUNT = 10_000  # copies of all the cards of one component together
MAX_FAMILY = 1000  # members of one family (`each`)
MAX_CARDS = 5000  # different cards (faces) in one component, families expanded
MAX_DECK_CARDS = 10_000  # different cards in the whole deck: a build takes about 20 ms and 0.1 MB a card
MAX_ELEMENTS = 500  # elements of one template
MAX_GLYPHS = 8  # characters of an icon's glyph: drawn at the text's size, more would be text, not an icon

LANGUAGE = r"[a-z]{2}(-[A-Z]{2})?"


def slug(text: str) -> str:
    """`Score! 3` -> `score-3`, at most MAX_ID characters; used for default ids."""
    out = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:MAX_ID].rstrip("-")
    return out or "card"


def project_file(rel: str, where: Where, what: str, ctx: Context) -> Path | None:
    """The file that `rel`, relative to the deck file `where` is in, names inside the project; None after one
    located line when it leads outside the project or does not exist."""
    deck_path = Path(where.path)
    try:
        file = confine(deck_path.parent / rel, deck_path)
    except OutsideProject:
        ctx.error(where, f"{what} {rel!r} leads outside the project; keep the {what} inside "
                         f"{project_root(deck_path)}")
        return None
    if not file.is_file():
        ctx.error(where, f"{what} {rel!r} not found; put the {what} there or fix the path (relative to the "
                         "deck file)")
        return None
    return file


class Localized(Option):
    """A value given once, or per language as `{en: ..., ru: ...}`; the build's language is picked."""

    def __init__(self, inner: Option):
        super().__init__(inner.doc, inner.default)
        self.inner = inner

    @property
    def type_name(self):
        return f"{self.inner.type_name} (or per language)"

    def check(self, value, where, ctx):
        if isinstance(value, dict) and value and all(re.fullmatch(LANGUAGE, str(k)) for k in value):
            missing = [lang for lang in ctx.languages if lang not in value]
            if missing:
                raise Invalid(f"no text in {', '.join(missing)}, a language the deck declares in "
                              f"game.languages; add `{missing[0]}:`")
            for lang in (ctx.lang, ctx.fallback_lang):
                if lang in value:
                    at = value.at(lang) if isinstance(value, Map) else where
                    return self.inner.check(value[lang], at, ctx)
            raise Invalid(f"nothing in language {ctx.lang!r} (have {', '.join(value)}); add `{ctx.lang}:`")
        return self.inner.check(value, where, ctx)

    def schema(self):
        inner = self.inner.schema()
        return {"anyOf": [inner, {"type": "object", "propertyNames": {"pattern": f"^{LANGUAGE}$"},
                                  "additionalProperties": inner}]}


class Size(Option):
    """A size in millimetres: a preset name (`poker`, `a4`) or `{width: mm, height: mm}`."""

    def __init__(self, doc: str, presets: dict[str, tuple[float, float]], limits: tuple[float, float],
                 noun: str, default: Any = REQUIRED):
        super().__init__(doc, default)
        self.presets, self.limits, self.noun = presets, limits, noun

    @property
    def type_name(self):
        return self.noun

    def check(self, value, where, ctx):
        example = next(iter(self.presets.values()))
        write = f"{{width: {example[0]:g}, height: {example[1]:g}}} in millimetres"
        if isinstance(value, str):
            if value not in self.presets:
                raise Invalid(f"unknown {self.noun} {value!r}; {did_you_mean(value, list(self.presets))}, "
                              f"or write {write}")
            return self.presets[value]
        if isinstance(value, dict) and set(value) == {"width", "height"}:
            low, high = self.limits
            dims = []
            for key in ("width", "height"):
                v = value[key]
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not low <= v <= high:
                    raise Invalid(f"{key} must be a number of millimetres between {low:g} and {high:g}; "
                                  f"e.g. {key}: {example[0]:g}")
                dims.append(float(v))
            return tuple(dims)
        raise Invalid(f"expected a {self.noun}; write one of {', '.join(self.presets)} or {write}")

    def default_value(self):
        value = super().default_value()
        return self.presets[value] if isinstance(value, str) else value

    def schema(self):
        low, high = self.limits
        side = {"type": "number", "minimum": low, "maximum": high}
        return {"anyOf": [{"enum": list(self.presets)},
                          {"type": "object", "required": ["width", "height"], "additionalProperties": False,
                           "properties": {"width": side, "height": side}}]}


MAX_PLAYERS = 100  # far above any table (TTS seats ten), low enough to list for the JSON Schema


class Players(Record):
    """How many players a game or mode is for."""

    min = Int("Fewest players.", min=1, max=MAX_PLAYERS)
    max = Int("Most players.", min=1, max=MAX_PLAYERS)

    def validate(self, ctx):
        if None not in (self.min, self.max) and self.max < self.min:
            ctx.error(self.source.at("max"), f"max ({self.max}) is below min ({self.min}); swap them")

    @classmethod
    def json_schema(cls) -> dict:
        out = super().json_schema()
        # JSON Schema cannot compare two values, so "min is at most max" is one case per max.
        out["anyOf"] = [{"properties": {"max": {"const": n}, "min": {"maximum": n}}}
                        for n in range(1, MAX_PLAYERS + 1)]
        return out


class Game(Record):
    """Game metadata."""

    name = Text("The game's name, as shown in TTS and on the PDFs.")
    version = Str("The version of the game's content.", default="1.0")
    players = Section(Players, "Player count, e.g. `{min: 2, max: 6}`.")
    language = Str("Language the deck is written in (ISO 639-1).", default="en", pattern=LANGUAGE,
                   hint="write a language code such as en or ru")
    languages = ListOf(Str("A language code.", pattern=LANGUAGE, hint="write a code such as en"),
                       "Every language the deck provides text in; `--lang` picks one.", default=list)
    author = Str("Who designed the game.", default="")
    description = Localized(Text("One-paragraph description for the TTS save and the PDF cover.",
                                 default=""))


class FieldSpec(Record):
    """A card field a component declares, such as `kind`, `value` or `text`."""

    type = Choice("The field's type.", ["text", "integer", "number", "boolean", "id", "list", "map"],
                  default="text")
    doc = Str("What the field means (one line).")
    default = Free("The value when a card leaves the field out; without it the field is required.",
                   default=None)
    choices = ListOf(Str("An allowed value."), "Allowed values, if only some are.", default=None)

    def option(self) -> Option:
        default = REQUIRED if self.default is None else self.default
        if self.choices:
            return Choice(self.doc, self.choices, default=default)
        kinds = {"text": Localized(Text(self.doc, default)), "integer": Int(self.doc, default),
                 "number": Number(self.doc, default), "boolean": Bool(self.doc, default),
                 "id": Id(self.doc, default), "list": ListOf(Free("An item."), self.doc, default),
                 "map": MapOf(Free("A key."), Free("A value."), self.doc, default)}
        return kinds.get(self.type) or Free(self.doc, default)  # an unknown type is reported already


class Card(Record):
    """One card (or, with `each`, a family of cards) of a component.

    Besides these keys a card holds the fields its component declares under `fields`.
    """

    UNKNOWN_KEY_HINT = (" (or declare a new field under the component's `fields:`, e.g. `{key}: {{type: "
                        "integer, doc: What it means.}}`)")

    name = Localized(Text("The card's name, shown on the card and as its TTS nickname."))
    id = Id("Unique id within the deck; default: the name in lower case with dashes (`Score! 3` -> score-3), "
            f"cut to {MAX_ID} characters.",
            default=None)
    count = Int("How many copies are in the deck.", default=1, min=0, max=MAX_COUNT)
    template = Str("Template of the face; default: the component's.", default=None)
    back = Str("Template of this card's back; default: the component's back.", default=None)
    each = Free("Makes this entry a family: a mapping of name to list of values (every combination) or a "
                "list of mappings; `{{ name }}` in the other values is replaced for each member.",
                default=None)
    only = Str("With `each`: a jinja2 condition a member must meet to be kept, e.g. `{{ a < b }}`.",
               default=None)

    def fields(self) -> dict:
        """Everything a template sees as `card`."""
        return {"id": self.id, "name": self.name, "count": self.count, **self.extra}


class CardsOption(Option):
    """The `cards` list; validated by the component, which knows the declared fields."""

    type_name = "list of Card"

    def check(self, value, where, ctx):
        if not isinstance(value, list) or not value:
            raise Invalid("expected a non-empty list of cards; write one `- name: ...` per card")
        return value

    def schema(self, fields: dict[str, Option] | None = None):
        """Cards with the keys of Card and, when known (a schema for one deck), the component's declared
        `fields`; otherwise any further key. Only in a family (`each`) may a value be an expression."""
        card = Card.json_schema()
        if fields is None:
            card["additionalProperties"] = True
        else:
            card["properties"].update({name: option.json_schema() for name, option in fields.items()})
            card["required"] += [name for name, option in fields.items() if option.required]
        expression = {"type": "string", "pattern": r"\{\{|\{%"}
        family = {**card, "required": ["each"],
                  "properties": {key: {"anyOf": [prop, expression]} if key not in ("each", "only") else prop
                                 for key, prop in card["properties"].items()}}
        plain = {**card, "properties": {k: v for k, v in card["properties"].items() if k not in ("each", "only")}}
        return {"type": "array", "items": {"if": {"required": ["each"]}, "then": family, "else": plain},
                "minItems": 1}


class TokenOptions(Record):
    """How a token component is made in TTS."""

    thickness = Number("Thickness of the TTS token in TTS units.", default=0.2, min=0.05, max=5)


class ColourBlind(Record):
    """What `deckpress check --colour-blind` holds a component's cards to (docs/print.md, Colour-blind players)."""

    distinct_by = Id("The card field players tell the cards apart by, such as `suit`: two cards that differ in it "
                     "must not look alike by colour to a protanope, a deuteranope or a tritanope.")


class Sheet(Record):
    """A published Google Sheet (or any CSV on the web): `cards_from: {sheet: URL, name: Units}`, or the URL
    alone. In Google Sheets, File > Share > Publish to web, pick the tab and Comma-separated values (.csv), and
    copy the link (`https://docs.google.com/spreadsheets/d/e/2PACX-.../pub?gid=0&single=true&output=csv`); each
    tab of a sheet has its own link, by its `gid`, for a component of its own. No account is needed: anyone
    with the link can read a published sheet.

    `deckpress pull [DECK]` fetches every such sheet of the deck anew into a copy kept in the project,
    `data/<deck>/<component>.csv` (commit it with the deck), and says which cards were added, removed or
    changed; `build` and `check` read the copy alone, never the network, so builds stay offline and
    reproducible, and an edited copy is rebuilt like any edited spreadsheet. Without a copy, `check` and
    `build` say to run `deckpress pull`. A pull that cannot reach the sheet, or gets a web page (a sheet not
    published answers with Google's sign-in page) or more than the spreadsheet limits instead of CSV, says
    so in one line and keeps the old copy. pull replaces only a copy it wrote (it keeps their digests in
    `data/<deck>/.deckpress-pulled.json`): edit the sheet, not the copy; a copy edited by hand, or a file of
    your own where the copy goes, is kept and said. Mistakes in the sheet's rows are named as the sheet shows
    them: `sheet Units, row 12, column text`."""

    sheet = Str("The sheet's CSV link: https (plain http only to this machine's loopback address).")
    name = Str("What messages call the sheet (`sheet NAME, row 12, column text`); default: the component's id.",
               default=None)

    def validate(self, ctx):
        problem = url_problem(self.sheet) if isinstance(self.sheet, str) else None
        if problem:
            ctx.error(self.source.at("sheet"), f"sheet: {problem}")


class CardsFrom(Option):
    """A spreadsheet file in the project, or a published sheet: its https address, or a Sheet mapping."""

    type_name = "string or Sheet"

    def check(self, value, where, ctx):
        if isinstance(value, str) and "://" in value:  # a file name has no scheme
            value = Map(sheet=value)
            value.where, value.key_where, value.value_where = where, {"sheet": where}, {"sheet": where}
        if isinstance(value, Map):
            return Sheet.load(value, where, ctx)
        return Str(self.doc).check(value, where, ctx)

    def schema(self):
        return {"anyOf": [{"type": "string"}, Sheet.json_schema()]}


class Component(Record):
    """A physical component: a deck of cards, or a set of tokens (chips, markers, stars)."""

    id = Id("Unique id of the component, used in file names.")
    name = Localized(Text("Name shown in TTS and the PDFs."))
    type = Choice("What it is.", ["cards", "tokens"], default="cards")
    role = Choice("`play`: part of the game; `reminder`: help cards laid beside the table.",
                  ["play", "reminder"], default="play")
    optional = Bool("An optional set (an expansion): built, but kept out of the main deck in TTS.",
                    default=False)
    template = Str("Template of the faces (a file in templates/, without .yaml).")
    back = Str("Template of the backs; tokens without one show the face on both sides.", default=None)
    size = Size(f"Size: {CARD_SIZE_NAMES} or {{width, height}} in mm; default: the deck's.",
                CARD_SIZES, CARD_LIMITS, "size", default=None)
    shape = Choice("Outline, for TTS and cutting.", ["rounded", "rectangle", "circle", "hex"],
                   default="rounded")
    corner_radius = Number("`shape: rounded`: the radius of the corners in mm, which the cut contours of cutting "
                           "machines and the tokens' cut outlines follow (3.175 = 1/8 in, as playing cards are "
                           "cut).", default=3.175, min=0, max=50)
    fields = MapOf(Id("Field name."), Section(FieldSpec, "The field."),
                   "Card fields this component's cards have, besides name, id and count.", default=dict)
    cards = CardsOption("The cards (or tokens), each with its count.", default=None)
    cards_from = CardsFrom("A spreadsheet of cards, .csv or .xlsx (relative to the deck file), or a published "
                           "sheet ([Sheet](#sheet): its https address, or `{sheet: URL, name: NAME}`): the first "
                           "row names the keys (`name`, `count` and the declared fields), each other row is a "
                           "card. Instead of `cards`, or beside it. A sheet is read from its copy, "
                           f"`{COPIES}/<deck>/<component>.csv`, which `deckpress pull` writes.", default=None)
    token = Section(TokenOptions, "Token settings (type: tokens).", default=None)
    colour_blind = Section(ColourBlind, "Which field of the cards colour-blind players must tell apart, for "
                           "`deckpress check --colour-blind`; none: the check leaves the component out.", default=None)

    def validate(self, ctx):
        self.cards_file = None
        if self.fields is None:
            return
        entries = list(zip(self.cards or [], getattr(self.cards, "item_where", [])))
        if isinstance(self.cards_from, Sheet):
            entries += self._sheet(ctx)
        elif self.cards_from is not None:
            entries += self._spreadsheet(ctx)
        elif self.cards is None and "cards" not in self.source:  # a bad `cards` has its own line
            ctx.error(self.where, f"component {self.id!r} has no cards; add `cards:` (a list) or `cards_from:` "
                                  "(a .csv or .xlsx file)")
        extra = {name: spec.option() for name, spec in self.fields.items() if spec is not None}
        cards: list[Card] = []
        at = self.source.at("cards")
        for raw, where in entries:
            for member in _expand(raw, where, ctx):
                try:
                    card = Card.load(member, where, ctx, extra=extra)
                except Invalid as err:
                    ctx.error(where, str(err))
                    continue
                if card.name is not None and card.id is None:
                    card.id = slug(card.name)
                card.template = card.template or self.template
                card.back = card.back or self.back
                cards.append(card)
            if len(cards) > MAX_CARDS:  # checked after each entry, so a long list stops early
                ctx.error(at, f"more than {MAX_CARDS} different cards, the most a component may have; split the "
                              "component or give cards a `count`")
                break
        self.cards = cards
        if self.colour_blind is not None and self.colour_blind.distinct_by is not None:
            self._check_distinct_by(ctx)
        total = sum(card.count for card in cards if isinstance(card.count, int))
        if total > MAX_COMPONENT_COUNT and len(cards) <= MAX_CARDS:
            ctx.error(at, f"{total} cards in all, more than the {MAX_COMPONENT_COUNT} a component may hold; "
                          "lower the counts or split the component")

    def _check_distinct_by(self, ctx) -> None:
        """`colour_blind.distinct_by` names a field of the component's cards."""
        name = self.colour_blind.distinct_by
        known = ["id", "name", "count", *self.fields]
        if name not in known:
            close = close_matches(name, known)
            ctx.error(self.colour_blind.source.at("distinct_by"),
                      f"distinct_by: {name!r} is no field of the cards of {self.id!r}; " +
                      (f"did you mean {close[0]!r}?" if close else f"name one of their fields: {', '.join(known)}"))

    def _spreadsheet(self, ctx) -> list[tuple[Any, Where]]:
        """The rows of `cards_from`, located at FILE:ROW:COLUMN; its path is kept as `cards_file`."""
        where = self.source.at("cards_from")
        self.cards_file = project_file(self.cards_from, where, "spreadsheet", ctx)
        if self.cards_file is None:
            return []
        return self._rows(str(Path(where.path).parent / self.cards_from), None, ctx)

    def _sheet(self, ctx) -> list[tuple[Any, Where]]:
        """The rows of the published sheet's copy in the project, located as `sheet NAME, row R, column
        HEADING`; the copy's path is kept as `cards_file`."""
        if self.id is None or self.cards_from.sheet is None or url_problem(self.cards_from.sheet):
            return []
        where = self.cards_from.source.at("sheet")
        deck_path = Path(where.path)
        name = self.cards_from.name or self.id
        copy = copy_path(deck_path, self.id)
        shown = copy.relative_to(project_root(deck_path)).as_posix()
        try:
            file = confine(copy, deck_path)
        except OutsideProject:
            ctx.error(where, f"sheet {name}: its copy {shown} leads outside the project; make {COPIES}/ a folder of "
                             f"{project_root(deck_path)}")
            return []
        if not file.is_file():
            ctx.error(where, f"sheet {name}: no copy in the project ({shown}); run deckpress pull {deck_path.stem}")
            return []
        self.cards_file = file
        return self._rows(str(file), name, ctx)

    def _rows(self, shown: str, sheet: str | None, ctx) -> list[tuple[Any, Where]]:
        """The cards of `cards_file`, each with its place (see tables.load_cards)."""
        kinds = {name: spec.type for name, spec in self.fields.items() if spec is not None}
        try:
            known = [k for k in Card.OPTIONS if k not in ("each", "only")] + list(kinds)
            rows = load_cards(self.cards_file, shown, kinds, known, sheet)
        except DeckError as err:
            for problem in err.problems:
                ctx.error(problem.where, problem.message)
            return []
        return list(zip(rows, rows.item_where))


def _expand(raw: Any, where: Where, ctx: Context) -> list[Any]:
    """A family entry (`each`) becomes one mapping per member, expressions filled in."""
    if not isinstance(raw, Map) or "each" not in raw:
        return [raw]
    each, at = raw["each"], raw.at("each")
    if isinstance(each, dict) and each and all(isinstance(v, list) for v in each.values()):
        size = math.prod(len(v) for v in each.values())
        if size > MAX_FAMILY:
            ctx.error(at, f"`each` makes {size} cards ({' x '.join(str(len(v)) for v in each.values())}), more "
                          f"than the {MAX_FAMILY} a family may have; use shorter lists or several families")
            return []
        names = list(each)
        members = [dict(zip(names, combo)) for combo in itertools.product(*each.values())]
    elif isinstance(each, list) and each and all(isinstance(m, dict) for m in each):
        if len(each) > MAX_FAMILY:
            ctx.error(at, f"`each` lists {len(each)} members, more than the {MAX_FAMILY} a family may have; "
                          "split it into several families")
            return []
        members = [dict(m) for m in each]
    else:
        ctx.error(at, "`each` needs a mapping of name to list of values, or a list of mappings; "
                      "e.g. each: {n: [1, 2, 3]}")
        return []
    out = []
    for variables in members:
        try:
            if raw.get("only") is not None and not render_value(raw["only"], variables):
                continue
            out.append(_fill(raw, variables))
        except Invalid as err:
            ctx.error(where, str(err))
            return []
    return out


def _fill(value: Any, variables: dict) -> Any:
    if isinstance(value, Map):
        out = Map((k, _fill(v, variables)) for k, v in value.items() if k not in ("each", "only"))
        out.where, out.key_where, out.value_where = value.where, value.key_where, value.value_where
        return out
    if isinstance(value, Seq):
        out = Seq(_fill(v, variables) for v in value)
        out.where, out.item_where = value.where, value.item_where
        return out
    if not is_expression(value):
        return value
    result = render_value(value, variables)
    problem = not_plain(result)
    if problem:
        raise Invalid(f"expression {value!r}: {problem}")
    return result


class TableBlock(Record):
    """A table in the rules."""

    header = ListOf(Localized(Text("A column heading.")), "Column headings.")
    rows = ListOf(ListOf(Localized(Text("A cell.")), "A row's cells."), "The rows.")


class Block(Record):
    """One block of rules text: exactly one of its keys. A plain string is a paragraph."""

    paragraph = Localized(Text("A paragraph.", default=None))
    heading = Localized(Text("A sub-heading.", default=None))
    list = ListOf(Localized(Text("An item.")), "A bulleted list.", default=None)
    numbered = ListOf(Localized(Text("An item.")), "A numbered list.", default=None)
    table = Section(TableBlock, "A table.", default=None)

    def validate(self, ctx):
        given = [k for k in type(self).OPTIONS if getattr(self, k) is not None]
        if len(given) != 1:
            ctx.error(self.where, "a rules block holds exactly one of paragraph, heading, list, numbered, "
                                  f"table (this one has {', '.join(given) or 'none'})")

    @property
    def kind(self) -> str:
        return next(k for k in type(self).OPTIONS if getattr(self, k) is not None)

    @property
    def content(self):
        return getattr(self, self.kind)


class BlockOption(Option):
    """A plain string (a paragraph) or a Block mapping."""

    type_name = "text or Block"

    def check(self, value, where, ctx):
        if isinstance(value, dict) and set(value) & set(Block.OPTIONS):
            return Block.load(value, where, ctx)
        block = Block.__new__(Block)
        block.where, block.extra = where, {}
        for key in Block.OPTIONS:
            setattr(block, key, None)
        block.paragraph = Localized(Text("A paragraph.")).check(value, where, ctx)
        return block

    def schema(self):
        return {"anyOf": [Localized(Text("")).schema(), Block.json_schema()]}


BLOCKS = ListOf(BlockOption("A block of rules text."), "Paragraphs, lists and tables.", default=list)


class RuleSection(Record):
    """A section of the rules, with a heading; one tab of the TTS notebook."""

    heading = Localized(Text("The section's heading."))
    id = Id("Id of the section; default: from the heading.", default=None)
    body = BLOCKS
    reminder = Bool("Print this section on the PDF's rules reminder pages.", default=True)

    def validate(self, ctx):
        if self.id is None and self.heading:
            self.id = slug(self.heading)


class Mode(Record):
    """A game mode (variant) with its own rules and engine options."""

    id = Id("Id of the mode, used by the TTS scripts.")
    name = Localized(Text("The mode's name."))
    players = Section(Players, "Player count of this mode; default: the game's.", default=None)
    rules = BLOCKS
    options = Free("Settings for the game's rules engine in TTS (see docs/rules/).", default=dict)


class Setup(Record):
    """How a game is set up."""

    deal = MapOf(Int("Players.", min=1), Int("Cards each.", min=0),
                 "Cards dealt to each player, by number of players.", default=dict)
    remove = MapOf(Int("Players.", min=1), ListOf(Id("A card id."), "Card ids."),
                   "Cards taken out of the deck before dealing, by number of players.", default=dict)
    options = Free("Game-specific setup settings for the TTS scripts.", default=dict)


class Icon(Record):
    """An inline icon, written `:name:` in card text and rules: a glyph of a font, or an image file."""

    glyph = Str("The icon as one character (or a few) of `font`, e.g. ★.", default=None)
    font = Str("Font of the glyph: a built-in font, one of the deck's `fonts:`, or an installed font by its "
               "family name.", default="sans")
    color = Color("Colour of the glyph (default: the text's), or of a one-colour image (default: its own "
                  "colours).", default=None)
    image = Str("The icon as an image file (PNG, SVG...), relative to the deck file, inside the project.",
                default=None)

    def validate(self, ctx):
        self.image_file = None
        if (self.glyph is None) == (self.image is None):
            ctx.error(self.where, "an icon is either `glyph:` or `image:`; write e.g. {glyph: \"★\"} or "
                                  "{image: ../art/coin.png}")
            return
        if self.glyph is not None and not self.glyph.strip():
            ctx.error(self.source.at("glyph"), "an icon's glyph is empty; write its character, e.g. "
                                               "{glyph: \"★\"}")
        elif self.glyph is not None and len(self.glyph) > MAX_GLYPHS:
            ctx.error(self.source.at("glyph"), f"an icon's glyph of {len(self.glyph)} characters; an icon is one "
                                               f"character or a few: write at most {MAX_GLYPHS}")
        if self.image is not None:
            self.image_file = project_file(self.image, self.source.at("image"), "icon image", ctx)

    @classmethod
    def json_schema(cls) -> dict:
        out = super().json_schema()
        out["oneOf"] = [{"required": ["glyph"]}, {"required": ["image"]}]  # exactly one of them
        return out


class Deck(Record):
    """A deck file: one game, everything deckpress builds from it."""

    # The builders' own sections (`tts:`, `print:`), which each builder adds (deckpress.builders), in front of
    # `script:`: their keys, in the order added.
    BUILDER_SECTIONS: ClassVar[list[str]] = []

    game = Section(Game, "Game metadata.")
    card_size = Size(f"Card size: {CARD_SIZE_NAMES}, or {{width, height}} in mm.", CARD_SIZES,
                     CARD_LIMITS, "card size", default="poker")
    bleed = Number("Bleed around each face in mm (3.175 = 1/8 in).", default=3.175, min=0, max=10)
    safe = Number("Safe margin inside the trim in mm; templates keep text inside it. A TTS card may lose up to "
                  "half of it at its edges, at most 1/16 in, as a cut card may (docs/tts.md).", default=3.175,
                  min=0, max=20)
    fonts = MapOf(Str("Font name."), Str("Path of a .ttf file, relative to the deck file."),
                  "Extra fonts for the templates, by name.", default=dict)
    icons = MapOf(Str("Icon name, written `:name:` in text.", pattern=ICON_NAME,
                      hint="use lower-case letters, digits, '-' and '_', starting with a letter (e.g. star)"),
                  Section(Icon, "The icon."), "Inline icons of card text and rules, by name.", default=dict)
    components = ListOf(Section(Component, "A component."), "Decks and token sets.", min_items=1)
    rules = Localized(ListOf(Section(RuleSection, "A section."), "The rules, as sections.", default=list))
    modes = ListOf(Section(Mode, "A game mode."), "Game modes (variants).", default=list)
    setup = Section(Setup, "Setup data for the TTS scripts and the rules pages.", default=None)
    script = Id("The scripted game the deck is played with at the table: its folder tts/<script>/ in the project, "
                "in an installed package (entry points `deckpress.games`) or in deckpress (see Records of the "
                "scripted games) holds its Lua and the records (game.yaml) that type this deck's `setup.options`, "
                "modes' `options` and card fields; none: no table script, and they stay free-form.", default=None)

    @classmethod
    def add_section(cls, key: str, record: type[Record]) -> None:
        """A builder's section of the deck file, `key:`, typed by `record` (its docstring's first line the
        section's doc); a section left out holds the record's defaults. Adding one a second time does nothing; a
        key the deck already has otherwise is a ValueError."""
        option = cls.OPTIONS.get(key)
        if isinstance(option, Section) and option.cls is record and key in cls.BUILDER_SECTIONS:
            return
        cls.add_option(key, Section(record, (record.__doc__ or "").strip().splitlines()[0], default=None),
                       before="script")
        cls.BUILDER_SECTIONS.append(key)

    def validate(self, ctx):
        seen: dict[str, str] = {}
        for component in self.components or []:
            if component is None:
                continue
            if component.id in seen:
                ctx.error(component.source.at("id"), f"component id {component.id!r} is used twice; "
                                                     "give each component its own id")
            seen[component.id] = "component"
            ids: set[str] = set()
            for card in component.cards or []:
                if not isinstance(card, Card):
                    continue
                if card.id in ids:
                    ctx.error(card.where, f"card id {card.id!r} is used twice in {component.id}; "
                                          "give the card an `id:` of its own")
                ids.add(card.id)
        modes: set[str] = set()
        for mode in self.modes or []:
            if mode is None or mode.id is None:
                continue
            if mode.id in modes:
                ctx.error(mode.source.at("id"), f"mode id {mode.id!r} is used twice; give each mode its own id")
            modes.add(mode.id)
        different = sum(len(c.cards) for c in self.components or [] if c is not None and c.cards)
        if different > MAX_DECK_CARDS:
            ctx.error(self.source.at("components"), f"{different} different cards, more than the {MAX_DECK_CARDS} "
                                                    "a deck may have; split it into several decks")
        if self.setup is None:
            self.setup = Setup.load(None, self.where, ctx)
        else:
            self._check_deal(ctx)
        for key in self.BUILDER_SECTIONS:  # a section left out: its record's defaults
            if getattr(self, key) is None:
                setattr(self, key, self.OPTIONS[key].cls.load(None, self.where, ctx))
        for component in self.components or []:
            if component is not None and component.size is None:
                component.size = self.card_size
            if component is not None and component.size and component.shape == "rounded" and \
                    2 * component.corner_radius > min(component.size):
                ctx.error(component.source.at("corner_radius") if "corner_radius" in component.source else
                          component.where, f"corners of {component.corner_radius:g} mm do not fit a "
                          f"{component.size[0]:g} x {component.size[1]:g} mm card; give a corner_radius of at "
                          f"most {min(component.size) / 2:g}")
        games.check(self, ctx)

    def _check_deal(self, ctx) -> None:
        """setup.deal and setup.remove name player counts the game is for, and deal no more than the deck
        (its first component of playing cards) holds."""
        players = self.game.players if self.game is not None else None
        if players is None or None in (players.min, players.max) or self.setup.deal is None or ctx.problems.items:
            return  # with a mistake in the cards, what the deck holds is not known
        source = self.setup.source
        deck = next((c for c in self.components or [] if c is not None and c.type == "cards" and
                     c.role == "play" and not c.optional and c.cards), None)
        held = sum(card.count for card in deck.cards if isinstance(card, Card)) if deck else 0
        for key in ("deal", "remove"):
            table = getattr(self.setup, key) or {}
            at = source[key] if isinstance(source, Map) and key in source else None
            for count in table:
                where = at.key_where.get(count, at.where) if isinstance(at, Map) else self.setup.where
                if not players.min <= count <= players.max:
                    ctx.error(where, f"{key} for {count} players, but the game is for {players.min} to "
                                     f"{players.max}; remove it or change game.players")
        at = source["deal"] if isinstance(source, Map) and "deal" in source else None
        for count, each in (self.setup.deal or {}).items():
            removed = len((self.setup.remove or {}).get(count, []))
            if deck is not None and count * each > held - removed:
                where = at.value_where.get(count, at.where) if isinstance(at, Map) else self.setup.where
                ctx.error(where, f"dealing {each} cards to each of {count} players takes {count * each}, but "
                                 f"{deck.id!r} holds {held - removed}" + (f" after removing {removed}" if removed
                                 else "") + f"; deal at most {(held - removed) // count}")


# --- Templates: files in templates/, one card layout each --------------------------------------------

class Template(Record):
    """A card layout: a file templates/NAME.yaml."""

    description = Str("What the template is for.", default="")
    styles = MapOf(Str("Style name."), Free("Values."),
                   "Named styles (e.g. one per card kind); `style` is the one `style_by` picks.",
                   default=dict)
    style_by = Str("Expression naming the card's style, e.g. `{{ card.kind }}`; falls back to `default`.",
                   default=None)
    elements = ListOf(ElementOption("An element."), "What is drawn, back to front.", min_items=1,
                      max_items=MAX_ELEMENTS)

    @classmethod
    def load(cls, value, where, ctx, extra=None):
        if value is not None and not isinstance(value, Map):
            raise DeckError.at(where, "a template file is a mapping, not a list or a value; start it with "
                                      "`elements:` (see docs/templates.md)")
        return super().load(value, where, ctx, extra)


RECORDS: list[type[Record]] = [Deck, Game, Players, Component, Sheet, FieldSpec, Card, TokenOptions, ColourBlind,
                               Icon, RuleSection, Block, TableBlock, Mode, Setup,
                               Template, Element, *elements.RECORDS, elements.Gradient, elements.Shadow]


def json_schema(deck: Deck | None = None) -> dict:
    """The deck format as JSON Schema (draft 2020-12), for YAML editors. With a deck, its cards are held to
    the fields each of its components declares, as `deckpress check` holds them."""
    out = games.json_schema(Deck.json_schema(), Path(deck.where.path) if deck is not None else None)
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["title"] = "deckpress deck file" if deck is None else f"deckpress deck file: {deck.game.name}"
    if deck is not None:
        rules = []
        for component in deck.components:
            fields = {name: spec.option() for name, spec in component.fields.items() if spec is not None}
            rules.append({"if": {"properties": {"id": {"const": component.id}}, "required": ["id"]},
                          "then": {"properties": {"cards": Component.OPTIONS["cards"].schema(fields)}}})
        out["properties"]["components"]["items"] = {"allOf": [out["properties"]["components"]["items"], *rules]}
    return out


def record_schema(record: type[Record], title: str) -> dict:
    """A template or print profile file as JSON Schema."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **record.json_schema()}


# deckpress's own builders' sections of the deck file (tts:, print:), each typed by its builder's record.
from .builders import BUILDERS, add_sections  # noqa: E402 (after Deck, which they extend)

add_sections(BUILDERS)
