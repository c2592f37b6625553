"""A live connection to Tabletop Simulator for `push` and `watch --tts`: the listener on the editor's port,
the pushes, and, while watching, what keeps the two connected as TTS and other editors come and go.

While watching (a deck given): when TTS says it loaded this deck's game, the current build is pushed at
once; when a push found TTS absent, deckpress knocks on TTS's port again and again (a refused connection on
this computer costs nothing), each time a little later, up to every `MAX_RETRY` seconds: with the
listener, by asking for the loaded game's scripts (TTS answers as when it loads a game, and that answer
pushes), without it, by pushing; and when another program holds the editor's port, deckpress tries to take
it at the same pace and says so when it does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from . import editor
from .push import Pusher, Talkback

FIRST_RETRY = 0.5  # seconds before the first knock on a port that was not there; doubled after each
MAX_RETRY = 8.0


class Live:
    """Pushes to a running TTS and passes on what it says back; when the editor's port is taken, says so
    once. With `deck` (watch), keeps connecting in a thread of its own (see the module's doc)."""

    def __init__(self, out: Path, echo: Callable[[str], None], tts_port: int = editor.TTS_PORT,
                 editor_port: int = editor.EDITOR_PORT, deck: str | None = None):
        self.echo, self.tts_port, self.editor_port, self.deck = echo, tts_port, editor_port, deck
        self.talkback = Talkback(echo)
        self.pusher = Pusher(out, echo, self.talkback, port=tts_port)
        self.listener: editor.Listener | None = None
        self.busy = threading.RLock()  # one push at a time; watch holds it across a build and its push
        self._table_lock = threading.Lock()
        self._table: dict | None = None  # the Global script state of a game TTS loaded, not yet pushed into
        self._stopped, self._wake = threading.Event(), threading.Event()
        self._listen(quietly=False)
        self._thread = None
        if deck is not None:
            self.talkback.on_game = self._game_loaded
            self._thread = threading.Thread(target=self._connect, name="tts-connect", daemon=True)
            self._thread.start()

    def _listen(self, quietly: bool) -> bool:
        """Take the editor's port; says why not unless `quietly`."""
        try:
            self.listener = editor.Listener(self.talkback, self.echo, port=self.editor_port)
        except editor.PortTaken as err:
            if not quietly:
                self.echo(f"{err}; pushing goes on")
            return False
        self.talkback.listening = True
        return True

    def push(self, deck: str, quiet: bool = False) -> bool:
        """Push `deck` (into the game TTS said it loaded, when it did since); `quiet`: no line when TTS is
        still absent."""
        with self.busy:
            with self._table_lock:
                table, self._table = self._table, None
            pushed = self.pusher.push(deck, table, quiet=quiet)
        if self.pusher.unreachable and not quiet:
            self._wake.set()
        return pushed

    def _game_loaded(self, state: dict) -> None:
        """TTS loaded a game (in the listener's thread, which must go on receiving while the push waits for
        TTS to reload): remember it, and push in a thread of its own unless a push takes it first."""
        with self._table_lock:
            self._table = state

        def push() -> None:
            with self.busy:
                with self._table_lock:
                    waiting = self._table is not None
                if waiting and not self._stopped.is_set():
                    self.push(self.deck)

        threading.Thread(target=push, name="tts-loaded", daemon=True).start()

    def _connect(self) -> None:
        delay = FIRST_RETRY
        while True:
            woken = self._wake.wait(delay)
            self._wake.clear()
            if self._stopped.is_set():
                return
            if woken:  # a push found TTS absent: knock again soon
                delay = FIRST_RETRY
                continue
            if self.listener is None and self._listen(quietly=True):
                self.echo(f"tts: {editor.HOST}:{self.editor_port} is free again; listening there: TTS's prints and "
                          "errors show here")
            if self.pusher.unreachable:
                if self.listener is None:
                    self.push(self.deck, quiet=True)
                else:
                    try:
                        editor.get_scripts(self.tts_port)
                        self.pusher.unreachable = False  # TTS is there: its answer, or its next load, pushes
                    except editor.NotRunning:
                        pass
            delay = min(delay * 2, MAX_RETRY)

    def stop(self) -> None:
        self._stopped.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=editor.TIMEOUT)
        if self.listener is not None:
            self.listener.stop()
