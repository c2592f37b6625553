"""Builders turn the validated deck and its faces into outputs, in the manner of Sphinx's builders: each is
one class (a subclass of Builder) with its name, its typed options, and its steps, registered in one place,
`registered()`: deckpress's own (BUILDERS) and those installed packages add in the entry-point group
`deckpress.builders` (`[project.entry-points."deckpress.builders"] zine = "mypackage.zine:ZineBuilder"`).

A builder's options are a Record (`Options`): `deckpress build` and `watch` get one flag per key
(`back_offset` is `--back-offset`), its help the option's doc, its value checked by the option, and the
builder gets them typed as `self.options`. Its `section` (a key of the deck file, e.g. `print:`) and the
record that types it (`Section`) are added to the deck format when the builder is registered: `check` and
`deckpress schema` know it, and the builder reads it as `ctx.deck.model.<section>`. Its steps:

    check(deck)         `deckpress check`: the builder's own settings files load and fit (a DeckError if not)
    tiles(deck, faces)  the face tiles (faces cut to the trim at a size) it wants: the face stage cuts them while
                        each face is in memory, and keeps them in the output folder's cache/; faces.tile says
                        where the builder reads each (a tile about the trim's size is the face cropped);
                        a faces.Cut asks for a tile as a JPEG (a TTS sheet's slot) rather than its pixels
    prepare(ctx)        runs while the faces are drawn: import its libraries, read its fonts
    build(ctx)          once the faces are drawn: write its outputs into ctx.out

Each builder runs in a process of its own, forked before the faces are drawn (build._builders_started).
deckpress's own are a folder each: tts/ and pdf/, whose __init__ holds the builder's class and options record, light
(the command line lists the options without importing a builder's work), and whose steps.py does its steps with
the folder's other modules, imported when a step first runs, in the builder's process (reportlab, which the PDF
builder needs, takes 70 ms to import).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import DeckError, Problems, Where
from ..options import Context, Record
from ..located import Map

if TYPE_CHECKING:  # the command line lists the builders and their options without a deck's modules
    from ..context import BuildContext
    from ..deck import LoadedDeck
    from ..faces import Cut, FaceCheck, Faces, Size

ENTRY_POINTS = "deckpress.builders"


class NoOptions(Record):
    """A builder without options."""


class Builder:
    """One output of a build: subclass it, name it, give its options record, define `build` (see above)."""

    name: ClassVar[str]
    Options: ClassVar[type[Record]] = NoOptions
    # Its section of the deck file (`print:` of the PDF builder), typed by a record, which the build gives it as
    # ctx.deck.model.<section>: the key and the record, or None for a builder the deck says nothing to.
    section: ClassVar[str | None] = None
    Section: ClassVar[type[Record] | None] = None
    metavars: ClassVar[dict[str, str]] = {}  # how a flag's value is written, by option key, e.g. X,Y

    def __init__(self, options: Record | None = None):
        self.options = options if options is not None else self.defaults()

    @classmethod
    def defaults(cls, **values: Any) -> Record:
        """The builder's options: `values` given, the others their defaults; ValueError when one is wrong."""
        raw = Map(values)
        raw.where, raw.key_where, raw.value_where = Where("options"), {}, {}
        problems = Problems()
        options = cls.Options.load(raw, raw.where, Context(problems))
        if problems.items:
            raise ValueError(problems.items[0].message)
        return options

    @classmethod
    def load(cls) -> None:
        """Import what the builder's steps need (a long-running `deckpress watch` does it once, so the builders
        it forks at every rebuild have their libraries already)."""

    def check(self, deck: LoadedDeck, faces: FaceCheck | None = None) -> None:
        """Raise a DeckError when what the builder reads besides the deck does not fit it. `deckpress check`
        gives `faces`, its one drawing of every face: ask it to see faces as they are drawn, and add warnings
        to its `warnings`."""

    def tiles(self, deck: LoadedDeck, faces: Faces) -> dict[str, set[Cut | Size]]:
        """The tiles the builder cuts from faces: face path -> cuts (a size alone: the tile's pixels)."""
        return {}

    def prepare(self, ctx: BuildContext) -> None:
        """Get ready while the faces are drawn."""

    def build(self, ctx: BuildContext) -> None:
        raise NotImplementedError


# deckpress's own builders, each in its folder with the modules that do its work (imported when a step first
# runs): imported here, after Builder, which they subclass.
from .pdf import PDFBuilder  # noqa: E402
from .tts import TTSBuilder  # noqa: E402

BUILDERS: list[type[Builder]] = [TTSBuilder, PDFBuilder]


def add_sections(classes) -> None:
    """Each builder's section of the deck format added to the Deck record (once), as Sphinx's builders add
    their configuration values; a DeckError when a key is the deck's own or another builder's. deckpress's own
    are added as schema.py defines Deck; an installed builder's as it is registered."""
    from ..schema import Deck  # (for an installed builder only: the command line starts without the schema)

    for cls in classes:
        if cls.section is None:
            continue
        try:
            Deck.add_section(cls.section, cls.Section)
        except ValueError:
            raise DeckError.at(Where(f"builder {cls.name}"), f"its deck section {cls.section!r} is a key of the "
                                                             "deck file already; uninstall its package") from None


@functools.cache
def registered(installed: bool = True) -> tuple[type[Builder], ...]:
    """Every builder class: deckpress's own, then (`installed`) those of the installed packages, by name; a
    DeckError when one does not load, is no Builder, or shares a name or an option with another (a build then
    stops at that line). Looked up once per process."""
    from .. import cache

    out = list(BUILDERS)
    points = cache.entry_points(ENTRY_POINTS) if installed else []
    for name, value, _ in sorted(points):
        where = Where(f"entry point {name} = {value} ({ENTRY_POINTS})")
        try:
            cls = cache.load(value)
        except Exception as err:  # noqa: BLE001 (a package's broken builder is one line, not a traceback)
            raise DeckError.at(where, f"cannot load the builder: {type(err).__name__}: {err}; reinstall or "
                                      "uninstall its package") from None
        if not (isinstance(cls, type) and issubclass(cls, Builder)):
            raise DeckError.at(where, "is no deckpress.builders.Builder; fix or uninstall its package")
        out.append(cls)
    names, flags = set(), set()
    for cls in out:
        if cls.name in names or flags & set(cls.Options.OPTIONS):
            raise DeckError.at(Where(f"builder {cls.name}"), "another builder has its name or one of its options; "
                                                             "uninstall one of the two packages")
        names.add(cls.name)
        flags |= set(cls.Options.OPTIONS)
    if any(cls.section for cls in out[len(BUILDERS):]):
        add_sections(out[len(BUILDERS):])
    return tuple(out)


def preload() -> None:
    """Import every builder's module now: a long-running `deckpress watch` then forks builders that have
    their libraries already, at every rebuild."""
    for cls in registered():
        cls.load()


def tiles(builders: list[Builder], deck: LoadedDeck, faces: Faces) -> dict[str, set[Cut | Size]]:
    """The tiles every builder asks of the face stage, by face path."""
    wanted: dict[str, set[Cut | Size]] = {}
    for builder in builders:
        for face, sizes in builder.tiles(deck, faces).items():
            wanted.setdefault(face, set()).update(sizes)
    return wanted
