"""Tasks side by side in forked processes: results in the tasks' order, a crash reported, not hidden;
stopped at once, quietly, however far they got."""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
import traceback
from contextlib import contextmanager

import pytest

from deckpress import processes
from deckpress.processes import Prepared, TaskFailed, available, holding_stops, shared_out, side_by_side

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


def test_prepared_tasks_processes_are_reaped_as_the_block_is_left():
    """results() gives the results without waiting for the processes to end (a builder's end, its memory
    handed back, takes 10 to 25 ms: the deck's process puts its build in place meanwhile); leaving the block
    reaps them."""
    with Prepared([(lambda: None, lambda: 1), (lambda: None, lambda: 2)]) as prepared:
        assert prepared.results() == [1, 2]
        ended = [process for process, _, _ in prepared.running]
        assert len(ended) == 2
    assert not prepared.running and not any(process.is_alive() for process in ended)


def test_work_shared_out_comes_back_in_order_with_its_errors_in_place():
    def work(index):
        if index == 5:
            raise ValueError("five")
        time.sleep(0.1 if index % 3 == 0 else 0.0)  # some finish after later ones
        return index, os.getpid()

    results = shared_out(work, 9, workers=2)
    done = [next(results) for _ in range(5)]
    assert [index for index, _ in done] == [0, 1, 2, 3, 4]
    assert len({pid for _, pid in done}) == 2 and os.getpid() not in {pid for _, pid in done}
    with pytest.raises(ValueError, match="five"):
        next(results)
    assert multiprocessing.active_children() == []


def test_a_process_of_shared_out_work_that_dies_is_reported():
    with pytest.raises(TaskFailed) as err:
        list(shared_out(lambda index: os._exit(3) if index == 4 else index, 8, workers=2))
    assert err.value.exitcode == 3


def test_work_shared_out_left_early_stops_its_processes_at_once():
    """Faces being drawn when the build stops (Ctrl-C, an error) are not waited for, however long they take:
    ProcessPoolExecutor's shutdown used to wait for them, for ever for one that never ended."""
    results = shared_out(lambda index: time.sleep(60) if index > 1 else "first", 10, workers=2)
    assert next(results) == "first"
    time.sleep(0.2)  # both processes are on their next faces
    drawing = multiprocessing.active_children()
    start = time.monotonic()
    results.close()
    assert time.monotonic() - start < 5
    assert len(drawing) == 2 and [process.exitcode for process in drawing] == [-signal.SIGTERM] * 2


@contextmanager
def another_thread_takes_stops():
    """A thread that lets Ctrl-C and SIGTERM through, as watchfiles' do in `deckpress watch`; yields a function
    that sends one to this process (so, while the main thread blocks it, to that thread) and returns once
    Python's own handler has run there: the stop's Python handler is then due in the main thread."""
    done = threading.Event()
    thread = threading.Thread(target=done.wait)
    thread.start()
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)
    previous = signal.set_wakeup_fd(wake)  # Python's handler writes each signal's number here

    def send(signum: int) -> None:
        while select.select([woken], [], [], 0)[0]:  # what earlier signals wrote
            os.read(woken, 100)
        os.kill(os.getpid(), signum)
        assert select.select([woken], [], [], 10)[0] and os.read(woken, 1) == bytes([signum])

    try:
        yield send
    finally:
        signal.set_wakeup_fd(previous)
        os.close(woken)
        os.close(wake)
        done.set()
        thread.join()


def test_a_stop_another_thread_takes_is_held_until_the_block_ends():
    """Ctrl-C or SIGTERM that reaches another thread while the main thread holds them (it blocks them, so the
    system picks a thread that does not) is handled once the block ends, not at the main thread's next step
    inside it; then the handlers are the command's own again."""
    class Stopped(Exception):
        pass

    def stopped(signum, frame):
        raise Stopped

    previous = signal.signal(signal.SIGINT, signal.default_int_handler), signal.signal(signal.SIGTERM, stopped)
    try:
        with another_thread_takes_stops() as send:
            for signum, raised in [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Stopped)]:
                steps = []
                with pytest.raises(raised):
                    with holding_stops():
                        send(signum)
                        for step in range(1000):  # Python runs a handler that is due between two steps
                            steps.append(step)
                assert len(steps) == 1000
            assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == (
                signal.default_int_handler, stopped)
            assert not signal.pthread_sigmask(signal.SIG_BLOCK, ()) & processes.STOPS
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def test_ctrl_c_another_thread_takes_as_a_task_forks_leaves_no_process(monkeypatch):
    """Ctrl-C that reaches another thread (in `deckpress watch`, watchfiles') just as a builder's process is
    forked stops every process forked: it used to leave the one not yet recorded waiting for its go, and
    the command waiting for that process for ever as it ended."""
    start = processes._start
    with another_thread_takes_stops() as send:
        def start_then_ctrl_c(*args, **kwargs):
            process = start(*args, **kwargs)
            send(signal.SIGINT)
            return process

        monkeypatch.setattr(processes, "_start", start_then_ctrl_c)
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            with pytest.raises(KeyboardInterrupt):
                with Prepared([(lambda: None, lambda: 1), (lambda: None, lambda: 1)]):
                    pass
        finally:
            signal.signal(signal.SIGINT, previous)
            left = multiprocessing.active_children()
            for process in left:
                process.kill()
                process.join()
    assert left == []


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
