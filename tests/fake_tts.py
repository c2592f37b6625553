"""Run a TTS save's Global script under Lua 5.2 (lupa) against the fake TTS API in tests/lua/fake_tts.lua.

    table = FakeTTS(save, seated=["White", "Red"])   # loads the objects, runs the script, calls onLoad
    table.call("uiGetReady", table.player("White"), None, "get_ready")
    table.hand("Red")                                 # card nicknames in Red's hand

The Lua state is sandboxed like TTS's MoonSharp: no io, load, require, dofile, utf8 or debug.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lupa.lua52 as lua52

FAKE = Path(__file__).with_name("lua") / "fake_tts.lua"
REMOVED = ("io", "load", "loadstring", "loadfile", "dofile", "require", "package", "utf8", "debug",
           "collectgarbage")


def to_lua(runtime: lua52.LuaRuntime, value: Any) -> Any:
    """A JSON-like value as Lua tables (lists 1-based)."""
    if isinstance(value, dict):
        return runtime.table_from({k: to_lua(runtime, v) for k, v in value.items()})
    if isinstance(value, list):
        return runtime.table_from([to_lua(runtime, v) for v in value])
    return value


def to_py(value: Any) -> Any:
    """Lua tables back to Python (sequences become lists)."""
    if lua52.lua_type(value) != "table":
        return value
    items = dict(value.items())
    if all(isinstance(k, int) for k in items) and sorted(items) == list(range(1, len(items) + 1)):
        return [to_py(items[i]) for i in range(1, len(items) + 1)]
    return {k: to_py(v) for k, v in items.items()}


class FakeTTS:
    def __init__(self, save: dict, seated: list[str], script: str | None = None):
        self.lua = lua52.LuaRuntime(unpack_returned_tuples=True)
        self.lua.execute(FAKE.read_text(encoding="utf-8"))
        globals_ = self.lua.globals()
        for name in REMOVED:
            globals_[name] = None
        os_table = globals_.os
        for name in ("execute", "exit", "getenv", "remove", "rename", "tmpname"):
            os_table[name] = None
        self.fake = globals_.Fake
        self.fake.seated = to_lua(self.lua, list(seated))
        self.fake.load(to_lua(self.lua, save["ObjectStates"]))
        self.lua.execute(script if script is not None else save["LuaScript"])
        on_load = globals_.onLoad
        if on_load is not None:
            on_load(save.get("LuaScriptState", ""))

    @property
    def globals(self):
        return self.lua.globals()

    def player(self, color: str):
        return self.lua.globals().Player[color]

    def call(self, function: str, *args: Any) -> Any:
        fn = self.lua.globals()[function]
        if fn is None:
            raise AssertionError(f"the script defines no global {function}()")
        return fn(*args)

    def click(self, handler: str, color: str, value: str | None = None, element_id: str | None = None) -> Any:
        """What TTS does when `color` clicks an XmlUI element whose onClick is `handler` or `handler(value)`."""
        return self.call(handler, self.player(color), value, element_id)

    def hand(self, color: str) -> list[str]:
        return list(to_py(self.fake.hand_names(color)) or [])

    def hand_objects(self, color: str) -> list:
        return list(self.fake.hand(color).values())

    def tagged(self, tag: str) -> list:
        return list(self.lua.globals().getObjectsWithTag(tag).values())

    @property
    def broadcasts(self) -> list[str]:
        return list(to_py(self.fake.broadcasts) or [])

    @property
    def calls(self) -> list[str]:
        return list(to_py(self.fake.calls) or [])

    def ui_attribute(self, element: str, name: str) -> str | None:
        attributes = self.fake["ui"]["attributes"][element]
        return None if attributes is None else attributes[name]

    def ui_value(self, element: str) -> str | None:
        return self.fake["ui"]["values"][element]
