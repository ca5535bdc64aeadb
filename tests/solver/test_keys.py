"""What a state key leaves out must never matter: facings on levels that cannot read them.

``KeyCodec`` drops every entity's facing from the keys of a vocabulary-1
level that names none of MOVE, SHIFT and FACING (``reads_facing``). The
search then treats boards that differ only in facings as one state, which
is sound only if such boards behave the same under every move string:
these tests play the same moves from a level's start and from the same
start with every facing turned, and compare everything else at each step.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.level import Level
from miau.engine.vocabulary import FACINGS, MOVE_LETTERS
from miau.solver import KeyCodec, read_levels
from miau.solver.keys import reads_facing
from tests.solver.builders import SHIPPED_PACKS

VOCABULARY_LEVELS = [
    (f"{path.stem}/{spec.id}", dict(spec.data))
    for path in SHIPPED_PACKS
    for spec in read_levels(path).levels
    if Level.from_dict(spec.data).vocabulary
]
FACING_FREE = [
    (name, data) for name, data in VOCABULARY_LEVELS if not reads_facing(Level.from_dict(data))
]
FACING_READING = [
    (name, data) for name, data in VOCABULARY_LEVELS if reads_facing(Level.from_dict(data))
]


def _turned(data: dict[str, Any], quarter_turns: int) -> dict[str, Any]:
    """``data`` with every entity's facing turned by ``quarter_turns`` (none given counts as right)."""
    objects = []
    for entity in data["objects"]:
        facing = FACINGS.index(entity.get("facing", FACINGS[0]))
        objects.append({**entity, "facing": FACINGS[(facing + quarter_turns) % len(FACINGS)]})
    return {**data, "objects": objects}


def _without_facings(game: Game) -> tuple[Any, ...]:
    now = game.state.now
    return (now.positions, now.nouns, now.kinds, now.phases, now.won, now.control_lost)


def test_the_shipped_worlds_have_vocabulary_levels_of_both_kinds() -> None:
    # Both halves below test something only if each list holds levels.
    assert len(FACING_FREE) >= 20 and len(FACING_READING) >= 3


@pytest.mark.parametrize(("name", "data"), FACING_READING, ids=[n for n, _ in FACING_READING])
def test_a_level_that_names_move_shift_or_facing_keeps_facings_in_its_keys(
    name: str, data: dict[str, Any]
) -> None:
    level = Level.from_dict(data)
    codec = KeyCodec(level)
    assert codec.facing_ids == tuple(range(level.entity_count))
    assert codec.encode_state(Game(data).state) != codec.encode_state(Game(_turned(data, 1)).state)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "data"), FACING_FREE, ids=[n for n, _ in FACING_FREE])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), quarter_turns=st.integers(1, 3))
def test_boards_that_differ_only_in_facings_play_alike_where_no_word_reads_a_facing(
    name: str, data: dict[str, Any], seed: int, quarter_turns: int
) -> None:
    rnd = random.Random(seed)
    codec = KeyCodec(Level.from_dict(data))
    assert codec.facing_ids == ()
    straight, turned = Game(data), Game(_turned(data, quarter_turns))
    assert codec.encode_state(straight.state) == codec.encode_state(turned.state)
    letters = list(MOVE_LETTERS)
    for step in range(60):
        letter = rnd.choice(letters)
        first, second = straight.step(MOVE_LETTERS[letter]), turned.step(MOVE_LETTERS[letter])
        where = f"step {step}, move {letter}"
        assert first.accepted == second.accepted, where
        assert _without_facings(straight) == _without_facings(turned), where
        assert codec.encode_state(straight.state) == codec.encode_state(turned.state), where
        if straight.won or rnd.random() < 0.1:
            assert straight.undo().accepted == turned.undo().accepted, where
