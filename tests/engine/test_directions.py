"""One intent from the protocol to the engine: a ``Direction`` of the move alphabet."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.game import parse_directions
from miau.engine.vocabulary import (
    FACING_OF_VECTOR,
    INTENT_OF_LETTER,
    INTENT_OF_NAME,
    MOVE_ALPHABET,
    VECTOR_OF_FACING,
    Direction,
)
from tests.engine.vocabulary.grid import board_level


def test_every_facing_has_the_vector_of_the_move_that_faces_it() -> None:
    for direction in MOVE_ALPHABET:
        if direction.vector is not None:
            assert direction.facing is not None
            assert VECTOR_OF_FACING[direction.facing] == direction.vector
            assert FACING_OF_VECTOR[direction.vector] == direction.facing
    assert {d.name: d for d in MOVE_ALPHABET} == INTENT_OF_NAME
    assert {d.letter: d for d in MOVE_ALPHABET} == INTENT_OF_LETTER


def test_a_move_string_reads_as_directions() -> None:
    assert parse_directions("u d\tL r W") == [INTENT_OF_LETTER[letter] for letter in "UDLRW"]


@given(st.lists(st.sampled_from(MOVE_ALPHABET), max_size=12))
def test_a_direction_and_its_name_give_the_same_events(intents: list[Direction]) -> None:
    level = board_level(["MIAU IS YOU . .", "ROCK IS PUSH .", ". miau rock . ."], feature=False)
    by_direction, by_name = Game(level), Game(level)
    for intent in intents:
        one = json.dumps(by_direction.step(intent).to_json(), sort_keys=True)
        two = json.dumps(by_name.step(intent.name).to_json(), sort_keys=True)
        assert one == two
