"""What the studio's page plays: a playtest run started from the page (PlaytestRuns: `deckpress playtest`'s own
run, report and page, in a thread, its progress told to the page), and the table of a scripted deck (Tables:
table.py's game, one per deck, its moves posted by the page).
"""

from __future__ import annotations

import threading
from typing import Any

from starlette.responses import JSONResponse

from ..build import output_lock
from ..errors import DeckError
from .server import Studio, error_response

PAGE_GAMES = 100_000  # games of a run started from the page: a long run is the command line's


def _option(body: dict, key: str, kind: type, default: Any) -> Any:
    value = body.get(key, default)
    if value is None or value == "":
        return default
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).lstrip("-").isdigit():
            raise ValueError(f"{key}: {value!r} is not a whole number; give one, e.g. {default or 1}")
        return int(value)
    if not isinstance(value, str):
        raise ValueError(f"{key}: {value!r} is not text; give a name, e.g. {default}")
    return value


class PlaytestRuns:
    """One playtest run at a time per deck, started from the page, played as `deckpress playtest` plays it (the
    same options, the same seed, the same figures and page)."""

    def __init__(self, studio: Studio):
        self.studio = studio
        self.state: dict[str, dict] = {}
        self.lock = threading.Lock()

    def progress(self, name: str) -> dict:
        with self.lock:
            return dict(self.state.get(name) or {"running": False})

    def start(self, name: str, body: dict) -> JSONResponse:
        from ..playtest import PlaytestError, prepare

        try:
            games = _option(body, "games", int, 200)
            if not 1 <= games <= PAGE_GAMES:
                raise ValueError(f"games: {games}; play 1 to {PAGE_GAMES:,} games from the page (more with "
                                 "deckpress playtest)")
            options = {"games": games, "players": _option(body, "players", int, None),
                       "mode": _option(body, "mode", str, None), "seed": _option(body, "seed", int, 1),
                       "bots": _option(body, "bots", str, "random"), "budget": _option(body, "budget", int, 100)}
        except ValueError as err:
            return error_response(400, str(err))
        with self.lock:
            if (self.state.get(name) or {}).get("running"):
                return error_response(409, f"a playtest of {name} is running; wait for it to end")
            self.state[name] = {"running": True, "done": 0, "total": games, "options": options}
        try:
            run = prepare(self.studio.decks[name].path, **options)
        except (PlaytestError, DeckError) as err:
            return self._failed(name, str(err), 400)
        threading.Thread(target=self._play, args=(name, run), daemon=True, name=f"playtest {name}").start()
        return JSONResponse(self.progress(name))

    def _failed(self, name: str, message: str, status: int) -> JSONResponse:
        with self.lock:
            self.state[name] = {"running": False, "error": message}
        self.studio.hub.publish({"type": "playtest", "deck": name, "running": False, "error": message})
        return error_response(status, message)

    def _play(self, name: str, run) -> None:
        from ..playtest import PlaytestError, play, report, text
        from ..playtest.page import write_page

        def told(done: int, total: int) -> None:
            with self.lock:
                self.state[name].update(done=done, total=total)
            self.studio.hub.publish({"type": "playtest", "deck": name, "running": True, "done": done, "total": total})

        try:
            result = report(play(run, None, told))
            with output_lock(self.studio.out, name, lambda *args, **kwargs: None):
                page = write_page(self.studio.out, run, dict(result))
        except (PlaytestError, DeckError, OSError) as err:
            self._failed(name, str(err), 400)
            return
        relative = page.relative_to(self.studio.out / name).as_posix()
        with self.lock:
            self.state[name].update(running=False, report=text(result, None, None), page=relative)
        self.studio.hub.publish({"type": "playtest", "deck": name, "running": False, "page": relative})


class Tables:
    """The table of each scripted deck: one game at a time, started from the page (a new game loads the deck's
    game as it is on disk then), its moves and the bots' moves posted by the page, one at a time."""

    def __init__(self, studio: Studio):
        self.studio = studio
        self.games: dict[str, Any] = {}
        self.locks: dict[str, threading.Lock] = {name: threading.Lock() for name in studio.decks}

    def snapshot(self, name: str, seat: str | None) -> JSONResponse:
        from .table import TableError

        with self.locks[name]:
            table = self.games.get(name)
            if table is None:
                return self.setup(name)
            try:
                return JSONResponse({"started": True, **table.snapshot(seat)})
            except TableError as err:
                return error_response(400, str(err))

    def setup(self, name: str) -> JSONResponse:
        """What the page's new-game form offers: the deck's seats, modes and player counts, the bots."""
        from .table import Table, TableError

        try:
            table = Table.load(self.studio.decks[name].path)
        except (TableError, DeckError) as err:
            return error_response(409, str(err))
        return JSONResponse({"started": False, **table.setup_options()})

    def start(self, name: str, body: dict) -> JSONResponse:
        from .table import Table, TableError

        players, mode, seed = body.get("players"), body.get("mode"), body.get("seed", 1)
        if not isinstance(players, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in players.items()):
            return error_response(400, "players: give each seat's player, e.g. {\"White\": \"human\", \"Red\": \"random\"}")
        if mode is not None and not isinstance(mode, str):
            return error_response(400, f"mode: {mode!r} is not a mode's id; give one of the deck's modes")
        if isinstance(seed, bool) or not isinstance(seed, int):
            return error_response(400, f"seed: {seed!r} is not a whole number; give one, e.g. 1")
        with self.locks[name]:
            try:
                table = Table.load(self.studio.decks[name].path)
                table.start(players, mode, seed)
            except (TableError, DeckError) as err:
                return error_response(400, str(err))
            self.games[name] = table
            return JSONResponse({"started": True, **table.snapshot(None)})

    def move(self, name: str, body: dict) -> JSONResponse:
        from .table import TableError

        seat, move = body.get("seat"), body.get("move")
        if not isinstance(seat, str) or "move" not in body:
            return error_response(400, "a move is {\"seat\": \"Red\", \"move\": <the move, as legal_moves lists it>}")
        with self.locks[name]:
            table = self.games.get(name)
            if table is None:
                return error_response(409, f"no game of {name} is being played; start one")
            try:
                return JSONResponse(table.move(seat, move))
            except TableError as err:
                return error_response(400, str(err))

    def bot(self, name: str, body: dict) -> JSONResponse:
        with self.locks[name]:
            table = self.games.get(name)
            if table is None:
                return error_response(409, f"no game of {name} is being played; start one")
            played = table.bot_move()
            return JSONResponse({"ok": played is not None, **(played or {})})
