"""Table scenarios: the YAML files `deckpress test` plays, tests/<name>.scenarios.yaml in a project
(docs/scripting.md, "Testing", describes the format):

    deck: climb                    # the deck whose table they test (optional when the project has one deck)
    seats: [White, Red]            # the seated players, colours of the deck's seats
    seed: 1                        # math.random's seed and the fake's shuffles' (optional, default 1)
    scenarios:
      - name: New game deals seven cards each
        steps:
          - press: {button: New game, as: White}
          - expect: {hand: {White: 7, Red: 7}, says: White dealt a new game}

`read` checks a file's shape and `bind` its steps against the built save: the buttons of its XmlUI, the
seats with a hand zone, the cards, the ids of the XmlUI's elements. Every mistake is one located line
(DeckError). The places a table names (GAME.places()) are known only while it runs: run.py checks those.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DeckError, Problems, Where
from ..located import Map, Seq
from ..options import did_you_mean
from ..source import load_yaml

SUFFIX = ".scenarios.yaml"
KINDS = ("press", "put", "stack", "expect", "reload", "frames")
EXPECTATIONS = ("says", "refused", "shows", "scores", "hand", "on")
PUT_KEYS = ("card", "cards", "from", "on", "at", "face", "turned")
HAND = re.compile(r"hand of (\w+)\Z")
ON_CLICK = re.compile(r"\s*(\w+)\s*(?:\((.*)\))?\s*\Z")
DEFAULT_SEED = 1


def files(tests: Path) -> list[Path]:
    """The scenario files of a project's tests/ folder: tests/*.scenarios.yaml (editors' .#x files left out)."""
    return sorted(p for p in tests.glob(f"*{SUFFIX}") if not p.name.startswith("."))


@dataclass
class Card:
    """A card a step names: a card's name or id in the deck (`ref` a string), or the k-th card of the step's
    `from` (an integer: of a hand from the left, of a place from the top)."""

    ref: str | int
    where: Where


@dataclass
class Place:
    """Where a step puts or reads cards: a seat's hand (`seat`), or a place the table names (GAME.places())."""

    name: str
    where: Where
    seat: str | None = None

    def __str__(self) -> str:
        return self.name


@dataclass
class Button:
    """An element of the XmlUI with an onClick: what a press of it calls, handler(player, value, id)."""

    label: str
    handler: str
    value: str | None
    element_id: str | None
    on_click: str
    # The element and its ancestors, innermost first: (id or None, whether the XmlUI says active="false").
    # One hidden hides it; a script shows or hides an element by its id (UI.show, UI.hide, setAttribute).
    path: tuple[tuple[str | None, bool], ...]


@dataclass
class Step:
    kind: str
    where: Where
    number: int
    value: Any  # the step's YAML value (Map, Seq or a plain value)
    button: Button | None = None
    seat: str | None = None
    wait: bool = True
    cards: list[Card] = field(default_factory=list)
    source: Place | None = None
    target: Place | None = None
    at: int | None = None
    face: str | None = None
    turned: bool = False
    frames: int = 0

    def __str__(self) -> str:
        return f"step {self.number} ({self.kind})"


@dataclass
class Scenario:
    name: str
    where: Where
    seats: list[str]
    seats_where: list[Where]  # where each seat is written (in the scenario or at the top of the file)
    seed: int
    steps: list[Step]


@dataclass
class ScenarioFile:
    path: Path
    deck: str
    where: Where  # of its `deck:` value (or of the file)
    scenarios: list[Scenario]


def _str(value: Any, where: Where, what: str, problems: Problems) -> str | None:
    if isinstance(value, str) and value.strip():
        return value
    problems.add(where, f"{what} is {value!r}; write it as text, e.g. {what}: New game")
    return None


def _bool(body: Map, key: str, example: str, default: bool, problems: Problems) -> bool:
    """body[key] when it is true or false, else `default` (a problem when it is set to anything else)."""
    if key not in body:
        return default
    if not isinstance(body[key], bool):
        problems.add(body.at(key), f"{key} is {body[key]!r}; write {example} or leave it out")
        return default
    return body[key]


def _seats(value: Any, where: Where, problems: Problems) -> Seq | None:
    """The seats list (a Seq: where each colour is written), when it is one."""
    if not isinstance(value, Seq) or not value or not all(isinstance(s, str) for s in value):
        problems.add(where, f"seats is {value!r}; write the seated colours as a list, e.g. seats: [White, Red]")
        return None
    for k, seat in enumerate(value):
        if seat in value[:k]:
            problems.add(value.item_where[k], f"{seat} is seated twice; name each colour once")
    return value


