"""The README's first two commands are what a fresh machine runs; CI runs the second one exactly; its
"Start your own game" section works as written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT
from helpers.studio import running


def commands() -> list[str]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.startswith("    ") and "pip install" in line][:2]


def test_readme_starts_with_install_and_test_commands():
    install, test = commands()
    assert install.endswith("deckpress build")
    assert "'.[test]'" in test and "pytest" in test


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands()[1] in ci


def own_game_commands() -> list[str]:
    """The shell lines of the README's "Start your own game" block, as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Start your own game"):]
    block = section[section.index("```sh\n") + 6:section.index("```", section.index("```sh\n") + 6)]
    return [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_start_your_own_game_section_works_as_written(tmp_path):
    """Every line as written, but the studio's, which runs until Ctrl-C: it is started on its own (on any free
    port, without a browser to open) in the project the lines before it made, and serves the game."""
    commands = own_game_commands()
    assert commands[0].startswith("deckpress new") and "deckpress build" in commands
    studio = commands.index("deckpress studio --open")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("XDG_DATA_HOME", None)
    run = subprocess.run(["bash", "-e", "-c", "\n".join(commands[:studio])], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with running(tmp_path / "my-game", args=("--port", "0")) as served:
        assert served.built("my-game")["errors"] == []
        assert served.json("/api/table/my-game?setup=1")["seats"]  # its game, ready to play
    run = subprocess.run(["bash", "-e", "-c", "\n".join(["cd my-game", *commands[studio + 1:]])], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "number-1.png" in run.stdout and "my-game-a4.pdf" in run.stdout
    saves = tmp_path / "home" / ".local" / "share" / "Tabletop Simulator" / "Saves"
    save = json.loads((saves / "my-game.json").read_text(encoding="utf-8"))
    assert save["SaveName"] == "My Game" and save["ObjectStates"]
