"""The generation loop: mutate, solve, score, keep the deepest per archive cell.

Candidates are numbered 0, 1, 2, ... and made in batches of a fixed size.
Before a batch, the driver picks each candidate's parent from the archive as
it stood after the previous batch and mutates it, with one
``random.Random`` seeded from the run's seed and the candidate's index; a
level already tried in this run is not tried again. Workers solve the
candidates with the real solver, analyse and score them. Results are
offered to the archive in index order once the whole batch is back. So the archive after any number of
whole batches depends only on the seed and the options: not on the number
of workers, on which worker finished first, or on the executor (local
processes or a Dask cluster). A time budget stops the run between batches;
only a count budget (``candidates``) makes a run repeatable.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, as_completed
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from miau.engine import Game, LevelError
from miau.generate.analysis import analyse
from miau.generate.archive import Archive, Elite
from miau.generate.finish import changes_a_rule
from miau.generate.mutate import LevelDict, Limits, Pools, canonical, mutate
from miau.generate.novelty import edit_distance, near_distance
from miau.generate.scoring import SEARCHES_HANDS_OFF, scorer_named
from miau.generate.seeds import Seed
from miau.solver import Outcome, solve
from miau.solver.progress import OutOfTime
from miau.solver.progress import deadline as solver_deadline

DEFAULT_BATCH: Final = 32
"""Candidates per batch: parents are picked from the archive as it stood before the batch."""
DEFAULT_MAX_EXPANSIONS: Final = 30_000
"""The solver's budget per candidate: a candidate it cannot settle within it is dropped."""
SEED_PARENT_SHARE: Final = 0.15
"""How often a candidate grows from a seed rather than from an archive elite."""


class Verdict(Enum):
    """What became of one candidate."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT = "limit"
    """The solver's budget ran out before it could tell."""
    INVALID = "invalid"
    """The engine refused the level (it should not happen; mutations keep levels valid)."""
    REPEATED = "repeated"
    """The same level was already tried in this run: not solved again."""
    NEAR_COPY = "near-copy"
    """Solved, but its shortest solution is a few edits from a seed's: not scored (it would
    never be written, ``miau.generate.finish``), which spares the costliest step."""
    WALK = "walk"
    """Solved, but its shortest solution changes no rule (contacts aside): a walk, which asks
    for no idea. Not scored, and so never a parent: the search spends its time on ideas."""


@dataclass(frozen=True)
class Task:
    """One candidate's job, as a worker process or a Dask worker receives it."""

    index: int
    level: LevelDict
    max_expansions: int
    scorer: str
    avoid: tuple[str, ...] = ()
    """The seeds' shortest solutions: a candidate whose solution is near one is not scored."""


@dataclass(frozen=True)
class Candidate:
    """One candidate's result: its verdict, the solver's effort, and the scored level if solved."""

    index: int
    verdict: Verdict
    expanded: int
    elite: Elite | None = None


@dataclass(frozen=True)
class Options:
    """Everything that decides what a generation makes (and so must be the same to repeat it)."""

    pools: Pools
    limits: Limits
    seed: int = 0
    candidates: int | None = 1000
    """The count budget; None for no count budget (then ``seconds`` must stop the run)."""
    seconds: float | None = None
    """The time budget, from the start of ``generate`` (seed scoring included) to the last
    candidate waited for: a hard cap (``_run_batch``); a run it stops is not repeatable."""
    batch: int = DEFAULT_BATCH
    max_expansions: int = DEFAULT_MAX_EXPANSIONS
    scorer: str = "solver"


@dataclass
class Status:
    """How far a generation has come, for progress displays."""

    candidates: int = 0
    solved: int = 0
    cells: int = 0
    deeper: int = 0
    """Archive elites deeper than the floor (the levels the pack would get now)."""
    best_depth: float = 0.0
    verdicts: dict[str, int] = field(default_factory=dict)
    """How many candidates ended each way (``Verdict`` values)."""
    expanded: int = 0
    """States the solver expanded over every candidate (the seeds' own solves left out)."""
    batches: int = 0
    """Whole batches offered to the archive so far (``cells`` and ``deeper`` are as of then)."""

    def count(self, candidate: Candidate) -> None:
        """Take one finished candidate into the figures."""
        self.candidates += 1
        self.expanded += candidate.expanded
        verdict = candidate.verdict.value
        self.verdicts[verdict] = self.verdicts.get(verdict, 0) + 1


