"""The Tabletop Simulator mod, build/<deck>/tts/: the builder (TTSBuilder), its steps (steps.py) and their parts,
card sheets (sheets.py), the save and its objects (save.py), the deck data its scripts read (data.py), the
Lua/XmlUI bundle (lua.py, xmlui.py), and the commands' links to TTS: copying into its data folder (install.py),
its External Editor API (editor.py, push.py) and the live session of `watch --tts` (live.py). The Lua the bundle
draws from is the package data's tts/ (deckpress/data/tts/), which a project's own tts/ overrides file by file."""

from __future__ import annotations

from ...options import Choice, Int, ListOf, Record, Str
from .. import Builder

# Tabletop Simulator player colours that can sit at a table, in TTS order.
TTS_COLORS = ["White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple", "Pink"]


class TTSOptions(Record):
    """Tabletop Simulator export settings."""

    image_format = Choice("Format of the deck sheets, backs and token images.", ["jpeg", "png"],
                          default="jpeg")
    quality = Int("JPEG quality of the deck sheets.", default=90, min=1, max=100)
    description_field = Str("Card field shown as the card's TTS Description (its tooltip).", default="text")
    seats = ListOf(Choice("A player colour.", TTS_COLORS), "Player colours given a hand zone, clockwise "
                   "from the bottom; default: as many as the game's most players (at most 10).",
                   default=None)

    def validate(self, ctx):
        if self.seats is not None and len(set(self.seats)) != len(self.seats):
            ctx.error(self.source.at("seats"), "a colour is listed twice in seats; list each colour once")



class TTSBuilder(Builder):
    """The Tabletop Simulator mod: build/<deck>/tts/."""

    name = "tts"
    section, Section = "tts", TTSOptions

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
