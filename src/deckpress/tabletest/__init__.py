"""`deckpress test`: a game's table tried without Tabletop Simulator. `fake` runs a save's Global script under
Lua 5.2 against a fake of TTS's API at least as strict as TTS (data/tabletest/fake_tts.lua); `scenarios` reads
a project's table scenarios (tests/*.scenarios.yaml) and checks them against the built save; `run` plays
them on the fake table, at TTS's own timing and 20 frames late, and reports one line per scenario."""
