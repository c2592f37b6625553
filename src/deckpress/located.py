"""Map and Seq: the mappings and lists read from a deck's files, which know where each value stands there
(source.py reads them; the option records validate them without importing the YAML reader)."""

from __future__ import annotations

from .errors import Where


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
