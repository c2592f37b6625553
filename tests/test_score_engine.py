"""SCORE! rules engine (tts/score/engine.lua, the one implementation, run here through lupa): one test per
numbered clause of docs/rules/score.md. The cards and modes are the shipped deck's (decks/score.yaml) as
the table gets them. Expected numbers are worked out by hand from the rules; the comments show the
arithmetic."""

import pytest

from helpers.score_lua import ScoreLua

E = ScoreLua()


def score(n):
    return E.card(f"score-{n}")


def fire(n):
    return E.card(f"fire-{n}")


def bomb(n):
    return E.card(f"bomb-{n}")


DOUBLE, DENY, CW, CCW, NO = (E.card(i) for i in ("double", "deny", "cw", "ccw", "no"))
STEAL, SWAP = E.card("steal-2"), E.card("swap")

# The deck of the rules: card -> copies (42 cards).
CARD_TYPES = ([(score(n), n) for n in range(1, 7)] + [(DOUBLE, 3)]
              + [(fire(n), n) for n in (1, 2, 3)] + [(bomb(n), n) for n in (1, 2, 3)]
              + [(DENY, 3), (CW, 1), (CCW, 1), (NO, 1)])

# The modes of decks/score.yaml: what each changes of setup.options.
MODES = E.modes


def turn(plays, scores, mode=None, **state):
    """Resolve one action turn; plays are (card, target) pairs or None; mode is a name
    from MODES or an options dict."""
    plays = [None if p is None else {"card": p[0], "target": p[1]} for p in plays]
    options = MODES[mode] if isinstance(mode, str) else mode
    return E.resolve_action_turn(dict(state, scores=scores), plays, options)


def statuses(result):
    return [(c["card"], c["holder"], c["status"]) for c in result["cards"]]


def roster(*cards_and_targets):
    return [{"card": c, "target": t} for c, t in cards_and_targets]


def test_clause_01_mode_options_are_data_with_classic_defaults():
    full = E.mode_options({})
    assert full == E.mode_options(None) == E.mode_options(full)
    assert full["roster_size"] == 3 and full["order"] == "priority" and full["floor"] == 0
    assert full["target"] == 50 and full["max_rounds"] == 8 and full["bug_penalty"] == 20
    for options in MODES.values():  # every shipped mode changes only options the base has
        assert set(E.mode_options(options)) == set(full)
    with pytest.raises(ValueError, match="unknown mode option 'roster'"):
        E.mode_options({"roster": 3})


def test_clause_02_a_new_card_made_of_steps_works():
    # Steal! 2 (take 2 from the target to you, priority 6.5): after Bomb! (6), before Fire! (7).
    result = turn([(STEAL, 2), (bomb(1), None), (fire(1), 0)], [0, 0, 0])
    # Bomb! 1 (seat 1): seats 0, 2 -1 -> [-1, 0, -1]; Steal! 2 (seat 0) from seat 2
    # -> [1, 0, -3]; Fire! 1 on seat 0 with 2 adversaries -> -2 -> [-1, 0, -3]
    assert result["scores"] == [-1, 0, -3]
    assert result["effective"] == ["bomb-1", "steal-2", "fire-1"]
    # Swap! (5.5): you and the target swap scores, after Double! (5), before Bomb! (6)
    result = turn([(SWAP, 1), (DOUBLE, 1), (score(1), None)], [10, 3, 0])
    # Double! on seat 1: 6; Swap!: seat 0 6, seat 1 10; Score! 1 (8): seat 2 1
    assert result["scores"] == [6, 10, 1]
    with pytest.raises(ValueError, match="does none of"):
        E.validate_card(dict(DOUBLE, effect=[{"who": "target", "dubble": 2}]))
    with pytest.raises(ValueError, match="needs a target"):
        E.validate_card(dict(DOUBLE, target=False))
    with pytest.raises(ValueError, match="list of steps"):
        E.validate_card(dict(DOUBLE, effect={"action": "double"}))


def test_clause_03_priority_order():
    # Score! 3 (4) -> Double! (5) -> Fire! 1 (7) -> Score! 2 (8), all from round score 10
    result = turn([(score(3), None), (DOUBLE, 0), (fire(1), 0), (score(2), None)],
                  [10, 10, 10, 10])
    # seat 0: 10 + 3 = 13, x2 = 26, Fire! 1 x 3 adversaries = -3 -> 23; seat 3: 10 + 2
    assert result["scores"] == [23, 10, 10, 12]
    assert result["deltas"] == [13, 0, 0, 2]
    assert result["effective"] == ["score-3", "double", "fire-1", "score-2"]
    assert result["bug"] is None and result["log"][-1] == "scores: 23, 10, 10, 12"


