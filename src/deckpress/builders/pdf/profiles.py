"""Print profiles: files print/NAME.yaml (the PrintProfile record) that a deck picks by name."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...deck import LoadedDeck
from ...errors import DeckError, Problems, Where
from ...options import Bool, Choice, Color, Context, Int, ListOf, Number, Record, Str
from ...paths import PACKAGE_DATA, OutsideProject, confine, find_in, lookup_dirs
from ...schema import Size
from ...source import Map, load_yaml
from . import back_offset_option
from .cutters import Marks
from .pdfx import SHIPPED_PROFILE, NotCmyk, read_profile
from .rules_style import STYLE_FILE


# Paper sizes in millimetres, portrait: width x height.
PAGE_SIZES: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
PAGE_LIMITS = (50, 1200)  # smallest and largest side of a print profile's page, mm (A0 is 841 x 1189)


class PrintProfile(Record):
    """A print profile: a file print/NAME.yaml saying how a print-and-play PDF is laid out."""

    description = Str("What the profile is for (one line).", default="")
    page = Size("Paper: a4, letter, legal, a3, tabloid, or {width, height} in mm.", PAGE_SIZES, PAGE_LIMITS,
                "page size", default="a4")
    orientation = Choice("Page orientation.", ["portrait", "landscape"], default="portrait")
    layout = Choice("`duplex`: each page of fronts is followed by its page of backs, for double-sided "
                    "printing; `gutterfold`: fronts and backs on one page, fold along the middle line.",
                    ["duplex", "gutterfold"], default="duplex")
    margin = Number("Least distance in mm from the page edge to the cards (printers cannot print to the "
                    "edge).", default=5, min=0, max=50)
    gap = Number("Space in mm between neighbouring cards; 0 butts them so they share cut lines.",
                 default=0, min=0, max=30)
    bleed = Number("Bleed in mm printed around each card; default: the deck's `bleed`. Between cards it is "
                   "limited to half the gap.", default=None, min=0, max=10)
    gutter = Number("Gutterfold: space in mm between the fronts and the backs, with the fold line in its "
                    "middle.", default=10, min=0, max=60)
    token_gap = Number("Space in mm between tokens on a token sheet; each token gets its own cut outline.",
                       default=3, min=0, max=30)
    cut_lines = Choice("Style of the cut lines, which run from the cards to the page edge.",
                       ["solid", "dashed", "none"], default="solid")
    cut_line_width = Number("Width of the cut lines in mm.", default=0.2, min=0.05, max=2)
    cut_line_color = Color("Colour of the cut lines.", default="#000000")
    back_offset = back_offset_option("Shift `[x, y]` in mm of the back pages, measured with the calibration sheet (x "
                                     "to the right, y up, as you look at the back); added to `--back-offset`.",
                                     default=lambda: [0, 0])
    rules = Bool("Print the rules reminder pages after the cards.", default=True)
    rules_columns = Int("Columns of the rules reminder pages; default: the rules style's (2).", default=None,
                        min=1, max=4)
    font_size = Number("Size in points of the rules reminder text; default: the rules style's (8.5).",
                       default=None, min=5, max=16)
    ink_coverage = Number("A low-ink draft for prototype rounds: the most ink, in per cent, any 10 mm square of a face "
                          "holds (ink: the mean of cyan, magenta and yellow, 1 - (R + G + B) / 765); the faces' large "
                          "fills are lightened to it, text and thin lines kept dark (docs/print.md, Drafts); "
                          "`output: sheets` only. Default: the faces as drawn.", default=None, min=5, max=100)
    # for print shops and cutting machines
    output = Choice("`sheets`: print-and-play pages (cards laid out on paper, cut guides, backs); `cards`: "
                    "one PDF per card component, one card per page at its size with bleed, each back "
                    "followed by its front (DriveThruCards); `images`: a PNG per face at the shop's "
                    "size, and a list of how many of each (MakePlayingCards, The Game Crafter).",
                    ["sheets", "cards", "images"], default="sheets")
    border = Number("The outer band in mm that home printers cannot print (1/4 in): no text lies in it, "
                    "and cut guides are laid out to print inside it.", default=6.35, min=0, max=30)
    image_bleed = Number("`output: images`: bleed in mm around the trim of each image (3.175 = 1/8 in = "
                         "37.5 px at 300 DPI; 3.048 = 36 px); at most the deck's `bleed`.",
                         default=3.175, min=0, max=10)
    pdfx = Bool("`output: cards`: write PDF/X-1a:2003 (DriveThruCards' preference): the faces converted to "
                "CMYK through `cmyk_profile` with at most `ink_limit` of total ink, the profile in the PDF's "
                "OutputIntent, PDF 1.4.", default=False)
    cmyk_profile = Str("`pdfx`: the ICC output profile (CMYK) the faces are converted to, a file relative to "
                       "this profile's folder; default deckpress's own, FOGRA39 (coated paper) with a 240 % "
                       "ink limit.", default=None)
    ink_limit = Number("`pdfx`: most total ink (C + M + Y + K) of any pixel, in per cent.", default=240,
                       min=100, max=400)
    deck_tiers = ListOf(Int("Cards.", min=1, max=100_000), "The deck sizes (card counts) the shop prices a deck "
                        "by; `deckpress check` warns of a card component whose count falls between two (it is "
                        "paid as the larger).", default=None)
    tokens = Bool("`output: images`: write the token components' images too (false where the shop makes tokens "
                  "only at product sizes of its own).", default=True)
    cutter = Choice("A cutting machine the sheets are for: `silhouette` (print & cut registration marks on the "
                    "front pages, a cut contour at each trim) or `cricut` (a PNG per sheet of fronts for Design "
                    "Space's Print Then Cut, at most `print_area`); `none`: cut by hand.",
                    ["none", "silhouette", "cricut"], default="none")
    mark_inset = Number("`cutter: silhouette`: mm from the paper's edges to the registration marks (Silhouette "
                        "Studio's Inset).", default=10, min=5, max=30)
    mark_length = Number("`cutter: silhouette`: length in mm of the corner marks' arms (Silhouette Studio's "
                         "Length).", default=20, min=5, max=40)
    mark_thickness = Number("`cutter: silhouette`: width in mm of the corner marks' lines (Silhouette Studio's "
                            "Thickness).", default=0.5, min=0.1, max=2)
    print_area = ListOf(Number("Millimetres.", min=20, max=1000), "`cutter: cricut`: `[width, height]` in mm of "
                        "the largest image Design Space prints and cuts (6.75 x 9.25 in on Letter).",
                        default=lambda: [171.45, 234.95], min_items=2, max_items=2)


def tier_warnings(deck: LoadedDeck) -> list[str]:
    """For each profile with `deck_tiers`, a warning per card component whose count is not a tier: the shop
    charges the next tier up, so that many more cards would cost nothing."""
    out = []
    for profile in deck_profiles(deck):
        tiers = sorted(profile.spec.deck_tiers or [])
        for component in deck.model.components:
            count = sum(card.count for card in component.cards)
            if not tiers or component.type == "tokens" or not count or count in tiers:
                continue
            above = [t for t in tiers if t > count]
            if above:
                message = (f"{count} cards fall between {profile.name}'s deck sizes: paid as {above[0]}, so "
                           f"{above[0] - count} more would cost nothing (sizes: {', '.join(map(str, tiers))})")
            else:
                message = f"{count} cards are more than {profile.name}'s largest deck ({tiers[-1]}); split them"
            out.append(f"{component.where}: warning: {component.id}: {message}")
    return out


@dataclass
class Profile:
    """A loaded profile with everything resolved: page size in mm after orientation, bleed, offset."""

    name: str
    path: Path
    spec: PrintProfile
    page: tuple[float, float]  # width, height in mm, orientation applied
    bleed: float  # mm of bleed printed around each card (before the gap limit)
    cmyk_profile: Path | None = None  # `pdfx`: the ICC profile the faces are converted to

    @property
    def duplex(self) -> bool:
        return self.spec.layout == "duplex"

    @property
    def output(self) -> str:
        return self.spec.output

    @property
    def border(self) -> float:
        return self.spec.border

    @property
    def cutter(self) -> str:
        return self.spec.cutter

    def marks(self, page: tuple[float, float]) -> Marks:
        """`cutter: silhouette`: the registration marks on a page of size `page`."""
        return Marks(page, self.spec.mark_inset, self.spec.mark_length, self.spec.mark_thickness)


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
    if file is not None and file.name == STYLE_FILE:
        file = None  # the rules pages' style, no profile
    if file is None:
        known = sorted({p.stem for d in dirs if d.is_dir() for p in d.glob("*.yaml") if p.name != STYLE_FILE})
        raise DeckError.at(where, f"print profile {name!r} not found; create {dirs[0] / (name + '.yaml')}"
                                  f" or use one of: {', '.join(known)}")
    raw = load_yaml(file)
    problems = Problems()
    ctx = Context(problems, lang=deck.lang, fallback_lang=deck.model.game.language)
    if not isinstance(raw, Map):
        raise DeckError.at(Where(str(file), 1, 1), "a print profile is a mapping of keys such as `page: a4`; "
                                                   "see docs/print.md")
    spec = PrintProfile.load(raw, raw.where, ctx)
    own = file.resolve().is_relative_to(PACKAGE_DATA)  # a built-in profile: the fix is in the deck
    key = "image_bleed" if spec.output == "images" else "bleed"
    wanted = spec.image_bleed if key == "image_bleed" else spec.bleed
    if wanted is not None and wanted > deck.model.bleed + 1e-9 and own:
        problems.add(where, f"print profile {name!r} prints {wanted:g} mm of bleed, more than the deck's bleed "
                            f"({deck.model.bleed:g} mm), which is all the faces hold; write `bleed: {wanted:g}` "
                            "in the deck, or copy the profile into print/ and lower its bleed")
    elif wanted is not None and wanted > deck.model.bleed + 1e-9:
        problems.add(raw.at(key) if key in raw else raw.where,
                     f"{key}: {wanted:g} mm is more than the deck's bleed ({deck.model.bleed:g} mm), which is "
                     f"all the faces hold; write at most {deck.model.bleed:g} or raise the deck's bleed")
    if spec.cutter == "silhouette" and (spec.layout != "duplex" or spec.output != "sheets"):
        key = "layout" if spec.layout != "duplex" else "output"
        problems.add(raw.at(key) if key in raw else raw.at("cutter"),
                     "cutter: silhouette prints its registration marks on duplex sheets; write `layout: duplex` "
                     "and `output: sheets`, or remove the cutter")
    if spec.ink_coverage is not None and (spec.output != "sheets" or spec.cutter == "cricut"):
        problems.add(raw.at("ink_coverage"), "ink_coverage lightens the faces of print-and-play sheets; write "
                                             "`output: sheets` (and no cricut cutter), or remove ink_coverage")
    cmyk_profile = _cmyk_profile(raw, spec, file, deck, problems) if spec.pdfx else None
    problems.raise_if_any()
    width, height = spec.page
    if spec.orientation == "landscape":
        width, height = max(width, height), min(width, height)
    else:
        width, height = min(width, height), max(width, height)
    bleed = deck.model.bleed if spec.bleed is None else spec.bleed
    return Profile(name=name, path=file, spec=spec, page=(width, height), bleed=bleed, cmyk_profile=cmyk_profile)


def _cmyk_profile(raw: Map, spec: PrintProfile, file: Path, deck: LoadedDeck, problems: Problems) -> Path | None:
    """The ICC profile a `pdfx` profile converts to, checked (a CMYK output profile inside the project)."""
    if spec.output != "cards":
        problems.add(raw.at("pdfx"), "pdfx: true needs `output: cards` (one card per page, images only); "
                                     "add `output: cards` or remove pdfx")
        return None
    name = spec.cmyk_profile
    if name is None:
        return SHIPPED_PROFILE
    where = raw.at("cmyk_profile")
    try:
        path = confine(file.parent / name, deck.path)
    except OutsideProject:
        problems.add(where, f"cmyk_profile {name!r} leads outside the project; put the ICC file in {file.parent}")
        return None
    if not path.is_file():
        problems.add(where, f"cmyk_profile {name!r} not found in {file.parent}; give an ICC file (.icc) of a CMYK "
                            "printing condition there, or remove the key for deckpress's FOGRA39 profile")
        return None
    try:
        read_profile(path)
    except NotCmyk as err:
        problems.add(where, f"cmyk_profile {name!r} {err}; give the ICC output profile of a CMYK printing "
                            "condition (e.g. the print shop's), or remove the key for deckpress's FOGRA39 one")
        return None
    return path


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
