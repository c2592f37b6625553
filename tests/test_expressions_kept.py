"""The code of a deck's expressions is kept in the user's cache folder for the next command (expr.py): taken
again for the same Python, jinja2 and deckpress, with the same values; compiled again for another; a
broken cache file is no error. A deck's read has the code of its templates' expressions too, before the
builders and the drawing processes fork."""

from __future__ import annotations

import pytest

from conftest import ROOT
from deckpress import expr
from deckpress.deck import load_deck

SCORE = ROOT / "decks" / "score.yaml"


def fresh() -> None:
    """As in a new process: nothing read from the cache folder nor compiled yet."""
    expr.COMPILED.forget()


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fresh()
    yield tmp_path / "cache" / "deckpress" / expr.KEPT
    fresh()


@pytest.fixture
def compiles(monkeypatch) -> list[str]:
    """The sources jinja2 compiles from here on."""
    seen: list[str] = []
    for env in (expr._TEXT, expr._NATIVE):
        def counted(source, *args, original=env.compile, **kwargs):
            seen.append(source)
            return original(source, *args, **kwargs)
        monkeypatch.setattr(env, "compile", counted)
    return seen


def facts(deck) -> list:
    return [(card.name, card.fields().get("text"), card.fields().get("value")) for component in
            deck.model.components for card in component.cards]


def test_a_second_read_takes_the_code_kept_and_reads_the_same(cache_home, compiles):
    first = load_deck(SCORE)
    assert cache_home.is_file()
    assert "Score {{ n }} point{{ 's' if n > 1 }}." in compiles  # the deck's
    assert "{{ card.name }}" in compiles  # a template's, read before any face is drawn
    compiles.clear()
    fresh()
    second = load_deck(SCORE)
    assert compiles == []
    assert facts(second) == facts(first)
    assert any(text == "Score 2 points." for _, text, _ in facts(second))
    assert expr.render_value("{{ W - 6 }}", {"W": 63}) == 57
    assert compiles == []


def test_the_expressions_of_templates_are_compiled_as_the_deck_is_read(cache_home, compiles):
    load_deck(SCORE)
    compiles.clear()
    assert expr.render_text("{{ card.name }}", {"card": {"name": "Fire! 2"}}) == "Fire! 2"
    assert expr.render_value("{{ W / 2 - 20 }}", {"W": 63}) == 11.5
    assert compiles == []  # a drawing process forked after the read compiles none


def test_the_code_kept_for_another_deckpress_is_not_taken(cache_home, compiles, monkeypatch):
    load_deck(SCORE)
    fresh()
    monkeypatch.setattr("deckpress.inputs.package_digest", lambda: "another deckpress")
    compiles.clear()
    load_deck(SCORE)
    assert "Score {{ n }} point{{ 's' if n > 1 }}." in compiles


@pytest.mark.parametrize("content", [b"", b"not marshal at all", b"\xe9\x00\x00\x00"])
def test_a_broken_cache_file_is_compiled_over(cache_home, compiles, content):
    cache_home.parent.mkdir(parents=True)
    cache_home.write_bytes(content)
    deck = load_deck(SCORE)
    assert any(text == "Score 2 points." for _, text, _ in facts(deck))
    assert cache_home.read_bytes() != content
    compiles.clear()
    fresh()
    load_deck(SCORE)
    assert compiles == []


def test_an_expression_that_does_not_compile_is_still_said_where_it_is(cache_home, tmp_path):
    from deckpress.errors import DeckError

    project = tmp_path / "project"
    (project / "decks").mkdir(parents=True)
    (project / "decks" / "score.yaml").write_text(SCORE.read_text(encoding="utf-8").replace(
        'text: Score {{ n }} point', 'text: Score {{ n + }} point', 1), encoding="utf-8")
    (project / "templates").symlink_to(ROOT / "templates")
    with pytest.raises(DeckError) as err:
        load_deck(project / "decks" / "score.yaml")
    assert "score.yaml:" in str(err.value.problems[0]) and "{{ n + }}" in str(err.value.problems[0])