def _seed(value: Any, where: Where, problems: Problems) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        problems.add(where, f"seed is {value!r}; write a whole number of at least 1, e.g. seed: 1")
        return DEFAULT_SEED
    return value


def _unknown_keys(data: Map, known: tuple[str, ...], what: str, problems: Problems) -> None:
    for key in data:
        if key not in known:
            problems.add(data.key_where[key], f"{what} has no key {key!r}; {did_you_mean(str(key), list(known))}")


def read(path: Path, decks: list[str]) -> ScenarioFile:
    """The scenario file at `path`, its shape checked; `decks` are the project's deck names (a file need not
    name its deck when there is one)."""
    data = load_yaml(path)
    problems = Problems()
    top = Where(str(path), 1, 1)
    if not isinstance(data, Map) or "scenarios" not in data:
        raise DeckError.at(getattr(data, "where", top), "a scenario file is a mapping with `scenarios:`, a list "
                           "of {name, steps}; see docs/scripting.md, Testing")
    _unknown_keys(data, ("deck", "seats", "seed", "scenarios"), "a scenario file", problems)
    deck, deck_where = None, data.at("deck")
    if "deck" in data:
        deck = _str(data["deck"], deck_where, "deck", problems)
        if deck is not None and deck not in decks:
            problems.add(deck_where, f"no deck {deck!r} in decks/; {did_you_mean(deck, decks) if decks else 'add it'}")
    elif len(decks) == 1:
        deck, deck_where = decks[0], top
    else:
        problems.add(top, f"which deck do these scenarios test? the project has {len(decks)}; write deck: "
                          f"{decks[0] if decks else '<deck>'} at the top")
    seats = _seats(data["seats"], data.at("seats"), problems) if "seats" in data else None
    seed = _seed(data["seed"], data.at("seed"), problems) if "seed" in data else DEFAULT_SEED
    scenarios = []
    listed = data["scenarios"]
    if not isinstance(listed, Seq) or not listed:
        problems.add(data.at("scenarios"), "scenarios is empty or not a list; write a list of {name, steps}")
        listed = Seq()
        listed.item_where = []
    names: dict[str, Where] = {}
    for item, where in zip(listed, listed.item_where):
        scenario = _scenario(item, where, seats, seed, problems)
        if scenario is None:
            continue
        if scenario.name in names:
            problems.add(where, f"a second scenario named {scenario.name!r} (line {names[scenario.name].line}); "
                                "give each scenario a name of its own")
        names[scenario.name] = where
        scenarios.append(scenario)
    problems.raise_if_any()
    return ScenarioFile(path, deck, deck_where, scenarios)


def _scenario(item: Any, where: Where, seats: Seq | None, seed: int, problems: Problems) -> Scenario | None:
    if not isinstance(item, Map):
        problems.add(where, f"a scenario is {item!r}; write a mapping: - name: ..., steps: [...]")
        return None
    _unknown_keys(item, ("name", "seats", "seed", "steps"), "a scenario", problems)
    name = _str(item.get("name"), item.at("name"), "name", problems)
    if "seats" in item:
        seats = _seats(item["seats"], item.at("seats"), problems)
    elif seats is None:
        problems.add(item.where, "who sits at the table? write seats: [White, Red] in the scenario or at the "
                                 "top of the file")
    if "seed" in item:
        seed = _seed(item["seed"], item.at("seed"), problems)
    steps_value = item.get("steps")
    if not isinstance(steps_value, Seq) or not steps_value:
        problems.add(item.at("steps"), "a scenario needs steps: a list such as - press: {button: New game, "
                                       "as: White}")
        return None
    steps = []
    for number, (value, step_where) in enumerate(zip(steps_value, steps_value.item_where), 1):
        step = _step(value, step_where, number, problems)
        if step is not None:
            steps.append(step)
    if name is None or seats is None:
        return None
    return Scenario(name, where, list(seats), seats.item_where, seed, steps)


