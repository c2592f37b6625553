"""Rich text in card text and rules: `**bold**`, `*italic*`, inline icons `:name:` and styled spans
`[words]{color=#d62828 size=150% font=serif}`.

The markup is a small part of Markdown's: a run of one `*` is italic, of two bold, of three both. A run
opens only before a character that is not a space and closes only after one, so `2 * 3` stays as it is;
a marker that nothing closes is written as it is, like every run of four or more. `:name:` (a name of
lower-case letters, digits, `-` and `_`, starting with a letter) is an icon of the deck's `icons:`; a
name the deck does not declare stays text, as in Squib and GitHub (`icon_typos` finds those close to a
declared icon, for a warning). `[text]{key=value ...}` (Pandoc's bracketed spans) sets
its text in another colour (`color=#rrggbb`), size (`size=150%` of the text's) or font (`font=NAME`);
the text may hold bold, italic and icons, not another span. A `[` that no `]{...}` closes is written as it
is; an unknown key or a bad value is an error. `\\*`, `\\:`, `\\[`, `\\]` and `\\\\` write a literal `*`, `:`,
`[`, `]` and `\\`; any other backslash is written as it is.

`parse` turns text into spans (runs of text in one style, and icons); the painters (faces, the PDF's
rules pages, the TTS notebook) each write the spans their own way.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from html import escape

ICON_NAME = r"[a-z][a-z0-9_-]*"
_ICON = re.compile(rf":({ICON_NAME}):")
_ESCAPABLE = "*:[]\\"
_ATTRS = re.compile(r"\s*[a-z]+=[^\s{}]+(?:\s+[a-z]+=[^\s{}]+)*\s*")
_COLOR = re.compile(r"#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?")
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)%")
SIZES = (25, 400)  # a span's size, in per cent of the text's
SPAN_HINT = "write e.g. [Fire]{color=#d62828}, [big]{size=150%} or [quoted]{font=serif}"
_KINDS = {1: ("i",), 2: ("b",), 3: ("b", "i")}
_WIDTH = {"b": 2, "i": 1}


class MarkupError(ValueError):
    """Text whose markup cannot be read: a span with an unknown key or a bad value."""


@dataclass(frozen=True)
class Run:
    """Text in one style: bold, italic, and a span's colour, size (a fraction of the text's) and font."""

    text: str
    bold: bool = False
    italic: bool = False
    color: str | None = None
    size: float | None = None
    font: str | None = None

    @property
    def style(self) -> tuple:
        return self.bold, self.italic, self.color, self.size, self.font


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


@dataclass(frozen=True)
class _Open:
    """The start of a span, with its keys."""

    attrs: dict


_CLOSE = object()  # the end of a span
_REGULAR = Run("").style
_MARKUP = re.compile(r"[*:\[\\]")  # where _tokens may read more than a character
_MARKS = "*:[]\\"  # the characters _tokens reads one by one: each may start or end a mark
_MARK = re.compile(f"[{re.escape(_MARKS)}]")


def _span_at(text: str, i: int) -> tuple[int, dict, int] | None:
    """For the `[` at `i`: where its `]` is, the span's keys and where its `{...}` ends; None when it is
    not a span (no `]{key=value ...}` closes it before another `[`). MarkupError for a bad key or value."""
    j = i + 1
    while j < len(text) and text[j] not in "[]":
        j += 2 if text[j] == "\\" else 1
    if j >= len(text) or text[j] != "]" or not text.startswith("{", j + 1):
        return None
    end = text.find("}", j + 2)
    if end < 0 or not _ATTRS.fullmatch(text, j + 2, end):
        return None
    attrs: dict = {}
    for pair in text[j + 2:end].split():
        key, value = pair.split("=", 1)
        if key == "color" and _COLOR.fullmatch(value):
            attrs[key] = value
        elif key == "size" and (size := _SIZE.fullmatch(value)) and SIZES[0] <= float(size[1]) <= SIZES[1]:
            attrs[key] = float(size[1]) / 100
        elif key == "font" and re.fullmatch(r"[A-Za-z0-9_-]+", value):
            attrs[key] = value
        elif key in ("color", "size", "font"):
            want = {"color": "a colour #rrggbb", "size": f"{SIZES[0]}% to {SIZES[1]}%", "font": "a font name"}
            raise MarkupError(f"{key}={value} in [{text[i + 1:j]}]{{...}} is not {want[key]}; {SPAN_HINT}")
        else:
            raise MarkupError(f"unknown key {key!r} in [{text[i + 1:j]}]{{...}} (color, size, font); {SPAN_HINT}")
    return j, attrs, end + 1


def _tokens(text: str, icons: Collection[str],
            undeclared: list[str] | None = None) -> list[str | _Delim | IconRef | _Open | object]:
    """The text's runs of characters, runs of stars, icons and span marks; a `:name:` the deck does not declare
    stays characters (its name added to `undeclared`)."""
    out: list[str | _Delim | IconRef | _Open | object] = []
    i, n = 0, len(text)
    closing: dict[int, int] = {}  # where the open span's `]` is: where its `{...}` ends
    while i < n:
        ch = text[i]
        if i in closing:
            out.append(_CLOSE)
            i = closing.pop(i)
        elif ch == "[" and not closing and (span := _span_at(text, i)):
            close, attrs, end = span
            out.append(_Open(attrs))
            closing[close] = end
            i += 1
        elif ch == "\\" and i + 1 < n and text[i + 1] in _ESCAPABLE:
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
        elif ch in _MARKS:  # a mark that stays text here
            if ch == ":" and match and undeclared is not None:  # `match`: the one just tried at this colon
                undeclared.append(match.group(1))
            out.append(ch)
            i += 1
        else:  # text up to the next mark (a span's `]` among them): one token, not one a character
            mark = _MARK.search(text, i + 1)
            end = n if mark is None else mark.start()
            out.append(text[i:end])
            i = end
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


def icon_typos(undeclared: list[str], icons: Collection[str]) -> list[str]:
    """What to warn of among the `:name:`s that stayed text (`parse`'s `undeclared`): each one close to a
    declared icon, as `':stars:' is no icon of the deck, so it stays text; did you mean ':star:'?...`."""
    if not undeclared:  # most texts: difflib is not even imported
        return []
    from .options import close_matches

    out = []
    for name in dict.fromkeys(undeclared):
        close = close_matches(name, [str(k) for k in icons], cutoff=0.75)
        if close:
            out.append(f"':{name}:' is no icon of the deck, so it stays text; did you mean ':{close[0]}:'? (write "
                       f"\\: before it to keep the text and drop this warning)")
    return out


def parse(text: str, icons: Collection[str] = (), undeclared: list[str] | None = None) -> list[Span]:
    """The spans of `text`, `:name:` an icon where `icons` holds the name (and its name added to
    `undeclared`, when given, where it does not)."""
    if _MARKUP.search(text) is None:  # no mark to read: one run of regular text
        return [Run(text)] if text else []
    tokens = _tokens(text, icons, undeclared)
    _pair(tokens)
    spans: list[Span] = []
    depth = {"b": 0, "i": 0}
    chars: list[str] = []  # the text of the run being read, in the style `style`
    attrs: dict = {}  # the keys of the span being read
    style: tuple = Run("").style

    def put(piece: str) -> None:
        nonlocal style
        now = (depth["b"] > 0, depth["i"] > 0, attrs.get("color"), attrs.get("size"), attrs.get("font"))  # Run.style
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
        elif isinstance(tok, _Open):
            attrs = tok.attrs
        elif tok is _CLOSE:
            attrs = {}
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
    """Whether the spans are text in the regular style only: no bold, italic, styled span or icon."""
    return all(isinstance(s, Run) and s.style == _REGULAR for s in spans)


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
        if span.color:  # TTS's BBCode has colours, not sizes or fonts
            chunk = f"[{span.color[1:7].lower()}]{chunk}[-]"
        out.append(chunk)
    return "".join(out)


def to_plain(text: str, icons: dict) -> str:
    """`text` without its markup: styles dropped, a glyph icon as its glyph, an image icon as its name."""
    spans = parse(text, icons)
    return "".join(s.text if isinstance(s, Run) else (icons[s.name].glyph or s.name) for s in spans)


def to_reportlab(spans: list[Span], icon_markup, size: float = 10, font_name=None) -> str:
    """The spans as reportlab Paragraph markup; `icon_markup(name)` writes an icon, `font_name(name)` names
    a span's font in reportlab, `size` is the paragraph's in points. Line breaks become <br/>."""
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
        font = {"color": span.color[:7] if span.color else None,
                "size": f"{size * span.size:.2f}" if span.size else None,
                "name": font_name(span.font) if span.font and font_name else None}
        if any(font.values()):
            chunk = "<font" + "".join(f' {k}="{v}"' for k, v in font.items() if v) + f">{chunk}</font>"
        out.append(chunk)
    return "".join(out)
