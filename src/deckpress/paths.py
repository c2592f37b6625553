"""Where a deck's files are: its project, deckpress's own package data, and the rule that keeps every
path a deck or template names inside one of the two.

A project is the folder that holds `decks/` (or, for a deck file that is not in a `decks/` folder, the
deck file's own folder). Its `templates/`, `tts/` and `print/` folders override deckpress's built-in
ones file by file; whatever a project lacks comes from the package data shipped in the wheel.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DATA = Path(__file__).resolve().parent / "data"
LOOKUP_FOLDERS = ("templates", "tts", "print")


class OutsideProject(ValueError):
    """A path that resolves (symbolic links followed) outside the project and the package data."""


def project_root(deck_path: Path) -> Path:
    """The project folder of the deck file at `deck_path` (absolute)."""
    folder = deck_path.absolute().parent
    return folder.parent if folder.name == "decks" else folder


def lookup_dirs(deck_path: Path, folder: str) -> list[Path]:
    """Where a deck's `folder` (templates, tts, print) is looked up, first match wins: the project's,
    then deckpress's own."""
    return [project_root(deck_path) / folder, PACKAGE_DATA / folder]


def allowed_roots(deck_path: Path) -> tuple[Path, Path]:
    return project_root(deck_path).resolve(), PACKAGE_DATA


def confine(path: Path, deck_path: Path) -> Path:
    """`path` resolved, symbolic links included; OutsideProject when it leads outside the deck's project
    and deckpress's package data."""
    resolved = path.resolve()
    if not any(resolved.is_relative_to(root) for root in allowed_roots(deck_path)):
        raise OutsideProject(f"{path} leads outside the project ({project_root(deck_path)})")
    return resolved


def find_in(dirs: list[Path], relative: str, deck_path: Path) -> Path | None:
    """The first `dir/relative` that is a file, confined to the project (OutsideProject otherwise)."""
    for directory in dirs:
        candidate = directory / relative
        if candidate.is_file():
            return confine(candidate, deck_path)
    return None


def display_name(path: Path, deck_path: Path, resolved: bool = False) -> str:
    """How an input file is named in the manifest: relative to the project, or `deckpress:` + its place
    in the package data (`resolved`: the path given is resolved already)."""
    real = path if resolved else path.resolve()
    if real.is_relative_to(PACKAGE_DATA):
        return "deckpress:" + real.relative_to(PACKAGE_DATA).as_posix()
    root = project_root(deck_path).resolve()
    if real.is_relative_to(root):
        return real.relative_to(root).as_posix()
    return real.as_posix()