def test_clause_04_targets():
    # self-target allowed: Fire! 2 on yourself with 2 adversaries = -4
    assert turn([(fire(2), 0), (score(1), None), (score(1), None)], [0, 0, 0])["scores"] \
        == [-4, 1, 1]
    # no target, out of range, or a No! player: the card has no effect
    result = turn([(DOUBLE, None), (fire(3), 7), (NO, None), (DENY, 2)], [5, 5, 5, 5])
    assert result["scores"] == [5, 5, 5, 5]
    assert [s for _, _, s in statuses(result)] == ["no_target", "no_target", "effect",
                                                   "no_target"]


def test_clause_05_adversaries_for_bomb_and_fire():
    result = turn([(NO, None), (bomb(2), None), (fire(3), 3), (score(1), None)], [0, 0, 0, 0])
    # No! takes seat 0 out: Bomb! 2 hits seats 2, 3 (-2 each); Fire! 3 by seat 2 counts
    # adversaries 1 and 3 -> seat 3 loses 6; Score! 1 -> seat 3: -2 - 6 + 1 = -7
    assert result["scores"] == [0, 0, -2, -7]
    # a player with an empty roster slot still counts as an adversary
    result = turn([(fire(1), 1), None, (score(3), None)], [0, 0, 0], roster_counts=[1, 1, 1])
    assert result["scores"] == [0, -2, 3]


def test_clause_06_no_player_is_untargetable_and_throws_received_cards():
    result = turn([(NO, None), (DENY, 0), (DOUBLE, 0), (fire(2), 0)], [4, 4, 4, 4])
    assert result["scores"] == [4, 4, 4, 4]
    assert [s for _, _, s in statuses(result)] == ["effect", "no_target", "no_target",
                                                   "no_target"]
    # CW!: No! card goes to seat 1 (already resolved), Score! 6 to the pass player seat 2
    # (thrown), CW! to seat 3 (thrown), Fire! 3 to the No! player seat 0 (thrown).
    result = turn([(NO, None), (score(6), None), (CW, None), (fire(3), 1)], [0, 0, 0, 0])
    assert result["scores"] == [0, 0, 0, 0]
    assert statuses(result) == [("no", 1, "effect"), ("score-6", 2, "void"),
                                ("cw", 3, "effect"), ("fire-3", 0, "void")]


def test_clause_07_double_doubles_the_current_score():
    # negative scores double too; Score! 1 (8) comes after: -3 x 2 + 1 = -5
    assert turn([(score(1), None), (DOUBLE, 0)], [-3, 5])["scores"] == [-5, 5]
    # Brutal!: the running total is doubled
    assert turn([(DOUBLE, 0), (score(2), None)], [21, 30], "brutal")["scores"] == [42, 32]


def test_clause_08_deny():
    # equal priority: seat 0 denies seat 1 while seat 2 denies seat 0 -- both denials land,
    # seat 0's Deny! still resolves (simultaneous), seat 1's Score! 6 is thrown.
    result = turn([(DENY, 1), (score(6), None), (DENY, 0)], [0, 0, 0])
    assert result["scores"] == [0, 0, 0]
    assert [s for _, _, s in statuses(result)] == ["effect", "denied", "effect"]
    # the denied player applies nothing he receives later: seat 2 is denied (Score! 6
    # thrown), CW! hands him seat 1's Score! 4, which has no effect either.
    result = turn([(DENY, 2), (score(4), None), (score(6), None), (CW, None)], [0, 0, 0, 0])
    assert result["scores"] == [0, 0, 0, 0]
    assert statuses(result) == [("deny", 1, "effect"), ("score-4", 2, "denied"),
                                ("score-6", 2, "denied"), ("cw", 0, "effect")]


def test_clause_09_priority_override_changes_the_step():
    plays = [(score(1), None), (DOUBLE, 0)]
    assert turn(plays, [0, 0])["scores"] == [1, 0]                                # x2, +1
    assert turn(plays, [0, 0], {"priority_override": {"double": 9}})["scores"] == [2, 0]


