"""docs/templates.md covers every element type and every template and element option, each with an
example; every example draws through deckpress, and the pictures the page shows are the ones
docs/pictures.py makes from them."""

from __future__ import annotations

import re

import pytest
import yaml
from PIL import Image

from conftest import ROOT
from helpers.docs import pictures
from deckpress.errors import DeckError
from deckpress.options import Choice
from deckpress.elements import Element
from deckpress.schema import Template

TEXT = pictures.PAGE.read_text(encoding="utf-8")
PAGE = pictures.read_page(TEXT)
PROSE = re.sub(r"^```.*?^```$", "", TEXT, flags=re.M | re.S)  # the page without its code blocks
TEMPLATES = {example.name: yaml.safe_load(example.text) for example in PAGE.examples}
ELEMENTS = [element for template in TEMPLATES.values() for element in template["elements"]]


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    return pictures.draw(PAGE, tmp_path_factory.mktemp("pictures") / "project")


def test_every_element_type_has_an_example():
    shown = {element["type"] for element in ELEMENTS}
    for kind in Element.TYPES:
        assert f"### `{kind}`" in PROSE, f"docs/templates.md has no section `{kind}`"
        assert kind in shown, f"no example draws a {kind}"


@pytest.mark.parametrize("record", [Element, *Element.TYPES.values(), Template], ids=lambda r: r.__name__)
def test_every_option_is_explained_and_used_in_an_example(record):
    """Every key of a template, every key all elements take, and each type's own keys in an example of
    that type."""
    if record is Template:
        used, keys = {key for template in TEMPLATES.values() for key in template}, record.OPTIONS
    elif record is Element:
        used, keys = {key for element in ELEMENTS for key in element}, record.OPTIONS
    else:
        used = {key for element in ELEMENTS if element["type"] == record.TYPE for key in element}
        keys = [key for key in record.OPTIONS if key not in Element.OPTIONS]
    for key in keys:
        assert f"`{key}`" in PROSE, f"docs/templates.md does not explain {record.__name__} option `{key}`"
        assert key in used, f"no example in docs/templates.md uses {record.__name__} option `{key}`"


@pytest.mark.parametrize("record", Element.TYPES.values(), ids=lambda r: r.TYPE)
def test_every_choice_is_shown(record):
    """Each value of an element's choice options is in an example (of any type that takes the option), but
    for a default (shown by leaving the key out)."""
    for key, option in record.OPTIONS.items():
        if not isinstance(option, Choice) or key == "type":
            continue
        used = {element[key] for element in ELEMENTS if key in element}
        for value in option.choices:
            assert value == option.default or value in used, f"no example has `{key}: {value}`"


def test_every_example_draws_its_picture(drawn):
    images, warnings = drawn
    assert list(images) == [example.name for example in PAGE.examples]
    for example in PAGE.examples:
        cards = len(example.cards) or 1
        assert images[example.name].width == cards * pictures.WIDTH + (cards - 1) * pictures.GAP
    # The placeholder the page shows warns, located on the page, like every warning of an example.
    assert any("'../art/ember.png' does not exist yet" in w for w in warnings)
    assert all(w.startswith(f"{pictures.PAGE.relative_to(ROOT)}:") or w.startswith(f"{pictures.PAGE}:")
               for w in warnings), warnings


def test_the_page_shows_each_picture_under_its_example_and_no_other(drawn):
    images, _ = drawn
    shown = re.findall(r"!\[[^\]]+\]\(pictures/([a-z0-9-]+)\.png\)", TEXT)
    assert shown == list(images), "show each example's picture once, in the examples' order"
    for example in PAGE.examples:
        after = TEXT[TEXT.index(example.text) + len(example.text):]
        assert re.match(rf"```\n\n!\[[^\]]+\]\(pictures/{example.name}\.png\)", after), \
            f"the picture of {example.name} is not right under its example"
    files = sorted(p.stem for p in pictures.PICTURES.glob("*"))
    assert files == sorted(images), "run `python docs/pictures.py`: docs/pictures/ differs from the page"
    for name, image in images.items():
        with Image.open(pictures.PICTURES / f"{name}.png") as saved:
            assert saved.size == image.size, f"docs/pictures/{name}.png is stale; run python docs/pictures.py"
    assert sum(p.stat().st_size for p in pictures.PICTURES.glob("*.png")) < 1_000_000


def test_a_broken_example_is_located_on_the_page(tmp_path):
    text = TEXT.replace("fill: \"#e6550d\"}", "fill: \"#e6550d\", colour: red}", 1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "colour: red" in row)
    with pytest.raises(DeckError) as err:
        pictures.draw(pictures.read_page(text), tmp_path / "project")
    assert [(p.where.path, p.where.line) for p in err.value.problems] == [(str(pictures.PAGE), line)]
    assert "unknown key 'colour'" in str(err.value)
