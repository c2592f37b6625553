"""Fonts by name. The built-in ones are the DejaVu family, installed by pip with
matplotlib, which covers Latin, Cyrillic and the card suits; a deck may add its own."""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont

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


@lru_cache(maxsize=1)
def _dejavu_dir() -> Path:
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the DejaVu fonts come with matplotlib; reinstall deckpress: pip install .")
    return Path(spec.submodule_search_locations[0]) / "mpl-data" / "fonts" / "ttf"


def builtin_fonts() -> dict[str, Path]:
    folder = _dejavu_dir()
    return {name: folder / file for name, file in _DEJAVU.items()}


@lru_cache(maxsize=64)
def codepoints(path: str) -> frozenset[int]:
    """The characters the font file at `path` has glyphs for."""
    with TTFont(path, lazy=True) as font:
        return frozenset(font.getBestCmap())


def missing_glyphs(text: str, path: str) -> str:
    """The characters of `text` the font lacks (whitespace aside), each once, in order."""
    have = codepoints(path)
    out = []
    for ch in text:
        if ord(ch) not in have and not ch.isspace() and ch not in out:
            out.append(ch)
    return "".join(out)


@lru_cache(maxsize=512)
def truetype(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size_px, layout_engine=ImageFont.Layout.BASIC)
