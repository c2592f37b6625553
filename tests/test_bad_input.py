"""The bad-input corpus (tests/bad_input/cases.py) run against a tiny project that was built once.

Every case must end in exit status 1 (2 for a usage error), exactly one `file:line:col: what is wrong;
what to write instead` line (file-level where there is no position) and no traceback; the previous
build stays byte-identical and nothing appears or changes outside the build folder. Most cases run in
this process; the resource bombs run in a subprocess limited to 1 GB of address space and 60 s.
`deckpress check` must reject each deck mistake with the same line as `build`.
"""

from __future__ import annotations

import hashlib
import json
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import run_cli

from bad_input.cases import CASES, Case
from bad_input.project import FILES

LINE = re.compile(r"^(?P<file>[^:\n]+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<what>[^\n]+); (?P<fix>[^\n]+)$")
SECONDS, MEMORY = 60, 1 << 30


@pytest.fixture(scope="module")
def built_project(tmp_path_factory) -> Path:
    """The tiny project, built once into its build/ folder."""
    root = tmp_path_factory.mktemp("tiny")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    result = run_cli("build", "tiny", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    return root


def snapshot(root: Path) -> dict[str, str]:
    """Every file and folder under `root` with the sha256 of its content."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


def apply(case: Case, root: Path) -> None:
    for change in case.edits:
        path = root / change.file
        path.parent.mkdir(parents=True, exist_ok=True)
        if change.old is None:
            data = change.new() if callable(change.new) else change.new
        else:
            text = FILES[change.file]
            data = text.replace(change.old, change.new) if isinstance(change.new, str) else \
                text.encode().replace(change.old.encode(), change.new)
        if isinstance(data, str):
            data = data.encode("utf-8", errors="surrogatepass")
        path.write_bytes(data)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


# Runs each command given as a JSON list in turn, ending each one's stderr with a NUL and its exit status.
RUNNER = """
import json, sys
from deckpress.cli import main
for args in json.loads(sys.argv[1]):
    try:
        main(args)
    except SystemExit as done:
        sys.stderr.write(f"\\0{done.code}\\n")
        sys.stderr.flush()
"""


def run_bounded(*commands: tuple[str, ...], cwd: Path) -> list[tuple[int, str]]:
    """`deckpress ARGS` for each of `commands`, in one subprocess limited to 1 GB and 60 s; the exit status
    and stderr of each."""
    try:
        done = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(commands)], cwd=cwd, capture_output=True,
                              text=True, timeout=SECONDS, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"deckpress {commands} ran past {SECONDS} s")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    results, stderr = [], done.stderr
    for _ in commands:
        out, status_and_rest = stderr.split("\0", 1)
        status, stderr = status_and_rest.split("\n", 1)
        results.append((int(status), out))
    return results


def check_one_line(case: Case, status: int, stderr: str, expected_status: int) -> str:
    assert "Traceback" not in stderr, stderr
    assert status == expected_status, stderr
    lines = stderr.strip().splitlines()
    if expected_status == 2:  # click's usage error: usage, hint, then one `Error:` line
        errors = [line for line in lines if line.startswith("Error:")]
        assert len(errors) == 1 and case.expect in errors[0], stderr
        return errors[0]
    assert len(lines) == 1, stderr
    match = LINE.match(lines[0])
    assert match, lines[0]
    file, line = case.where()
    assert match["file"] == file, lines[0]
    if line is not None:
        assert match["line"] is not None and int(match["line"]) == line, lines[0]
    assert case.expect in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, built_project: Path, tmp_path: Path):
    root = tmp_path / "project"
    shutil.copytree(built_project, root)
    apply(case, root)
    before = snapshot(root)
    started = time.monotonic()
    if case.bomb:
        (status, stderr), checked = run_bounded(case.args, ("check", "tiny"), cwd=root)
    else:
        result = run_cli(*case.args, cwd=root)
        status, stderr = result.exit_code, result.stderr
    assert time.monotonic() - started < SECONDS
    line = check_one_line(case, status, stderr, case.status)
    assert snapshot(root) == before, "the build folder or the project changed"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["project"], "something was written beside the project"
    if case.status == 1 and case.args[0] != "check":  # a mistake `check` itself finds is its own line already
        if not case.bomb:
            result = run_cli("check", "tiny", cwd=root)
            checked = result.exit_code, result.stderr
        assert (checked[0], checked[1].strip()) == (1, line), "check disagrees with build"


@pytest.mark.parametrize("args, where", [
    (("--out", "decks/tiny.yaml/p.png"), "decks/tiny.yaml/p.png"),  # a folder of --out is a file
    (("--build-dir", "decks/tiny.yaml"), "decks/tiny.yaml/tiny-preview.png"),  # so is the build folder
])
def test_a_preview_that_cannot_be_written_is_one_line(built_project: Path, tmp_path: Path, args, where):
    root = tmp_path / "project"
    shutil.copytree(built_project, root)
    before = snapshot(root)
    result = run_cli("preview", "tiny", *args, cwd=root)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1 and "Traceback" not in result.stderr
    match = LINE.match(lines[0])
    assert match and match["file"] == where and "decks/tiny.yaml is a file where a folder is needed" in lines[0]
    assert snapshot(root) == before


def test_build_dot_in_the_project_builds_its_decks(built_project: Path, tmp_path: Path):
    """`deckpress build .` (or `decks`) in the project's folder is `deckpress build`, not a deck named '.'."""
    root = tmp_path / "project"
    shutil.copytree(built_project, root)
    for folder in (".", "decks"):
        result = run_cli("build", folder, cwd=root)
        assert result.exit_code == 0 and result.stdout.strip() == "tiny: up to date (build/tiny)", result.stderr


def test_the_corpus_covers_the_categories():
    """At least 120 cases, the resource bombs among them run under the memory limit."""
    assert len(CASES) >= 120
    assert sum(c.bomb for c in CASES) >= 10


HOSTILE = "A -- B --> <Panel/> & \"q\" 'a' ]] [b]x[/b] \\\" -"


def test_hostile_text_stays_data(tmp_path: Path):
    """A game, card, rule and mode named with XML, comment, Lua and JSON syntax builds, and every output
    shows the text as it was written: the XmlUI parses (comment included), the Global script's DATA holds
    the names, the notebook and the card's GMNotes carry them."""
    import json
    import xml.etree.ElementTree as ET

    from helpers.fake_tts import FakeTTS, to_py

    quoted = json.dumps(HOSTILE)
    files = dict(FILES)
    files["decks/tiny.yaml"] = (FILES["decks/tiny.yaml"].replace("  name: Tiny\n", f"  name: {quoted}\n")
                                .replace("      - name: Two\n        value: 2", f"      - name: {quoted}\n"
                                         "        id: two\n        value: 2")
                                .replace("  - heading: Play", f"  - heading: {quoted}")
                                .replace("    name: Basic", f"    name: {quoted}"))
    files["templates/tiny-card.yaml"] = FILES["templates/tiny-card.yaml"].replace("    size: 10\n",
                                                                                "    size: 4\n    min_size: 1\n")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = run_cli("build", "tiny", "--quiet", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    save = json.loads((tmp_path / "build/tiny/tts/tiny.json").read_text(encoding="utf-8"))

    ui = ET.fromstring(f"<root>{save['XmlUI']}</root>")  # raises on a broken comment or attribute
    assert [t.text for t in ui.iter("Text") if t.text][0] == HOSTILE
    assert save["XmlUI"].startswith("<!-- A - - B - -&gt;")

    table = FakeTTS(save, seated=["White", "Red"])
    data = to_py(table.globals.DATA)
    assert data["game"]["name"] == HOSTILE
    assert [m["name"] for m in data["modes"]] == [HOSTILE]
    assert HOSTILE in [c["name"] for c in data["components"][0]["cards"]]

    assert [tab["title"] for tab in save["TabStates"].values()][:1] == [HOSTILE]
    cards = [c for obj in save["ObjectStates"] for c in obj.get("ContainedObjects", [])]
    notes = [json.loads(c["GMNotes"]) for c in cards]
    assert {"id": "two", "component": "deck"}.items() <= next(n for n in notes if n["id"] == "two").items()
    assert HOSTILE in {c["Nickname"] for c in cards}
