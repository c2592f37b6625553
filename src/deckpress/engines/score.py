"""Rules engine for SCORE! (Not So Simple) -- the Python reference implementation.

Everything here is a pure function over plain data (dicts, lists, ints, strings);
randomness only enters through explicit dice lists or an explicit integer seed.
tts/score/engine.lua is a line-by-line port that must return identical results
(tests/test_score_differential.py).  The rules interpretations implemented here
are the numbered clauses of docs/rules/score.md; comments cite them as "C<n>".

Seats are 0-based indices in clockwise order.  A card is a dict such as
    {"id": "fire-2", "name": "Fire! 2", "priority": 7,
     "effect": {"action": "lose_per_adversary", "amount": 2}}
"""

ACTIONS = ("score", "double", "lose_per_adversary", "adversaries_lose", "deny", "pass", "protect")
TARGETED = ("double", "lose_per_adversary", "deny")
AMOUNT_ACTIONS = ("score", "lose_per_adversary", "adversaries_lose")

# Cards dealt per player by player count ("Get ready!"), unless the mode sets hand_size.
HAND_SIZES = {2: 15, 3: 12, 4: 9, 5: 8, 6: 7}

# Mode options: key -> (kind, default).  Defaults are Classic!.  Kinds:
#   int / int? (nullable) / bool / ids (list of card ids) / priorities ({card id: number})
#   and tuples of allowed values (enums; None allowed when listed).
MODE_OPTIONS = {
    "players_min": ("int", 2),
    "players_max": ("int?", 6),
    "deck_remove": ("ids", []),
    "deck_per_player": ("bool", False),
    "hand_size": ("int?", None),
    "draw_per_slot": ("int?", None),
    "roster_size": ("int", 3),
    "action_turns": ("int?", None),
    "pick": (("leftmost", "dice"), "leftmost"),
    "order": (("priority", "dice"), "priority"),
    "priority_override": ("priorities", {}),
    "discard": ("bool", True),
    "deny_discards": ("bool", True),
    "teams": ((None, "individual", "pooled"), None),
    "separate_teams": ("bool", False),
    "carry_over": ("bool", False),
    "floor": ("int?", 0),
    "floor_applies": (("round_end", "always"), "round_end"),
    "bug_penalty": ("int", 20),
    "target": ("int", 50),
    "target_per_player": ("int?", None),
    "max_rounds": ("int?", 8),
    "solo": ((None, "scorlitaire", "scorliroad", "score-against"), None),
    "virtual_rows": ("int", 0),
}

_PRNG_MODULUS = 2147483647  # Park-Miller "minimal standard" generator (exact in Lua doubles)
_PRNG_MULTIPLIER = 48271


# ---------------------------------------------------------------------------
# Data validation


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_option(key, kind, value):
    if isinstance(kind, tuple):
        ok = value in kind
    elif kind == "int":
        ok = _is_int(value)
    elif kind == "int?":
        ok = value is None or _is_int(value)
    elif kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "ids":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    else:  # priorities
        ok = isinstance(value, dict) and all(
            isinstance(k, str) and _is_number(v) for k, v in value.items())
    if not ok:
        raise ValueError(f"mode option {key!r}: invalid value {value!r} (expected {kind})")


def mode_options(options=None):
    """Validate a mode options dict and return a new dict with every option filled in.

    Missing keys take their Classic! default; an unknown key or a badly typed value
    raises ValueError.  Idempotent: a full options dict validates to an equal dict.
    """
    options = options or {}
    unknown = sorted(k for k in options if k not in MODE_OPTIONS)
    if unknown:
        raise ValueError(f"unknown mode option {unknown[0]!r}; known options: "
                         + ", ".join(sorted(MODE_OPTIONS)))
    full = {}
    for key, (kind, default) in MODE_OPTIONS.items():
        value = options.get(key, default)
        _check_option(key, kind, value)
        full[key] = list(value) if isinstance(value, list) else (
            dict(value) if isinstance(value, dict) else value)
    return full


