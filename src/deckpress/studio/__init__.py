"""`deckpress studio`: the game live in the browser while the designer edits it, and playable there.

A local web server (server.py) builds the project as `deckpress watch` does and serves one page per deck: its
faces as a grid, each face's card data and where each part of it came from (sources.py), the print pages and
the TTS sheets, the last playtest report; and, for a scripted deck, a table (table.py) where humans and
playtest's bots play the game through the engine contract, the game's own Lua deciding everything.
"""

from __future__ import annotations

import json
import os
import threading
import webbrowser
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .server import Studio, StudioError, address, app, listen, url_host

__all__ = ["StudioError", "command"]

LOCK = ".deckpress-studio"  # OUT/.deckpress-studio: the running studio's address, locked while it runs


@contextmanager
def only_studio(out: Path) -> Iterator[Callable[[str], None]]:
    """Hold the project's studio lock (OUT/.deckpress-studio) while the studio runs; StudioError, naming the
    running one's address, when another studio holds it. Yields a function that writes the address there."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            import fcntl

            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # Windows
            import msvcrt

            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
    except OSError:
        os.close(handle)
        try:
            running = json.loads(path.read_text(encoding="utf-8")).get("url", "")
        except (OSError, ValueError):
            running = ""
        raise StudioError(f"a studio is already running on this project ({out}){' at ' + running if running else ''}; "
                          "open it, or stop it (Ctrl-C where it runs) first") from None

    def note(url: str) -> None:
        os.ftruncate(handle, 0)
        os.pwrite(handle, json.dumps({"url": url, "pid": os.getpid()}).encode(), 0)

    try:
        yield note
    finally:
        os.close(handle)


def command(paths: Callable[[], list[Path]], first: list[Path], out: Path,
            build: Callable[[Path], tuple[list[str], str]], host: str, port: int, open_browser: bool,
            echo: Callable[[str], None]) -> None:
    """`deckpress studio`: serve the decks `first` names on host:port and build them as `watch` does (`paths()`
    names them anew before each build; `build(path)` builds one and returns its mistakes' lines and summary),
    until Ctrl-C. StudioError, one line, when it cannot start."""
    import uvicorn

    from ..watch import watch

    with only_studio(out) as note:
        sock = listen(host, port)
        host, port = address(sock)
        studio = Studio(out, {p.stem: p for p in first})
        server = uvicorn.Server(uvicorn.Config(app(studio, host, port), log_level="warning", lifespan="on",
                                               access_log=False, ws="none"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="studio server")
        thread.start()
        url = f"http://{url_host(host, port)}/"
        note(url)
        echo(f"deckpress studio: {url} (Ctrl-C to stop)")
        if open_browser:
            webbrowser.open(url)

        def built(path: Path) -> bool:
            if path.stem not in studio.decks:
                return True
            studio.building(path.stem)
            errors, summary = build(path)
            studio.built(path.stem, errors, summary)
            return not errors

        try:
            watch(paths, out, built, echo)
        finally:
            server.should_exit = True
            thread.join(5)
            sock.close()
