"""The Tabletop Simulator mod, build/<deck>/tts/: the builder (TTSBuilder), its steps (steps.py) and their parts,
card sheets (sheets.py), the save and its objects (save.py), the deck data its scripts read (data.py), the
Lua/XmlUI bundle (lua.py, xmlui.py), and the commands' links to TTS: copying into its data folder (install.py),
its External Editor API (editor.py, push.py) and the live session of `watch --tts` (live.py). The Lua the bundle
draws from is the package data's tts/ (deckpress/data/tts/), which a project's own tts/ overrides file by file."""

from __future__ import annotations

from .. import Builder


class TTSBuilder(Builder):
    """The Tabletop Simulator mod: build/<deck>/tts/."""

    name = "tts"

    @classmethod
    def load(cls):
        from . import steps
        steps.load()

    def check(self, deck, faces=None):
        from . import steps
        steps.check(deck)

    def tiles(self, deck, faces):
        from . import steps
        return steps.tiles(deck, faces)

    def prepare(self, ctx):
        from . import steps
        steps.prepare(ctx)

    def build(self, ctx):
        from . import steps
        steps.build(ctx)
