"""`python -m deckpress`: the same command as `deckpress`."""

from .cli import main

main(prog_name="deckpress")
