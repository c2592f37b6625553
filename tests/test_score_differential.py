"""Differential tests: the Lua port (tts/score/engine.lua) must return exactly what the
Python reference engine (src/deckpress/engines/score.py) returns, on thousands of random
inputs."""

import random
import re

import lupa.lua52 as lua52

from conftest import ROOT
from deckpress.engines import score as py
from fake_tts import to_py
from lua_modules import modules, runtime

LUA_PATH = ROOT / "tts" / "score" / "engine.lua"

lua = runtime()
lua_engine = modules("score", lua)("score.engine")


def card(card_id, name, priority, action, **effect):
    return {"id": card_id, "name": name, "priority": priority,
            "effect": {"action": action, **effect}}


# The 42-card deck of the rules, plus one card defined only by data.
CARD_TYPES = (
    [(card(f"score-{n}", f"Score! {n}", 4 if n >= 3 else 8, "score", amount=n), n)
     for n in range(1, 7)]
    + [(card("double", "Double!", 5, "double"), 3)]
    + [(card(f"fire-{n}", f"Fire! {n}", 7, "lose_per_adversary", amount=n), n) for n in (1, 2, 3)]
    + [(card(f"bomb-{n}", f"Bomb! {n}", 6, "adversaries_lose", amount=n), n) for n in (1, 2, 3)]
    + [(card("deny", "Deny!", 2, "deny"), 3),
       (card("cw", "CW!", 3, "pass", direction="cw"), 1),
       (card("ccw", "CCW!", 3, "pass", direction="ccw"), 1),
       (card("no", "No!", 1, "protect"), 1)]
)
STEAL = card("steal-2", "Steal! 2", 6.5, "adversaries_lose", amount=2)
DECK = [c for c, count in CARD_TYPES for _ in range(count)] + [STEAL]
TYPES = [c for c, _ in CARD_TYPES] + [STEAL]
assert len(DECK) == 43

MODES = [
    {},
    {"carry_over": True, "floor_applies": "always"},
    {"teams": "individual", "separate_teams": True},
    {"teams": "pooled", "separate_teams": True, "target_per_player": 100},
    {"order": "dice"},
    {"order": "dice", "deny_discards": False, "discard": False},
    {"roster_size": 6, "action_turns": 3, "pick": "dice", "discard": False,
     "deny_discards": False},
    {"priority_override": {"score-1": 4, "score-2": 4, "double": 4, "cw": 3.5}},
]


# ---------------------------------------------------------------------------
# Python <-> Lua conversion


def to_lua(value):
    """Python data -> Lua tables; None list items become false, None dict values vanish."""
    if isinstance(value, dict):
        return lua.table_from({k: to_lua(v) for k, v in value.items() if v is not None})
    if isinstance(value, (list, tuple)):
        return lua.table_from([False if v is None else to_lua(v) for v in value])
    return value


def canon(value):
    """Shape both sides alike: drop None dict values, treat {} and [] as equal."""
    if isinstance(value, dict):
        cleaned = {k: canon(v) for k, v in value.items() if v is not None}
        return cleaned or []
    if isinstance(value, list):
        return [canon(v) for v in value]
    return value


def lua_mode(mode):
    """Mode options for Lua: an explicit null is false there (nil means "use the default")."""
    return {k: (False if v is None else v) for k, v in mode.items()}


def both(name, *args, mode_at=None):
    """Call `name` in both engines; return (python result, lua result) or the two errors.
    `mode_at` is the position of a mode options argument."""
    lua_args = [to_lua(lua_mode(a) if i == mode_at else a) for i, a in enumerate(args)]
    try:
        expected = ("ok", canon(getattr(py, name)(*args)))
    except ValueError:
        expected = ("error",)
    try:
        got = ("ok", canon(to_py(lua_engine[name](*lua_args))))
    except lua52.LuaError:
        got = ("error",)
    return expected, got


# ---------------------------------------------------------------------------
# Random inputs


def random_card(rng):
    # Mostly the real deck mix; sometimes uniform over card types so that rare cards
    # (No!, CW!, CCW!, Steal!) meet each other often.
    return dict(rng.choice(DECK) if rng.random() < 0.6 else rng.choice(TYPES))


def random_target(rng, n):
    roll = rng.random()
    if roll < 0.1:
        return None
    if roll < 0.15:
        return rng.choice([-1, n])
    return rng.randrange(n)


def random_teams(rng, n):
    teams = [s % 2 for s in range(n)]
    if rng.random() < 0.3:
        rng.shuffle(teams)
    return teams


def random_turn(rng):
    mode = rng.choice(MODES)
    n = rng.randint(2, 6)
    plays = []
    for _ in range(n):
        if rng.random() < 0.03:
            plays.append(None)
        else:
            plays.append({"card": random_card(rng), "target": random_target(rng, n)})
    state = {"turn": rng.randrange(3)}
    if mode.get("teams"):
        state["teams"] = random_teams(rng, n)
    entities = max(state["teams"]) + 1 if mode.get("teams") == "pooled" else n
    state["scores"] = [rng.randint(-15, 60) for _ in range(entities)]
    if mode.get("order") == "dice" or rng.random() < 0.2:
        state["dice"] = [rng.randint(1, 6) for _ in range(n)]
    if rng.random() < 0.15:
        state["roster_counts"] = [rng.choice([2, 3, 3, 3, 4]) for _ in range(n)]
    return state, plays, mode


