"""Typed game data of the scripted games: the records a deck's `script` names.

A scripted game's effects, mode options and setup options are free-form to the generic deck format
(`Mode.options`, `Setup.options`, a card field of type `list`). A deck that names its table script
(`script: score`) gets them typed by that game's records below: `deckpress check` reports an unknown
step, a misspelt option or a card id that does not exist at its line and column, the JSON Schema
(`deckpress schema`) describes them, and so does docs/deck-format.md.

deckpress ships one record set per scripted game rather than letting each deck declare its own
records in YAML: the step vocabulary and the options are what the table script understands, so they
belong with the rules they type, and one JSON Schema and one reference page then cover every game.
The values themselves (the deal, every option's value, each card's steps) stay in the deck's YAML.
"""

from __future__ import annotations

from typing import Any

from .options import (Bool, Choice, Context, Id, Int, Invalid, ListOf, MapOf, Number, Option, Record,
                      Section, Str, did_you_mean)
from .source import Map

EXPRESSION = {"type": "string", "pattern": r"\{\{|\{%"}  # a family value, e.g. "{{ -n }}"


def _record(name: str, doc: str, options: dict[str, Option], validate=None) -> type[Record]:
    """A Record class with these options, in order (keys may be Python keywords such as `from`)."""
    body: dict[str, Any] = {"__doc__": doc, "__module__": __name__, **options}
    if validate is not None:
        body["validate"] = validate
    return type(name, (Record,), body)


# --- SCORE! ----------------------------------------------------------------------------------------------

WHO = ["you", "target", "adversaries", "everyone"]
WHAT = ["add", "multiply", "set", "take", "protect", "deny", "pass"]
WHO_NEEDED = {"add", "multiply", "set", "protect", "deny"}  # `take` names `from` and `to`, `pass` nobody
PER = {"add", "multiply", "take"}


class ScoreOf(Option):
    """`set`'s value: a number, or `{score_of: who}` (that player's score at the start of the step)."""

    type_name = "number or {score_of: who}"

    def check(self, value, where, ctx):
        if isinstance(value, dict):
            if set(value) != {"score_of"} or value["score_of"] not in WHO[:2]:
                raise Invalid("write {score_of: you} or {score_of: target}")
            return {"score_of": value["score_of"]}
        return Number(self.doc).check(value, where, ctx)

    def schema(self):
        return {"anyOf": [{"type": "number"}, EXPRESSION,
                          {"type": "object", "required": ["score_of"], "additionalProperties": False,
                           "properties": {"score_of": {"enum": WHO[:2]}}}]}


class Amount(Number):
    """A number that may be a family expression ({{ n }}) in the deck file."""

    def schema(self):
        return {"anyOf": [{"type": "number"}, EXPRESSION]}


def _step_validate(self, ctx: Context) -> None:
    given = [k for k in WHAT if getattr(self, k) not in (None, False)]
    if len(given) != 1:
        ctx.error(self.where, f"a step does exactly one of {', '.join(WHAT)} (this one: {', '.join(given) or 'none'}); "
                              "write one step per action, e.g. - {who: target, add: -2}")
        return
    kind = self.kind = given[0]
    if kind == "take" and (getattr(self, "from") is None or self.to is None):
        ctx.error(self.where, "a take step names who loses and who gains; write e.g. {take: 2, from: target, to: you}")
    if kind != "take" and (getattr(self, "from") is not None or self.to is not None):
        ctx.error(self.where, f"from and to belong to a take step, not to {kind}; use who")
    if self.who is not None and kind not in WHO_NEEDED:
        ctx.error(self.source.at("who"), f"a {kind} step has no who; leave it out")
    if self.per != "once" and kind not in PER:
        ctx.error(self.source.at("per"), f"per repeats add, multiply or take, not {kind}; leave it out")
    if kind in WHO_NEEDED and self.who is None:
        self.who = "you"


