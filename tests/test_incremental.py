"""An incremental build equals a clean one, byte for byte, whichever input changed; and two clean builds
in different folders and environments are byte-identical."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from conftest import ROOT, run_cli
from helpers.builds import URL, age, build, clean_build, edit, game, tree  # noqa: F401 (game: a fixture)
from deckpress import build as build_module, deck, faces, inputs, stamp
from deckpress.builders.pdf import steps as pdf_builder
from deckpress.builders.pdf import rules
from deckpress.builders.tts import sheets
from deckpress.paths import PACKAGE_DATA

CHANGES = {
    "a card's text": lambda p: edit(p / "decks/game.yaml", "then play again", "then play twice"),
    "the rules, which the PDFs typeset": lambda p: edit(p / "decks/game.yaml", "Be the first to play",
                                                        "Be the very first to play"),
    "the game's version, which the back shows": lambda p: edit(p / "decks/game.yaml", 'version: "0.1"',
                                                               'version: "0.2"'),
    "a template": lambda p: edit(p / "templates/card.yaml", 'fill: "#ffffff"', 'fill: "#fdf6e3"'),
    "an image": lambda p: Image.new("RGB", (40, 20), (30, 30, 200)).save(p / "art/logo.png"),
    "a font file": lambda p: shutil.copy(PACKAGE_DATA / "fonts" / "DejaVuSans-Bold.ttf", p / "fonts/mine.ttf"),
    "a print profile the project adds": lambda p: (p / "print").mkdir() or
        (p / "print/a4.yaml").write_text("page: a4\ngap: 2\n", encoding="utf-8"),
    "a rules style the project adds": lambda p: (p / "print/rules-style.yaml").write_text(
        "columns: 1\nink: \"#334455\"\n", encoding="utf-8"),
    "a TTS template the project adds": lambda p: (p / "tts").mkdir() or
        (p / "tts/ui.xml.j2").write_text("<Text>{{ title }}</Text>\n", encoding="utf-8"),
}


def test_an_incremental_build_equals_a_clean_one_after_each_change(game, tmp_path):
    build(game)
    assert "up to date" in build(game)
    for name, change in CHANGES.items():
        before = tree(game / "build" / "game")
        change(game)
        build(game)
        after = tree(game / "build" / "game")
        assert after != before, f"{name} changed nothing"
        assert after == clean_build(game, tmp_path), name


def test_a_scripted_games_save_box_and_thumbnails_after_an_edit_equal_a_clean_builds(tmp_path):
    """The TTS builder takes from the last build what an edit leaves alone (the checks of the Global script
    and of the engine, the thumbnails): the save, the saved objects, the box and the records still equal
    a clean build's after an edit of a card's text, then of the engine."""
    root = tmp_path / "climb"
    assert run_cli("new", str(root), "--scripted").exit_code == 0
    build(root)
    changes = [(root / "decks/climb.yaml", "then play again.", "then play twice."),
               (root / "tts/climb/engine.lua", "\nreturn Engine", "\n-- the end\nreturn Engine")]
    for path, old, new in changes:
        before = tree(root / "build" / "climb")
        edit(path, old, new)
        build(root)
        after = tree(root / "build" / "climb")
        assert {"tts/climb.json", "tts/saved-objects/climb-box.json", "tts/climb.png"} <= after.keys()
        assert after["tts/climb.json"] != before["tts/climb.json"], path
        assert after == clean_build(root, tmp_path, deck="climb"), path


def test_a_build_option_is_an_input_too(game, tmp_path):
    build(game)
    build(game, "--duplex", "short-edge")
    assert tree(game / "build" / "game") == clean_build(game, tmp_path, "--duplex", "short-edge")


def test_a_change_to_deckpress_itself_redraws_every_face(game, monkeypatch):
    build(game)
    monkeypatch.setattr(inputs, "package_digest", lambda: "another deckpress")
    monkeypatch.setattr(faces, "package_digest", lambda: "another deckpress")
    monkeypatch.setattr(build_module, "package_digest", lambda: "another deckpress")  # the stamp's key
    assert "(9 faces rendered, 0 reused)" in build(game)


def test_clean_builds_are_identical_across_folders_and_environments(game, tmp_path):
    """Different folders, TZ, locale, PYTHONHASHSEED and umask give the same bytes; SOURCE_DATE_EPOCH dates
    the save."""
    outputs = []
    for i, (tz, lang, seed, umask) in enumerate([("UTC", "C.UTF-8", "1", 0o022),
                                                 ("Asia/Tokyo", "ru_RU.UTF-8", "4242", 0o077)]):
        root = tmp_path / f"copy{i}" / "somewhere" / "game"
        shutil.copytree(game, root)
        env = {**os.environ, "TZ": tz, "LANG": lang, "LC_ALL": lang, "PYTHONHASHSEED": seed,
               "SOURCE_DATE_EPOCH": "1764576000"}
        run = subprocess.run([sys.executable, "-m", "deckpress", "build", "--asset-url", URL, "--quiet"], cwd=root,
                             env=env, capture_output=True, text=True, preexec_fn=lambda m=umask: os.umask(m),
                             timeout=120)
        assert run.returncode == 0, run.stderr
        outputs.append(tree(root / "build" / "game"))
    assert outputs[0] == outputs[1]
    save = json.loads((tmp_path / "copy0" / "somewhere" / "game" / "build" / "game" / "tts" / "game.json").read_text())
    assert (save["EpochTime"], save["Date"]) == (1764576000, "12/1/2025 8:00:00 AM")


def test_a_card_edit_makes_again_only_the_artifacts_that_show_the_card(game, monkeypatch):
    """One face and the tiles cut from it, the sheet it is on and, in the PDFs that print it, the face's image
    (the rest of each PDF taken as it is); not the backs, the tokens, the typesetting of the rules or the
    calibration sheets, whose records did not change."""
    build(game, "--out", "build")
    log = game.parent / "made.txt"  # the builders may run in processes of their own: each call is a line
    for module, name in ((sheets, "splice"), (faces, "cut"), (rules, "_plan"),
                         (pdf_builder, "write_pdf"), (pdf_builder, "_replaced"), (pdf_builder, "write_calibration")):
        def spy(*args, _original=getattr(module, name), _name=name):
            with open(log, "a", encoding="utf-8") as file:
                file.write(_name + "\n")
            return _original(*args)
        monkeypatch.setattr(module, name, spy)
    before = tree(game / "build" / "game")
    edit(game / "decks/game.yaml", "then play again", "then play twice")
    assert "(1 faces rendered, 8 reused)" in build(game)
    after = tree(game / "build" / "game")
    changed = sorted(name for name in after if name.startswith("faces/") and after[name] != before.get(name))
    tiles = [name for name in after if name.startswith(f"cache/{changed[0].removesuffix('.png')}@")]
    assert len(changed) == 1 and tiles
    made = log.read_text(encoding="utf-8").split()
    assert sorted(set(made)) == ["_replaced", "cut", "splice"]
    assert made.count("splice") == 1 and made.count("_replaced") == 2 and made.count("cut") == len(tiles)


def test_a_build_does_not_take_an_artifact_changed_since_from_the_last_one(game, tmp_path):
    """A recorded artifact is taken from the previous build only with the bytes it was recorded with."""
    build(game)
    out = game / "build" / "game"
    for path in [*out.glob("print/*.pdf"), *out.glob("tts/assets/*")]:
        path.write_bytes(path.read_bytes()[:-10] + b"0123456789")
    edit(game / "decks/game.yaml", "then play again", "then play twice")
    build(game)
    assert tree(out) == clean_build(game, tmp_path)


def test_an_input_saved_while_the_build_runs_is_read_again_by_the_next(game, tmp_path, monkeypatch):
    """The manifest records the inputs as the build read them, at its start: a template saved while the faces
    are drawn (after it was read) makes the next build draw them again, and equal a clean one."""
    build(game)
    check_safe_zone = faces.FaceStage.check_safe_zone  # in the deck's process, once the faces are drawn

    def saved_meanwhile(records):
        edit(game / "templates" / "back.yaml", "v{{ game.version }}", "version {{ game.version }}")
        return check_safe_zone(records)
    with monkeypatch.context() as patched:
        patched.setattr(faces.FaceStage, "check_safe_zone", staticmethod(saved_meanwhile))
        edit(game / "decks/game.yaml", "then play again", "then play twice")
        build(game)
    assert "up to date" not in build(game)
    assert tree(game / "build" / "game") == clean_build(game, tmp_path)


def test_tiles_are_cut_again_only_when_missing(game, tmp_path):
    """A reused face's tiles come from the last build's cache/; one removed from there is cut again from the
    face, and the build still equals a clean one."""
    build(game)
    out = game / "build" / "game"
    cached = sorted(out.glob("cache/faces/deck/number-1@*.zst"))  # a card's on the thumbnails, not the one edited
    assert cached
    cached[0].unlink()
    edit(game / "decks/game.yaml", "then play again", "then play twice")
    build(game)
    assert cached[0].is_file()
    assert tree(out) == clean_build(game, tmp_path)


def test_a_stamp_tells_a_build_up_to_date_until_an_input_or_an_output_changes(game, monkeypatch):
    """A build whose inputs are old enough leaves a stamp, by which the next one is told up to date without
    reading the deck; each change of CHANGES, and an output changed with its size kept, makes the build
    look again (and the build equals a clean one then: see above)."""
    age(game)
    build(game)
    assert stamp.stamp_path(game / "build" / "game").is_file()

    def unread(*args):
        raise AssertionError("the deck was read")

    with monkeypatch.context() as patched:
        patched.setattr(deck, "load_deck", unread)
        assert "up to date" in build(game)
    for name, change in CHANGES.items():
        change(game)
        assert "up to date" not in build(game), name
        age(game)
        assert "up to date" in build(game), name  # read in full: stamped again
    pdf = next((game / "build" / "game" / "print").glob("*.pdf"))
    pdf.write_bytes(pdf.read_bytes()[:-10] + b"0123456789")
    assert "up to date" not in build(game)
    with monkeypatch.context() as patched:
        patched.setattr(deck, "load_deck", unread)
        assert "up to date" in build(game)


def test_an_input_hashed_once_is_hashed_again_when_it_changes(tmp_path):
    """A process (a build's second look at its inputs, `deckpress watch`) keeps each input's digest by the
    file's state: another state, or a file changed too recently for its state to tell, is read again."""
    file = tmp_path / "templates" / "card.yaml"
    file.parent.mkdir()
    old = time.time_ns() - 10 * inputs.YOUNG_NS

    def write(text: str, ns: int | None) -> str:
        file.write_text(text, encoding="utf-8")
        if ns is not None:
            os.utime(file, ns=(ns, ns))
        return hashlib.sha256(text.encode()).hexdigest()
    now = time.time_ns()
    for text, ns in [("size: 1\n", old), ("size: 1\n", old), ("size: 2\n", old + 10**9),  # the same size, later
                     ("size: 3\n", None), ("size: 4\n", None),  # just now: never kept
                     ("size: 5\n", now), ("size: 6\n", now)]:  # a change within the clock's tick: the same state
        expected = write(text, ns)
        assert inputs.input_digest(file) == expected, text


def test_input_files_are_resolved_as_path_resolve_resolves_them(tmp_path, monkeypatch):
    """inputs.resolved_files resolves a listed folder once and only a file that is a link on its own: the same
    paths as Path.resolve of each file, through a folder that is a link, a relative folder and file links."""
    real = tmp_path / "real"
    (real / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "target.yaml").write_text("a: 1\n", encoding="utf-8")
    for name in ("a.yaml", "sub/b.yaml", "sub/deeper/c.yaml"):
        (real / name).write_text("x: 1\n", encoding="utf-8")
    (real / "sub" / "link.yaml").symlink_to(tmp_path / "elsewhere" / "target.yaml")
    (real / "sub" / "relative.yaml").symlink_to("deeper/c.yaml")
    (real / "folder-link").symlink_to(tmp_path / "elsewhere")  # not entered, as Path.rglob does not
    (tmp_path / "via").symlink_to(real)
    monkeypatch.chdir(tmp_path)
    for folder in (tmp_path / "via", Path("via"), Path("via/sub/.."), Path("real"), Path("."), real / "sub"):
        found = inputs.resolved_files(folder)
        assert [path for path, _ in found] == inputs.listed_files(folder)
        assert [resolved for _, resolved in found] == [path.resolve() for path in inputs.listed_files(folder)], folder
    assert (tmp_path / "elsewhere" / "target.yaml") in [r for _, r in inputs.resolved_files(Path("via"))]


def test_the_manifest_of_an_incremental_build_gives_each_files_digest(game):
    """The digests the builders took as they wrote their files (Records.keep), and those of the files taken
    from the last build, are each file's own: the manifest lists the bytes in the folder."""
    build(game)
    edit(game / "decks/game.yaml", "then play again", "then play twice")
    build(game)
    out = game / "build" / "game"
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert {name: info["sha256"] for name, info in manifest["artifacts"].items()} == \
        {name: digest for name, digest in tree(out).items() if name != "manifest.json"}


def test_a_field_no_element_of_a_face_reads_does_not_redraw_it(game, tmp_path):
    """A face's record names the card fields its drawing read: an edit of another (a field only TTS shows, a
    card's count) draws no face again; an edit of one it reads, or a template that starts reading the other,
    draws it again; each build equals a clean one."""
    deck_file = game / "decks" / "game.yaml"
    edit(deck_file, '      text: {doc: What the card does., default: ""}',
         '      text: {doc: What the card does., default: ""}\n      notes: {doc: For the designer., default: ""}')
    edit(deck_file, "        count: 2\n", "        count: 2\n        notes: first draft\n")
    build(game)
    wild = json.loads((game / "build" / "game" / "manifest.json").read_text(encoding="utf-8"))["faces"][
        "faces/deck/wild.png"]
    assert "notes" not in wild["reads"] and {"name", "text", "colour"} <= set(wild["reads"])
    edit(deck_file, "notes: first draft", "notes: second draft")
    assert "(0 faces rendered" in build(game)
    edit(deck_file, "        count: 2\n", "        count: 3\n")
    assert "(0 faces rendered" in build(game)
    assert tree(game / "build" / "game") == clean_build(game, tmp_path)
    edit(deck_file, "then play again", "then play twice")
    assert "(1 faces rendered" in build(game)
    card = game / "templates" / "card.yaml"
    edit(card, "{{ card.text }}", "{{ card.text }} {{ card.notes }}")
    summary = build(game)
    assert "0 faces rendered" not in summary
    assert tree(game / "build" / "game") == clean_build(game, tmp_path)
    edit(deck_file, "notes: second draft", "notes: third draft")
    assert "(1 faces rendered" in build(game)  # the Wild card's face now reads its notes


def test_a_style_edit_redraws_only_the_faces_that_draw_with_that_style(tmp_path):
    """SCORE!'s play cards draw with the style of their kind: a colour of one style changed redraws the one card
    of that kind, not the other 16 of the template, and the build equals a clean one; a line added to the
    styles moves the elements below it (a face's warnings are located by line), so every face of the template
    is drawn again."""
    root = tmp_path / "score"
    (root / "decks").mkdir(parents=True)
    shutil.copy(ROOT / "decks" / "score.yaml", root / "decks" / "score.yaml")
    shutil.copytree(ROOT / "templates", root / "templates")
    assert "(21 faces rendered, 0 reused)" in build(root)
    template = root / "templates" / "score-card.yaml"
    edit(template, '  double: {main: "#e09b12"', '  double: {main: "#e09b13"')
    assert "(1 faces rendered, 20 reused)" in build(root)
    assert tree(root / "build" / "score") == clean_build(root, tmp_path, deck="score")
    edit(template, "  score:  {main:", "  # the point cards\n  score:  {main:")
    assert "(17 faces rendered, 4 reused)" in build(root)
