"""Mutations keep a level playable, inside its limits, and repeat exactly from a seed."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.generate import Limits, Pools, mutate
from miau.generate.mutate import MIN_SIDE, MUTATIONS, canonical
from miau.packs import load_pack
from miau.worlds import shipped_pack_path

POOLS = Pools(
    words=("MIAU", "IS", "YOU", "FLAG", "WIN", "WALL", "STOP", "AND"),
    nouns=("MIAU", "FLAG", "WALL"),
)
LIMITS = Limits(max_width=10, max_height=7, max_entities=40)


def borrow_a_word() -> dict[str, Any]:
    level = load_pack(shipped_pack_path("tutorial")).level("borrow-a-word")
    return canonical(copy.deepcopy(dict(level.data)))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_mutated_level_is_one_the_engine_runs_and_stays_within_its_limits(seed: int) -> None:
    parent = borrow_a_word()
    before = json.dumps(parent, sort_keys=True)
    child = mutate(parent, random.Random(seed), POOLS, LIMITS)
    assert json.dumps(parent, sort_keys=True) == before, "the parent was changed in place"
    Game(child)  # raises LevelError for a level the engine cannot run
    assert MIN_SIDE <= child["width"] <= LIMITS.max_width
    assert MIN_SIDE <= child["height"] <= LIMITS.max_height
    assert len(child["objects"]) <= LIMITS.max_entities
    for entity in child["objects"]:
        assert 0 <= entity["x"] < child["width"] and 0 <= entity["y"] < child["height"]
        assert entity.get("text", entity.get("noun")) in (*POOLS.words, *POOLS.nouns)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_same_seed_gives_the_same_mutation(seed: int) -> None:
    first = mutate(borrow_a_word(), random.Random(seed), POOLS, LIMITS)
    second = mutate(borrow_a_word(), random.Random(seed), POOLS, LIMITS)
    assert first == second


def test_every_mutation_is_drawn_and_changes_the_level() -> None:
    parent = borrow_a_word()
    changed: set[str] = set()
    for name, mutation in MUTATIONS.items():
        for seed in range(20):
            child = mutation(copy.deepcopy(parent), random.Random(seed), POOLS, LIMITS)
            if child is not None and canonical(child) != parent:
                changed.add(name)
    assert changed == set(MUTATIONS)


def test_resize_never_grows_past_the_cap() -> None:
    parent = borrow_a_word()
    tight = Limits(parent["width"], parent["height"], 40)
    for seed in range(50):
        child = MUTATIONS["resize"](copy.deepcopy(parent), random.Random(seed), POOLS, tight)
        if child is not None:
            assert child["width"] <= parent["width"] and child["height"] <= parent["height"]
