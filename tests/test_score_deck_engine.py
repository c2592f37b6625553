"""decks/score.yaml drives the rules engine: its cards and modes are valid engine input."""

from __future__ import annotations

from conftest import ROOT
from deckpress.deck import load_deck
from deckpress.engines import score as engine


def test_every_card_and_mode_of_the_deck_is_valid_engine_data():
    deck = load_deck(ROOT / "decks" / "score.yaml")
    cards = next(c for c in deck.model.components if c.id == "deck").cards
    for card in cards:
        engine.validate_card({"id": card.id, "name": card.name, "priority": card.extra["priority"],
                              "effect": card.extra["effect"]})
    ids = {m.id: engine.mode_options(m.options) for m in deck.model.modes}
    assert set(ids) == {"classic", "brutal", "duel", "teamwork", "teamscore", "new-order", "randomness",
                        "decking", "scorlitaire", "scorliroad", "score-against"}
    duel_removed = set(ids["duel"]["deck_remove"])
    assert sum(c.count for c in cards if c.id not in duel_removed) == 19
    assert ids["brutal"]["carry_over"] is True
