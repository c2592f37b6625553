"""YAML loading that remembers where every value came from.

Mappings load as `Map` and sequences as `Seq`; both record the position of the
container, and `Map` also of each key and value, so validation can point at the
exact line and column of a mistake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import DeckError, Where


class Map(dict):
    where: Where
    key_where: dict[str, Where]
    value_where: dict[str, Where]

    def at(self, key: str) -> Where:
        """Where the value of `key` is (or the mapping itself when the key is absent)."""
        return self.value_where.get(key, self.where)


class Seq(list):
    where: Where
    item_where: list[Where]


def _where(path: str, node: yaml.Node) -> Where:
    mark = node.start_mark
    return Where(path, mark.line + 1, mark.column + 1)


def _convert(node: yaml.Node, path: str, constructor: yaml.constructor.SafeConstructor) -> Any:
    if isinstance(node, yaml.MappingNode):
        constructor.flatten_mapping(node)
        out = Map()
        out.where, out.key_where, out.value_where = _where(path, node), {}, {}
        for key_node, value_node in node.value:
            key = _convert(key_node, path, constructor)
            if isinstance(key, (dict, list)):
                raise DeckError.at(_where(path, key_node), "a key must be a plain value; write `name: value`")
            if key in out:
                raise DeckError.at(_where(path, key_node), f"duplicate key {key!r}; keep only one")
            out[key] = _convert(value_node, path, constructor)
            out.key_where[key] = _where(path, key_node)
            out.value_where[key] = _where(path, value_node)
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = Seq(_convert(item, path, constructor) for item in node.value)
        seq.where = _where(path, node)
        seq.item_where = [_where(path, item) for item in node.value]
        return seq
    return constructor.construct_object(node, deep=True)


def load_yaml(path: Path) -> Any:
    """Load one YAML file; a syntax error becomes a one-line DeckError."""
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DeckError.at(Where(name), "file not found; check the name") from None
    except UnicodeDecodeError:
        raise DeckError.at(Where(name), "not UTF-8 text; save the file as UTF-8") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = Where(name, mark.line + 1, mark.column + 1) if mark else Where(name)
        problem = (err.problem or "invalid YAML").strip()
        if "'\\t'" in problem:
            raise DeckError.at(where, "YAML syntax error: a tab character; indent with spaces, not tabs") from None
        context = f" {err.context.strip()}" if err.context else ""
        raise DeckError.at(where, f"YAML syntax error: {problem}{context}; "
                           "check indentation, colons and quotes") from None
    if node is None:
        empty = Map()
        empty.where, empty.key_where, empty.value_where = Where(name, 1, 1), {}, {}
        return empty
    return _convert(node, name, yaml.SafeLoader(""))
