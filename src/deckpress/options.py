"""Typed options: the building blocks of the deck and template schemas.

Each option knows its type, its default and a one-line description, validates a
YAML value (recording a located problem instead of raising), and describes
itself as JSON Schema and as a row of the reference page.
"""

from __future__ import annotations

import math
import re
from typing import Any, ClassVar

from .errors import Problems, Where
from .located import Map

REQUIRED = object()


class Context:
    """What validation needs besides the value: where to report, and the language."""

    def __init__(self, problems: Problems, lang: str = "en", fallback_lang: str = "en",
                 languages: tuple[str, ...] = ()):
        self.problems = problems
        self.lang = lang
        self.fallback_lang = fallback_lang
        self.languages = languages  # every language the deck declares: a text given per language has them all

    def error(self, where: Where, message: str) -> None:
        self.problems.add(where, message)

    def warn(self, where: Where, message: str) -> None:
        """Something the build can go on with but the designer should hear of."""
        self.problems.warn(where, message)


class Invalid(Exception):
    """Raised inside validators; turned into one located problem by the caller."""


def close_matches(word: str, names: list[str], cutoff: float = 0.6) -> list[str]:
    """The name closest to `word` (a list of one), if any is close enough; difflib is imported for a mistake
    only."""
    import difflib

    return difflib.get_close_matches(word, names, n=1, cutoff=cutoff)


def did_you_mean(word: str, choices: list[str]) -> str:
    names = [str(c) for c in choices]
    close = close_matches(str(word), names)
    return f"did you mean {close[0]!r}?" if close else "expected one of: " + ", ".join(names)


class Option:
    """One typed value. Subclasses implement `check` and `schema`."""

    type_name = "any"

    def __init__(self, doc: str, default: Any = REQUIRED):
        self.doc = doc
        self.default = default

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def validate(self, value: Any, where: Where, ctx: Context, key: str | None = None) -> Any:
        """The checked value, or None with a located problem recorded (named after `key` when given)."""
        try:
            return self.check(value, where, ctx)
        except Invalid as err:
            ctx.error(where, f"{key}: {err}" if key else str(err))
            return None

    def check(self, value: Any, where: Where, ctx: Context) -> Any:
        return value

    def schema(self) -> dict:
        return {}

    def json_schema(self) -> dict:
        out = {"description": self.doc, **self.schema()}
        if not self.required and self.default is not None and not callable(self.default):
            out["default"] = self.default
        return out

    def default_value(self) -> Any:
        return self.default() if callable(self.default) else self.default


class Str(Option):
    type_name = "string"

    def __init__(self, doc: str, default: Any = REQUIRED, pattern: str | None = None, hint: str = ""):
        super().__init__(doc, default)
        self.pattern = pattern
        self.hint = hint

    def check(self, value, where, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, bool):
            raise Invalid(f"expected text, got {_kind(value)}; YAML reads true and false as booleans, "
                          "so put the word in quotes, e.g. \"true\"")
        if not isinstance(value, str):
            raise Invalid(f"expected text, got {_kind(value)}; write a plain string")
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise Invalid(f"{value!r} is not valid here; {self.hint}")
        return value

    def schema(self):
        if not self.pattern:
            return {"type": ["string", "number"]}  # a number is text too: `version: 1.0`
        out = {"type": "string", "pattern": f"^{self.pattern}$"}
        if re.fullmatch(self.pattern, "0"):  # a whole number written as such is a valid id
            return {"anyOf": [out, {"type": "integer", "minimum": 0}]}
        return out


MAX_ID = 100  # characters of an id: ids name files (faces/<component>/<card>.png), which a file system limits


class Id(Str):
    type_name = "id"

    def __init__(self, doc: str, default: Any = REQUIRED):
        super().__init__(doc, default, pattern=r"[a-z0-9][a-z0-9_-]*",
                         hint="use lower-case letters, digits, '-' and '_' (e.g. fire-2)")

    def check(self, value, where, ctx):
        value = super().check(value, where, ctx)
        if len(value) > MAX_ID:
            raise Invalid(f"an id of {len(value)} characters, more than the {MAX_ID} an id may have (ids name "
                          "files); write a shorter one")
        return value

    def schema(self):
        out = super().schema()
        out["anyOf"][0]["maxLength"] = MAX_ID
        return out


class Text(Option):
    """Text that may be given once or per language: `Score!` or `{en: Setup, ru: Подготовка}`."""

    type_name = "text"

    def check(self, value, where, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if isinstance(value, str):
            return value
        key = str(next(iter(value))) if isinstance(value, dict) and len(value) == 1 else None
        if key is not None and not re.fullmatch(r"[a-z]{2}(-[A-Z]{2})?", key):  # not a language: `a :b: c`
            raise Invalid(f"YAML reads this text as a mapping, because of the colon and space after {key[-20:]!r}; "
                          "put the whole text in quotes")
        if isinstance(value, dict) and value and all(isinstance(v, str) for v in value.values()):
            for lang in (ctx.lang, ctx.fallback_lang):
                if lang in value:
                    return value[lang]
            raise Invalid(f"no text in language {ctx.lang!r} (have {', '.join(value)}); "
                          f"add `{ctx.lang}: ...`")
        raise Invalid(f"expected text or a mapping of language to text, got {_kind(value)}; "
                      "write a string, or e.g. {en: Setup, ru: Подготовка}")

    def schema(self):
        return {"anyOf": [{"type": ["string", "number"]},
                          {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}}]}