def _step(value: Any, where: Where, number: int, problems: Problems) -> Step | None:
    if not isinstance(value, Map) or len(value) != 1:
        problems.add(where, f"a step is one kind and its value, e.g. - press: {{button: Play, as: White}}; kinds: "
                            f"{', '.join(KINDS)}")
        return None
    [(kind, body)] = value.items()
    if kind not in KINDS:
        problems.add(value.key_where[kind], f"no step kind {kind!r}; {did_you_mean(str(kind), list(KINDS))}")
        return None
    step = Step(kind, where, number, body)
    at = value.at(kind)
    if kind == "press":
        _press(step, body, at, problems)
    elif kind == "put":
        _put(step, body, at, problems)
    elif kind == "stack":
        if not isinstance(body, Seq) or not body:
            problems.add(at, "stack is a list of the cards the next shuffle leaves on top, e.g. "
                             "stack: [Number 5, Wild]")
        else:
            step.cards = [_card(ref, ref_where, False, problems) for ref, ref_where in zip(body, body.item_where)]
    elif kind == "expect":
        _expect(body, at, problems)
    elif kind == "reload" and body is not True:
        problems.add(at, f"reload is {body!r}; write reload: true (the game saved and loaded again)")
    elif kind == "frames":
        if isinstance(body, bool) or not isinstance(body, int) or body < 1:
            problems.add(at, f"frames is {body!r}; write how many frames pass, a whole number of at least 1")
        else:
            step.frames = body
    return step


def _press(step: Step, body: Any, at: Where, problems: Problems) -> None:
    if isinstance(body, str):
        return
    if not isinstance(body, Map) or "button" not in body:
        problems.add(at, "press names a button: press: {button: New game, as: White} (by its label, id or "
                         "onClick handler)")
        return
    _unknown_keys(body, ("button", "as", "wait"), "press", problems)
    _str(body["button"], body.at("button"), "button", problems)
    if "as" in body:
        _str(body["as"], body.at("as"), "as", problems)
    step.wait = _bool(body, "wait", "wait: false (frames do not pass after the press)", step.wait, problems)


def _card(ref: Any, where: Where, numbered: bool, problems: Problems) -> Card:
    if isinstance(ref, bool) or not isinstance(ref, (str, int)) or ref == "":
        problems.add(where, f"a card is {ref!r}; write its name or id in the deck, e.g. Number 5")
    elif isinstance(ref, int) and not numbered:
        problems.add(where, f"card {ref} counts from where? write from: hand of White (card 1 is the leftmost) "
                            "or name the card")
    elif isinstance(ref, int) and ref < 1:
        problems.add(where, f"card {ref}: the cards count from 1 (1 is a hand's leftmost, a place's top card)")
    return Card(ref, where)


def _place(value: Any, where: Where, problems: Problems) -> Place:
    if not isinstance(value, str) or not value.strip():
        problems.add(where, f"a place is {value!r}; write a place of the table (e.g. pile) or hand of White")
        return Place(str(value), where)
    hand = HAND.match(value)
    return Place(value, where, hand.group(1) if hand else None)


def _put(step: Step, body: Any, at: Where, problems: Problems) -> None:
    if not isinstance(body, Map):
        problems.add(at, "put is a mapping: put: {card: Number 5, from: hand of White, on: pile}")
        return
    _unknown_keys(body, PUT_KEYS, "put", problems)
    has_from = "from" in body
    if has_from:
        step.source = _place(body["from"], body.at("from"), problems)
    if ("card" in body) == ("cards" in body):
        problems.add(at, "put names its card (card: Number 5) or its cards (cards: [Number 5, Wild]), one of the two")
    elif "card" in body:
        step.cards = [_card(body["card"], body.at("card"), has_from, problems)]
    elif not isinstance(body["cards"], Seq) or not body["cards"]:
        problems.add(body.at("cards"), "cards is a list: cards: [Number 5, Wild]")
    else:
        cards = body["cards"]
        step.cards = [_card(ref, where, has_from, problems) for ref, where in zip(cards, cards.item_where)]
    if "on" in body:
        step.target = _place(body["on"], body.at("on"), problems)
    if "face" in body:
        if body["face"] not in ("up", "down"):
            problems.add(body.at("face"), f"face is {body['face']!r}; write face: up or face: down")
        else:
            step.face = body["face"]
    step.turned = _bool(body, "turned", "turned: true (half a turn)", step.turned, problems)
    if "at" in body:
        if step.target is None or step.target.seat is None:
            problems.add(body.at("at"), "at is a place in a hand; write it with on: hand of <seat>")
        elif isinstance(body["at"], bool) or not isinstance(body["at"], int) or body["at"] < 1:
            problems.add(body.at("at"), f"at is {body['at']!r}; write the card's place in the hand from the left, "
                                        "1 or more")
        else:
            step.at = body["at"]
    if step.target is None and step.face is None and not step.turned:
        problems.add(at, "put says where the cards go (on: pile, on: hand of Red) or how they turn (face: up, "
                         "turned: true)")


