"""A ``vocabulary-1`` level with only core words is searched as a core level, losing nothing.

The reduction is sound only if both turns play such a level alike; these
tests play generated core-word levels with the feature on and off, move by
move, and compare the solver on the feature-on level with a naive search
that runs the Tier-1 turn itself.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miau.engine import Game, Level
from miau.engine.vocabulary import MOVE_ALPHABET, VOCABULARY_1
from miau.solver import Outcome, solve
from miau.solver.reduction import search_level, uses_only_core_words
from tests.solver.naive import naive_shortest
from tests.solver.strategies import small_levels

EXAMPLES = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INTENTS = tuple(direction.name for direction in MOVE_ALPHABET)


def _with_feature(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "features": [VOCABULARY_1]}


core_word_levels = (
    small_levels()
    .filter(lambda data: "automata" not in data and "pairs" not in data)
    .map(_with_feature)
)


def _seen(game: Game) -> tuple[Any, ...]:
    now = game.state.now
    return (now.positions, now.nouns, now.kinds, game.won)


@EXAMPLES
@given(core_word_levels, st.integers(0, 2**32 - 1))
def test_core_word_levels_play_alike_with_the_feature_on_and_off(
    data: dict[str, Any], seed: int
) -> None:
    rnd = random.Random(seed)
    tier1, core = Game(data), Game({**data, "features": []})
    assert _seen(tier1) == _seen(core)
    for _ in range(40):
        intent = rnd.choice(INTENTS)
        accepted = tier1.step(intent).accepted
        assert core.step(intent).accepted == accepted, intent
        assert _seen(tier1) == _seen(core), intent
        if tier1.won:
            break


@EXAMPLES
@given(core_word_levels)
def test_solver_on_a_core_word_level_equals_a_naive_search_with_the_tier1_turn(
    data: dict[str, Any],
) -> None:
    assert uses_only_core_words(Level.from_dict(data))
    result = solve(data, max_expansions=20_000)
    naive = naive_shortest(data, budget=1500)
    if naive.exhausted_budget:
        return
    if naive.length is None:
        assert result.outcome is Outcome.UNSOLVABLE, result
    else:
        assert result.outcome is Outcome.SOLVED, result
        assert result.length == naive.length


def test_a_tier1_word_keeps_the_tier1_turn() -> None:
    level = Level.from_dict(
        {
            "width": 4,
            "height": 1,
            "features": [VOCABULARY_1],
            "objects": [
                {"kind": "word", "text": "MIAU", "x": 0, "y": 0},
                {"kind": "word", "text": "IS", "x": 1, "y": 0},
                {"kind": "word", "text": "MOVE", "x": 2, "y": 0},
                {"kind": "object", "noun": "MIAU", "x": 3, "y": 0},
            ],
        }
    )
    assert not uses_only_core_words(level)
    assert search_level(level) is level


def test_a_core_word_level_is_searched_without_the_feature() -> None:
    level = Level.from_dict(
        {
            "width": 3,
            "height": 1,
            "features": [VOCABULARY_1],
            "objects": [
                {"kind": "word", "text": "MIAU", "x": 0, "y": 0},
                {"kind": "word", "text": "IS", "x": 1, "y": 0},
                {"kind": "word", "text": "YOU", "x": 2, "y": 0},
            ],
        }
    )
    searched = search_level(level)
    assert not searched.vocabulary and VOCABULARY_1 not in searched.features
    assert "MOVE" not in searched.properties
