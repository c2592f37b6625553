"""The engine contract of docs/scripting.md, on the four games' engines under lupa.lua52, through the
contract alone (tests/helpers/contract_driver.py): setup with a seed, then legal moves chosen by a bot that knows
nothing but the contract (now and then a random move, a move description expanded at random; else the move
that leaves its seat the most points by the engine's own scores, as issue 24's greedy bot) until to_act says
the game is over. Every move must be accepted, leave the state it was given unchanged and keep every card
(all_ids); every event carries its text; the game ends with winners among its seats; the same seed plays the
same game. These playouts replace the engines' own hand-written ones."""

from __future__ import annotations

import json
import random
import re

import pytest

from conftest import ROOT
from deckpress.builders.tts.lua import find_modules
from deckpress.errors import Where
from deckpress.scripting import contract, games
from deckpress.scripting.contract import CONTRACT
from deckpress.scripting.runtime import Runtime
from helpers.contract_driver import Game, expand, playout, setup
from helpers.deck_data import _data, deck_data
from helpers.fake_tts import to_lua, to_py as from_lua
from helpers.lua_modules import modules, runtime

SEATS = ["White", "Red", "Yellow", "Green", "Blue", "Purple"]
GAMES = ("score", "skorch", "scout", "scoop")


def game_of(name: str) -> Game:
    lua = runtime()
    return Game(lua, modules(name, lua)(f"{name}.engine"), deck_data(name, lua))


ENGINES = {name: game_of(name) for name in GAMES}



def players_of(name: str, mode: str | None = None) -> list[int]:
    """The player counts a game (and a SCORE! mode) deals for, from the deck's data."""
    data = _data(name)
    if name == "score":
        options = ENGINES["score"].engine.options(ENGINES["score"].data, mode)
        low, high = options.players_min, options.players_max or 5
        return sorted({low, min(high, 4)})
    if name == "scoop":
        return [data["game"]["players"]["min"] + 1, data["game"]["players"]["max"]]
    return sorted({min(data["setup"]["deal"]), max(data["setup"]["deal"])} - {1})


def score_modes() -> list[str]:
    return [m["id"] for m in _data("score")["modes"]]


@pytest.mark.parametrize("name", GAMES)
def test_every_engine_implements_the_contract_determinize_too(name):
    engine = ENGINES[name].engine
    assert [f.name for f in CONTRACT if not callable(engine[f.name])] == []


def test_the_lua_drivers_get_the_declared_functions_alone():
    """The bots and the self-play are given scripting/contract.py's `guarded` engine: SCORE!'s own functions
    (options, deck_cards, ...) stay out of their reach."""
    path = ROOT / "decks" / "score.yaml"
    found = find_modules(path, games.find("score", path, Where(str(path))))
    lua = Runtime(found, path)
    engine = contract.load_engine(lua, next(m for m in found if m.name == "score.engine"))
    assert engine.options is not None
    assert sorted(name for name, _ in contract.guarded(lua, engine).items()) == sorted(f.name for f in CONTRACT)


NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def test_the_docs_tables_list_the_declared_functions_with_their_arguments_and_returns():
    """docs/scripting.md's two tables (the functions, and the optional ones) name every function of
    scripting/contract.py's CONTRACT, in its order, with its arguments; each returns cell starts with the
    declared returns, and says `or nil, refusal` exactly where the function may refuse."""
    page = (ROOT / "docs" / "scripting.md").read_text(encoding="utf-8")
    heading = re.search(r"^## The (\w+) functions$", page, re.M)
    required, optional = page[heading.end():page.index("\nA **refusal**")].split("\nAnd ", 1)
    kept = [f for f in CONTRACT if not f.optional]
    assert heading[1] == NUMBERS[len(kept)] and optional.startswith(f"{NUMBERS[len(CONTRACT) - len(kept)]} optional")
    rows = [(table is optional, *(cell.strip() for cell in line.strip("|").split("|")))
            for table in (required, optional) for line in table.splitlines() if line.startswith("| `")]
    assert [(row[0], row[1]) for row in rows] == [(f.optional, f"`{f.signature}`") for f in CONTRACT]
    for (_, _, _, returns), f in zip(rows, CONTRACT):
        assert returns.startswith(f"`{', '.join(f.returns)}`"), (f.name, returns)
        assert ("or `nil, refusal`" in returns) == f.refuses, (f.name, returns)


