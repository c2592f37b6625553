"""The rules engines' input as the table gets it: DATA of the Global script, made by the TTS builder's own
`lua_data` from the shipped deck file (without building faces).

    lua = runtime(); use = modules("skorch", lua)
    data = deck_data("skorch", lua)           # the DATA table a built save holds
"""

from __future__ import annotations

from functools import lru_cache

import lupa.lua52 as lua52

from conftest import ROOT
from deckpress.builders.tts.data import lua_data
from deckpress.deck import load_deck
from helpers.fake_tts import to_lua

SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]


@lru_cache(maxsize=None)
def _data(game: str) -> dict:
    deck = load_deck(ROOT / "decks" / f"{game}.yaml", "en" if game == "scout" else None)
    return lua_data(deck, SEATS, None, [], f"{game}.engine")


def deck_data(game: str, lua: lua52.LuaRuntime):
    return to_lua(lua, _data(game))
