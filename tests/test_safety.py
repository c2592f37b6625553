"""Nothing lost, nothing escapes: deckpress replaces only what it wrote, keeps every path inside the
project, runs TTS templates in a sandbox, and survives faults and signals with the previous build intact."""

from __future__ import annotations

import errno
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import heeds_ctrl_c, run_cli
from deckpress.processes import available


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def one_line(result, exit_code: int = 1) -> str:
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def template_project(tmp_path_factory) -> Path:
    """`deckpress new` of a game named "Score" (decks/score.yaml), built once into build/."""
    root = tmp_path_factory.mktemp("safety") / "score"
    assert run_cli("new", str(root), "--name", "Score").exit_code == 0
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    return root


@pytest.fixture
def game(template_project, tmp_path) -> Path:
    """A fresh copy of the built project, in a folder named score/ of its own."""
    root = tmp_path / "score"
    shutil.copytree(template_project, root)
    return root


def change_a_card(project: Path) -> None:
    deck = project / "decks" / "score.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("then play again", "then play once more"),
                    encoding="utf-8")


# --- 1. only what deckpress wrote ---------------------------------------------------------------------

def test_out_of_the_project_folder_itself_is_refused(game):
    """`deckpress build score --out ..` inside a project named score/ would replace the project."""
    before = tree(game)
    line = one_line(run_cli("build", "score", "--out", "..", cwd=game))
    assert "would replace the project itself" in line
    assert tree(game) == before


def test_a_users_own_folder_is_not_replaced(game, tmp_path):
    mine = tmp_path / "out" / "score"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("my notes")
    line = one_line(run_cli("build", "--out", str(tmp_path / "out"), cwd=game))
    assert "not built by deckpress" in line and "pick another --out" in line
    assert tree(mine) == {"notes.txt": b"my notes"}


def test_another_decks_build_folder_is_not_replaced(game, tmp_path):
    """A folder deckpress built for another deck, where this deck's would go, is not this deck's to replace."""
    out = tmp_path / "out"
    (game / "decks" / "score.yaml").rename(game / "decks" / "other.yaml")
    assert run_cli("build", "--out", str(out), "--quiet", cwd=game).exit_code == 0
    (out / "other").rename(out / "score")
    before = tree(out / "score")
    (game / "decks" / "other.yaml").rename(game / "decks" / "score.yaml")
    line = one_line(run_cli("build", "--out", str(out), cwd=game))
    assert "not built by deckpress" in line and "for 'score'" in line
    assert tree(out / "score") == before


def test_a_file_the_user_added_to_a_build_folder_stops_the_build(game):
    (game / "build" / "score" / "print" / "my-notes.txt").write_text("keep me")
    before = tree(game / "build")
    change_a_card(game)
    line = one_line(run_cli("build", cwd=game))
    assert line.startswith("build/score/print/my-notes.txt: not written by deckpress")
    assert tree(game / "build") == before


def test_a_build_folder_that_is_a_symbolic_link_is_not_followed(game, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("x")
    shutil.rmtree(game / "build" / "score")
    (game / "build" / "score").symlink_to(elsewhere)
    assert "is not a folder deckpress built" in one_line(run_cli("build", cwd=game))
    assert tree(elsewhere) == {"precious.txt": b"x"}


def test_files_named_like_staging_folders_are_left_alone(game):
    for name in (".score.staging", ".score.old"):
        (game / "build" / name).mkdir()
        (game / "build" / name / "mine.txt").write_text(name)
    change_a_card(game)
    assert run_cli("build", "--quiet", cwd=game).exit_code == 0
    assert (game / "build" / ".score.staging" / "mine.txt").read_text() == ".score.staging"
    assert (game / "build" / ".score.old" / "mine.txt").read_text() == ".score.old"
    assert sorted(p.name for p in (game / "build").iterdir()) == [".score.old", ".score.staging", "score"]


def test_two_builds_at_once_into_one_folder_both_succeed(game, tmp_path):
    out = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-m", "deckpress", "build", "--out", str(out)], cwd=game,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], results
    assert "Traceback" not in "".join(err for _, err in results)
    assert sorted(p.name for p in out.iterdir()) == ["score"]
    built, reference = tree(out / "score"), tree(game / "build" / "score")
    assert built.keys() == reference.keys()
    assert all(built[name] == reference[name] for name in built if name.startswith(("faces/", "print/")))


# --- 2. nothing escapes ---------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", [
    "{{ cycler.__init__.__globals__.os.system('touch escaped') }}",
    "{{ lipsum.__globals__['os'].popen('id').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
])
def test_tts_templates_run_in_the_sandbox(game, payload):
    (game / "tts").mkdir()
    (game / "tts" / "ui.xml.j2").write_text(f"<Panel>{payload}</Panel>\n", encoding="utf-8")
    line = one_line(run_cli("build", "--quiet", cwd=game))
    assert line.startswith("tts/ui.xml.j2: template error:")
    assert not (game / "escaped").exists()


