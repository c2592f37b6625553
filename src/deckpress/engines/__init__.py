"""Pure-data rules engines for the games deckpress supports."""
