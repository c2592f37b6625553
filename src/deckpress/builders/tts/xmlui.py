"""The XmlUI of a save checked as TTS reads it: well-formed XML, or one line at the template line that made the
broken one."""

from __future__ import annotations

from pathlib import Path
from xml.parsers import expat

from ...errors import DeckError, Where

CONTEXT = 3  # lines before a broken line compared to tell which template line made it
_ROOT = "deckpress-ui"  # XmlUI is a list of elements (Defaults, Panel, ...): parsed inside one root


def check(xml: str, templates: list[Path]) -> None:
    """Raise a located DeckError when the rendered XmlUI `xml` is not well-formed: at the line of the one
    template file of `templates` (those it was rendered from) that holds the rendered line as it is, else at
    the line of the rendered text, which the message quotes."""
    parser = expat.ParserCreate()
    try:
        parser.Parse(f"<{_ROOT}>{xml}</{_ROOT}>", True)
        return
    except expat.ExpatError as err:
        line, column = err.lineno, err.offset + 1 - (len(_ROOT) + 2 if err.lineno == 1 else 0)
        problem = expat.ErrorString(err.code)
    rendered = xml.splitlines()
    text = rendered[line - 1] if 0 < line <= len(rendered) else ""
    if line > len(rendered):
        problem = "an element is not closed by the end"
    message = (f"the XmlUI is not well-formed ({problem}); close every element you open (<Panel>...</Panel>, "
               f"<Button .../>) and write & as &amp; and < as &lt; in text")
    found = _template_line(rendered, line, templates)
    if found is not None:
        path, i, source = found
        shift = (len(source) - len(source.lstrip())) - (len(text) - len(text.lstrip()))
        raise DeckError.at(Where(str(path), i, max(1, column + shift)), message)
    shown = f"; the line reads {text.strip()[:80]!r}" if text.strip() else ""
    raise DeckError.at(Where(f"{templates[0]} (rendered)" if templates else "ui.xml (rendered)", line, max(1, column)),
                       message + shown)


def _template_line(rendered: list[str], line: int, templates: list[Path]) -> tuple[Path, int, str] | None:
    """The one line of the templates that reads as rendered line `line` does, with the most of the lines before it
    reading as those before it do (up to CONTEXT); None when there is no such line or no one best."""
    text = rendered[line - 1].strip() if 0 < line <= len(rendered) else ""
    if not text:
        return None
    scored = []
    for path in templates:
        lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
        for i, source in enumerate(lines):
            if source.strip() == text:
                agree = 0
                while agree < CONTEXT and i - agree > 0 and line - 2 - agree >= 0 and \
                        lines[i - agree - 1].strip() == rendered[line - 2 - agree].strip():
                    agree += 1
                scored.append((agree, path, i + 1, source))
    scored.sort(key=lambda found: -found[0])
    if not scored or len(scored) > 1 and scored[1][0] == scored[0][0]:
        return None
    return scored[0][1:]