@dataclass(frozen=True)
class Generation:
    """What a generation found: the archive and how it filled."""

    archive: Archive
    seeds: tuple[Elite, ...]
    """The seeds, solved and scored (indexes -1, -2, ...)."""
    floor: float
    """The depth a level must exceed to be written: the deepest seed or reference level."""
    candidates: int
    solved: int
    filling: tuple[tuple[int, int, int], ...] = field(default=())
    """After each batch: (candidates so far, cells filled, cells deeper than the floor)."""
    stopped_by: str = "candidates"
    """``candidates`` (the count budget) or ``seconds`` (the time budget)."""
    verdicts: dict[str, int] = field(default_factory=dict)
    """How many candidates ended each way (``Verdict`` values)."""
    expanded: int = 0
    """States the shortest-solution searches expanded over every candidate."""

    def deeper(self) -> list[Elite]:
        """The archive's elites deeper than the floor, deepest first."""
        return [elite for elite in self.archive.matching() if elite.score.depth > self.floor]


Report = Callable[[Status], None]


class GenerationError(ValueError):
    """A generation that cannot start: a seed that cannot be solved, or bad options."""


def evaluate(task: Task) -> Candidate:
    """Solve the task's level and, if solved, analyse and score it.

    A module-level function of picklable data, so that process pools and
    Dask workers can run it.
    """
    return judge(task.index, task.level, task.max_expansions, task.scorer, task.avoid)


def judge(
    index: int,
    level: LevelDict,
    max_expansions: int,
    scorer: str,
    avoid: Sequence[str] = (),
    *,
    walks: bool = False,
) -> Candidate:
    """Solve ``level`` and, when solved, analyse and score it as candidate ``index``.

    A solved level whose shortest solution is a near-copy of one of ``avoid``
    (``miau.generate.finish.near_distance``) is not analysed nor scored;
    unless ``walks``, neither is one whose solution changes no rule (a
    walk: ``Verdict.WALK``). Both are cheap to tell before the score,
    which walks the level's states and is most of a candidate's cost.
    """
    try:
        Game(level)
    except LevelError:
        return Candidate(index, Verdict.INVALID, 0)
    result = solve(level, max_expansions=max_expansions)
    if result.outcome is not Outcome.SOLVED:
        verdict = Verdict.LIMIT if result.outcome is Outcome.LIMIT else Verdict.UNSOLVABLE
        return Candidate(index, verdict, result.expanded)
    moves = result.moves or ""
    if any(edit_distance(moves, seen) <= near_distance(seen) for seen in avoid):
        return Candidate(index, Verdict.NEAR_COPY, result.expanded)
    hands_off_budget = None if scorer in SEARCHES_HANDS_OFF else max_expansions
    analysis = analyse(level, result, hands_off_budget)
    if not walks and not changes_a_rule(analysis.changes):
        return Candidate(index, Verdict.WALK, result.expanded)
    score = scorer_named(scorer)(analysis)
    if score.needs_words is not None:
        analysis = dataclasses.replace(analysis, needs_words=score.needs_words)
    return Candidate(index, Verdict.SOLVED, result.expanded, Elite(index, analysis, score))


def score_levels(
    levels: Sequence[Seed], max_expansions: int, scorer: str, first_index: int = -1
) -> tuple[Elite, ...]:
    """Solve and score fixed levels (seeds, references); indexes count down from ``first_index``.

    :raises GenerationError: naming a level the solver cannot win within the budget.
    """
    elites: list[Elite] = []
    for offset, seed in enumerate(levels):
        # A seed or a reference level is measured whatever it asks (the First Steps walks too).
        candidate = judge(
            first_index - offset, canonical(seed.level), max_expansions, scorer, walks=True
        )
        if candidate.elite is None:
            raise GenerationError(
                f"the seed {seed.id!r} is {candidate.verdict.value} within {max_expansions:,} "
                "states: a seed must be a level the solver can win (raise --max)"
            )
        elites.append(candidate.elite)
    return tuple(elites)


