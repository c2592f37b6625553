"""A scripted game's records file (tts/<game>/game.yaml): the typed records of its deck data.

The file declares, in the deck format's own field vocabulary (a card field's `type`, `doc`, `default` and
`choices`, and `min`, `max`, `items`, `keys`, `values`, `nullable`, `unique`, `any_of`), what a deck that
names the game (`script: <game>`) may write in `setup.options`, in each mode's `options` and in its
cards' own fields. deckpress turns each declaration into the Option and Record classes the rest of the
deck format is made of, so `deckpress check`, the JSON Schema and docs/deck-format.md cover a game's data
as they cover the deck's. A records file is itself checked by records (GameFile, RecordDecl, FieldDecl
below): a mistake in it is one located line too.

    python: checks.py           # optional: cross-key checks, Python beside the Lua (see scripting/games.py)
    setup: MySetupOptions       # the record of setup.options (none: setup.options stays empty)
    modes: MyModeOptions        # the record of each mode's `options` (none: a mode has no options)
    cards:                      # card fields the game types, by name
      effect: {type: list, items: {type: MyStep}, min: 1, doc: What the card does.}
    records:
      MySetupOptions:
        doc: The game's setup.options.
        keys:
          rounds: {type: integer, min: 1, max: 20, doc: Rounds a game has.}
          first: {type: card, default: null, doc: The card whose holder starts.}
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..errors import DeckError, Problems, Where
from ..options import (REQUIRED, Bool, Choice, Context, Free, Id, Int, Invalid, ListOf, MapOf, Number, Option, Record,
                       Section, Str, _kind, did_you_mean)
from ..source import Map, load_yaml

RECORD_NAME = r"[A-Z][A-Za-z0-9]*"
SCALARS = ["text", "integer", "number", "boolean", "id", "card", "list", "map", "any"]


# --- The records file, typed by records of its own --------------------------------------------------------

class FieldDecl(Record):
    """One key of a game's record, or a card field the game types, in the deck format's field vocabulary
    (a records file, tts/<game>/game.yaml)."""

    type = Str("`text`, `integer`, `number`, `boolean`, `id`, `card` (the id of a card of the deck), `list`, "
               "`map`, `any`, or the name of a record of this file; default: text, or none with `any_of`.",
               default=None)
    doc = Str("What the key means (one line); shown by docs/deck-format.md and the JSON Schema.")
    default = Free("The value when a deck leaves the key out; without it the key is required.", default=None)
    nullable = Bool("null is a value too (e.g. `players_max: null`, no limit).", default=False)
    choices = ListOf(Free("An allowed value."), "The allowed values, if only some are.", default=None, min_items=1)
    min = Number("integer, number: the least value; list: the fewest items.", default=None)
    max = Number("integer, number: the largest value; list: the most items.", default=None)
    unique = Bool("list: no item twice.", default=False)
    items = Free("list: the field of each item (a mapping of these same keys).", default=None)
    keys = Free("map: the field of each key (default: text).", default=None)
    values = Free("map: the field of each value.", default=None)
    any_of = ListOf(Free("A field."), "The value is one of these fields (each a mapping of these same keys), e.g. "
                    "a number or a record.", default=None, min_items=2)


class RecordDecl(Record):
    """A typed record of a game: a mapping with a fixed set of keys (a records file, tts/<game>/game.yaml)."""

    doc = Str("What the record is (its first line heads its section of docs/deck-format.md).")
    keys = MapOf(Str("A key.", pattern=r"[A-Za-z0-9_][A-Za-z0-9_-]*", hint="use letters, digits, '-' and '_' "
                     "(e.g. hand_size, A, 10)"), Section(FieldDecl, "Its field."), "The record's keys, in order.",
                 default=None)
    keys_of = Str("Instead of `keys`: the keys of that record of this file, each optional (a mode's options are "
                  "what it changes of setup.options).", default=None, pattern=RECORD_NAME,
                  hint="name a record of this file, e.g. MySetupOptions")
    check = Id("A function of the game's `python` file that checks the loaded record across its keys: "
               "`check(record, ctx)`, reporting with `ctx.error(where, message)`.", default=None)

    def validate(self, ctx):
        if (self.keys is None) == (self.keys_of is None):
            ctx.error(self.where, "a record has either `keys:` (its fields) or `keys_of:` (another record's); "
                                  "write one of them")


class GameFile(Record):
    """A scripted game's records file, tts/<game>/game.yaml: the records of the data a deck that names the game
    (`script: <game>`) gives it."""

    python = Str("A Python file of the game folder with the checks across keys its records name (`check`), "
                 "and `check(deck, ctx)`, run once the deck's game data is typed (a card's typed game fields are "
                 "its `typed`, by field); they report with `ctx.error(where, message)`.", default=None,
                 pattern=r"[A-Za-z_][A-Za-z0-9_]*\.py", hint="name a .py file of the game folder, e.g. checks.py")
    setup = Str("The record of `setup.options`; none: setup.options stays empty.", default=None,
                pattern=RECORD_NAME, hint="name a record of this file")
    modes = Str("The record of each mode's `options`; none: modes have no options.", default=None,
                pattern=RECORD_NAME, hint="name a record of this file")
    cards = MapOf(Id("A card field."), Section(FieldDecl, "Its field."),
                  "Card fields the game types (a component declares them as `list` or `map`).", default=dict)
    records = MapOf(Str("A record name.", pattern=RECORD_NAME, hint="write a name in CamelCase, e.g. MyStep"),
                    Section(RecordDecl, "The record."), "The game's records, by name.", default=dict)


RECORDS: list[type[Record]] = [GameFile, RecordDecl, FieldDecl]


# --- What the declarations become ------------------------------------------------------------------------

EXPRESSION = {"type": "string", "pattern": r"\{\{|\{%"}  # a family value, e.g. "{{ -n }}"


class CardId(Id):
    """The id of a card of the deck; `label` names the key a list or map of them is under."""

    type_name = "card id"

    def __init__(self, doc: str, default: Any = REQUIRED, label: str | None = None):
        super().__init__(doc, default)
        self.label = label

    def check(self, value, where, ctx):
        value = super().check(value, where, ctx)
        ids = getattr(ctx, "card_ids", None)
        if ids is not None and value not in ids:
            raise Invalid(f"{self.label + ': ' if self.label else ''}no card has the id {value!r}; "
                          f"{did_you_mean(value, sorted(ids))}")
        return value


class Nullable(Option):
    """Another option's value, or null."""

    def __init__(self, inner: Option):
        super().__init__(inner.doc, inner.default)
        self.inner = inner

    @property
    def type_name(self):
        return f"{self.inner.type_name} or null"

    def check(self, value, where, ctx):
        return None if value is None else self.inner.check(value, where, ctx)

    def schema(self):
        return {"anyOf": [self.inner.schema(), {"type": "null"}]}


