"""schema/pack.schema.json describes the same format the loader reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from miau.engine import vocabulary
from miau.packs import KNOWN_FEATURES, load_pack
from miau.packs import format as pack_format

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
SCHEMA: dict[str, Any] = json.loads((ROOT / "schema" / "pack.schema.json").read_text("utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

GOOD = sorted((HERE / "good").glob("*.json"))
SHIPPED = sorted((ROOT / "packs").glob("*.json"))
UNPARSEABLE = {"invalid-json", "trailing-comma"}
BAD = sorted(path for path in (HERE / "bad").glob("*.json") if path.stem not in UNPARSEABLE)
SEMANTIC_ONLY = {
    "duplicate-automaton-ids",
    "duplicate-json-keys",
    "duplicate-level-ids",
    "map-row-count",
    "missing-feature-flags",
    "noun-trap",
    "pair-word-used-as-noun",
    "pairs-conflicts",
}
"""Broken packs whose problem a JSON Schema cannot express: the loader alone catches them."""


def read(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def schema_problems(data: Any) -> list[str]:
    return [
        f"{list(error.absolute_path)}: {error.message}" for error in VALIDATOR.iter_errors(data)
    ]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", GOOD, ids=lambda path: path.stem)
def test_the_schema_accepts_every_good_pack_and_its_to_json(path: Path) -> None:
    assert schema_problems(read(path)) == []
    assert schema_problems(load_pack(path).to_json()) == []


@pytest.mark.parametrize("path", BAD, ids=lambda path: path.stem)
def test_the_schema_rejects_the_structurally_broken_packs(path: Path) -> None:
    problems = schema_problems(read(path))
    if path.stem in SEMANTIC_ONLY:
        assert problems == [], "the schema now catches this one: move it out of SEMANTIC_ONLY"
    else:
        assert problems, "a structurally broken pack passed the schema"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.stem)
def test_every_shipped_pack_passes_the_loader_and_the_schema(path: Path) -> None:
    pack = load_pack(path)
    assert pack.warnings == ()
    assert schema_problems(read(path)) == []


def test_the_schema_limits_match_the_loader() -> None:
    defs = SCHEMA["$defs"]
    level = defs["level"]["properties"]
    assert SCHEMA["properties"]["levels"]["maxItems"] == pack_format.MAX_PACK_LEVELS
    assert defs["side"]["maximum"] == vocabulary.MAX_LEVEL_SIDE
    assert defs["coordinate"]["maximum"] == vocabulary.MAX_LEVEL_SIDE - 1
    assert level["objects"]["maxItems"] == vocabulary.MAX_LEVEL_OBJECTS
    assert level["automata"]["maxItems"] == vocabulary.MAX_AUTOMATA
    assert level["pairs"]["maxItems"] == vocabulary.MAX_PAIRS
    assert defs["automaton"]["properties"]["pattern"]["maxItems"] == vocabulary.MAX_PATTERN_STEPS
    assert level["solverMax"]["maximum"] == pack_format.MAX_SOLVER_MAX
    assert level["hint"]["maxLength"] == pack_format.MAX_HINT_LENGTH
    assert set(defs["manifest"]["properties"]["features"]["items"]["enum"]) == KNOWN_FEATURES
    assert defs["glossaryEntry"]["properties"]["accent"]["enum"] == list(pack_format.ACCENTS)
    assert level["tier"]["enum"] == list(pack_format.TIERS)
    assert defs["facing"]["enum"] == list(vocabulary.FACINGS)
    assert set(defs["upperNoun"]["not"]["enum"]) == vocabulary.RESERVED_WORDS
    assert defs["pair"]["properties"]["effect"]["enum"] == list(vocabulary.PAIR_EFFECTS)


def test_the_schema_names_the_same_fields_as_the_loader() -> None:
    defs = SCHEMA["$defs"]
    assert tuple(SCHEMA["properties"]) == pack_format.PACK_FIELDS
    assert tuple(defs["manifest"]["properties"]) == pack_format.MANIFEST_FIELDS
    assert tuple(defs["level"]["properties"]) == pack_format.LEVEL_FIELDS
    assert tuple(defs["automaton"]["properties"]) == pack_format.AUTOMATON_FIELDS
    assert tuple(defs["pair"]["properties"]) == pack_format.PAIR_FIELDS
    assert tuple(defs["glossaryEntry"]["properties"]) == pack_format.GLOSSARY_FIELDS
    object_fields = set(defs["object"]["properties"]) | set(defs["word"]["properties"])
    assert object_fields == set(pack_format.OBJECT_FIELDS)