ScoreStep = _record("ScoreStep", """One step of a SCORE! card's effect: who, what, how often.

A card's `effect` is a list of steps, applied together at the card's priority (docs/rules/score.md,
"Card effects"). Each step does exactly one of `add`, `multiply`, `set`, `take`, `protect`, `deny`,
`pass`. A step that names `target` needs a card with `target: true`.
""", {
    "who": Choice("Who the step acts on: `you` (the card's holder), `target`, every one of your `adversaries`, "
                  "`everyone` counted this action turn; default `you`.", WHO, default=None),
    "add": Amount("Add this many points (negative: lose them).", default=None),
    "multiply": Amount("Multiply the score by this.", default=None),
    "set": ScoreOf("Set the score to a number, or to `{score_of: you/target}`.", default=None),
    "take": Amount("Move this many points `from` one player `to` another.", default=None),
    "from": Choice("Who loses what `take` moves.", WHO, default=None),
    "to": Choice("Who gains what `take` moves.", WHO, default=None),
    "protect": Bool("Make `who` untargetable and no adversary for the rest of the action turn (No!).",
                    default=False),
    "deny": Bool("`who` applies nothing for the rest of the action turn (Deny!).", default=False),
    "pass": Choice("Everyone passes the card in front of them clockwise (`cw`) or counter-clockwise (`ccw`).",
                   ["cw", "ccw"], default=None),
    "per": Choice("How often add, multiply or take applies: `once`, once per `adversary` of the holder, "
                  "once per `player` counted this action turn.", ["once", "adversary", "player"],
                  default="once"),
}, _step_validate)


class NullableInt(Int):
    """A whole number or null."""

    @property
    def type_name(self):
        return "integer or null"

    def check(self, value, where, ctx):
        return None if value is None else super().check(value, where, ctx)

    def schema(self):
        return {"anyOf": [super().schema(), {"type": "null"}]}


def _mode_options(required: bool) -> dict[str, Option]:
    """The SCORE! mode options; required (setup.options: the base) or optional (a mode's changes)."""
    out = {
        "players_min": Int("Fewest players.", min=1),
        "players_max": NullableInt("Most players (null: no limit).", min=1),
        "deck_remove": ListOf(Id("A card id."), "Cards taken out of the deck (every copy)."),
        "deck_per_player": Bool("Every player has his own full deck (Decking!)."),
        "hand_size": NullableInt("Cards dealt per player (null: setup.deal).", min=0),
        "draw_per_slot": NullableInt("Fill each roster slot by drawing this many and keeping one (Decking!).",
                                     min=1),
        "roster_size": Int("Cards in a roster.", min=1, max=12),
        "action_turns": NullableInt("Action turns per round (null: until the rosters are empty).", min=1),
        "pick": Choice("Which roster card acts: the leftmost, or the die's position (Randomness!).",
                       ["leftmost", "dice"]),
        "order": Choice("Resolution order: card priority, or each player's die (New order!).",
                        ["priority", "dice"]),
        "dice_sides": Int("Faces of the dice New order! rolls.", min=2),
        "priority_override": MapOf(Id("A card id."), Number("A priority."), "Priorities replaced in this mode."),
        "discard": Bool("Flipped cards go to the pile (false: they stay in the roster)."),
        "deny_discards": Bool("A denied player's card is thrown at once."),
        "teams": Choice("No teams (null), teams with individual scores, or one score per team.",
                        [None, "individual", "pooled"]),
        "separate_teams": Bool("Team-mates may not sit side by side."),
        "carry_over": Bool("Rounds play on the running totals (Brutal!)."),
        "floor": NullableInt("Lowest score (null: none)."),
        "floor_applies": Choice("Floor the round score at round end, or after every resolution step.",
                                ["round_end", "always"]),
        "bug_penalty": Int("Points a player responsible for a Bug! loses.", min=0),
        "target": Int("Points that win.", min=1),
        "target_per_player": NullableInt("If set, the target is this times the team's players.", min=1),
        "max_rounds": NullableInt("Rounds before the best score wins (null: unlimited).", min=1),
        "solo": Choice("Solo game.", [None, "scorlitaire", "scorliroad", "score-against"]),
        "virtual_rows": Int("Rows of the Score Against! virtual roster.", min=0),
    }
    if not required:
        for option in out.values():
            option.default = None
    return out


ScoreSetupOptions = _record("ScoreSetupOptions", """SCORE!'s `setup.options`: the rules of Classic!, every mode option.

Each mode starts from these and changes some in its own `options` (ScoreModeOptions). Their meaning, clause
by clause, is in docs/rules/score.md.
""", _mode_options(required=True))

