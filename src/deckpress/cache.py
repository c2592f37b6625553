"""What a command remembers from the last one, in the user's cache folder: each thing kept with the key it
holds for (the state of the files it was worked out from), so that a command whose key is the same takes it
as it is instead of working it out again. Only what saves time is kept here: without a writable cache
folder every command works everything out, as it would the first time.

- `package_digest` (inputs.py): the digest of deckpress's own files, kept by their states (20 ms of reading
  and hashing 5.5 MB, every build);
- `entry_points`: what the installed packages register for deckpress (builders, games), kept by the state
  of every folder Python finds packages in (importing importlib.metadata and reading every installed
  distribution: 35 to 45 ms, every command);
- the code of the decks' and templates' expressions (expr.py), kept for the same Python, jinja2 and deckpress;
- the builds' stamps (stamp.py).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from .inputs import young


def folder() -> Path:
    """deckpress's folder in the user's cache folder (made when something is kept)."""
    if os.name == "nt":
        cache = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "deckpress"


def remembered(name: str, key: Any, work_out: Callable[[], Any]) -> Any:
    """The value kept as `name` when it was kept for `key` (JSON-like, compared as JSON gives it back); else
    `work_out()`, kept for `key` (None for a key: worked out and not kept)."""
    path = folder() / f"{name}.json"
    if key is not None:
        key = json.loads(json.dumps(key))
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = None
        if isinstance(kept, dict) and kept.get("key") == key and "value" in kept:
            return kept["value"]
    value = work_out()
    if key is not None:
        store(path, {"key": key, "value": value})
    return value


def store(path: Path, value: Any) -> None:
    """Write `value` as JSON to `path` whole (another process reads the old file or the new one, never a part),
    or not at all when the cache folder cannot be written."""
    store_bytes(path, json.dumps(value, sort_keys=True).encode("utf-8"))


def store_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole, or not at all (see store)."""
    staged = path.with_name(f"{path.name}.{os.getpid()}.new")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        staged.write_bytes(data)
        os.replace(staged, path)
    except OSError:
        with suppress(OSError):
            staged.unlink()


GROUPS = ("deckpress.builders", "deckpress.games")  # the entry-point groups of deckpress (builders/, scripting/games.py)


def _folder_state(entry: str) -> list[int] | None:
    try:
        st = os.stat(entry or ".")
    except OSError:
        return None
    return [st.st_mtime_ns, st.st_ino, st.st_size]


def entry_points(group: str) -> list[tuple[str, str, str | None]]:
    """The entry points of `group` the installed distributions register: (name, value, distribution name),
    in the order importlib.metadata gives them. Kept by the state of every folder of sys.path: installing,
    upgrading or removing a package adds or removes its *.dist-info folder (and an editable install's .pth
    file) there, which changes the folder's modification time (not kept while a folder changed too
    recently for its time to tell the next change)."""
    def read() -> dict[str, list[list]]:
        import importlib.metadata

        return {kind: [[point.name, point.value, point.dist.name if point.dist is not None else None]
                       for point in importlib.metadata.entry_points(group=kind)] for kind in GROUPS}

    states = [_folder_state(entry) for entry in sys.path]
    # a folder changed within its clock's tick may change again, keeping its time
    key = None if any(state is not None and young(state[0]) for state in states) else \
        [[entry, state] for entry, state in zip(sys.path, states)]
    points = remembered("entry-points", key, read)[group]
    return [(name, value, dist) for name, value, dist in points]


def load(value: str) -> Any:
    """The object an entry point's value names: `module` or `module:attribute.attribute`."""
    import importlib

    module, _, attributes = value.partition(":")
    found = importlib.import_module(module.strip())
    for attribute in filter(None, attributes.strip().split(".")):
        found = getattr(found, attribute)
    return found
