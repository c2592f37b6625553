"""TTS's External Editor API: deckpress's client and listener against a fake TTS on loopback (ports the
system picks, never fixed ones)."""

from __future__ import annotations

import queue
import socket

import lupa.lua52 as lupa
import pytest

from deckpress.builders.tts import editor
from helpers.fake_tts_editor import FakeTTS


class Heard:
    """What the listener passed on: messages and problem lines, in order."""

    def __init__(self):
        self.items: queue.Queue = queue.Queue()

    def message(self, message: dict) -> None:
        self.items.put(("message", message))

    def problem(self, line: str) -> None:
        self.items.put(("problem", line))

    def next(self) -> tuple[str, object]:
        return self.items.get(timeout=5)


@pytest.fixture
def heard():
    return Heard()


@pytest.fixture
def listener(heard):
    server = editor.Listener(heard.message, heard.problem, port=0)
    yield server
    server.stop()


@pytest.fixture
def tts(listener):
    fake = FakeTTS(listener.port, objects=[{"GUID": "abc123", "Name": "DeckCustom", "Nickname": "old"}])
    yield fake
    fake.stop()


def raw(port: int, data: bytes) -> None:
    with socket.create_connection((editor.HOST, port), timeout=5) as connection:
        connection.sendall(data)


def test_listener_is_on_localhost_only(listener):
    assert listener.server.getsockname()[0] == "127.0.0.1"


def test_save_and_play_reaches_tts_and_the_game_loaded_answer_comes_back(tts, heard):
    editor.save_and_play("print('hi')", "<Panel/>", port=tts.port)
    [message] = tts.wait_for(1)
    assert message == {"messageID": 1, "scriptStates": [{"guid": "-1", "script": "print('hi')", "ui": "<Panel/>"}]}
    kind, answer = heard.next()
    assert kind == "message" and answer["messageID"] == editor.GAME_LOADED
    assert answer["scriptStates"][0]["script"] == "print('hi')"


def test_prints_errors_and_custom_messages_arrive(tts, heard):
    tts.print("Hit player! White")
    tts.error("chunk_0:(36,4-8): unexpected symbol near 'deck'")
    editor.custom_message({"foo": "Hello"}, port=tts.port)
    assert heard.next() == ("message", {"messageID": 2, "message": "Hit player! White"})
    kind, error = heard.next()
    assert error["messageID"] == 3 and error["error"].startswith("chunk_0:(36,4-8)")
    assert tts.wait_for(1) == [{"messageID": 2, "customMessage": {"foo": "Hello"}}]


def test_an_object_is_replaced_where_it_lies_even_when_its_text_holds_long_brackets(tts, heard):
    new = {"GUID": "abc123", "Name": "DeckCustom", "Nickname": "new ]] ]=] ]==]",
           "Description": "]]..os.exit()--[[ \"quoted\" \\ back\nline"}
    editor.execute_lua(editor.replace_object_lua("abc123", new), port=tts.port)
    assert heard.next() == ("message", {"messageID": 5, "returnValue": "abc123: replaced"})
    placed = tts.objects["abc123"]
    assert placed["Nickname"] == new["Nickname"] and placed["Description"] == new["Description"]
    assert (placed["position"], placed["rotation"]) == ([1.0, 2.0, 3.0], [0.0, 90.0, 180.0])


def test_a_missing_object_is_reported_not_spawned(tts, heard):
    editor.execute_lua(editor.replace_object_lua("ffffff", {"GUID": "ffffff"}), port=tts.port)
    assert heard.next() == ("message", {"messageID": 5, "returnValue": "ffffff: not on the table; not replaced"})
    assert set(tts.objects) == {"abc123"}


@pytest.mark.parametrize("text", ["", "]", "a]", "]]", "]=", "x]=]y]==", "\nfirst line", "[[", "]=]]"])
def test_long_bracket_gives_back_the_text_exactly(text):
    assert lupa.LuaRuntime().execute("return " + editor.long_bracket(text)) == text


def test_bad_messages_are_one_line_each_and_the_listener_goes_on(listener, heard):
    raw(listener.port, b"this is not json")
    raw(listener.port, b'{"messageID": 2, "message": "cut sh')
    raw(listener.port, b"[1, 2]")
    small = editor.Listener(heard.message, heard.problem, port=0, max_bytes=1000)
    try:
        raw(small.port, b'{"messageID": 2, "message": "' + b"x" * 5000 + b'"}')
        problems = [heard.next() for _ in range(4)]
    finally:
        small.stop()
    assert all(kind == "problem" and "\n" not in line for kind, line in problems)
    lines = sorted(line for _, line in problems)
    assert any("not JSON" in line for line in lines)
    assert any("closed mid-message" in line for line in lines)
    assert any("without a messageID" in line for line in lines)
    assert any("more than 1000 bytes" in line for line in lines)
    raw(listener.port, b'{"messageID": 2, "message": "still here"}')
    assert heard.next() == ("message", {"messageID": 2, "message": "still here"})


def test_a_taken_port_is_one_line(listener, heard):
    with pytest.raises(editor.PortTaken) as caught:
        editor.Listener(heard.message, heard.problem, port=listener.port)
    assert "\n" not in str(caught.value) and str(listener.port) in str(caught.value)


def test_tts_not_running_is_one_line():
    with socket.create_server((editor.HOST, 0)) as closed:
        port = closed.getsockname()[1]
    with pytest.raises(editor.NotRunning) as caught:
        editor.save_and_play("", "", port=port)
    assert "\n" not in str(caught.value) and "not listening" in str(caught.value)