def validate_card(card):
    """Raise ValueError unless `card` is a well-formed card dict; return it unchanged."""
    if not isinstance(card, dict):
        raise ValueError(f"card must be a dict, got {card!r}")
    for key in ("id", "name"):
        if not isinstance(card.get(key), str):
            raise ValueError(f"card {card.get('id')!r}: {key!r} must be a string")
    if not _is_number(card.get("priority")):
        raise ValueError(f"card {card['id']!r}: 'priority' must be a number")
    effect = card.get("effect")
    if not isinstance(effect, dict) or effect.get("action") not in ACTIONS:
        raise ValueError(f"card {card['id']!r}: effect.action must be one of {', '.join(ACTIONS)}")
    action = effect["action"]
    if action in AMOUNT_ACTIONS and not (_is_int(effect.get("amount")) and effect["amount"] >= 0):
        raise ValueError(f"card {card['id']!r}: {action} needs a non-negative integer amount")
    if action == "pass" and effect.get("direction") not in ("cw", "ccw"):
        raise ValueError(f"card {card['id']!r}: pass needs direction 'cw' or 'ccw'")
    return card


def build_deck(cards, mode=None):
    """Expand card dicts (each with an optional integer "count", default 1) into a deck
    list, leaving out the ids listed in the mode's deck_remove (C20)."""
    removed = mode_options(mode)["deck_remove"]
    deck = []
    for card in cards:
        validate_card(card)
        if card["id"] not in removed:
            deck.extend(dict(card) for _ in range(card.get("count", 1)))
    return deck


def hand_size(mode, n_players):
    """Cards dealt to each player: the mode's hand_size, else the Get ready! table."""
    opts = mode_options(mode)
    if opts["hand_size"] is not None:
        return opts["hand_size"]
    if n_players not in HAND_SIZES:
        raise ValueError(f"no hand size for {n_players} players; set hand_size in the mode")
    return HAND_SIZES[n_players]


def validate_setup(mode, n_players, teams=None):
    """Raise ValueError if the player count or the team seating breaks the mode (C21)."""
    opts = mode_options(mode)
    if n_players < opts["players_min"] or (
            opts["players_max"] is not None and n_players > opts["players_max"]):
        raise ValueError(f"{n_players} players is outside this mode's "
                         f"{opts['players_min']}..{opts['players_max']}")
    if opts["teams"] is None:
        return
    if teams is None or len(teams) != n_players or any(t not in (0, 1) for t in teams):
        raise ValueError("team modes need a team (0 or 1) for every seat")
    if opts["separate_teams"]:
        adjacent = sum(1 for s in range(n_players)
                       if n_players > 1 and teams[s] == teams[(s + 1) % n_players])
        least = abs(teams.count(0) - teams.count(1))
        if adjacent > least:
            raise ValueError(f"team members sit side by side {adjacent} times; "
                             f"this team split allows {least}")


# ---------------------------------------------------------------------------
# Deterministic randomness


def _prng_next(state):
    return state * _PRNG_MULTIPLIER % _PRNG_MODULUS


def _prng_seed(seed):
    state = seed % _PRNG_MODULUS
    return state if state > 0 else state + _PRNG_MODULUS - 1


def shuffle(items, seed):
    """Return a shuffled copy of `items` (Fisher-Yates driven by the Park-Miller PRNG)."""
    result = list(items)
    state = _prng_seed(seed)
    for i in range(len(result) - 1, 0, -1):
        state = _prng_next(state)
        j = state % (i + 1)
        result[i], result[j] = result[j], result[i]
    return result


# ---------------------------------------------------------------------------
# Action turn


def _fmt(number):
    """Numbers in log lines: integers without a decimal point (same text as the Lua port)."""
    return str(int(number)) if number == int(number) else repr(float(number))


def _seat_list(seats):
    return ", ".join(str(s) for s in seats) if seats else "nobody"


def _bug_check(state, plays, opts):
    """C14/C15: compare the roster sizes left after this action turn; None = no Bug!."""
    turn = state.get("turn", 0)
    if opts["discard"]:
        expected_before = opts["roster_size"] - turn
        counts = state.get("roster_counts") or [
            expected_before if play is not None else 0 for play in plays]
        after = [max(c - 1, 0) for c in counts]
        expected = max(expected_before - 1, 0)
    else:
        counts = state.get("roster_counts") or [opts["roster_size"]] * len(plays)
        after = list(counts)
        expected = opts["roster_size"]
    if len(set(after)) <= 1:
        return None
    responsible = [s for s, c in enumerate(after) if c != expected]
    return {"responsible": responsible, "penalty": opts["bug_penalty"], "counts": after}


