"""`deckpress new`: a project folder with a small, complete game that builds at once.

The files come from the package data's new/ folder: `${...}` placeholders are filled with the game's
name (as a YAML string in the deck), the deck's file name and the card size.
"""

from __future__ import annotations

import json
from pathlib import Path
from string import Template

from .paths import PACKAGE_DATA
from .schema import slug

SOURCE = PACKAGE_DATA / "new"


class ScaffoldError(Exception):
    """The folder can't be made into a project; the message says why and what to do."""


def new_project(path: Path, name: str, card_size: str) -> list[Path]:
    """Create the project at `path` (a new or empty folder); returns the files written."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise ScaffoldError(f"{path} is not empty; name a new folder, e.g. deckpress new my-game")
    deck = slug(name)
    values = {"game_name": name, "game_yaml": json.dumps(name, ensure_ascii=False), "deck": deck,
              "card_size": card_size}
    written = []
    for source in sorted(SOURCE.rglob("*")):
        if not source.is_file():
            continue
        relative = source.relative_to(SOURCE).as_posix()
        if relative == "deck.yaml":
            relative = f"decks/{deck}.yaml"
        target = path / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(Template(source.read_text(encoding="utf-8")).safe_substitute(values), encoding="utf-8")
        written.append(target)
    return written
