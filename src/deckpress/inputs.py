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
import os
import shutil
import stat
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import __version__
from .paths import LOOKUP_FOLDERS, PACKAGE_DATA, display_name, lookup_dirs, project_root

PACKAGE = Path(__file__).resolve().parent


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_state(path: Path | str) -> list[int] | None:
    """What a stamp (stamp.py) compares of a file: its size, modification time and inode; None when there is
    no file there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino] if stat.S_ISREG(st.st_mode) else None


# A file changed this recently may change again within its file system's timestamp resolution (2 s on FAT)
# and keep the time: its state does not stand for its bytes yet.
YOUNG_NS = 2_000_000_000


def young(mtime_ns: int) -> bool:
    """Whether a file or folder modified at `mtime_ns` changed too recently for its state to stand for it."""
    return mtime_ns > time.time_ns() - YOUNG_NS


# What a build knows of its files' digests travels with it, in two maps:
# - Hashed: the state each input file had as the build hashed it, by its resolved path (None when it was too
#   young to stand for the digest, or changed while read); a stamp takes a file's state only from there;
# - Vouched: digests of built files by their state: the previous build's files its stamp vouches for
#   (stamp.vouched; a file taken from there, a hard link, is not read again to be checked) and those its
#   builders hashed as they wrote them (Records.hashed; not read again for the manifest).
Hashed = dict[str, list[int] | None]
Vouched = dict[tuple, str]


def built_digest(path: Path, vouched: Vouched | None = None) -> str:
    """sha256 of a file of a build: the one `vouched` holds for its state, if any, else read."""
    state = file_state(path) if vouched else None
    return (vouched.get(tuple(state)) if state is not None else None) or sha256_file(path)


# The digest of each input file hashed in this process whose state stood for its bytes, with that state: found
# in the same state again (a build's second look, each rebuild of `deckpress watch`), the file is not read
# again. A memo by state alone (the same answers without it), as functools.cache is.
_DIGESTS: dict[str, tuple[list[int], str]] = {}


def input_digest(path: Path, resolved: bool = False, hashed: Hashed | None = None) -> str:
    """sha256 of an input file, its state noted in `hashed` (`resolved`: the path given is)."""
    key = str(path if resolved else path.resolve())
    before = file_state(path)
    known = _DIGESTS.get(key)
    if known is not None and known[0] == before:
        if hashed is not None:
            hashed[key] = before
        return known[1]
    digest = sha256_file(path)
    trusted = before is not None and not young(before[1]) and file_state(path) == before
    if hashed is not None:
        hashed[key] = before if trusted else None
    if trusted:
        _DIGESTS[key] = (before, digest)
    return digest


def digest(value: Any) -> str:
    """sha256 of a JSON-like value, the same for equal values."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


@lru_cache(maxsize=1)
def package_digest() -> str:
    """deckpress's version, code and package data (Lua runtime, built-in profiles and templates, fonts): kept
    in the user's cache folder by the state of each file (cache.py), unless one changed too recently for its
    state to stand for its bytes."""
    from . import cache

    files = sorted(listed_files(PACKAGE))
    states = [file_state(file) for file in files]
    listed = [[file.relative_to(PACKAGE).as_posix(), state] for file, state in zip(files, states)]
    key = None if any(state is None or young(state[1]) for state in states) else [__version__, str(PACKAGE), listed]

    def work_out() -> str:
        h = hashlib.sha256(__version__.encode())
        for file, (name, _) in zip(files, listed):
            h.update(name.encode() + b"\0")
            h.update(input_digest(file).encode())
        return h.hexdigest()
    return cache.remembered("package-digest", key, work_out)


def input_path(name: str, deck_path: Path) -> Path:
    """The file an input's name in a build's records stands for (the inverse of `display_name`)."""
    if name.startswith("deckpress:"):
        return PACKAGE_DATA / name.removeprefix("deckpress:")
    return project_root(deck_path) / name


def _image_digest(file: Path, hashed: Hashed | None = None) -> str:
    return input_digest(file, hashed=hashed) if file.is_file() else MISSING


MISSING = ""  # the digest recorded for an image a face drew a placeholder for


def images_unchanged(images: dict[str, str], deck_path: Path) -> bool:
    """Whether every image a face drew (or drew a placeholder for) is as it was."""
    return all(_image_digest(input_path(name, deck_path)) == expected for name, expected in images.items())


def image_record(read: set[Path], missing: set[Path], deck_path: Path) -> dict[str, str]:
    """The images a face drew, with their digests, and those it drew a placeholder for."""
    return {display_name(p, deck_path): _image_digest(p) for p in sorted(read | missing)}


