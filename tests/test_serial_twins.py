"""The serial twins of processes.py: where the system cannot fork (or has one core) the same calls run their
tasks here, one after another, with the results, and the errors, where the forked ones give them. A caller
writes no fallback of its own, so what it relies on holds on every system."""

from __future__ import annotations

import os

import pytest

from deckpress import processes
from deckpress.processes import Prepared, shared_out, side_by_side


@pytest.fixture
def no_fork(monkeypatch):
    monkeypatch.setattr(processes, "available", lambda: False)


def test_side_by_side_runs_each_task_here_in_order(no_fork):
    ran = []
    results = list(side_by_side([lambda n=n: ran.append(n) or (n, os.getpid()) for n in range(4)], limit=2))
    assert results == [(n, os.getpid()) for n in range(4)] and ran == [0, 1, 2, 3]


def test_shared_out_gives_each_result_in_order_and_raises_in_the_failed_ones_place(no_fork):
    def work(index):
        if index == 3:
            raise ValueError("three")
        return index * 10, os.getpid()

    results = shared_out(work, 6, workers=2)
    assert [next(results) for _ in range(3)] == [(0, os.getpid()), (10, os.getpid()), (20, os.getpid())]
    with pytest.raises(ValueError, match="three"):
        next(results)


def test_prepared_prepares_and_runs_each_task_in_turn_when_the_results_are_asked(no_fork):
    steps = []
    tasks = [(lambda n=n: steps.append(f"prepare {n}"), lambda n=n: steps.append(f"run {n}") or (n, os.getpid()))
             for n in range(2)]
    with Prepared(tasks) as prepared:
        assert steps == [] and prepared.running == []
        assert prepared.results() == [(0, os.getpid()), (1, os.getpid())]
    assert steps == ["prepare 0", "run 0", "prepare 1", "run 1"]


def test_a_prepared_task_asked_not_to_fork_runs_here_even_where_it_could():
    with Prepared([(lambda: None, os.getpid)], forked=False) as prepared:
        assert prepared.results() == [os.getpid()]