class Int(Option):
    type_name = "integer"

    def __init__(self, doc: str, default: Any = REQUIRED, min: int | None = None, max: int | None = None):
        super().__init__(doc, default)
        self.min, self.max = min, max

    def check(self, value, where, ctx):
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"expected a whole number, got {_kind(value)}; write digits, e.g. 3")
        return self.bounded(value)

    def bounded(self, value):
        if self.min is not None and value < self.min:
            raise Invalid(f"{value} is too small; write a number of at least {self.min}")
        if self.max is not None and value > self.max:
            raise Invalid(f"{value} is too large; write a number of at most {self.max}")
        return value

    def schema(self):
        out = {"type": "integer"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return {"anyOf": [out, {"type": "string", "pattern": r"^\s*-?\d+\s*$"}]}  # check reads "3" as 3

    def key_schema(self) -> dict:
        """The JSON Schema of this option as a mapping key (JSON keys are always text)."""
        return {"pattern": "^[0-9]+$" if self.min is not None and self.min >= 0 else "^-?[0-9]+$"}


NUMBER_TEXT = r"^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$"  # the finite numbers float() reads, as text


class Number(Int):
    type_name = "number"

    def check(self, value, where, ctx):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Invalid(f"expected a number, got {_kind(value)}; write digits, e.g. 2.5")
        return self.bounded(finite(value))

    def schema(self):
        out = {"type": "number"}
        if self.min is not None:
            out["minimum"] = self.min
        if self.max is not None:
            out["maximum"] = self.max
        return {"anyOf": [out, {"type": "string", "pattern": NUMBER_TEXT}]}  # check reads "2.5" as 2.5


class Bool(Option):
    type_name = "boolean"

    def check(self, value, where, ctx):
        if not isinstance(value, bool):
            raise Invalid(f"expected true or false, got {_kind(value)}; write true or false")
        return value

    def schema(self):
        return {"type": "boolean"}


class Choice(Option):
    def __init__(self, doc: str, choices: list[str], default: Any = REQUIRED):
        super().__init__(doc, default)
        self.choices = choices

    @property
    def type_name(self):
        return " | ".join(str(c) for c in self.choices)

    def check(self, value, where, ctx):
        if value not in self.choices:
            raise Invalid(f"unknown value {value!r}; {did_you_mean(value, self.choices)}")
        return value

    def schema(self):
        return {"enum": list(self.choices)}


class Color(Str):
    type_name = "colour"

    def __init__(self, doc: str, default: Any = REQUIRED):
        super().__init__(doc, default, pattern=r"#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?",
                         hint="write a colour as '#rrggbb' or '#rrggbbaa'")


class Free(Option):
    """Any YAML value, passed on as it is (for engine-specific settings)."""

    type_name = "any"

    def check(self, value, where, ctx):
        return _plain(value)


class ListOf(Option):
    def __init__(self, item: Option, doc: str, default: Any = REQUIRED, min_items: int = 0,
                 max_items: int | None = None):
        super().__init__(doc, default)
        self.item = item
        self.min_items, self.max_items = min_items, max_items

    @property
    def type_name(self):
        return f"list of {self.item.type_name}"

    def check(self, value, where, ctx):
        if not isinstance(value, list):
            raise Invalid(f"expected a list, got {_kind(value)}; write one `- item` per line")
        if self.min_items == self.max_items and len(value) != self.min_items:
            raise Invalid(f"{len(value)} items where it takes exactly {self.min_items}; list {self.min_items}")
        if len(value) < self.min_items:
            raise Invalid(f"needs at least {self.min_items} item(s); add `- ...` lines")
        if self.max_items is not None and len(value) > self.max_items:
            raise Invalid(f"{len(value)} items, more than the {self.max_items} allowed; remove some")
        wheres = getattr(value, "item_where", None) or [where] * len(value)
        return [self.item.validate(v, w, ctx) for v, w in zip(value, wheres)]

    def schema(self):
        out = {"type": "array", "items": self.item.json_schema()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        return out


class MapOf(Option):
    def __init__(self, key: Option, value: Option, doc: str, default: Any = REQUIRED):
        super().__init__(doc, default)
        self.key, self.value = key, value

    @property
    def type_name(self):
        return f"map of {self.key.type_name} to {self.value.type_name}"

    def check(self, value, where, ctx):
        if not isinstance(value, dict):
            raise Invalid(f"expected a mapping, got {_kind(value)}; write `key: value` lines")
        out = {}
        for k, v in value.items():
            kw = value.key_where.get(k, where) if isinstance(value, Map) else where
            vw = value.at(k) if isinstance(value, Map) else where
            out[self.key.validate(k, kw, ctx)] = self.value.validate(v, vw, ctx)
        return out

    def schema(self):
        out = {"type": "object", "additionalProperties": self.value.json_schema()}
        key = self.key.key_schema() if isinstance(self.key, Int) else self.key.schema()
        if key.get("pattern"):
            out["propertyNames"] = {"pattern": key["pattern"]}
        elif all(isinstance(choice, str) for choice in key.get("enum", [None])):  # keys from a Choice
            out["propertyNames"] = {"enum": key["enum"]}
        return out


class Section(Option):
    """A mapping with a fixed set of typed keys, loaded into an instance of `cls`."""

    def __init__(self, cls: type["Record"], doc: str, default: Any = REQUIRED):
        super().__init__(doc, default)
        self.cls = cls

    @property
    def type_name(self):
        return self.cls.__name__

    def check(self, value, where, ctx):
        return self.cls.load(value, where, ctx)

    def schema(self):
        return self.cls.json_schema()


class Record:
    """Base of every schema record: declare options as class attributes, in order.

    `extra_keys` lets a record accept more keys than it declares (the card fields a
    component declares); they are validated by `extra_option` and stored in `.extra`.
    """

    OPTIONS: ClassVar[dict[str, Option]] = {}
    UNKNOWN_KEY_HINT: ClassVar[str] = ""  # what else an unknown key could mean, after the suggestion

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        own = {k: v for k, v in vars(cls).items() if isinstance(v, Option)}
        for key in own:
            delattr(cls, key)
        cls.OPTIONS = {}  # a base's options (a group of options a record is built from) first, then its own
        for base in reversed(cls.__mro__[1:]):
            cls.OPTIONS.update(vars(base).get("OPTIONS", {}))
        cls.OPTIONS.update(own)

    where: Where

    @classmethod
    def add_option(cls, key: str, option: Option, before: str) -> None:
        """Declare one more option after the class (a builder's section of the deck), in front of `before`."""
        if key in cls.OPTIONS:
            raise ValueError(f"{cls.__name__} has an option {key!r} already")
        items = list(cls.OPTIONS.items())
        at = [k for k, _ in items].index(before)
        cls.OPTIONS = dict([*items[:at], (key, option), *items[at:]])

    @classmethod
    def load(cls, value: Any, where: Where, ctx: Context, extra: dict[str, Option] | None = None):
        if value is None:
            value = Map()
            value.where, value.key_where, value.value_where = where, {}, {}
        if not isinstance(value, Map):
            raise Invalid(f"expected a mapping, got {_kind(value)}; write `key: value` lines with keys from: "
                          f"{', '.join(cls.OPTIONS)}")
        self = cls.__new__(cls)
        self.where = value.where
        self.extra = {}
        known = {**cls.OPTIONS, **(extra or {})}
        misspelt = set()  # known keys an unknown one was taken for: their absence is the same mistake
        for key in value:
            if key not in known:
                close = close_matches(str(key), [str(k) for k in known])
                misspelt.update(close)
                ctx.error(value.key_where[key], cls.unknown_key(key, list(known)))
        for key, option in known.items():
            if key in value:
                result = option.validate(value[key], value.at(key), ctx, key)
            elif option.required and key in misspelt:
                result = None
            elif option.required:
                ctx.error(value.where, f"missing key {key!r} in {cls.__name__}; add `{key}:` ({option.doc})")
                result = None
            else:
                result = option.default_value()
            if key in cls.OPTIONS:
                setattr(self, key, result)
            else:
                self.extra[key] = result
        self.source = value
        self.validate(ctx)
        return self

    @classmethod
    def unknown_key(cls, key: Any, known: list[str]) -> str:
        """What to say of a key the record does not take."""
        hint = cls.UNKNOWN_KEY_HINT.format(key=key)
        return f"unknown key {key!r} in {cls.__name__}; {did_you_mean(key, known)}{hint}"

    def validate(self, ctx: Context) -> None:
        """Cross-key checks; override in records that need them (records built from groups call super())."""

    @classmethod
    def json_schema(cls) -> dict:
        return {
            "type": "object",
            "description": (cls.__doc__ or "").strip().splitlines()[0],
            "properties": {k: o.json_schema() for k, o in cls.OPTIONS.items()},
            "required": [k for k, o in cls.OPTIONS.items() if o.required],
            "additionalProperties": False,
        }


def finite(value: float) -> float:
    """`value`, unless it is NaN or infinite (which no size, count or offset can be)."""
    if isinstance(value, float) and not math.isfinite(value):
        raise Invalid(f"{value} is not a finite number; write an ordinary number such as 1.5")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"true/false ({value})"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value!r}"
    return f"{type(value).__name__} {value!r}"


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