def test_clause_10_equal_priority_is_simultaneous():
    plays = [(score(6), None), (DOUBLE, 0), (DOUBLE, 0)]
    # default: +6 at step 4, then both Doubles at step 5 compound: (5 + 6) x 4 = 44
    assert turn(plays, [5, 0, 0])["scores"] == [44, 0, 0]
    # all at priority 4: doubles act on the start-of-step score, the Score! is not doubled
    assert turn(plays, [5, 0, 0], {"priority_override": {"double": 4}})["scores"] \
        == [5 * 4 + 6, 0, 0]


def test_clause_11_cw_and_ccw_cancel():
    result = turn([(CW, None), (CCW, None), (score(3), None)], [0, 0, 0])
    assert result["scores"] == [0, 0, 3]
    assert statuses(result) == [("cw", 0, "cancelled"), ("ccw", 1, "cancelled"),
                                ("score-3", 2, "effect")]
    # a denied CCW! does not cancel: CW! moves Score! 6 from seat 3 to seat 0
    result = turn([(DENY, 1), (CCW, None), (CW, None), (score(6), None)], [0, 0, 0, 0])
    assert result["scores"] == [6, 0, 0, 0]
    assert "cards pass clockwise" in result["log"]


def test_clause_12_passing_cards():
    # CCW!: every card moves one seat counter-clockwise (seat s -> s - 1).
    plays = [(CCW, None), (score(3), 2), (DOUBLE, 4), (score(5), None), (bomb(1), None)]
    result = turn(plays, [0, 0, 10, 0, 0])
    # seat 0 (pass player) throws Score! 3; seat 4 throws the CCW! card; seat 2 now holds
    # Score! 5: 10 + 5 = 15; seat 1 holds Double! and uses his own target (seat 2): 30;
    # seat 3 holds Bomb! 1: seats 0, 1, 2, 4 lose 1.
    assert result["scores"] == [-1, -1, 29, 0, -1]
    assert statuses(result) == [("ccw", 4, "effect"), ("score-3", 0, "void"),
                                ("double", 1, "effect"), ("score-5", 2, "effect"),
                                ("bomb-1", 3, "effect")]


def test_clause_13_discarded_cards():
    plays = [(score(3), None), (DENY, 0)]
    assert turn(plays, [0, 0])["discarded"] == ["score-3", "deny"]
    assert turn(plays, [0, 0], "randomness")["discarded"] == []


def test_clause_14_bug_nullifies_the_phase_and_costs_20():
    rosters = [roster((score(6), None), (score(5), None), (score(4), None)),
               roster((score(6), None), (score(5), None)),
               roster((DOUBLE, 2), (score(3), None), (score(1), None))]
    result = E.resolve_round({"totals": [10, 10, 10]}, rosters, MODES["classic"])
    assert result["bug"]["responsible"] == [1]
    assert result["round_scores"] == [0, -20, 0]        # the -20 ignores the Classic! floor
    assert result["totals"] == [10, -10, 10]
    assert len(result["turns"]) == 1 and result["turns"][0]["effective"] == []
    assert {c["status"] for c in result["turns"][0]["cards"]} == {"nullified"}
    # Brutal!: the totals go back to the round start, then -20, never below 0
    result = E.resolve_round({"totals": [30, 5, 12]}, rosters, MODES["brutal"])
    assert result["totals"] == [30, 0, 12]


def test_clause_15_bug_responsibility():
    plays = [(score(1), None)] * 3
    # expected 3 cards before the first flip: the seats with 4 and 2 are responsible
    bug = turn(plays, [0, 0, 0], roster_counts=[4, 3, 2])["bug"]
    assert bug == {"responsible": [0, 2], "penalty": 20, "counts": [3, 2, 1]}
    # everybody equally wrong is no Bug!
    assert turn(plays, [0, 0, 0], roster_counts=[2, 2, 2])["bug"] is None
    # without counts, an empty slot before the last action turn is a Bug!
    assert turn([(score(1), None), None], [0, 0], turn=1)["bug"]["responsible"] == [1]
    assert turn([(score(1), None), None], [0, 0], turn=2)["bug"] is None


ROUND_ROSTERS = [roster((score(1), None), (score(2), None), (DOUBLE, 0)),
                 roster((fire(3), 0), (fire(3), 0), (fire(2), 0))]


