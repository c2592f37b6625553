"""The save's defaults match what TTS itself writes (issue 25 point 6; sources in docs/tts.md)."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT
from deckpress.deck import load_deck
from deckpress.builders.tts import save as tts_save


@pytest.fixture(scope="module")
def scout():
    return load_deck(ROOT / "decks" / "scout.yaml").model


def parsed(data: dict) -> dict:
    return json.loads(tts_save.dump(data))


def tokens(model, component_id: str) -> list[dict]:
    component = next(c for c in model.components if c.id == component_id)
    art = tts_save.ComponentArt(images={c.id: ("file:///f.png", "file:///b.png") for c in component.cards})
    states = tts_save.token_states(component, art, tts_save.Guids("t"), (0.0, 0.0), "text")
    return parsed(tts_save.saved_object_envelope(states))["ObjectStates"]


def test_hand_zones_are_the_seats_colour_transparent_without_grid():
    zones = [parsed(tts_save.hand_zone(color, i, 3, f"00000{i}")) for i, color in enumerate(["White", "Red", "Blue"])]
    colors = [z["ColorDiffuse"] for z in zones]
    assert colors[0] == {"r": 1.0, "g": 1.0, "b": 1.0, "a": 0.0}
    assert abs(colors[1]["r"] - 0.856) < 0.002 and abs(colors[1]["g"] - 0.1) < 0.003 and colors[1]["a"] == 0.0
    assert colors[2]["b"] > colors[2]["r"] and colors[2]["a"] == 0.0
    assert all(z["Grid"] is False and z["HideWhenFaceDown"] is False for z in zones)


def test_scouts_first_player_tile_is_written_as_tts_writes_a_single_tile(scout):
    [tile] = tokens(scout, "first-player")
    assert tile["Name"] == "Custom_Tile"
    assert tile["CustomImage"]["CustomTile"]["Stackable"] is False
    assert tile["CustomImage"]["CustomTile"]["Stretch"] is True
    assert "MaterialIndex" not in tile and "Number" not in tile


def test_tile_stacks_carry_material_and_mesh_index(scout):
    stacks = tokens(scout, "stars")
    assert [s["Number"] for s in stacks] == [40, 12]
    assert all(s["Name"] == "Custom_Tile_Stack" and s["MaterialIndex"] == -1 and s["MeshIndex"] == -1
               for s in stacks)
    assert all(s["CustomImage"]["CustomTile"]["Stackable"] is True for s in stacks)


def test_notebook_tabs_are_tts_grey(scout):
    tabs = parsed({"t": tts_save.notebook(scout)})["t"]
    assert tabs and all(t["color"] == "Grey" and t["visibleColor"] == {"r": 0.5, "g": 0.5, "b": 0.5}
                        for t in tabs.values())


def test_full_save_lists_every_tag_and_names_a_tts_version(scout):
    objects = [tts_save.hand_zone("White", 0, 1, "aaaaaa")] + tokens(scout, "stars")
    objects[1]["ContainedObjects"] = [{"Tags": ["Inner:Tag"]}]
    data = parsed(tts_save.save_envelope(scout, objects, "", "", {}, 1767225600))
    labels = data["ComponentTags"]["labels"]
    assert labels == [{"displayed": t, "normalized": t.lower()}
                      for t in ["zone:hand", "hand:White", "stars", "role:play", "type:token", "Inner:Tag"]]
    assert labels[-1]["normalized"] == "inner:tag"
    assert data["VersionNumber"] == "v13.2.2"
    grey = {"r": 0.5, "g": 0.5, "b": 0.5}
    assert list(data)[list(data).index("Grid") + 1] == "Lighting"  # where TTS writes it
    assert data["Lighting"] == {"LightIntensity": 0.54, "LightColor": {"r": 1.0, "g": 0.9804, "b": 0.8902},
                                "AmbientIntensity": 1.3, "AmbientType": 0, "AmbientSkyColor": grey,
                                "AmbientEquatorColor": grey, "AmbientGroundColor": grey, "ReflectionIntensity": 1.0,
                                "LutIndex": 0, "LutContribution": 1.0}
    assert parsed(tts_save.saved_object_envelope(objects))["VersionNumber"] == ""  # as TTS writes saved objects