class AnyOf(Option):
    """A value of the first of several options that takes it."""

    def __init__(self, doc: str, alternatives: list[Option], default: Any = REQUIRED):
        super().__init__(doc, default)
        self.alternatives = alternatives

    @property
    def type_name(self):
        return " or ".join(option.type_name for option in self.alternatives)

    def check(self, value, where, ctx):
        errors = []
        for option in self.alternatives:
            try:
                return option.check(value, where, ctx)
            except Invalid as err:
                errors.append((option, str(err)))
        # "expected ..." is an option's word for a value of another kind: report the one that took the kind
        fitting = [(o, e) for o, e in errors if not e.startswith("expected ")]
        if not fitting:
            raise Invalid(f"expected {self.type_name}, got {_kind(value)}")
        option, error = fitting[0]
        others = [o.type_name for o in self.alternatives if o is not option]
        raise Invalid(f"{error} (or: {' or '.join(others)})")

    def schema(self):
        return {"anyOf": [option.schema() for option in self.alternatives]}


class UniqueListOf(ListOf):
    """A list that holds no item twice."""

    def check(self, value, where, ctx):
        out = super().check(value, where, ctx)
        seen = []
        for item, at in zip(out, getattr(value, "item_where", None) or [where] * len(out)):
            if item in seen:
                ctx.error(at, f"{item!r} is listed twice; list each once")
            seen.append(item)
        return out

    def schema(self):
        return {**super().schema(), "uniqueItems": True}


@dataclass
class GameRecords:
    """The records a game declares, as deckpress's own Option and Record classes."""

    path: Path  # the records file
    records: dict[str, type[Record]] = field(default_factory=dict)
    setup: type[Record] | None = None
    modes: type[Record] | None = None
    cards: dict[str, Option] = field(default_factory=dict)
    python: Path | None = None  # the game's Python file of checks across keys
    module: Any = None  # that file, run


