"""DATA of a save's Global script: what the table scripts and the rules engine read of the deck (its cards,
seats, setup, modes and table layout), from the deck's YAML alone. `deckpress playtest` and `check`'s
self-play give the engine the same data the save bundles."""

from __future__ import annotations

import json

from ...deck import LoadedDeck
from ...schema import Component
from . import save


def _lua_plain(value):
    """Free-form YAML data for Lua: null becomes false (Lua lists can't hold nil)."""
    if value is None:
        return False
    if isinstance(value, dict):
        return {k: _lua_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_lua_plain(v) for v in value]
    return value


def _players(players) -> dict | None:
    if players is None:
        return None
    return {"min": players.min, "max": players.max}


def lua_data(deck: LoadedDeck, seats: list[str], main: Component | None, objects: list[dict],
             engine: str | None) -> dict:
    """DATA of the Global script: what the scripts and rules engines need to know about the deck."""
    model = deck.model
    guids: dict[tuple[str, str], list[str]] = {}
    for state in objects:
        for obj in [state, *state.get("ContainedObjects", [])]:
            if obj["Name"] in ("Card", "Custom_Tile"):
                notes = obj["GMNotes"]
                component, card = _ids(notes)
                guids.setdefault((component, card), []).append(obj["GUID"])
    components = []
    for component in model.components:
        cards = [{"id": card.id, "name": card.name, "count": card.count,
                  "fields": _lua_plain({k: v for k, v in card.fields().items() if k not in ("id", "name", "count")}),
                  "guids": guids.get((component.id, card.id), [])}
                 for card in component.cards if card.count > 0]
        components.append({"id": component.id, "name": component.name, "type": component.type,
                           "role": component.role, "optional": component.optional, "cards": cards})
    setup = model.setup
    return {
        "deck": deck.name,
        "game": {"name": model.game.name, "players": _players(model.game.players)},
        "seats": seats,
        "main": main.id if main else None,
        "main_name": main.name if main else None,
        "setup": {"deal": dict(setup.deal), "remove": {k: list(v) for k, v in setup.remove.items()},
                  "options": _lua_plain(setup.options)},
        "modes": [{"id": m.id, "name": m.name, "players": _players(m.players), "options": _lua_plain(m.options)}
                  for m in model.modes],
        "components": components,
        "layout": {"aside": list(save.Layout().aside), "seat_radius": save.SEAT_RADIUS,
                   "home": _home(objects, main), "box": list(save.BOX_SPOT)},
        "script": model.scripted.name if model.scripted is not None else None,
        "engine": engine,
    }


def _home(objects: list[dict], main: Component | None) -> list[float]:
    """Where the main deck lies in the save: where the scripts gather it."""
    for state in objects:
        if main is not None and main.id in state.get("Tags", []):
            t = state["Transform"]
            return [t["posX"], t["posY"], t["posZ"]]
    return [0.0, save.TABLE_Y, 0.0]


def _ids(notes: str) -> tuple[str, str]:
    data = json.loads(notes)
    return data["component"], data["id"]
