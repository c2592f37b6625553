"""Fonts installed on the machine, found by family name with fontconfig (through fontconfig-py, whose
wheels carry their own fontconfig): the one place a deck may read a file outside its project.

A name is a family name as fontconfig knows it ("Open Sans"), or one with the style suffixes the built-in
fonts take: `-bold`, `-italic` (or `-oblique`) and `-bold-italic` (or `-bold-oblique`). A face counts
only if it is of that family (fontconfig would otherwise offer its nearest font), of the style asked
(bold: semibold or heavier; italic or oblique: slanted) and a TrueType or OpenType file of one font.
"""

from __future__ import annotations

from pathlib import Path

SUFFIXES = {"": (False, False), "-bold": (True, False), "-italic": (False, True), "-oblique": (False, True),
            "-bold-italic": (True, True), "-bold-oblique": (True, True)}
FACES = ("-bold", "-italic", "-bold-italic")  # the style variants a family's regular face brings along
_BOLD, _REGULAR = 200, 80  # fontconfig's weights: FC_WEIGHT_BOLD, FC_WEIGHT_REGULAR
_SEMIBOLD = 180
_ITALIC = 100  # FC_SLANT_ITALIC


def split(name: str) -> tuple[str, bool, bool]:
    """The family and style a font name asks for: `Open Sans-bold` is Open Sans, bold."""
    for suffix in sorted(SUFFIXES, key=len, reverse=True):
        if suffix and name.endswith(suffix):
            return name[:-len(suffix)], *SUFFIXES[suffix]
    return name, False, False


def find(name: str) -> Path | None:
    """The installed font file that `name` names; None when there is none (or no fontconfig)."""
    family, bold, italic = split(name)
    if not family.strip() or "{{" in family:
        return None
    try:
        import fontconfig
    except ImportError:  # no wheel for this system (Windows): fonts are bundled with the project there
        return None
    wanted = {"family": family, "weight": _BOLD if bold else _REGULAR, "slant": _ITALIC if italic else 0}
    match = fontconfig.match(properties=wanted, select=("file", "index"))
    # the faces of the family as they are (a match's own weight and slant are those it would be faked to)
    faces = {(font["file"], font.get("index", 0)): font for font in
             fontconfig.list(properties={"family": family}, select=("file", "index", "weight", "slant"))}
    face = faces.get((match.get("file"), match.get("index", 0))) if match else None
    if (face is None or face.get("index", 0) != 0 or Path(face["file"]).suffix.lower() not in (".ttf", ".otf")
            or bold and face.get("weight", 0) < _SEMIBOLD or italic and not face.get("slant", 0)):
        return None
    return Path(face["file"])