def load_records(path: Path, checks: Callable[[Path], Any] | None = None) -> GameRecords:
    """The records of the file `path`, or a DeckError with a located line for each mistake in it. `checks`
    loads the game's Python module (given its path) when the file names one."""
    raw = load_yaml(path)
    problems = Problems()
    ctx = Context(problems)
    if not isinstance(raw, Map):
        raise DeckError.at(Where(str(path), 1, 1), "a records file is a mapping; start it with `records:` "
                                                   "(see docs/deck-format.md, GameFile)")
    decl = GameFile.load(raw, raw.where, ctx)
    problems.raise_if_any()
    out = GameRecords(path)
    if decl.python is not None:
        out.python = path.parent / decl.python
        if not out.python.is_file():
            problems.add(raw.at("python"), f"python file {decl.python!r} not found beside {path.name}; add it or "
                                           "remove `python:`")
        elif checks is not None:
            out.module = checks(out.python)
    _Builder(decl, out, ctx, out.module).build()
    problems.raise_if_any()
    return out


class _Builder:
    """Turns the declarations of a GameFile into Record classes, resolving the names of records."""

    def __init__(self, decl: GameFile, out: GameRecords, ctx: Context, module: Any):
        self.decl, self.out, self.ctx, self.module = decl, out, ctx, module
        self.building: set[str] = set()

    def build(self) -> None:
        for name in self.decl.records:
            self.record(name, self.decl.source.at("records"))
        self.out.records = {name: self.out.records[name] for name in self.decl.records if name in self.out.records}
        for key in ("setup", "modes"):
            name = getattr(self.decl, key)
            if name is not None:
                setattr(self.out, key, self.record(name, self.decl.source.at(key)))
        for name, spec in self.decl.cards.items():
            if spec is not None:
                self.out.cards[name] = self.option(spec, None, name)

    def record(self, name: str, where: Where) -> type[Record] | None:
        """The Record class `name` declares (built once), or None after a located line."""
        if name in self.out.records:
            return self.out.records[name]
        decl = self.decl.records.get(name)
        if decl is None:
            self.ctx.error(where, f"unknown record {name!r}; {did_you_mean(name, list(self.decl.records))}")
            return None
        if name in self.building:
            self.ctx.error(decl.where, f"record {name!r} contains itself; a record may not nest in itself")
            return None
        self.building.add(name)
        if decl.keys_of is not None:
            base = self.record(decl.keys_of, decl.source.at("keys_of"))
            options = {key: _optional(option) for key, option in (base.OPTIONS if base else {}).items()}
        else:
            options = {key: self.option(spec, None, key) for key, spec in (decl.keys or {}).items() if spec is not None}
        body: dict[str, Any] = {"__doc__": decl.doc, "__module__": __name__, **options}
        if decl.check is not None:
            body["validate"] = self.validator(decl)
        self.out.records[name] = cls = type(name, (Record,), body)
        self.building.discard(name)
        return cls

    def validator(self, decl: RecordDecl) -> Callable:
        function = getattr(self.module, decl.check, None) if self.module is not None else None
        if self.module is not None and not callable(function):
            self.ctx.error(decl.source.at("check"), f"the game's python file has no function {decl.check!r}; "
                                                    "define it, or remove `check:`")
        python = self.out.python

        def validate(record: Record, ctx: Context) -> None:
            if not callable(function):
                return
            try:
                function(record, ctx)
            except Exception as err:  # noqa: BLE001 (any failure of the game's code is a located line)
                ctx.error(Where(str(python)), f"the game's check {decl.check!r} fails: {type(err).__name__}: {err}; "
                                              "fix the game's python file")
        return validate

    def option(self, spec: FieldDecl, label: str | None, under: str | None) -> Option:
        """The Option a field declares, under the record key `under`; `label` (the key, for a field nested in
        it) prefixes what its card ids report, as a problem at a key names that key."""
        default = spec.default if "default" in spec.source else REQUIRED
        nested = dict(items="list", keys="map", values="map")
        for key, kind in nested.items():
            if getattr(spec, key) is not None and spec.type != kind:
                self.ctx.error(spec.source.key_where[key], f"`{key}` belongs to a field of type {kind}; remove it "
                                                           f"or write `type: {kind}`")
        if spec.any_of is not None:
            raw = spec.source["any_of"]
            alternatives = [self.option(self.sub(item, at), label, under) for item, at in zip(raw, raw.item_where)]
            option: Option = AnyOf(spec.doc, alternatives, default)
        elif spec.choices is not None:
            option = Choice(spec.doc, list(spec.choices), default)
        else:
            option = self.typed(spec, label, under, default)
        if spec.nullable:
            option = Nullable(option)
        if default is not REQUIRED and default is not None:
            try:
                option.check(default, spec.source.at("default"), self.ctx)
            except Invalid as err:
                self.ctx.error(spec.source.at("default"), f"default: {err}")
        return option

    def typed(self, spec: FieldDecl, label: str | None, under: str | None, default: Any) -> Option:
        kind, doc = spec.type or "text", spec.doc
        if kind not in SCALARS and kind not in self.decl.records:
            self.ctx.error(spec.source.at("type"), f"unknown type {kind!r}; "
                                                   f"{did_you_mean(kind, SCALARS + list(self.decl.records))} (a "
                                                   "built-in type or a record of this file)")
            return Free(doc, default)
        bounds = [key for key in ("min", "max") if getattr(spec, key) is not None]
        if bounds and kind not in ("integer", "number", "list"):
            self.ctx.error(spec.source.key_where[bounds[0]], f"`{'` and `'.join(bounds)}` bound an integer, a number "
                                                             f"or a list, not {kind}; remove "
                                                             f"{'it' if len(bounds) == 1 else 'them'}")
        if spec.unique and kind != "list":
            self.ctx.error(spec.source.key_where["unique"], f"`unique` belongs to a list, not {kind}; remove it")
        low, high = spec.min, spec.max
        if kind == "integer":
            return Int(doc, default, min=_whole(low), max=_whole(high))
        if kind == "number":
            return Number(doc, default, min=low, max=high)
        if kind == "list":
            if spec.items is None:
                self.ctx.error(spec.where, "a list field says what its items are; add e.g. `items: {type: id, "
                                           "doc: A pile.}`")
                return Free(doc, default)
            kind_of = UniqueListOf if spec.unique else ListOf
            return kind_of(self.nested(spec, "items", under), doc, default, min_items=_whole(low) or 0,
                           max_items=_whole(high))
        if kind == "map":
            if spec.values is None:
                self.ctx.error(spec.where, "a map field says what its values are; add e.g. `values: {type: integer, "
                                           "doc: Points.}`")
                return Free(doc, default)
            keys = self.nested(spec, "keys", under) if spec.keys is not None else Str("A key.")
            return MapOf(keys, self.nested(spec, "values", under), doc, default)
        simple = {"text": Str, "boolean": Bool, "id": Id, "any": Free}
        if kind in simple:
            return simple[kind](doc, default)
        if kind == "card":
            return CardId(doc, default, label)
        record = self.record(kind, spec.source.at("type"))
        return Section(record, doc, default) if record is not None else Free(doc, default)

    def nested(self, spec: FieldDecl, key: str, under: str | None) -> Option:
        """The option of the field `spec` declares under `key` (items, keys, values), in the record key `under`."""
        return self.option(self.sub(spec.source[key], spec.source.at(key)), under, under)

    def sub(self, raw: Any, where: Where) -> FieldDecl:
        """The field declared by the mapping `raw` (an item, key, value or alternative of another field); a
        field of any value after a located line when `raw` is no mapping."""
        try:
            return FieldDecl.load(raw, where, self.ctx)
        except Invalid as err:
            self.ctx.error(where, str(err))
            blank = Map(doc="", type="any")
            blank.where, blank.key_where, blank.value_where = where, {}, {}
            return FieldDecl.load(blank, where, self.ctx)


def _optional(option: Option) -> Option:
    """A copy of `option` with no default: given or not, never required."""
    out = copy.copy(option)
    out.default = None
    return out


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value)


def family_schema(schema: Any) -> Any:
    """A card field's JSON Schema as a family (`each`) may write it: any number may be an expression."""
    if isinstance(schema, list):
        return [family_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: family_schema(v) for k, v in schema.items()}
    if out.get("type") in ("number", "integer"):
        return {"anyOf": [out, EXPRESSION]}
    return out