def resolve_action_turn(state, plays, mode):
    """Resolve one action turn.

    state: {"scores": [..] (per seat, or per team when teams == "pooled"),
            "teams": [team per seat] (team modes), "dice": [die per seat] (order == "dice"),
            "roster_counts": [cards in each roster before this flip] (optional),
            "turn": 0-based action turn of the round (optional, default 0)}
    plays: one entry per seat: {"card": card dict, "target": seat or None} or None.
    Returns {"deltas", "scores", "cards", "effective", "discarded", "bug", "log"}
    (shapes in docs/rules/score.md).
    """
    opts = mode_options(mode)
    n = len(plays)
    teams = state.get("teams")
    team_rules = opts["teams"] is not None
    pooled = opts["teams"] == "pooled"
    if team_rules and (teams is None or len(teams) != n):
        raise ValueError("team modes need state['teams'] with one team per seat")
    start = list(state["scores"])
    entity_count = (max(teams) + 1) if pooled else n
    if len(start) != entity_count:
        raise ValueError(f"state['scores'] needs {entity_count} entries, got {len(start)}")
    dice = state.get("dice")
    if opts["order"] == "dice" and (dice is None or len(dice) != n):
        raise ValueError("order 'dice' needs state['dice'] with one die per seat")

    def entity(seat):
        return teams[seat] if pooled else seat

    log = []
    cards = []        # one report per flipped card, in seat order
    live = [None] * n  # index into `cards` of the card lying in front of each seat
    targets = [None] * n
    for seat, play in enumerate(plays):
        if play is None:
            continue
        card = validate_card(play["card"])
        targets[seat] = play.get("target")
        live[seat] = len(cards)
        cards.append({"card": card["id"], "seat": seat, "holder": seat, "status": None})
    played = [plays[c["seat"]]["card"] for c in cards]
    discarded = [c["card"] for c in cards] if opts["discard"] else []

    bug = _bug_check(state, plays, opts)
    if bug is not None:  # C14: the whole SCORE! phase is nullified; nothing resolves
        for report in cards:
            report["status"] = "nullified"
        log.append(f"Bug! roster sizes after this action turn: {_seat_list(bug['counts'])}; "
                   f"responsible seat(s) {_seat_list(bug['responsible'])} score -{bug['penalty']}")
        return {"deltas": [0] * entity_count, "scores": start, "cards": cards,
                "effective": [], "discarded": discarded, "bug": bug, "log": log}

    def priority(index):
        return opts["priority_override"].get(cards[index]["card"], played[index]["priority"])

    def key(index, holder):  # C9: the step at which a card resolves
        return dice[holder] if opts["order"] == "dice" else priority(index)

    scores = list(start)
    protected = [False] * n
    denied = [False] * n
    effective = []

    def valid_target(seat, snapshot_protected):  # C4
        target = targets[seat]
        return _is_int(target) and 0 <= target < n and not snapshot_protected[target]

    def adversaries(seat, snapshot_protected):  # C5
        return [a for a in range(n) if a != seat and not snapshot_protected[a]
                and not (team_rules and teams[a] == teams[seat])]

    def pass_blocked(index, snapshot_denied):  # C11: an opposite pass cancels this one
        direction = played[index]["effect"]["direction"]
        for other, report in enumerate(cards):
            effect = played[other]["effect"]
            if other == index or effect["action"] != "pass" or effect["direction"] == direction:
                continue
            if report["status"] in ("effect", "cancelled"):
                return True
            if report["status"] is None and live[report["holder"]] == other \
                    and not snapshot_denied[report["holder"]]:
                return True
        return False

    while True:
        # seats whose card lying in front of them has not resolved yet
        waiting = [s for s in range(n) if live[s] is not None and cards[live[s]]["status"] is None]
        if not waiting:
            break
        step = min(key(live[s], s) for s in waiting)
        acting = [live[s] for s in waiting if key(live[s], s) == step]
        snap_protected, snap_denied = list(protected), list(denied)
        doubles = [0] * entity_count
        adds = [0] * entity_count
        shift = 0
        pass_players = []
        pass_cards = []
        for i in acting:
            report, card = cards[i], played[i]
            holder, effect = report["holder"], card["effect"]
            action, amount = effect["action"], effect.get("amount", 0)
            who = f"seat {holder} plays {card['name']}"
            if snap_denied[holder]:  # C8: a denied player applies nothing this turn
                report["status"] = "denied"
                log.append(f"seat {holder} is denied: {card['name']} has no effect")
                continue
            if action in TARGETED and not valid_target(holder, snap_protected):
                report["status"] = "no_target"  # C4
                log.append(f"{who} without a valid target: no effect")
                continue
            if action == "pass" and pass_blocked(i, snap_denied):
                report["status"] = "cancelled"
                log.append(f"{who}: cancelled by the opposite pass")
                continue
            report["status"] = "effect"
            effective.append(report["card"])
            target = targets[holder]
            if action == "protect":
                protected[holder] = True
                log.append(f"{who}: protected for this action turn")
            elif action == "deny":
                denied[target] = True
                log.append(f"{who} on seat {target}")
            elif action == "pass":
                shift += 1 if effect["direction"] == "cw" else -1
                pass_players.append(holder)
                pass_cards.append(i)
                log.append(f"{who}")
            elif action == "score":
                adds[entity(holder)] += amount
                log.append(f"{who}: +{amount}")
            elif action == "double":
                doubles[entity(target)] += 1
                log.append(f"{who} on seat {target}")
            elif action == "adversaries_lose":
                hit = adversaries(holder, snap_protected)
                for seat in hit:
                    adds[entity(seat)] -= amount
                log.append(f"{who}: seat(s) {_seat_list(hit)} lose {amount}")
            else:  # lose_per_adversary
                loss = amount * len(adversaries(holder, snap_protected))
                adds[entity(target)] -= loss
                log.append(f"{who} on seat {target}: -{loss}")

        # C8: denied players throw the card lying in front of them (unless deny_discards is off)
        for seat in range(n):
            if denied[seat] and not snap_denied[seat] and live[seat] is not None:
                index = live[seat]
                if opts["deny_discards"]:
                    live[seat] = None
                    if cards[index]["status"] is None:
                        cards[index]["status"] = "denied"
                        log.append(f"seat {seat} throws {played[index]['name']} (denied)")

        # C10: simultaneous score changes -- doubles compound on the start-of-step score,
        # additive changes of the same step are added afterwards.
        for e in range(entity_count):
            scores[e] = scores[e] * 2 ** doubles[e] + adds[e]
            if opts["floor_applies"] == "always" and opts["floor"] is not None:
                scores[e] = max(scores[e], opts["floor"])  # C17

        if opts["order"] == "dice":  # C18: resolved cards leave the table at once
            for i in acting:
                live[cards[i]["holder"]] = None

        if shift % n != 0:  # C12: everyone gives the card in front of him
            moved = [None] * n
            for seat in range(n):
                if live[seat] is not None:
                    moved[(seat + shift) % n] = live[seat]
            live = moved
            log.append("cards pass " + ("clockwise" if shift > 0 else "counter-clockwise"))
            for seat in range(n):
                index = live[seat]
                if index is None:
                    continue
                cards[index]["holder"] = seat
                status = cards[index]["status"]
                # C12: the pass player, the pass card's receiver and the No! player throw
                if seat in pass_players:
                    reason = "pass player"
                elif index in pass_cards:
                    reason = "pass card"
                elif protected[seat]:
                    reason = "protected player"
                elif status is None and key(index, seat) <= step:
                    reason = "too late"  # C18: this player has already had his turn
                else:
                    continue
                live[seat] = None
                if status is None:
                    cards[index]["status"] = "void"
                log.append(f"seat {seat} throws {played[index]['name']} ({reason})")

    deltas = [scores[e] - start[e] for e in range(entity_count)]
    log.append("scores: " + _seat_list([_fmt(s) for s in scores]))
    return {"deltas": deltas, "scores": scores, "cards": cards, "effective": effective,
            "discarded": discarded, "bug": None, "log": log}


