"""The deck format is defined once; its reference page and JSON Schema follow it."""

from __future__ import annotations

import json

from conftest import ROOT, run_cli
from deckpress import reference
from deckpress.options import Record
from deckpress.schema import RECORDS


def test_reference_page_is_in_step_with_the_schema():
    page = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    assert page == reference.markdown(), "regenerate: deckpress schema --markdown > docs/deck-format.md"


def test_every_key_is_documented():
    page = (ROOT / "docs" / "deck-format.md").read_text(encoding="utf-8")
    for record in RECORDS:
        assert issubclass(record, Record)
        assert record.__doc__, record
        for key, option in record.OPTIONS.items():
            assert option.doc.strip(), f"{record.__name__}.{key} has no description"
            assert f"| `{key}` |" in page


def test_json_schema_command_describes_the_format():
    result = run_cli("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["required"] == ["game", "components"]
    component = schema["properties"]["components"]["items"]
    assert {"id", "name", "template", "cards", "fields"} <= set(component["properties"])
    assert schema["properties"]["card_size"]["anyOf"][0]["enum"][:2] == ["poker", "bridge"]


def test_help_everywhere():
    for args in ([], ["build"], ["check"], ["schema"]):
        result = run_cli(*args, "--help")
        assert result.exit_code == 0 and "Usage:" in result.stdout
