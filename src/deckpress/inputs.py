"""What an artifact is made from, in one place.

A face records a key over everything that can change its pixels (deckpress's own code and data, the
template, the fonts, the card, component and game fields a template can read, the sizes) and the image
files it drew with their digests; the build as a whole records every input file and option, so a build
whose record did not change is skipped. Whatever a record leaves out would make an incremental build
differ from a clean one.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__
from .paths import LOOKUP_FOLDERS, PACKAGE_DATA, display_name, lookup_dirs, project_root

PACKAGE = Path(__file__).resolve().parent


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest(value: Any) -> str:
    """sha256 of a JSON-like value, the same for equal values."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


@lru_cache(maxsize=1)
def package_digest() -> str:
    """deckpress's version, code and package data (Lua runtime, built-in profiles and templates, fonts)."""
    h = hashlib.sha256(__version__.encode())
    for file in sorted(PACKAGE.rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            h.update(file.relative_to(PACKAGE).as_posix().encode() + b"\0")
            h.update(sha256_file(file).encode())
    return h.hexdigest()


def image_path(name: str, deck_path: Path) -> Path:
    """The file an image record names (see `display_name`)."""
    if name.startswith("deckpress:"):
        return PACKAGE_DATA / name.removeprefix("deckpress:")
    return project_root(deck_path) / name


def _image_digest(file: Path) -> str:
    return sha256_file(file) if file.is_file() else MISSING


MISSING = ""  # the digest recorded for an image a face drew a placeholder for


def images_unchanged(images: dict[str, str], deck_path: Path) -> bool:
    """Whether every image a face drew (or drew a placeholder for) is as it was."""
    return all(_image_digest(image_path(name, deck_path)) == expected for name, expected in images.items())


def image_record(read: set[Path], missing: set[Path], deck_path: Path) -> dict[str, str]:
    """The images a face drew, with their digests, and those it drew a placeholder for."""
    return {display_name(p, deck_path): _image_digest(p) for p in sorted(read | missing)}


def build_inputs(deck, face_records: dict, options: dict) -> dict[str, str]:
    """Every input of a deck's build with its digest: the deck file, the templates, TTS sources and print
    profiles it can read (the project's and the built-in ones), its own fonts, the images its faces drew,
    deckpress itself and the build's options."""
    files = {f.resolve() for f in deck.input_files()}
    for folder in LOOKUP_FOLDERS:
        for directory in lookup_dirs(deck.path, folder):
            if directory.is_dir():
                files.update(p.resolve() for p in directory.rglob("*")
                             if p.is_file() and "__pycache__" not in p.parts)
    out = {display_name(f, deck.path): sha256_file(f) for f in sorted(files)}
    for record in face_records.values():
        for name in record.get("images", {}):
            out[name] = _image_digest(image_path(name, deck.path))
    out["deckpress"] = package_digest()
    out["options"] = digest(options)
    return out
