"""A fake Tabletop Simulator that speaks the External Editor API as documented (Berserk-Games/
Tabletop-Simulator-API, docs/externaleditorapi.md): it listens on a port of its own for the editor's
messages, one JSON object per connection, and sends its own to the editor's port the same way.

Save & play replaces the Global script and UI and answers "game loaded"; execute Lua runs the script
under Lua 5.2 against a table of objects (getObjectFromGUID, spawnObjectJSON, destruct, print) and
answers with the return value, or with an error message as TTS words it.
"""

from __future__ import annotations

import json
import socket
import threading

import lupa.lua52 as lupa

from deckpress.tts import editor


class FakeTTS:
    def __init__(self, editor_port: int, objects: list[dict] | None = None, port: int = 0):
        self.editor_port = editor_port
        self.received: list[dict] = []
        self.script, self.ui = "", ""
        self.objects = {o["GUID"]: dict(o, position=[1.0, 2.0, 3.0], rotation=[0.0, 90.0, 180.0])
                        for o in objects or []}
        self.server = socket.create_server((editor.HOST, port))
        self.port = self.server.getsockname()[1]
        self.done = threading.Condition()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    # --- what TTS sends ----------------------------------------------------------------------------

    def tell(self, message: dict) -> None:
        with socket.create_connection((editor.HOST, self.editor_port), timeout=5) as connection:
            connection.sendall(json.dumps(message).encode("utf-8"))

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
        if message["messageID"] == editor.SAVE_AND_PLAY:
            [state] = message["scriptStates"]
            assert state["guid"] == "-1"
            self.script, self.ui = state["script"], state["ui"]
            self.tell({"messageID": editor.GAME_LOADED,
                       "scriptStates": [{"name": "Global", "guid": "-1", "script": self.script, "ui": self.ui}]})
        elif message["messageID"] == editor.EXECUTE_LUA:
            self._execute(message["script"])

    def _execute(self, script: str) -> None:
        lua = lupa.LuaRuntime(unpack_returned_tuples=True)
        g = lua.globals()
        g.getObjectFromGUID = lambda guid: self._object(lua, guid)
        g.spawnObjectJSON = lambda spec: self._spawn(json.loads(spec["json"]), spec["position"], spec["rotation"])
        g.print = lambda text: self.print(str(text))
        try:
            value = lua.execute(script)
        except lupa.LuaError as err:
            self.error(f"chunk_0:(1,1-2): {err}", prefix="Error in Global Script: ")
            return
        self.tell({"messageID": editor.RETURN, "returnValue": value})

    def _object(self, lua, guid: str):
        if guid not in self.objects:
            return None
        obj = self.objects[guid]
        return lua.table_from({"getPosition": lambda: obj["position"], "getRotation": lambda: obj["rotation"],
                               "destruct": lambda: self.objects.pop(guid)})

    def _spawn(self, state: dict, position, rotation) -> None:
        assert state["GUID"] not in self.objects, "spawned before the old object was destroyed"
        self.objects[state["GUID"]] = dict(state, position=list(position), rotation=list(rotation))

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict]:
        with self.done:
            assert self.done.wait_for(lambda: len(self.received) >= count, timeout), self.received
            return list(self.received)

    def stop(self) -> None:
        self.server.shutdown(socket.SHUT_RDWR)  # wakes accept(); close() alone does not on Linux
        self.server.close()
        self.thread.join(timeout=5)
