"""`deckpress watch`: build, then build again on every saved change to a project's inputs.

Each rebuild is an ordinary incremental build: faces whose inputs did not change are reused, so only
what changed is redrawn. The watcher is watchfiles (native file-system events, not polling). A change
starts a rebuild only when it is a deck's input: a file its last build read (the inputs its manifest lists:
the deck, templates, spreadsheets, images, fonts, Lua, print styles), or a file added where a deck looks for
inputs (decks/, templates/, tts/, print/). After a build that failed, and for a deck with no build yet, any
change of the project counts. Never one: the output folder, editors' and version control's own files, and
the files watch's own output goes to (`deckpress watch > watch.log`).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

import watchfiles

from .build import DRAWN, read_manifest
from .inputs import input_path
from .paths import LOOKUP_FOLDERS, project_root

DEBOUNCE_MS = 30  # a save often arrives as several events; wait this long for the last one
SETUP_MS = 200  # how often the watcher wakes when nothing changed (its first wake starts the first build)


# The files editors and tools write beside the one saved, beyond those watchfiles leaves out (vim's .swp
# and ~, emacs's .#name): vim's write test (4913), emacs's #autosave#, gedit's, Kate's, LibreOffice's lock,
# Chrome's and JetBrains' temporary copies, sed -i's, and *.tmp.
EDITOR_FILES = (r"^4913$", r"^#.*#$", r"^\.goutputstream-", r"\.kate-swp$", r"^\.~lock\..*#$", r"\.crswap$",
                r"\.sw[a-p]x?$", r"___jb_(tmp|old|bak)___$", r"\.tmp$", r"^sed[A-Za-z0-9]{6}$")


def _own_output() -> set[tuple[int, int]]:
    """The files (device, inode) this process's output goes to, where it is redirected to a file."""
    out = set()
    for fd in (1, 2):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out.add((st.st_dev, st.st_ino))
    return out


class _Inputs(watchfiles.DefaultFilter):
    """The changes that start a rebuild (see above); `learn` tells it the decks' inputs after each build."""

    def __init__(self, out: Path):
        super().__init__(ignore_entity_patterns=(*watchfiles.DefaultFilter.ignore_entity_patterns, *EDITOR_FILES))
        self.out = out.resolve()
        self.own = _own_output()
        self.inputs: set[Path] | None = None  # None: some deck has no build yet, any change counts
        self.folders: set[Path] = set()

    def learn(self, decks: list[Path], built: bool) -> None:
        """The inputs each deck's build in the output folder read, and where each looks for new ones; after a
        build that failed (the fix may be a file no build read yet), or with no deck found, any change."""
        self.inputs = None
        if not built:
            return
        inputs: set[Path] = set()
        folders: set[Path] = set()
        for deck in decks:
            names = read_manifest(self.out / deck.stem).get("inputs")
            if not isinstance(names, dict):
                return
            inputs.update(input_path(name, deck).resolve() for name in names  # the deck file among them
                          if name not in ("deckpress", "options") and not name.startswith("script:"))
            root = project_root(deck).resolve()
            folders.update([deck.parent.resolve(), *(root / folder for folder in LOOKUP_FOLDERS)])
        self.inputs, self.folders = inputs, folders

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        if not super().__call__(change, path):
            return False
        where = Path(path).resolve()
        if where.is_relative_to(self.out):
            return False
        try:
            st = os.stat(where)
        except OSError:
            st = None
        if st is not None and (st.st_dev, st.st_ino) in self.own:
            return False
        if self.inputs is None or where in self.inputs:
            return True
        return change == watchfiles.Change.added and any(where.is_relative_to(f) for f in self.folders)


def watch(decks: Callable[[], list[Path]], out: Path, build: Callable[[Path], bool],
          echo: Callable[[str], None], stop_event=None) -> None:
    """Build every deck `decks()` names, then again after each change, until Ctrl-C (or `stop_event`).
    `build` builds one deck, reports its own errors and says whether it succeeded; `decks()` reports its
    own problem (a deck file deleted since) and then names none."""
    from .builders import preload

    preload()

    inputs = _Inputs(out)

    def build_all() -> bool:
        found = decks()
        built = bool(found) and all([build(deck) for deck in found])
        inputs.learn(found, built)
        return built

    roots = sorted({project_root(d).resolve() for d in decks()})
    watching = False
    # The first build runs once the watcher is set up (its first yield), so no save is missed between them.
    for changes in watchfiles.watch(*roots, watch_filter=inputs, debounce=DEBOUNCE_MS, step=10,
                                    rust_timeout=SETUP_MS, yield_on_timeout=True, stop_event=stop_event,
                                    raise_interrupt=True):
        if not watching:
            build_all()
            echo(f"watching {', '.join(str(r) for r in roots)} (Ctrl-C to stop); each face shows in "
                 f"{out / DRAWN}/ as soon as it is drawn, {out}/<deck>/ changes once a build is whole")
            watching = True
            continue
        if not changes:
            continue
        names = sorted({Path(path).name for _, path in changes})
        echo(f"changed: {', '.join(names[:5])}{' ...' if len(names) > 5 else ''}")
        start = time.perf_counter()
        built = build_all()
        took = time.perf_counter() - start
        echo(f"rebuilt in {took:.2f} s" if built else f"not rebuilt ({took:.2f} s); fix what is said above and save")
