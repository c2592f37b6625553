"""A deck's stamp: how a build that would change nothing knows it in milliseconds, without reading the deck.

A build finds its deck up to date when the inputs its manifest lists have the same digests and every file
of the build the bytes the manifest gives (build.py, _up_to_date): that reads the deck, hashes its inputs
and the build's files. Once it is found so, or a build has been put in place, the build folder's stamp
records the state (size, modification time, inode) of each file that check read:

- every input file, with the state it had as it was hashed (inputs.Hashed), and only for a file changed
  more than inputs.YOUNG_NS before: a later change gives it another modification time;
- every file of the folders whose listing decides which inputs there are (the project's and deckpress's
  templates/, tts/ and print/, the deck's game folder), the deck file as named, and the images the faces
  drew or found missing;
- every file of the build folder, manifest included, with the state it had as the manifest was written
  or the check hashed it (a build's files are deckpress's own: nothing writes them in between);

and a key over deckpress itself (inputs.package_digest) and the build's options. When every one of these is as recorded, the full check would read the
same bytes and find the build up to date again: the build says so (and the warnings it said then) at once.
The inputs are left out of the stamp (it then never holds) for a deck that uses fonts installed on the
machine, or a game an installed package provides: another font or package could take their place without
any recorded file changing; and when an input's state does not stand for the bytes hashed.

The next build takes from the stamp the digests of the build's files (`vouched`): a face, tile, sheet or
PDF it takes from the last build is a hard link in the state recorded, and is not read again to be checked.

A build that stands writes the stamp again (when it can). One left from before, as by a build whose inputs
were too young to stamp, or a failed one (which leaves build/ as it was), cannot hold: the files of the
build folder it records are gone or changed, or the inputs are.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from . import cache
from .inputs import Hashed, face_images, file_state, listed_files, resolved_files
from .paths import LOOKUP_FOLDERS, lookup_dirs

MANIFEST = "manifest.json"


def stamp_path(final: Path) -> Path:
    """The stamp of the build folder `final` (OUT/<deck>), in the user's cache folder: not in the project
    (build/ holds the decks' folders alone, each the same bytes for the same inputs), named by a digest of
    the folder's absolute path. Without a writable cache folder there are no stamps: every build checks in
    full, as before."""
    name = hashlib.sha256(str(final.absolute()).encode()).hexdigest()[:32]
    return cache.folder() / "stamps" / f"{name}.json"


def _folders(deck_path: Path, game_folder: Path | None) -> list[str]:
    folders = [d for folder in LOOKUP_FOLDERS for d in lookup_dirs(deck_path, folder)]
    return sorted({str(f.absolute()) for f in [*folders, *([game_folder] if game_folder else [])]})


def _listing(folders: list[str]) -> dict[str, list[int] | None]:
    return {str(p): file_state(p) for folder in folders if os.path.isdir(folder) for p in listed_files(Path(folder))}


def _tree(final: Path) -> dict[str, list[int] | None]:
    """The state of every file of the build folder, by its path there."""
    out = {}
    root = str(final)
    for top, _, files in os.walk(root):
        prefix = "" if top == root else os.path.relpath(top, root).replace(os.sep, "/") + "/"
        for name in files:
            out[prefix + name] = file_state(os.path.join(top, name))
    return out


def unchanged(deck_path: Path, final: Path, key: str) -> list[str] | None:
    """The warnings to say again when the stamp of `final` holds for the deck at `deck_path` built with the
    options of `key` (the build is up to date); None when it does not (or there is none)."""
    try:
        stamp = json.loads(stamp_path(final).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(stamp, dict) or stamp.get("key") != key or stamp.get("deck") != str(deck_path.absolute()):
        return None
    files, folders, built, say = (stamp.get(k) for k in ("files", "folders", "built", "say"))
    if not (isinstance(files, dict) and isinstance(folders, list) and isinstance(built, dict)
            and isinstance(say, list)):
        return None
    current = _listing([f for f in folders if isinstance(f, str)])
    for name in files:
        if name not in current:
            current[name] = file_state(Path(name))
    if current != files or _tree(final) != built:
        return None
    return [line for line in say if isinstance(line, str)]


def _inputs(deck, face_records: dict, hashed: Hashed) -> tuple[list[str], dict[str, list[int] | None]] | None:
    """The folders listed and the state of each input file, for a stamp; None when a state does not stand
    for the bytes hashed (`hashed`: a file changed since, or too shortly before), or the deck cannot be
    stamped."""
    game = deck.model.scripted
    if deck.system_fonts or (game is not None and game.origin.startswith("package")):
        return None
    folders = _folders(deck.path, game.path if game is not None else None)
    files: dict[str, list[int] | None] = {}
    for folder in folders:
        for path, resolved in resolved_files(Path(folder)) if os.path.isdir(folder) else ():
            state = files[str(path)] = file_state(path)
            if state is None or hashed.get(str(resolved)) != state:
                return None
    for file in sorted({f.resolve() for f in deck.input_files()}):  # those of the folders: just above
        state = files[str(file)] = file_state(file)
        if state is None or hashed.get(str(file)) != state:
            return None
    for file in face_images(deck, face_records).values():
        state = files[str(file.resolve())] = file_state(file)
        if state is not None and hashed.get(str(file.resolve())) != state:
            return None
    files[str(deck.path.absolute())] = file_state(deck.path)
    return folders, files


def write(final: Path, deck, key: str, face_records: dict, built: dict[str, list[int] | None],
          say: list[str], hashed: Hashed) -> None:
    """Stamp the build folder `final`, just found up to date or put in place: `built` holds the state of each
    of its files as the manifest was written or checked, `hashed` that of each input file as the build hashed
    it. When the inputs cannot be stamped (see _inputs),
    the stamp holds the build's files alone: it never tells the build up to date, but the next build takes
    the digests of the files it reuses from it (`vouched`)."""
    if _tree(final) != built:
        return
    inputs = _inputs(deck, face_records, hashed)
    folders, files = inputs if inputs is not None else ([], None)
    stamp = {"deck": str(deck.path.absolute()), "key": key, "folders": folders, "files": files, "built": built,
             "say": say}
    cache.store(stamp_path(final), stamp)  # a stamp only saves time: a build stands without it


def vouched(final: Path, artifacts: dict) -> dict[tuple, str]:
    """The digests of the files of the build folder `final` (its manifest's `artifacts`) that its stamp
    vouches for, by the state each had: a file found in that state (the same file, or a hard link to it)
    has the bytes the manifest gives."""
    try:
        built = json.loads(stamp_path(final).read_text(encoding="utf-8")).get("built")
    except (OSError, ValueError, AttributeError):
        return {}
    if not isinstance(built, dict) or built.get(MANIFEST) is None or built[MANIFEST] != file_state(final / MANIFEST):
        return {}  # the stamp of another build than the manifest's
    return {tuple(state): info["sha256"] for name, info in artifacts.items()
            if isinstance(state := built.get(name), list) and isinstance(info, dict) and "sha256" in info}
