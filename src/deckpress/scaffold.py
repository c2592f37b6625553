"""`deckpress new`: a project folder with a small, complete game that builds at once.

The files come from the package data's new/ folder: `${...}` placeholders are filled with the game's
name (as a YAML string in the deck), the deck's file name and the card size. `--scripted` adds the
new-scripted/ folder: the game's own scripted table (tts/<deck>/: its engine, table script, controls and
records), and the deck names it (`script:`) and sets the options its records type.
"""

from __future__ import annotations

import json
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


def new_project(path: Path, name: str, card_size: str, scripted: bool = False) -> list[Path]:
    """Create the project at `path` (a new or empty folder), with a scripted game of its own when
    `scripted`; returns the files written."""
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise ScaffoldError(f"{path} is not empty; name a new folder, e.g. deckpress new my-game")
    deck = slug(name)
    values = {"game_name": name, "game_yaml": json.dumps(name, ensure_ascii=False), "deck": deck,
              "card_size": card_size}
    written = []
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
            target = path / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists() and relative == "README.md":  # the scripted game's part, after the project's
                text = target.read_text(encoding="utf-8") + "\n" + Template(text).safe_substitute(values)
            else:
                text = Template(text).safe_substitute(values)
            target.write_text(text, encoding="utf-8")
            if target not in written:
                written.append(target)
    return written
