"""`deckpress studio`: the game live in the browser while the designer edits it, and playable there.

A local web server (server.py) builds the project as `deckpress watch` does and serves one page per deck: its
faces as a grid, each face's card data and where each part of it came from (sources.py), the print pages and
the TTS sheets, the last playtest report; and, for a scripted deck, a table (table.py) where humans and
playtest's bots play the game through the engine contract, the game's own Lua deciding everything.
"""