# ---------------------------------------------------------------------------
# Round and game


def _entity_count(opts, n_seats, teams):
    return (max(teams) + 1) if opts["teams"] == "pooled" else n_seats


def resolve_round(state, rosters, mode, turn_inputs=None):
    """Play the SCORE! phase of one round.

    state: {"totals": [..] per seat (per team when pooled), "teams": [..] (team modes)}
    rosters: per seat, a list of plays {"card": .., "target": ..}, leftmost first.
    turn_inputs: optional list, one per action turn, of {"dice": [..], "targets": [..]};
      dice drive order == "dice" and pick == "dice"; targets override the roster targets.
    Returns {"turns": [action turn results], "round_scores": [..], "totals": [..],
             "bug": None or bug dict, "log": [..]}.
    """
    opts = mode_options(mode)
    n = len(rosters)
    teams = state.get("teams")
    totals = list(state["totals"])
    count = _entity_count(opts, n, teams)
    start = list(totals) if opts["carry_over"] else [0] * count  # C16/C17
    running = list(start)
    turn_inputs = turn_inputs or []
    if opts["action_turns"] is not None:
        n_turns = opts["action_turns"]
    else:
        n_turns = max((len(r) for r in rosters), default=0)
    turns, log, bug = [], [], None
    for t in range(n_turns):
        inputs = turn_inputs[t] if t < len(turn_inputs) else {}
        dice = inputs.get("dice")
        plays, counts = [], []
        for seat, roster in enumerate(rosters):
            if opts["pick"] == "dice":  # C19: the die picks the roster card
                if dice is None or not (_is_int(dice[seat]) and 1 <= dice[seat] <= len(roster)):
                    raise ValueError(
                        f"action turn {t}: seat {seat} needs a die in 1..{len(roster)}")
                play = roster[dice[seat] - 1]
                counts.append(len(roster))
            else:
                play = roster[t] if t < len(roster) else None
                counts.append(max(len(roster) - t, 0))
            if play is not None and inputs.get("targets") is not None:
                play = {"card": play["card"], "target": inputs["targets"][seat]}
            plays.append(play)
        turn_state = {"scores": running, "roster_counts": counts, "turn": t}
        if teams is not None:
            turn_state["teams"] = teams
        if dice is not None:
            turn_state["dice"] = dice
        result = resolve_action_turn(turn_state, plays, opts)
        turns.append(result)
        log.append(f"action turn {t + 1}")
        log.extend(result["log"])
        if result["bug"] is not None:
            bug = result["bug"]
            break
        running = result["scores"]

    floor, always = opts["floor"], opts["floor_applies"] == "always"
    if bug is not None:  # C14: everything of this SCORE! phase is void, then the penalty
        penalty = [0] * count
        for seat in bug["responsible"]:
            penalty[teams[seat] if opts["teams"] == "pooled" else seat] -= bug["penalty"]
        running = [start[e] + penalty[e] for e in range(count)]
        if always and floor is not None:
            running = [max(v, floor) for v in running]
    elif floor is not None:
        running = [max(v, floor) for v in running]  # C16: a round score never ends below 0
    if opts["carry_over"]:
        new_totals = running
    else:
        new_totals = [totals[e] + running[e] for e in range(count)]
    round_scores = [new_totals[e] - totals[e] for e in range(count)]
    log.append("round scores: " + _seat_list([_fmt(v) for v in round_scores]))
    return {"turns": turns, "round_scores": round_scores, "totals": new_totals,
            "bug": bug, "log": log}


