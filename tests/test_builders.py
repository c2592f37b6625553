"""Builders are plug-ins (src/deckpress/builders/__init__.py): one class each, with its name and a typed options
record whose keys are its command-line flags; deckpress's own and those an installed package registers in the
entry-point group `deckpress.builders` run alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import run_cli
from deckpress.builders import PDFBuilder


def test_a_builders_flags_come_from_its_options_record():
    help_text = " ".join(run_cli("build", "--help").stdout.split())
    for key, option in PDFBuilder.Options.OPTIONS.items():
        assert f"--{key.replace('_', '-')}" in help_text and " ".join(option.doc.split()) in help_text
    assert "--back-offset X,Y" in help_text and "[default: 0,0]" in help_text


def test_a_builders_options_are_typed():
    options = PDFBuilder.defaults(back_offset=["1.5", "-2"])
    assert (options.duplex, options.back_offset) == ("long-edge", [1.5, -2.0])
    with pytest.raises(ValueError, match="at most 20"):
        PDFBuilder.defaults(back_offset=[0, 21])
    with pytest.raises(ValueError, match="did you mean 'short-edge'"):
        PDFBuilder.defaults(duplex="short")


ZINE = '''\
from deckpress.builders import Builder
from deckpress.options import Int, Record


class ZineOptions(Record):
    """A zine of the deck."""

    zine_pages = Int("Pages of the zine.", default=8, min=4)


class ZineBuilder(Builder):
    name = "zine"
    Options = ZineOptions

    def tiles(self, deck, faces):
        return {faces.all()[0].path: {(20, 30)}}

    def build(self, ctx):
        ctx.path("zine/pages.txt").write_text(str(self.options.zine_pages))
'''

RUN = """\
import sys
from deckpress.cli import main
sys.argv = ["deckpress", *sys.argv[1:]]
main()
"""


def installed(tmp_path, source: str):
    """A new project, and a function running deckpress in it with the package `zine` (its module `source`,
    registering ZineBuilder) installed."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "zine.py").write_text(source, encoding="utf-8")
    info = site / "zine-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: zine\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[deckpress.builders]\nzine = zine:ZineBuilder\n", encoding="utf-8")
    project = tmp_path / "game"
    assert run_cli("new", str(project), "--name", "Game").exit_code == 0
    env = {**os.environ, "PYTHONPATH": str(site)}

    def deckpress(*args):
        return subprocess.run([sys.executable, "-c", RUN, *args], cwd=project, env=env, capture_output=True,
                              text=True, timeout=120)
    return project, deckpress


def test_an_installed_package_brings_a_builder(tmp_path):
    project, deckpress = installed(tmp_path, ZINE)
    done = deckpress("build", "--help")
    assert "--zine-pages" in done.stdout and "Pages of the zine." in done.stdout
    done = deckpress("build", "--quiet", "--zine-pages", "2")
    assert done.returncode == 2 and "2 is too small; write a number of at least 4" in done.stderr, done.stderr
    done = deckpress("build", "--quiet", "--zine-pages", "12")
    assert done.returncode == 0, done.stderr
    built = project / "build" / "game"
    assert (built / "zine" / "pages.txt").read_text() == "12"
    assert (built / "tts" / "game.json").is_file() and list((built / "print").glob("*.pdf"))
    assert any(p.name.endswith("@20x30.zst") for p in (built / "cache").rglob("*.zst"))  # the tile it asked for