def generate(
    seeds: Sequence[Seed],
    options: Options,
    *,
    references: Sequence[Seed] = (),
    executor: Executor | None = None,
    report: Report | None = None,
) -> Generation:
    """Evolve levels from ``seeds`` until a budget runs out; return the archive.

    ``references`` are levels a written level must also be deeper than (the
    First Steps walks). With ``executor`` (local processes, or a Dask
    cluster's ``Client.get_executor()``), candidates are evaluated on it;
    without one, in this process. ``report`` hears the status after every
    candidate.

    :raises GenerationError: when a seed cannot be solved, or no budget is given.
    """
    if options.candidates is None and options.seconds is None:
        raise GenerationError("give a count budget (candidates) or a time budget (seconds)")
    # The time budget counts from here: scoring the seeds is part of the run.
    deadline = None if options.seconds is None else time.monotonic() + options.seconds
    if not seeds:
        raise GenerationError("a generation needs at least one seed level")
    seed_elites = score_levels(seeds, options.max_expansions, options.scorer)
    reference_elites = score_levels(
        references, options.max_expansions, options.scorer, -1 - len(seeds)
    )
    floor = max(elite.score.depth for elite in (*seed_elites, *reference_elites))
    archive = Archive()
    tried: set[str] = set()
    for elite in seed_elites:
        archive.offer(elite)
        tried.add(_fingerprint(elite.analysis.level))
    status = Status(cells=len(archive), best_depth=max(e.score.depth for e in seed_elites))
    filling: list[tuple[int, int, int]] = []
    stopped_by = "candidates"
    index = 0
    while True:
        if options.candidates is not None and index >= options.candidates:
            break
        if deadline is not None and time.monotonic() >= deadline:
            stopped_by = "seconds"
            break
        size = options.batch
        if options.candidates is not None:
            size = min(size, options.candidates - index)
        tasks: list[Task] = []
        repeated: list[Candidate] = []
        for number in range(index, index + size):
            task = _task(number, archive, seed_elites, options)
            fingerprint = _fingerprint(task.level)
            if fingerprint in tried:
                repeated.append(Candidate(number, Verdict.REPEATED, 0))
            else:
                tried.add(fingerprint)
                tasks.append(task)
        for candidate in repeated:
            status.count(candidate)
        results = _run_batch(tasks, executor, status, report, deadline)
        for candidate in results:
            if candidate.elite is not None:
                status.solved += 1
                archive.offer(candidate.elite)
        # A batch the deadline cut short counts the candidates it judged, not the ones it dropped.
        index += size if len(results) == len(tasks) else len(repeated) + len(results)
        status.cells = len(archive)
        status.deeper = sum(elite.score.depth > floor for elite in archive)
        best = archive.best()
        status.best_depth = best.score.depth if best is not None else 0.0
        status.batches += 1
        filling.append((index, status.cells, status.deeper))
        if report is not None:
            report(status)
        if len(results) < len(tasks):
            # The deadline fell inside the batch: what finished was offered, the rest dropped.
            stopped_by = "seconds"
            break
    return Generation(
        archive,
        seed_elites,
        floor,
        index,
        status.solved,
        tuple(filling),
        stopped_by,
        dict(sorted(status.verdicts.items())),
        status.expanded,
    )


def _task(index: int, archive: Archive, seeds: Sequence[Elite], options: Options) -> Task:
    """Candidate ``index``'s job: a parent drawn from the archive as it stands, mutated."""
    rng = random.Random(f"miau-generate:{options.seed}:{index}")
    elites = list(archive)
    if rng.random() < SEED_PARENT_SHARE or not elites:
        parent = rng.choice(seeds)
    elif rng.random() < 0.5:
        parent = rng.choice(elites)
    else:
        # A tournament of three leans the search toward deep levels while
        # every cell keeps a chance to be grown from.
        parent = max(rng.sample(elites, min(3, len(elites))), key=lambda e: (e.fitness, -e.index))
    level = mutate(parent.analysis.level, rng, options.pools, options.limits)
    avoid = tuple(seed.analysis.solution for seed in seeds)
    return Task(index, level, options.max_expansions, options.scorer, avoid)


def _fingerprint(level: LevelDict) -> str:
    """The level as canonical JSON: equal fingerprints, equal levels."""
    return json.dumps(level, sort_keys=True, separators=(",", ":"))


def _run_batch(
    tasks: Sequence[Task],
    executor: Executor | None,
    status: Status,
    report: Report | None,
    deadline: float | None = None,
) -> list[Candidate]:
    """Every task's candidate, in task order, whatever order they finish in.

    Past ``deadline`` (a ``time.monotonic`` value) no task is started and
    none is waited for: the candidates finished by then are returned (in
    task order) and the rest are cancelled, so a time budget is a hard cap
    rather than a check between batches. Without ``executor``, the task
    running at the deadline stops there too (its searches raise
    ``OutOfTime``) and is dropped.
    """
    results: dict[int, Candidate] = {}

    def finished(candidate: Candidate) -> None:
        results[candidate.index] = candidate
        status.count(candidate)
        if report is not None:
            report(status)

    if executor is None:
        # In this process the solver's own deadline stops a candidate midway, as Suggest's does.
        with solver_deadline(deadline):
            for task in tasks:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                try:
                    finished(evaluate(task))
                except OutOfTime:
                    break
    else:
        futures: list[Future[Candidate]] = [executor.submit(evaluate, task) for task in tasks]
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            for future in as_completed(futures, timeout=left):
                finished(future.result())
        except TimeoutError:
            for future in futures:
                future.cancel()
    return [results[task.index] for task in tasks if task.index in results]


def describe_cell(mechanics: Sequence[str], tier: int) -> str:
    """A cell for people: ``AND+SINK, tier 3`` (``none`` for a level with no mechanics)."""
    return f"{'+'.join(mechanics) or 'none'}, tier {tier}"
