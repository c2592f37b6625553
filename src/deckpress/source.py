"""YAML loading that remembers where every value came from, and refuses what a deck has no use for.

Mappings load as `Map` and sequences as `Seq`; both record the position of the
container, and `Map` also of each key and value, so validation can point at the
exact line and column of a mistake.

Only plain data loads: tags (`!!python/...`, `!foo`), merge keys (`<<`), duplicate keys, a byte-order
mark, control characters, NaN and infinity are refused with a located line, and the size of a file,
its nesting and its expansion by aliases are bounded (the MAX_* below; docs/deck-format.md lists them).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml
from yaml._yaml import CParser

from .errors import DeckError, Where
from .located import Map, Seq

MAX_FILE_BYTES = 2_000_000  # a deck or template file
MAX_VALUES = 100_000  # values in a file once aliases (`*name`) are expanded
MAX_DEPTH = 50  # mappings and lists inside one another
MAX_TEXT_CHARS = 50_000  # one text value: far longer than a paragraph of rules
MAX_INT = 2 ** 53  # either way: the largest whole number TTS's Lua (doubles) holds exactly

# Characters never written in a YAML file (tab, LF and CR are whitespace and line ends there).
_BAD_IN_FILE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
# Characters no text value may hold, however it was written (escapes such as "\x00" included).
_BAD_IN_TEXT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def control_character(text: str) -> str | None:
    """A description of the first character `text` may not hold (controls, tab, BOM...), or None."""
    match = _BAD_IN_TEXT.search(text)
    if match is None:
        return None
    char = match.group()
    return "a tab" if char == "\t" else f"the control character U+{ord(char):04X}"


def not_plain(value: Any) -> str | None:
    """Why `value` (read from a file, or made by an expression) is no value a deck may hold, as `what is
    wrong; what to write instead`; None when it is plain data."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, (list, tuple)):
            todo += item
        elif problem := _not_plain_scalar(item):
            return problem
    return None


def _not_plain_scalar(item: Any) -> str | None:
    """`not_plain` of a value that is neither a mapping nor a list."""
    if isinstance(item, str):
        if len(item) > MAX_TEXT_CHARS:
            return f"a text of {len(item)} characters, more than {MAX_TEXT_CHARS}; shorten it or split it"
        bad = control_character(item)
        return None if bad is None else (f"the text holds {bad}; remove it (write spaces instead of tabs, and a "
                                         "line break as a real new line)")
    if isinstance(item, float) and not math.isfinite(item):
        return f"{item} is not a finite number; write an ordinary number such as 1.5"
    if isinstance(item, int) and not isinstance(item, bool) and abs(item) > MAX_INT:
        return (f"{item} is beyond 2^53, the largest whole number TTS's Lua holds exactly; write a smaller "
                "number, or quote it to make it text")
    return None


class _Resolver(yaml.resolver.BaseResolver):
    """YAML 1.2's core schema, as editors read a deck: only true/false are booleans (yes, no, on and off
    are text), 010 is ten, 0o10 eight; a date stays text. PyYAML alone reads YAML 1.1."""


for _tag, _pattern, _first in [
    ("bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
    ("int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
    ("float", r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)",
     "-+0123456789."),
    ("null", r"~|null|Null|NULL|", ["~", "n", "N", ""]),
    ("merge", r"<<", "<"),
]:
    _Resolver.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(f"^(?:{_pattern})$"), list(_first))


def _yaml12_int(constructor, node) -> int:
    text = constructor.construct_scalar(node)
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


class _Loader(yaml.composer.Composer, CParser, yaml.constructor.SafeConstructor, _Resolver):
    """The safe loader, refusing explicit tags and deep nesting while it composes."""

    def __init__(self, stream: str, path: str):
        CParser.__init__(self, stream)
        yaml.composer.Composer.__init__(self)
        yaml.constructor.SafeConstructor.__init__(self)
        _Resolver.__init__(self)
        self.path = path
        self.depth = 0
        self.nodes = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if not isinstance(event, yaml.AliasEvent):
            if event.tag is not None:
                raise DeckError.at(_mark(self.path, event.start_mark),
                                   f"YAML tag {event.tag!r} is not allowed (a deck holds plain data only); "
                                   "remove the tag and write the value itself")
            self.nodes += 1
            if self.nodes > MAX_VALUES:  # stops before the nodes of a long file fill the memory
                raise DeckError.at(_mark(self.path, event.start_mark),
                                   f"the file holds more than {MAX_VALUES} values; split it")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise DeckError.at(_mark(self.path, event.start_mark),
                               f"nested more than {MAX_DEPTH} levels deep; flatten the structure")
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_Loader.add_constructor("tag:yaml.org,2002:int", _yaml12_int)


def _mark(path: str, mark) -> Where:
    return Where(path, mark.line + 1, mark.column + 1)


def _where(path: str, node: yaml.Node) -> Where:
    return _mark(path, node.start_mark)


