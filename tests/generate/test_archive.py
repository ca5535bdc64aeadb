"""The archive keeps one fittest level per (ideas, tier) cell and answers requests by mechanics."""

from __future__ import annotations

from miau.generate import Analysis, Archive, Elite, Score


def elite(
    index: int,
    mechanics: set[str],
    depth: float,
    tier: int,
    moves: str = "RR",
    changes: tuple[str, ...] | None = None,
) -> Elite:
    """A scored level; its ideas default to one change per mechanic (``+[other] IS WIN``)."""
    if changes is None:
        changes = tuple(sorted(f"+[other] IS {mechanic}" for mechanic in mechanics))
    analysis = Analysis(
        level={"width": 3, "height": 3, "objects": [], "automata": [], "pairs": []},
        solution=moves,
        expanded=10,
        seen=10,
        rule_changes=1,
        mechanics=frozenset(mechanics),
        needs_words=True,
        changes=changes,
    )
    return Elite(index, analysis, Score(depth, tier))


def test_a_cell_keeps_the_fitter_level_and_the_first_of_equals() -> None:
    archive = Archive()
    assert archive.offer(elite(0, {"WIN"}, 5.0, 1))
    assert not archive.offer(elite(1, {"WIN"}, 5.0, 1)), "a tie must keep the first"
    assert archive.offer(elite(2, {"WIN"}, 6.0, 1))
    assert not archive.offer(elite(3, {"WIN"}, 4.0, 1))
    assert [e.index for e in archive] == [2]


def test_different_ideas_or_tiers_fill_different_cells() -> None:
    archive = Archive()
    for index, (mechanics, tier) in enumerate(
        [({"WIN"}, 1), ({"WIN"}, 2), ({"AND", "SINK"}, 2), ({"SINK", "AND"}, 3)]
    ):
        archive.offer(elite(index, mechanics, float(tier), tier))
    assert archive.cells() == [
        (("+[other] IS AND", "+[other] IS SINK"), 2),
        (("+[other] IS AND", "+[other] IS SINK"), 3),
        (("+[other] IS WIN",), 1),
        (("+[other] IS WIN",), 2),
    ]


def test_two_ideas_with_the_same_mechanics_keep_a_cell_each() -> None:
    # Forming WIN on the flag and breaking STOP to reach it both use WIN: two ideas, two cells.
    archive = Archive()
    assert archive.offer(elite(0, {"WIN"}, 9.0, 3, changes=("+[other] IS WIN",)))
    assert archive.offer(elite(1, {"WIN", "STOP"}, 5.0, 3, changes=("-[stop] IS STOP",)))
    assert archive.offer(elite(2, {"WIN"}, 4.0, 3, changes=("-[win] IS WIN", "+[you] IS WIN")))
    assert sorted(e.index for e in archive) == [0, 1, 2]


def test_a_request_finds_the_cells_that_include_its_mechanics_in_its_tier() -> None:
    archive = Archive()
    archive.offer(elite(0, {"AND", "SINK", "WIN"}, 13.0, 3))
    archive.offer(elite(1, {"AND", "WIN"}, 14.0, 3))
    archive.offer(elite(2, {"AND", "SINK"}, 9.0, 2))
    assert [e.index for e in archive.matching({"AND", "SINK"}, 3)] == [0]
    assert [e.index for e in archive.matching({"AND", "SINK"})] == [0, 2]
    assert archive.matching({"DEFEAT"}) == []


def test_a_long_solution_costs_fitness() -> None:
    short = elite(0, {"WIN"}, 10.0, 2, "R" * 20)
    long = elite(1, {"WIN"}, 10.0, 2, "R" * 50)
    assert long.fitness < short.fitness


def test_a_word_soup_costs_fitness() -> None:
    lean = elite(0, {"WIN"}, 10.0, 2)
    soup = elite(1, {"WIN"}, 10.0, 2)
    words = [{"kind": "word", "text": "IS", "x": 0, "y": 0}] * 30
    soup.analysis.level["objects"] = words
    assert soup.fitness < lean.fitness
