"""Tasks side by side in forked processes: results in the tasks' order, a crash reported, not hidden."""

from __future__ import annotations

import os
import signal
import time

import pytest

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
    raises (as deckpress's command does), is not lost in Python's fork hooks: every process ends through
    its own SIGTERM handling (exit status 143), none is left waiting to be killed."""
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
            assert process.exitcode == 143
    finally:
        signal.signal(signal.SIGTERM, previous)
