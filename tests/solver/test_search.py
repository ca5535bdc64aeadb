from __future__ import annotations

from miau.engine import Game, replay
from miau.solver import Ending, Outcome, solve
from tests.solver.builders import fixture_level, level, sentence, thing, word

WALLED_IN = level(
    7,
    5,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 4, 0),
    sentence("WALL IS STOP", 0, 1),
    [thing("WALL", x, 3) for x in range(7)],
    thing("WALL", 0, 4),
    thing("MIAU", 1, 4),
    thing("WALL", 4, 4),
    thing("FLAG", 5, 4),
)


def test_solve_finds_DRRRRRRRRRR_for_mouse_keeps_time() -> None:
    result = solve(fixture_level("mouse-keeps-time"))
    assert result.outcome is Outcome.SOLVED
    assert result.moves == "DRRRRRRRRRR"
    assert result.length == 11
    assert replay(fixture_level("mouse-keeps-time"), result.moves).won


def test_solved_and_unsolvable_terminate_while_limit_is_truncated() -> None:
    assert Outcome.SOLVED.ending is Ending.TERMINATED
    assert Outcome.UNSOLVABLE.ending is Ending.TERMINATED
    assert Outcome.LIMIT.ending is Ending.TRUNCATED


def test_a_walled_in_cat_is_unsolvable_after_every_reachable_state() -> None:
    result = solve(WALLED_IN)
    assert result.outcome is Outcome.UNSOLVABLE
    assert result.moves is None
    assert result.expanded == result.seen  # every state reached was expanded


def test_a_tiny_budget_stops_with_limit_and_counts_exactly_that_many_expansions() -> None:
    result = solve(fixture_level("mouse-keeps-time"), max_expansions=5)
    assert result.outcome is Outcome.LIMIT
    assert result.expanded == 5
    assert result.moves is None


def test_a_budget_that_just_covers_the_space_still_proves_unsolvable() -> None:
    states = solve(WALLED_IN).seen
    assert solve(WALLED_IN, max_expansions=states).outcome is Outcome.UNSOLVABLE
    assert solve(WALLED_IN, max_expansions=states - 1).outcome is Outcome.LIMIT


def test_a_win_already_on_the_board_at_the_start_takes_one_wait() -> None:
    # The start is never judged a win; the first accepted turn is. Moving off the
    # flag loses the contact, so a wait is the only one-move win.
    data = level(
        4, 3, sentence("MIAU IS YOU", 0, 0), sentence("FLAG IS WIN", 0, 1), thing("MIAU", 1, 2),
        thing("FLAG", 1, 2),
    )  # fmt: skip
    assert solve(data).moves == "W"


def test_waiting_for_a_swap_is_tried_on_a_level_without_automata() -> None:
    # ROCK IS FLAG with FLAG IS ROCK swaps the thing under the boxed-in cat every
    # turn; the cat cannot move at all, so only waits can win.
    data = level(
        3,
        8,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS ROCK", 0, 1),
        sentence("ROCK IS FLAG", 0, 2),
        sentence("FLAG IS WIN", 0, 3),
        sentence("WALL IS STOP", 0, 4),
        [thing("WALL", x, 5) for x in range(3)],
        [thing("WALL", 0, 6), thing("WALL", 2, 6), thing("WALL", 0, 7), thing("WALL", 2, 7)],
        thing("WALL", 1, 7),
        thing("MIAU", 1, 6),
        thing("ROCK", 1, 6),
    )
    result = solve(data)
    assert result.moves == "WW"
    assert replay(data, "WW").won
    assert not replay(data, "W").won


def test_hands_off_search_refuses_every_turn_in_which_the_player_pushes_a_word() -> None:
    # Only pushing WIN into FLAG IS _ makes a rule that wins.
    data = level(
        5,
        2,
        sentence("MIAU IS YOU", 0, 0),
        sentence("FLAG IS", 0, 1),
        word("WIN", 3, 1),
        thing("FLAG", 4, 0),
        thing("MIAU", 4, 1),
    )
    assert solve(data).moves == "LUR"
    assert solve(data, hands_off=True).outcome is Outcome.UNSOLVABLE


def test_hands_off_search_allows_words_that_an_automaton_pushes() -> None:
    result = solve(fixture_level("mouse-keeps-time"), hands_off=True)
    assert result.moves == "DRRRRRRRRRR"


def test_the_same_level_gives_the_same_solution_and_counts_every_time() -> None:
    first = solve(fixture_level("mouse-keeps-time"))
    second = solve(fixture_level("mouse-keeps-time"))
    assert (first.moves, first.expanded, first.seen) == (second.moves, second.expanded, second.seen)


def test_among_shortest_solutions_the_first_in_move_order_is_returned() -> None:
    # RRD, RDR and DRR all win in three moves; D sorts before R.
    data = level(
        5, 4, sentence("MIAU IS YOU", 0, 0), sentence("FLAG IS WIN", 0, 1), thing("MIAU", 0, 2),
        thing("FLAG", 2, 3),
    )  # fmt: skip
    assert solve(data).moves == "DRR"


def test_the_search_leaves_no_trace_on_a_fresh_game_of_the_same_level() -> None:
    data = fixture_level("mouse-keeps-time")
    before = Game(data).state.to_json()
    solve(data)
    assert Game(data).state.to_json() == before


def test_the_result_record_names_outcome_ending_and_figures() -> None:
    record = solve(fixture_level("mouse-keeps-time")).to_json()
    assert record["outcome"] == "solved"
    assert record["ending"] == "terminated"
    assert record["moves"] == "DRRRRRRRRRR"
    assert record["length"] == 11
    assert record["limit"] == 300_000
    assert record["expanded"] <= record["seen"]
