"""The generator's archive: the best level found for each (ideas, depth tier) cell.

MAP-Elites keeps one elite per cell of a grid of level descriptions instead
of one best level overall, so the search keeps levels that ask for
different things (a SINK puzzle does not crowd out a TRANSFORM one) and a
run returns different ideas rather than one idea many times. Here a cell
is the shortest solution's rule changes and contacts in the idea
signature's form (``Analysis.changes``: nouns as their roles, so one trick
with other nouns is one cell) and the depth tier from the scorer. A
request such as "AND and SINK, tier 3" is answered from the mechanics
each elite uses (see ``miau.generate.analysis``).

Within a cell the elite is the level with the highest *fitness*: the
scorer's depth, plus a little for a level proven unwinnable without pushing
a word, minus a little for every move of the solution beyond
``LONG_SOLUTION`` (a long walk to the flag is chores, not depth) and for
every idle entity (a word or thing the solution never touches: clutter
inflates the solver's effort without asking anything of the player) and for
every word tile beyond ``WORDS_WITHOUT_PENALTY`` (a word soup). Ties keep
the level that came first, so the archive depends only on the order in
which candidates are offered, never on timing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from miau.generate.analysis import Analysis
from miau.generate.scoring import Score

Cell = tuple[tuple[str, ...], int]
"""An archive cell: the sorted rule changes and contacts (``Analysis.changes``) and the depth tier."""

LONG_SOLUTION: Final = 30
"""Moves beyond this many each cost ``LONG_SOLUTION_PENALTY`` of fitness."""
LONG_SOLUTION_PENALTY: Final = 0.1
WORDS_NEEDED_FITNESS: Final = 1.0
"""Fitness for a level proven unwinnable without pushing a word."""
IDLE_PENALTY: Final = 0.4
"""Fitness lost per idle entity (``Analysis.idle``)."""
WORDS_WITHOUT_PENALTY: Final = 14
"""Word tiles beyond this many each cost ``WORD_SOUP_PENALTY``: a soup of words whose every
move sets off a cascade of rule changes and transformations looks deep to a solver and is
noise to a player. Borrow a Word has 11 word tiles, Crossword 7."""
WORD_SOUP_PENALTY: Final = 0.15


@dataclass(frozen=True)
class Elite:
    """A solved, scored level the archive may keep; ``index`` is the candidate that made it.

    Seeds have negative indexes (-1 for the first), so they sort before every candidate.
    """

    index: int
    analysis: Analysis
    score: Score

    @property
    def cell(self) -> Cell:
        """The archive cell this level belongs to."""
        return self.analysis.changes, self.score.tier

    @property
    def fitness(self) -> float:
        """How good the level is within its cell (see the module docstring)."""
        analysis = self.analysis
        bonus = WORDS_NEEDED_FITNESS if analysis.needs_words else 0.0
        penalty = LONG_SOLUTION_PENALTY * max(0, analysis.length - LONG_SOLUTION)
        penalty += IDLE_PENALTY * analysis.idle
        words: int = sum(entity["kind"] == "word" for entity in analysis.level["objects"])
        penalty += WORD_SOUP_PENALTY * max(0, words - WORDS_WITHOUT_PENALTY)
        fitness: float = round(self.score.depth + bonus - penalty, 6)
        return fitness


class Archive:
    """One elite per cell; offered levels replace an elite only when strictly fitter."""

    def __init__(self) -> None:
        self._cells: dict[Cell, Elite] = {}

    def offer(self, elite: Elite) -> bool:
        """Keep ``elite`` if its cell is empty or it is fitter than the cell's elite."""
        cell = elite.cell
        held = self._cells.get(cell)
        if held is not None and elite.fitness <= held.fitness:
            return False
        self._cells[cell] = elite
        return True

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Elite]:
        """The elites in cell order (ideas, then tier)."""
        return iter([self._cells[cell] for cell in self.cells()])

    def cells(self) -> list[Cell]:
        """The filled cells, sorted."""
        return sorted(self._cells)

    def best(self) -> Elite | None:
        """The deepest elite (the earliest among equals), or None when the archive is empty."""
        return min(self, key=_deepest_first, default=None)

    def matching(self, need: Iterable[str] = (), tier: int | None = None) -> list[Elite]:
        """The elites whose mechanics include every word of ``need``, in ``tier`` if given.

        Deepest first.
        """
        wanted = frozenset(need)
        found = [
            elite
            for elite in self
            if wanted <= elite.analysis.mechanics and (tier is None or elite.score.tier == tier)
        ]
        return sorted(found, key=_deepest_first)


def _deepest_first(elite: Elite) -> tuple[float, float, int]:
    return (-elite.score.depth, -elite.fitness, elite.index)