def outside(tmp_path: Path, name: str, text: str) -> Path:
    secret = tmp_path / "secret"
    secret.mkdir(exist_ok=True)
    (secret / name).write_text(text, encoding="utf-8")
    return secret / name


def test_a_template_linked_from_outside_the_project_is_refused(game, tmp_path):
    card = game / "templates" / "card.yaml"
    card.unlink()
    card.symlink_to(outside(tmp_path, "card.yaml", "elements:\n  - {type: rect, box: bleed}\n"))
    line = one_line(run_cli("check", cwd=game))
    assert "template 'card' leads outside the project" in line and line.startswith("decks/score.yaml:")


def test_a_template_name_cannot_climb_out(game, tmp_path):
    outside(tmp_path, "evil.yaml", "elements:\n  - {type: rect, box: bleed}\n")
    deck = game / "decks" / "score.yaml"
    deck.write_text(deck.read_text().replace("template: card ", "template: ../../secret/evil "), encoding="utf-8")
    assert "leads outside the project" in one_line(run_cli("check", cwd=game))


def test_a_font_outside_the_project_is_refused(game, tmp_path):
    font = outside(tmp_path, "font.ttf", "not a font")
    deck = game / "decks" / "score.yaml"
    deck.write_text(deck.read_text() + f"fonts:\n  mine: {font}\n", encoding="utf-8")
    line = one_line(run_cli("check", cwd=game))
    assert "font file" in line and "leads outside the project" in line


def test_an_image_linked_from_outside_the_project_is_refused(game, tmp_path):
    (game / "decks" / "art.png").symlink_to(outside(tmp_path, "art.png", "x"))
    card = game / "templates" / "card.yaml"
    card.write_text(card.read_text() + "  - {type: image, src: art.png, x: 5, y: 5, w: 10, h: 10}\n")
    line = one_line(run_cli("check", cwd=game))
    assert "image 'art.png' leads outside the project" in line


def test_a_tts_script_linked_from_outside_the_project_is_refused(game, tmp_path):
    (game / "tts" / "score").mkdir(parents=True)
    (game / "tts" / "score" / "table.lua").symlink_to(outside(tmp_path, "table.lua", "return {}\n"))
    deck = game / "decks" / "score.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "script: score\n", encoding="utf-8")
    line = one_line(run_cli("build", "--quiet", cwd=game))
    assert "leads outside the project" in line and "tts/score/table.lua" in line


def test_a_print_profile_linked_from_outside_the_project_is_refused(game, tmp_path):
    (game / "print").mkdir()
    (game / "print" / "a4.yaml").symlink_to(outside(tmp_path, "a4.yaml", "page: a4\n"))
    line = one_line(run_cli("check", cwd=game))
    assert "print profile 'a4' leads outside the project" in line


# --- 6. faults ------------------------------------------------------------------------------------------

def test_a_read_only_output_folder_is_one_line(game, monkeypatch):
    before = tree(game / "build")
    change_a_card(game)

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EROFS, "Read-only file system", str(game / "build"))

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    line = one_line(run_cli("build", cwd=game))
    assert "cannot write the build: Read-only file system; make the folder writable" in line
    assert tree(game / "build") == before


def test_a_full_disk_is_one_line_and_keeps_the_previous_build(game):
    before = tree(game / "build")
    change_a_card(game)

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

    run = subprocess.run([sys.executable, "-m", "deckpress", "build", "--quiet"], cwd=game, text=True,
                         capture_output=True, preexec_fn=small_files, timeout=120)
    assert run.returncode == 1, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot write the build: File too large; free some space" in lines[0], run.stderr
    assert tree(game / "build") == before
    assert sorted(p.name for p in (game / "build").iterdir()) == ["score"]
    assert run_cli("build", "--quiet", "--asset-url", URL, cwd=game).exit_code == 0  # space again
    assert tree(game / "build" / "score") == clean_build(game)


URL = "https://example.org/score/"  # the save's image URLs, the same wherever the project is


