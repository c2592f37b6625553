"""Lua for Tabletop Simulator: literal escaping, a sandbox check, module bundling and the jinja2 templates.

TTS runs MoonSharp (Lua 5.2, sandboxed): no `require` at runtime, no io, no load, no utf8, no goto,
no `//` or bitwise operators. So every module file under the project's tts/ folder is wrapped in a
function and registered in a table at the top of the Global script; scripts get modules with
`use("lib.setup")`. Deck data reaches Lua only through `lua_literal`, never by pasting text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ...errors import DeckError, Where, own_failure
from ...paths import PACKAGE_DATA, OutsideProject, confine, find_in, lookup_dirs

KEYWORDS = frozenset("and break do else elseif end false for function goto if in local nil not or repeat "
                     "return then true until while".split())
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
LUA_INT = 2 ** 53  # MoonSharp numbers are doubles: larger integers lose precision


class LuaValueError(ValueError):
    """A Python value that has no faithful Lua literal."""


def lua_string(text: str) -> str:
    """A double-quoted Lua string literal for `text`, safe for any content.

    Backslash, quote and control characters are escaped (controls as 3-digit `\\ddd`, so a following
    digit can't extend them); other characters, including non-ASCII ones, are kept as they are:
    MoonSharp reads the script as Unicode text, so byte escapes of UTF-8 would come out garbled.
    """
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code < 32 or code == 127:
            out.append(f"\\{code:03d}")
        elif 0xD800 <= code <= 0xDFFF:
            raise LuaValueError(f"text holds a lone surrogate (U+{code:04X}); fix the text's encoding")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _key(key: Any) -> str:
    if isinstance(key, bool):
        return f"[{'true' if key else 'false'}]"
    if isinstance(key, str):
        return key if IDENTIFIER.match(key) and key not in KEYWORDS else f"[{lua_string(key)}]"
    if isinstance(key, int):
        return f"[{lua_literal(key)}]"
    raise LuaValueError(f"a Lua table key must be a string or an integer, not {type(key).__name__}")


def _sort_key(key: Any) -> tuple:
    return (0, key, "") if isinstance(key, int) and not isinstance(key, bool) else (1, 0, str(key))


def lua_literal(value: Any, indent: int = 0, width: int = 100) -> str:
    """The Lua literal of a JSON-like Python value (None, bool, int, float, str, list, tuple, dict).

    Maps are written with sorted keys, so the same value always gives the same text. None is only
    allowed as a map value (the key is left out, as Lua can't store nil); a list can't hold None.
    """
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if abs(value) > LUA_INT:
            raise LuaValueError(f"the integer {value} is too large for Lua (at most 2^53)")
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise LuaValueError(f"{value} has no Lua literal; use a finite number")
        return repr(value)
    if isinstance(value, str):
        return lua_string(value)
    if isinstance(value, (list, tuple)):
        if any(v is None for v in value):
            raise LuaValueError("a list for Lua can't hold null (Lua lists end at the first nil)")
        items = [lua_literal(v, indent + 1, width) for v in value]
    elif isinstance(value, dict):
        items = [f"{_key(k)} = {lua_literal(value[k], indent + 1, width)}"
                 for k in sorted(value, key=_sort_key) if value[k] is not None]
    else:
        raise LuaValueError(f"no Lua literal for a {type(value).__name__}")
    if not items:
        return "{}"
    flat = "{" + ", ".join(items) + "}"
    if len(flat) + indent * 2 <= width and "\n" not in flat:
        return flat
    pad = "  " * (indent + 1)
    return "{\n" + "".join(f"{pad}{item},\n" for item in items) + "  " * indent + "}"


def xml_comment(text: str) -> str:
    """`text` safe inside an XML comment, which may not hold `--` nor end with `-`: dashes are spaced.
    (Autoescaping still turns `<` and `&` into entities, which a comment shows as they are.)"""
    while "--" in text:
        text = text.replace("--", "- -")
    return text + " " if text.endswith("-") else text


# --- The MoonSharp sandbox check -------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<long_comment>--\[(?P<lc_eq>=*)\[.*?\](?P=lc_eq)\])
  | (?P<comment>--[^\n]*)
  | (?P<long_string>\[(?P<ls_eq>=*)\[.*?\](?P=ls_eq)\])
  | (?P<string>"(?:\\.|\\\n|[^"\\\n])*"|'(?:\\.|\\\n|[^'\\\n])*')
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<op>//|<<|>>|~=|==|<=|>=|::|\.\.\.|\.\.|[-+*/%^#&~|<>=(){}\[\];:,.])
  | (?P<space>\s+)
  | (?P<other>.)
""", re.S | re.X)

_ASSIGN = re.compile(r"\s*=(?!=)")

FORBIDDEN_NAMES = {
    "goto": "goto is not in MoonSharp's Lua; use a loop with a flag or a function",
    "io": "the io library is not available in TTS",
    "load": "load is not available in TTS",
    "loadstring": "loadstring is not available in TTS",
    "loadfile": "loadfile is not available in TTS",
    "dofile": "dofile is not available in TTS",
    "require": "require does not work in TTS; call use(\"module.name\") to get a bundled module",
    "utf8": "the utf8 library is Lua 5.3; TTS runs Lua 5.2",
}
FORBIDDEN_OPS = {
    "//": "integer division `//` is Lua 5.3; write math.floor(a / b)",
    "&": "bitwise operators are Lua 5.3; use bit32.band",
    "|": "bitwise operators are Lua 5.3; use bit32.bor",
    "~": "bitwise operators are Lua 5.3; use bit32.bxor or bit32.bnot",
    "<<": "bitwise shifts are Lua 5.3; use bit32.lshift",
    ">>": "bitwise shifts are Lua 5.3; use bit32.rshift",
    "::": "labels (goto) are not in MoonSharp's Lua",
}


# A run of tokens that can hold no problem, matched at once: each alternative matches exactly what _TOKEN's
# would where it starts (same patterns, same order where they overlap), but a forbidden name or operator, or an
# opening that is not closed (`--[[`, `[[`, a quote: see _scan), which ends the run; `previous` is the run's
# last token that _scan's `previous` would be. The check then reads one token with _TOKEN where a run ends:
# far fewer steps in Python than a token each.
_NAMES = "|".join(FORBIDDEN_NAMES)
_CLEAN_RUN = re.compile(rf"""(?:
    --\[(?P<lc_eq>=*)\[.*?\](?P=lc_eq)\]
  | --(?!\[=*\[)[^\n]*
  | \s+
  | (?P<previous>
      \[(?P<ls_eq>=*)\[.*?\](?P=ls_eq)\]
    | "(?:\\.|\\\n|[^"\\\n])*"|'(?:\\.|\\\n|[^'\\\n])*'
    | (?!(?:{_NAMES})(?![A-Za-z0-9_]))[A-Za-z_][A-Za-z0-9_]*
    | 0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?
    | ~=|==|<=|>=|\.\.\.|\.\.|/(?!/)|<(?!<)|>(?!>)|:(?!:)|\[(?!=*\[)|-(?!-)|[+*%^\#=(){{}}\];,.]
    | [^-A-Za-z_/<>:~&|"'\[]
  )
)*""", re.S | re.X)
_OPENING = re.compile(r"=*\[")  # after a `[` or `--[` that _TOKEN read alone: a long bracket not closed


def sandbox_problems(source: str) -> list[tuple[int, int, str]]:
    """(line, column, message) for every construct MoonSharp's TTS sandbox lacks; empty when clean."""
    return _scan(source)[0]


def _scan(source: str) -> tuple[list[tuple[int, int, str]], bool]:
    """sandbox_problems of `source`, and whether it is closed: it ends with a line break outside any token
    and opens nothing it does not close (a long comment or bracket, a quoted string), and its last token is
    no `.` or `:`. The tokens of a closed text are those it has in any text it starts, and after it the
    reading goes on as at the start of a text (see clean_around)."""
    problems = []
    previous = None
    closed = source.endswith("\n")
    position, end = 0, len(source)
    while True:
        run = _CLEAN_RUN.match(source, position)
        if run.group("previous") is not None:
            previous = run.group("previous")
        if run.end() == end:
            return problems, closed and previous not in (".", ":")
        match = _TOKEN.match(source, run.end())
        position = match.end()
        kind, text = match.lastgroup, match.group()
        if kind == "comment" and text.startswith("--[") and _OPENING.match(text, 3) \
                or kind == "op" and text == "[" and _OPENING.match(source, position) or text in ("'", '"'):
            closed = False
        if kind in ("space", "comment", "long_comment"):
            continue
        message = None
        if kind == "name" and text in FORBIDDEN_NAMES and previous not in (".", ":"):
            if _ASSIGN.match(source, match.end()) is None:  # `io = 1` is a field or variable, not the library
                message = f"`{text}`: {FORBIDDEN_NAMES[text]}"
        elif kind == "op" and text in FORBIDDEN_OPS:
            message = FORBIDDEN_OPS[text]
        if message is not None:
            start = match.start()
            line = source.count("\n", 0, start) + 1
            problems.append((line, start - (source.rfind("\n", 0, start) + 1) + 1, message))
        previous = text


def closed_and_clean(source: str) -> bool:
    """Whether `source` fits the sandbox and is closed (see _scan): then a script that holds it as a part is
    clean when the text around the part is (clean_around), however often the part is checked once."""
    problems, closed = _scan(source)
    return closed and not problems


def clean_around(script: str, part: str) -> bool:
    """Whether `script` fits the sandbox, given that it holds `part`, which is closed and clean: the text before
    the part's first place in it is closed (or empty) and clean, and the text after it is clean, each read
    alone. False does not say the script has a problem: check it whole then (check_script).

    Each read alone is at least as strict as the whole: the part and the text before it start, as they are
    closed, at a token's start, with the tokens they have in the whole script; only `previous` (a `.` or `:`
    before a name) and the look for `=` after a forbidden name can differ, and alone they excuse nothing."""
    at = script.find(part)
    if at < 0:
        return False
    before, after = script[:at], script[at + len(part):]
    if before:
        problems, closed = _scan(before)
        if problems or not closed:
            return False
    return not _scan(after)[0]


def check_sandbox(source: str, path: str) -> None:
    """Raise a located DeckError when `source` uses something the TTS sandbox lacks."""
    problems = sandbox_problems(source)
    if problems:
        line, col, message = problems[0]
        raise DeckError.at(Where(path, line, col), message)


# --- Bundling --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Module:
    name: str  # "lib.setup", "score.engine"
    path: Path
    source: str


def module_name(tts_dir: Path, path: Path) -> str:
    return ".".join(path.relative_to(tts_dir).with_suffix("").parts)


def find_modules(deck_path: Path, game=None) -> list[Module]:
    """The modules a deck's Global script bundles, sorted: tts/lib/**.lua, the library, from the project's
    tts/ if it has that folder, else from deckpress's own; then the **.lua of the deck's scripted `game` (a
    games.GameFolder, or None), named after the game: `<game>.engine`."""
    out: list[Module] = []
    base = next((d for d in lookup_dirs(deck_path, "tts") if (d / "lib").is_dir()), None)
    folders = ([(base / "lib", lambda file: module_name(base, file), lambda file: confine(file, deck_path))]
               if base is not None else [])
    if game is not None:
        def game_module(file: Path) -> str:
            return ".".join([game.name, *file.relative_to(game.path).with_suffix("").parts])
        folders.append((game.path, game_module, lambda file: game.inside(file, deck_path)))
    for folder, name, inside in folders:
        for file in sorted(folder.rglob("*.lua")):
            try:
                source = inside(file).read_text(encoding="utf-8")
            except OutsideProject as err:
                raise DeckError.at(Where(str(file)), f"{err}; keep the TTS scripts inside the project") from None
            out.append(Module(name(file), file, source))
    return out


BUNDLE_HEAD = """\
-- Modules bundled by deckpress: each file under tts/ is a function that returns its table.
-- use("lib.setup") runs a module once and returns what it returned (TTS has no require).
local MODULES, LOADED = {}, {}
function use(name)
  local found = LOADED[name]
  if found == nil then
    local define = MODULES[name]
    if define == nil then error("no bundled Lua module " .. name, 2) end
    found = define(name)
    if found == nil then found = true end
    LOADED[name] = found
  end
  return found
end
function has_module(name)
  return MODULES[name] ~= nil
end
"""


BOX_ENTRY = """
-- This script is the box's own (TTS's `self`): lib.box gives it the box's UI, objects and places.
use("lib.box").enter(self)
"""


def bundle(modules: list[Module], box: bool = False) -> str:
    """The module table: one `MODULES["name"] = function(...) ... end` per module, in the given order.
    For the script of the game's box (`box`), then the one line that makes the same runtime the box's
    (lib.box): everything else of the two scripts is the same text."""
    parts = [BUNDLE_HEAD]
    for module in modules:
        body = module.source.rstrip("\n")
        parts.append(f"{_module_head(module)}{body}\nend\n")
    if box:
        parts.append(BOX_ENTRY)
    return "".join(parts)


def _module_head(module: Module) -> str:
    return f"\n-- module {module.name} ({module.path.name})\nMODULES[{lua_string(module.name)}] = function(...)\n"


OWN = "(deckpress) "  # what names deckpress's own files in messages


def own_name(path: Path) -> str | None:
    """`(deckpress) lib/util.lua` for a file of deckpress's own (its Lua runtime, its data, its own games), else
    None."""
    from ...scripting import games

    path = path.absolute()
    for own in (PACKAGE_DATA / "tts", PACKAGE_DATA, games.own_root()):
        if own is not None and path.is_relative_to(own):
            return OWN + path.relative_to(own).as_posix()
    return None


LINE_MAP = "global-lines.json"  # line_map's file in the build's tts/, which push and watch read


def line_map(script: str, modules: list[Module], root: Path | None = None) -> list[dict]:
    """Where each bundled module's lines are in the rendered `script`: {"first": its first line there,
    "lines": how many, "path": its file (relative to `root` when inside it, else `(deckpress) lib/util.lua` for
    deckpress's own)}, in script order."""
    out = []
    for module in modules:
        start = script.find(_module_head(module))
        if start < 0:
            continue
        path = module.path
        if root is not None and path.is_relative_to(root):
            name = path.relative_to(root).as_posix()
        else:
            name = own_name(path) or path.as_posix()
        out.append({"first": script.count("\n", 0, start) + 4,  # after the head's blank, comment, MODULES lines
                    "lines": module.source.count("\n") + 1, "path": name})
    return sorted(out, key=lambda entry: entry["first"])


def source_line(lines: list[dict], line: int) -> tuple[str, int] | None:
    """The (file, line) of line `line` of the rendered script, through its line map; None when the line
    is not in a bundled module (the template's own lines)."""
    for entry in lines:
        if entry["first"] <= line < entry["first"] + entry["lines"]:
            return entry["path"], line - entry["first"] + 1
    return None


def check_script(script: str, modules: list[Module], path: str) -> None:
    """Raise a located DeckError when the rendered `script` (from the template `path`, with `modules`
    bundled) uses something the TTS sandbox lacks: at its line in the module's file when it is in one."""
    problems = sandbox_problems(script)
    if not problems:
        return
    line, col, message = problems[0]
    found = source_line(line_map(script, modules), line)
    if found is not None:
        raise DeckError.at(Where(found[0], found[1], col), message)
    raise DeckError.at(Where(f"{path} (rendered)", line, col), message)


class _ProjectLoader(jinja2.BaseLoader):
    """Loads TTS templates from the project's tts/, then deckpress's own, never from outside the two; and
    `<game>/...` from the folder of the deck's scripted game (a games.GameFolder, or None)."""

    def __init__(self, deck_path: Path, game=None):
        self.deck_path = deck_path
        self.dirs = lookup_dirs(deck_path, "tts")
        self.game = game

    def get_source(self, environment, template):
        parts = jinja2.loaders.split_template_path(template)
        if self.game is not None and len(parts) > 1 and parts[0] == self.game.name:
            file = self.game.path.joinpath(*parts[1:])
            file = self.game.inside(file, self.deck_path) if file.is_file() else None
        else:
            file = find_in(self.dirs, "/".join(parts), self.deck_path)
        if file is None:
            raise jinja2.TemplateNotFound(template)
        return file.read_text(encoding="utf-8"), str(file), lambda: True


def environment(deck_path: Path, game=None) -> jinja2.Environment:
    """jinja2's sandbox over the TTS source folders and the scripted game's folder. `{{ x | lua }}` is the
    only way values enter Lua; .xml templates are autoescaped for XML."""
    env = ImmutableSandboxedEnvironment(loader=_ProjectLoader(deck_path, game), undefined=jinja2.StrictUndefined,
                                        autoescape=jinja2.select_autoescape(enabled_extensions=("xml", "xml.j2")),
                                        keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    env.filters["lua"] = lambda value: jinja2.filters.Markup(lua_literal(value))
    env.filters["xml_comment"] = xml_comment
    return env


class Templates:
    """The TTS templates of a deck (and of its scripted `game`'s folder, as `<game>/...`), each read and
    compiled once however often it is rendered: make one per build, as a template may change between builds."""

    def __init__(self, deck_path: Path, game=None):
        self.deck_path = deck_path
        self.environment = environment(deck_path, game)
        self.environment.filters["lua"] = self._lua
        self._literals: dict[int, tuple[Any, jinja2.filters.Markup]] = {}

    def _lua(self, value: Any) -> jinja2.filters.Markup:
        """`{{ x | lua }}`, a table written once for all renders: the build passes its data, which no one
        changes (the sandbox keeps templates from it), to the save's script and to the box's."""
        if not isinstance(value, (dict, list)):
            return jinja2.filters.Markup(lua_literal(value))
        found = self._literals.get(id(value))
        if found is None or found[0] is not value:
            found = self._literals[id(value)] = (value, jinja2.filters.Markup(lua_literal(value)))
        return found[1]

    def compile(self, template: str) -> None:
        """Compile one template of tts/ ahead of its render (a builder preparing while the faces are drawn);
        one that does not compile is left for `render` to say what is wrong with it."""
        try:
            self.environment.get_template(template)
        except (jinja2.TemplateError, OutsideProject):
            pass

    def render(self, template: str, **values: Any) -> str:
        """Render one template of tts/; errors name the file and line."""
        try:
            return self.environment.get_template(template).render(**values)
        except jinja2.TemplateSyntaxError as err:
            raise DeckError.at(Where(err.filename or str(self.file(template)), err.lineno or 0, 1),
                               f"template error: {err.message}; fix the template") from None
        except jinja2.TemplateNotFound as err:
            raise DeckError.at(Where(str(self.file(template))), f"TTS template {err.name!r} not found; restore "
                                                                 f"it or remove what includes it") from None
        except OutsideProject as err:
            raise DeckError.at(Where(str(self.file(template))), f"{err}; keep TTS templates inside the project") \
                from None
        except jinja2.exceptions.SecurityError as err:
            raise DeckError.at(Where(str(self.file(template))), f"template error: {err}; templates may only "
                                                                 "format the values deckpress passes them") from None
        except (jinja2.UndefinedError, LuaValueError, LookupError, TypeError, ValueError) as err:
            file = self.file(template)
            own = own_name(file)
            if own is not None:  # deckpress's own template: the deck's data set it off
                raise own_failure(self.deck_path, f"deckpress's TTS template {own}", str(err)) from None
            raise DeckError.at(Where(str(file)), f"template error: {err}") from None

    def file(self, template: str) -> Path:
        """The file of a template of tts/: the project's, else deckpress's own."""
        dirs = lookup_dirs(self.deck_path, "tts")
        return next((d for d in dirs if (d / template).is_file()), dirs[0]) / template
