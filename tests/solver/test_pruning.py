"""What breadth-first search leaves out, and its memory cap.

The search never expands a state that can never move again (nothing is
YOU, and waiting changes nothing). ``tests/solver/test_exactness.py``
compares the solver with a naive search that expands everything, so
shortest lengths and UNSOLVABLE are unchanged; here the pruning is seen at
work, and the memory cap ends in LIMIT.
"""

from __future__ import annotations

from miau.solver import Outcome, solve
from miau.solver.successors import DEAD, Expander
from tests.solver.builders import fixture_level, level, sentence, thing

# The cat's only ways are onto a skull (DEFEAT) or towards the flag.
SKULLS = level(
    7,
    4,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 4, 0),
    sentence("ROCK IS DEFEAT", 0, 1),
    thing("ROCK", 2, 3),
    thing("ROCK", 3, 2),
    thing("MIAU", 3, 3),
    thing("FLAG", 6, 3),
)


def test_a_move_onto_defeat_leaves_a_dead_child() -> None:
    expander = Expander(SKULLS)
    ratings = {letter: rating for letter, _, _, rating, _ in expander.children(expander.root, len_)}
    assert ratings["L"] == DEAD and ratings["U"] == DEAD
    assert ratings["R"] != DEAD


def len_(_board: object) -> int:
    return 0


def test_dead_states_are_seen_but_never_expanded() -> None:
    result = solve(SKULLS)
    assert result.outcome is Outcome.SOLVED and result.moves == "RRR"
    assert result.seen > result.expanded


def test_the_memory_cap_ends_in_limit_with_how_far_the_search_got() -> None:
    result = solve(fixture_level("workshop"), max_expansions=10**9, max_memory=300_000)
    assert result.outcome is Outcome.LIMIT and result.stopped_by == "memory"
    assert result.expanded > 0 and result.depth > 0 and result.memory > 300_000
    assert "LIMIT after" in result.summary() and "memory cap" in result.summary()
    assert result.to_json()["stoppedBy"] == "memory"


def test_bytes_per_state_is_reported() -> None:
    result = solve(fixture_level("mouse-keeps-time"))
    assert result.memory > 0 and 0 < result.bytes_per_state < 1000