ScoreModeOptions = _record("ScoreModeOptions", """A SCORE! mode's `options`: what it changes of `setup.options`.

The same keys as ScoreSetupOptions, each optional.
""", _mode_options(required=False))

STEPS = ListOf(Section(ScoreStep, "A step."), "What the card does: a list of steps.", min_items=1)


class Game:
    """The records of one scripted game."""

    def __init__(self, name: str, setup_options: type[Record], mode_options: type[Record],
                 card_fields: dict[str, Option]):
        self.name = name
        self.setup_options, self.mode_options, self.card_fields = setup_options, mode_options, card_fields


# --- Skorch, Scout, Scoop: their setup options (they have no mode options) --------------------------------

class Rounds(Option):
    """How many rounds: a number, or `players` (one round per player)."""

    type_name = "integer or `players`"

    def check(self, value, where, ctx):
        if value == "players":
            return value
        return Int(self.doc, min=1, max=100).check(value, where, ctx)

    def schema(self):
        return {"anyOf": [{"const": "players"}, {"type": "integer", "minimum": 1, "maximum": 100}]}


NO_MODE_OPTIONS = _record("NoModeOptions", "A game whose modes have no options of their own.", {})

SkorchSetupOptions = _record("SkorchSetupOptions", """Skorch's `setup.options` (docs/rules/skorch.md).""", {
    "prison": MapOf(Choice("A row.", ["back", "front"]), ListOf(Choice("A slot.", ["up", "down"]), "Its slots.",
                                                                 min_items=1, max_items=10),
                    "Each row of the prison, as its cards lie: `{back: [down, up, ...], front: [up, ...]}`."),
    "prison_deal_order": ListOf(Choice("What is dealt.", ["back", "front", "hand"]),
                                "What is dealt first, second and third.", min_items=3, max_items=3),
    "start_discard": Int("Cards turned up to start the discard pile (the table turns one: the rules read the "
                         "first discard as one card).", min=1, max=1),
    "draw_per_turn": Int("Cards drawn after a play while the draw pile lasts.", min=0, max=10),
    "elude_empty_value": Int("The value an Elude played on an empty discard pile counts as.", min=1, max=20),
})

ScoutSetupOptions = _record("ScoutSetupOptions", """Scout's `setup.options` (docs/rules/scout.md).""", {
    "first_player_card": Id("The card whose holder starts the first round."),
    "rounds": Rounds("How many rounds a game has."),
    "turn_hand_once": Bool("A hand may be turned 180 degrees once, before the round's first turn."),
    "chips_per_player": Int("Scout & Show chips each player gets.", min=0, max=10),
    "round_score": MapOf(Choice("What scores.", ["won", "scout", "hand"]), Int("Points each."),
                         "Points per card won, per Scout token, per card left in hand."),
})

ScoopSetupOptions = _record("ScoopSetupOptions", """Scoop's `setup.options` (docs/rules/scoop.md).""", {
    "piles": ListOf(Id("A pile."), "Each player's piles, left to right.", min_items=1, max_items=10),
    "draw_per_turn": Int("Cards drawn each turn (the rules draw one).", min=1, max=1),
    "face_ranks": ListOf(Str("A rank."), "The ranks that are face cards.", min_items=1),
    "scoring": MapOf(Id("A pile."), MapOf(Str("A rank."), Int("Points."), "Points by rank."),
                     "Points by pile and rank, for the Count."),
})

GAMES: dict[str, Game] = {
    "score": Game("SCORE!", ScoreSetupOptions, ScoreModeOptions, {"effect": STEPS}),
    "skorch": Game("Skorch", SkorchSetupOptions, NO_MODE_OPTIONS, {}),
    "scout": Game("Scout", ScoutSetupOptions, NO_MODE_OPTIONS, {}),
    "scoop": Game("Scoop", ScoopSetupOptions, NO_MODE_OPTIONS, {}),
}

RECORDS: list[type[Record]] = [ScoreStep, ScoreSetupOptions, ScoreModeOptions, SkorchSetupOptions,
                               ScoutSetupOptions, ScoopSetupOptions]


# --- Checking a deck --------------------------------------------------------------------------------------

def _located(source: Any, key: str, fallback):
    return source.at(key) if isinstance(source, Map) and key in source else fallback


def _given(record: Record) -> dict:
    """The keys a record's YAML gave (not the defaults), with their checked values."""
    return {k: getattr(record, k) for k in record.source if k in type(record).OPTIONS}