@pytest.mark.parametrize("name,players,seed", [(name, n, seed) for name in ("skorch", "scout", "scoop")
                                               for n in players_of(name) for seed in (1, 2, 3)])
def test_random_games_through_the_contract_keep_every_card_and_end(name, players, seed):
    final, moves = playout(ENGINES[name], SEATS[:players], seed)
    if name == "scoop":
        assert final["turns"] == 52                       # one card a turn, to the last
    elif name == "scout":
        assert final["round"] == final["rounds"] == len(final["history"])
    else:
        assert ENGINES[name].engine.cards_left(to_lua(ENGINES[name].lua, final), final["winner"]) == 0


@pytest.mark.parametrize("mode", score_modes())
def test_random_score_games_through_the_contract_in_every_mode(mode):
    game = ENGINES["score"]
    for players in players_of("score", mode):
        final, _ = playout(game, SEATS[:players], players, mode=mode)
        assert final["over"]
        if from_lua(game.engine.options(game.data, mode)).get("solo") in ("scorlitaire", "scorliroad"):
            assert final["winners"] or final["discard"]                    # won, or lost having flipped
        else:
            assert final["rounds"] >= 1


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_plays_the_same_game(name):
    seats = SEATS[:players_of(name)[0]]
    assert playout(ENGINES[name], seats, 7) == playout(ENGINES[name], seats, 7)


@pytest.mark.parametrize("name", GAMES)
def test_a_move_out_of_turn_or_malformed_is_refused_with_its_clause(name):
    game = ENGINES[name]
    seats = SEATS[:players_of(name)[0]]
    state, _ = setup(game, seats, seed=3)
    acting, _ = game.engine.to_act(state)
    idle = next((s for s in seats if s not in from_lua(acting)), "Pink")
    for seat, move in ((idle, {"nonsense": True}), (from_lua(acting)[0], {"nonsense": True})):
        before = from_lua(state)
        new, refusal = game.engine.play(state, seat, to_lua(game.lua, move))
        refusal = from_lua(refusal)
        assert new is None and isinstance(refusal["clause"], int) and refusal["rule"] and refusal["text"], refusal
        assert from_lua(state) == before


def test_decking_keeps_one_card_of_each_draw_filling_the_roster_from_the_right():
    game = ENGINES["score"]
    state, _ = setup(game, SEATS[:2], seed=2, mode="decking")
    s = from_lua(state)
    assert [len(s["hands"]["White"]), len(s["decks"]["White"])] == [8, 34]    # a draw of 8 from 42 cards
    assert from_lua(game.engine.legal_moves(state, "White")) == [{"keep": {"one_of": s["hands"]["White"]}}]
    kept = []
    for slot in (3, 2, 1):
        choice = from_lua(state)["hands"]["White"][slot]
        state, events = game.engine.play(state, "White", to_lua(game.lua, {"keep": choice}))
        kept.append(choice)
        drawn = "White draws 8" if slot > 1 else "the roster is full"
        assert from_lua(events)[0] == {"what": "kept", "seat": "White", "slot": slot, "draw": 8 if slot > 1 else 0,
                                       "text": f"White keeps a card in roster slot {slot}; the rest of the draw "
                                               f"goes to the graveyard; {drawn}."}
    s = from_lua(state)
    assert s["chosen"]["White"]["roster"] == kept[::-1] and len(s["graves"]["White"]) == 21
    assert "White" not in from_lua(game.engine.to_act(state)[0]) and s["hands"]["White"] == []


# --- SCORE!'s solo modes and determinize -------------------------------------------------------------------

def score_state(mode: str, seats: list, seed: int, moves: int):
    """A SCORE! game of `mode` after `moves` random legal moves (fewer if it ends first)."""
    game = ENGINES["score"]
    rng = random.Random(seed)
    state, _ = setup(game, seats, seed=seed, mode=mode)
    for _ in range(moves):
        acting, kind = game.engine.to_act(state)
        if kind == "over":
            break
        seat = rng.choice(from_lua(acting))
        move = expand(rng.choice(from_lua(game.engine.legal_moves(state, seat))), rng)
        state, _ = game.engine.play(state, seat, to_lua(game.lua, move))
    return state