def clean_build(project: Path) -> dict[str, bytes]:
    fresh = project.parent / "clean" / project.name
    shutil.rmtree(fresh.parent, ignore_errors=True)
    shutil.copytree(project, fresh, ignore=shutil.ignore_patterns("build"))
    assert run_cli("build", "--quiet", "--asset-url", URL, cwd=fresh).exit_code == 0
    return tree(fresh / "build" / "score")


def test_a_face_or_tile_changed_since_the_last_build_is_not_reused(game):
    """A face or tile is taken from the last build only with the bytes its manifest lists: one a failed
    write or anything else left otherwise is drawn again."""
    built = game / "build" / "score"
    face = built / "faces" / "deck" / "wild.png"
    face.write_bytes(face.read_bytes()[:1000])
    tile = sorted(built.glob("cache/faces/deck/number-1@*.zst"))[0]  # a card's on the thumbnails
    tile.write_bytes(tile.read_bytes()[:1000])
    slot = sorted(built.glob("cache/faces/deck/number-1@*.jpg"))[0]  # its slot on the sheet of the card changed
    slot.write_bytes(slot.read_bytes()[:1000])
    change_a_card(game)
    assert run_cli("build", "--quiet", "--asset-url", URL, cwd=game).exit_code == 0
    assert tree(built) == clean_build(game)


def test_a_build_removes_what_killed_builds_of_its_deck_left(game):
    """Staging and old folders of the deck that killed builds left are removed by the next build, even one
    with nothing to do; folders named alike that deckpress did not make, or of another deck, are not."""
    out = game / "build"
    staging = out / ".score.staging-k1ll3d"
    (staging / "faces" / "deck").mkdir(parents=True)
    (staging / ".deckpress-temporary").write_bytes(b"")
    (staging / "faces" / "deck" / "wild.png").write_bytes(b"half a face")
    shutil.copytree(out / "score", out / ".score.old-k1ll3d")  # a build, killed while it replaced it
    mine = out / ".score.staging-mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    changed_old = out / ".score.old-changed"
    shutil.copytree(out / "score", changed_old)
    (changed_old / "notes.txt").write_text("added by the user")
    other = out / ".other.staging-k1ll3d"
    other.mkdir()
    (other / ".deckpress-temporary").write_bytes(b"")
    result = run_cli("build", cwd=game)
    assert result.exit_code == 0 and "up to date" in result.stdout
    assert sorted(p.name for p in out.iterdir()) == [".other.staging-k1ll3d", ".score.old-changed",
                                                     ".score.staging-mine", "score"]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads worker processes from /proc")
def test_after_kill_9_the_next_build_leaves_nothing_behind(game):
    many_faces(game)
    run = start_build(game)
    workers = children(run.pid)
    run.kill()
    run.communicate()
    deadline = time.monotonic() + 10
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p.name for p in (game / "build").glob(".score.staging-*")]  # what kill -9 leaves
    assert run_cli("build", "--quiet", cwd=game).exit_code == 0
    assert sorted(p.name for p in (game / "build").iterdir()) == ["score"]


def test_a_file_where_the_output_folder_should_be(game):
    (game / "out").write_text("a file")
    line = one_line(run_cli("build", "--out", "out", cwd=game))
    assert "a file stands where a folder is needed" in line
    shutil.rmtree(game / "build" / "score")
    (game / "build" / "score").write_text("a file")
    assert "exists and is not a folder deckpress built" in one_line(run_cli("build", cwd=game))
    assert (game / "build" / "score").read_text() == "a file"


def test_install_into_a_malformed_or_read_only_tts_folder(game, tmp_path, monkeypatch):
    tts = tmp_path / "TTS"
    install = ("install", "score", "--unchecked", "--tts-dir")  # the copied build's file:/// links: the first's
    (tts / "Saves").mkdir(parents=True)
    (tts / "Saves" / ".deckpress-installed.json").write_text("[1, 2")
    assert "is not the record deckpress writes" in one_line(run_cli(*install, str(tts), cwd=game))
    (tts / "Saves" / ".deckpress-installed.json").write_text("[1, 2]")
    assert "is not the record deckpress writes" in one_line(run_cli(*install, str(tts), cwd=game))
    a_file = tmp_path / "not-a-folder"
    a_file.write_text("x")
    assert f"{a_file} is a file where a folder is needed" in one_line(run_cli(*install, str(a_file), cwd=game))

    def refuse(source, target):
        raise OSError(errno.EROFS, "Read-only file system", str(target))

    monkeypatch.setattr(shutil, "copyfile", refuse)
    line = one_line(run_cli(*install, str(tmp_path / "fresh"), cwd=game))
    assert "cannot install: Read-only file system" in line


