"""Scripted games: the game folder a deck's `script:` names, and the deck data its records type.

A game folder holds all of a scripted game: its Lua (engine.lua, table.lua and the modules they use), its
XmlUI controls (ui.xml.j2), its records file (game.yaml, see scripting/records.py) and, when its records need
checks across keys, a Python file the records file names. deckpress looks for `script: <game>`:

1. in the project: tts/<game>/;
2. in the installed packages: a distribution registers a game in the entry-point group `deckpress.games`,
   its name the game's and its value a package whose folder is the game folder, e.g. in pyproject.toml
   `[project.entry-points."deckpress.games"] mygame = "mygame"`, with mygame/game.yaml, mygame/engine.lua...;
3. among deckpress's own games: the package deckpress.games, which is the repository's top-level tts/.

The first folder found is the whole game: its Lua is bundled under the game's name (`<game>.engine`), never
the deck file's, so a copy of a deck saved under another name plays the same game. A folder without a
records file is a game whose deck data stays free-form.
"""

from __future__ import annotations

import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import DeckError, Where
from .records import EXPRESSION, CardId, GameRecords, family_schema, load_records
from ..options import Context, Invalid, Record, did_you_mean
from ..paths import OutsideProject, confine, project_root
from ..source import Map

ENTRY_POINTS = "deckpress.games"
RECORDS_FILE = "game.yaml"
OWN_PACKAGE = "deckpress.games"
LIBRARY = "lib"  # tts/lib/ is the runtime library every table script uses, not a game


@dataclass
class GameFolder:
    """A scripted game as found: its name (the deck's `script`), its folder and its records."""

    name: str
    path: Path
    origin: str  # "project", "package <distribution>" or "deckpress"
    records: GameRecords | None  # None: the folder has no records file

    def files(self) -> list[Path]:
        """Every file of the folder, sorted (what a build of a deck playing the game reads of it)."""
        return sorted(p for p in self.path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)

    def display_name(self, file: Path) -> str | None:
        """How a file of a game from outside the project is named in a build's manifest: `script:<game>/<path
        in the folder>`, the same wherever deckpress or the package is installed; None for other files."""
        if self.origin == "project":
            return None
        resolved, root = file.resolve(), self.path.resolve()
        return f"script:{self.name}/{resolved.relative_to(root).as_posix()}" if resolved.is_relative_to(root) else None

    def inside(self, file: Path, deck_path: Path) -> Path:
        """`file` of the folder, resolved; OutsideProject when a link leads it out of the project (a game of
        the project) or out of the game folder (an installed game)."""
        if self.origin == "project":
            return confine(file, deck_path)
        resolved = file.resolve()
        if not resolved.is_relative_to(self.path.resolve()):
            raise OutsideProject(f"{file} leads outside the game folder {self.path}")
        return resolved


