"""`deckpress new`: a project folder with a small, complete game that builds at once.

The files come from the package data's new/ folder: `${...}` placeholders are filled with the game's
name (as a YAML string in the deck), the deck's file name and the card size. `--scripted` adds the
new-scripted/ folder: the game's own scripted table (tts/<deck>/: its engine, table script, controls and
records) with its table scenarios (tests/<deck>.scenarios.yaml, which `deckpress test` plays), and the deck
names it (`script:`) and sets the options its records type.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from string import Template

from .paths import PACKAGE_DATA
from .schema import slug

SOURCE = PACKAGE_DATA / "new"
SCRIPTED = PACKAGE_DATA / "new-scripted"

# What --scripted changes in the deck: it names its scripted game and sets the options game.yaml types.
DECK_SCRIPTED = (
    ("card_size: ${card_size}", "script: ${deck}           # the scripted game of tts/${deck}/: its rules run at the TTS table\n"
                                "card_size: ${card_size}"),
    ("  deal: {2: 7, 3: 6, 4: 5}  # cards dealt to each player, by number of players\n",
     "  deal: {2: 7, 3: 6, 4: 5}  # cards dealt to each player, by number of players\n"
     "  options:                  # the scripted game's options: tts/${deck}/game.yaml types them\n"
     "    wild_plays_again: true\n"
     "    coins_per_wild: 1\n"),
)


class ScaffoldError(Exception):
    """The folder can't be made into a project; the message says why and what to do."""


MAX_NAME_BYTES = 255  # a file or folder name, on every common file system


def _check_place(path: Path) -> None:
    """`path` can become the project: nothing but folders on its way, and itself a new or empty folder."""
    for part in path.absolute().parts:
        if len(os.fsencode(part)) > MAX_NAME_BYTES:
            raise ScaffoldError(f"{str(path)[:40]}...: the name {part[:20]!r}... is {len(os.fsencode(part))} bytes "
                                f"long, more than the {MAX_NAME_BYTES} a file system allows; pick a shorter name")
    if path.is_symlink() and not path.exists():
        raise ScaffoldError(f"{path}: a symbolic link to {os.readlink(path)}, which does not exist; name a new "
                            "folder, e.g. deckpress new my-game")
    for folder in reversed(path.absolute().parents):
        if folder.exists() and not folder.is_dir():
            raise ScaffoldError(f"{path}: {folder} is a file, not a folder; name a folder inside a folder")
    if path.exists() and not path.is_dir():
        raise ScaffoldError(f"{path}: a file, not a folder; name a new folder, e.g. deckpress new my-game")
    if path.exists() and any(path.iterdir()):
        raise ScaffoldError(f"{path}: the folder is not empty; name a new folder, e.g. deckpress new my-game")


def _files(name: str, card_size: str, scripted: bool) -> dict[str, str]:
    """The project's files, by path relative to it: the game's, and its scripted game's when `scripted`."""
    deck = slug(name)
    values = {"game_name": name, "game_yaml": json.dumps(name, ensure_ascii=False), "deck": deck,
              "card_size": card_size}
    files: dict[str, str] = {}
    for folder in (SOURCE, SCRIPTED) if scripted else (SOURCE,):
        for source in sorted(folder.rglob("*")):
            if not source.is_file() or "__pycache__" in source.parts:
                continue
            relative = source.relative_to(folder).as_posix()
            text = source.read_text(encoding="utf-8")
            if relative == "deck.yaml":
                relative = f"decks/{deck}.yaml"
                for anchor, replacement in DECK_SCRIPTED if scripted else ():
                    text = text.replace(anchor, replacement, 1)
            elif relative.startswith("tts/game/"):
                relative = f"tts/{deck}/" + relative.removeprefix("tts/game/")
            elif relative == "tests/game.scenarios.yaml":
                relative = f"tests/{deck}.scenarios.yaml"
            text = Template(text).safe_substitute(values)
            if relative in files:  # the scripted game's part of the README, after the project's
                text = files[relative] + "\n" + text
            files[relative] = text
    return files


def new_project(path: Path, name: str, card_size: str, scripted: bool = False) -> list[Path]:
    """Create the project at `path` (a new or empty folder), with a scripted game of its own when
    `scripted`; returns the files written. The files are written into a folder beside it, which becomes
    the project only once all of them are there: a project that cannot be made leaves nothing behind."""
    _check_place(path)
    files = _files(name, card_size, scripted)
    place = path.resolve() if path.is_symlink() else path.absolute()  # a link to an empty folder: that folder
    made: list[Path] = []  # the folders on the way this call made, removed again if it fails
    staging = None
    try:
        for folder in reversed(place.parents):
            if not folder.exists():
                folder.mkdir()
                made.append(folder)
        staging = place.parent / f".{place.name[:50]}.deckpress-new-{uuid.uuid4().hex[:8]}"
        staging.mkdir()
        for relative, text in files.items():
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            (staging / relative).write_text(text, encoding="utf-8")
        os.replace(staging, place)  # onto an empty folder, or where there is none
        staging = made = None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        for folder in reversed(made or []):
            folder.rmdir()
    return [path / relative for relative in files]