def _walk(folder: Path) -> Iterator[tuple[str, str]]:
    """(its folder, its name) of each file in `folder` and its subfolders, as listed (links not resolved; a
    link to a folder is not followed, as Path.rglob does not), but in Python's __pycache__ folders."""
    for top, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name != "__pycache__"]
        yield from ((top, name) for name in files if os.path.isfile(os.path.join(top, name)))


def listed_files(folder: Path) -> list[Path]:
    """The files in `folder` and its subfolders (see _walk)."""
    return [Path(top, name) for top, name in _walk(folder)]


def resolved_files(folder: Path) -> list[tuple[Path, Path]]:
    """Each file of listed_files(folder), and its path resolved: the folder resolved once (os.walk enters no
    link to a folder), then only a file that is itself a link (Path.resolve of every file, a system call per
    part of its path, took most of a build's look at its inputs)."""
    start, root = os.fspath(folder), os.fspath(folder.resolve())
    out = []
    for top, name in _walk(folder):
        path = Path(top, name)
        out.append((path, path.resolve() if os.path.islink(path) else Path(root + top[len(start):], name)))
    return out


def input_files(deck) -> list[Path]:
    """The deck's input files but for its faces' images, resolved: the deck file, its own fonts, and the
    templates, TTS sources and print profiles it can read (the project's and the built-in ones)."""
    files = {f.resolve() for f in deck.input_files()}
    for folder in LOOKUP_FOLDERS:
        for directory in lookup_dirs(deck.path, folder):
            if directory.is_dir():
                files.update(resolved for _, resolved in resolved_files(directory))
    return sorted(files)


def face_images(deck, face_records: dict) -> dict[str, Path]:
    """The image files the faces drew or drew a placeholder for, by their names in the records."""
    return {name: input_path(name, deck.path) for record in face_records.values() for name in record.get("images", {})}


def input_digests(deck, hashed: Hashed | None = None) -> dict[str, str]:
    """The digest of each input file of the deck but its faces' images (see input_files), by its name; each
    file's state noted in `hashed`."""
    game = deck.model.scripted
    return {(game.display_name(f) if game is not None else None) or display_name(f, deck.path, resolved=True):
            input_digest(f, resolved=True, hashed=hashed) for f in input_files(deck)}


def build_inputs(deck, face_records: dict, options: dict, files: dict[str, str] | None = None,
                 hashed: Hashed | None = None) -> dict[str, str]:
    """Every input of a deck's build with its digest: the deck file, the templates, TTS sources and print
    profiles it can read (the project's and the built-in ones), its own fonts, the images its faces drew,
    deckpress itself and the build's options. `files`: input_digests(deck) as the build read them, at its
    start (a file saved while the build runs is then not recorded with bytes the build did not read). The state
    of each file hashed is noted in `hashed`."""
    out = dict(input_digests(deck, hashed) if files is None else files)
    for name, file in face_images(deck, face_records).items():
        out[name] = _image_digest(file, hashed)
    out["deckpress"] = package_digest()
    out["options"] = digest(options)
    return out


