"""``solve_any``: its solutions win, it agrees with breadth-first search on what is unsolvable,
and it stops at the caps with LIMIT."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from miau.engine import replay
from miau.solver import Outcome, solve
from miau.solver.best_first import (
    NO_GUIDE,
    NO_WIN_RULE,
    Shown,
    distance_to_win,
    is_novel,
    rule_distance,
    solve_any,
)
from miau.solver.successors import Expander
from tests.engine.vocabulary.strategies import tier1_levels
from tests.solver.builders import fixture_level, level, sentence, thing
from tests.solver.strategies import small_levels

EXAMPLES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BUDGET = 20_000


@EXAMPLES
@given(small_levels())
def test_a_best_first_solution_wins_and_is_never_shorter_than_the_shortest(
    data: dict[str, Any],
) -> None:
    found = solve_any(data, max_expansions=BUDGET)
    shortest = solve(data, max_expansions=BUDGET)
    if found.outcome is Outcome.SOLVED:
        assert found.moves is not None and not found.shortest
        played = replay(data, found.moves)
        assert played.won and played.game.state.move_count == len(found.moves)
    if Outcome.LIMIT in (found.outcome, shortest.outcome):
        return
    # Both searches ran to an answer: they agree on whether a win exists.
    assert (found.outcome is Outcome.SOLVED) == (shortest.outcome is Outcome.SOLVED)
    if shortest.length is not None and found.length is not None:
        assert found.length >= shortest.length


def test_best_first_stops_at_the_expansion_cap_with_limit() -> None:
    result = solve_any(fixture_level("workshop"), max_expansions=50)
    assert result.outcome is Outcome.LIMIT
    assert result.expanded == 50 and result.stopped_by == "expansions"


def test_best_first_stops_at_the_memory_cap_with_limit_and_says_how_far_it_got() -> None:
    result = solve_any(fixture_level("workshop"), max_expansions=10**9, max_memory=200_000)
    assert result.outcome is Outcome.LIMIT and result.stopped_by == "memory"
    assert result.memory > 200_000 and result.depth > 0
    assert "memory cap" in result.summary()


def test_the_rating_is_the_distance_from_you_to_win() -> None:
    data = level(
        6,
        3,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS WIN", 3, 0),
        thing("MIAU", 0, 2),
        thing("FLAG", 4, 1),
    )
    assert distance_to_win(Expander(data).board) == 5


def test_without_a_win_rule_the_rating_leads_to_a_win_word() -> None:
    data = level(
        6,
        3,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS", 3, 0),
        sentence("WIN", 5, 1),
        thing("MIAU", 0, 2),
        thing("FLAG", 4, 1),
    )
    rating = distance_to_win(Expander(data).board)
    assert rating > 5  # more than any distance to the flag: a rule must be made first
    result = solve_any(data)
    assert result.outcome is Outcome.SOLVED


def test_without_a_win_rule_the_rating_counts_the_pushes_the_missing_rule_needs() -> None:
    # FLAG IS ... WIN: the WIN word stands 2 cells from the slot after IS, and
    # MIAU (YOU) stands 1 cell from the WIN word it must push.
    far = level(
        7,
        4,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS", 0, 2),
        sentence("WIN", 4, 2),
        thing("MIAU", 5, 2),
        thing("FLAG", 6, 3),
    )
    near = level(
        7,
        4,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS", 0, 2),
        sentence("WIN", 3, 2),
        thing("MIAU", 4, 2),
        thing("FLAG", 6, 3),
    )
    far_board, near_board = Expander(far).board, Expander(near).board
    assert rule_distance(far_board, [far_board.pos[far_board.holders("YOU")[0]]]) == 2 + 1
    assert rule_distance(near_board, [near_board.pos[near_board.holders("YOU")[0]]]) == 1 + 1
    assert distance_to_win(near_board) < distance_to_win(far_board)


def test_a_rule_can_use_the_words_of_another_and_without_a_win_word_nothing_guides() -> None:
    # MIAU IS WIN can reuse MIAU IS YOU's MIAU and IS: WIN must reach (2, 0),
    # 4 pushes away, and MIAU walks 2 to reach it.
    data = level(6, 3, sentence("MIAU IS YOU", 0, 0), sentence("WIN", 4, 2), thing("MIAU", 5, 1))
    board = Expander(data).board
    assert rule_distance(board, [board.pos[board.holders("YOU")[0]]]) == 4 + 2
    no_win = level(6, 3, sentence("MIAU IS YOU", 0, 0), sentence("ROCK", 4, 2), thing("MIAU", 5, 1))
    assert distance_to_win(Expander(no_win).board) == NO_GUIDE


def test_a_state_is_novel_when_first_with_its_rating_or_showing_a_new_value_for_it() -> None:
    shown: Shown = {}
    assert is_novel(shown, 7, b"\x01\x02\x03", b"\x01\x05\x03")  # first with rating 7
    assert not is_novel(shown, 7, b"\x09\x02\x03", b"\x09\x05\x03")  # slot 1 showed 5 already
    assert is_novel(shown, 7, b"\x01\x02\x03", b"\x01\x02\x04")  # slot 2 has not shown 4
    assert is_novel(shown, 8, b"\x01\x02\x03", b"\x01\x05\x03")  # another rating: first again
    assert not is_novel(shown, 7, b"\x01\x02\x03", b"\x01\x02\x03")  # nothing changed


def test_best_first_is_deterministic() -> None:
    data = fixture_level("workshop")
    first = solve_any(data, max_expansions=3_000)
    second = solve_any(data, max_expansions=3_000)
    assert (first.outcome, first.moves, first.expanded) == (
        second.outcome,
        second.moves,
        second.expanded,
    )


def test_a_win_thing_that_is_also_defeat_does_not_count_as_a_way_to_win() -> None:
    def room(defeat: bool) -> dict[str, Any]:
        rules = [sentence("MIAU IS YOU", 0, 0), sentence("FLAG IS WIN", 0, 1)]
        if defeat:
            rules.append(sentence("FLAG IS DEFEAT", 0, 2))
        return level(8, 4, *rules, thing("MIAU", 0, 3), thing("FLAG", 2, 3))

    assert distance_to_win(Expander(room(defeat=False)).board) == 2
    assert distance_to_win(Expander(room(defeat=True)).board) == NO_WIN_RULE + 2


def test_a_win_noun_with_no_thing_guides_towards_making_one() -> None:
    # FLAG IS WIN, but no flag: ROCK IS FLAG makes the rock one. FLAG's word
    # below IS would need 1 push and MIAU walks 1 to reach it.
    data = level(
        6,
        5,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS WIN", 0, 1),
        sentence("ROCK IS", 0, 3),
        sentence("FLAG", 3, 4),
        thing("MIAU", 4, 4),
        thing("ROCK", 5, 2),
    )
    board = Expander(data).board
    assert rule_distance(board, [board.pos[board.holders("YOU")[0]]]) == 2 + 1


def test_a_vocabulary_1_board_is_rated_by_the_same_distances() -> None:
    # ROCK IS MOVE keeps the level on the Tier-1 turn (no reduction to the core).
    data = level(
        8,
        4,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS WIN", 0, 1),
        sentence("ROCK IS MOVE", 0, 2),
        thing("MIAU", 0, 3),
        thing("FLAG", 3, 3),
        features=["vocabulary-1"],
    )
    expander = Expander(data)
    assert expander.level.vocabulary
    assert distance_to_win(expander.board) == 3
    result = solve_any(data)
    assert result.outcome is Outcome.SOLVED and result.moves == "RRR"


@pytest.mark.slow  # 100 generated vocabulary-1 levels, each searched twice: about 16 s
@EXAMPLES
@given(tier1_levels())
def test_on_vocabulary_1_levels_a_best_first_solution_wins_and_agrees_on_unsolvable(
    data: dict[str, Any],
) -> None:
    found = solve_any(data, max_expansions=BUDGET)
    if found.outcome is Outcome.SOLVED:
        assert found.moves is not None and replay(data, found.moves).won
    if found.outcome is Outcome.LIMIT:
        return
    shortest = solve(data, max_expansions=BUDGET)
    if shortest.outcome is not Outcome.LIMIT:
        assert (found.outcome is Outcome.SOLVED) == (shortest.outcome is Outcome.SOLVED)
