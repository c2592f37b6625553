"""Tasks run side by side in forked processes, the one way deckpress runs work on several cores: the decks of
a build (`side_by_side`), a deck's builders, forked before its faces are drawn so that they prepare meanwhile
(`Prepared`), and a deck's faces and a playtest's games shared out among a few processes (`shared_out`).
Each has its serial twin behind the same interface: with one core, one task or one worker, or where the
system cannot fork, the tasks run one after another in this process, their results (and errors) in the
same order, so that a caller never writes a fallback of its own.

Each task runs in a process of its own and sends back its result; the results come back in the tasks'
order. The processes ignore Ctrl-C: stopping is the parent's to decide. On Ctrl-C or SIGTERM in the parent,
each running task gets one SIGTERM and the parent waits for them all before it stops. A deck's process
unwinds on it like on Ctrl-C (it removes its staging folder); a builder's ends at once, as the system's
default does: it writes only into its deck's staging folder, which the deck's process removes once its
builders have ended (an unwinding builder could take its time, or have the exception swallowed by a
library it was in, and print that library's traceback). A task whose parent is killed outright stops the
same way within a second.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from itertools import islice
from typing import Any


def available() -> bool:
    """Whether tasks can run side by side here: several cores, and fork (the tasks share the parent's
    loaded modules and need not be pickled). Asked without importing multiprocessing (a build with nothing
    to do imports none of it): the systems with os.fork are those multiprocessing can fork on."""
    return (os.cpu_count() or 1) > 1 and hasattr(os, "fork")


def _serial(processes: int) -> bool:
    """Whether work for `processes` processes runs in this one instead (the serial twins)."""
    return processes < 2 or not available()


def _forking():
    """multiprocessing's fork context, and its `wait` for connections (imported when processes start)."""
    import multiprocessing
    from multiprocessing.connection import wait

    return multiprocessing.get_context("fork"), wait


class TaskFailed(Exception):
    """A task's process ended without sending its result (it crashed, or was killed)."""

    def __init__(self, index: int, exitcode: int | None):
        super().__init__(f"task {index} ended with exit status {exitcode}")
        self.index = index
        self.exitcode = exitcode


STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def holding_stops() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM in this thread for the block; one that came meanwhile is handled after it.

    Blocking them in this thread is not enough in the main thread: the system then hands them to another
    thread that lets them through (watchfiles' own, in `deckpress watch`), and Python runs their handlers in
    the main thread all the same, at its next step, inside the block (a task's process forked there but not
    yet recorded was left running, and the command waited for it for ever as it ended). So there their
    handlers are also replaced for the block by one that notes them (`_noting_stops`)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the mask as it is (a handler due runs here)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
        if threading.current_thread() is threading.main_thread():
            with _noting_stops():
                yield
        else:  # Python runs no handler in this thread: blocking them is enough
            yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # one noted and sent again is handled here


@contextmanager
def _noting_stops() -> Iterator[None]:
    """In the main thread, with Ctrl-C and SIGTERM blocked in it: their handlers note them for the block;
    after it, their own handlers are put back and each stop noted is sent again to this thread (held by its
    mask until holding_stops lets it through). Python runs a handler due before changing one, so each stop
    meets exactly one of the two; one that meets a noting handler left after the block (a stop handled while
    the handlers were put back) is given to the stop's own handler at once."""
    noted: list[int] = []
    holding = True
    handlers = {signum: signal.getsignal(signum) for signum in STOPS}

    def note(signum, frame) -> None:
        if holding:
            noted.append(signum)
        else:
            signal.signal(signum, handlers[signum])
            signal.raise_signal(signum)

    try:
        for signum in handlers:
            signal.signal(signum, note)
        yield
    finally:
        holding = False
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        for signum in noted:
            signal.raise_signal(signum)


def watch_parent(parent: int, gone: Callable[[], None]) -> None:
    """Call `gone()` (in a thread of this process) within 0.2 s of the process `parent` ending, as after a
    kill -9 that left it no time to stop its children."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        gone()

    # The thread starts with Ctrl-C and SIGTERM held, so the system hands them to the main thread: one
    # that reached this thread would leave a main thread blocked on a pipe (a builder waiting for its
    # faces) blocked, its handler not run.
    with holding_stops():
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


def _start(context, task: Callable[[], Any], send, unwind: bool = True) -> Any:
    """The process of `task`, started: forked with Ctrl-C and SIGTERM held (see _child). Call it holding
    them, until the process is recorded among those to stop. `unwind`: SIGTERM unwinds the task (else it
    ends the process at once)."""
    process = context.Process(target=_child, args=(task, send, os.getpid(), unwind))
    process.start()
    send.close()
    return process


def _child(task: Callable[[], Any], connection, parent: int, unwind: bool) -> None:
    """A task's process. It starts with Ctrl-C and SIGTERM held (_start): one sent while it forked would
    otherwise have met the parent's handler, whose exception Python swallows in its fork hooks, and been
    lost. Its own handlers set, it lets them through."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop if unwind else signal.SIG_DFL)
    if unwind:
        sys.unraisablehook = _quiet_stop
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # a SIGTERM held since the fork is handled here
        watch_parent(parent, lambda: os.kill(os.getpid(), signal.SIGTERM))
        connection.send(task())
    except _Stop:
        os._exit(143)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    connection.close()
    os._exit(0)


def _receive(index: int, process, connection, join: bool = True) -> Any:
    """The result a task's process sends, once it has ended (`join`; else it may still be ending)."""
    try:
        result = connection.recv()
    except EOFError:
        process.join()
        raise TaskFailed(index, process.exitcode) from None
    if join:
        process.join()
    return result


STOP_WAIT = 10.0  # s a task's process has to end after its SIGTERM, before it is killed


def _stop_all(running: list[tuple[Any, Any]]) -> None:
    """One SIGTERM to each task's process still running; then wait for them all (a process that has not
    ended STOP_WAIT seconds after its SIGTERM is killed)."""
    stopped = [process for process, _ in running if process.is_alive()]
    for process in stopped:
        os.kill(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_WAIT
    for process, connection in running:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
        connection.close()


def _after_go(prepare: Callable[[], Any], run: Callable[[], Any], go) -> Callable[[], Any]:
    def task() -> Any:
        prepare()
        try:
            go.recv_bytes()
        except EOFError:  # the parent ended without a word
            raise _Stop from None
        return run()
    return task


class Prepared:
    """Tasks, each a `prepare` and a `run`, forked on entering the `with` block: each process prepares at
    once (imports its libraries, reads its fonts...) while the parent goes on, then waits. `results()` lets
    them all run and gives their results in order (TaskFailed for a task that ended without one); the
    processes are reaped as the block is left. Leaving the block with the tasks still running (on an error,
    Ctrl-C) stops them with a SIGTERM each and waits for them; a task's process ends at once on it (see the
    module docstring). `forked=False` asks for the serial twin, which a system without fork imposes too:
    `results()` prepares and runs each task in turn, here."""

    def __init__(self, tasks: list[tuple[Callable[[], Any], Callable[[], Any]]], forked: bool = True):
        self.tasks = tasks
        self.forked = forked and available()
        self.running: list[tuple[Any, Any, Any]] = []  # (process, its result's connection, its go connection)

    def __enter__(self) -> "Prepared":
        if not self.forked:
            return self
        context = _forking()[0]
        try:
            for prepare, run in self.tasks:
                wait_go, go = context.Pipe(duplex=False)
                receive, send = context.Pipe(duplex=False)
                with holding_stops():
                    self.running.append((_start(context, _after_go(prepare, run, wait_go), send, unwind=False),
                                         receive, go))
                wait_go.close()
        except BaseException:
            self.__exit__()
            raise
        return self

    def results(self) -> list[Any]:
        check_stop()  # a process told to stop lets no task run
        if not self.forked:
            return [(prepare(), run())[1] for prepare, run in self.tasks]
        for _, _, go in self.running:
            with suppress(BrokenPipeError):  # its process ended while it prepared: _receive says so
                go.send_bytes(b"go")
        try:
            # not waited for: a process that sent its result is reaped as the block is left, its end (its
            # memory handed back: 10 to 25 ms for a builder's) meanwhile
            return [_receive(index, process, connection, join=False)
                    for index, (process, connection, _) in enumerate(self.running)]
        except BaseException:
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        running, self.running = self.running, []
        for _, _, go in running:
            go.close()
        _stop_all([(process, connection) for process, connection, _ in running])


def side_by_side(tasks: list[Callable[[], Any]], limit: int | None = None) -> Iterator[Any]:
    """Run `tasks`, at most `limit` (default: the cores) at once; yield their results in order. Raises
    TaskFailed for a task that ended without a result."""
    limit = max(1, min(limit or os.cpu_count() or 1, len(tasks)))
    if _serial(limit):
        yield from (task() for task in tasks)
        return
    context, wait = _forking()
    running: dict[int, tuple[Any, Any]] = {}  # index -> (process, connection)
    results: dict[int, Any] = {}
    started = 0
    try:
        for index in range(len(tasks)):
            while index not in results:
                while started < len(tasks) and len(running) < limit:
                    receive, send = context.Pipe(duplex=False)
                    with holding_stops():
                        running[started] = (_start(context, tasks[started], send), receive)
                    started += 1
                ready = wait([connection for _, connection in running.values()])
                for done in [i for i, (_, connection) in running.items() if connection in ready]:
                    results[done] = _receive(done, *running.pop(done))
            yield results.pop(index)
    finally:
        _stop_all(list(running.values()))


class _Failed:
    """What `work` raised in a process of shared_out's, sent back to be raised where its result would be."""

    def __init__(self, error: Exception):
        self.error = error


def _serve(work: Callable[[int], Any], jobs) -> None:
    """A process of shared_out's: `work` on each list of indices received, the results sent back, until it
    is stopped."""
    while True:
        results = []
        for index in jobs.recv():
            try:
                results.append(work(index))
            except Exception as err:
                results.append(_Failed(err))
        jobs.send(results)


def shared_out(work: Callable[[int], Any], count: int, workers: int, chunk: int = 2, ahead: int = 2) -> Iterator[Any]:
    """`work(0)` ... `work(count - 1)` in `workers` forked processes, each given `chunk` indices at a time,
    `ahead` of them at once, so that a process has its next chunk at hand as it sends a chunk's results (with
    one, it waited for the deck's process to take them and hand it more: a core idle 10 to 20 % of a 1,000-card
    build's drawing); yields the results in order (an exception `work` raised is raised in its place;
    TaskFailed for a process that died). Leaving the generator, at the end or early (an error, Ctrl-C, or
    closed), stops its processes at once, as a builder's (see _stop_all)."""
    if _serial(workers):
        yield from (work(index) for index in range(count))
        return
    context, wait = _forking()
    running: list[tuple[Any, Any, Any]] = []  # (process, its result's connection, its jobs' connection)
    handed: dict[Any, deque[list[int]]] = {}  # a process's jobs' connection -> the chunks it holds, oldest first
    results: dict[int, Any] = {}
    todo = iter(range(count))

    def hand(jobs) -> None:
        indices = list(islice(todo, chunk))
        if indices:
            handed[jobs].append(indices)
            jobs.send(indices)
    try:
        for _ in range(workers):
            here, there = context.Pipe()
            receive, send = context.Pipe(duplex=False)
            with holding_stops():
                running.append((_start(context, partial(_serve, work, there), send, unwind=False), receive, here))
            there.close()
            handed[here] = deque()
        for _ in range(ahead):
            for jobs in handed:
                hand(jobs)
        for index in range(count):
            while index not in results:
                for jobs in wait([jobs for jobs, chunks in handed.items() if chunks]):
                    try:
                        results.update(zip(handed[jobs].popleft(), jobs.recv()))
                    except EOFError:
                        number = next(n for n, (_, _, connection) in enumerate(running) if connection is jobs)
                        running[number][0].join()
                        raise TaskFailed(number, running[number][0].exitcode) from None
                    hand(jobs)
            result = results.pop(index)
            if isinstance(result, _Failed):
                raise result.error
            yield result
    finally:
        for _, _, jobs in running:
            jobs.close()
        _stop_all([(process, connection) for process, connection, _ in running])
