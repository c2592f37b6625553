"""A fake Tabletop Simulator that speaks the External Editor API as documented (Berserk-Games/
Tabletop-Simulator-API, docs/externaleditorapi.md): it listens on a port of its own for the editor's
messages, one JSON object per connection, and sends its own to the editor's port the same way.

TTS runs with a game loaded (`objects`, or a whole `save`) or without one (neither: a message then is
lost, kept in `lost`); `load` loads a save as the player does, and announces it to the editor's port with
"game loaded", as TTS does. Get Lua scripts is answered with "game loaded" and the Global script. Save &
play replaces the Global script and UI, reloads for `reload_seconds` (a message that arrives meanwhile is
lost too) and then answers "game loaded". Execute Lua runs the script under Lua
5.2 against a table of objects (getObjectFromGUID, spawnObjectJSON, destruct, Wait.frames, print) as one
frame: destruct takes effect at the frame's end, Wait.frames callbacks run on later frames, and an object
spawned with a GUID still in use gets a new one (as TTS reassigns it). It answers with the return value,
or with an error message as TTS words it.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import lupa.lua52 as lupa

from deckpress.builders.tts import editor


class FakeTTS:
    def __init__(self, editor_port: int, objects: list[dict] | None = None, port: int = 0,
                 reload_seconds: float = 0.3, save: dict | None = None):
        self.editor_port, self.reload_seconds = editor_port, reload_seconds
        self.received: list[dict] = []
        self.lost: list[dict] = []
        self.unheard: list[dict] = []
        self.reloading_until = 0.0
        self.reloaded: threading.Timer | None = None
        self.script, self.ui = "", ""
        self.game = objects is not None or save is not None  # whether a game is loaded
        self.objects = {o["GUID"]: dict(o, position=[1.0, 2.0, 3.0], rotation=[0.0, 90.0, 180.0])
                        for o in objects or []}
        if save is not None:
            self._load(save)
        self.server = socket.create_server((editor.HOST, port))
        self.port = self.server.getsockname()[1]
        self.done = threading.Condition()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    # --- what TTS sends ----------------------------------------------------------------------------

    def tell(self, message: dict) -> None:
        """Send `message` to the editor; with no editor listening it is kept in `unheard`."""
        try:
            with socket.create_connection((editor.HOST, self.editor_port), timeout=5) as connection:
                connection.sendall(json.dumps(message).encode("utf-8"))
        except ConnectionRefusedError:
            self.unheard.append(message)

    def load(self, save: dict) -> None:
        """The player loads `save` (a whole save's JSON); TTS announces the game to the editor."""
        self._load(save)
        self.tell(self._game_loaded())

    def _load(self, save: dict) -> None:
        self.game = True
        self.script, self.ui = save["LuaScript"], save["XmlUI"]
        self.objects = {o["GUID"]: dict(o, position=[1.0, 2.0, 3.0], rotation=[0.0, 90.0, 180.0])
                        for o in save["ObjectStates"]}

    def _game_loaded(self) -> dict:
        return {"messageID": editor.GAME_LOADED,
                "scriptStates": [{"name": "Global", "guid": "-1", "script": self.script, "ui": self.ui}]}

    def print(self, text: str) -> None:
        self.tell({"messageID": editor.PRINT, "message": text})

    def error(self, text: str, guid: str = "-1", prefix: str = "Error in Global Script: ") -> None:
        self.tell({"messageID": editor.ERROR, "error": text, "guid": guid, "errorMessagePrefix": prefix})

    # --- what TTS receives -------------------------------------------------------------------------

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            with connection:
                data = b""
                while chunk := connection.recv(65536):
                    data += chunk
            message = json.loads(data)  # exactly one JSON object per connection, or this raises
            self._handle(message)
            with self.done:
                self.received.append(message)
                self.done.notify_all()

    def _handle(self, message: dict) -> None:
        if not self.game or time.monotonic() < self.reloading_until:
            self.lost.append(message)
        elif message["messageID"] == editor.GET_SCRIPTS:
            self.tell(self._game_loaded())
        elif message["messageID"] == editor.SAVE_AND_PLAY:
            [state] = message["scriptStates"]
            assert state["guid"] == "-1"
            self.script, self.ui = state["script"], state["ui"]
            self.reloading_until = time.monotonic() + self.reload_seconds
            self.reloaded = threading.Timer(self.reload_seconds, lambda: self.tell(self._game_loaded()))
            self.reloaded.start()
        elif message["messageID"] == editor.EXECUTE_LUA:
            self._execute(message["script"])

    def _execute(self, script: str) -> None:
        lua = lupa.LuaRuntime(unpack_returned_tuples=True)
        g = lua.globals()
        destroyed: list[str] = []
        later: list = []
        g.getObjectFromGUID = lambda guid: self._object(lua, guid, destroyed)
        g.spawnObjectJSON = lambda spec: self._spawn(json.loads(spec["json"]), spec["position"], spec["rotation"])
        g.Wait = lua.table_from({"frames": lambda fn, frames=1: later.append(fn)})
        g.print = lambda text: self.print(str(text))
        try:
            value = lua.execute(script)
            for guid in destroyed:  # the end of the frame
                self.objects.pop(guid, None)
            for fn in later:
                fn()
        except lupa.LuaError as err:
            self.error(f"chunk_0:(1,1-2): {err}", prefix="Error in Global Script: ")
            return
        self.tell({"messageID": editor.RETURN, "returnValue": value})

    def _object(self, lua, guid: str, destroyed: list[str]):
        if guid not in self.objects:
            return None
        obj = self.objects[guid]
        return lua.table_from({"getPosition": lambda: obj["position"], "getRotation": lambda: obj["rotation"],
                               "destruct": lambda: destroyed.append(guid)})

    def _spawn(self, state: dict, position, rotation) -> None:
        guid = state["GUID"]
        while guid in self.objects:  # TTS gives an object whose GUID is in use a new one
            guid = f"{(int(guid, 16) + 1) % 0x1000000:06x}"
        self.objects[guid] = dict(state, GUID=guid, position=list(position), rotation=list(rotation))

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict]:
        with self.done:
            assert self.done.wait_for(lambda: len(self.received) >= count, timeout), self.received
            return list(self.received)

    def stop(self) -> None:
        if self.reloaded is not None:
            self.reloaded.cancel()
        self.server.shutdown(socket.SHUT_RDWR)  # wakes accept(); close() alone does not on Linux
        self.server.close()
        self.thread.join(timeout=5)
