"""Run a TTS save's Global script under Lua 5.2 (lupa) against the fake TTS API of data/tabletest/fake_tts.lua.

    table = FakeTTS(save, seated=["White", "Red"])   # loads the objects, runs the script, calls onLoad
    table.click("uiGetReady", "White")                # the handler gets Player["White"] and "-1"; frames pass
    table.hand("Red")                                 # card nicknames in Red's hand
    table.reload()                                    # save and load the game: the script starts afresh
    box = table.load_box(saved_object, (20, 1.5, 0))  # a saved object with its own script, loaded into the game
    box.click("uiGetReady", "White")                  # its own XmlUI's handler, in its own script

Time passes in frames: what TTS does later (takeObject, deal, group, putObject, spawnObjectData, Wait)
happens `delay` frames after the call. `click` and `call` let frames pass until nothing is pending
(`settle=False` leaves them pending, as when a player clicks again at once). The lists TTS promises no
order for come back shuffled, seeded by `order_seed` (0: in the order the objects came); `seed` seeds
math.random and the fake's shuffles (by default, math.random goes on from where it is, and the shuffles
start from the fake's own seed).

The Lua state is sandboxed like TTS's MoonSharp: no io, load, require, dofile, utf8 or debug. The Global
script runs as the chunk `Global` (GLOBAL_CHUNK), so that its errors read `Global:1253: ...`, a line of
the script that the build's line map (deckpress.builders.tts.lua.line_map) turns into the designer's file.
"""

from __future__ import annotations

from typing import Any

import lupa.lua52 as lua52

from ..paths import PACKAGE_DATA
from ..scripting import runtime

FAKE = PACKAGE_DATA / "tabletest" / "fake_tts.lua"
GLOBAL_CHUNK = "Global"
FAKE_CHUNK = "fake_tts.lua"  # what errors call the fake's own Lua
REMOVED = ("io", "load", "loadstring", "loadfile", "dofile", "require", "package", "utf8", "debug",
           "collectgarbage")
SETTLE_FRAMES = 20000


class TableProblem(Exception):
    """The fake table cannot go on: it never settles, a script's onSave returned no text, a handler is missing."""


def to_lua(runtime: lua52.LuaRuntime, value: Any) -> Any:
    """A JSON-like value as Lua tables (lists 1-based)."""
    if isinstance(value, dict):
        return runtime.table_from({k: to_lua(runtime, v) for k, v in value.items() if v is not None})
    if isinstance(value, (list, tuple)):
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


def inner(obj):
    """The fake's own state of a TTS object (position, rotation, hand, locked, ...), which no script can read."""
    return obj._fake


