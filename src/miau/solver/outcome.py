"""What a search ends with: an outcome, whether the game or the budget ended it, and figures.

Two kinds of end are kept apart, as in Gymnasium: a search *terminates* when
the level itself settles the question (a win was found, or every reachable
state was tried), and is *truncated* when an outside budget stopped it first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from miau.engine.pickling import init_arguments


class Ending(Enum):
    """Whether the level settled the search or the budget cut it short."""

    TERMINATED = "terminated"
    TRUNCATED = "truncated"


class Outcome(Enum):
    """How a search ended."""

    SOLVED = "solved"
    """A winning move string was found (shortest unless the result says otherwise)."""
    UNSOLVABLE = "unsolvable"
    """Every reachable state was expanded and none wins."""
    LIMIT = "limit"
    """The expansion budget ran out first; the level may or may not be solvable."""

    @property
    def ending(self) -> Ending:
        """``TRUNCATED`` for ``LIMIT``; the other outcomes are answers."""
        return Ending.TRUNCATED if self is Outcome.LIMIT else Ending.TERMINATED


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The result of one search, with the figures that describe its cost."""

    outcome: Outcome
    moves: str | None
    """The shortest winning move string (letters ``U D L R W``) when solved."""
    expanded: int
    """States whose every move was simulated."""
    seen: int
    """Distinct states reached, the start included."""
    seconds: float
    limit: int
    """The expansion budget the search ran under."""
    depth: int = 0
    """Moves from the start to the deepest states expanded (how far a LIMIT got)."""
    memory: int = 0
    """Bytes the visited states and the frontier held at the end (keys and tables)."""
    stopped_by: str = "expansions"
    """For a LIMIT, the cap that ended the search: ``expansions`` or ``memory``."""
    shortest: bool = True
    """Whether a solution found is proven shortest (False for ``solve_any``)."""
    breadth_first: int | None = None
    """For ``solve_then_any``: the expansions breadth-first search spent before its LIMIT handed
    the level to best-first search (None: no hand-over; ``expanded`` counts both searches)."""

    @property
    def length(self) -> int | None:
        """How many moves the solution takes, or None when there is none."""
        return None if self.moves is None else len(self.moves)

    @property
    def rate(self) -> float:
        """Expanded states per second (0 when the search took no measurable time)."""
        return self.expanded / self.seconds if self.seconds > 0 else 0.0

    @property
    def bytes_per_state(self) -> float:
        """Memory per distinct state seen (0 before any)."""
        return self.memory / self.seen if self.seen else 0.0

    def summary(self) -> str:
        """One line for people, e.g. ``solved in 11 moves (DRRRRRRRRRR), 1,234 states, 0.05 s``."""
        states = "state" if self.expanded == 1 else "states"
        cost = f"{self.expanded:,} {states}, {self.seconds:.2f} s"
        if self.outcome is Outcome.SOLVED:
            plural = "" if self.length == 1 else "s"
            kind = (
                "" if self.shortest else f" ({self._best_first()}: a solution, not proven shortest)"
            )
            return f"solved in {self.length} move{plural}{kind} ({self.moves}), {cost}"
        if self.outcome is Outcome.UNSOLVABLE:
            return f"UNSOLVABLE: every reachable state tried, {cost}"
        cap = "memory cap" if self.stopped_by == "memory" else "expansion cap"
        reached = f"depth {self.depth}, {self.seen:,} states seen, {_megabytes(self.memory)}"
        return (
            f"LIMIT after {self.expanded:,} expanded states ({cap}; {reached}), "
            f"{self.seconds:.2f} s"
        )

    def _best_first(self) -> str:
        if self.breadth_first is None:
            return "best-first"
        return f"best-first after breadth-first search's LIMIT at {self.breadth_first:,} states"

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready record."""
        return {
            "outcome": self.outcome.value,
            "ending": self.outcome.ending.value,
            "moves": self.moves,
            "length": self.length,
            "expanded": self.expanded,
            "seen": self.seen,
            "seconds": round(self.seconds, 4),
            "limit": self.limit,
            "depth": self.depth,
            "memory": self.memory,
            "stoppedBy": self.stopped_by if self.outcome is Outcome.LIMIT else None,
            "shortest": self.shortest if self.outcome is Outcome.SOLVED else None,
            "breadthFirst": self.breadth_first,
        }

    def __reduce__(self) -> tuple[type[SearchResult], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def _megabytes(count: int) -> str:
    return f"{count / 1_000_000:,.1f} MB"
