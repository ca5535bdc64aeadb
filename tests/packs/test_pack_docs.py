"""docs/packs.md stays true: its example is a tested pack and it names every field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from miau.packs import format as pack_format
from miau.packs import load_pack

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "docs" / "packs.md").read_text(encoding="utf-8")
EXAMPLE = re.compile(r"<!-- example: (?P<path>\S+) -->\n```json\n(?P<body>.*?)\n```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    return [(match["path"], match["body"]) for match in EXAMPLE.finditer(DOCS)]


def test_the_docs_have_a_complete_example() -> None:
    assert [path for path, _ in examples()] == ["tests/packs/good/clockwork-proof.json"]


@pytest.mark.parametrize(("path", "body"), examples(), ids=lambda value: str(value)[:40])
def test_the_example_is_the_tested_fixture_and_loads_cleanly(path: str, body: str) -> None:
    example: Any = json.loads(body)
    assert example == json.loads((ROOT / path).read_text(encoding="utf-8"))
    assert load_pack(example).warnings == ()


def test_the_example_entity_ids_are_as_the_docs_say() -> None:
    _, body = examples()[0]
    objects = load_pack(json.loads(body)).levels[0].data["objects"]
    assert objects[0] == {"kind": "object", "noun": "WALL", "x": 0, "y": 2}
    assert objects[27] == {"kind": "word", "text": "MIAU", "x": 0, "y": 0}


@pytest.mark.parametrize(
    "field",
    sorted(
        {
            *pack_format.PACK_FIELDS,
            *pack_format.MANIFEST_FIELDS,
            *pack_format.GLYPH_FIELDS,
            *pack_format.GLOSSARY_FIELDS,
            *pack_format.LEVEL_FIELDS,
            *pack_format.OBJECT_FIELDS,
            *pack_format.LEGEND_FIELDS,
            *pack_format.AUTOMATON_FIELDS,
            *pack_format.PAIR_FIELDS,
        }
    ),
)
def test_the_docs_name_every_field(field: str) -> None:
    assert f"`{field}`" in DOCS