class FakeTTS:
    def __init__(self, save: dict, seated: list[str], script: str | None = None, delay: int = 0,
                 order_seed: int = 0, seed: int | None = None, start: bool = True):
        self.lua = lua52.LuaRuntime(unpack_returned_tuples=True)
        self.lua.execute(FAKE.read_text(encoding="utf-8"), name=f"={FAKE_CHUNK}")
        globals_ = self.lua.globals()
        # Object scripts run in globals of their own (as each TTS object's script does), which start from TTS's
        # API alone, never from what the Global script set (`api`): kept for load_box, before the sandbox
        # takes `load` away from the scripts.
        self._object_script = self.lua.eval("""(function(load) return function(source, name, obj, api)
          local env = setmetatable({}, {__index = api})
          env._G, env.self = env, obj
          local chunk, problem = load(source, name, "t", env)
          if chunk == nil then error(problem, 0) end
          chunk()
          return env
        end end)(load)""")
        # Every call from here into the scripts is guarded: it may run at most INSTRUCTIONS Lua instructions (the
        # frames after it included) and the state hold at most MEMORY bytes (deckpress.scripting.runtime's bounds), and
        # the traceback of an error is kept where it began, through a pcall that caught it and a rethrow (as
        # lib/table.lua's flows do): lupa's own needs `debug`, which TTS's scripts lack.
        self._guard, self._caught = self.lua.execute(runtime.BOUNDS + """
          set_bounds(...)
          bound.hint = "Every handler and callback of the table must end"
          local xpcall, traceback, pack, unpack, caught = xpcall, debug.traceback, table.pack, table.unpack, {}
          local function keep(e)
            if type(e) == "string" and e ~= caught.message then
              caught.message, caught.traceback = e, traceback(e, 2)
            end
            return e
          end
          pcall = function(f, ...) return xpcall(f, keep, ...) end
          local function guard(what, f, ...)
            if what then bound.steps, bound.what, caught.message = 0, what, nil end
            local result = pack(xpcall(f, keep, ...))
            if not result[1] then error(result[2], 0) end
            return unpack(result, 2, result.n)
          end
          return guard, caught""", runtime.INSTRUCTIONS, runtime.HOOK_EVERY, runtime.MEMORY)
        self.boxes: list[Box] = []
        for name in REMOVED:
            globals_[name] = None
        os_table = globals_.os
        for name in ("execute", "exit", "getenv", "remove", "rename", "tmpname"):
            os_table[name] = None
        self.fake = globals_.Fake
        self.fake.delay = delay
        self.fake.order_seed = order_seed
        self.fake.seated = to_lua(self.lua, list(seated))
        if seed is not None:  # math.random's sequence and the fake's shuffles', before the script's first call
            globals_.math.randomseed(seed)
            self.fake.seed = seed
        self.fake.load(to_lua(self.lua, save["ObjectStates"]))
        self.fake_globals = dict(globals_.items())  # TTS's API: what a loaded game's script starts with
        self.api = self.lua.table_from(self.fake_globals)
        self.script = script if script is not None else save["LuaScript"]
        if start:
            self.start_script(save.get("LuaScriptState", ""))

    def traceback(self, err: lua52.LuaError) -> str:
        """A Lua error's text and the traceback of where it began."""
        message = str(err).strip().partition("\nstack traceback:")[0]
        if self._caught.message is not None and message == str(self._caught.message).strip():
            return str(self._caught.traceback)
        return str(err)

    def start_script(self, state: str) -> None:
        """Run the Global script on the table as it lies, then its onLoad(state)."""
        self._guard("loading the Global script", self.lua.compile(self.script, name=f"={GLOBAL_CHUNK}"))
        on_load = self.lua.globals().onLoad
        if on_load is not None:
            self._guard("onLoad", on_load, state)
        self.settle()

    def reload(self) -> str:
        """What saving the game and loading it again does in TTS: the script's onSave() text is kept, and the
        script starts afresh with it (its modules and variables anew), the objects where they lie; returns
        the text. Nothing the old script started is still running (the table settles first), and none of its
        globals is left (TTS's own, such as Global, are TTS's again): the saved text is all the new script
        knows. The boxes' scripts (load_box) do the same with their own onSave() texts. A Global script without
        onSave (an empty table's) keeps ""."""
        state = self.call("onSave") if self.script else ""
        if not isinstance(state, str):
            raise TableProblem(f"onSave returned {type(state).__name__}, not a string")
        boxes = [(box, box.save()) for box in self.boxes]
        globals_ = self.lua.globals()
        for name in [name for name in globals_.keys() if name not in self.fake_globals]:
            globals_[name] = None
        for name, value in self.fake_globals.items():
            globals_[name] = value
        self.start_script(state)
        for box, box_state in boxes:
            box.start(box_state)
        self.settle()
        return state

    def load_box(self, saved_object: dict, position: tuple[float, float, float]) -> "Box":
        """What loading a saved object (Objects > Saved Objects) into the game does: its one object arrives at
        `position` (a GUID already on the table is replaced), then its LuaScript starts in globals of its own,
        `self` the object, and onLoad gets its LuaScriptState; frames pass until nothing is pending."""
        [state] = saved_object["ObjectStates"]
        obj = self.fake.arrive(to_lua(self.lua, state), to_lua(self.lua, list(position)))
        box = Box(self, obj, state["LuaScript"])
        self.boxes.append(box)
        box.start(state.get("LuaScriptState", ""))
        self.settle()
        return box

    @property
    def globals(self):
        return self.lua.globals()

    @property
    def frame(self) -> int:
        return int(self.fake.frame)

    def settle(self) -> None:
        """Let frames pass until nothing TTS would still do is pending."""
        if not self._guard(None, self.fake.settle, SETTLE_FRAMES):
            raise TableProblem(f"still waiting after {SETTLE_FRAMES} frames")

    def frames(self, count: int) -> None:
        for frame in range(count):
            self._guard(None if frame else f"{count} frames", self.fake.tick)

    def player(self, color: str):
        return self.lua.globals().Player[color]

    def call(self, function: str, *args: Any, settle: bool = True) -> Any:
        fn = self.lua.globals()[function]
        if fn is None:
            raise TableProblem(f"the script defines no global {function}()")
        if settle:
            self.settle()
        out = self._guard(function, fn, *args)
        if settle:
            self.settle()
        return out

    def click(self, handler: str, color: str, value: str | None = None, element_id: str | None = None,
              settle: bool = True) -> Any:
        """What TTS does when `color` left-clicks an XmlUI element whose onClick is `handler` ("-1" as the
        value) or `handler(value)`."""
        return self.call(handler, self.player(color), "-1" if value is None else value, element_id,
                         settle=settle)

    def hand(self, color: str) -> list[str]:
        return list(to_py(self.fake.hand_names(color)) or [])

    def hand_objects(self, color: str) -> list:
        return list(self.fake.hand(color).values())

    def objects(self) -> list:
        """Every object on the table, in the order they came (not shuffled)."""
        return list(self.fake.objects().values())

    def tagged(self, tag: str) -> list:
        return [o for o in self.objects() if o.hasTag(tag)]

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


