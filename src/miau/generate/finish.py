"""The last step before a generated level is written: new ideas only, nothing left that is not needed.

The evolution (``miau.generate.evolve``) keeps the deepest level per cell of
mechanics and tier, and its depth still rewards things that only add states.
Before a level is written, this step asks what a level designer would:

- **Is its idea new?** Its idea signature (``miau.solver.ideas``) must be
  neither a seed's nor a shipped level's, and its shortest solution must
  not be within :func:`near_distance` edits of a seed's: a near-copy, or
  the seed's own trick with other nouns, is dropped.
- **Is everything on it needed?** Every thing and word is tried out, one
  at a time, in a fixed order; a removal that leaves the level winnable
  with the same signature and a shortest solution no shorter is kept. What
  is written is minimal: no single thing or word can go without losing an
  idea or a move of the solution (``is_minimal``).
- **One level per idea**: of several levels with one signature, the first
  (deepest) is kept.

A deadline (``time.monotonic``) bounds the whole step: a level not
finished in time is not written, so ``--seconds`` stays a hard cap.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Final

from miau.generate.analysis import analyse
from miau.generate.archive import Elite
from miau.generate.mutate import canonical
from miau.generate.novelty import edit_distance, near_distance
from miau.packs import load_pack
from miau.solver import Outcome, solve
from miau.solver.ideas import CONTACT_PREFIX, OutOfTime, level_ideas
from miau.solver.progress import deadline as solver_deadline
from miau.worlds import shipped_pack_path, shipped_packs_dir

FINISH_NEED_EXPANSIONS: Final = 20_000
"""States each "is this change needed?" search may take while finishing (fewer than ``check``'s)."""


@dataclass(frozen=True)
class Finished:
    """A level ready to be written: the minimised elite and its idea signature."""

    elite: Elite
    signature: tuple[str, ...]
    removed: int
    """Things and words minimisation took away."""


@dataclass
class FinishReport:
    """What the finishing step dropped, and why, for the run's summary."""

    kept: int = 0
    same_idea_as_seed: int = 0
    same_idea_as_shipped: int = 0
    near_copy: int = 0
    repeated_idea: int = 0
    out_of_time: int = 0
    removed: int = 0
    walk: int = 0
    """Dropped because they need no rule change, contacts aside (only when walks are not wanted)."""
    refused: int = 0
    """Finished, then refused by the caller's own test (``accept``)."""
    seed_signatures: tuple[tuple[str, ...], ...] = field(default=())
    """The seeds' idea signatures, in seed order, once worked out (what a kept level must differ
    from)."""

    def summary(self) -> str:
        """One line for people."""
        return (
            f"finishing: {self.kept} kept ({self.removed} things and words removed); dropped "
            f"{self.same_idea_as_seed} with the seed's idea, {self.same_idea_as_shipped} with a "
            f"shipped level's, {self.near_copy} near-copies of the seed's solution, "
            f"{self.repeated_idea} repeating a kept idea, {self.out_of_time} out of time"
        )


def changes_a_rule(signature: tuple[str, ...]) -> bool:
    """Whether a signature holds a needed rule change (not only contacts: a walk into water)."""
    return any(not idea.startswith(CONTACT_PREFIX) for idea in signature)


def shipped_signatures() -> frozenset[tuple[str, ...]]:
    """The idea signatures the shipped levels store (``ideas``): ideas the game already asks for."""
    return frozenset(stored_signatures().values())


@cache
def stored_signatures() -> dict[str, tuple[str, ...]]:
    """Each shipped level that stores its signature, by the level's fingerprint (canonical JSON)."""
    found: dict[str, tuple[str, ...]] = {}
    for path in sorted(shipped_packs_dir().glob("*.json")):
        for level in load_pack(shipped_pack_path(path.stem)).levels:
            if level.ideas is not None:
                found[_fingerprint(canonical(dict(level.data)))] = tuple(level.ideas)
    return found


def _fingerprint(level: Mapping[str, Any]) -> str:
    """A level as canonical JSON: equal fingerprints, equal levels."""
    return json.dumps(level, sort_keys=True, separators=(",", ":"))


def finish(
    elites: Sequence[Elite],
    seeds: Sequence[Elite],
    *,
    max_expansions: int,
    deadline: float | None,
    known: Iterable[tuple[str, ...]] = (),
    walks: bool = True,
    accept: Callable[[Finished], bool] | None = None,
    limit: int | None = None,
    need_expansions: int = FINISH_NEED_EXPANSIONS,
    report: FinishReport | None = None,
) -> tuple[list[Finished], FinishReport]:
    """Keep, in order, each elite whose idea is new, minimised; see the module docstring.

    ``seeds`` are the seed levels' elites (their ideas and solutions are
    the ones not to copy), ``known`` further signatures that are not new
    (the shipped levels'). ``max_expansions`` bounds each solve. Without
    ``walks``, a level that needs no rule change (an empty signature) is
    dropped, and so is one whose only ideas are contacts (:func:`changes_a_rule`).
    ``accept`` sees each minimised level before it is kept (the editor's
    Suggest scores it again, and shows it at once); a level it refuses
    leaves its idea free. The step ends once ``limit`` are kept.
    ``need_expansions`` bounds each "is this change needed?" search (a
    smaller one is quicker; a change it cannot decide counts as needed).
    ``report`` is filled in as the step goes (a new one when None), so a
    caller whose own deadline stops the step midway still has the figures.
    """
    if report is None:
        report = FinishReport()
    # The seeds' signatures cost held searches: worked out only once a level needs them,
    # and read from the pack when a seed is a shipped level that stores its own.
    seed_ideas: set[tuple[str, ...]] | None = None
    known_ideas = set(known)
    kept: list[Finished] = []
    taken: set[tuple[str, ...]] = set()
    # Every search below (solves, held searches) stops with OutOfTime past the deadline.
    with solver_deadline(deadline):
        for elite in elites:
            if deadline is not None and time.monotonic() >= deadline:
                report.out_of_time += 1
                continue
            solution = elite.analysis.solution
            if any(
                edit_distance(solution, seed.analysis.solution)
                <= near_distance(seed.analysis.solution)
                for seed in seeds
            ):
                report.near_copy += 1
                continue
            try:
                signature = _signature(elite.analysis.level, solution, need_expansions)
                if seed_ideas is None:
                    stored = stored_signatures()
                    report.seed_signatures = tuple(
                        stored.get(_fingerprint(seed.analysis.level))
                        or _signature(seed.analysis.level, seed.analysis.solution, need_expansions)
                        for seed in seeds
                    )
                    seed_ideas = set(report.seed_signatures)
            except OutOfTime:
                report.out_of_time += 1
                continue
            if signature in seed_ideas:
                report.same_idea_as_seed += 1
                continue
            if not walks and not changes_a_rule(signature):
                report.walk += 1
                continue
            if signature in known_ideas:
                report.same_idea_as_shipped += 1
                continue
            if signature in taken:
                report.repeated_idea += 1
                continue
            minimal = minimise(
                elite,
                signature,
                max_expansions=max_expansions,
                deadline=deadline,
                need_expansions=need_expansions,
            )
            if minimal is None:
                report.out_of_time += 1
                continue
            if accept is not None and not accept(minimal):
                report.refused += 1
                continue
            taken.add(signature)
            kept.append(minimal)
            report.removed += minimal.removed
            if limit is not None and len(kept) >= limit:
                break
    report.kept = len(kept)
    return kept, report


def minimise(
    elite: Elite,
    signature: tuple[str, ...],
    *,
    max_expansions: int,
    deadline: float | None = None,
    need_expansions: int = FINISH_NEED_EXPANSIONS,
) -> Finished | None:
    """The elite with every thing and word removed that it can do without (None: out of time).

    Entities are tried last to first, each once, and tried again in a
    further pass while a pass removed something: a removal is kept when the
    level is still won, with the same signature and a shortest solution no
    shorter. The elite's analysis is made again for the level that is left.
    """
    level = elite.analysis.level
    length = elite.analysis.length
    removed = 0
    changed = True
    with solver_deadline(deadline):
        while changed:
            changed = False
            for index in reversed(range(len(level["objects"]))):
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                trial = without(level, index)
                try:
                    kept = keeps_its_ideas(
                        trial, signature, length, max_expansions, need_expansions
                    )
                except OutOfTime:
                    return None
                if kept:
                    level = trial
                    removed += 1
                    changed = True
    if not removed:
        return Finished(elite, signature, 0)
    result = solve(level, max_expansions=max_expansions)
    analysis = analyse(level, result, None)
    analysis = replace(analysis, needs_words=elite.analysis.needs_words)
    return Finished(replace(elite, analysis=analysis), signature, removed)


def is_minimal(
    level: dict[str, Any],
    signature: tuple[str, ...],
    max_expansions: int,
    need_expansions: int = FINISH_NEED_EXPANSIONS,
) -> bool:
    """Whether no single thing or word of ``level`` can go while it keeps its ideas and length."""
    result = solve(level, max_expansions=max_expansions)
    if result.moves is None:
        return False
    length = len(result.moves)
    return not any(
        keeps_its_ideas(without(level, index), signature, length, max_expansions, need_expansions)
        for index in range(len(level["objects"]))
    )


def without(level: dict[str, Any], index: int) -> dict[str, Any]:
    """The level dict with its ``index``-th object (thing or word) taken away."""
    objects = [entity for position, entity in enumerate(level["objects"]) if position != index]
    return {**level, "objects": objects}


def keeps_its_ideas(
    level: dict[str, Any],
    signature: tuple[str, ...],
    length: int,
    max_expansions: int,
    need_expansions: int = FINISH_NEED_EXPANSIONS,
) -> bool:
    """Whether ``level`` is still won, with ``signature`` and no shorter shortest solution.

    :raises OutOfTime: past the solver's deadline (``miau.solver.progress.deadline``).
    """
    result = solve(level, max_expansions=max_expansions)
    if result.outcome is not Outcome.SOLVED or result.moves is None:
        return False
    if len(result.moves) < length:
        return False
    return _signature(level, result.moves, need_expansions) == signature


def _signature(
    level: dict[str, Any], solution: str, need_expansions: int = FINISH_NEED_EXPANSIONS
) -> tuple[str, ...]:
    """The idea signature along ``solution``, with the finishing step's smaller budget."""
    return level_ideas(level, solution, max_expansions=need_expansions).signature
