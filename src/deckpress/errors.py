"""User-facing errors: every mistake in a deck is one `file:line:col: message` line."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Where:
    """A place in an input file (1-based line and column; 0 when unknown)."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        shown = display_path(self.path)
        if self.line and self.col:
            return f"{shown}:{self.line}:{self.col}"
        if self.line:  # a line without its column (Lua's messages give none)
            return f"{shown}:{self.line}"
        return shown


def display_path(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if rel.startswith("..") else rel


@dataclass(frozen=True)
class Problem:
    where: Where
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


class DeckError(Exception):
    """One or more problems in the user's input; the CLI prints one line each and exits 1."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def __reduce__(self):  # faces are drawn in worker processes; their errors come back pickled
        return (DeckError, (self.problems,))

    @classmethod
    def at(cls, where: Where, message: str) -> "DeckError":
        return cls([Problem(where, message)])


REPORT = ("the deck's data may be something deckpress does not check yet, or deckpress has a bug: please report it "
          "with the deck")


def own_failure(deck_path, what: str, message: str) -> DeckError:
    """A failure inside deckpress's own files (a built-in template, a shipped game's Lua) that a deck's data set
    off: located at the deck, saying what failed and asking for a report, never naming deckpress's file."""
    return DeckError.at(Where(str(deck_path)), f"{what} failed on this deck: {message}; {REPORT}")


class Problems:
    """Collects problems so a user sees every mistake of a file in one run."""

    def __init__(self) -> None:
        self.items: list[Problem] = []
        self.warnings: list[Problem] = []  # shown as `file:line:col: warning: ...`; the build goes on

    def add(self, where: Where, message: str) -> None:
        """Record a problem once: the members of a card family share a place, and a mistake they
        share is one line."""
        problem = Problem(where, message)
        if problem not in self.items:
            self.items.append(problem)

    def warn(self, where: Where, message: str) -> None:
        problem = Problem(where, f"warning: {message}")
        if problem not in self.warnings:
            self.warnings.append(problem)

    def raise_if_any(self) -> None:
        if self.items:
            raise DeckError(self.items)
