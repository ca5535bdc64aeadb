"""Answer times of can_still_win over the shipped levels: p50, p95 and max.

Usage::

    .venv/bin/python benchmarks/winnable.py [PATH ...] [--max N] [--slowest N]

Each PATH is a pack; without one, every ``packs/*.json`` is measured. The
questions asked of each level are the states along its stored solution
(after 0, 1, ... moves, the won end included) and, where one exists, a
deliberately fatal move: the first move off the solution after which the
level can no longer be won (``first_fatal_move``; finding it is not
timed). Every answer is timed from scratch, the successor function's set-up
included, as a host that keeps nothing between questions would pay. Wall
time and this process's CPU time are both shown: on a shared machine the
wall time also counts other processes' turns.

Each question is asked twice, in one run: as the hosts ask it, with the
level's stored solution as the witness (``can_still_win(..., witness=)``),
and without one, as for a level that has no stored solution (a shared
link or a draft never solved): the second is the search's own speed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from miau.solver import LevelSpec, read_levels
from miau.solver.winnable import (
    DEFAULT_WINNABLE_EXPANSIONS,
    Verdict,
    can_still_win,
    first_fatal_move,
)

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Answer:
    """One timed question."""

    level: str
    kind: str
    """``along`` (a state on the stored solution) or ``fatal``."""
    moves: int
    verdict: Verdict
    undos_back: int | None
    seconds: float
    cpu: float
    expanded: int


@dataclass(frozen=True)
class Question:
    """One game to ask about: a level and a move log of it."""

    pack: str
    """The pack's file name without ``.json``: a shipped pack's id."""
    spec: LevelSpec
    kind: str
    log: str


def questions(paths: list[Path], budget: int) -> list[Question]:
    """The questions of every solved level of ``paths``: along its solution, and a fatal move."""
    asked: list[Question] = []
    for path in paths:
        for spec in read_levels(path).levels:
            if spec.solution is None:
                continue
            for played in range(len(spec.solution) + 1):
                asked.append(Question(path.stem, spec, "along", spec.solution[:played]))
            fatal = first_fatal_move(spec.data, spec.solution, max_expansions=budget)
            if fatal is not None:
                asked.append(Question(path.stem, spec, "fatal", fatal))
    return asked


def measure(asked: list[Question], budget: int, *, witnessed: bool) -> list[Answer]:
    """Ask every question, timing each answer.

    ``witnessed``: give each answer the level's stored solution as its witness.
    """
    answers: list[Answer] = []
    for question in asked:
        spec = question.spec
        wall, cpu = time.perf_counter(), time.process_time()
        answer = can_still_win(
            spec.data,
            question.log,
            max_expansions=budget,
            witness=spec.solution if witnessed else None,
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        answers.append(
            Answer(
                spec.id,
                question.kind,
                len(question.log),
                answer.verdict,
                answer.undos_back,
                wall,
                cpu,
                answer.expanded,
            )
        )
    return answers


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    """Measure and print the distribution, the verdicts and the slowest answers."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="packs (default: packs/*.json)")
    parser.add_argument(
        "--max", type=int, default=DEFAULT_WINNABLE_EXPANSIONS, help="expansions per answer"
    )
    parser.add_argument("--slowest", type=int, default=5, help="slowest answers to list")
    args = parser.parse_args()
    paths = args.paths or sorted((ROOT / "packs").glob("*.json"))
    asked = questions(paths, args.max)
    for witnessed in (True, False):
        print(
            "with the stored solution as witness (as the hosts ask):"
            if witnessed
            else "without a witness (a level with no stored solution):"
        )
        report(measure(asked, args.max, witnessed=witnessed), args.max, args.slowest)


def report(answers: list[Answer], budget: int, slowest: int) -> None:
    """Print the distribution, the verdicts and the slowest answers of one measurement."""
    walls = [a.seconds for a in answers]
    cpus = [a.cpu for a in answers]
    print(f"{len(answers)} answers on {len({a.level for a in answers})} levels, budget {budget}")
    for name, values in (("wall", walls), ("cpu", cpus)):
        print(
            f"{name:>4} s: p50 {percentile(values, 0.5):.4f}  p95 {percentile(values, 0.95):.4f}"
            f"  max {max(values):.4f}  mean {statistics.fmean(values):.4f}"
        )
    for kind in ("along", "fatal"):
        mine = [a for a in answers if a.kind == kind]
        verdicts = {v.value: sum(a.verdict is v for a in mine) for v in Verdict}
        print(f"{kind}: {len(mine)} answers, {verdicts}")
    fatal = [a for a in answers if a.kind == "fatal"]
    if fatal:
        undos = sorted({a.undos_back for a in fatal}, key=lambda u: -1 if u is None else u)
        print(f"fatal moves: undos back {undos}")
    print("slowest:")
    for answer in sorted(answers, key=lambda a: -a.seconds)[:slowest]:
        print(
            f"  {answer.level} {answer.kind} after {answer.moves} moves: {answer.verdict.value}, "
            f"{answer.expanded} states, {answer.seconds:.3f} s wall, {answer.cpu:.3f} s cpu"
        )


if __name__ == "__main__":
    main()