def entity_target(mode, entity, teams=None):
    """Points needed to win for a seat (or a team when pooled) (C22/C24)."""
    opts = mode_options(mode)
    if opts["target_per_player"] is None:
        return opts["target"]
    size = teams.count(entity) if opts["teams"] == "pooled" else 1
    return opts["target_per_player"] * size


def game_status(totals, rounds_played, mode, teams=None, contenders=None):
    """Decide whether the game is over (C22, C23, C24, C28).

    totals: per seat (per team when pooled).  contenders: entities still in contention
    after a tie-break round (None = everybody).  Returns {"finished", "winner",
    "winning_team", "tiebreak" (entities to play one more round), "reason"}.
    """
    opts = mode_options(mode)
    eligible = list(range(len(totals))) if contenders is None else list(contenders)
    reached = [e for e in eligible if totals[e] >= entity_target(opts, e, teams)]
    status = {"finished": False, "winner": None, "winning_team": None,
              "tiebreak": [], "reason": None}
    if opts["solo"] is not None:  # C28: solo games are won or lost, never tied
        if reached:
            status.update(finished=True, winner=0, reason="target")
        elif opts["max_rounds"] is not None and rounds_played >= opts["max_rounds"]:
            status.update(finished=True, reason="lost")
        return status
    out_of_rounds = opts["max_rounds"] is not None and rounds_played >= opts["max_rounds"]
    if not reached and not out_of_rounds and contenders is None:
        return status
    pool = reached or eligible
    best = max(totals[e] for e in pool)
    leaders = [e for e in pool if totals[e] == best]
    reason = "target" if reached else ("tiebreak" if contenders is not None else "rounds")
    if len(leaders) == 1:
        status.update(finished=True, winner=leaders[0], reason=reason)
    elif opts["teams"] == "individual" and len({teams[e] for e in leaders}) == 1:
        status.update(finished=True, reason=reason)  # C23: tied team-mates win together
    else:
        status["tiebreak"] = leaders
        return status
    if opts["teams"] == "pooled":
        status["winning_team"] = status["winner"]
    elif opts["teams"] == "individual":
        status["winning_team"] = teams[leaders[0]]
    return status


