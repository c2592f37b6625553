"""Load a deck file into the validated model: the Deck record, its templates and fonts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .elements import TextOptions
from .errors import DeckError, Problems, Where
from .expr import COMPILED, warm
from .fonts import BadFont, builtin_fonts, missing_glyphs
from .inputs import icon_files
from .markup import MarkupError, icon_typos, parse
from .options import Context, Invalid
from .paths import OutsideProject, confine, find_in, lookup_dirs, project_root
from .schema import Card, Component, Deck, Template
from .source import Map, load_yaml
from .svg import checked, is_svg


@dataclass
class LoadedDeck:
    """A validated deck and everything it refers to."""

    name: str  # the file stem: `score`
    path: Path
    model: Deck
    lang: str
    templates: dict[str, Template] = field(default_factory=dict)
    template_paths: dict[str, Path] = field(default_factory=dict)
    fonts: dict[str, Path] = field(default_factory=dict)
    system_fonts: dict[str, Path] = field(default_factory=dict)  # those of `fonts` installed on the machine
    warnings: list[str] = field(default_factory=list)  # located lines about the deck and its templates

    @property
    def root(self) -> Path:
        return self.path.parent

    def components(self, type_: str | None = None) -> list[Component]:
        return [c for c in self.model.components if type_ is None or c.type == type_]

    def card(self, component_id: str, card_id: str) -> Card:
        component = next(c for c in self.model.components if c.id == component_id)
        return next(c for c in component.cards if c.id == card_id)

    def input_files(self) -> list[Path]:
        """Every file the build reads besides deckpress's own fonts."""
        files = [self.path, *self.template_paths.values()]
        files += [c.cards_file for c in self.model.components if c.cards_file is not None]
        files += [p for name, p in self.fonts.items() if name in self.model.fonts or name in self.system_fonts]
        files += icon_files(self)
        files += self.model.scripted.files() if self.model.scripted is not None else []
        return sorted(set(files))


def load_deck(path: Path, lang: str | None = None) -> LoadedDeck:
    raw = load_yaml(path)
    if not isinstance(raw, Map):
        raise DeckError.at(Where(str(path), 1, 1), "a deck file is a mapping, not a list or a value; start it "
                                                   "with `game:` and `components:` (see docs/deck-format.md)")
    game = raw.get("game")
    # Read before validation, which needs them; a value of the wrong type is reported by the schema.
    own_lang = game.get("language", "en") if isinstance(game, dict) else "en"
    own_lang = own_lang if isinstance(own_lang, str) else "en"
    declared = game.get("languages") if isinstance(game, dict) else None
    languages = tuple(x for x in declared if isinstance(x, str)) if isinstance(declared, list) else ()
    problems = Problems()
    ctx = Context(problems, lang=lang or own_lang, fallback_lang=own_lang, languages=languages)
    model = Deck.load(raw, raw.where, ctx)
    problems.raise_if_any()
    warm(raw)
    languages = model.game.languages or [model.game.language]
    if lang and lang not in languages:
        raise DeckError.at(raw.at("game"), f"this deck has no text in language {lang!r}; "
                                           f"use --lang {' or --lang '.join(languages)}")
    deck = LoadedDeck(name=path.stem, path=path, model=model, lang=lang or own_lang)
    _load_fonts(deck, raw, problems)
    _load_templates(deck, problems)
    _check_icons(deck, problems)
    _check_markup(deck.model, problems)
    problems.raise_if_any()
    COMPILED.keep()
    deck.warnings = [str(w) for w in problems.warnings]
    return deck


def _check_icons(deck: LoadedDeck, problems: Problems) -> None:
    """Each image icon's file is an image deckpress draws (the rules' PDF pages and the faces draw it); each
    glyph icon's font is one the deck knows, and has the glyph."""
    for name, icon in deck.model.icons.items():
        if icon is not None and icon.image_file is not None:
            if is_svg(icon.image_file):
                _check_svg(icon.image_file, f"SVG {icon.image!r}", icon.source.at("image"), f"icon {name!r}: ",
                           problems)
            else:
                from .draw import load_image  # Pillow: only for a deck with image icons

                try:
                    load_image(icon.image_file, icon.image).close()
                except Invalid as err:
                    problems.add(icon.source.at("image"), f"icon {name!r}: {err}")
        if icon is None or icon.glyph is None:
            continue
        if icon.font not in deck.fonts and not system_font(deck, icon.font):
            problems.add(icon.source.at("font") if "font" in icon.source else icon.where,
                         f"icon {name!r}: {unknown_font(deck, icon.font)}")
            continue
        try:
            missing = missing_glyphs(icon.glyph, str(deck.fonts[icon.font]))
        except (BadFont, OSError):
            continue  # a font file that is missing or unreadable is reported where it is declared or drawn
        if missing:
            problems.add(icon.source.at("glyph"), f"icon {name!r}: font {icon.font!r} has no glyph for {missing!r}; "
                                                  "pick a font that has it")


