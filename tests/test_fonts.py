"""Which characters a font has: read from its cmap table, as a glyph other than .notdef."""

from __future__ import annotations

from pathlib import Path

import pytest
import reportlab
from reportlab.pdfbase.ttfonts import TTFontFile

from deckpress.fonts import BadFont, builtin_fonts, cmap_codepoints, codepoints

REPORTLAB_FONTS = Path(reportlab.__file__).parent / "fonts"  # Bitstream Vera, shipped with reportlab


@pytest.mark.parametrize("name", sorted(builtin_fonts()))
def test_the_characters_are_those_a_full_font_parser_maps_to_a_glyph(name):
    path = builtin_fonts()[name]
    mapped = TTFontFile(str(path)).charToGlyph
    assert cmap_codepoints(path.read_bytes()) == {c for c, glyph in mapped.items() if glyph}


def test_a_character_mapped_to_notdef_is_missing():
    """Vera maps U+010E to glyph 0, the box drawn for a missing character."""
    vera = REPORTLAB_FONTS / "Vera.ttf"
    assert TTFontFile(str(vera)).charToGlyph[0x10E] == 0
    have = cmap_codepoints(vera.read_bytes())
    assert ord("A") in have and 0x10E not in have


def test_a_file_that_is_not_a_font(tmp_path):
    for name, data in (("text.ttf", b"not a font\n"), ("cut.ttf", builtin_fonts()["sans"].read_bytes()[:40])):
        (tmp_path / name).write_bytes(data)
        with pytest.raises(BadFont, match=f"{name} is not a TrueType font"):
            codepoints(str(tmp_path / name))
