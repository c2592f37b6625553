"""The TTS builder compiles its templates while the faces are drawn (builders/tts/steps.py, prepare) and renders
with them; a template that does not compile is still told as a build's one located line. The PDF builder
imports the rules' typesetting where a build needs it."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from conftest import ROOT, run_cli
from deckpress.builders.tts import steps as tts_builder
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
    # and the scripted game's UI, which the UI includes
    assert sorted(t.name for t in uis.environment.cache.values()) == ["score/ui.xml.j2", "ui.xml.j2"]
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


def imports_rules(steps: str) -> list[str]:
    """Whether a fresh interpreter has imported the rules' typesetting after each step (a line of `steps`)."""
    code = "import sys\nfrom types import SimpleNamespace\nfrom deckpress.builders.pdf import PDFBuilder, steps as pdf\n" + "".join(
        f"{step}\nprint('deckpress.builders.pdf.rules' in sys.modules)\n" for step in steps.splitlines())
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_the_pdf_builder_imports_the_rules_typesetting_only_where_a_build_needs_it():
    """reportlab's platypus (50 ms) is imported while the faces are drawn for a first build, which writes
    every PDF; not for a rebuild, which mostly reuses its PDFs or replaces their faces (write_pdf imports it
    when it must); and by `deckpress watch`'s preload, once for all its rebuilds."""
    assert imports_rules("pdf.prepare(SimpleNamespace(previous='build/game'))\n"
                         "pdf.prepare(SimpleNamespace(previous=None))") == ["False", "True"]
    assert imports_rules("PDFBuilder.load()") == ["True"]


def test_the_pdf_builder_reads_its_fonts_while_the_faces_are_drawn_for_a_first_build_alone():
    """A first build writes every PDF: its PDF process reads the fonts while the faces are drawn. A rebuild's
    does not (after a card's edit its PDFs only have their faces' images replaced), and reads them with the
    first PDF it writes anew, before anything is drawn on it."""
    code = ("import sys\nfrom types import SimpleNamespace\n"
            "from reportlab.pdfbase import pdfmetrics\nfrom deckpress.builders.pdf import steps as pdf\n"
            "from deckpress.builders.pdf.canvas import SANS, new_canvas\n"
            "pdf.prepare(SimpleNamespace(previous=sys.argv[1] or None))\n"
            "print(SANS in pdfmetrics.getRegisteredFontNames())\n"
            "new_canvas((63, 88), 'title', 'author', 'subject')\n"
            "print(SANS in pdfmetrics.getRegisteredFontNames())\n")
    said = [subprocess.run([sys.executable, "-c", code, previous], capture_output=True, text=True, timeout=120)
            for previous in ("", "build/game")]
    assert all(run.returncode == 0 for run in said), [run.stderr for run in said]
    assert [run.stdout.split() for run in said] == [["True", "True"], ["False", "True"]]
