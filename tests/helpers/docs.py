"""docs/pictures.py, which draws the pictures of docs/templates.md from its examples, loaded as a module
(docs/ is no package)."""

from __future__ import annotations

import importlib.util
import sys

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("docs_pictures", ROOT / "docs" / "pictures.py")
pictures = sys.modules["docs_pictures"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pictures)
