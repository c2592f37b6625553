"""Playing table scenarios (scenarios.py) on the fake of TTS (fake.py): each scenario on a table of its own,
at TTS's own timing (what TTS does later arrives a frame later) and again with everything 20 frames late,
the lists TTS promises no order for shuffled differently each time. A scenario passes when every step does
at both; a failure names the step, its line in the scenario file and what differed (expected, got).

A Lua error while a step runs is the step's failure, at the designer's own file and line
(`tts/climb/table.lua:54: attempt to call ...`), then its Lua traceback: each line of the Global script it
names is looked up in the build's line map (deckpress.builders.tts.lua.line_map). A step whose Lua runs past the
bounds of deckpress.scripting.runtime (instructions, memory) fails the same way. A step naming a place the table
does not name is bad input (DeckError), as the other mistakes of a scenario file are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import lupa.lua52 as lua52

from ..context import BuildOptions
from ..errors import DeckError, Problems, Where
from ..builders.tts.lua import LINE_MAP, source_line
from ..scripting.runtime import LuaFailure
from . import scenarios
from .fake import FAKE_CHUNK, GLOBAL_CHUNK, FakeTTS, TableProblem, to_lua, to_py
from .scenarios import Card, Place, Scenario, ScenarioFile, Step, Table, card_id

DECKS, TESTS = Path("decks"), Path("tests")  # a project's decks and its scenarios, from its folder

TIMINGS = ((1, ""), (20, " (TTS 20 frames late)"))  # the delay in frames, and what a failure there adds
PLACE_RADIUS = 1.5  # a place's cards: those lying this close to it, when the table gives no radius or area
LAYER = 0.1  # how much higher than the place each card put there lies (the next card above the last)
_LINE = re.compile(rf"\b{GLOBAL_CHUNK}:(\d+)\b")


def lua_error(text: str, lines: list[dict]) -> LuaFailure:
    """A Lua error's `text` (FakeTTS.traceback) as its one line and the frames of its Lua traceback, each place in
    the Global script at the file and line it comes from; the fake's frames (TTS's, which TTS does not show), C's
    and the guard's (`[string ...]`) left out."""
    message, _, traceback = text.strip().removeprefix("error loading code: ").partition("\nstack traceback:")

    def at(match: re.Match) -> str:
        found = source_line(lines, int(match.group(1)))
        return f"{found[0]}:{found[1]}" if found else match.group(0)

    frames = [_LINE.sub(at, frame.strip()) for frame in traceback.splitlines()
              if frame.strip() and not frame.strip().startswith(("[C]", "(...", "[string", FAKE_CHUNK))]
    return LuaFailure(_LINE.sub(at, message.splitlines()[0] if message else "a Lua error"), frames)


@dataclass
class Spot:
    """A place of the table: where it lies, and its cards' reach: within `radius` of it, or within `dx` along x
    and `dz` along z when the table gives those (an area)."""

    x: float
    y: float
    z: float
    radius: float
    dx: float | None
    dz: float | None


class Failed(Exception):
    """The step `step` (None: loading the table) did not do what the scenario says; the message says what differed."""

    def __init__(self, step: Step | None, message: str, frames: list[str] | None = None):
        super().__init__(message)
        self.step, self.message, self.frames = step, message, frames or []


@dataclass
class Outcome:
    scenario: Scenario
    failure: Failed | None
    timing: str  # what the timing of the failing run adds to the line ("" at TTS's own)

    def line(self, scenario_file: ScenarioFile) -> str:
        """The scenario's one line of the report: ok, or FAIL with the step, where it is and what differed."""
        if self.failure is None:
            return f"ok    {scenario_file.path.as_posix()}: {self.scenario.name}"
        step = self.failure.step
        where = step.where if step is not None else self.scenario.where
        what = f"{step}: " if step is not None else "loading the table: "
        head = f"FAIL  {where.path}:{where.line}: {self.scenario.name}: {what}{self.failure.message}{self.timing}"
        return LuaFailure(head, self.failure.frames).text()


