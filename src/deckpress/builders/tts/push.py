"""Push a built deck into a running Tabletop Simulator, and show what TTS says back.

What changed since the last push goes (docs/tts.md, "Live in TTS"): a changed Global script or XmlUI by
save & play (TTS reloads the whole game), then, once TTS says the game is loaded again, each changed
object by execute Lua that destroys the old one and spawns its new JSON where it lay. What was pushed is recorded (hashes only) in
OUT/.deckpress-push/<deck>.json, outside the deck's build folder, so the next push sends only changes.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

from . import editor
from .lua import LINE_MAP, source_line

RECORDS = ".deckpress-push"
LOAD_WAIT = 30.0  # seconds to wait for TTS to say the game reloaded after save & play
RELOAD_PAUSE = 5.0  # without a listener, how long to let TTS reload before replacing objects (a guess)
# MoonSharp's position of an error: "chunk_0:(3120,5-20): ..." or "Global:(446,9-447,60): ..."
_POSITION = re.compile(r"(?P<chunk>[\w ]+):\((?P<line>\d+),(?P<col>\d+)[^)]*\):\s*(?P<message>.*)", re.S)


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


_PLACE = re.compile(r"(?:chunk_\d+|Global):\((?P<line>\d+),(?P<col>\d+)[^)]*\)")  # a place in a traceback's frame


def map_error(text: str, lines: list[dict]) -> str:
    """`text` of a Global script error at the project's file and line when the map places it in a module; the
    places of the traceback's frames below it (MoonSharp's `chunk_0:(3120,5-20)`) too."""
    head, newline, rest = text.partition("\n")
    match = _POSITION.match(head)
    found = source_line(lines, int(match["line"])) if match is not None else None
    if found is not None:
        head = f"{found[0]}:{found[1]}:{match['col']}: {match['message']}"

    def place(frame: re.Match) -> str:
        at = source_line(lines, int(frame["line"]))
        return frame.group(0) if at is None else f"{at[0]}:{at[1]}:{frame['col']}"
    return head + newline + _PLACE.sub(place, rest)


class Talkback:
    """Turns TTS's messages into lines for the terminal, errors in the Global script through the line map
    of the deck pushed last. A game TTS loads of its own accord (the player loaded a save, or TTS answered
    "get Lua scripts") goes to `on_game` with the Global script's state, when set; the reload that follows
    deckpress's own save & play sets `loaded` instead."""

    def __init__(self, echo: Callable[[str], None]):
        self.echo = echo
        self.lines: list[dict] = []
        self.listening = False  # whether a Listener passes TTS's messages here
        self.loaded = threading.Event()  # set when TTS says the game reloaded after our save & play
        self.expecting = 0.0  # until when (time.monotonic) a game loaded is the reload of our save & play
        self.on_game: Callable[[dict], None] | None = None

    def expect_reload(self) -> None:
        self.loaded.clear()
        self.expecting = time.monotonic() + LOAD_WAIT

    def __call__(self, message: dict) -> None:
        kind = message["messageID"]
        if kind == editor.PRINT:
            self.echo(f"tts: {message.get('message', '')}")
        elif kind == editor.ERROR:
            error = str(message.get("error", ""))
            if message.get("guid") == editor.GLOBAL:
                error = map_error(error, self.lines)
            self.echo(f"tts: {message.get('errorMessagePrefix', '')}{error}")
        elif kind == editor.RETURN:
            self.echo(f"tts: {message.get('returnValue')}")
        elif kind == editor.GAME_LOADED:
            self.echo("tts: game loaded")
            if time.monotonic() < self.expecting:
                self.expecting = 0.0
                self.loaded.set()
            elif self.on_game is not None:
                self.on_game(global_state(message))


def global_state(message: dict) -> dict:
    """The Global script's entry `{script, ui}` of a game-loaded message ({} when it has none)."""
    states = message.get("scriptStates")
    for state in states if isinstance(states, list) else []:
        if isinstance(state, dict) and state.get("guid") == editor.GLOBAL:
            return state
    return {}


def _first_line(script) -> str:
    return str(script).split("\n", 1)[0].rstrip("\r")


