"""A game's table tried without Tabletop Simulator: `fake` runs a save's Global script under Lua 5.2 against a
fake of TTS's API at least as strict as TTS (data/tabletest/fake_tts.lua)."""
