"""Random runs of the SCORE! rules engine (tts/score/engine.lua, through lupa) on the shipped deck's cards
and modes, checking what must hold whatever is played: no card is created or lost, every score change
follows from the cards' data, and the seats are symmetric under rotation."""

import random
import re

from conftest import ROOT
from helpers.score_lua import EXTRA_CARDS, ScoreLua

E = ScoreLua()
TYPES = sorted(E.cards) + sorted(EXTRA_CARDS)   # the deck's 17 cards (from the YAML), Steal! 2 and Swap!
RESOLVING = ["classic", "brutal", "duel", "teamwork", "teamscore", "new-order", "randomness", "decking"]


def random_play(rng, n):
    card = E.card(rng.choice(TYPES))
    target = rng.choice([None, *range(n)]) if rng.random() < 0.9 else rng.randrange(n)
    return {"card": card, "target": target if card["target"] else None}


def random_turn(rng):
    mode = rng.choice(RESOLVING)
    opts = E.options(mode)
    n = 2 if mode == "duel" else rng.randint(2, 6)
    teams = [s % 2 for s in range(n)] if opts["teams"] else None
    entities = 2 if opts["teams"] == "pooled" else n
    state = {"scores": [rng.randint(-10, 30) for _ in range(entities)], "teams": teams}
    if opts["order"] == "dice":
        state["dice"] = [rng.randint(1, 6) for _ in range(n)]
    plays = [random_play(rng, n) if rng.random() > 0.05 else None for _ in range(n)]
    if all(p is None for p in plays):
        plays[0] = random_play(rng, n)
    return mode, opts, n, state, plays


def test_no_card_is_created_or_lost():
    """Every flipped card is reported once, ends with one holder and one status; the discard pile is every
    flipped card (or none where cards stay)."""
    rng = random.Random(16)
    for _ in range(400):
        mode, opts, n, state, plays = random_turn(rng)
        result = E.resolve_action_turn(state, plays, mode)
        flipped = sorted(p["card"]["id"] for p in plays if p)
        assert sorted(c["card"] for c in result["cards"]) == flipped
        assert all(0 <= c["holder"] < n for c in result["cards"])
        assert {c["status"] for c in result["cards"]} <= {"effect", "denied", "cancelled", "no_target", "void",
                                                         "nullified"}
        assert sorted(result["discarded"]) == (flipped if opts["discard"] else [])
        holders = [c["holder"] for c in result["cards"] if c["status"] == "effect"]
        assert len(holders) == len(set(holders))   # nobody applies two cards in one action turn


def test_scores_follow_from_the_cards_data():
    """Turns made only of add steps on yourself (Score! cards) change each score by exactly the amounts in
    the YAML; a card that took no effect changes nothing."""
    rng = random.Random(17)
    scorers = [i for i in TYPES if all(set(s) == {"who", "add"} and s["who"] == "you" for s in E.card(i)["effect"])]
    assert len(scorers) == 6
    for _ in range(300):
        n = rng.randint(2, 6)
        plays = [{"card": E.card(rng.choice(scorers)), "target": None} for _ in range(n)]
        start = [rng.randint(0, 40) for _ in range(n)]
        result = E.resolve_action_turn({"scores": start}, plays, "classic")
        gains = [sum(s["add"] for s in p["card"]["effect"]) for p in plays]
        assert result["deltas"] == gains and result["scores"] == [a + b for a, b in zip(start, gains)]
    for _ in range(300):
        mode, opts, n, state, plays = random_turn(rng)
        result = E.resolve_action_turn(state, plays, mode)
        if not result["effective"]:
            assert result["deltas"] == [0] * len(state["scores"])


def rotate(values, k):
    return values[-k:] + values[:-k] if values else values


def test_seats_are_symmetric_under_rotation():
    """Moving everyone k seats clockwise (cards, targets, scores, dice, teams) moves the result with them."""
    rng = random.Random(18)
    checked = 0
    for _ in range(400):
        mode, opts, n, state, plays = random_turn(rng)
        if opts["teams"] == "pooled" or (opts["teams"] and n % 2):
            continue  # team numbers are not seat-relative: rotate only when teams rotate onto teams
        k = rng.choice([2, 4]) if opts["teams"] else rng.randrange(1, n)
        k %= n
        moved = [None if p is None else dict(p, target=None if p["target"] is None else (p["target"] + k) % n)
                 for p in rotate(plays, k)]
        turned = dict(state, scores=rotate(state["scores"], k))
        if "dice" in state:
            turned["dice"] = rotate(state["dice"], k)
        a = E.resolve_action_turn(state, plays, mode)
        b = E.resolve_action_turn(turned, moved, mode)
        assert b["scores"] == rotate(a["scores"], k), (mode, k)
        assert sorted((c["card"], (c["holder"] + k) % n, c["status"]) for c in a["cards"]) == \
            sorted((c["card"], c["holder"], c["status"]) for c in b["cards"])
        checked += 1
    assert checked > 200


def test_rounds_add_up_and_bugs_cost_the_penalty():
    rng = random.Random(19)
    for _ in range(150):
        mode = rng.choice(["classic", "brutal", "teamwork", "duel"])
        opts = E.options(mode)
        n = 2 if mode == "duel" else rng.randint(2, 6)
        size = opts["roster_size"]
        rosters = [[random_play(rng, n) for _ in range(size if rng.random() > 0.1 else size - 1)]
                   for _ in range(n)]
        totals = [rng.randint(0, 40) for _ in range(n)]
        teams = [s % 2 for s in range(n)] if opts["teams"] else None
        result = E.resolve_round({"totals": totals, "teams": teams}, rosters, mode)
        assert [t + r for t, r in zip(totals, result["round_scores"])] == result["totals"]
        if result["bug"]:
            assert len(result["turns"]) == 1  # a short roster is caught at the first action turn
            for seat in range(n):
                penalty = -opts["bug_penalty"] if seat in result["bug"]["responsible"] else 0
                if not opts["carry_over"]:
                    assert result["round_scores"][seat] == penalty
        elif not opts["carry_over"]:
            assert min(result["round_scores"]) >= opts["floor"]


def test_lua_file_returns_one_local_table_and_holds_no_game_number():
    source = (ROOT / "tts" / "score" / "engine.lua").read_text(encoding="utf-8")
    assert re.search(r"^return ScoreEngine\s*$", source, re.M)
    code = re.sub(r"--[^\n]*", "", source)
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
    code = re.sub(r"\brefuse\(\d+,", "refuse(", code)  # a refusal's clause of docs/rules/score.md, not a game fact
    numbers = set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", code))
    assert numbers <= {"0", "1", "2", "3"}, numbers  # list positions and rank classes only; facts come from DATA