@pytest.mark.parametrize("old, new, expected", [
    ('name = "zine"', 'name = "pdf"', "builder pdf: another builder has its name or one of its options; uninstall "
                                      "one of the two packages"),
    ("zine_pages = Int(", "duplex = Int(", "builder zine: another builder has its name or one of its options; "
                                            "uninstall one of the two packages"),
    ("from deckpress.builders", "import no_such_module\nfrom deckpress.builders",
     "entry point zine = zine:ZineBuilder (deckpress.builders): cannot load the builder: ModuleNotFoundError: No "
     "module named 'no_such_module'; reinstall or uninstall its package"),
    ("class ZineBuilder(Builder):", "class ZineBuilder:", "entry point zine = zine:ZineBuilder (deckpress.builders): "
                                                          "is no deckpress.builders.Builder; fix or uninstall its package"),
    ('    Options = ZineOptions\n', '    Options = ZineOptions\n    section, Section = "game", ZineOptions\n',
     "builder zine: its deck section 'game' is a key of the deck file already; uninstall its package"),
], ids=["own-name", "own-flag", "does-not-load", "no-builder", "own-section"])
def test_an_installed_builder_that_cannot_run_beside_deckpresss_own_is_one_line(tmp_path, old, new, expected):
    """A package's builder that takes a name or a flag of deckpress's own builders (which come first), does not
    import, or is no Builder: the build stops (and `check` fails) at one line
    naming it, once, before anything is written."""
    project, deckpress = installed(tmp_path, ZINE.replace(old, new, 1))
    for command in ("check", "build"):
        done = deckpress(command, "--quiet") if command == "build" else deckpress(command)
        assert done.returncode == 1 and not (project / "build").exists(), done.stderr
        assert done.stderr.strip().splitlines() == [expected], command


SECTION = ZINE.replace("class ZineBuilder(Builder):", '''class ZineSettings(Record):
    """Zine settings."""

    title = Str("The zine's title.", default="Untitled")


class ZineBuilder(Builder):''').replace("import Int, Record", "import Int, Record, Str").replace(
    "    Options = ZineOptions\n", '    Options = ZineOptions\n    section, Section = "zine", ZineSettings\n').replace(
    "write_text(str(self.options.zine_pages))", "write_text(ctx.deck.model.zine.title)")


def test_an_installed_builder_brings_its_section_of_the_deck_file(tmp_path):
    """A builder's `section` is a key of the deck file, typed by its record, checked by `check`, documented by
    `schema`, and given to the builder: left out, it holds the record's defaults."""
    project, deckpress = installed(tmp_path, SECTION)
    deck = project / "decks" / "game.yaml"
    assert deckpress("build", "--quiet").returncode == 0
    assert (project / "build" / "game" / "zine" / "pages.txt").read_text() == "Untitled"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text + "zine:\n  titel: Night\n", encoding="utf-8")
    line = len(text.splitlines()) + 2
    done = deckpress("check")
    assert done.returncode == 1 and done.stderr == (f"decks/game.yaml:{line}:3: unknown key 'titel' in ZineSettings; "
                                                    "did you mean 'title'?\n"), done.stderr
    deck.write_text(text + "zine:\n  title: Night\n", encoding="utf-8")
    assert deckpress("build", "--quiet").returncode == 0
    assert (project / "build" / "game" / "zine" / "pages.txt").read_text() == "Night"
    schema = json.loads(deckpress("schema").stdout)
    assert list(schema["properties"])[-3:] == ["print", "zine", "script"]
    assert schema["properties"]["zine"]["properties"]["title"]["description"] == "The zine's title."


@pytest.mark.parametrize("step", ["prepare", "build"])
def test_a_builder_that_fails_is_named_and_the_previous_build_stays(tmp_path, step):
    """A builder with a bug (an installed one's, say) that raises while it prepares or builds: its traceback,
    then one line naming it, exit status 1, and the previous build as it was (not `Broken pipe; pick another
    --out`, as when it failed before it was let run)."""
    source = ZINE + f"""
    def {step}(self, ctx):
        if (ctx.deck.path.parent.parent / "bug").exists():
            raise RuntimeError("the zine's own bug")
"""
    project, deckpress = installed(tmp_path, source)
    assert deckpress("build", "--quiet").returncode == 0
    manifest = (project / "build" / "game" / "manifest.json").read_bytes()
    (project / "bug").touch()
    (project / "decks" / "game.yaml").write_text((project / "decks" / "game.yaml").read_text(encoding="utf-8")
                                                 .replace("name: Wild", "name: Wilder", 1), encoding="utf-8")
    done = deckpress("build", "--quiet")
    assert done.returncode == 1
    assert "RuntimeError: the zine's own bug" in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert "the zine builder stopped (exit status 1" in last and "the previous build is as it was" in last, last
    assert "Broken pipe" not in done.stderr
    assert (project / "build" / "game" / "manifest.json").read_bytes() == manifest
