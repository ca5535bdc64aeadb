"""The shortest known length the API gives each level (``miau.play.shortest``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from miau.packs import PackLevel, load_pack
from miau.play.shortest import shortest_known
from miau.play.worlds import level_json
from tests.support.local import PACKS


def level_of(pack: str, level: str) -> PackLevel:
    return load_pack(PACKS / f"{pack}.json").level(level)


@pytest.mark.parametrize(
    ("pack", "level"), [("tutorial", "first-steps"), ("clockwork", "mouse-keeps-time")]
)
def test_a_level_with_a_stored_solution_is_as_short_as_that_solution(pack: str, level: str) -> None:
    found = level_of(pack, level)
    assert found.solution is not None
    assert shortest_known(found) == len(found.solution)
    assert level_json(pack, found, None)["shortest"] == len(found.solution)


def test_without_a_stored_solution_the_solver_finds_the_shortest_when_it_is_cheap() -> None:
    walls = level_of("tutorial", "walls")
    assert walls.solution is not None
    assert shortest_known(replace(walls, solution=None)) == len(walls.solution)


def test_without_a_stored_solution_a_level_too_large_for_the_budget_has_none() -> None:
    # Breadth-first search needs more than SHORTEST_EXPANSIONS states here.
    crossword = replace(level_of("tutorial", "crossword"), solution=None)
    assert shortest_known(crossword) is None
    assert level_json("share-0", crossword, None)["shortest"] is None


def test_a_stored_solution_counts_only_its_accepted_moves() -> None:
    first = level_of("tutorial", "first-steps")
    # The letters after the win are refused: they are no moves.
    assert shortest_known(replace(first, solution="RRRRRRUUU")) == 6
