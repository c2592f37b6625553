"""Load the Lua modules of tts/ under Lua 5.2 the way a built save does: through deckpress's bundler.

    use = modules("score")          # lib.* and score.* bundled, in a sandbox like TTS's
    engine = use("score.engine")
"""

from __future__ import annotations

import re

import lupa.lua52 as lua52

from conftest import ROOT
from deckpress.scripting import games
from deckpress.errors import Where
from deckpress.builders.tts.lua import bundle, find_modules

# What MoonSharp's TTS sandbox does not have (the fake TTS removes the same).
REMOVED = ("io", "load", "loadstring", "loadfile", "dofile", "require", "package", "utf8", "debug")


def runtime() -> lua52.LuaRuntime:
    lua = lua52.LuaRuntime(unpack_returned_tuples=True)
    for name in REMOVED:
        lua.globals()[name] = None
    return lua


def modules(deck: str, lua: lua52.LuaRuntime | None = None):
    """The bundle of tts/lib and tts/<deck> executed in `lua` (a fresh sandbox by default); returns `use`."""
    lua = lua or runtime()
    path = ROOT / "decks" / f"{deck}.yaml"
    lua.execute(bundle(find_modules(path, games.find(deck, path, Where(str(path))))))
    return lua.globals().use


# What a pure module (game logic, no table) must not touch: the TTS API, unseeded randomness, the clock.
IMPURE = re.compile(r"\b(getObjectFromGUID|getObjectsWithTag|getObjects|spawnObject\w*|Player|Wait|UI|Global|"
                    r"Physics|Notes|broadcastToAll|broadcastToColor|printToAll)\b|\bmath\s*\.\s*random\b|\bos\s*\.")


def strip_strings_and_comments(source: str) -> str:
    source = re.sub(r"--\[(=*)\[.*?\]\1\]", " ", source, flags=re.S)
    source = re.sub(r"--[^\n]*", " ", source)
    source = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', source)
    return re.sub(r"'(?:\\.|[^'\\\n])*'", "''", source)


def impurities(source: str) -> list[str]:
    return [m.group(0) for m in IMPURE.finditer(strip_strings_and_comments(source))]
