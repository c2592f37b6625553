"""Tasks run side by side in forked processes, for a build of several decks on several cores.

Each task runs in a process of its own and sends back its result; the results come back in the tasks'
order. The processes ignore Ctrl-C: stopping is the parent's to decide. On Ctrl-C or SIGTERM in the parent,
each running task gets one SIGTERM (which unwinds it like Ctrl-C, so it removes its staging folder) and
the parent waits for them all before it stops. A task whose parent is killed outright stops the same way
within a second.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import wait
from typing import Any


def available() -> bool:
    """Whether tasks can run side by side here: several cores, and fork (the tasks share the parent's
    loaded modules and need not be pickled)."""
    return (os.cpu_count() or 1) > 1 and "fork" in multiprocessing.get_all_start_methods()


class TaskFailed(Exception):
    """A task's process ended without sending its result (it crashed, or was killed)."""

    def __init__(self, index: int, exitcode: int | None):
        super().__init__(f"task {index} ended with exit status {exitcode}")
        self.index = index
        self.exitcode = exitcode


def watch_parent(parent: int, gone: Callable[[], None]) -> None:
    """Call `gone()` (in a thread of this process) within 0.2 s of the process `parent` ending, as after a
    kill -9 that left it no time to stop its children."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        gone()

    threading.Thread(target=watch, daemon=True).start()


class _Stop(BaseException):
    """SIGTERM in a task's process: unwinds it (its `finally` and `except BaseException` blocks run)."""


_stopping = False  # a SIGTERM came: set even where its _Stop was swallowed (raised inside a fork's hooks)


def _stop(signum, frame) -> None:
    global _stopping
    _stopping = True
    raise _Stop


def check_stop() -> None:
    """Raise _Stop in a task's process told to stop, whose _Stop Python may have swallowed: a signal that
    lands inside an os.fork hook (as when a task starts worker processes) raises where exceptions are only
    printed. Call it before a step that cannot be undone, e.g. putting a build in place."""
    if _stopping:
        raise _Stop


def _quiet_stop(unraisable) -> None:
    if not isinstance(unraisable.exc_value, _Stop):  # the swallowed _Stop is seen to by check_stop
        sys.__unraisablehook__(unraisable)


def _child(task: Callable[[], Any], connection, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)
    sys.unraisablehook = _quiet_stop
    watch_parent(parent, lambda: os.kill(os.getpid(), signal.SIGTERM))
    try:
        result = task()
    except _Stop:
        os._exit(143)
    except BaseException:
        traceback.print_exc()
        os._exit(1)
    connection.send(result)
    connection.close()
    os._exit(0)


def side_by_side(tasks: list[Callable[[], Any]], limit: int | None = None) -> Iterator[Any]:
    """Run `tasks`, at most `limit` (default: the cores) at once; yield their results in order. Raises
    TaskFailed for a task that ended without a result."""
    context = multiprocessing.get_context("fork")
    limit = max(1, min(limit or os.cpu_count() or 1, len(tasks)))
    running: dict[int, tuple[Any, Any]] = {}  # index -> (process, connection)
    results: dict[int, Any] = {}
    started = 0
    try:
        for index in range(len(tasks)):
            while index not in results:
                while started < len(tasks) and len(running) < limit:
                    receive, send = context.Pipe(duplex=False)
                    process = context.Process(target=_child, args=(tasks[started], send, os.getpid()))
                    process.start()
                    send.close()
                    running[started] = (process, receive)
                    started += 1
                ready = wait([connection for _, connection in running.values()])
                for done in [i for i, (_, connection) in running.items() if connection in ready]:
                    process, connection = running.pop(done)
                    try:
                        results[done] = connection.recv()
                    except EOFError:
                        process.join()
                        raise TaskFailed(done, process.exitcode) from None
                    process.join()
            yield results.pop(index)
    finally:
        for process, _ in running.values():
            if process.is_alive():
                os.kill(process.pid, signal.SIGTERM)
        for process, connection in running.values():
            process.join()
            connection.close()
