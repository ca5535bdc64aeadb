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
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from miau.solver import read_levels
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


def measure(paths: list[Path], budget: int) -> list[Answer]:
    """Ask every question of every level of ``paths``, timing each answer."""
    answers: list[Answer] = []
    for path in paths:
        for spec in read_levels(path).levels:
            if spec.solution is None:
                continue
            logs = [("along", spec.solution[:played]) for played in range(len(spec.solution) + 1)]
            fatal = first_fatal_move(spec.data, spec.solution, max_expansions=budget)
            if fatal is not None:
                logs.append(("fatal", fatal))
            for kind, log in logs:
                wall, cpu = time.perf_counter(), time.process_time()
                answer = can_still_win(spec.data, log, max_expansions=budget)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                answers.append(
                    Answer(
                        spec.id,
                        kind,
                        len(log),
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
    answers = measure(paths, args.max)
    walls = [a.seconds for a in answers]
    cpus = [a.cpu for a in answers]
    print(f"{len(answers)} answers on {len({a.level for a in answers})} levels, budget {args.max}")
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
    for answer in sorted(answers, key=lambda a: -a.seconds)[: args.slowest]:
        print(
            f"  {answer.level} {answer.kind} after {answer.moves} moves: {answer.verdict.value}, "
            f"{answer.expanded} states, {answer.seconds:.3f} s wall, {answer.cpu:.3f} s cpu"
        )


if __name__ == "__main__":
    main()
