"""The `deckpress` program ends without the interpreter's teardown (cli.run): its exit status, output and exit
functions as at any exit, and a thread still running is waited for."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def program(code: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run `code` in a Python of its own, deckpress's program (cli.run) in it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # stdout buffered, as by default
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


LATE = """
import atexit, sys
from deckpress import cli

class Late:
    def __del__(self):
        sys.stderr.write("torn down\\n")

late = Late()
atexit.register(lambda: sys.stdout.write("exit functions ran\\n"))  # flushed by no one else
sys.argv = ["deckpress", *ARGS]
cli.run()
"""


def test_the_program_ends_without_tearing_the_interpreter_down():
    done = program(LATE.replace("ARGS", "['--version']"))
    assert done.returncode == 0
    assert done.stdout.startswith("deckpress, version ")
    assert done.stdout.endswith("exit functions ran\n")
    assert "torn down" not in done.stderr  # the module's objects were not freed one by one


def test_the_exit_status_and_the_lines_of_a_failed_command_are_kept(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "broken.yaml").write_text("game: [\n", encoding="utf-8")
    done = program(LATE.replace("ARGS", "['build', 'broken']"), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("decks/broken.yaml:") and "Traceback" not in done.stderr
    assert done.stdout == "exit functions ran\n" and "torn down" not in done.stderr
    usage = program(LATE.replace("ARGS", "['build', 'nothing']"), cwd=tmp_path)
    assert usage.returncode == 2 and "no deck 'nothing'" in usage.stderr


def test_a_thread_still_running_is_waited_for():
    done = program(LATE.replace("ARGS", "['--version']").replace("cli.run()", """
import threading, time
threading.Thread(target=lambda: (time.sleep(0.3), sys.stdout.write("thread done\\n"))).start()
cli.run()"""))
    assert done.returncode == 0
    assert "thread done" in done.stdout


def test_a_process_that_imports_deckpress_without_its_program_ends_as_python_does():
    """Importing deckpress.cli registers its last exit function (cli._end); it ends only the program."""
    done = program(LATE.replace("ARGS", "[]").replace("cli.run()", "print('not the program')"))
    assert done.returncode == 0
    assert done.stdout == "not the program\nexit functions ran\n" and done.stderr == "torn down\n"
