"""The Miau solver and the author's checks.

``solve(level)`` finds a shortest winning move string by breadth-first
search, using the engine's own turn as its successor function, so it agrees
with ``Game`` by construction. ``check_level`` runs everything an author
needs before publishing. Standard library only.
"""

from miau.solver.batch import run_all
from miau.solver.check import (
    LevelReport,
    PackReport,
    SolutionCheck,
    check_level,
    replay_solution,
    word_moves,
)
from miau.solver.keys import KeyCodec
from miau.solver.levels import LevelFile, LevelSpec, read_levels
from miau.solver.outcome import Ending, Outcome, SearchResult
from miau.solver.search import DEFAULT_MAX_EXPANSIONS, solve
from miau.solver.successors import MOVES, Expander

__all__ = [
    "DEFAULT_MAX_EXPANSIONS",
    "MOVES",
    "Ending",
    "Expander",
    "KeyCodec",
    "LevelFile",
    "LevelReport",
    "LevelSpec",
    "Outcome",
    "PackReport",
    "SearchResult",
    "SolutionCheck",
    "check_level",
    "read_levels",
    "replay_solution",
    "run_all",
    "solve",
    "word_moves",
]
