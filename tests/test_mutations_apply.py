"""bench/mutate.py's mistakes each still apply to the code they name: a snippet the code no longer holds stops
the whole mutation run before it starts."""

from __future__ import annotations

import importlib.util
import sys

from conftest import ROOT


def test_every_mutation_finds_its_snippet():
    spec = importlib.util.spec_from_file_location("bench_mutate", ROOT / "bench" / "mutate.py")
    mutate = sys.modules["bench_mutate"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mutate)
    stale = []
    for mu in mutate.MUTATIONS:
        try:
            mutate.mutated(mu.path(ROOT).read_text(encoding="utf-8"), mu)
        except ValueError as err:
            stale.append(f"{mu.name}: {err}")
    assert len(mutate.MUTATIONS) > 100 and not stale, stale