def test_clause_16_classic_round_score_never_ends_below_zero():
    result = E.resolve_round({"totals": [7, 4]}, ROUND_ROSTERS, MODES["classic"])
    # seat 0: -3 + 1 = -2; -3 + 2 = -3; x2 = -6, -2 = -8 -> floored to 0
    assert result["turns"][-1]["scores"] == [-8, 0]
    assert result["round_scores"] == [0, 0] and result["totals"] == [7, 4]
    assert E.resolve_round({"totals": [7, 4]}, [roster((score(6), None))] * 2,
                           {})["totals"] == [13, 10]


def test_clause_17_brutal_scores_carry_over_and_never_go_below_zero():
    result = E.resolve_round({"totals": [2, 4]}, ROUND_ROSTERS, MODES["brutal"])
    # floor after every step: 2-3 -> 0, +1 = 1 | 1-3 -> 0, +2 = 2 | x2 = 4, -2 = 2
    assert [t["scores"] for t in result["turns"]] == [[1, 4], [2, 4], [2, 4]]
    assert result["totals"] == [2, 4] and result["round_scores"] == [0, 0]


def test_clause_18_new_order_resolves_by_dice():
    plays = [(score(2), None), (DOUBLE, 0)]
    assert turn(plays, [5, 0])["scores"] == [12, 0]                       # priority: x2, +2
    assert turn(plays, [5, 0], "new-order", dice=[1, 2])["scores"] == [14, 0]   # +2, x2
    assert turn(plays, [5, 0], "new-order", dice=[4, 4])["scores"] == [12, 0]   # same die
    # seat 1 (die 1) plays CW!: face-down cards move on, seat 0 (die 2) flips seat 2's
    # Score! 3; Score! 6 reaches seat 1, who has played already (thrown).
    result = turn([(score(6), None), (CW, None), (score(3), None)], [0, 0, 0], "new-order",
                  dice=[2, 1, 3])
    assert result["scores"] == [3, 0, 0]
    assert statuses(result) == [("score-6", 1, "void"), ("cw", 1, "effect"),
                                ("score-3", 0, "effect")]
    # a card reaching a player whose die came up already is thrown: seat 0 (die 1) has
    # played Score! 4 when CW! (die 2) hands him seat 3's Score! 5; seat 3 (die 4) then
    # flips seat 2's Score! 3.
    result = turn([(score(4), None), (CW, None), (score(3), None), (score(5), None)],
                  [0, 0, 0, 0], "new-order", dice=[1, 2, 3, 4])
    assert result["scores"] == [4, 0, 0, 3]
    assert statuses(result) == [("score-4", 0, "effect"), ("cw", 1, "effect"),
                                ("score-3", 3, "effect"), ("score-5", 0, "void")]
    with pytest.raises(ValueError, match="dice"):
        turn(plays, [0, 0], "new-order")


def test_clause_19_randomness_dice_pick_cards_that_stay():
    rosters = [roster((score(6), None), (DENY, 1), (score(3), None), (score(1), None),
                      (DOUBLE, 0), (fire(2), 1)),
               roster((score(5), None), (bomb(2), None), (CW, None), (score(4), None),
                      (NO, None), (fire(1), 0))]
    dice = [{"dice": [1, 1]}, {"dice": [2, 4]}, {"dice": [1, 6]}]
    result = E.resolve_round({"totals": [0, 0]}, rosters, MODES["randomness"], dice)
    # turn 1: +6 / +5; turn 2: Deny! on seat 1 voids his Score! 4; turn 3: Score! 6 again
    # (+6 = 12), Fire! 1 on seat 0 with 1 adversary (-1 = 11)
    assert [t["scores"] for t in result["turns"]] == [[6, 5], [6, 5], [11, 5]]
    assert result["totals"] == [11, 5] and result["bug"] is None
    # the denied card stays and is passed: CCW! hands seat 1's Score! 6 to seat 0
    plays = [(DENY, 1), (score(6), None), (CCW, None)]
    assert turn(plays, [0, 0, 0], "randomness")["scores"] == [6, 0, 0]
    assert turn(plays, [0, 0, 0])["scores"] == [0, 0, 0]   # Classic!: thrown at once
    with pytest.raises(ValueError, match="die"):
        E.resolve_round({"totals": [0, 0]}, rosters, MODES["randomness"], [{"dice": [7, 1]}])


