"""What every builder receives: the deck, its faces, where to write and the build's options."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .inputs import Records

if TYPE_CHECKING:  # a command that reads no deck imports none of it
    from .deck import LoadedDeck
    from .changed import Since
    from .faces import Faces


@dataclass
class BuildOptions:
    """Options of one `deckpress build`, shared by all decks it builds."""

    out: Path = Path("build")
    lang: str | None = None
    asset_url: str | None = None
    quiet: bool = False
    drawn: bool = False  # each face in OUT/.drawn/<deck>/ as soon as it is drawn (deckpress watch: build.DrawnFaces)
    builders: dict[str, Any] = field(default_factory=dict)  # each builder's options (a Record), by its name
    changed_since: str | None = None  # REF of `build --changed-since`: reprint the cards changed since (changed.py)


@dataclass
class BuildContext:
    deck: LoadedDeck
    faces: Faces
    out: Path  # the deck's output folder being written (a staging folder until the build succeeds)
    final: Path  # where that folder will be once the build succeeds: build/<deck>
    previous: Path | None  # the last successful build of this deck, for reuse
    options: BuildOptions
    progress: Callable[[str], None]
    records: Records | None = None  # what each artifact is made from; None: every artifact is made anew
    since: Since | None = None  # the cards of --changed-since's REF, for the reprint PDFs

    def __post_init__(self) -> None:
        if self.records is None:
            self.records = Records(self.out, None, {})

    def path(self, relative: str) -> Path:
        """A path in the output folder, parents created."""
        target = self.out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        return target
