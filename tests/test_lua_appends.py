"""No shipped Lua appends with `t[#t + 1] = x` (or `table.insert(t, x)`) inside a loop.

TTS runs MoonSharp 2.0.0.0, where `#t` walks the table (its length is cached, and every write of a number
key drops the cache), so each such append costs time in the length of t and a loop of them is quadratic:
4,000 appends take 520 ms there against 2.7 ms with a kept count (bench/moonsharp.py). The rule is the
team's (docs/scripting.md): inside a loop, keep a count. A single append outside any loop costs one walk,
the same as any other way to find the end of a list, so it is allowed; a function defined inside a loop
counts as inside it. Strings, comments and Jinja tags are not code; the scan follows Lua's blocks
(for/while ... do ... end, repeat ... until, function ... end, if ... end, do ... end)."""

from __future__ import annotations

import re

import pytest

from conftest import ROOT

# The Lua that runs in TTS: the games' and the runtime's, not the fake of TTS (data/tabletest/), which runs under
# lupa's Lua 5.2 alone, whose `#t` is a binary search.
SHIPPED = sorted(p for p in [*ROOT.glob("tts/**/*.lua"), *(ROOT / "src" / "deckpress" / "data").glob("**/*.lua"),
                             *(ROOT / "src" / "deckpress" / "data").glob("**/*.lua.j2")]
                 if "tabletest" not in p.parts)

NAME = r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*|\s*\[[^\[\]\n]*\])*"
APPEND = re.compile(rf"(?<![\w.\]])({NAME})\s*\[\s*#\s*\1\s*\+\s*1\s*\]\s*=(?!=)")
INSERT = re.compile(r"\btable\s*\.\s*insert\s*\(")
KEYWORD = re.compile(r"\b(for|while|repeat|until|do|end|function|if)\b")


def blank(text: str) -> str:
    """`text` with every character of its comments, strings and Jinja tags a space (newlines kept)."""
    out, i, n = list(text), 0, len(text)

    def clear(start: int, stop: int) -> None:
        for k in range(start, min(stop, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        long_ = re.compile(r"(--)?\[(=*)\[").match(text, i)
        if long_ and (long_.group(1) or text[i] == "["):
            stop = text.find("]" + long_.group(2) + "]", long_.end())
            stop = n if stop < 0 else stop + len(long_.group(2)) + 2
            clear(i, stop)
            i = stop
        elif text.startswith("--", i):
            stop = text.find("\n", i)
            stop = n if stop < 0 else stop
            clear(i, stop)
            i = stop
        elif text[i] in "\"'":
            k = i + 1
            while k < n and text[k] != text[i] and text[k] != "\n":
                k += 2 if text[k] == "\\" else 1
            clear(i, k + 1)
            i = k + 1
        elif text.startswith(("{%", "{{", "{#"), i):
            stop = text.find({"{%": "%}", "{{": "}}", "{#": "#}"}[text[i:i + 2]], i + 2)
            stop = n if stop < 0 else stop + 2
            clear(i, stop)
            i = stop
        else:
            i += 1
    return "".join(out)


def is_append_insert(code: str, start: int) -> bool:
    """Whether the table.insert( call at `start` has two arguments (an append)."""
    depth, commas = 0, 0
    for char in code[start:]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return commas == 1
        elif char == "," and depth == 1:
            commas += 1
    return False


def appends_in_loops(text: str) -> list[int]:
    """The lines of `text` (Lua) that append with # or table.insert inside a loop."""
    code = blank(text)
    events = [(m.start(), m.group(1)) for m in KEYWORD.finditer(code)]
    events += [(m.start(), "append") for m in APPEND.finditer(code)]
    events += [(m.start(), "append") for m in INSERT.finditer(code) if is_append_insert(code, m.end() - 1)]
    stack: list[str] = []
    loop_pending = False
    lines = []
    for at, what in sorted(events):
        if what in ("for", "while"):
            loop_pending = True
        elif what == "do":
            stack.append("loop" if loop_pending else "do")
            loop_pending = False
        elif what == "repeat":
            stack.append("loop")
        elif what in ("function", "if"):
            stack.append(what)
        elif what in ("end", "until") and stack:
            stack.pop()
        elif what == "append" and "loop" in stack:
            lines.append(code.count("\n", 0, at) + 1)
    return lines


@pytest.mark.parametrize("source, lines", [
    ("for i = 1, 3 do\n  t[#t + 1] = i\nend", [2]),
    ("while x do t[#t+1]=x end", [1]),
    ("repeat\n  s.a[k][#s.a[k] + 1] = 1\nuntil done", [2]),
    ("for _, v in ipairs(l) do\n  local function f()\n    out[#out + 1] = v\n  end\n  f()\nend", [3]),
    ("for i = 1, 3 do table.insert(t, i) end", [1]),
    ("for i = 1, 3 do table.insert(t, 1, f(i, 2)) end", []),          # an insert at a place, not an append
    ("t[#t + 1] = 1\nfor i = 1, 3 do x = y end\nu[#u + 1] = 2", []),  # outside any loop
    ("for i = 1, 3 do\n  local n = s[k % #s + 1]\n  t[#u + 1] = i\nend", []),  # no append to itself
    ("for i = 1, 3 do\n  -- t[#t + 1] = i\n  say(\"t[#t + 1] = i\")\nend", []),  # comments, strings
    ("for i = 1, 3 do\n  --[[ t[#t + 1] = i\n  ]] x = [[ u[#u + 1] = 1 ]]\nend", []),
    ("{% for x in y %}\nt[#t + 1] = 1\n{% endfor %}", []),             # Jinja's loops are not Lua's
    ("if a then do t[#t + 1] = 1 end end\nfor i = 1, 2 do t[#t + 1] = i end", [2]),
])
def test_the_scan_finds_appends_in_loops_and_nothing_else(source, lines):
    assert appends_in_loops(source) == lines


def test_shipped_lua_appends_in_loops_with_a_kept_count():
    assert len(SHIPPED) > 20
    found = [f"{path.relative_to(ROOT)}:{line}: {path.read_text(encoding='utf-8').splitlines()[line - 1].strip()}"
             for path in SHIPPED for line in appends_in_loops(path.read_text(encoding="utf-8"))]
    assert not found, "appends with #t inside loops (quadratic in MoonSharp; keep a count):\n" + "\n".join(found)
