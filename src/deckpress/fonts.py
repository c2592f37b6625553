"""Fonts by name. The built-in ones are the DejaVu family, shipped in deckpress's package data with
its licence, which covers Latin, Cyrillic and the card suits; a deck may add its own."""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
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


_HELD: dict[str, tuple[int, int]] | None = None  # the versions read while `held`


@contextmanager
def held() -> Iterator[None]:
    """Within it, each font file's version is read once: a face's elements ask for their fonts dozens of
    times (each text size tried while fitting), and the files do not change while one face is drawn."""
    global _HELD
    outer = _HELD
    _HELD = {} if outer is None else outer
    try:
        yield
    finally:
        _HELD = outer


def _version(path: str) -> tuple[int, int]:
    """What tells one content of a font file from the next, for the caches below (a long-running
    `deckpress watch`, or the tests, see a font file change under the same name)."""
    if _HELD is not None and path in _HELD:
        return _HELD[path]
    stat = os.stat(path)
    version = stat.st_mtime_ns, stat.st_size
    if _HELD is not None:
        _HELD[path] = version
    return version


def codepoints(path: str) -> frozenset[int]:
    """The characters the font file at `path` has glyphs for."""
    return _codepoints(path, _version(path))


@lru_cache(maxsize=64)
def _codepoints(path: str, version: tuple[int, int]) -> frozenset[int]:
    try:
        return cmap_codepoints(Path(path).read_bytes())
    except (OSError, ValueError, struct.error) as err:
        raise BadFont(f"{Path(path).name} is not a TrueType font deckpress can read ({err})") from None


def cmap_codepoints(data: bytes) -> frozenset[int]:
    """The characters a TrueType or OpenType font (its file's bytes) maps to a glyph, from its Unicode
    `cmap` subtable (format 12, else 4). Reading this table alone takes a millisecond where a whole font
    parser takes 20 (once per font in every drawing process)."""
    if data[:4] not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        raise ValueError("not a TrueType or OpenType file")
    tables = {data[12 + 16 * i:16 + 16 * i]: struct.unpack_from(">I", data, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, 4)[0])}
    if b"cmap" not in tables:
        raise ValueError("no cmap table")
    cmap = tables[b"cmap"]
    subtables = {}
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        start = cmap + offset
        subtables.setdefault((struct.unpack_from(">H", data, start)[0], platform in (0, 3) and encoding in
                              (0, 1, 3, 4, 6, 10)), start)
    if (12, True) in subtables:
        return _format12(data, subtables[(12, True)])
    if (4, True) in subtables:
        return _format4(data, subtables[(4, True)])
    raise ValueError("no Unicode cmap subtable of format 4 or 12")


def _format12(data: bytes, start: int) -> frozenset[int]:
    chars: set[int] = set()
    for i in range(struct.unpack_from(">I", data, start + 12)[0]):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * i)
        chars.update(range(first + (glyph == 0), last + 1))
    return frozenset(chars)


def _format4(data: bytes, start: int) -> frozenset[int]:
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends = struct.unpack_from(f">{segments}H", data, start + 14)
    starts = struct.unpack_from(f">{segments}H", data, start + 16 + 2 * segments)
    deltas = struct.unpack_from(f">{segments}h", data, start + 16 + 4 * segments)
    ranges_at = start + 16 + 6 * segments
    ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
    chars: set[int] = set()
    for i, (first, last, delta, range_offset) in enumerate(zip(starts, ends, deltas, ranges)):
        for char in range(first, min(last, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (char + delta) & 0xFFFF
            else:
                glyph = struct.unpack_from(">H", data, ranges_at + 2 * i + range_offset + 2 * (char - first))[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                chars.add(char)
    return frozenset(chars)


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