def play(scenario: Scenario, save: dict, table: Table, lines: list[dict]) -> Outcome:
    """Play `scenario` on the save's table at each timing; the outcome of the first run that fails, or ok."""
    for delay, timing in TIMINGS:
        try:
            Run(scenario, save, table, lines, delay).play()
        except Failed as failed:
            return Outcome(scenario, failed, timing)
    return Outcome(scenario, None, "")


def _quoted(texts: list[str]) -> str:
    return " | ".join(f'"{text}"' for text in texts) if texts else "nothing"


def _number(text: Any) -> float | None:
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


class Run:
    """One scenario on a table of its own, TTS's asynchronous calls `delay` frames late."""

    def __init__(self, scenario: Scenario, save: dict, table: Table, lines: list[dict], delay: int):
        self.scenario, self.save, self.table, self.lines, self.delay = scenario, save, table, lines, delay
        self.said = 0  # what the table had said at the last expect
        self.stacked: Step | None = None  # the stack step whose shuffle has not come yet

    def play(self) -> None:
        step = None
        try:
            self.fake = FakeTTS(self.save, self.scenario.seats, delay=self.delay, order_seed=self.delay,
                                seed=self.scenario.seed, start=False)
            self.fake.start_script(self.save.get("LuaScriptState", ""))
            for step in self.scenario.steps:
                getattr(self, f"do_{step.kind}")(step)
            if self.stacked is not None and self.fake.fake.stacked is not None:
                raise Failed(self.stacked, "no deck holding these cards was shuffled after this step")
        except lua52.LuaError as err:
            failure = lua_error(self.fake.traceback(err), self.lines)
            raise Failed(step, failure.line, failure.frames) from None
        except TableProblem as err:
            raise Failed(step, f"the table cannot go on: {err}") from None

    # --- the steps ---------------------------------------------------------------------------------------

    def do_press(self, step: Step) -> None:
        button = step.button
        for element_id, hidden in button.path:
            shown = self.fake.ui_attribute(element_id, "active") if element_id is not None else None
            if (shown.lower() == "false") if shown is not None else hidden:
                raise Failed(step, f"the button {button.label or button.on_click!r} is hidden"
                                   f"{f' ({element_id} is not active)' if element_id else ''}")
        if self.fake.globals[button.handler] is None:
            raise Failed(step, f"the script defines no {button.handler}(), the onClick of {button.on_click!r}")
        self.fake.click(button.handler, step.seat, button.value, button.element_id, settle=step.wait)

    def do_put(self, step: Step) -> None:
        chosen: list[dict] = []
        for card in step.cards:
            chosen.append(self.pick(step, card, chosen))
        for k, entry in enumerate(chosen):
            target = step.target
            if target is None:
                if entry.get("deck") is not None:
                    raise Failed(step, f"{entry['name']} lies in a deck; say where it goes (on: ...)")
                position = None
            elif target.seat is not None:
                position = self.fake.fake.hand_spot(target.seat, None if step.at is None else step.at + k,
                                                    entry["guid"])
            else:
                spot = self.place(target)
                below = len(self.cards_at(spot))
                position = to_lua(self.fake.lua, {"x": spot.x, "y": spot.y + LAYER * (below + 1), "z": spot.z})
            if not self.fake.fake.drag(entry["guid"], position, step.face, step.turned):
                raise Failed(step, f"{entry['name']} is on its way somewhere (it arrives frames later) and cannot "
                                   "be taken now")

    def do_stack(self, step: Step) -> None:
        if self.stacked is not None and self.fake.fake.stacked is not None:
            raise Failed(self.stacked, "no deck holding these cards was shuffled before the next stack")
        wanted = [{guid: True for guid in self.table.guids[card.ref]} for card in step.cards]
        self.fake.fake.stack(to_lua(self.fake.lua, wanted))
        self.stacked = step

    def do_reload(self, step: Step) -> None:
        self.fake.reload()

    def do_frames(self, step: Step) -> None:
        self.fake.frames(step.frames)

    def do_expect(self, step: Step) -> None:
        body = step.value
        said = self.fake.broadcasts[self.said:]
        colors = list(to_py(self.fake.fake.broadcast_colors) or [])[self.said:]
        self.said += len(said)
        differences = []
        says = body.get("says", [])
        for text in [says] if isinstance(says, str) else says:
            if not any(text in message for message in said):
                differences.append(f'says: expected "{text}", got {_quoted(said)}')
        if "refused" in body:
            warning = to_py(self.fake.globals.use("lib.table").WARNING)
            warnings = [m for m, c in zip(said, colors) if warning is not None and to_py(c) == warning]
            if not any(body["refused"] in message for message in warnings):
                differences.append(f'refused: expected a warning with "{body["refused"]}", got {_quoted(warnings)}')
        for element, text in body.get("shows", {}).items():
            got = self.shown(element)
            if got != text:
                differences.append(f'shows {element}: expected "{text}", got "{got}"')
        for seat, score in body.get("scores", {}).items():
            got = self.shown(f"score_{seat}")
            if _number(got) != score:
                differences.append(f"scores {seat}: expected {score:g}, got {got}")
        for seat, cards in body.get("hand", {}).items():
            got = [self.entry(e) for e in to_py(self.fake.fake.hand_cards(seat)) or []]
            differences += self.compare(f"hand of {seat}", cards, got, ordered=True)
        for name, cards in body.get("on", {}).items():
            got = self.cards_at(self.place(Place(name, body["on"].key_where[name])))
            differences += self.compare(f"on {name}", cards, got, ordered=False)
        if differences:
            raise Failed(step, "; ".join(differences))

    # --- reading the table ---------------------------------------------------------------------------

    def shown(self, element: str) -> str | None:
        """The text of the XmlUI element `element`: what the script set (UI.setValue), else the XmlUI's own."""
        value = self.fake.ui_value(element)
        return value if value is not None else self.table.texts.get(element)

    @staticmethod
    def entry(entry: dict) -> dict:
        """A card as the fake lists it, with its id in the deck."""
        return dict(entry, id=card_id(entry.get("notes", "")))

    @staticmethod
    def compare(what: str, expected: int | list, got: list[dict], ordered: bool) -> list[str]:
        """The difference between the cards expected (a count, or names and ids) and those there, if any."""
        names = [e["name"] for e in got]
        if isinstance(expected, int):
            if len(got) == expected:
                return []
            return [f"{what}: expected {expected} card{'s' if expected != 1 else ''}, got {len(got)}"
                    f"{' (' + ', '.join(names) + ')' if names else ''}"]
        if ordered:
            same = len(got) == len(expected) and all(ref in (e["name"], e["id"]) for ref, e in zip(expected, got))
        else:  # each card expected matched by one card there, and none there left over
            left, same = list(got), True
            for ref in expected:
                match = next((e for e in left if ref in (e["name"], e["id"])), None)
                if match is None:
                    same = False
                    break
                left.remove(match)
            same = same and not left
        if same:
            return []
        return [f"{what}: expected [{', '.join(map(str, expected))}], got [{', '.join(names)}]"]

    def cards_at(self, spot: Spot) -> list[dict]:
        """The cards lying on a place, the highest first."""
        return [self.entry(e) for e in to_py(self.fake.fake.cards_at(spot.x, spot.z, spot.radius, spot.dx, spot.dz))
                or []]

    def place(self, place: Place) -> Spot:
        """Where the place the table names lies, and how far from it its cards may lie."""
        places = self.places()
        if place.name not in places:
            named = ", ".join(sorted(places)) or "none (its table script has no places())"
            raise DeckError.at(place.where, f"{place.name!r} is no place of this table; write one it names "
                                            f"({named}) or hand of <seat>")
        return places[place.name]

    def places(self) -> dict[str, Spot]:
        """The places the table script names now (GAME.places(), docs/scripting.md), by name."""
        game = self.fake.globals.GAME
        hook = game.places if lua52.lua_type(game) == "table" else None
        out = {}
        for name, spot in (to_py(hook()) or {}).items() if hook is not None else ():
            spot = spot if isinstance(spot, dict) else dict(enumerate(spot, 1))
            out[name] = Spot(*(float(spot.get(k, spot.get(i, 0))) for i, k in enumerate("xyz", 1)),
                             float(spot.get("radius", PLACE_RADIUS)), spot.get("dx"), spot.get("dz", spot.get("dx")))
        return out

    def pick(self, step: Step, card: Card, chosen: list[dict]) -> dict:
        """The card `card` names for the step, among its `from` (or anywhere: the hands, the seated players' first,
        each left to right, then the loose cards, then the decks' from the top), not one already `chosen`."""
        source = step.source
        if source is None:
            every = [self.entry(e) for e in to_py(self.fake.fake.cards()) or []]
            seats = [*self.scenario.seats, *(s for s in self.table.seats if s not in self.scenario.seats)]
            listing = [self.entry(e) for seat in seats for e in to_py(self.fake.fake.hand_cards(seat)) or []]
            listing += sorted((e for e in every if e.get("hand") is None and e.get("deck") is None),
                              key=lambda e: e["guid"])
            listing += [e for e in every if e.get("deck") is not None]
        elif source.seat is not None:
            listing = [self.entry(e) for e in to_py(self.fake.fake.hand_cards(source.seat)) or []]
        else:
            listing = self.cards_at(self.place(source))
        taken = {e["guid"] for e in chosen}
        if isinstance(card.ref, int):
            if card.ref > len(listing):
                raise Failed(step, f"card {card.ref} of {source}: there {'is' if len(listing) == 1 else 'are'} "
                                   f"{len(listing)}")
            return listing[card.ref - 1]
        for entry in listing:
            if card.ref in (entry["name"], entry["id"]) and entry["guid"] not in taken:
                return entry
        where = f"in {source}" if source is not None else "on the table"
        held = f" (it holds: {', '.join(e['name'] for e in listing)})" if source is not None else ""
        raise Failed(step, f"no card {card.ref!r} {where}{held}")