class _Converter:
    """Nodes to Map, Seq and plain values, counting every value made (aliases expand)."""

    def __init__(self, path: str, loader: _Loader):
        self.path, self.loader = path, loader
        self.made = 0
        self.open: set[int] = set()  # the containers being converted, to catch an alias to itself

    def convert(self, node: yaml.Node) -> Any:
        self.made += 1
        if self.made > MAX_VALUES:
            raise DeckError.at(_where(self.path, node), f"the file expands to more than {MAX_VALUES} values "
                               "(each alias `*name` repeats what it names); use fewer aliases")
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        if id(node) in self.open:
            raise DeckError.at(_where(self.path, node), "an alias refers to the value that holds it, which "
                                                        "never ends; write the value out instead")
        self.open.add(id(node))
        try:
            return self.mapping(node) if isinstance(node, yaml.MappingNode) else self.sequence(node)
        finally:
            self.open.discard(id(node))

    def mapping(self, node: yaml.MappingNode) -> Map:
        out = Map()
        out.where, out.key_where, out.value_where = _where(self.path, node), {}, {}
        for key_node, value_node in node.value:
            at = _where(self.path, key_node)
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise DeckError.at(at, "merge keys `<<` are not supported; write the keys out in this mapping")
            key = self.convert(key_node)
            if isinstance(key, (dict, list)):
                raise DeckError.at(at, "a key must be a plain value; write `name: value`")
            if key in out:
                raise DeckError.at(at, f"duplicate key {key!r} (line {out.key_where[key].line} has it too); "
                                       "keep only one")
            out[key] = self.convert(value_node)
            out.key_where[key] = at
            out.value_where[key] = _where(self.path, value_node)
        return out

    def sequence(self, node: yaml.SequenceNode) -> Seq:
        seq = Seq(self.convert(item) for item in node.value)
        seq.where = _where(self.path, node)
        seq.item_where = [_where(self.path, item) for item in node.value]
        return seq

    def scalar(self, node: yaml.ScalarNode) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except (ValueError, yaml.YAMLError):  # e.g. an integer of more than 4300 digits
            raise DeckError.at(_where(self.path, node), f"{node.value[:20]!r}... is not a value deckpress can "
                                                        "read; write a shorter number, or quote it to make it "
                                                        "text") from None
        problem = _not_plain_scalar(value)
        if problem:
            raise DeckError.at(_where(self.path, node), problem)
        return value


def _undecodable(data: bytes, err: UnicodeDecodeError) -> tuple[int, int]:
    """Where the first byte that is not UTF-8 is, as line and column (in characters)."""
    start = data.rfind(b"\n", 0, err.start) + 1
    line = data.count(b"\n", 0, err.start) + 1
    return line, len(data[start:err.start].decode("utf-8", errors="replace")) + 1


def load_yaml(path: Path) -> Any:
    """Load one YAML file; any problem with it becomes a one-line DeckError."""
    name = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DeckError.at(Where(name), f"the file is {size} bytes, more than the {MAX_FILE_BYTES} a deck "
                                            "or template may have; split it or remove what repeats")
        data = path.read_bytes()
    except FileNotFoundError:
        raise DeckError.at(Where(name), "file not found; check the name") from None
    except IsADirectoryError:
        raise DeckError.at(Where(name), "this is a folder, not a YAML file; check the name") from None
    except OSError as err:
        raise DeckError.at(Where(name), f"cannot read the file ({err.strerror}); check its permissions") \
            from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line, col = _undecodable(data, err)
        raise DeckError.at(Where(name, line, col), f"byte 0x{data[err.start]:02x} is not UTF-8 text; save the "
                                                   "file as UTF-8") from None
    return parse_yaml(text, name)


def parse_yaml(text: str, name: str) -> Any:
    """The plain data of YAML `text` (from the file `name`), refused and bounded as load_yaml says."""
    bad = _BAD_IN_FILE.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        what = "a byte-order mark (BOM)" if bad.group() == "\ufeff" else f"U+{ord(bad.group()):04X}, a control " \
                                                                          "character"
        fix = "save the file as UTF-8 without BOM" if bad.group() == "\ufeff" else "delete it"
        raise DeckError.at(Where(name, line, col), f"the file holds {what}; {fix}")
    loader = _Loader(text, name)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        raise _syntax_error(name, text, err) from None
    except yaml.YAMLError as err:
        raise DeckError.at(Where(name), f"YAML error: {err}; check the file") from None
    except RecursionError:
        raise DeckError.at(Where(name), "the file nests too deeply; flatten the structure") from None
    finally:
        loader.dispose()
    if node is None:
        empty = Map()
        empty.where, empty.key_where, empty.value_where = Where(name, 1, 1), {}, {}
        return empty
    return _Converter(name, loader).convert(node)


def _syntax_error(name: str, text: str, err: yaml.MarkedYAMLError) -> DeckError:
    mark = err.problem_mark or err.context_mark
    where = _mark(name, mark) if mark else Where(name)
    problem = (err.problem or "invalid YAML").strip()
    lines = text.split("\n")
    line, column = (lines[mark.line], mark.column) if mark and mark.line < len(lines) else ("", 0)  # in characters
    if "tab" in problem or line[column:column + 1] == "\t":
        return DeckError.at(where, "YAML syntax error: a tab character; indent with spaces, not tabs")
    if "expected a single document" in (err.context or ""):
        return DeckError.at(where, "a second YAML document (`---`) in the file; keep one document per file")
    escape = re.match(r"\\[uU]([0-9A-Fa-f]+)", line[line.rfind("\\", 0, column + 1):])
    if "escape code" in problem and escape and 0xD800 <= int(escape[1], 16) <= 0xDFFF:
        return DeckError.at(where, f"the escape {escape[0]} is U+{int(escape[1], 16):04X}, half of a surrogate pair "
                                   "and no character; write the character itself")
    context = f" {err.context.strip()}" if err.context else ""
    return DeckError.at(where, f"YAML syntax error: {problem}{context}; check indentation, colons and quotes")
