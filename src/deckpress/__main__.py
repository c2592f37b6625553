"""`python -m deckpress`: the same command as `deckpress`."""

from .cli import run

run()
