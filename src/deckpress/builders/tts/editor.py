"""TTS's External Editor API: how deckpress talks to a running Tabletop Simulator.

Per Berserk-Games/Tabletop-Simulator-API, docs/externaleditorapi.md: JSON over TCP on localhost, one
message per connection (connect, write one JSON object, close; no framing). TTS listens on 39999, the
editor on 39998. `send` and its helpers are the editor's side of the first; `Listener` is the second.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable

HOST = "127.0.0.1"  # only ever localhost: the API has no authentication
TTS_PORT = 39999
EDITOR_PORT = 39998
MAX_MESSAGE = 16 * 1024 * 1024  # a game-loaded message holds every script of the game; more is not TTS
TIMEOUT = 5.0  # seconds a connection may take to connect, send or deliver its message

# Editor -> TTS
GET_SCRIPTS, SAVE_AND_PLAY, CUSTOM, EXECUTE_LUA = 0, 1, 2, 3
# TTS -> editor
NEW_OBJECT, GAME_LOADED, PRINT, ERROR, CUSTOM_MESSAGE, RETURN, GAME_SAVED, OBJECT_CREATED = range(8)
GLOBAL = "-1"  # the guid of the Global script


class NotRunning(Exception):
    """Nothing answers on TTS's port: TTS is not running (or has no game loaded)."""


def send(message: dict, port: int = TTS_PORT, timeout: float = TIMEOUT) -> None:
    """Send one message to TTS: connect, write the JSON, close."""
    data = json.dumps(message, ensure_ascii=False).encode("utf-8")
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as connection:
            connection.sendall(data)
    except (ConnectionRefusedError, TimeoutError, socket.timeout) as err:
        raise NotRunning(f"Tabletop Simulator is not listening on {HOST}:{port} ({err.strerror or err}); start it "
                         "and load the game") from None
    except OSError as err:
        raise NotRunning(f"cannot reach Tabletop Simulator on {HOST}:{port}: {err.strerror or err}") from None


def get_scripts(port: int = TTS_PORT) -> None:
    """Ask for the loaded game's scripts; TTS answers on the editor's port with a GAME_LOADED message."""
    send({"messageID": GET_SCRIPTS}, port)


def save_and_play(script: str, ui: str, port: int = TTS_PORT) -> None:
    """Replace the Global script and XmlUI; TTS then reloads the whole game."""
    send({"messageID": SAVE_AND_PLAY, "scriptStates": [{"guid": GLOBAL, "script": script, "ui": ui}]}, port)


def execute_lua(script: str, guid: str = GLOBAL, port: int = TTS_PORT) -> None:
    """Run `script` in the Global script (or an object's, which must have a script); what it returns comes
    back as a RETURN message, unmatched to the request: send one at a time."""
    send({"messageID": EXECUTE_LUA, "guid": guid, "script": script}, port)


def custom_message(table: dict, port: int = TTS_PORT) -> None:
    """Call onExternalMessage(table) in the loaded game."""
    send({"messageID": CUSTOM, "customMessage": table}, port)


def long_bracket(text: str) -> str:
    """`text` as a Lua long string `[==[...]==]` of the lowest level whose closing bracket first occurs at
    its end, so no content can close it early. A newline follows the opening bracket: Lua drops the first
    one, so a text that starts with a newline keeps it."""
    level = 0
    while True:
        close = "]" + "=" * level + "]"
        if (text + close).find(close) == len(text):
            return "[" + "=" * level + "[\n" + text + close
        level += 1


def replace_object_lua(guid: str, state: dict) -> str:
    """Lua for execute Lua that replaces the object `guid` by `state` (an object's JSON), where the old one
    lies and turned as it is; it returns what it did, as a line. The new object is spawned a frame after
    the old one is destroyed (TTS destroys at the end of a frame), so its GUID is free again."""
    data = long_bracket(json.dumps(state, ensure_ascii=False))
    name = json.dumps(guid)
    return f"""local old = getObjectFromGUID({name})
if old == nil then return {name} .. ": not on the table; not replaced" end
local position, rotation = old.getPosition(), old.getRotation()
old.destruct()
Wait.frames(function()
  spawnObjectJSON({{json = {data}, position = position, rotation = rotation}})
end, 1)
return {name} .. ": replaced"
"""


class PortTaken(Exception):
    """Another program (another editor) holds the editor's port."""


class Listener:
    """The editor's server: receives TTS's messages on HOST:`port` in a thread of its own and hands each
    to `on_message(dict)`; a connection that is not one JSON object, too big, or closed mid-message is one
    line to `on_problem(str)`, and the listener goes on."""

    def __init__(self, on_message: Callable[[dict], None], on_problem: Callable[[str], None],
                 port: int = EDITOR_PORT, max_bytes: int = MAX_MESSAGE):
        self.on_message, self.on_problem, self.max_bytes = on_message, on_problem, max_bytes
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            server.bind((HOST, port))
            server.listen(8)
        except OSError as err:
            server.close()
            raise PortTaken(f"{HOST}:{port} is taken ({err.strerror or err}): another editor (Atom, VS Code's TTS "
                            "plugin) is listening for TTS; close it to see TTS's prints and errors here") from None
        self.server = server
        self.port = server.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, name="tts-listener", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:  # closed by stop()
                return
            with connection:
                self._receive(connection)

    def _receive(self, connection: socket.socket) -> None:
        connection.settimeout(TIMEOUT)
        data = bytearray()
        try:
            while chunk := connection.recv(65536):
                data += chunk
                if len(data) > self.max_bytes:
                    self.on_problem(f"tts: a message of more than {self.max_bytes} bytes; ignored it")
                    return
        except (TimeoutError, socket.timeout):
            self.on_problem(f"tts: a message did not end within {TIMEOUT:g} s; ignored it")
            return
        except OSError as err:
            self.on_problem(f"tts: the connection broke mid-message ({err.strerror or err}); ignored it")
            return
        try:
            message = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError:
            self.on_problem("tts: a message that is not UTF-8 text; ignored it")
            return
        except json.JSONDecodeError as err:
            ended = err.pos >= len(data.decode("utf-8").rstrip()) or err.msg.startswith("Unterminated")
            self.on_problem("tts: the connection closed mid-message; ignored it" if ended and data.strip() else
                            f"tts: a message that is not JSON ({err.msg} at character {err.pos}); ignored it")
            return
        if not isinstance(message, dict) or not isinstance(message.get("messageID"), int):
            self.on_problem("tts: a message without a messageID; ignored it")
            return
        self.on_message(message)

    def stop(self) -> None:
        try:
            self.server.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.server.close()
        self.thread.join(timeout=TIMEOUT)