def command(decks: list[Path] | None, options: BuildOptions, echo: Callable[[str], None],
            warn: Callable[[str], None]) -> int:
    """`deckpress test`: the scenarios of tests/*.scenarios.yaml (those of `decks` only, when given) played on
    their decks' tables, each deck built first as `deckpress build` builds it (into options.out, its stamps
    kept); one line per scenario, then the count. Returns the exit status: 1 when any failed. Bad input, in
    the files or the decks, raises DeckError."""
    from ..build import build_deck

    names = sorted(p.stem for p in DECKS.glob("*.yaml") if not p.name.startswith("."))
    found = scenarios.files(TESTS)
    if not found:
        raise DeckError.at(Where(str(TESTS)), f"no table scenarios here; write {TESTS}/<name>{scenarios.SUFFIX} "
                                              "(docs/scripting.md, Testing)")
    problems = Problems()
    read = []
    for path in found:
        try:
            read.append(scenarios.read(path, names))
        except DeckError as err:
            problems.items += [p for p in err.problems if p not in problems.items]
    problems.raise_if_any()
    if decks is not None:
        wanted = [path.stem for path in decks]
        for deck in wanted:
            if not any(f.deck == deck for f in read):
                raise DeckError.at(Where(str(TESTS)), f"no scenarios of {deck} in {TESTS}/; write "
                                                      f"{TESTS}/{deck}{scenarios.SUFFIX} with deck: {deck}")
        read = [f for f in read if f.deck in wanted]
    tables: dict[str, tuple[dict, scenarios.Table, list[dict]]] = {}
    for deck in dict.fromkeys(f.deck for f in read):
        build_deck(DECKS / f"{deck}.yaml", options, lambda *args, **kwargs: None, warn)
        built = options.out / deck / "tts"
        save = json.loads((built / f"{deck}.json").read_text(encoding="utf-8"))
        lines = json.loads((built / LINE_MAP).read_text(encoding="utf-8"))
        tables[deck] = (save, scenarios.table_of(save), lines)
    for scenario_file in read:
        try:
            scenarios.bind(scenario_file, tables[scenario_file.deck][1])
        except DeckError as err:
            problems.items += err.problems
    problems.raise_if_any()
    failed = count = 0
    for scenario_file in read:
        save, table, lines = tables[scenario_file.deck]
        for scenario in scenario_file.scenarios:
            outcome = play(scenario, save, table, lines)
            echo(outcome.line(scenario_file))
            count += 1
            failed += outcome.failure is not None
    echo(f"{count} scenario{'s' if count != 1 else ''}: " + (f"{failed} failed, {count - failed} ok" if failed
                                                              else "all ok"))
    return 1 if failed else 0
