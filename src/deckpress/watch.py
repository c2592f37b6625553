"""`deckpress watch`: build, then build again on every saved change to a project's inputs.

Each rebuild is an ordinary incremental build: faces whose inputs did not change are reused, so only
what changed is redrawn. The watcher is watchfiles (native file-system events, not polling); the
output folder and editors' and git's own files are not watched.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import watchfiles

from .paths import project_root

DEBOUNCE_MS = 30  # a save often arrives as several events; wait this long for the last one
SETUP_MS = 200  # how often the watcher wakes when nothing changed (its first wake starts the first build)


# The files editors write beside the one saved, beyond those watchfiles leaves out (vim's .swp and ~,
# emacs's .#name): vim's write test (4913), emacs's #autosave#, gedit's, Kate's, LibreOffice's lock,
# Chrome's and JetBrains' temporary copies, and *.tmp.
EDITOR_FILES = (r"^4913$", r"^#.*#$", r"^\.goutputstream-", r"\.kate-swp$", r"^\.~lock\..*#$", r"\.crswap$",
                r"\.sw[a-p]x?$", r"___jb_(tmp|old|bak)___$", r"\.tmp$")


class _Inputs(watchfiles.DefaultFilter):
    """Every file under the projects but the output folder and editors' own."""

    def __init__(self, out: Path):
        super().__init__(ignore_entity_patterns=(*watchfiles.DefaultFilter.ignore_entity_patterns, *EDITOR_FILES))
        self.out = out.resolve()

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        return super().__call__(change, path) and not Path(path).resolve().is_relative_to(self.out)


def watch(decks: Callable[[], list[Path]], out: Path, build: Callable[[Path], bool],
          echo: Callable[[str], None], stop_event=None) -> None:
    """Build every deck `decks()` names, then again after each change, until Ctrl-C (or `stop_event`).
    `build` builds one deck, reports its own errors and says whether it succeeded; `decks()` reports its
    own problem (a deck file deleted since) and then names none."""
    from .builders import preload

    preload()

    def build_all() -> bool:
        found = decks()
        return bool(found) and all([build(deck) for deck in found])

    roots = sorted({project_root(d).resolve() for d in decks()})
    watching = False
    # The first build runs once the watcher is set up (its first yield), so no save is missed between them.
    for changes in watchfiles.watch(*roots, watch_filter=_Inputs(out), debounce=DEBOUNCE_MS, step=10,
                                    rust_timeout=SETUP_MS, yield_on_timeout=True, stop_event=stop_event,
                                    raise_interrupt=True):
        if not watching:
            build_all()
            echo(f"watching {', '.join(str(r) for r in roots)} (Ctrl-C to stop)")
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
