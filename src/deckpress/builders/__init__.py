"""Builders turn the validated deck and its faces into outputs. Each is one module with a
`build(ctx)` function; a new output is a new module added to BUILDERS. A builder that reads
settings files of its own also adds a `check(deck)` to CHECKS, which `deckpress check` runs. A builder
that uses faces scaled down adds a `tiles(deck, faces)` to TILES: the face stage cuts them while each
face is in memory, and keeps them in the output folder's cache/ (see faces.tile_path)."""

from __future__ import annotations

from collections.abc import Callable

from ..context import BuildContext
from ..deck import LoadedDeck
from ..faces import Faces, Size
from . import pdf, tts

Builder = Callable[[BuildContext], None]

BUILDERS: list[tuple[str, Builder]] = [
    ("tts", tts.build),
    ("pdf", pdf.build),
]

CHECKS: list[Callable[[LoadedDeck], None]] = [
    pdf.check,
]

TILES: list[Callable[[LoadedDeck, Faces], dict[str, set[Size]]]] = [
    tts.tiles,
]


def tiles(deck: LoadedDeck, faces: Faces) -> dict[str, set[Size]]:
    """The tiles every builder asks of the face stage, by face path."""
    wanted: dict[str, set[Size]] = {}
    for asks in TILES:
        for face, sizes in asks(deck, faces).items():
            wanted.setdefault(face, set()).update(sizes)
    return wanted
