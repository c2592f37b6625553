"""Builders turn the validated deck and its faces into outputs. Each is one module with a
`build(ctx)` function; a new output is a new module added to BUILDERS. A builder that reads
settings files of its own also adds a `check(deck)` to CHECKS, which `deckpress check` runs."""

from __future__ import annotations

from collections.abc import Callable

from ..context import BuildContext
from ..deck import LoadedDeck
from . import pdf, tts

Builder = Callable[[BuildContext], None]

BUILDERS: list[tuple[str, Builder]] = [
    ("tts", tts.build),
    ("pdf", pdf.build),
]

CHECKS: list[Callable[[LoadedDeck], None]] = [
    pdf.check,
]
