"""The rules engines' input as the table gets it: DATA of the Global script, made by the TTS builder's own
`lua_data` from the shipped deck file (without building faces), and Python <-> Lua table conversion.

    lua = runtime(); use = modules("skorch", lua)
    data = deck_data("skorch", lua)           # the DATA table a built save holds
"""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

import lupa.lua52 as lua52

from conftest import ROOT
from deckpress.builders.tts import lua_data
from deckpress.deck import load_deck

SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]


@lru_cache(maxsize=None)
def _data(game: str) -> dict:
    deck = load_deck(ROOT / "decks" / f"{game}.yaml", "en" if game == "scout" else None)
    return lua_data(SimpleNamespace(deck=deck), SEATS, None, [], f"{game}.engine")


def deck_data(game: str, lua: lua52.LuaRuntime):
    return to_lua(lua, _data(game))


def to_lua(lua: lua52.LuaRuntime, value):
    if isinstance(value, dict):
        return lua.table_from({k: to_lua(lua, v) for k, v in value.items() if v is not None})
    if isinstance(value, (list, tuple)):
        return lua.table_from([to_lua(lua, v) for v in value])
    return value


def from_lua(value):
    """Lua tables -> Python: sequences (keys 1..n) become lists, other tables dicts; {} becomes []."""
    if lua52.lua_type(value) != "table":
        return value
    keys = list(value.keys())
    if not keys:
        return []
    if all(isinstance(k, int) for k in keys) and sorted(keys) == list(range(1, len(keys) + 1)):
        return [from_lua(value[k]) for k in range(1, len(keys) + 1)]
    return {k: from_lua(v) for k, v in value.items()}