def _check_svg(file: Path, name: str, where: Where, label: str, problems: Problems) -> None:
    try:
        checked(file.read_bytes(), name)
    except Invalid as err:
        problems.add(where, f"{label}{err}")


def system_font(deck: LoadedDeck, name: str) -> bool:
    """Whether `name` is a font installed on the machine (see system_fonts.py); if so it is the deck's
    `name`, with the bold and italic faces of its family the machine has (for the text's markup)."""
    from .system_fonts import FACES, find, split

    path = find(name)
    if path is None:
        return False
    family = split(name)[0]
    for face in (name, *(family + suffix for suffix in FACES)):
        found = path if face == name else find(face)
        if found is not None and face not in deck.fonts:
            deck.fonts[face] = deck.system_fonts[face] = found
    return True


def unknown_font(deck: LoadedDeck, name: str) -> str:
    """What to say of a font name that is neither built in, nor the deck's, nor installed."""
    return (f"unknown font {name!r}; use one of {', '.join(sorted(deck.fonts))}, or a font installed on this "
            "machine (this one is not), or bundle it with the project: put its .ttf file in fonts/ and add "
            f"`fonts: {{{name}: ../fonts/FILE.ttf}}` to the deck")


def _check_markup(model, problems: Problems) -> None:
    """A warning for each `:name:` in the rules' texts and the cards' TTS descriptions that stays text but
    is close to one of the deck's icons (the texts drawn on faces are checked as they are drawn)."""
    def check(text, where: Where, label: str = "") -> None:
        undeclared: list[str] = []
        try:
            parse(str(text), model.icons, undeclared)
        except MarkupError as err:
            problems.add(where, f"{label}{err}")
            return
        for typo in icon_typos(undeclared, model.icons):
            problems.warn(where, f"{label}{typo}")

    def blocks(items) -> None:
        for block in items or []:
            if block is None:
                continue
            content = block.content
            if block.kind == "table":
                texts = [*(content.header or []), *(c for row in content.rows or [] for c in row)]
            else:
                texts = content if isinstance(content, list) else [content]
            for text in texts:
                check(text, block.where)

    for section in model.rules or []:
        if section is not None:
            check(section.heading, section.where)
            blocks(section.body)
    for mode in model.modes or []:
        if mode is not None:
            check(mode.name, mode.where)
            blocks(mode.rules)
    for component in model.components:
        for card in component.cards:
            value = card.fields().get(model.tts.description_field)
            if isinstance(value, str):
                check(value, card.where, f"card {card.name!r}: ")  # as its face says it, when it draws the field


def _load_fonts(deck: LoadedDeck, raw: Map, problems: Problems) -> None:
    deck.fonts = dict(builtin_fonts())
    fonts_at = raw["fonts"] if "fonts" in raw else None
    for name, rel in deck.model.fonts.items():
        file = deck.root / rel
        try:
            file = confine(file, deck.path)
        except OutsideProject:
            problems.add(fonts_at.at(name), f"font file {rel!r} leads outside the project; put the .ttf file "
                                            f"inside {project_root(deck.path)}")
        else:
            if not file.is_file():
                problems.add(fonts_at.at(name), f"font file {rel!r} not found; put the .ttf file there or "
                                                "fix the path (relative to the deck file)")
        deck.fonts[name] = file


def _load_templates(deck: LoadedDeck, problems: Problems) -> None:
    wanted: dict[str, Where] = {}
    for component in deck.model.components:
        for key in ("template", "back"):
            name = getattr(component, key)
            if name:
                wanted.setdefault(name, component.source.at(key))
        for card in component.cards:
            for key in ("template", "back"):
                name = getattr(card, key)
                if name:
                    wanted.setdefault(name, card.source.at(key) if key in card.source else card.where)
    dirs = lookup_dirs(deck.path, "templates")
    for name, where in wanted.items():
        try:
            file = find_in(dirs, f"{name}.yaml", deck.path)
        except OutsideProject:
            problems.add(where, f"template {name!r} leads outside the project; name a template in "
                                f"{dirs[0]}")
            continue
        if file is None:
            problems.add(where, f"template {name!r} not found; create {dirs[0] / (name + '.yaml')} or fix "
                                "the name")
            continue
        try:
            raw = load_yaml(file)
        except DeckError as err:
            problems.items.extend(err.problems)
            continue
        ctx = Context(problems, lang=deck.lang, fallback_lang=deck.model.game.language)
        template = Template.load(raw, raw.where if isinstance(raw, Map) else Where(str(file), 1, 1), ctx)
        warm(raw)
        deck.templates[name] = template
        deck.template_paths[name] = file
        for element in template.elements or []:
            if (isinstance(element, TextOptions) and element.font not in deck.fonts and "{{" not in element.font
                    and not system_font(deck, element.font)):
                problems.add(element.source.at("font"), unknown_font(deck, element.font))
