"""docs/architecture.md, the house in one page, stays true: it names every package under src/deckpress, and
every file it names is there. The tests share what they share through tests/helpers and conftest.py: no test
module imports another (which would run the other's tests again, or couple them by its private names)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "deckpress"
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_package_has_its_paragraph():
    packages = {p.parent.relative_to(SOURCE).as_posix() for p in SOURCE.rglob("__init__.py")}
    assert "." in packages and "builders/tts" in packages
    named = {"." if name == "deckpress" else name.rstrip("/") for name in re.findall(r"^- \*\*([\w/]+)\*\*", PAGE, re.M)}
    assert packages - {"."} <= named and "." in named, sorted(packages - named)
    assert "data" in named  # the package data's folders, which a project's own override


def test_every_file_it_names_exists():
    names = set(re.findall(r"[\w/.-]+\.(?:py|lua|md|yaml|j2)\b", PAGE)) - {"decks/<deck>.yaml"}
    files = {p.relative_to(SOURCE).as_posix() for p in SOURCE.rglob("*") if p.is_file()}
    missing = [name for name in sorted(names) if not (ROOT / name).exists()
               and not any(f == name or f.endswith("/" + name) for f in files)]
    assert names and not missing, missing


def test_no_test_module_imports_another():
    tests = ROOT / "tests"
    modules = {p.stem for p in tests.glob("test_*.py")}
    assert "test_architecture" in modules
    found = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.split(".")[0] in modules]
    assert not found, found
