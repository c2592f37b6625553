"""Draw the pictures of docs/templates.md with deckpress itself: `python docs/pictures.py`.

Every example on the page is a template in a fenced ```yaml block right after a comment
`<!-- picture: NAME.png -->` (or `<!-- picture: NAME.png cards: ID ID -->` to show several cards side by
side). The cards the examples draw are the ```yaml block after `<!-- picture cards -->`: a component's
`fields:` and `cards:`; the ```yaml block after `<!-- picture deck -->`, if any, holds keys of the deck
itself (its `icons:`). This script makes a project with `deckpress new` in a temporary folder, puts each
example in its templates/ and one component per example in its deck, draws the faces with deckpress's
renderer, as a build does, and writes each picture, reduced to WIDTH pixels a card, to
docs/pictures/NAME.png. A broken example stops it with the problem located in docs/templates.md.
"""

from __future__ import annotations

import json
import math
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml
from PIL import Image, ImageDraw

from deckpress.deck import load_deck
from deckpress.errors import DeckError, Problem, Where
from deckpress.render import FaceRenderer
from deckpress.scaffold import new_project

PAGE = Path(__file__).resolve().with_name("templates.md")
PICTURES = PAGE.with_name("pictures")
WIDTH = 250  # pixels per card in a picture
GAP = 12  # pixels between cards shown side by side
FRAME = (150, 150, 150, 255)  # a thin line round each picture's edge (the edge of the bleed)
ART = "art/hills.png"  # the image the image examples show, in the project folder
COIN = "art/coin.png"  # the image of the examples' inline icon
SHIELD = "art/shield.svg"  # the SVG the SVG examples show, a one-colour icon
VERA = ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "VeraBI.ttf")  # reportlab's Bitstream Vera Sans, installed below

BLOCK = re.compile(r"^<!-- picture(?: (?P<kind>cards|deck)|: (?P<name>[a-z0-9-]+)\.png"
                   r"(?: cards: (?P<cards>[a-z0-9 -]+?))?) -->\n```yaml\n(?P<yaml>.*?)^```$", re.M | re.S)


@dataclass
class Example:
    name: str  # the picture's name without .png
    cards: list[str]  # ids of the cards it shows; empty: the first card
    text: str  # the template, as on the page
    line: int  # the page's line of the template's first line


@dataclass
class Page:
    cards: Example  # the `fields:` and `cards:` every example draws
    examples: list[Example]
    deck: Example | None = None  # keys of the deck itself


def read_page(text: str) -> Page:
    cards, deck, examples = None, None, []
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("yaml")) + 1
        block = Example(match["name"] or "", (match["cards"] or "").split(), match["yaml"], line)
        if match["name"]:
            examples.append(block)
        elif (cards if match["kind"] == "cards" else deck) is not None:
            raise ValueError(f"{PAGE}:{line}: a second `<!-- picture {match['kind']} -->` block; keep one")
        elif match["kind"] == "cards":
            cards = block
        else:
            deck = block
    if cards is None:
        raise ValueError(f"{PAGE}: no `<!-- picture cards -->` block; the examples need cards to draw")
    if not examples:
        raise ValueError(f"{PAGE}: no `<!-- picture: NAME.png -->` examples")
    names = [e.name for e in examples]
    if len(set(names)) != len(names):
        raise ValueError(f"{PAGE}: a picture name is used twice; give each example its own")
    return Page(cards, examples, deck)