def _expect(body: Any, at: Where, problems: Problems) -> None:
    if not isinstance(body, Map) or not body:
        problems.add(at, f"expect is a mapping of what the table should show; keys: {', '.join(EXPECTATIONS)}")
        return
    _unknown_keys(body, EXPECTATIONS, "expect", problems)
    says = body.get("says")
    if "says" in body and not (isinstance(says, str) or (isinstance(says, list) and says
                                                          and all(isinstance(s, str) for s in says))):
        problems.add(body.at("says"), f"says is {says!r}; write a text the table says, or a list of them")
    if "refused" in body:
        _str(body["refused"], body.at("refused"), "refused", problems)
    for key in ("shows", "scores", "hand", "on"):
        if key in body and (not isinstance(body[key], Map) or not body[key]):
            problems.add(body.at(key), f"{key} is a mapping, e.g. {key}: {_EXAMPLES[key]}")
    for text, where in _items(body, "shows"):
        if not isinstance(text, str):
            problems.add(where, f"{text!r} is not a text; quote it, e.g. \"{text}\"")
    for score, where in _items(body, "scores"):
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            problems.add(where, f"a score is {score!r}; write a number")
    for key in ("hand", "on"):
        for cards, where in _items(body, key):
            if isinstance(cards, bool) or not isinstance(cards, (int, list)) or (isinstance(cards, int) and cards < 0):
                problems.add(where, f"{cards!r}: write how many cards lie there (e.g. 5) or which, in a list")
            elif isinstance(cards, Seq):
                for ref, ref_where in zip(cards, cards.item_where):
                    _card(ref, ref_where, False, problems)


_EXAMPLES = {"shows": "{game_turn: \"White's turn: any card\"}", "scores": "{White: 3, Red: 0}",
             "hand": "{White: 7}", "on": "{pile: [Number 5]}"}


def _items(body: Map, key: str) -> list[tuple[Any, Where]]:
    """The (value, where) of each entry of the mapping `body[key]`, when it is one."""
    value = body.get(key)
    return [(v, value.at(k)) for k, v in value.items()] if isinstance(value, Map) else []


# --- The table the scenarios run on -----------------------------------------------------------------------


@dataclass
class Table:
    """What a built save offers the scenarios: its XmlUI's buttons and element texts (by id), the colours with a
    hand zone, and every card's GUID by its name and by its id in the deck."""

    buttons: list[Button]
    texts: dict[str, str]
    seats: list[str]
    guids: dict[str, set[str]]


def table_of(save: dict) -> Table:
    """The Table of a built TTS save (its XmlUI and its objects)."""
    root = ET.fromstring(f"<root>{save.get('XmlUI', '')}</root>")
    buttons, texts = [], {}

    def walk(element, path: tuple[tuple[str | None, bool], ...]) -> None:
        own_id = element.get("id")
        text = " ".join("".join(element.itertext()).split())
        if own_id is not None:
            texts[own_id] = text
        path = ((own_id, element.get("active", "true").lower() == "false"), *path)
        on_click = element.get("onClick")
        parsed = ON_CLICK.match(on_click or "")
        if parsed:
            buttons.append(Button(text, parsed.group(1), parsed.group(2), own_id, on_click.strip(), path))
        for child in element:
            walk(child, path)

    for child in root:
        walk(child, ())
    seats, guids = [], {}
    for state in save["ObjectStates"]:
        if state.get("Name") == "HandTrigger":
            seats.append(state.get("FogColor"))
        for card in [state, *state.get("ContainedObjects", [])]:
            if card.get("Name") in ("Card", "CardCustom"):
                for key in (card.get("Nickname"), card_id(card.get("GMNotes", ""))):
                    if key:
                        guids.setdefault(key, set()).add(card["GUID"])
    return Table(buttons, texts, seats, guids)


def card_id(notes: str) -> str | None:
    """A card's id in the deck, from the GM notes deckpress writes ({"component": ..., "id": ...})."""
    try:
        data = json.loads(notes)
    except ValueError:
        return None
    return data.get("id") if isinstance(data, dict) and isinstance(data.get("id"), str) else None


