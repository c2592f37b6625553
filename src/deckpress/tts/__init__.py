"""The Tabletop Simulator export, in parts: card sheets (sheets.py), the save and its objects (save.py),
the Lua/XmlUI bundle (lua.py) and copying into the TTS data folder (install.py). The builder that
ties them together is deckpress.builders.tts."""
