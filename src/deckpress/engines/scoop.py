"""Scoop scoring ("Count") -- the Python reference implementation.

A pure function over plain data: tts/scoop/scoring.lua is a line-by-line port that must
return identical results (tests/test_games_lua.py runs both on thousands of random deals).
The rules interpretations are the numbered clauses of docs/rules/scoop.md ("C<n>").

A card is {"rank": "Q", "suit": "hearts"}; ranks are A, 2-10, J, Q, K (C1).
A player is {"go_pile": [cards], "game_pile": [cards], "name": optional str}.
Players are numbered from 1 in the order given (C12).
"""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACES = ("J", "Q", "K")

# C2-C6: points per rank in each pile (the same table as decks/scoop.yaml setup.options.scoring).
SCORING = {
    "go": {"A": 1, "2": -1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 1, "9": 1, "10": 2,
           "J": 0, "Q": 0, "K": 0},
    "game": {"A": 1, "2": -1, "3": 0, "4": 0, "5": 0, "6": 0, "7": 0, "8": 0, "9": 0, "10": 0,
             "J": 1, "Q": 1, "K": 1},
}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_rank(rank):
    """C1: "A", "2".."10", "J", "Q", "K"; whole numbers 2-10 and lower case are accepted."""
    if _is_int(rank):
        rank = "%d" % rank
    if not isinstance(rank, str):
        raise ValueError("a card's rank must be A, 2-10, J, Q or K")
    rank = rank.upper()
    if rank not in RANKS:
        raise ValueError("unknown rank %r: use A, 2-10, J, Q or K" % rank)
    return rank


def check_scoring(scoring):
    """C13: a scoring table must give whole points for every rank in both piles."""
    if not isinstance(scoring, dict):
        raise ValueError("scoring must be a table {go = {...}, game = {...}}")
    for pile in ("go", "game"):
        table = scoring.get(pile)
        if not isinstance(table, dict):
            raise ValueError("scoring." + pile + " must be a table of points by rank")
        for rank in RANKS:
            if not _is_int(table.get(rank)):
                raise ValueError("scoring.%s.%s must be a whole number" % (pile, rank))
    return scoring


def _points(n):
    return "%d point%s" % (n, "" if n in (1, -1) else "s")


def _faces(n):
    return "%d face card%s" % (n, "" if n == 1 else "s")


def _names(names):
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _pile(player, key, number):
    pile = player.get(key)
    if pile is None:
        pile = []
    if not isinstance(pile, list):
        raise ValueError("player %d: %s must be a list of cards" % (number, key))
    ranks = []
    for card in pile:
        if not isinstance(card, dict):
            raise ValueError("player %d: every card in %s must be a table {rank, suit}" % (number, key))
        ranks.append(normalize_rank(card.get("rank")))
    return ranks


def score(players, scoring=None):
    """Score one game of Scoop.  Returns
    {"players": [{"name", "go_points", "game_points", "go_faces", "game_faces", "faces",
                  "winner", "score"}],
     "winners": [player numbers, from 1], "decided_by": "go_pile" | "face_cards" | "shared",
     "explanation": str}"""
    if scoring is None:
        scoring = SCORING
    check_scoring(scoring)
    if not isinstance(players, list) or not players:
        raise ValueError("Scoop needs at least one player to score")
    rows = []
    for number, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            raise ValueError("player %d must be a table {go_pile, game_pile}" % number)
        name = player.get("name")
        if not isinstance(name, str) or name == "":
            name = "Player %d" % number
        go = _pile(player, "go_pile", number)
        game = _pile(player, "game_pile", number)
        go_faces = sum(1 for r in go if r in FACES)
        game_faces = sum(1 for r in game if r in FACES)
        rows.append({
            "name": name,
            "go_points": sum(scoring["go"][r] for r in go),
            "game_points": sum(scoring["game"][r] for r in game),
            "go_faces": go_faces,
            "game_faces": game_faces,
            "faces": go_faces + game_faces,
            "winner": False,
            "score": 0,
        })

    lines = [
        "%s: Go Pile %s, Game Pile %s, %s in both piles."
        % (row["name"], _points(row["go_points"]), _points(row["game_points"]), _faces(row["faces"]))
        for row in rows
    ]
    # C7: the most Go Pile points.
    best_go = max(row["go_points"] for row in rows)
    leaders = [i for i, row in enumerate(rows) if row["go_points"] == best_go]
    if len(leaders) == 1:
        winners = leaders
        decided_by = "go_pile"
        lines.append("%s has the most Go Pile points (%d)." % (rows[leaders[0]]["name"], best_go))
    else:
        # C8: among the leaders only, the most face cards in both piles.
        best_faces = max(rows[i]["faces"] for i in leaders)
        winners = [i for i in leaders if rows[i]["faces"] == best_faces]
        tied = _names([rows[i]["name"] for i in leaders])
        if len(winners) == 1:
            decided_by = "face_cards"
            lines.append("Go Pile tie at %d between %s; %s has the most face cards (%d)."
                         % (best_go, tied, rows[winners[0]]["name"], best_faces))
        else:
            # C9: still tied: every one of them wins and scores.
            decided_by = "shared"
            lines.append("Go Pile tie at %d between %s; %s also tie on face cards (%d), so each "
                         "scores their Game Pile." % (best_go, tied,
                                                      _names([rows[i]["name"] for i in winners]),
                                                      best_faces))
    # C10: only the winner(s) score, and they score their Game Pile.
    for i in winners:
        rows[i]["winner"] = True
        rows[i]["score"] = rows[i]["game_points"]
        lines.append("%s wins and scores %s from the Game Pile."
                     % (rows[i]["name"], _points(rows[i]["game_points"])))
    if len(winners) < len(rows):
        lines.append("Nobody else scores.")
    return {
        "players": rows,
        "winners": [i + 1 for i in winners],
        "decided_by": decided_by,
        "explanation": "\n".join(lines),
    }