def test_clause_20_duel_deck_and_ordering():
    types = [dict(c, count=n) for c, n in CARD_TYPES]
    assert len(E.build_deck(types)) == 42 and sum(c["count"] for c, _ in CARD_TYPES) == 42
    deck = E.build_deck(types, MODES["duel"])
    assert len(deck) == 19
    assert sorted({c["id"] for c in deck}) == ["deny", "double", "fire-1", "fire-2", "fire-3",
                                               "no", "score-1", "score-2", "score-3"]
    assert E.hand_size(MODES["duel"], 2) == 6 and E.hand_size({}, 2) == 15
    # Score! 2 now resolves with the other Score! cards, before Double!
    plays = [(score(2), None), (DOUBLE, 0)]
    assert turn(plays, [0, 0])["scores"] == [2, 0]
    assert turn(plays, [0, 0], "duel")["scores"] == [4, 0]


def test_clause_21_setup_players_and_seating():
    assert [E.hand_size({}, n) for n in range(2, 7)] == [15, 12, 9, 8, 7]
    E.validate_setup(MODES["teamwork"], 4, [0, 1, 0, 1])
    E.validate_setup(MODES["teamscore"], 3, [0, 1, 1])      # one side-by-side pair is forced
    E.validate_setup(MODES["decking"], 12)
    with pytest.raises(ValueError, match="side by side"):
        E.validate_setup(MODES["teamwork"], 4, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="outside"):
        E.validate_setup(MODES["classic"], 7)
    with pytest.raises(ValueError, match="outside"):
        E.validate_setup(MODES["duel"], 3)


def test_clause_22_first_to_50_or_best_after_8_rounds():
    assert E.game_status([40, 49, 12], 5, {})["finished"] is False
    status = E.game_status([55, 60, 20], 3, {})
    assert (status["finished"], status["winner"], status["reason"]) == (True, 1, "target")
    status = E.game_status([40, 49, 12], 8, {})
    assert (status["winner"], status["reason"]) == (1, "rounds")


def test_clause_23_ties_play_one_more_round():
    status = E.game_status([52, 52, 10], 6, {})
    assert status["finished"] is False and status["tiebreak"] == [0, 1]
    # only the tied players play the extra round; seat 2 cannot win any more
    status = E.game_status([60, 58, 70], 7, {}, contenders=[0, 1])
    assert (status["winner"], status["reason"]) == (0, "target")
    status = E.game_status([45, 45, 10], 9, {}, contenders=[0, 1])
    assert status["tiebreak"] == [0, 1]
    # Teamwork!: tied team-mates win together
    status = E.game_status([52, 10, 52, 30], 4, MODES["teamwork"], teams=[0, 1, 0, 1])
    assert (status["finished"], status["winner"], status["winning_team"]) == (True, None, 0)


def test_clause_24_teamscore_pools_team_scores():
    teams = [0, 1, 0, 1]
    plays = [(score(1), None), (bomb(2), None), (score(5), None), (fire(3), 2)]
    result = turn(plays, [10, 10], "teamscore", teams=teams)
    # team 0: 10 + 5 = 15; Bomb! 2 x 2 opponents = -4 -> 11; Fire! 3 x 2 = -6 -> 5; +1 = 6
    assert result["scores"] == [6, 10] and result["deltas"] == [-4, 0]
    # No! on seat 0: the team still loses, but only for seat 2 (team size - 1)
    plays[0] = (NO, None)
    assert turn(plays, [10, 10], "teamscore", teams=teams)["scores"] == [10, 10]
    # Double! doubles the team score
    assert turn([(DOUBLE, 2), (score(3), None)], [7, 0], "teamscore", teams=[0, 1])["scores"] \
        == [7, 3]
    assert turn([(DOUBLE, 0), (score(3), None)], [7, 0], "teamscore", teams=[0, 1])["scores"] \
        == [14, 3]
    assert E.entity_target(MODES["teamscore"], 0, teams) == 200
    status = E.game_status([200, 150], 5, MODES["teamscore"], teams)
    assert (status["winner"], status["winning_team"]) == (0, 0)
    assert E.game_status([199, 150], 5, MODES["teamscore"], teams)["finished"] is False


