"""Fonts by name. The built-in ones are the DejaVu family, shipped in deckpress's package data with
its licence, which covers Latin, Cyrillic and the card suits; a deck may add its own."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .paths import PACKAGE_DATA

if TYPE_CHECKING:
    from PIL import ImageFont

FONT_DIR = PACKAGE_DATA / "fonts"

_DEJAVU = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-oblique": "DejaVuSans-Oblique.ttf",
    "sans-bold-oblique": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
}


def builtin_fonts() -> dict[str, Path]:
    return {name: FONT_DIR / file for name, file in _DEJAVU.items()}


class BadFont(ValueError):
    """A font file that is not a TrueType font deckpress can read."""


def _version(path: str) -> tuple[int, int]:
    """What tells one content of a font file from the next, for the caches below (a long-running
    `deckpress watch`, or the tests, see a font file change under the same name)."""
    stat = os.stat(path)
    return stat.st_mtime_ns, stat.st_size


def codepoints(path: str) -> frozenset[int]:
    """The characters the font file at `path` has glyphs for."""
    return _codepoints(path, _version(path))


@lru_cache(maxsize=64)
def _codepoints(path: str, version: tuple[int, int]) -> frozenset[int]:
    from reportlab.pdfbase.ttfonts import TTFError, TTFontFile  # imported when needed: start-up stays quick

    try:
        return frozenset(TTFontFile(path).charToGlyph)
    except (TTFError, OSError, ValueError, KeyError, IndexError) as err:
        raise BadFont(f"{Path(path).name} is not a TrueType font deckpress can read ({err})") from None


def missing_glyphs(text: str, path: str) -> str:
    """The characters of `text` the font lacks (whitespace aside), each once, in order."""
    have = codepoints(path)
    out = []
    for ch in text:
        if ord(ch) not in have and not ch.isspace() and ch not in out:
            out.append(ch)
    return "".join(out)


def truetype(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    return _truetype(path, _version(path), size_px)


@lru_cache(maxsize=512)
def _truetype(path: str, version: tuple[int, int], size_px: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(path, size_px, layout_engine=ImageFont.Layout.BASIC)
