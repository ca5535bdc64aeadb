"""The solver's ``settle`` leaves every board exactly as the engine's ``settle_turn`` does."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miau.engine import Level
from miau.engine.board import Board
from miau.engine.turn import move_player, settle_turn, start_board
from miau.engine.vocabulary import MOVE_ALPHABET
from miau.solver.turns import settle, settles_here
from tests.solver.strategies import small_levels

EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _picture(board: Board) -> tuple[Any, ...]:
    return (
        list(board.pos),
        list(board.noun),
        [list(cell) for cell in board.cells],
        {noun: list(ids) for noun, ids in board.by_noun.items() if ids},
        list(board.phases),
        board.won,
        board.control_lost,
        board.move_count,
        board.rules.props,
    )


def _crowded(data: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The level with extra SINK and DEFEAT things piled on, so contacts happen often."""
    objects = list(data["objects"])
    for _ in range(rnd.randint(0, 6)):
        objects.append(
            {
                "kind": "object",
                "noun": rnd.choice(["ROCK", "WALL", "FLAG", "MIAU"]),
                "x": rnd.randrange(data["width"]),
                "y": rnd.randrange(data["height"]),
            }
        )
    return {**data, "objects": objects}


@EXAMPLES
@given(small_levels().filter(lambda data: "pairs" not in data), st.integers(0, 2**32 - 1))
def test_settle_leaves_the_board_as_the_engines_settle_turn(
    data: dict[str, Any], seed: int
) -> None:
    rnd = random.Random(seed)
    level = Level.from_dict(_crowded(data, rnd))
    assert settles_here(level)
    engine, solver = start_board(level), start_board(level)
    for _ in range(30):
        direction = rnd.choice(MOVE_ALPHABET).vector
        if direction is not None:
            moved = move_player(engine, direction, None)
            assert move_player(solver, direction, None) == moved
            if not moved:
                continue
        settle_turn(engine, None)
        settle(solver)
        assert _picture(solver) == _picture(engine)
        if engine.won:
            break


def test_pairs_and_vocabulary_levels_keep_the_engines_turn() -> None:
    base: dict[str, Any] = {
        "width": 3,
        "height": 1,
        "objects": [{"kind": "word", "text": "MIAU", "x": 0, "y": 0}],
    }
    assert settles_here(Level.from_dict(base))
    assert not settles_here(Level.from_dict({**base, "features": ["vocabulary-1"]}))
    paired = {**base, "pairs": [{"words": ["OPEN", "SHUT"], "effect": "destroy-both"}]}
    assert not settles_here(Level.from_dict(paired))
