"""A font family installed on the machine, for the tests of fonts found by family name."""

from __future__ import annotations

from pathlib import Path


def installed_family() -> tuple[str, list[dict]] | None:
    """A family installed on this machine in a .ttf or .otf file, with its faces; None without any."""
    try:
        import fontconfig
    except ImportError:
        return None
    faces: dict[str, list[dict]] = {}
    for font in fontconfig.list(select=("family", "file", "index", "weight", "slant")):
        if Path(font["file"]).suffix.lower() in (".ttf", ".otf") and font.get("index", 0) == 0:
            faces.setdefault(font["family"], []).append(font)
    if not faces:
        return None
    family = min(faces, key=lambda name: (-len(faces[name]), name))  # the family with most faces
    return family, faces[family]