def copy_file(source: Path, target: Path) -> None:
    """`target` with the bytes of `source`: a hard link where the file system allows it (the previous
    build's folder is removed, never changed, once the new one replaces it), else a copy."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


class Records:
    """What each artifact of a build was made from: a record per artifact (a sheet, a thumbnail, a PDF, a
    typesetting plan), its key a digest of every input that reaches it, its value what the build needs
    to use it without making it again (file digests, names). A record whose key is the same as in the
    previous build lets the build take the artifact's files from there; the records land in the
    manifest, so a clean build writes exactly the records an incremental one does."""

    def __init__(self, out: Path, previous: Path | None, old: dict, vouched: Vouched | None = None):
        self.out = out
        self.previous = previous
        self.old = old if isinstance(old, dict) else {}
        self.vouched: Vouched = vouched if vouched is not None else {}  # the previous build's, checked by state
        self.new: dict[str, dict] = {}
        self.hashed: Vouched = {}  # the digest of each file `keep` hashed, by its state then
        self._digests: dict[str, str] = {}
        self._put: list[str] = []  # names put, in order, for the records made while making another

    def digest(self, relative: str) -> str:
        """sha256 of a file this build wrote (a face, read by several artifacts), computed once."""
        if relative not in self._digests:
            self._digests[relative] = sha256_file(self.out / relative)
        return self._digests[relative]

    def get(self, name: str, key: str) -> dict | None:
        """The value recorded under `name` (this build or the previous one) when it was made from `key`."""
        for records in (self.new, self.old):
            record = records.get(name)
            if isinstance(record, dict) and record.get("key") == key and isinstance(record.get("value"), dict):
                return record["value"]
        return None

    def put(self, name: str, key: str, value: dict) -> None:
        self.new[name] = {"key": key, "value": value}
        self._put.append(name)

    def fetch(self, relative: str, sha256: str, target: str | None = None) -> bool:
        """Take the previous build's file `relative` into this build (as `target`, default the same path)
        when it still has the digest `sha256`; whether it did."""
        if self.previous is None:
            return False
        source = self.previous / relative
        if not source.is_file() or built_digest(source, self.vouched) != sha256:
            return False
        copy_file(source, self.out / (target or relative))
        return True

    def reuse_file(self, name: str, key: str, relative: str) -> bool:
        """Take the file `relative`, recorded under `name` with its digest, from the previous build when it
        was made from `key`; record it again. Whether it did (else the caller writes it, then `keep`s it)."""
        value = self.get(name, key)
        if value is None or not isinstance(value.get("sha256"), str):
            return False
        uses = self.used(value)
        if uses is None:
            return False
        if not ((self.out / relative).is_file() or self.fetch(relative, value["sha256"])):
            return False
        if not self.put_again(uses):
            return False
        self.put(name, key, value)
        return True

    def put_again(self, uses: dict[str, dict]) -> bool:
        """Put the records `used` gave, as the artifact they were put for put them while it was made; the files
        those of them that are `cached` name (kept by `keep`: a face as a PDF converts it) are taken from the
        previous build too, as making the artifact would have made them. Whether they all were (else nothing
        is put, and the artifact must be made again)."""
        for name, record in uses.items():
            value = record["value"]
            if value.get("cached") and not ((self.out / name).is_file() or self.fetch(name, value.get("sha256"))):
                return False
        for name, record in uses.items():
            self.put(name, record["key"], record["value"])
        return True

    def used(self, value: dict) -> dict[str, dict] | None:
        """The records that a recorded artifact's `value` lists as put while it was made (see `keep`), by name
        (put them again with the artifact when it is not made again); None when one is gone."""
        uses = {u: self.new.get(u) or self.old.get(u) for u in value.get("uses", [])}
        return uses if all(isinstance(record, dict) for record in uses.values()) else None

    def previous_bytes(self, relative: str, sha256: str) -> bytes | None:
        """The bytes of the previous build's file `relative` when they have the digest `sha256` (read and
        checked here: never a file the user or a stopped build changed since it was recorded)."""
        if self.previous is None:
            return None
        try:
            data = (self.previous / relative).read_bytes()
        except OSError:
            return None
        return data if hashlib.sha256(data).hexdigest() == sha256 else None

    def making(self) -> int:
        """Call before making an artifact; pass the result to `keep`."""
        return len(self._put)

    def keep(self, name: str, key: str, relative: str, since: int | None = None, more: dict | None = None) -> None:
        """Record the file `relative` just written, under `name`, as made from `key`; with `since` (from
        `making`), the records put while making it go with it (a reused PDF keeps its typesetting plan);
        `more`: what else the record holds. The file is written once: its digest, by its state, serves the
        build's manifest (`hashed`)."""
        path = self.out / relative
        state = file_state(path)
        value: dict[str, Any] = {"sha256": sha256_file(path), **(more or {})}
        if state is not None and file_state(path) == state:  # a builder writes each of its files once
            self.hashed[tuple(state)] = value["sha256"]
        if since is not None and self._put[since:]:
            value["uses"] = sorted(set(self._put[since:]))
        self.put(name, key, value)


def plain(value: Any) -> Any:
    """A JSON-like copy of a validated value for a record's key: schema records as mappings of their
    options (and extra keys), without where in the files they came from."""
    options = getattr(type(value), "OPTIONS", None)
    if isinstance(options, dict):
        return {"": type(value).__name__, **{k: plain(getattr(value, k, None)) for k in options},
                **{k: plain(v) for k, v in sorted(getattr(value, "extra", {}).items())}}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [plain(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def model_inputs(deck) -> dict[str, str]:
    """The files the deck's model is read from (its YAML, the card tables it names, and the records of its
    scripted game, which type its game data), with digests."""
    files = [deck.path, *(c.cards_file for c in deck.model.components if c.cards_file is not None),
             *icon_files(deck)]
    game = deck.model.scripted
    if game is not None and game.records is not None:
        files += [game.records.path, *([game.records.python] if game.records.python else [])]
    return {(game.display_name(f) if game is not None else None) or display_name(f, deck.path): sha256_file(f)
            for f in sorted(set(files))}


def icon_files(deck) -> list[Path]:
    """The image files of the deck's inline icons."""
    return [i.image_file for i in (deck.model.icons or {}).values() if i is not None and i.image_file is not None]


def artifact_key(kind: str, *parts: Any) -> str:
    """The key of an artifact's record: its kind, deckpress itself, and the inputs given."""
    return digest([kind, package_digest(), *parts])
