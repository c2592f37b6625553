"""YAML read as editors read it (YAML 1.2, ruamel.yaml), for the tests that check the JSON Schema an editor
validates with."""

from __future__ import annotations

import io

from ruamel.yaml import YAML


def load_12(text: str):
    return YAML(typ="safe", pure=True).load(io.StringIO(text))