def find_button(table: Table, name: str, where: Where) -> Button:
    """The button `name` names: by its label, its id, its onClick (`uiScorePlus(Red)`) or its handler."""
    found = [b for b in table.buttons if name in (b.label, b.element_id, b.on_click, b.handler)]
    calls = {(b.handler, b.value) for b in found}
    if len(calls) == 1:
        return found[0]
    if found:
        raise DeckError.at(where, f"the button {name!r} is one of {len(calls)} here ("
                                  f"{', '.join(sorted(b.on_click for b in found))}); name one by its onClick")
    labels = sorted({b.label for b in table.buttons if b.label} | {b.handler for b in table.buttons})
    raise DeckError.at(where, f"no button {name!r} at this table; {did_you_mean(name, labels)}")


def bind(scenario_file: ScenarioFile, table: Table) -> None:
    """Check every step of the file against the table: buttons that exist, seats that are seated (and have a
    hand zone), cards of the deck, XmlUI ids; the buttons pressed are resolved into the steps."""
    problems = Problems()
    for scenario in scenario_file.scenarios:
        _bind_seats(scenario, table, problems)
        for step in scenario.steps:
            try:
                _bind_step(step, scenario, table, problems)
            except DeckError as err:
                for problem in err.problems:
                    problems.add(problem.where, problem.message)
    problems.raise_if_any()


def _bind_seats(scenario: Scenario, table: Table, problems: Problems) -> None:
    for seat, where in zip(scenario.seats, scenario.seats_where):
        if seat not in table.seats:
            problems.add(where, f"{seat!r} is no seat at this table (a colour with a hand zone); "
                                f"{did_you_mean(seat, table.seats)}")


def _seat(name: Any, where: Where, scenario: Scenario, table: Table, seated: bool, problems: Problems) -> None:
    """`name` is a seat of the table (with a hand zone), and seated in the scenario when `seated`."""
    if name not in table.seats:
        problems.add(where, f"{name!r} is no seat at this table (a colour with a hand zone); "
                            f"{did_you_mean(str(name), table.seats)}")
    elif seated and name not in scenario.seats:
        problems.add(where, f"{name} is not seated in this scenario; seat them (seats: [...]) or write one of "
                            f"{', '.join(scenario.seats)}")


def _bind_card(card: Card, table: Table, problems: Problems) -> None:
    if isinstance(card.ref, str) and card.ref not in table.guids:
        problems.add(card.where, f"no card {card.ref!r} in the deck; {did_you_mean(card.ref, sorted(table.guids))}")


def _bind_place(place: Place | None, scenario: Scenario, table: Table, problems: Problems) -> None:
    if place is not None and place.seat is not None:
        _seat(place.seat, place.where, scenario, table, False, problems)


def _bind_step(step: Step, scenario: Scenario, table: Table, problems: Problems) -> None:
    body = step.value
    if step.kind == "press":
        name = body if isinstance(body, str) else body["button"]
        where = step.where if isinstance(body, str) else body.at("button")
        step.button = find_button(table, name, where)
        step.seat = scenario.seats[0] if isinstance(body, str) or "as" not in body else body["as"]
        if isinstance(body, Map) and "as" in body:
            _seat(step.seat, body.at("as"), scenario, table, True, problems)
    for card in step.cards:
        _bind_card(card, table, problems)
    _bind_place(step.source, scenario, table, problems)
    _bind_place(step.target, scenario, table, problems)
    if step.kind != "expect":
        return
    for element, where in ((k, body["shows"].key_where[k]) for k in body.get("shows", {})):
        if element not in table.texts:
            problems.add(where, f"no element with id {element!r} in the table's XmlUI; "
                                f"{did_you_mean(element, sorted(table.texts))}")
    for key, seated in (("scores", False), ("hand", False)):
        for seat in body.get(key, {}):
            _seat(seat, body[key].key_where[seat], scenario, table, seated, problems)
    for key in ("hand", "on"):
        for cards, _ in _items(body, key):
            for ref, ref_where in zip(cards, cards.item_where) if isinstance(cards, Seq) else ():
                _bind_card(Card(ref, ref_where), table, problems)
    for name in body.get("on", {}):
        _bind_place(_place(name, body["on"].key_where[name], problems), scenario, table, problems)
