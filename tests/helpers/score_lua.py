"""The SCORE! rules engine, tts/score/engine.lua, called from Python through lupa (Lua 5.2) with the data
the table has: DATA of the shipped deck (its cards, setup.deal, setup.options and modes).

    E = ScoreLua()
    E.card("fire-2")                                   # the card as the referee hands it to the engine
    E.resolve_action_turn({"scores": [0, 0]}, plays, {"order": "dice"})   # a mode = changes of setup.options

Python None is Lua nil (an absent key) in tables and `false` in lists (an empty roster slot); results come
back as Python values whose missing keys read as None. Lua errors are raised as ValueError.
"""

from __future__ import annotations

import lupa.lua52 as lua52

from helpers.deck_data import _data, deck_data
from helpers.fake_tts import to_py as from_lua
from helpers.lua_modules import modules, runtime


# Cards a designer adds in the YAML alone (tests/test_score_table.py builds a deck with them): the engine
# takes them as it takes the shipped ones.
EXTRA_CARDS = {
    "steal-2": {"id": "steal-2", "name": "Steal! 2", "count": 1, "priority": 6.5, "target": True,
                "effect": [{"take": 2, "from": "target", "to": "you"}]},
    "swap": {"id": "swap", "name": "Swap!", "count": 1, "priority": 5.5, "target": True,
             "effect": [{"who": "you", "set": {"score_of": "target"}}, {"who": "target", "set": {"score_of": "you"}}]},
}


class Result(dict):
    """A result table: a key the engine left out (nil) reads as None."""

    def __missing__(self, key):
        return None


def _py(value):
    value = from_lua(value)
    return _wrap(value)


def _wrap(value):
    if isinstance(value, dict):
        return Result({k: _wrap(v) for k, v in value.items()})
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class ScoreLua:
    def __init__(self):
        self.lua = runtime()
        self.use = modules("score", self.lua)
        self.engine = self.use("score.engine")
        self.data = _data("score")
        self.lua_data = deck_data("score", self.lua)
        self.base = self.data["setup"]["options"]
        self.deal = self.data["setup"]["deal"]
        self.modes = {m["id"]: m["options"] for m in self.data["modes"]}
        self.cards = {}
        for component in self.data["components"]:
            if component["type"] == "cards" and component["role"] == "play":
                for c in component["cards"]:
                    f = c["fields"]
                    self.cards[c["id"]] = {"id": c["id"], "name": c["name"], "count": c["count"],
                                           "priority": f["priority"], "target": f["target"], "effect": f["effect"]}

    # --- conversion -------------------------------------------------------------------------------------

    def lua_value(self, value):
        if isinstance(value, dict):
            return self.lua.table_from({k: self.lua_value(v) for k, v in value.items() if v is not None})
        if isinstance(value, (list, tuple)):
            return self.lua.table_from([False if v is None else self.lua_value(v) for v in value])
        return value

    def call(self, name, *args):
        fn = self.engine[name]
        try:
            out = fn(*[self.lua_value(a) if a is not None else None for a in args])
        except lua52.LuaError as err:
            raise ValueError(str(err)) from None
        return _py(out)

    def card(self, card_id: str) -> dict:
        return dict(self.cards[card_id] if card_id in self.cards else EXTRA_CARDS[card_id])

    def options(self, mode=None) -> dict:
        """The full options of a mode: a mode id, or a dict of changes of setup.options."""
        changes = self.modes[mode] if isinstance(mode, str) else (mode or {})
        return self.call("mode_options", self.base, {k: (False if v is None else v) for k, v in changes.items()})

    # --- the engine's functions, modes given as changes of setup.options ---------------------------------

    def mode_options(self, mode=None):
        return self.options(mode)

    def validate_card(self, card):
        return self.call("validate_card", card)

    def build_deck(self, cards, mode=None):
        return self.call("build_deck", cards, self.options(mode))

    def hand_size(self, mode, n):
        return self.call("hand_size", self.options(mode), n, {int(k): v for k, v in self.deal.items()})

    def validate_setup(self, mode, n, teams=None):
        return self.call("validate_setup", self.options(mode), n, teams)

    def shuffle(self, items, seed):
        return self.call("shuffle", items, seed)

    def resolve_action_turn(self, state, plays, mode=None):
        plays = [None if p is None else p for p in plays]
        return self.call("resolve_action_turn", state, plays, self.options(mode))

    def resolve_round(self, state, rosters, mode=None, turn_inputs=None):
        return self.call("resolve_round", state, rosters, self.options(mode), turn_inputs)

    def entity_target(self, mode, entity, teams=None):
        return self.call("entity_target", self.options(mode), entity, teams)

    def game_status(self, totals, rounds, mode=None, teams=None, contenders=None):
        return self.call("game_status", totals, rounds, self.options(mode), teams, contenders)

    def solitaire_flip(self, state, card, mode=None):
        return self.call("solitaire_flip", state, card, self.options(mode))

    def solitaire_reshuffle(self, face_down, discarded, flipped, seed):
        return self.call("solitaire_reshuffle", face_down, discarded, flipped, seed)

    def score_against_turn(self, score, own, column):
        return self.call("score_against_turn", score, own, column)

    def score_against_round(self, total, roster, columns, mode=None):
        return self.call("score_against_round", total, roster, columns, self.options(mode))