def unseen(s: dict, seat: str) -> list[list[list]]:
    """The places of `s` whose cards `seat` cannot see (docs/rules/score.md, determinize), as paths, in pools
    whose cards may trade places (a Decking! player's own cards never join another's)."""
    if s["opts"]["solo"] in ("scorlitaire", "scorliroad"):
        return [[["layout"]]]
    def keyed(key):  # a table by seat (an empty one comes from Lua as a list)
        return s.get(key) if isinstance(s.get(key), dict) else {}
    def laid(p):
        return [["chosen", p, "roster"]] if p in keyed("chosen") else []
    others = [p for p in s["players"] if p != seat]
    if s["opts"]["deck_per_player"]:
        return [[["decks", p]] + [["virtual", p, col] for col in range(len(keyed("virtual").get(p, [])))]
                + ([[key, p] for key in ("hands", "kept") if p in keyed(key)] + laid(p) if p != seat else [])
                for p in s["players"]]
    return [[["deck"]] + [path for p in others for path in [["hands", p]] * (p in keyed("hands")) + laid(p)]]


def at(s, path):
    for key in path:
        s = s[key]
    return s


def seen(s: dict, seat: str) -> dict:
    """`s` as `seat` sees it: each unseen place by its size alone (the rest as it is), the generator left out."""
    view = json.loads(json.dumps(s))
    for path in (path for pool in unseen(s, seat) for path in pool):
        parent = at(view, path[:-1])
        parent[path[-1]] = [bool(id) for id in at(s, path)]
    view.pop("rng")
    return view


def pools(s: dict, seat: str) -> list[list[str]]:
    return [sorted(id for path in pool for id in at(s, path) if id) for pool in unseen(s, seat)]


@pytest.mark.parametrize("mode,players,moves", [("classic", 3, 1), ("classic", 2, 7), ("decking", 2, 5),
                                                ("teamscore", 4, 2), ("scorlitaire", 1, 6), ("scorliroad", 1, 3),
                                                ("score-against", 1, 4)])
def test_score_determinize_redeals_only_what_the_seat_cannot_see(mode, players, moves):
    game = ENGINES["score"]
    state = score_state(mode, SEATS[:players], 5, moves)
    s = from_lua(state)
    assert not s["over"]
    every = sorted(from_lua(game.engine.all_ids(state)))
    for seat in SEATS[:players]:
        places = [path for pool in unseen(s, seat) for path in pool]
        dealt, generators = {json.dumps(path): set() for path in places}, set()
        for seed in range(1, 9):
            d = from_lua(game.engine.determinize(state, seat, seed))
            assert seen(d, seat) == seen(s, seat)                                 # what the seat knows
            assert sorted(from_lua(game.engine.all_ids(to_lua(game.lua, d)))) == every     # conservation
            assert pools(d, seat) == pools(s, seat)                               # each pool keeps its cards
            for path in places:
                dealt[json.dumps(path)].add(json.dumps(at(d, path)))
            generators.add(d["rng"])
        assert len(generators) == 8                                               # the deals and dice to come
        for path in places:                                                       # redealt, seed by seed
            if len(set(at(s, path)) - {False}) > 1:
                assert len(dealt[json.dumps(path)]) > 1, path
        assert from_lua(state) == s                                              # the state given is kept


def test_scorlitaire_flips_a_spot_and_a_deny_covers_one():
    game = ENGINES["score"]
    state, _ = setup(game, ["White"], seed=4, mode="scorlitaire")
    s = from_lua(state)
    acting, kind = game.engine.to_act(state)
    assert (from_lua(acting), kind) == (["White"], "turn")
    assert from_lua(game.engine.legal_moves(state, "White")) == [{"flip": k} for k in range(1, 43)]
    deny = s["layout"].index("deny") + 1
    state, events = game.engine.play(state, "White", to_lua(game.lua, {"flip": deny}))
    assert from_lua(events)[0]["what"] == "flipped" and from_lua(state)["deny"] == "deny"
    refused = from_lua(game.engine.play(state, "White", to_lua(game.lua, {"flip": 1 if deny != 1 else 2}))[1])
    assert refused["clause"] == 26 and "Deny!" in refused["text"]
    covers = [m["cover"] for m in from_lua(game.engine.legal_moves(state, "White"))]
    assert deny not in covers and len(covers) == 41
    state, events = game.engine.play(state, "White", to_lua(game.lua, {"cover": covers[0]}))
    s = from_lua(state)
    assert s["covered"][covers[0] - 1] == "deny" and not s["deny"]
    assert covers[0] not in [m["flip"] for m in from_lua(game.engine.legal_moves(state, "White"))]


