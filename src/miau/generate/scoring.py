"""How deep a solved candidate is: one small interface, and the scorers behind it.

A scorer takes a candidate's :class:`~miau.generate.analysis.Analysis` and
returns a :class:`Score`: a ``depth`` (bigger is deeper) and an integer
``tier``. The generator names its scorer (``"solver"`` or ``"depth"``), so
the choice travels to worker processes and Dask workers as a plain string.

``solver`` is the generator's own figure, from what the solve already paid
for; ``depth`` is the solver's depth profile (``miau.solver.depth``), the
default wherever it exists.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from miau.generate.analysis import Analysis


@dataclass(frozen=True, order=True)
class Score:
    """How deep a level is: ``depth`` orders levels, ``tier`` buckets them for the archive."""

    depth: float
    tier: int
    needs_words: bool | None = field(default=None, compare=False)
    """What the scorer found out about whether the level needs a word pushed (None: nothing)."""


Scorer = Callable[[Analysis], Score]
"""A scoring function: a solved candidate's analysis in, its score out."""

RULE_CHANGE_WEIGHT: Final = 1.5
"""Depth per rule formed or broken along the shortest solution."""
RULE_CHANGES_COUNTED: Final = 6
"""Rule changes beyond this many add nothing (a long shuffle of one word is not deeper)."""
WORDS_NEEDED_BONUS: Final = 2.0
"""Depth for a level proven unwinnable without pushing a word."""
SOLVER_TIERS: Final = (4.0, 8.0, 12.0, 16.0)
"""``solver_score``'s tier boundaries: depth below 4 is tier 0, 4 to 8 tier 1, ... 16 up tier 4."""


def solver_score(analysis: Analysis) -> Score:
    """The generator's own depth: proof effort per free cell, rule changes, words needed.

    ``log2(expanded / free cells)`` measures how much of the state space the
    solver had to try beyond walking YOU round the room: a walk costs about
    one state per free cell (a figure near or below 0), a puzzle whose words
    and rocks must be arranged costs many. Dividing by the free cells keeps
    a bigger empty room from looking deeper. Each rule formed or broken
    along the solution adds ``RULE_CHANGE_WEIGHT`` (up to
    ``RULE_CHANGES_COUNTED`` of them), and a level that cannot be won
    without pushing a word adds ``WORDS_NEEDED_BONUS``.

    On First Steps this puts the walks (Walls, Rocks, Water, Skulls) at
    depth below 1.2 (tier 0), Borrow a Word near 10.9 (tier 2), Crossword
    and Through the Wall near 12.7 (tier 3); ``tests/generate`` pins the
    order.
    """
    effort = max(0.0, math.log2(max(1, analysis.expanded) / analysis.free_cells))
    changes = min(analysis.rule_changes, RULE_CHANGES_COUNTED) * RULE_CHANGE_WEIGHT
    words = WORDS_NEEDED_BONUS if analysis.needs_words else 0.0
    depth = round(effort + changes + words, 3)
    return Score(depth, sum(depth >= bound for bound in SOLVER_TIERS))


PROFILE_MAX_EXPANSIONS: Final = 30_000
"""The profile's own searches (shortest and hands-off) while generating; a candidate is only
profiled once solved within the generator's budget, 30,000 states by default."""
PROFILE_SPACE_BUDGET: Final = 10_000
PROFILE_SAMPLE_SIZE: Final = 6
PROFILE_SAMPLE_EXPANSIONS: Final = 2_000
"""The depth profile's budgets for the dead-end share while generating (the defaults are
60,000, 24 and 20,000): about a twentieth of the cost, so that thousands of candidates can
be profiled; ``docs/generate.md`` says what it changes."""


def profile_score(analysis: Analysis) -> Score:
    """The solver's depth profile (``miau.solver.depth.depth_profile``) as a score.

    The dead-end share is measured within the ``PROFILE_*`` budgets. A
    level that can be won without pushing a word is not profiled: the
    profile caps such a level's figure at ``HANDS_OFF_CEILING`` and
    quarters it, so it is tier 0 whatever its dead ends; its depth here is
    the profile's formula without the dead-end share, exact once the rest
    reaches the ceiling and otherwise at most a quarter below.

    :raises RuntimeError: when this build has no depth profile.
    """
    try:
        from miau.solver.depth import depth_figure, depth_profile, tier_of
    except ImportError as error:  # pragma: no cover - a build without the depth profile
        raise RuntimeError("this build of Miau has no depth profile (miau.solver.depth)") from error
    if analysis.needs_words is False:
        depth = depth_figure(
            length=analysis.length,
            rule_changes=analysis.rule_changes,
            hands_off=True,
            expanded=analysis.expanded,
            dead_share=None,
        )
        return Score(round(depth, 3), tier_of(depth), False)
    profile = depth_profile(
        analysis.level,
        max_expansions=PROFILE_MAX_EXPANSIONS,
        hands_off_expansions=PROFILE_MAX_EXPANSIONS,
        space_budget=PROFILE_SPACE_BUDGET,
        sample_size=PROFILE_SAMPLE_SIZE,
        sample_expansions=PROFILE_SAMPLE_EXPANSIONS,
        ideas=False,
    )
    needs_words = None if profile.hands_off is None else not profile.hands_off
    return Score(round(float(profile.depth), 3), int(profile.tier), needs_words)


SCORERS: Final[dict[str, Scorer]] = {"solver": solver_score, "depth": profile_score}
"""Every scorer by the name ``--scorer`` takes."""

SEARCHES_HANDS_OFF: Final = frozenset({"depth"})
"""Scorers that search themselves whether a level can be won without pushing a word (the
analysis then leaves that search to them, and takes their answer: ``Score.needs_words``)."""


def default_scorer_name() -> str:
    """``depth`` where the solver's depth profile exists, else ``solver``."""
    try:
        import miau.solver.depth  # noqa: F401
    except ImportError:  # pragma: no cover - a build without the depth profile
        return "solver"
    return "depth"


def scorer_named(name: str) -> Scorer:
    """The scorer called ``name``.

    :raises ValueError: naming the scorers there are.
    """
    try:
        return SCORERS[name]
    except KeyError:
        known = ", ".join(sorted(SCORERS))
        raise ValueError(f"no scorer called {name!r}; the scorers are: {known}") from None