# ---------------------------------------------------------------------------
# Solo modes


def solitaire_flip(state, card, mode):
    """Scorlitaire!/Scorliroad!: apply one flipped card (C26).

    state: {"score": int, "last_score": amount of the last flipped Score! card (0 if none)}
    Returns {"score", "last_score", "delta", "outcome", "status"} where outcome is
    "score" | "lose" | "block" (Deny!: cover a card) | "reshuffle" (CW!/CCW!) | "lost" (No!)
    and status is "playing" | "won" | "lost".
    """
    opts = mode_options(mode)
    validate_card(card)
    effect = card["effect"]
    action, amount = effect["action"], effect.get("amount", 0)
    score, last = state["score"], state.get("last_score", 0)
    delta, outcome = 0, "score"
    if action == "score":
        delta, last = amount, amount
    elif action == "double":
        delta = last
    elif action in ("lose_per_adversary", "adversaries_lose"):
        delta, outcome = -amount, "lose"
    elif action == "deny":
        outcome = "block"
    elif action == "pass":
        outcome = "reshuffle"
    else:  # protect
        outcome = "lost"
    score += delta
    if outcome == "lost":
        status = "lost"
    else:
        status = "won" if score >= opts["target"] else "playing"
    return {"score": score, "last_score": last, "delta": delta, "outcome": outcome,
            "status": status}


def solitaire_reshuffle(face_down, discarded, flipped, seed):
    """Scorlitaire! CW!/CCW!: gather the face-down cards (Deny!-covered ones included) and
    the discard pile, shuffle them with `seed`; the flipped pass card is discarded after."""
    return {"face_down": shuffle(list(face_down) + list(discarded), seed),
            "discarded": [flipped]}


def _against_rank(card, source, score):
    """Score Against! precedence (C27): (class, strength, virtual-before-own)."""
    effect = card["effect"]
    action = effect["action"]
    if action in ("protect", "deny", "pass"):
        return (3, 0, source == "virtual")
    if action in ("lose_per_adversary", "adversaries_lose"):
        return (2, effect["amount"], source == "virtual")
    gain = effect["amount"] if action == "score" else max(score, 0)
    return (1, gain, source == "virtual")


def score_against_turn(score, own_card, column):
    """Score Against!: resolve your flipped roster card against one virtual column.

    score: your score of the round so far; own_card: your card; column: the virtual
    roster cards of this column (listed top to bottom).  Returns {"applied": {"card": id,
    "source": "roster"|"virtual"}, "delta", "score", "discarded": [ids of the others]}.
    """
    candidates = [(own_card, "roster")] + [(c, "virtual") for c in column]
    best, winner = None, 0
    for index, (card, source) in enumerate(candidates):
        validate_card(card)
        rank = _against_rank(card, source, score)
        if best is None or rank > best:
            best, winner = rank, index
    rank = best
    card, source = candidates[winner]
    effect = card["effect"]
    action = effect["action"]
    if rank[0] == 3:
        delta = 0
    elif rank[0] == 2:
        delta = effect["amount"] if source == "roster" else -effect["amount"]
    else:
        delta = effect["amount"] if action == "score" else score
    discarded = [c["id"] for i, (c, _) in enumerate(candidates) if i != winner]
    return {"applied": {"card": card["id"], "source": source}, "delta": delta,
            "score": score + delta, "discarded": discarded}


def score_against_round(total, roster, columns, mode):
    """Score Against!: play a round (roster cards left to right against the virtual
    columns in flip order); the round score is floored and added to `total`."""
    opts = mode_options(mode)
    score, turns = 0, []
    for own_card, column in zip(roster, columns):
        turn = score_against_turn(score, own_card, column)
        turns.append(turn)
        score = turn["score"]
    if opts["floor"] is not None:
        score = max(score, opts["floor"])
    return {"turns": turns, "round_score": score, "total": total + score}
