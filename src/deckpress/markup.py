"""Rich text in card text and rules: `**bold**`, `*italic*` and inline icons `:name:`.

The markup is a small part of Markdown's: a run of one `*` is italic, of two bold, of three both. A run
opens only before a character that is not a space and closes only after one, so `2 * 3` stays as it is;
a marker that nothing closes is written as it is, like every run of four or more. `:name:` (a name of
lower-case letters, digits, `-` and `_`, starting with a letter) is an icon of the deck's `icons:`; a
name the deck does not declare stays text, as in Squib and GitHub (`icon_typos` finds those close to a
declared icon, for a warning). `\\*`, `\\:` and `\\\\` write a literal `*`, `:` and `\\`; any other
backslash is written as it is.

`parse` turns text into spans (runs of text in one style, and icons); the painters (faces, the PDF's
rules pages, the TTS notebook) each write the spans their own way.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from html import escape

ICON_NAME = r"[a-z][a-z0-9_-]*"
_ICON = re.compile(rf":({ICON_NAME}):")
_ESCAPABLE = "*:\\"
_KINDS = {1: ("i",), 2: ("b",), 3: ("b", "i")}
_WIDTH = {"b": 2, "i": 1}


@dataclass(frozen=True)
class Run:
    """Text in one style."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class IconRef:
    """An inline icon, by its name in the deck's `icons:`."""

    name: str


Span = Run | IconRef


@dataclass
class _Delim:
    """A run of `count` stars, whether it may open and close emphasis, and the kinds it did."""

    count: int
    can_open: bool
    can_close: bool
    opened: list[str] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)


def _tokens(text: str, icons: Collection[str], undeclared: list[str] | None = None) -> list[str | _Delim | IconRef]:
    """The text's characters, runs of stars and icons; a `:name:` the deck does not declare stays
    characters (its name added to `undeclared`)."""
    out: list[str | _Delim | IconRef] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
            out.append(text[i + 1])
            i += 2
        elif ch == "*":
            j = i
            while j < n and text[j] == "*":
                j += 1
            before = text[i - 1] if i > 0 else " "
            after = text[j] if j < n else " "
            out.append(_Delim(j - i, not after.isspace(), not before.isspace()))
            i = j
        elif ch == ":" and (match := _ICON.match(text, i)) and match.group(1) in icons:
            out.append(IconRef(match.group(1)))
            i = match.end()
        else:
            if ch == ":" and match and undeclared is not None:  # `match`: the one just tried at this colon
                undeclared.append(match.group(1))
            out.append(ch)
            i += 1
    return out


def _pair(tokens: list[str | _Delim | IconRef]) -> None:
    """Match closing runs with the nearest opening run of the same kind, as Markdown does; openers
    left between a matched pair are written as they are. One stack of openers per kind, each opener
    pushed and popped once: linear in the text."""
    stacks: dict[str, list[tuple[int, _Delim]]] = {"b": [], "i": []}
    for seq, tok in enumerate(tokens):
        if not isinstance(tok, _Delim) or tok.count not in _KINDS:
            continue
        remaining = list(_KINDS[tok.count])
        if tok.can_close:
            for kind in list(remaining):
                if not stacks[kind]:
                    continue
                at, opener = stacks[kind].pop()
                opener.opened.append(kind)
                tok.closed.append(kind)
                remaining.remove(kind)
                for stack in stacks.values():  # openers after the matched one are left unmatched
                    while stack and stack[-1][0] > at:
                        stack.pop()
        if tok.can_open:
            for kind in remaining:
                stacks[kind].append((seq, tok))


def icon_typos(text: str, icons: Collection[str]) -> list[str]:
    """What to warn of in `text`: each `:name:` that stays text but is close to a declared icon, as
    `':stars:' is no icon of the deck, so it stays text; did you mean ':star:'?...`."""
    undeclared: list[str] = []
    _tokens(text, icons, undeclared)
    out = []
    for name in dict.fromkeys(undeclared):
        close = difflib.get_close_matches(name, [str(k) for k in icons], n=1, cutoff=0.75)
        if close:
            out.append(f"':{name}:' is no icon of the deck, so it stays text; did you mean ':{close[0]}:'? (write "
                       f"\\: before it to keep the text and drop this warning)")
    return out


def parse(text: str, icons: Collection[str] = ()) -> list[Span]:
    """The spans of `text`, `:name:` an icon where `icons` holds the name."""
    tokens = _tokens(text, icons)
    _pair(tokens)
    spans: list[Span] = []
    depth = {"b": 0, "i": 0}
    chars: list[str] = []  # the text of the run being read, in the style `style`
    style = (False, False)

    def put(piece: str) -> None:
        nonlocal style
        now = (depth["b"] > 0, depth["i"] > 0)
        if now != style:
            flush()
            style = now
        chars.append(piece)

    def flush() -> None:
        if chars:
            spans.append(Run("".join(chars), *style))
            chars.clear()

    for tok in tokens:
        if isinstance(tok, str):
            put(tok)
        elif isinstance(tok, IconRef):
            flush()
            spans.append(tok)
        else:
            for kind in tok.closed:
                depth[kind] -= 1
            literal = tok.count - sum(_WIDTH[k] for k in tok.closed + tok.opened)
            if literal:
                put("*" * literal)
            for kind in tok.opened:
                depth[kind] += 1
    flush()
    return spans


def is_plain(spans: list[Span]) -> bool:
    """Whether the spans are text in the regular style only: no bold, italic or icon."""
    return all(isinstance(s, Run) and not (s.bold or s.italic) for s in spans)


def plain_text(spans: list[Span]) -> str:
    return "".join(s.text for s in spans if isinstance(s, Run))


def to_bbcode(text: str, icons: dict) -> str:
    """`text` in TTS's BBCode ([b], [i]); a glyph icon as its glyph (in its colour), an image icon as its
    name. Text without markup comes back as it is."""
    spans = parse(text, icons)
    if is_plain(spans):
        return plain_text(spans)
    out = []
    for span in spans:
        if isinstance(span, IconRef):
            icon = icons[span.name]
            if icon.glyph is None:
                out.append(span.name)
            elif icon.color:
                out.append(f"[{icon.color[1:7].lower()}]{icon.glyph}[-]")
            else:
                out.append(icon.glyph)
            continue
        chunk = span.text
        if span.italic:
            chunk = f"[i]{chunk}[/i]"
        if span.bold:
            chunk = f"[b]{chunk}[/b]"
        out.append(chunk)
    return "".join(out)


def to_plain(text: str, icons: dict) -> str:
    """`text` without its markup: styles dropped, a glyph icon as its glyph, an image icon as its name."""
    spans = parse(text, icons)
    return "".join(s.text if isinstance(s, Run) else (icons[s.name].glyph or s.name) for s in spans)


def to_reportlab(spans: list[Span], icon_markup) -> str:
    """The spans as reportlab Paragraph markup; `icon_markup(name)` writes an icon. Line breaks become
    <br/>."""
    out = []
    for span in spans:
        if isinstance(span, IconRef):
            out.append(icon_markup(span.name))
            continue
        chunk = escape(span.text, quote=False).replace("\n", "<br/>")
        if span.italic:
            chunk = f"<i>{chunk}</i>"
        if span.bold:
            chunk = f"<b>{chunk}</b>"
        out.append(chunk)
    return "".join(out)
