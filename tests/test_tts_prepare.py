"""The TTS builder compiles its templates while the faces are drawn (builders/tts.py, prepare) and renders
with them; a template that does not compile is still told as a build's one located line."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import ROOT, run_cli
from deckpress.builders import tts as tts_builder
from deckpress.deck import load_deck


def test_the_build_renders_with_the_templates_its_builder_prepared():
    ctx, other = SimpleNamespace(deck=load_deck(ROOT / "decks" / "score.yaml")), SimpleNamespace()
    other.deck = ctx.deck
    tts_builder.prepare(ctx)
    scripts, uis = tts_builder._templates(other)  # another build's: made anew
    assert not scripts.environment.cache and not uis.environment.cache
    tts_builder.prepare(ctx)
    scripts, uis = tts_builder._templates(ctx)
    assert [t.name for t in scripts.environment.cache.values()] == ["global.lua.j2"]
    assert [t.name for t in uis.environment.cache.values()] == ["ui.xml.j2"]
    scripts, _ = tts_builder._templates(ctx)  # taken once
    assert not scripts.environment.cache


def test_a_tts_template_that_does_not_compile_is_one_located_line(tmp_path):
    project = tmp_path / "game"
    assert run_cli("new", str(project), "--name", "Game").exit_code == 0
    (project / "tts").mkdir()
    (project / "tts" / "ui.xml.j2").write_text("<Panel>\n{% if %}</Panel>\n", encoding="utf-8")
    result = run_cli("build", "--quiet", cwd=project)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "tts/ui.xml.j2:2:1: template error:" in lines[0], lines
    assert not (project / "build" / "game").exists()