def own_root() -> Path | None:
    """The folder of deckpress's own games (in a checkout installed for development: the top-level tts/)."""
    spec = importlib.util.find_spec(OWN_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


@functools.cache
def _entry_points() -> dict[str, tuple[str, str, str | None]]:
    """The games installed packages register, by name (the first registration of a name wins); looked up once
    per process."""
    from .. import cache

    found: dict[str, tuple[str, str, str | None]] = {}
    for point in cache.entry_points(ENTRY_POINTS):
        found.setdefault(point[0], point)
    return found


def _package_folder(point: tuple[str, str, str | None], where: Where) -> Path:
    """The folder of the package an entry point (name, value, distribution) names."""
    name, value, dist = point
    spec = None
    try:
        spec = importlib.util.find_spec(value)
    except (ImportError, ValueError):
        pass
    if spec is None or not spec.submodule_search_locations:
        raise DeckError.at(where, f"{dist or 'a package'} registers the game {name!r} as {value!r}, which is no "
                                  "package installed here; reinstall it, or pick another script")
    return Path(list(spec.submodule_search_locations)[0])


def _origin(point: tuple[str, str, str | None]) -> str:
    return f"package {point[2]}" if point[2] is not None else "package"


def _is_game(folder: Path, any_folder: bool = False) -> bool:
    """Whether `folder` is a game folder: any folder of a project's tts/ but the library (`any_folder`), else
    one with a records file or Lua."""
    if folder.name in (LIBRARY, "__pycache__") or folder.name.startswith(".") or not folder.is_dir():
        return False
    return any_folder or (folder / RECORDS_FILE).is_file() or any(folder.glob("*.lua"))


def available(deck_path: Path | None = None, installed: bool = True) -> dict[str, tuple[Path, str]]:
    """Every game a deck of the project of `deck_path` (none: only deckpress's and the installed ones)
    could name, by name: its folder and where it comes from. The first found of a name wins, as for
    `find`."""
    out: dict[str, tuple[Path, str]] = {}
    if deck_path is not None:
        tts = project_root(deck_path) / "tts"
        for folder in sorted(tts.iterdir()) if tts.is_dir() else []:
            if _is_game(folder, any_folder=True):
                out.setdefault(folder.name, (folder, "project"))
    if installed:
        for name, point in sorted(_entry_points().items()):
            if name not in out:
                try:
                    out[name] = (_package_folder(point, Where(ENTRY_POINTS)), _origin(point))
                except DeckError:
                    continue  # reported when a deck names it
    own = own_root()
    for folder in sorted(own.iterdir()) if own is not None else []:
        if _is_game(folder):
            out.setdefault(folder.name, (folder, "deckpress"))
    return out


def find(name: str, deck_path: Path, where: Where) -> GameFolder:
    """The game folder `script: name` (at `where`) names, its records loaded; a DeckError (one line each:
    no such game, or the mistakes of its records file) otherwise."""
    if name == LIBRARY:
        raise DeckError.at(where, f"tts/{LIBRARY}/ is the runtime library of every table script, not a game; "
                                  "name your game's folder")
    folder, origin = None, ""
    project = project_root(deck_path) / "tts" / name
    if _is_game(project, any_folder=True):
        folder, origin = project, "project"
    else:
        point = _entry_points().get(name)
        if point is not None:
            folder = _package_folder(point, where)
            origin = _origin(point)
        else:
            own = own_root()
            if own is not None and _is_game(own / name):
                folder, origin = own / name, "deckpress"
    if folder is None:
        known = sorted(available(deck_path))
        raise DeckError.at(where, f"no scripted game {name!r}: no tts/{name}/ in the project, and no installed "
                                  f"package nor deckpress has one; {did_you_mean(name, known)} (or make "
                                  f"tts/{name}/ with the game's Lua and its {RECORDS_FILE})")
    game = GameFolder(name, folder, origin, None)
    records = folder / RECORDS_FILE
    if records.is_file():
        try:
            game.inside(records, deck_path)
        except OutsideProject as err:
            raise DeckError.at(Where(str(records)), f"{err}; keep the game's files inside it") from None
        game.records = _records(records)
    return game


_LOADED: dict[tuple, GameRecords] = {}  # records by their files' paths and times: a build loads each once


def _records(path: Path) -> GameRecords:
    key = tuple((str(f), f.stat().st_mtime_ns) for f in [path, *sorted(path.parent.glob("*.py"))])
    if key not in _LOADED:
        _LOADED[key] = load_records(path, _python)
    return _LOADED[key]


def _python(path: Path) -> ModuleType:
    """The game's Python file, run as a module of its own (compiled in memory: nothing is written into the
    game folder, which may be an installed package's); a DeckError at the line it fails at."""
    module = ModuleType(f"deckpress_game_{path.parent.name}_{path.stem}")
    module.__file__ = str(path)
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    except SyntaxError as err:
        raise DeckError.at(Where(str(path), err.lineno or 0, err.offset or 0), f"{err.msg}; fix the game's "
                                                                                 "python file") from None
    except Exception as err:  # noqa: BLE001 (any failure of the game's code is a located line)
        raise DeckError.at(Where(str(path)), f"the game's python file fails: {type(err).__name__}: {err}") from None
    return module


# --- Typing a deck's game data --------------------------------------------------------------------------

class GameContext(Context):
    """Validation of a deck's game data: the deck's context, and the ids of its cards (for `card` fields)."""

    def __init__(self, ctx: Context, card_ids: set[str]):
        super().__init__(ctx.problems, ctx.lang, ctx.fallback_lang, ctx.languages)
        self.card_ids = card_ids


NoSetupOptions = type("NoSetupOptions", (Record,), {"__doc__": "setup.options of a game that declares none.",
                                                    "__module__": __name__})
NoModeOptions = type("NoModeOptions", (Record,), {"__doc__": "A mode's options, of a game that declares none.",
                                                  "__module__": __name__})


def _located(source: Any, key: str, fallback):
    return source.at(key) if isinstance(source, Map) and key in source else fallback


def plain(value: Any) -> Any:
    """A typed value as the table scripts get it: a record as the keys whose value is set and differs from
    the declared default (null and false left out), recursively."""
    if isinstance(value, Record):
        out = {}
        for key, option in type(value).OPTIONS.items():
            item = getattr(value, key)
            if item is not None and item is not False and item != option.default:
                out[key] = plain(item)
        return out
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def check(deck, ctx: Context) -> None:
    """Find the game `deck` (a loaded Deck record) names and type its game data by the game's records; the
    game folder is kept as `deck.scripted`. Also: setup.remove names cards of the deck."""
    ids = {card.id for component in deck.components or [] if component is not None
           for card in component.cards or [] if hasattr(card, "id")}
    setup = deck.setup
    if setup is not None and setup.remove:
        raw = setup.source.get("remove") if isinstance(setup.source, Map) else None
        card, game_ctx = CardId("A card id.", label="setup.remove"), GameContext(ctx, ids)
        for players, removed in setup.remove.items():
            at = raw.at(players) if isinstance(raw, Map) and players in raw else setup.where
            for card_id in removed or []:
                if card_id is not None:
                    card.validate(card_id, at, game_ctx)
    deck.scripted = None
    if not deck.script:
        return
    where = deck.source.at("script")
    try:
        deck.scripted = find(deck.script, Path(where.path), where)
    except DeckError as err:
        ctx.problems.items.extend(err.problems)
        return
    records = deck.scripted.records
    if records is None:
        return
    game_ctx = GameContext(ctx, ids)
    if setup is not None:
        raw = setup.source.get("options") if isinstance(setup.source, Map) else None
        setup.options = _load(records.setup or NoSetupOptions, raw, _located(setup.source, "options", setup.where),
                              game_ctx)
    for mode in deck.modes or []:
        if mode is None:
            continue
        raw = mode.source.get("options") if isinstance(mode.source, Map) else None
        mode.options = _load(records.modes or NoModeOptions, raw, _located(mode.source, "options", mode.where),
                             game_ctx, given_only=True)
    for component in deck.components or []:
        for card in (component.cards or []) if component is not None else []:
            if not hasattr(card, "extra") or not isinstance(card.source, Map):
                continue
            for field, option in records.cards.items():
                if field in card.extra and field in card.source:
                    value = option.validate(card.source[field], card.source.at(field), game_ctx, field)
                    if value is not None:
                        card.extra[field] = plain(value)
                        card.typed = {**getattr(card, "typed", {}), field: value}
    check_deck = getattr(records.module, "check", None)
    if callable(check_deck):
        try:
            check_deck(deck, game_ctx)
        except Exception as err:  # noqa: BLE001 (any failure of the game's code is a located line)
            ctx.error(Where(str(records.python)), f"the game's check fails: {type(err).__name__}: {err}; fix "
                                                  "the game's python file")


def _load(record: type[Record], raw: Any, where, ctx: Context, given_only: bool = False) -> dict:
    try:
        loaded = record.load(raw, where, ctx)
    except Invalid as err:
        ctx.error(where, str(err))
        return {}
    keys = [k for k in loaded.source if k in record.OPTIONS] if given_only else list(record.OPTIONS)
    return {k: plain(getattr(loaded, k)) for k in keys}


# --- JSON Schema ----------------------------------------------------------------------------------------

def json_schema(deck_schema: dict, deck_path: Path | None = None) -> dict:
    """Add the records of every game a deck could name (of the project of `deck_path` too, when given) to the
    deck schema: each applied when the deck's `script` names its game."""
    rules = []
    for name, (folder, origin) in sorted(available(deck_path).items()):
        records_file = folder / RECORDS_FILE
        if not records_file.is_file():
            continue
        records = _records(records_file)
        card_props = {field: {"anyOf": [family_schema(option.json_schema()), EXPRESSION]}
                      for field, option in records.cards.items()}
        rules.append({
            "if": {"required": ["script"], "properties": {"script": {"const": name}}},
            "then": {"properties": {
                "setup": {"properties": {"options": (records.setup or NoSetupOptions).json_schema()}},
                "modes": {"items": {"properties": {"options": (records.modes or NoModeOptions).json_schema()}}},
                "components": {"items": {"properties": {"cards": {"items": {"properties": card_props}}}}},
            }},
        })
    if rules:
        deck_schema["allOf"] = rules
    return deck_schema


def own_records() -> list[tuple[str, GameRecords]]:
    """deckpress's own games that declare records, by name, with their records (for the reference page)."""
    out = []
    for name, (folder, origin) in sorted(available(None, installed=False).items()):
        if (folder / RECORDS_FILE).is_file():
            out.append((name, _records(folder / RECORDS_FILE)))
    return out
