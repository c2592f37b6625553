"""A scripted game's Lua run headless, as TTS would run it but with the designer's own files and lines in every
message: what `deckpress check`'s self-play, `deckpress playtest` and `deckpress test` run the game's modules in.

Each bundled module is compiled alone under its file's name (TTS gets them as one bundle, builders/tts/lua.py), so a
syntax error or a run-time error names `tts/climb/engine.lua:54`, and deckpress's own files are named as such:
`(deckpress) lib/util.lua:12`. The state is sandboxed like TTS's MoonSharp (no io, load, require, dofile, utf8,
debug, os). Every call from Python runs under `xpcall`, and a failure is a LuaFailure: the error's one line and
the Lua traceback.

Bounds (docs/scripting.md, "Limits"): one call of an engine's function (a guarded engine, `Runtime.guard`) or
one call from Python may run at most INSTRUCTIONS Lua instructions, and the Lua state may hold at most MEMORY
bytes; past either the call fails with a line naming the function and where it was. Under LuaJIT the project's
own modules run in its interpreter (`jit.off`), where the instruction count is kept; deckpress's modules are
compiled as usual.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import DeckError, Where, display_path
from ..paths import project_root
from ..builders.tts.lua import BUNDLE_HEAD, OWN, Module, own_name, sandbox_problems

DIALECTS = {"jit": "lupa.luajit21", "5.2": "lupa.lua52"}
# What MoonSharp's TTS sandbox lacks, removed here too.
SANDBOX = ("io", "load", "loadstring", "loadfile", "dofile", "require", "package", "utf8", "debug", "os")
INSTRUCTIONS = 200_000_000  # Lua instructions in one call of an engine's function (a second or two)
MEMORY = 512 << 20  # bytes the Lua state may hold
HOOK_EVERY = 10_000  # instructions between two looks at the bounds

# What Lua 5.2 has that LuaJIT names otherwise.
_SHIMS = """
table.unpack = table.unpack or unpack
table.pack = table.pack or function(...) return {n = select("#", ...), ...} end
rawlen = rawlen or function(v) return #v end
"""

# The bounds of a call: a count hook that stops the call past `bound.limit` looks (of `every` instructions
# each) or when the state holds more than `bound.kb`; `bound.what` names what was running. Its head keeps
# `debug`'s functions and collectgarbage private before the sandbox removes them (the fake of TTS bounds its
# scripts with it too).
BOUNDS = """
local load, sethook, getinfo, gc, jit = load, debug.sethook, debug.getinfo, collectgarbage, jit
local bound = {steps = 0, limit = 0, kb = 0, what = "the call", hint = "Every call of the engine must end"}
local function where()
  for level = 3, 40 do
    local info = getinfo(level, "Sl")
    if info == nil then break end
    if info.currentline and info.currentline > 0 and info.what ~= "C" then
      return info.short_src .. ":" .. info.currentline
    end
  end
  return "?"
end
local function hook()
  bound.steps = bound.steps + 1
  if bound.steps > bound.limit then
    bound.steps = 0
    error(where() .. ": " .. bound.what .. " ran past " .. bound.instructions .. " Lua instructions: an endless "
      .. "loop? " .. bound.hint, 0)
  end
  if gc("count") > bound.kb then
    gc("collect")
    if gc("count") > bound.kb then
      error(where() .. ": " .. bound.what .. " made the Lua state hold more than " .. bound.megabytes .. " MB: a "
        .. "table that grows without end?", 0)
    end
  end
end
local function set_bounds(instructions, every, bytes)
  bound.instructions, bound.limit = instructions, math.floor(instructions / every)
  bound.kb, bound.megabytes = bytes / 1024, math.floor(bytes / 1048576)
  sethook(hook, "", every)
end
"""

# The bundle's module table and `use`, the bounds, then, kept private before the sandbox removes `load` and
# `debug`: a definer of modules and the guarded call.
_GLUE = BUNDLE_HEAD + BOUNDS + """
local names = setmetatable({}, {__mode = "k"})  -- a guarded engine's functions, by their contract names
-- The error's message and the frames of the stack it was raised in: "file:line: in function 'name'", an
-- engine's functions by their contract names.
local function handler(e)
  local frames, n = {}, 0
  for level = 2, 60 do
    local info = getinfo(level, "nSlf")
    if info == nil then break end
    if info.what ~= "C" and (info.currentline or 0) > 0 then
      local name = names[info.func] or info.name
      n = n + 1
      frames[n] = info.short_src .. ":" .. info.currentline .. ": in "
        .. (info.what == "main" and "the file's own code" or name and ("function '" .. name .. "'")
            or ("the function of line " .. info.linedefined))
    end
  end
  return {message = type(e) == "string" and e or tostring(e), frames = frames}