def test_clause_25_teamwork_spares_team_mates():
    teams = [0, 1, 0, 1]
    result = turn([(score(1), None), (bomb(2), None), (score(1), None), (fire(1), 0)],
                  [0, 0, 0, 0], "teamwork", teams=teams)
    # Bomb! 2 (seat 1) hits seats 0, 2 only; Fire! 1 (seat 3) on seat 0: 2 adversaries
    assert result["scores"] == [-2 - 2 + 1, 0, -2 + 1, 0]
    status = E.game_status([40, 55, 20, 30], 3, MODES["teamwork"], teams)
    assert (status["winner"], status["winning_team"]) == (1, 1)


def test_clause_26_scorlitaire_flips():
    mode, state, seen = MODES["scorlitaire"], {"score": 0, "last_score": 0}, []
    for c in (score(5), DOUBLE, fire(3), bomb(2), DENY, CW, NO):
        state = E.solitaire_flip(state, c, mode)
        seen.append((state["score"], state["outcome"], state["status"]))
    assert seen == [(5, "score", "playing"), (10, "score", "playing"), (7, "lose", "playing"),
                    (5, "lose", "playing"), (5, "block", "playing"),
                    (5, "reshuffle", "playing"), (5, "lost", "lost")]
    assert E.solitaire_flip({"score": 60, "last_score": 0}, score(6), mode)["status"] == "won"
    reshuffled = E.solitaire_reshuffle([score(1), score(2)], [score(3)], CW, seed=7)
    assert sorted(c["id"] for c in reshuffled["face_down"]) == ["score-1", "score-2", "score-3"]
    assert reshuffled["discarded"] == [CW]


def test_clause_27_score_against_precedence():
    # class 2 beats Score!; own Fire! 3 outranks the virtual Bomb! 1 and scores +3
    result = E.score_against_turn(0, fire(3), [score(6), score(2), bomb(1)])
    assert result["applied"] == {"card": "fire-3", "source": "roster"} and result["delta"] == 3
    assert result["discarded"] == ["score-6", "score-2", "bomb-1"]
    # Deny! in the column: nothing happens this action turn
    assert E.score_against_turn(4, score(4), [bomb(2), DENY, score(6)])["delta"] == 0
    # equal class and strength: the virtual card wins, Bomb! 2 removes 2
    assert E.score_against_turn(5, bomb(2), [fire(2)])["delta"] == -2
    # virtual Score! adds; a virtual Double! worth 10 beats Score! 5
    assert E.score_against_turn(10, score(3), [score(5), score(1), DOUBLE])["delta"] == 10
    rnd = E.score_against_round(20, [score(1), score(2), score(3)],
                                [[fire(3)], [bomb(3)], [score(1)]], MODES["score-against"])
    # -3, -3, then Score! 3 vs Score! 1 -> +3: -3 -> floored to 0
    assert (rnd["round_score"], rnd["total"]) == (0, 20)


def test_clause_28_solo_goals():
    mode = MODES["score-against"]
    assert E.game_status([50], 6, mode)["winner"] == 0
    status = E.game_status([49], 8, mode)
    assert (status["finished"], status["winner"], status["reason"]) == (True, None, "lost")
    assert E.game_status([64], 30, MODES["scorlitaire"])["finished"] is False
    assert E.game_status([65], 30, MODES["scorliroad"])["winner"] == 0


def test_clause_29_decking_resolves_like_classic():
    opts = E.mode_options(MODES["decking"])
    assert (opts["players_max"], opts["deck_per_player"], opts["draw_per_slot"]) == (False, True, 8)
    rosters = [roster((score(4), None), (fire(1), 1)), roster((DOUBLE, 1), (score(2), None))]
    assert E.resolve_round({"totals": [0, 0]}, rosters, MODES["decking"]) == \
        E.resolve_round({"totals": [0, 0]}, rosters, MODES["classic"])


def test_clause_30_randomness_is_explicit_and_reproducible():
    # Park-Miller: 1 -> 48271 (48271 % 3 = 1: swap 2<->1) -> 182605794 (even: swap 1<->0)
    assert E.shuffle(["a", "b", "c"], 1) == ["c", "a", "b"]
    items = list(range(20))
    assert E.shuffle(items, 99) == E.shuffle(items, 99) != E.shuffle(items, 100)
    assert sorted(E.shuffle(items, 99)) == items
    plays = [(score(6), None), (CW, None), (fire(2), 0)]
    assert turn(plays, [0, 0, 0]) == turn(plays, [0, 0, 0])
