"""A scripted game: finding its folder by the deck's `script:` and typing its records (games.py, records.py),
and running its Lua headless, as `check`, `playtest` and `deckpress test` do: the sandboxed, bounded runtime
(runtime.py) and the engine contract's self-play (contract.py)."""
