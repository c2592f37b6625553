"""Playing SCORE!'s table on the fake of TTS as a player does: cards laid in the roster slots, the target
and the mode chosen with the panel's buttons."""

from __future__ import annotations

from helpers.fake_tts import inner

FACE_DOWN = 180  # the z rotation of a card lying face down


def card_objects(table, name):
    """Every object called `name`: loose cards (in hands or on the table), then cards still in a deck."""
    loose = [o for o in table.objects() if o.type == "Card" and o.getName() == name]
    return loose


def take(table, name):
    """One card called `name`, out of the deck if no loose one is free."""
    for deck in [o for o in table.objects() if o.type == "Deck"]:
        for entry in deck.getObjects().values():
            if entry.name == name:
                return deck.takeObject(table.lua.table_from({"guid": entry.guid}))
    for obj in card_objects(table, name):
        if not inner(obj).placed:
            return obj
    raise AssertionError(f"no free card {name}")


def place(table, color, cards, start=1):
    """Lay `cards` (names; None leaves a slot empty) face down in color's roster slots from slot `start`."""
    game = table.globals.GAME
    placed = []
    for k, name in enumerate(cards, start):
        if name is None:
            continue
        obj = take(table, name)
        inner(obj).placed = True
        obj.setPosition(game.slot_position(color, k))
        obj.setRotation(table.lua.table_from([0, 0, FACE_DOWN]))
        placed.append(obj)
    return placed


def target(table, color, who):
    """Click color's target selector until it shows `who`."""
    for _ in range(10):
        if table.ui_value(f"score_target_{color}") == who:
            return
        table.click("scoreTarget", color, color)
    raise AssertionError(f"{color} can't target {who}")


def select_mode(table, name):
    for _ in range(12):
        if table.ui_value("score_mode") == name:
            return
        table.click("scoreModeNext", "White")
    raise AssertionError(f"mode {name} not offered")
