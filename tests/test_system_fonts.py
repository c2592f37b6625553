"""Installed fonts found by family name (deckpress.system_fonts), and never a look-alike."""

from __future__ import annotations


import pytest

from deckpress import system_fonts
from helpers.fonts import installed_family
from deckpress.fonts import cmap_codepoints


def test_an_installed_family_is_found_by_its_name():
    found = installed_family()
    if found is None:
        pytest.skip("no font is installed on this machine")
    family, faces = found
    path = system_fonts.find(family)
    assert path is not None and str(path) in {face["file"] for face in faces}
    assert cmap_codepoints(path.read_bytes())  # a font deckpress reads
    assert system_fonts.find(family.upper()) == path  # as fontconfig compares names
    for suffix, (bold, italic) in system_fonts.SUFFIXES.items():
        styled = system_fonts.find(family + suffix)
        has = [f for f in faces if (f.get("weight", 80) >= 180) == bold and bool(f.get("slant", 0)) == italic]
        if styled is not None:  # of the family, and of the style asked
            assert str(styled) in {face["file"] for face in has}
        elif suffix:
            assert not [f for f in faces if (not bold or f.get("weight", 0) >= 180) and
                        (not italic or f.get("slant", 0))], f"{family}{suffix} exists but was not found"


@pytest.mark.parametrize("name", ["Deckpress No Such Family", "Deckpress No Such Family-bold", "", "{{ x }}",
                                  "-bold"])
def test_a_family_not_installed_is_not_found(name):
    """fontconfig answers every question with its nearest font; a name that is not installed must find
    nothing, so the build can say so instead of drawing in another font."""
    assert system_fonts.find(name) is None


def test_split():
    assert system_fonts.split("Open Sans") == ("Open Sans", False, False)
    assert system_fonts.split("Open Sans-bold-oblique") == ("Open Sans", True, True)
    assert system_fonts.split("Open Sans-italic") == ("Open Sans", False, True)
