"""deckpress's own scripted games, one folder each: this folder is the package deckpress.games of the wheel
(pyproject.toml), and the tts/ folder of the repository's own project (decks/)."""