end

local glue = {}
glue.bounds = set_bounds
function glue.define(name, source, chunkname, interpreted)
  local chunk, problem = load(source, "=" .. chunkname, "t")
  if chunk == nil then return false, problem end
  if interpreted and jit then jit.off(chunk, true) end
  MODULES[name] = chunk
  return true, false
end
function glue.call(f, ...)
  bound.steps, bound.what = 0, "the call"
  return xpcall(f, handler, ...)
end
-- A table of the engine's functions named in the list `functions` (those it has), each call of one with its
-- own instruction count and named in the bounds' messages: "play". Every function of the engine is named by
-- its key in the frames of a traceback.
function glue.guard(engine, functions)
  for name, f in pairs(engine) do
    if type(f) == "function" then names[f] = name end
  end
  local out = {}
  for _, name in ipairs(functions) do
    local f = engine[name]
    if type(f) == "function" then
      out[name] = function(...)
        local outer, steps = bound.what, bound.steps
        bound.steps, bound.what = 0, name
        return (function(...) bound.what, bound.steps = outer, steps; return ... end)(f(...))
      end
    end
  end
  return out
end
function glue.defined_at(f)
  local info = getinfo(f, "S")
  return info.short_src, info.linedefined
end
return glue
"""

_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<message>.*)$", re.S)
_NEAR = re.compile(r" near (?P<token>'(?:[^']|'(?!$))*'|<eof>)$")


class LuaFailure(Exception):
    """A Lua error at run time: its one line (at the designer's file and line) and the Lua traceback's frames,
    deckpress's own named as such."""

    def __init__(self, line: str, frames: list[str]):
        self.line, self.frames = line, frames
        super().__init__(self.text())

    def __reduce__(self):  # raised in playtest's processes, whose errors come back pickled
        return (LuaFailure, (self.line, self.frames))

    def text(self) -> str:
        if not self.frames:
            return self.line
        return "\n".join([self.line, "Lua traceback:", *(f"  {frame}" for frame in self.frames)])

    @classmethod
    def of(cls, error) -> "LuaFailure":
        """From what the guarded call's handler made of an error: its message and frames. Frames of deckpress's
        glue (`[string ...]`) are left out, and so is the wrapper of a guarded function."""
        frames = [str(error.frames[i]) for i in range(1, len(error.frames) + 1)] if hasattr(error, "frames") else []
        return cls(str(error.message if hasattr(error, "message") else error).strip(),
                   [f for f in frames if not f.startswith("[string")])

    def located(self) -> tuple[Where | None, str]:
        """The error's place (a file of the project, else None) and its message."""
        found = _LOCATED.match(self.line)
        if found is None or found["file"].startswith(OWN):
            return None, self.line
        return Where(found["file"], int(found["line"]), 0), found["message"]


def chunkname(module: Module, root: Path) -> str:
    """What messages call a module's file: its path as `Where` shows it (relative to the working folder) for a
    file of the project at `root` or of an installed game, `(deckpress) lib/util.lua` for one of deckpress's own."""
    own = None if module.path.absolute().is_relative_to(root) else own_name(module.path)
    return own or display_path(str(module.path))


def syntax_error(module: Module, problem: str) -> DeckError:
    """A compile error of `module` as one located line: `tts/climb/engine.lua:137:1: 'end' expected (to close
    'function' at line 120)`; where the module uses Lua that TTS's MoonSharp lacks (Lua 5.3's `//`, goto), that,
    which says what to write instead."""
    lacks = sandbox_problems(module.source)
    if lacks:
        line, column, message = lacks[0]
        return DeckError.at(Where(str(module.path), line, column), message)
    found = _LOCATED.match(str(problem))
    if found is None:
        return DeckError.at(Where(str(module.path)), f"{problem}; fix the Lua")
    line, message = int(found["line"]), found["message"]
    column = 1
    near = _NEAR.search(message)
    if near is not None:
        token = near["token"]
        message = message[: near.start()]
        if token == "<eof>":
            message += " at the end of the file"
            line = min(line, max(1, len(module.source.splitlines())))  # not the line after a final line break
        else:
            text = module.source.splitlines()[line - 1] if line <= module.source.count("\n") + 1 else ""
            if text.count(token[1:-1]) == 1:  # Lua gives no column: the token's, when the line has it once
                column = text.find(token[1:-1]) + 1
            message += f" near {token}"
    return DeckError.at(Where(str(module.path), line, column), message)


_COMPILER: list = []  # one Lua 5.2 state that only compiles (it runs nothing), made when first needed


def compile_modules(modules: list[Module], deck_path: Path) -> None:
    """Compile every module of the deck at `deck_path` alone as Lua 5.2 (TTS's dialect): the first syntax error
    is one located line."""
    if not _COMPILER:
        lupa = importlib.import_module(DIALECTS["5.2"])
        _COMPILER.append(lupa.LuaRuntime().eval("function(source, name) local f, e = load(source, '=' .. name, "
                                                "'t') return e end"))
    root = project_root(deck_path)
    for module in modules:
        problem = _COMPILER[0](module.source, chunkname(module, root))
        if problem is not None:
            raise syntax_error(module, problem)


def compile_text(source: str, where: str) -> str | None:
    """The compile error of a whole script (None when it compiles), named `where` in the message."""
    if not _COMPILER:
        compile_modules([], Path())
    return _COMPILER[0](source, where)


@dataclass
class Bounds:
    instructions: int = INSTRUCTIONS
    memory: int = MEMORY


class Runtime:
    """A sandboxed Lua state holding a deck's modules (`use("climb.engine")`), each compiled under its file's
    name; `call` runs a Lua function guarded, `guard` gives an engine's functions with every call bounded."""

    def __init__(self, modules: list[Module], deck_path: Path, dialect: str = "5.2", bounds: Bounds = Bounds()):
        try:
            lupa = importlib.import_module(DIALECTS[dialect])
        except ImportError:  # a platform whose lupa has no LuaJIT: Lua 5.2 gives the same results, slower
            lupa = importlib.import_module(DIALECTS["5.2"])
        self.lua, self._lua_type = lupa.LuaRuntime(unpack_returned_tuples=True), lupa.lua_type
        self.lua.execute(_SHIMS)
        self.glue = self.lua.execute(_GLUE)
        for name in SANDBOX:
            self.lua.globals()[name] = None
        self.glue.bounds(bounds.instructions, HOOK_EVERY, bounds.memory)
        root = project_root(deck_path)
        for module in modules:
            ok, problem = self._results(self.glue.define(module.name, module.source, chunkname(module, root),
                                                         module.path.absolute().is_relative_to(root)))
            if not ok:
                raise syntax_error(module, problem)

    @staticmethod
    def _results(value) -> tuple:
        return value if isinstance(value, tuple) else (value,)

    def call(self, function, *args, results: int = 1) -> tuple:
        """`function(*args)` in Lua, its first `results` results as a tuple (nil for those it did not return); a
        Lua error is a LuaFailure."""
        ok, *out = self._results(self.glue.call(function, *args))
        if not ok:
            raise LuaFailure.of(out[0])
        return tuple(out[:results]) + (None,) * (results - len(out))

    def use(self, name: str):
        """The module `name`, run once (a LuaFailure when running it fails)."""
        return self.call(self.lua.globals().use, name)[0]

    def guard(self, engine, functions: list[str]):
        """The functions of `engine` (a loaded module's table) named in `functions`, each bounded as a call of its
        own."""
        return self.glue.guard(engine, self.table(functions))

    def defined_at(self, function) -> tuple[str, int]:
        """The file (as messages name it) and the line where a Lua function is defined."""
        return self._results(self.glue.defined_at(function))

    def table(self, value):
        """A JSON-like Python value as Lua tables (lists 1-based)."""
        if isinstance(value, dict):
            return self.lua.table_from({k: self.table(v) for k, v in value.items() if v is not None})
        if isinstance(value, (list, tuple)):
            return self.lua.table_from([self.table(v) for v in value])
        return value

    def python(self, value):
        """Lua tables back as Python values (a sequence 1..n as a list, any other table as a dict)."""
        if self._lua_type(value) != "table":
            return value
        items = dict(value.items())
        if all(isinstance(k, int) for k in items) and sorted(items) == list(range(1, len(items) + 1)):
            return [self.python(items[i]) for i in range(1, len(items) + 1)]
        return {k: self.python(v) for k, v in items.items()}
