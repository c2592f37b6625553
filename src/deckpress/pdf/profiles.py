"""Print profiles: files print/NAME.yaml (validated by schema.PrintProfile) that a deck picks by name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..deck import LoadedDeck
from ..errors import DeckError, Problems, Where
from ..options import Context
from ..paths import OutsideProject, find_in, lookup_dirs
from ..schema import PrintProfile
from ..source import Map, load_yaml


@dataclass
class Profile:
    """A loaded profile with everything resolved: page size in mm after orientation, bleed, offset."""

    name: str
    path: Path
    spec: PrintProfile
    page: tuple[float, float]  # width, height in mm, orientation applied
    bleed: float  # mm of bleed printed around each card (before the gap limit)

    @property
    def duplex(self) -> bool:
        return self.spec.layout == "duplex"


def profile_dirs(deck: LoadedDeck) -> list[Path]:
    """Where profiles are looked up: the project's print/, then deckpress's own."""
    return lookup_dirs(deck.path, "print")


def load_profile(deck: LoadedDeck, name: str, where: Where) -> Profile:
    """The profile `name` of `deck`; a DeckError at `where` (the deck's mention) when there is none."""
    dirs = profile_dirs(deck)
    try:
        file = find_in(dirs, f"{name}.yaml", deck.path)
    except OutsideProject:
        raise DeckError.at(where, f"print profile {name!r} leads outside the project; name a profile in "
                                  f"{dirs[0]}") from None
    if file is None:
        known = sorted({p.stem for d in dirs if d.is_dir() for p in d.glob("*.yaml")})
        raise DeckError.at(where, f"print profile {name!r} not found; create {dirs[0] / (name + '.yaml')}"
                                  f" or use one of: {', '.join(known)}")
    raw = load_yaml(file)
    problems = Problems()
    ctx = Context(problems, lang=deck.lang, fallback_lang=deck.model.game.language)
    if not isinstance(raw, Map):
        raise DeckError.at(Where(str(file), 1, 1), "a print profile is a mapping of keys such as `page: a4`; "
                                                   "see docs/print.md")
    spec = PrintProfile.load(raw, raw.where, ctx)
    problems.raise_if_any()
    width, height = spec.page
    if spec.orientation == "landscape":
        width, height = max(width, height), min(width, height)
    else:
        width, height = min(width, height), max(width, height)
    bleed = deck.model.bleed if spec.bleed is None else spec.bleed
    bleed = min(bleed, deck.model.bleed)  # the faces hold no more bleed than the deck's
    return Profile(name=name, path=file, spec=spec, page=(width, height), bleed=bleed)


def deck_profiles(deck: LoadedDeck) -> list[Profile]:
    """The profiles the deck lists under `print: profiles:` (default a4 and letter), each once."""
    options = deck.model.print
    source = options.source if options is not None else None
    names = list(options.profiles) if options is not None else ["a4", "letter"]
    wheres: list[Where] = [deck.model.where] * len(names)
    if isinstance(source, Map) and "profiles" in source:
        wheres = list(getattr(source["profiles"], "item_where", None) or [source.at("profiles")] * len(names))
    out: list[Profile] = []
    problems = Problems()
    for name, where in zip(names, wheres):
        if name is None or any(p.name == name for p in out):
            continue
        try:
            out.append(load_profile(deck, name, where))
        except DeckError as err:
            problems.items.extend(err.problems)
    problems.raise_if_any()
    return out