class Box:
    """An object with its own script (the game's box) in a FakeTTS game: its globals, its Object UI."""

    def __init__(self, table: FakeTTS, obj, script: str):
        self.table, self.obj, self.script = table, obj, script
        self.globals = None

    def start(self, state: str) -> None:
        """Run the object's script afresh in globals of its own, then its onLoad(state)."""
        self.globals = self.table._guard("loading the box's script", self.table._object_script, self.script,
                                         f"box {self.obj.getGUID()}", self.obj, self.table.api)
        on_load = self.globals.onLoad
        if on_load is not None:
            self.table._guard("the box's onLoad", on_load, state)

    def save(self) -> str:
        state = self.call("onSave")
        if not isinstance(state, str):
            raise TableProblem(f"the box's onSave returned {type(state).__name__}, not a string")
        return state

    def call(self, function: str, *args: Any, settle: bool = True) -> Any:
        fn = self.globals[function]
        if fn is None:
            raise TableProblem(f"the box's script defines no global {function}()")
        if settle:
            self.table.settle()
        out = self.table._guard(function, fn, *args)
        if settle:
            self.table.settle()
        return out

    def click(self, handler: str, color: str, value: str | None = None, element_id: str | None = None,
              settle: bool = True) -> Any:
        """What TTS does when `color` clicks an element of the box's own XmlUI: its handler, in the box's script."""
        return self.call(handler, self.table.player(color), "-1" if value is None else value, element_id,
                         settle=settle)

    def ui_attribute(self, element: str, name: str) -> str | None:
        ui = inner(self.obj).ui
        attributes = None if ui is None else ui["attributes"][element]
        return None if attributes is None else attributes[name]

    def ui_value(self, element: str) -> str | None:
        ui = inner(self.obj).ui
        return None if ui is None else ui["values"][element]
