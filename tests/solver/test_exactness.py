"""The solver against a naive breadth-first search over ``Game`` on generated levels.

When the naive search runs to the end within its budget, the two must
agree exactly: the same shortest length, or both no solution. Whatever the
budget, a solution the solver returns must win when replayed by ``Game``.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from miau.engine import replay
from miau.solver import Outcome, solve, word_moves
from tests.solver.naive import naive_shortest
from tests.solver.strategies import small_levels

NAIVE_BUDGET = 1500
SOLVER_BUDGET = 20_000
EXAMPLES = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _agree(data: dict[str, Any], *, hands_off: bool) -> None:
    result = solve(data, max_expansions=SOLVER_BUDGET, hands_off=hands_off)
    if result.outcome is Outcome.SOLVED:
        assert result.moves is not None
        played = replay(data, result.moves)
        assert played.won, f"{result.moves} does not win"
        assert played.game.state.move_count == len(result.moves), "a move was refused"
        if hands_off:
            assert not word_moves(data, result.moves)
    naive = naive_shortest(data, budget=NAIVE_BUDGET, hands_off=hands_off)
    if naive.exhausted_budget:
        return
    if naive.length is None:
        assert result.outcome is Outcome.UNSOLVABLE, f"naive found no win; solver {result}"
    else:
        assert result.outcome is Outcome.SOLVED, f"naive won in {naive.length}; solver {result}"
        assert result.length == naive.length


@pytest.mark.slow
@EXAMPLES
@given(small_levels())
def test_solver_length_equals_the_naive_shortest_and_its_solution_wins(
    data: dict[str, Any],
) -> None:
    _agree(data, hands_off=False)


@EXAMPLES
@given(small_levels())
def test_hands_off_solver_equals_a_naive_search_that_refuses_word_moves(
    data: dict[str, Any],
) -> None:
    _agree(data, hands_off=True)
