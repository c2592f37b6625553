"""decks/score.yaml drives the rules engine: its cards and modes, as the table gets them, are valid engine
input (tts/score/engine.lua through lupa)."""

from __future__ import annotations

from helpers.score_lua import ScoreLua


def test_every_card_and_mode_of_the_deck_is_valid_engine_data():
    E = ScoreLua()
    for card in E.cards.values():
        assert E.validate_card(card)["id"] == card["id"]
    ids = {mode: E.options(mode) for mode in E.modes}
    assert set(ids) == {"classic", "brutal", "duel", "teamwork", "teamscore", "new-order", "randomness",
                        "decking", "scorlitaire", "scorliroad", "score-against"}
    deck = E.build_deck([E.card(i) for i in E.cards if i not in ("steal-2", "swap")], "duel")
    assert len(deck) == 19
    assert ids["brutal"]["carry_over"] is True