def test_action_turns_match():
    rng = random.Random(20240607)
    outcomes = {"bug": 0, "effect": 0, "cancelled": 0, "void": 0, "denied": 0, "no_target": 0}
    for case in range(3500):
        state, plays, mode = random_turn(rng)
        expected, got = both("resolve_action_turn", state, plays, mode, mode_at=2)
        assert got == expected, f"case {case}: {state} {plays} {mode}"
        if expected[0] == "ok":
            result = expected[1]
            outcomes["bug"] += result.get("bug", []) != []
            for report in result["cards"]:
                if report["status"] in outcomes:
                    outcomes[report["status"]] += 1
    # the random cases must actually reach every branch of the resolver
    assert all(count > 20 for count in outcomes.values()), outcomes


def test_rounds_match():
    rng = random.Random(77)
    for case in range(400):
        mode = rng.choice(MODES)
        n = rng.randint(2, 6)
        teams = random_teams(rng, n) if mode.get("teams") else None
        entities = max(teams) + 1 if mode.get("teams") == "pooled" else n
        size = 6 if mode.get("pick") == "dice" else 3
        sizes = [size] * n
        if rng.random() < 0.1:
            sizes[rng.randrange(n)] = rng.choice([2, 4]) if size == 3 else size
        rosters = [[{"card": random_card(rng), "target": random_target(rng, n)}
                    for _ in range(k)] for k in sizes]
        turn_inputs = [{"dice": [rng.randint(1, 6) for _ in range(n)]} for _ in range(3)]
        if rng.random() < 0.3:
            for inputs in turn_inputs:
                inputs["targets"] = [rng.randrange(n) for _ in range(n)]
        state = {"totals": [rng.randint(-20, 70) for _ in range(entities)]}
        if teams:
            state["teams"] = teams
        expected, got = both("resolve_round", state, rosters, mode, turn_inputs, mode_at=2)
        assert got == expected, f"round case {case}"


def test_game_status_and_solo_match():
    rng = random.Random(5)
    solo = {"solo": "score-against", "players_min": 1, "players_max": 1}
    for case in range(400):
        mode = rng.choice(MODES + [solo, {"solo": "scorlitaire", "target": 65,
                                          "max_rounds": None}])
        n = 1 if mode.get("solo") else rng.randint(2, 6)
        teams = random_teams(rng, n) if mode.get("teams") else None
        entities = max(teams) + 1 if mode.get("teams") == "pooled" else n
        totals = [rng.choice([48, 50, 52, 60, 200, rng.randint(0, 70)]) for _ in range(entities)]
        contenders = None
        if rng.random() < 0.3 and not mode.get("solo"):
            contenders = sorted(rng.sample(range(entities), rng.randint(1, entities)))
        args = (totals, rng.randint(1, 10), mode, teams, contenders)
        expected, got = both("game_status", *args, mode_at=2)
        assert got == expected, f"status case {case}: {args}"

        state = {"score": rng.randint(-5, 64), "last_score": rng.randint(0, 6)}
        expected, got = both("solitaire_flip", state, random_card(rng), {"target": 65})
        assert got == expected

        column = [random_card(rng) for _ in range(3)]
        expected, got = both("score_against_turn", rng.randint(-5, 30), random_card(rng), column)
        assert got == expected

        items = list(range(rng.randint(0, 45)))
        expected, got = both("shuffle", items, rng.randint(-10, 10**9))
        assert got == expected


def test_setup_helpers_match():
    duel = {"players_min": 2, "players_max": 2, "hand_size": 6,
            "deck_remove": ["cw", "ccw", "score-4", "score-5", "score-6",
                            "bomb-1", "bomb-2", "bomb-3"]}
    types = [dict(c, count=count) for c, count in CARD_TYPES]
    bad = [{"bogus": 1}, {"floor": "low"}, {"teams": "all"}, {"max_rounds": None, "x": 1}]
    for mode in MODES + [duel, {"max_rounds": None, "players_max": None}] + bad:
        expected, got = both("mode_options", mode, mode_at=0)
        if expected[0] == "ok":
            expected = ("ok", canon(lua_mode(py.mode_options(mode))))
        assert got == expected
        for players in range(1, 8):
            expected, got = both("hand_size", mode, players, mode_at=0)
            assert got == expected
        expected, got = both("build_deck", types, mode, mode_at=1)
        assert got == expected
    for teams in ([0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1], [0, 2]):
        for players in (len(teams), 7):
            expected, got = both("validate_setup", MODES[2], players, teams, mode_at=0)
            assert got == expected


# ---------------------------------------------------------------------------
# Module shape (the sandbox check of every tts/ file is in test_tts_lua.py)


def test_lua_file_returns_one_local_table():
    source = LUA_PATH.read_text(encoding="utf-8")
    assert re.search(r"^local ScoreEngine = \{\}$", source, flags=re.M)
    assert source.rstrip().endswith("return ScoreEngine")
    assert "ScoreEngine" not in lua.globals() and "Random" not in lua.globals()  # nothing leaked