# --- 6. signals -----------------------------------------------------------------------------------------

def many_faces(project: Path) -> None:
    """Enough faces (60 tarot cards) that the build draws them in worker processes for a while."""
    deck = project / "decks" / "score.yaml"
    numbers = ", ".join(str(n) for n in range(1, 61))
    text = deck.read_text().replace("each: {n: [1, 2, 3, 4, 5, 6]}", f"each: {{n: [{numbers}]}}")
    deck.write_text(text.replace("card_size: poker", "card_size: tarot"), encoding="utf-8")



def start_build(project: Path) -> subprocess.Popen:
    """A build whose face workers are drawing; returns once the first new face is on disk."""
    run = subprocess.Popen([sys.executable, "-m", "deckpress", "build", "--quiet"], cwd=project,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=heeds_ctrl_c)
    deadline = time.monotonic() + 60
    while not list((project / "build").glob(".score.staging-*/faces/deck/number-1*.png")):
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.01)
    return run


def children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads worker processes from /proc")
def test_kill_9_while_drawing_leaves_no_worker_behind(game):
    many_faces(game)
    run = start_build(game)
    workers = children(run.pid)
    assert len(workers) >= 2
    run.kill()
    run.communicate()
    deadline = time.monotonic() + 5
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(w) for w in workers)


@pytest.mark.parametrize("signum, code, word", [(signal.SIGINT, 130, "interrupted"),
                                                (signal.SIGTERM, 143, "stopped")])
def test_ctrl_c_and_sigterm_remove_the_staging_folder(game, signum, code, word):
    before = tree(game / "build")
    many_faces(game)
    run = start_build(game)
    run.send_signal(signum)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == code, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(word), stderr
    assert sorted(p.name for p in (game / "build").iterdir()) == ["score"]
    assert tree(game / "build") == before


class FakeBuilder:
    """A builder made of functions: `build(ctx)`, and `prepare(ctx)` (by default nothing)."""

    def __init__(self, build, prepare=lambda ctx: None):
        self.build, self.prepare = build, prepare


def test_builders_run_side_by_side_and_an_error_waits_for_the_others(tmp_path):
    """Each builder runs in a process of its own; their records join the build's; a builder's error is
    raised only once the others have finished writing."""
    from deckpress.build import _builders_started
    from deckpress.context import BuildContext, BuildOptions
    from deckpress.errors import DeckError, Where
    from deckpress.faces import Faces

    def failing(ctx):
        raise DeckError.at(Where("decks/x.yaml", 3, 1), "broken; fix it")

    def slow(ctx):
        time.sleep(0.3)
        ctx.path("slow.txt").write_text(str(os.getpid()))
        ctx.records.put("slow", "key", {"pid": os.getpid()})

    def quick(ctx):
        ctx.records.put("quick", "key", {"pid": os.getpid()})

    ctx = BuildContext(deck=None, faces=Faces(), out=tmp_path, final=tmp_path, previous=None,
                       options=BuildOptions(), progress=lambda message: None)
    with _builders_started(ctx, [FakeBuilder(slow), FakeBuilder(quick)]) as run:
        run()
    assert sorted(ctx.records.new) == ["quick", "slow"]
    pids = {record["value"]["pid"] for record in ctx.records.new.values()}
    assert len(pids) == (2 if available() else 1) and (os.getpid() not in pids) == available()
    (tmp_path / "slow.txt").unlink()
    with pytest.raises(DeckError, match="broken"):
        with _builders_started(ctx, [FakeBuilder(failing), FakeBuilder(slow)]) as run:
            run()
    assert (tmp_path / "slow.txt").is_file()
    with pytest.raises(DeckError, match="broken"):  # an error while preparing is the builder's error
        with _builders_started(ctx, [FakeBuilder(quick, prepare=failing), FakeBuilder(quick)]) as run:
            run()


@pytest.mark.skipif(not available() or not Path("/proc/self/stat").exists(),
                    reason="needs fork and two cores, and reads the processes from /proc")