def hills(path: Path) -> None:
    """A 2:1 picture for the image examples: sky, sun, two hills."""
    image = Image.new("RGB", (600, 300))
    draw = ImageDraw.Draw(image)
    for y in range(300):
        draw.line((0, y, 600, y), fill=(90 + y // 4, 150 + y // 5, 230))
    draw.ellipse((430, 40, 510, 120), fill=(255, 214, 90))
    draw.ellipse((-200, 170, 380, 520), fill=(74, 140, 60))
    draw.ellipse((220, 190, 820, 560), fill=(46, 104, 48))
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


def coin(path: Path) -> None:
    """A gold coin with a darker rim, on a transparent ground, for the inline icon example."""
    image = Image.new("RGBA", (120, 120), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((2, 2, 117, 117), fill=(176, 122, 20, 255))
    draw.ellipse((14, 14, 105, 105), fill=(240, 190, 60, 255))
    image.save(path)


def shield(path: Path) -> None:
    """A black heater shield with a star cut out of it, as an icon of game-icons.net is drawn."""
    star = " ".join(f"{50 + (22 if i % 2 == 0 else 9) * math.sin(i * math.pi / 5):.2f},"
                    f"{50 - (22 if i % 2 == 0 else 9) * math.cos(i * math.pi / 5):.2f}" for i in range(10))
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path fill-rule="evenodd" '
                    f'd="M50 3 L93 17 V47 C93 74 73 90 50 98 C27 90 7 74 7 47 V17 Z M{star} Z"/></svg>\n',
                    encoding="utf-8")


def install_vera() -> None:
    """Bitstream Vera Sans (reportlab's copy) installed for this process, as installing it on the machine
    would: the system font example draws the same on every machine."""
    import fontconfig
    import reportlab

    folder = Path(reportlab.__file__).parent / "fonts"
    config = fontconfig.Config.get_current()
    for name in VERA:
        config.app_font_add_file(str(folder / name))


class Project:
    """A project made by `deckpress new` in `folder` whose deck has one component per example."""

    def __init__(self, folder: Path, page: Page):
        self.page = page
        new_project(folder, "Example Game", "poker")
        self.deck = folder / "decks" / "example-game.yaml"
        self.templates = folder / "templates"
        hills(folder / ART)
        coin(folder / COIN)
        shield(folder / SHIELD)
        install_vera()
        game = yaml.safe_load(self.deck.read_text(encoding="utf-8"))["game"]
        lines = [f"game: {json.dumps(game, ensure_ascii=False)}"]
        self.deck_line = len(lines) + 1  # deck line of the deck block's first line
        lines += page.deck.text.splitlines() if page.deck else []
        lines.append("components:")
        self.card_lines: list[int] = []  # deck line of each component's copy of the cards block
        for example in page.examples:
            (self.templates / f"{example.name}.yaml").write_text(example.text, encoding="utf-8")
            lines += [f"  - id: {example.name}", "    name: Examples", f"    template: {example.name}"]
            self.card_lines.append(len(lines) + 1)
            lines += ["    " + line if line else line for line in page.cards.text.splitlines()]
        self.deck.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def on_page(self, where: Where) -> Where:
        """Where a place in the project's files is on the page."""
        for example in self.page.examples:
            if Path(where.path).absolute() == self.templates / f"{example.name}.yaml":
                return Where(str(PAGE), example.line + where.line - 1, where.col)
        if Path(where.path).absolute() == self.deck:
            deck = self.page.deck
            if deck and self.deck_line <= where.line < self.deck_line + deck.text.count("\n"):
                return Where(str(PAGE), deck.line + where.line - self.deck_line, where.col)
            size = self.page.cards.text.count("\n")
            for start in self.card_lines:
                if start <= where.line < start + size:
                    return Where(str(PAGE), self.page.cards.line + where.line - start, max(1, where.col - 4))
        return where

    def located(self, err: DeckError) -> DeckError:
        problems = [Problem(self.on_page(p.where), p.message) for p in err.problems]
        return DeckError(list(dict.fromkeys(problems)))


def draw(page: Page, folder: Path) -> tuple[dict[str, Image.Image], list[str]]:
    """Every example's picture, and the warnings drawing it gave; DeckError located on the page."""
    project = Project(folder, page)
    pictures, warnings = {}, []
    try:
        deck = load_deck(project.deck)
        renderer = FaceRenderer(deck)
        components = {component.id: component for component in deck.model.components}
        for example in page.examples:
            component = components[example.name]
            cards = {card.id: card for card in component.cards}
            ids = example.cards or [component.cards[0].id]
            missing = [i for i in ids if i not in cards]
            if missing:
                raise DeckError.at(Where(str(PAGE), example.line - 2, 1), f"no card {missing[0]!r} in the "
                                   "cards block; name the cards of a picture by their ids")
            faces = []
            for card in (cards[i] for i in ids):
                label = f"card {card.name!r}"
                faces.append(reduced(renderer.render(card.template, card.fields(), {"id": component.id, "name":
                                                     component.name}, component.size, card.where, label)))
                warnings += [f"{project.on_page(card.where)}: warning: {label}: {w}" for w in renderer.warnings]
            pictures[example.name] = side_by_side(faces)
    except DeckError as err:
        raise project.located(err) from None
    return pictures, list(dict.fromkeys(warnings))


def reduced(face: Image.Image) -> Image.Image:
    small = face.convert("RGBA").resize((WIDTH, round(face.height * WIDTH / face.width)), Image.LANCZOS)
    ImageDraw.Draw(small).rectangle((0, 0, small.width - 1, small.height - 1), outline=FRAME)
    return small


def side_by_side(cards: list[Image.Image]) -> Image.Image:
    out = Image.new("RGBA", (sum(c.width for c in cards) + GAP * (len(cards) - 1), cards[0].height), (0, 0, 0, 0))
    for i, card in enumerate(cards):
        out.paste(card, (i * (WIDTH + GAP), 0))
    return out if len(cards) > 1 else out.convert("RGB")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        try:
            pictures, warnings = draw(read_page(PAGE.read_text(encoding="utf-8")), Path(folder) / "project")
        except (DeckError, ValueError) as err:
            print(err, file=sys.stderr)
            return 1
    for warning in warnings:
        print(warning, file=sys.stderr)
    PICTURES.mkdir(exist_ok=True)
    for stale in set(PICTURES.glob("*.png")) - {PICTURES / f"{name}.png" for name in pictures}:
        stale.unlink()
    for name, picture in pictures.items():
        picture.save(PICTURES / f"{name}.png", optimize=True)
    total = sum(p.stat().st_size for p in PICTURES.glob("*.png"))
    print(f"{len(pictures)} pictures in {PICTURES}, {total / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