class Pusher:
    """Pushes built decks from `out` to TTS on `port`; `echo` gets one line per thing done or wrong."""

    def __init__(self, out: Path, echo: Callable[[str], None], talkback: Talkback | None = None,
                 port: int = editor.TTS_PORT):
        self.out, self.echo, self.talkback, self.port = out, echo, talkback, port
        self.unreachable = False  # whether the last push found nothing listening on TTS's port
        self.foreign: str | None = None  # why not to push: TTS said it loaded another game

    def push(self, deck: str, table: dict | None = None, quiet: bool = False) -> bool:
        """Send what changed in `deck`'s build since the last push; False (after one line) when TTS is not
        there (then `unreachable` is set), and then nothing is recorded, so the next push sends it again.
        `table` is the Global script state of a game TTS has just loaded: when its Global script is not one
        deckpress wrote for this deck, nothing is pushed, now or later, until TTS loads one that is; when it
        is not the one pushed last, TTS holds an older build, and every object is replaced. `quiet`: no line
        when TTS is still absent (a retry)."""
        self.unreachable = False
        built = self.out / deck / "tts"
        if not (built / f"{deck}.json").is_file():
            self.echo(f"{deck}: not pushed: it is not built yet")
            return False
        save = json.loads((built / f"{deck}.json").read_text(encoding="utf-8"))
        record_path = self.out / RECORDS / f"{deck}.json"
        try:
            before = json.loads(record_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            before = {}
        now = {"global": _digest([save["LuaScript"], save["XmlUI"]]),
               "objects": {o["GUID"]: _digest(o) for o in save["ObjectStates"]}}
        if table is not None:
            if _first_line(table.get("script", "")) != _first_line(save["LuaScript"]):
                self.foreign = (f"the game TTS has loaded is not {deck}'s (its Global script is not one deckpress "
                                f"wrote for it); load {deck}'s save in TTS")
                self.echo(f"{deck}: not pushed: {self.foreign}")
                return False
            self.foreign = None
            loaded = _digest([table.get("script", ""), table.get("ui", "")])
            if before.get("global") != loaded:
                before = {"global": loaded}
            self.echo(f"{deck}: TTS loaded the game; pushing the current build")
        elif self.foreign is not None:
            self.echo(f"{deck}: not pushed: {self.foreign}")
            return False
        if self.talkback is not None and (built / LINE_MAP).is_file():
            self.talkback.lines = json.loads((built / LINE_MAP).read_text(encoding="utf-8"))
        pushed = before.get("objects", {})
        changed = [o for o in save["ObjectStates"] if pushed.get(o["GUID"]) != now["objects"][o["GUID"]]]
        try:
            if before.get("global") != now["global"]:
                self._save_and_play(deck, save, bool(changed))
            for state in changed:
                editor.execute_lua(editor.replace_object_lua(state["GUID"], state), port=self.port)
        except editor.NotRunning as err:
            if not quiet:
                self.echo(f"{deck}: not pushed: {err}")
            self.unreachable = True
            return False
        if changed:
            self.echo(f"{deck}: replaced {len(changed)} object{'s' if len(changed) != 1 else ''} in place")
        elif before.get("global") == now["global"]:
            self.echo(f"{deck}: nothing changed since the last push")
        record_path.parent.mkdir(parents=True, exist_ok=True)
        record_path.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
        return True

    def _save_and_play(self, deck: str, save: dict, then_objects: bool) -> None:
        """Send the Global script and UI; when objects follow, wait until TTS has reloaded the game (a
        message sent while it reloads would be lost)."""
        waiting = self.talkback is not None and self.talkback.listening
        if waiting:
            self.talkback.expect_reload()
        try:
            editor.save_and_play(save["LuaScript"], save["XmlUI"], port=self.port)
        except editor.NotRunning:
            if waiting:
                self.talkback.expecting = 0.0
            raise
        self.echo(f"{deck}: pushed the Global script and UI (TTS reloads the game)")
        if not then_objects:
            return
        if not waiting:
            time.sleep(RELOAD_PAUSE)
        elif not self.talkback.loaded.wait(LOAD_WAIT):
            self.echo(f"{deck}: TTS did not say the game reloaded within {LOAD_WAIT:g} s; replacing objects anyway")
