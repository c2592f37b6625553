"""Tasks side by side in forked processes: results in the tasks' order, a crash reported, not hidden;
stopped at once, quietly, however far they got."""

from __future__ import annotations

import os
import signal
import time
import traceback

import pytest

from deckpress import processes
from deckpress.processes import Prepared, TaskFailed, available, side_by_side

pytestmark = pytest.mark.skipif(not available(), reason="needs fork and two cores")


def test_results_come_back_in_the_tasks_order_however_they_finish():
    def task(n):
        def run():
            time.sleep(0.2 if n == 0 else 0.0)  # the first finishes last
            return n, os.getpid()
        return run

    results = list(side_by_side([task(n) for n in range(4)], limit=2))
    assert [n for n, _ in results] == [0, 1, 2, 3]
    assert len({pid for _, pid in results}) == 4 and os.getpid() not in {pid for _, pid in results}


def test_a_task_that_dies_without_a_result_is_reported():
    with pytest.raises(TaskFailed) as err:
        list(side_by_side([lambda: 1, lambda: os._exit(3)], limit=2))
    assert (err.value.index, err.value.exitcode) == (1, 3)


def test_tasks_stopped_as_they_fork_end_by_their_own_handling():
    """A SIGTERM that reaches a task's process while it is still being forked, when the parent's own handler
    raises (as deckpress's command does), is not lost in Python's fork hooks: every process ends by its
    SIGTERM (a builder's ends as the system's default does), none is left waiting to be killed."""
    class Stopped(Exception):
        pass

    def stopped(signum, frame):
        raise Stopped

    previous = signal.signal(signal.SIGTERM, stopped)
    try:
        for _ in range(20):
            prepared = Prepared([(lambda: None, lambda: 1)])
            with prepared:
                [(process, _, _)] = prepared.running
            assert process.exitcode == -signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_task_stopped_inside_a_library_ends_at_once_without_a_traceback(capfd):
    """A builder's process stopped while it prepares (importing reportlab, reading fonts) or builds ends at
    once: a library that catches the stop and prints its own traceback (as reportlab did), or that keeps
    going in C code, neither prints nor holds up the build's stop (it used to wait STOP_WAIT, 10 s)."""
    def prepare():
        try:
            time.sleep(30)
        except BaseException:
            traceback.print_exc()
            raise RuntimeError("the library's own error") from None

    for _ in range(5):
        start = time.monotonic()
        preparing = Prepared([(prepare, lambda: 1), (lambda: time.sleep(30), lambda: 1)])
        with preparing:
            time.sleep(0.1)
            stopped = [process for process, _, _ in preparing.running]
        running = Prepared([(lambda: None, lambda: time.sleep(30))])
        with running:
            running.running[0][2].send_bytes(b"go")  # as results() does: the task runs
            time.sleep(0.1)
            stopped += [process for process, _, _ in running.running]
        assert time.monotonic() - start < 2
        assert [process.exitcode for process in stopped] == [-signal.SIGTERM] * 3
    out, err = capfd.readouterr()
    assert "Traceback" not in err and "library's own error" not in err


def test_a_process_told_to_stop_runs_no_task(monkeypatch, tmp_path):
    """A deck's process whose stop Python swallowed (it landed in a fork hook) runs none of its builders:
    results() stops it before they are let go; the builders' own processes do not look at that stop."""
    monkeypatch.setattr(processes, "_stopping", True)
    prepared = Prepared([(lambda: (tmp_path / "prepared").touch(), lambda: (tmp_path / "ran").touch())])
    with pytest.raises(processes._Stop):
        with prepared:
            deadline = time.monotonic() + 30
            while not (tmp_path / "prepared").exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            [(process, _, _)] = prepared.running
            assert process.is_alive()  # a builder does not stop on its parent's swallowed stop
            prepared.results()
    assert not (tmp_path / "ran").exists() and not process.is_alive()


def test_malloc_is_tuned_by_the_command_only(monkeypatch, tmp_path):
    """memory.keep_freed_memory changes malloc for a whole process: a program that imports deckpress and
    builds a deck does not get it; the command does, once, before it forks."""
    from conftest import run_cli
    from deckpress import memory
    from deckpress.build import build_deck
    from deckpress.context import BuildOptions

    calls = []
    monkeypatch.setattr(memory, "keep_freed_memory", lambda: calls.append("tuned"))
    root = tmp_path / "game"
    assert run_cli("new", str(root), "--name", "Game").exit_code == 0
    calls.clear()
    monkeypatch.chdir(root)
    build_deck(root / "decks" / "game.yaml", BuildOptions(out=tmp_path / "out", quiet=True), lambda *a: None,
               lambda warning: None)
    assert calls == [] and (tmp_path / "out" / "game" / "manifest.json").is_file()
    assert run_cli("build", "--quiet", cwd=root).exit_code == 0
    assert calls == ["tuned"]
