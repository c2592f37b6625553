"""Shared fixtures: the real decks built once per test session into a temporary folder."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckpress.cli import main
from helpers.tables import boxed, laid

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session", autouse=True)
def own_cache(tmp_path_factory) -> None:
    """The builds' stamps (stamp.py) go to a cache folder of the session's, inherited by the deckpress
    processes tests start: never into the user's own ~/.cache."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str):
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr


def run_cli(*args: str, cwd: Path = ROOT) -> Result:
    """Run `deckpress ARGS` in `cwd` and return its exit code, stdout and stderr."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return Result(result.exit_code, result.stdout, result.stderr)


@pytest.fixture(scope="session")
def built(shipped) -> Path:
    """`deckpress build score --out OUT` of the shipped SCORE! deck; returns OUT/score."""
    return shipped("score")[2].parent


@pytest.fixture(scope="session")
def shipped(tmp_path_factory):
    """shipped(deck): `deckpress build DECK --out OUT` of a shipped game, once per session: (its full save and
    its box, saved-objects/DECK-box.json, read from their JSON, and OUT/DECK/tts)."""
    games: dict[str, tuple[dict, dict, Path]] = {}

    def game(deck: str) -> tuple[dict, dict, Path]:
        if deck not in games:
            out = tmp_path_factory.mktemp(deck)
            result = run_cli("build", deck, "--out", str(out), "--quiet")
            assert result.exit_code == 0, result.stderr
            tts = out / deck / "tts"
            full = json.loads((tts / f"{deck}.json").read_text(encoding="utf-8"))
            box = json.loads((tts / "saved-objects" / f"{deck}-box.json").read_text(encoding="utf-8"))
            games[deck] = full, box, tts
        return games[deck]
    return game


@pytest.fixture(params=["save", "box"])
def table_of(request, shipped):
    """table_of(seated, state=None): a table of the test module's game (its DECK), laid out by the full save
    and then, the test run again, played from the game's box; `state` is the game's saved LuaScriptState."""
    full, box, _ = shipped(request.module.DECK)
    return laid(full) if request.param == "save" else boxed(full, box)


def heeds_ctrl_c() -> None:
    """In a command started by a test (`preexec_fn`): Ctrl-C as in a terminal, even where the tests run with
    it ignored (a shell's background job), which the command would inherit and rightly keep."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
