"""The README's first two commands are what a fresh machine runs; CI runs the second one exactly."""

from __future__ import annotations

from conftest import ROOT


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
