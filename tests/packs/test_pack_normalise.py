"""What the loader hands on: normalised records and the exact engine level dict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from miau.packs import GlossaryEntry, Glyph, LevelNotFoundError, Manifest, load_pack

GOOD = Path(__file__).parent / "good"


def small_pack(**level: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "small", "title": "Small", "width": 4, "height": 2}
    return {
        "manifest": {
            "id": "small",
            "name": "Small",
            "version": "1.0.0",
            "engine": 1,
            "features": ["automata", "pairs"],
        },
        "levels": [{**base, **level}],
    }


def test_the_level_dict_has_exactly_the_engine_keys() -> None:
    level = load_pack(small_pack(objects=[])).levels[0]
    assert level.data == {"width": 4, "height": 2, "objects": [], "automata": [], "pairs": []}


def test_map_cells_come_first_in_reading_order_then_objects() -> None:
    data = small_pack(
        map=["a.b.", " #.."],
        legend={"a": {"word": "miau"}, "b": "rock", "#": {"noun": "Wall"}},
        objects=[
            {"noun": "miau", "x": 3, "y": 1, "facing": "left"},
            {"text": "is", "x": 1, "y": 0},
        ],
    )
    assert load_pack(data).levels[0].data["objects"] == [
        {"kind": "word", "text": "MIAU", "x": 0, "y": 0},
        {"kind": "object", "noun": "ROCK", "x": 2, "y": 0},
        {"kind": "object", "noun": "WALL", "x": 1, "y": 1},
        {"kind": "object", "noun": "MIAU", "x": 3, "y": 1, "facing": "left"},
        {"kind": "word", "text": "IS", "x": 1, "y": 0},
    ]


def test_kind_is_inferred_from_text_or_noun() -> None:
    data = small_pack(objects=[{"text": "ROCK", "x": 0, "y": 0}, {"noun": "ROCK", "x": 1, "y": 0}])
    kinds = [entity["kind"] for entity in load_pack(data).levels[0].data["objects"]]
    assert kinds == ["word", "object"]


def test_automata_get_dict_steps_an_explicit_phase_and_uppercase_words() -> None:
    automata = [
        {"id": "b", "property": "tick", "pattern": ["u", "D", "l", "R", "w"]},
        {"id": "a", "subject": "mouse", "property": "TICK", "phase": 1, "pattern": ["W", "L"]},
    ]
    level = load_pack(small_pack(objects=[], automata=automata)).levels[0]
    assert level.data["automata"] == [
        {
            "id": "b",
            "property": "TICK",
            "phase": 0,
            "pattern": [
                {"action": "move", "dx": 0, "dy": -1},
                {"action": "move", "dx": 0, "dy": 1},
                {"action": "move", "dx": -1, "dy": 0},
                {"action": "move", "dx": 1, "dy": 0},
                {"action": "wait"},
            ],
        },
        {
            "id": "a",
            "subject": "MOUSE",
            "property": "TICK",
            "phase": 1,
            "pattern": [{"action": "wait"}, {"action": "move", "dx": -1, "dy": 0}],
        },
    ]


def test_pairs_get_uppercase_words_and_an_explicit_enter() -> None:
    pairs = [
        {"words": ["open", "shut"], "effect": "destroy-both"},
        {"words": ["HOT", "MELT"], "effect": "destroy-both", "enter": True},
    ]
    level = load_pack(small_pack(objects=[], pairs=pairs)).levels[0]
    assert level.data["pairs"] == [
        {"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": False},
        {"words": ["HOT", "MELT"], "effect": "destroy-both", "enter": True},
    ]


def test_level_fields_are_read_with_their_defaults() -> None:
    level = load_pack(small_pack(objects=[])).levels[0]
    assert (level.id, level.title, level.hint, level.tier) == ("small", "Small", None, "required")
    assert (level.width, level.height, level.solution, level.solver_max) == (4, 2, None, None)


def test_solution_is_stored_uppercase_and_solver_max_kept() -> None:
    level = load_pack(small_pack(objects=[], solution="dRrW", solverMax=4_000_000)).levels[0]
    assert (level.solution, level.solver_max) == ("DRRW", 4_000_000)


def test_pack_records_are_read_in_full() -> None:
    pack = load_pack(GOOD / "every-field.json")
    assert pack.manifest == Manifest(
        id="every.field_pack-1",
        name="Every field",
        version="2.10.0",
        engine=1,
        features=("pairs", "automata"),
        author="The packs tests",
        description="Uses every field of the format at least once.",
    )
    assert pack.palette["MIAU"] == Glyph("🐈", "left")
    assert pack.palette["KEY"] == Glyph("🔑")
    assert pack.palette["DOOR"] == Glyph("🚪")
    assert pack.vocabulary == ("ROCK", "GHOST")
    assert pack.glossary["SHUT"] == GlossaryEntry(
        "stop", "Stays closed until something OPEN reaches it."
    )
    assert [level.tier for level in pack.levels] == ["optional", "challenge"]


def test_level_lookup_by_id() -> None:
    pack = load_pack(GOOD / "every-field.json")
    assert pack.level("spin-cycle") is pack.levels[1]


def test_an_unknown_level_id_raises_a_key_error_naming_the_ids() -> None:
    pack = load_pack(GOOD / "every-field.json")
    with pytest.raises(KeyError) as caught:
        pack.level("nope")
    assert isinstance(caught.value, LevelNotFoundError)
    assert str(caught.value) == (
        "pack 'every.field_pack-1' has no level 'nope'; its levels are: key-and-door, spin-cycle"
    )