def test_builders_prepare_while_the_faces_are_drawn_and_stop_with_the_build(tmp_path):
    """Started, each builder's process prepares at once and builds only when told; a build that fails
    before (a face that does not fit) stops them: they build nothing and are gone."""
    from deckpress.build import _builders_started
    from deckpress.context import BuildContext, BuildOptions
    from deckpress.faces import Faces

    def prepare(ctx):
        ctx.path(f"prepared-{os.getpid()}").write_text("")

    def build(ctx):
        ctx.path(f"built-{os.getpid()}").write_text("")

    ctx = BuildContext(deck=None, faces=Faces(), out=tmp_path, final=tmp_path, previous=None,
                       options=BuildOptions(), progress=lambda message: None)
    with pytest.raises(RuntimeError):
        with _builders_started(ctx, [FakeBuilder(build, prepare), FakeBuilder(build, prepare)]):
            deadline = time.monotonic() + 30
            while len(list(tmp_path.glob("prepared-*"))) < 2 and time.monotonic() < deadline:
                time.sleep(0.01)
            pids = [int(p.name.split("-")[1]) for p in tmp_path.glob("prepared-*")]
            assert len(pids) == 2 and os.getpid() not in pids
            time.sleep(0.2)
            assert not list(tmp_path.glob("built-*"))  # not before the faces are drawn
            raise RuntimeError("a face does not fit")
    assert not list(tmp_path.glob("built-*")) and not any(alive(pid) for pid in pids)
    with _builders_started(ctx, [FakeBuilder(build, prepare), FakeBuilder(build, prepare)]) as run:
        run()
    assert len(list(tmp_path.glob("built-*"))) == 2


def two_decks(project: Path) -> None:
    """A second deck beside the first, both with many faces: `deckpress build` builds them side by side."""
    many_faces(project)
    deck = project / "decks" / "score.yaml"
    (project / "decks" / "other.yaml").write_text(deck.read_text(encoding="utf-8"), encoding="utf-8")


def descendants(pid: int) -> list[int]:
    found = children(pid)
    return found + [d for child in found for d in descendants(child)]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the build's processes from /proc")
@pytest.mark.parametrize("signum, code, word", [(signal.SIGINT, 130, "interrupted"),
                                                (signal.SIGTERM, 143, "stopped"),
                                                (signal.SIGKILL, -9, None)])
def test_a_stopped_build_of_decks_side_by_side_leaves_nothing_behind(game, signum, code, word):
    """Each deck's process removes its staging folder, its face workers end, and the previous builds are
    as they were; after kill -9 too, once the deck processes see their parent gone."""
    two_decks(game)
    before = tree(game / "build")
    run = start_build(game)
    processes = descendants(run.pid)
    assert len(processes) >= 3  # the two decks' processes, and face workers
    run.send_signal(signum)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == code, stderr
    if word is not None:
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(word), stderr
    deadline = time.monotonic() + 10
    while any(alive(p) for p in processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in processes)
    assert sorted(p.name for p in (game / "build").iterdir()) == ["score"]
    assert tree(game / "build") == before


def test_decks_built_side_by_side_print_in_the_decks_order(game):
    deck = game / "decks" / "score.yaml"
    (game / "decks" / "another.yaml").write_text(deck.read_text(encoding="utf-8").replace(
        "card_size: poker", "card_size: huge"), encoding="utf-8")
    (game / "decks" / "zebra.yaml").write_text(deck.read_text(encoding="utf-8"), encoding="utf-8")
    result = run_cli("build", cwd=game)
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["score", "zebra"]
    lines = [line for line in result.stderr.splitlines() if not line.startswith("building 3 decks")]  # progress
    assert len(lines) == 1 and lines[0].startswith("decks/another.yaml:") and "card_size" in lines[0], lines


def test_a_stop_python_swallowed_still_keeps_the_build_from_being_put_in_place(game, monkeypatch):
    """A SIGTERM landing inside an os.fork hook raises where Python only prints the exception; the deck's
    process still stops before it puts its build in place, and removes its staging folder."""
    from deckpress import processes
    from deckpress.build import build_deck
    from deckpress.context import BuildOptions

    before = tree(game / "build")
    change_a_card(game)
    monkeypatch.chdir(game)
    monkeypatch.setattr(processes, "_stopping", True)  # as _stop leaves it when its _Stop was swallowed
    with pytest.raises(processes._Stop):
        build_deck(Path("decks/score.yaml"), BuildOptions(quiet=True), lambda *a: None, lambda w: None)
    assert sorted(p.name for p in (game / "build").iterdir()) == ["score"]
    assert tree(game / "build") == before