def check(deck, ctx: Context) -> None:
    """Type the game data of `deck` (a loaded Deck record) by its script's records; check card ids."""
    ids = {card.id for component in deck.components or [] if component is not None
           for card in component.cards or [] if hasattr(card, "id")}
    setup = deck.setup
    if setup is not None and setup.remove:
        raw = setup.source.get("remove") if isinstance(setup.source, Map) else None
        for players, removed in setup.remove.items():
            at = raw.at(players) if isinstance(raw, Map) and players in raw else setup.where
            _known_ids(removed or [], ids, at, ctx, "setup.remove")
    game = GAMES.get(deck.script) if deck.script else None
    if game is None:
        return
    if setup is not None:
        raw = setup.source.get("options") if isinstance(setup.source, Map) else None
        setup.options = _load(game.setup_options, raw, _located(setup.source, "options", setup.where), ctx, ids)
    for mode in deck.modes or []:
        if mode is None:
            continue
        raw = mode.source.get("options") if isinstance(mode.source, Map) else None
        mode.options = _load(game.mode_options, raw, _located(mode.source, "options", mode.where), ctx, ids,
                             given_only=True)
    for component in deck.components or []:
        if component is None:
            continue
        for card in component.cards or []:
            if not hasattr(card, "extra"):
                continue
            for field, option in game.card_fields.items():
                if field not in card.extra or not isinstance(card.source, Map) or field not in card.source:
                    continue
                at = card.source.at(field)
                steps = option.validate(card.source[field], at, ctx, field)
                if steps is None:
                    continue
                card.extra[field] = [_plain_step(s) for s in steps if s is not None]
                if not card.extra.get("target"):
                    for step in steps:
                        if step is not None and "target" in (step.who, getattr(step, "from"), step.to):
                            ctx.error(step.where, f"this step acts on the target, but {card.name!r} takes none; "
                                                  "add `target: true` to the card or name someone else")


def _plain_step(step: Record) -> dict:
    out = {k: getattr(step, k) for k in type(step).OPTIONS if getattr(step, k) not in (None, False)}
    if out.get("per") == "once":
        del out["per"]
    return out


def _load(record: type[Record], raw: Any, where, ctx: Context, ids: set[str], given_only: bool = False):
    try:
        loaded = record.load(raw, where, ctx)
    except Invalid as err:
        ctx.error(where, str(err))
        return {}
    values = _given(loaded) if given_only else {k: getattr(loaded, k) for k in record.OPTIONS}
    source = loaded.source
    if values.get("first_player_card"):
        _known_ids([values["first_player_card"]], ids, _located(source, "first_player_card", where), ctx,
                   "first_player_card")
    if "deck_remove" in values and values["deck_remove"]:
        _known_ids(values["deck_remove"], ids, _located(source, "deck_remove", where), ctx, "deck_remove")
    override = values.get("priority_override") or {}
    if override:
        raw_map = source.get("priority_override")
        for key in override:
            at = raw_map.key_where.get(key, where) if isinstance(raw_map, Map) else where
            _known_ids([key], ids, at, ctx, "priority_override")
    return values


def _known_ids(names: list, ids: set[str], where, ctx: Context, what: str) -> None:
    items = getattr(names, "item_where", None) or [where] * len(names)
    for name, at in zip(names, items):
        if name is not None and name not in ids:
            ctx.error(at, f"{what}: no card has the id {name!r}; {did_you_mean(name, sorted(ids))}")


# --- JSON Schema ----------------------------------------------------------------------------------------

def json_schema(deck_schema: dict) -> dict:
    """Add each game's records to the deck schema: applied when the deck's `script` names the game."""
    rules = []
    for name, game in GAMES.items():
        card_props = {field: {"anyOf": [option.json_schema(), EXPRESSION]} for field, option in game.card_fields.items()}
        rules.append({
            "if": {"required": ["script"], "properties": {"script": {"const": name}}},
            "then": {"properties": {
                "setup": {"properties": {"options": game.setup_options.json_schema()}},
                "modes": {"items": {"properties": {"options": game.mode_options.json_schema()}}},
                "components": {"items": {"properties": {"cards": {"items": {"properties": card_props}}}}},
            }},
        })
    deck_schema["allOf"] = rules
    return deck_schema
