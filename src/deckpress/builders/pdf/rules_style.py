"""The look of the rules reminder pages: print/rules-style.yaml, the project's own or else deckpress's
(data/print/rules-style.yaml), found as templates/ and tts/ files are. A print profile's `rules_columns`
and `font_size`, where it sets them, win over the style's for that profile's PDF."""

from __future__ import annotations

from ...deck import LoadedDeck, system_font, unknown_font
from ...errors import DeckError, Problems, Where
from ...options import Color, Context, Int, Number, Record, Str
from ...paths import OutsideProject, find_in, lookup_dirs
from ...source import Map, load_yaml

STYLE_FILE = "rules-style.yaml"


class RulesStyle(Record):
    """Fonts, sizes, colours and columns of the rules reminder pages."""

    font = Str("Font of the body text: one of deckpress's (sans, serif, mono, ...), the deck's `fonts:`, or a "
               "font installed on the machine.", default="sans")
    bold_font = Str("Font of the headings, the title, the tables' header rows and **bold** text.",
                    default="sans-bold")
    italic_font = Str("Font of *italic* text.", default="sans-oblique")
    bold_italic_font = Str("Font of bold italic text.", default="sans-bold-oblique")

    font_size = Number("Size in points of the body text.", default=8.5, min=5, max=16)
    columns = Int("Columns of a page.", default=2, min=1, max=4)
    title_size = Number("Size in points of the title at the top of each page.", default=13, min=6, max=30)
    heading_scale = Number("Size of a section heading, times `font_size`.", default=1.3, min=1, max=3)
    subheading_scale = Number("Size of a sub-heading (and a game mode's name), times `font_size`.", default=1.08,
                              min=1, max=3)
    paragraph_space = Number("Space after a paragraph, times `font_size`.", default=0.45, min=0, max=3)
    subheading_space = Number("Space above a sub-heading, times `font_size` (more than `paragraph_space`, so "
                              "that it reads as the start of something new).", default=1.1, min=0, max=5)
    ink = Color("Colour of the text.", default="#222222")
    heading_color = Color("Colour of the title and the headings.", default="#222222")
    rule_color = Color("Colour of the line under the title and of the tables' grid.", default="#999999")
    shade_color = Color("Background of the tables' header rows.", default="#e8e8e8")


def load_rules_style(deck: LoadedDeck) -> RulesStyle:
    """The deck's rules style: its project's print/rules-style.yaml, else deckpress's own."""
    dirs = lookup_dirs(deck.path, "print")
    try:
        file = find_in(dirs, STYLE_FILE, deck.path)
    except OutsideProject:
        raise DeckError.at(deck.model.where, f"print/{STYLE_FILE} leads outside the project; make it a file "
                                             f"in {dirs[0]}") from None
    assert file is not None  # deckpress ships one
    raw = load_yaml(file)
    if not isinstance(raw, Map):
        raise DeckError.at(Where(str(file), 1, 1), "the rules style is a mapping of keys such as `columns: 2`; "
                                                   "see docs/print.md")
    problems = Problems()
    style = RulesStyle.load(raw, raw.where, Context(problems, lang=deck.lang, fallback_lang=deck.model.game.language))
    for key in FONT_KEYS:
        name = getattr(style, key)
        if name is not None and name not in deck.fonts and not system_font(deck, name):
            problems.add(raw.at(key) if key in raw else raw.where, f"{key}: {unknown_font(deck, name)}")
    problems.raise_if_any()
    return style


FONT_KEYS = ("font", "bold_font", "italic_font", "bold_italic_font")
