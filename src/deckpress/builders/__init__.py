"""Builders turn the validated deck and its faces into outputs. Each is one module with a
`build(ctx)` function, and maybe a `prepare(ctx)`; a new output is a new module added to BUILDERS. Each
builder runs in a process of its own, forked before the faces are drawn (see build._builders_started):
there it imports its module and its libraries and runs `prepare` (reads fonts...) while the faces are
drawn, and `build` once they are. A builder that reads settings files of its own also adds a
`check(deck)` to CHECKS, which `deckpress check` runs. A builder that uses faces scaled down adds a
`tiles(deck, faces)` to TILES: the face stage cuts them while each face is in memory, and keeps them in
the output folder's cache/ (see faces.tile_path)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from ..context import BuildContext
from ..deck import LoadedDeck
from ..faces import Faces, Size
from . import tts

_LAZY: set[str] = set()  # the modules `lazy` and the BUILDERS name, imported when first used


def _module(name: str):
    return importlib.import_module(f"{__name__}.{name}")


def lazy(module: str, function: str) -> Callable:
    """`module.function` of this package, the module imported at the first call (reportlab, which the
    PDF builder needs, takes 70 ms to import)."""
    _LAZY.add(module)

    def call(*args):
        return getattr(_module(module), function)(*args)
    return call


def preload() -> None:
    """Import every builder's module now: a long-running `deckpress watch` then forks builders that have
    their libraries already, at every rebuild."""
    for module in sorted(_LAZY):
        _module(module)


@dataclass(frozen=True)
class Builder:
    """The builder that is the module `module` of this package."""

    module: str

    def __post_init__(self) -> None:
        _LAZY.add(self.module)

    def prepare(self, ctx: BuildContext) -> None:
        """Import the module (in the builder's process) and run its `prepare`, if it has one."""
        prepare = getattr(_module(self.module), "prepare", None)
        if prepare is not None:
            prepare(ctx)

    def build(self, ctx: BuildContext) -> None:
        _module(self.module).build(ctx)


BUILDERS: list[Builder] = [Builder("tts"), Builder("pdf")]

CHECKS: list[Callable[[LoadedDeck], None]] = [
    tts.check,
    lazy("pdf", "check"),
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