def test_scorliroad_flips_only_next_to_the_last_flip():
    game = ENGINES["score"]
    state, _ = setup(game, ["White"], seed=9, mode="scorliroad")
    s = from_lua(state)
    safe = next(k for k in range(1, 43) if s["layout"][k - 1].startswith("score-") and 2 <= (k - 1) % 7 <= 5
                and k > 7)
    state, _ = game.engine.play(state, "White", to_lua(game.lua, {"flip": safe}))
    legal = sorted(m["flip"] for m in from_lua(game.engine.legal_moves(state, "White")))
    assert legal == sorted(safe + dr * 7 + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)
                           and 1 <= safe + dr * 7 + dc <= 42)
    far = next(k for k in range(1, 43) if k not in legal and k != safe)
    refused = from_lua(game.engine.play(state, "White", to_lua(game.lua, {"flip": far}))[1])
    assert refused["clause"] == 26 and "next to" in refused["text"]


def test_score_against_deals_the_virtual_roster_and_plays_the_round_at_the_last_keep():
    game = ENGINES["score"]
    state, _ = setup(game, ["White"], seed=3, mode="score-against")
    s = from_lua(state)
    assert [len(c) for c in s["virtual"]["White"]] == [3, 3, 3] and len(s["hands"]["White"]) == 8
    assert len(s["decks"]["White"]) == 42 - 9 - 8
    for _ in range(3):
        state, events = game.engine.play(state, "White", to_lua(game.lua, {"keep": from_lua(state)["hands"]["White"][0]}))
    events = from_lua(events)
    assert [e["what"] for e in events] == ["kept", "said", "said", "said", "round_over"]
    s = from_lua(state)
    assert s["rounds"] == 1 and s["totals"]["White"] == events[-1]["totals"]["White"] >= 0
    assert len(s["hands"]["White"]) == 8 and len(s["decks"]["White"]) == 25     # the next round is dealt


def test_scorlitaire_cw_shuffles_the_layout_its_denies_and_the_pile_and_discards_itself():
    game = ENGINES["score"]
    state, _ = setup(game, ["White"], seed=4, mode="scorlitaire")
    layout = from_lua(state)["layout"]
    for name in ("score-1", "deny"):
        state, _ = game.engine.play(state, "White", to_lua(game.lua, {"flip": layout.index(name) + 1}))
    covered = layout.index("score-6") + 1
    state, _ = game.engine.play(state, "White", to_lua(game.lua, {"cover": covered}))
    every = sorted(from_lua(game.engine.all_ids(state)))
    state, events = game.engine.play(state, "White", to_lua(game.lua, {"flip": layout.index("cw") + 1}))
    s = from_lua(state)
    assert from_lua(events)[0]["outcome"] == "reshuffle" and s["discard"] == ["cw"] and not s["spot"]
    every.remove("cw")
    assert sorted(id for id in s["layout"] if id) == every                  # the Deny!, the cards under it, the pile
    assert s["layout"][41] is False and not any(s["covered"]) and s["totals"]["White"] == 1
    assert [m["flip"] for m in from_lua(game.engine.legal_moves(state, "White"))] == list(range(1, 42))


def test_score_against_plays_the_roster_left_to_right_against_the_columns_right_to_left():
    game = ENGINES["score"]
    state, _ = setup(game, ["White"], seed=35, mode="score-against")   # a deal where the order matters: 5, else 1
    virtual = from_lua(state)["virtual"]["White"]
    kept = []
    for _ in range(3):
        kept.append(from_lua(state)["hands"]["White"][-1])
        state, events = game.engine.play(state, "White", to_lua(game.lua, {"keep": kept[-1]}))
    cards, _ = game.engine.deck_cards(game.data)
    want = game.engine.score_against_round(0, to_lua(game.lua, [cards[i] for i in kept[::-1]]),
                                           to_lua(game.lua, [[cards[i] for i in column] for column in virtual[::-1]]),
                                           game.engine.options(game.data, "score-against"))
    assert from_lua(events)[-1]["totals"]["White"] == want["total"] == from_lua(state)["totals"]["White"] == 5
