"""The loader and the vocabulary-1 feature: the flag, built-in words, the noun trap."""

from __future__ import annotations

from typing import Any

import pytest

from miau.engine import Game
from miau.packs import PackError, load_pack


def pack(level: dict[str, Any], *features: str) -> dict[str, Any]:
    return {
        "manifest": {
            "id": "vocab-test",
            "name": "Vocab",
            "version": "1.0.0",
            "engine": 1,
            "features": list(features),
        },
        "levels": [{"id": "one", "title": "One", "width": 6, "height": 3, **level}],
    }


def words_map(rows: list[str]) -> dict[str, Any]:
    return {
        "objects": [
            {"kind": "word", "text": t, "x": i, "y": y}
            for y, row in enumerate(rows)
            for i, t in enumerate(row.split())
        ]
    }


def test_the_feature_reaches_the_engine_and_the_words_work() -> None:
    level = words_map(["ROCK IS MOVE"])
    level["objects"].append({"kind": "object", "noun": "ROCK", "x": 0, "y": 2})
    loaded = load_pack(pack(level, "vocabulary-1"))
    data = loaded.levels[0].data
    assert data["features"] == ["vocabulary-1"]
    assert not loaded.warnings
    game = Game(data)
    assert game.wait().to_json()["moved"][0]["to"] == [1, 2]
    assert "features" not in loaded.levels[0].to_json()


def test_without_the_feature_the_words_are_nouns_and_trapped() -> None:
    level = words_map(["ROCK IS MOVE"])
    level["objects"].append({"kind": "object", "noun": "ROCK", "x": 0, "y": 2})
    loaded = load_pack(pack(level))
    assert "features" not in loaded.levels[0].data
    assert [str(w) for w in loaded.warnings] == [
        "levels[0].objects[2]: warning: word MOVE is neither a property nor a noun this pack "
        'knows; "X IS MOVE" would turn things into MOVE things. Declare it in pairs or '
        "automata, or add it to vocabulary."
    ]


def test_pairs_may_not_use_built_in_open_and_shut() -> None:
    level = words_map(["KEY IS OPEN"])
    level["pairs"] = [{"words": ["OPEN", "SHUT"], "effect": "destroy-both"}]
    with pytest.raises(PackError) as raised:
        load_pack(pack(level, "vocabulary-1", "pairs"))
    assert [str(i) for i in raised.value.issues if i.severity == "error"] == [
        "levels[0].pairs[0].words[0]: OPEN is a built-in vocabulary-1 word in this pack; a pair "
        'needs words of its own, such as ["KEY", "LOCK"] (or use the built-in OPEN and SHUT)',
        "levels[0].pairs[0].words[1]: SHUT is a built-in vocabulary-1 word in this pack; a pair "
        'needs words of its own, such as ["KEY", "LOCK"] (or use the built-in OPEN and SHUT)',
    ]
    level["pairs"] = [{"words": ["KEY", "LOCK"], "effect": "destroy-both"}]
    level["objects"] = words_map(["DOOR IS KEY"])["objects"]
    assert load_pack(pack(level, "vocabulary-1", "pairs")).levels[0].data["pairs"]


def test_tier1_words_are_not_nouns_nor_automaton_words() -> None:
    level: dict[str, Any] = {"objects": [{"kind": "object", "noun": "TEXT", "x": 0, "y": 0}]}
    level["automata"] = [{"id": "clock", "property": "MOVE", "pattern": ["L"]}]
    with pytest.raises(PackError) as raised:
        load_pack(pack(level, "vocabulary-1", "automata"))
    assert [str(i) for i in raised.value.issues] == [
        "levels[0].objects[0]: noun TEXT is a vocabulary-1 word in this pack, so no object can "
        "be a TEXT; rename the object",
        "levels[0].automata[0].property: MOVE is a built-in vocabulary-1 word in this pack; an "
        'automaton needs a word of its own, such as "TICK"',
    ]


def test_automata_and_vocabulary_1_load_together() -> None:
    level = words_map(["MIAU IS YOU", "GEAR IS TICK"])
    level["automata"] = [{"id": "clock", "property": "TICK", "pattern": ["L"]}]
    loaded = load_pack(pack(level, "vocabulary-1", "automata")).levels[0].data
    assert loaded["automata"] and loaded["features"] == ["vocabulary-1"]
