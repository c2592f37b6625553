"""The tables the table tests play on: a game's full save laid out as TTS loads it, or the same game played
from its box (the saved object `deckpress build` writes beside the save). `table_of` (conftest.py) gives a
test both in turn, so every test of a game's table holds for the box as well."""

from __future__ import annotations

from collections.abc import Callable

from deckpress.builders.tts import save as tts_save
from helpers.fake_tts import FakeTTS

BOX_END = "\n--box--\n"  # ends the box's own part of its saved state (lib/box.lua)

Lay = Callable[..., object]  # lay(seated, state=None): a table with these seats, the game's saved state given


def empty_table(full: dict, seated: list[str]) -> FakeTTS:
    """A table with nothing on it but TTS's hand zones, and no Global script."""
    hands = [o for o in full["ObjectStates"] if o["Name"] == "HandTrigger"]
    return FakeTTS({"ObjectStates": hands, "LuaScript": ""}, seated=seated)


class InBox:
    """The FakeTTS of a game played in its box: a table with TTS's hand zones and no Global script, the box
    put where the full save's layout lies (some table tests compute places from the table's centre; the
    layout moved with the box is tested in test_tts_box.py). A table test runs on it unchanged: its clicks
    reach the box's own script and UI, and the box's objects carry their scope tag and new GUIDs. A saved
    state (LuaScriptState) goes to a box as it comes out of the file, its components inside: the game's part
    of it (the box's own part, where the game lay, is tested with the box's own reload)."""

    def __init__(self, full: dict, box_file: dict, seated: list[str], state: str = "", shift: float = 0.0):
        self.table = empty_table(full, seated)
        game = state.split(BOX_END, 1)[-1]
        box_file = dict(box_file, ObjectStates=[dict(box_file["ObjectStates"][0], LuaScriptState=game)])
        self.box = self.table.load_box(box_file, (tts_save.BOX_SPOT[0] + shift, 1.5, tts_save.BOX_SPOT[1]))
        self.lua, self.globals = self.table.lua, self.box.globals

    def click(self, *args, **kwargs):
        return self.box.click(*args, **kwargs)

    def call(self, *args, **kwargs):
        return self.box.call(*args, **kwargs)

    def ui_value(self, element: str):
        return self.box.ui_value(element)

    def ui_attribute(self, element: str, name: str):
        return self.box.ui_attribute(element, name)

    def __getattr__(self, name: str):  # the table's own: objects, hands, broadcasts, frames, reload
        return getattr(self.table, name)


def laid(full: dict) -> Lay:
    """lay(seated, state=None): the full save on a table with these seats, its LuaScriptState `state` if given."""
    def lay(seated: list[str], state: str | None = None) -> FakeTTS:
        return FakeTTS(full if state is None else dict(full, LuaScriptState=state), seated=seated)
    return lay


def boxed(full: dict, box_file: dict) -> Lay:
    """lay(seated, state=None): the game's box on an empty table with these seats, the game's saved state
    `state` given to the box as the full save's would be."""
    def lay(seated: list[str], state: str | None = None) -> InBox:
        return InBox(full, box_file, seated, full.get("LuaScriptState", "") if state is None else state)
    return lay
