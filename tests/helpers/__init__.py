"""What deckpress's tests share, besides conftest.py's fixtures: the fake of TTS with its `timing` fixture
(fake_tts.py, fake_tts_editor.py), the games' Lua loaded through lupa (lua_modules.py, deck_data.py,
score_lua.py), the engine contract's driver (contract_driver.py), and the readers of built PDFs, docs pages and
fonts the test modules have in common. Test modules import these, never each other."""
