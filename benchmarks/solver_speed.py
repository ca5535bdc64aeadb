"""Solver speed per level: expanded states per second, time, memory, bytes per state.

Usage::

    .venv/bin/python benchmarks/solver_speed.py [PATH ...] [--repeat N] [--max N]
        [--jobs N] [--any | --fallback [--any-max N]] [--max-memory BYTES]
    .venv/bin/python benchmarks/solver_speed.py --hard --repeat 1
    .venv/bin/python benchmarks/solver_speed.py --keke DIR [--core] --repeat 1 --jobs 2

Each PATH is a pack or a single engine-level file; without one, every
``packs/*.json`` is measured. ``--hard`` measures ``benchmarks/hard.json``,
levels built to need more than a million expansions. ``--keke DIR``
measures every pack in DIR (the output of ``miau import keke``, kept out of
the repository); ``--core`` keeps the levels whose words are all core words.
Every level is solved ``--repeat`` times; the table shows the median wall
and CPU time, the rate per CPU second, the states seen and the bytes the search held per state. The
closing lines give totals: solver time is the sum of the levels' times,
whatever ``--jobs`` runs at once.

``--any`` runs best-first search instead (solutions not proven shortest);
``--fallback`` runs breadth-first search and, on a level that ends in
LIMIT, best-first search with the ``--any-max`` budget (default: the same;
its time is added): ``miau solve --fallback``'s plan.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from miau.engine.level import Level
from miau.solver import LevelSpec, Outcome, SearchResult, read_levels, run_all, solve
from miau.solver.best_first import solve_any, solve_then_any
from miau.solver.reduction import uses_only_core_words

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "benchmarks" / "hard.json"


@dataclass(frozen=True)
class Row:
    """One level's measurements."""

    name: str
    automata: bool
    result: SearchResult
    seconds: float
    cpu: float
    """CPU seconds of the search process."""
    mode: str
    """``bfs``, ``any``, or ``bfs+any`` when best-first search took over after a LIMIT."""


def measure(
    spec: LevelSpec,
    repeat: int,
    max_expansions: int | None,
    mode: str,
    max_memory: int | None,
    any_expansions: int | None = None,
) -> tuple[SearchResult, float, float, str]:
    """Solve ``spec`` ``repeat`` times: the last result, the median wall and CPU time, the mode.

    CPU time (``time.process_time``) is what the search itself cost; on a
    shared machine the wall time also holds the waits for a core.
    """
    budget = spec.budget(max_expansions)
    runs: list[tuple[SearchResult, float, float, str]] = []
    for _ in range(repeat):
        cpu = time.process_time()
        if mode == "fallback":
            result = solve_then_any(
                spec.data,
                max_expansions=budget,
                any_expansions=any_expansions,
                max_memory=max_memory,
            )
        else:
            search = solve_any if mode == "any" else solve
            result = search(spec.data, max_expansions=budget, max_memory=max_memory)
        used = "any" if mode == "any" else "bfs" if result.breadth_first is None else "bfs+any"
        runs.append((result, result.seconds, time.process_time() - cpu, used))
    seconds = statistics.median(run[1] for run in runs)
    cpu_seconds = statistics.median(run[2] for run in runs)
    return runs[-1][0], seconds, cpu_seconds, runs[-1][3]


def _job(
    named: tuple[str, LevelSpec],
    repeat: int,
    max_expansions: int | None,
    mode: str,
    max_memory: int | None,
    any_expansions: int | None = None,
) -> Row:
    name, spec = named
    result, seconds, cpu, used = measure(
        spec, repeat, max_expansions, mode, max_memory, any_expansions
    )
    return Row(name, bool(spec.data.get("automata")), result, seconds, cpu, used)


def keke_specs(folder: Path, core_only: bool) -> list[tuple[str, LevelSpec]]:
    """The levels of every pack in ``folder``, in Keke's level order."""
    found: list[tuple[str, LevelSpec]] = []
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith("_LEVELS.json"):
            continue  # Keke's own file, not a converted pack
        for spec in read_levels(path).levels:
            if core_only and not uses_only_core_words(Level.from_dict(spec.data)):
                continue
            found.append((spec.id, spec))
    return sorted(found, key=lambda item: _level_number(item[0]))


def _level_number(name: str) -> tuple[int, str]:
    tail = name.rsplit("-", 1)[-1]
    return (int(tail), name) if tail.isdigit() else (0, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="packs or level files")
    parser.add_argument("--repeat", type=int, default=5, help="runs per level (median shown)")
    parser.add_argument("--max", type=int, help="expansion budget for every level")
    parser.add_argument("--any-max", type=int, help="--fallback: the best-first budget")
    parser.add_argument("--max-memory", type=int, metavar="BYTES", help="memory cap per search")
    parser.add_argument("--jobs", type=int, default=1, help="levels measured at once")
    parser.add_argument("--hard", action="store_true", help=f"measure {HARD.name}")
    parser.add_argument("--keke", type=Path, metavar="DIR", help="converted Keke packs")
    parser.add_argument("--core", action="store_true", help="Keke: core-word levels only")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--any", action="store_true", help="best-first search only")
    modes.add_argument("--fallback", action="store_true", help="best-first after a BFS LIMIT")
    args = parser.parse_args(argv)
    named: list[tuple[str, LevelSpec]] = []
    if args.keke is not None:
        if not args.keke.is_dir():
            print(f"no Keke packs at {args.keke} (convert them with miau import keke)")
            return 1
        named = keke_specs(args.keke, args.core)
    paths = list(args.paths) + ([HARD] if args.hard else [])
    if not paths and not named:
        paths = sorted((ROOT / "packs").glob("*.json"))
    for path in paths:
        named += [(f"{path.stem}/{spec.id}", spec) for spec in read_levels(path).levels]
    if not named:
        print("no levels to measure", file=sys.stderr)
        return 1
    mode = "any" if args.any else "fallback" if args.fallback else "bfs"
    job = functools.partial(
        _job,
        repeat=args.repeat,
        max_expansions=args.max,
        mode=mode,
        max_memory=args.max_memory,
        any_expansions=args.any_max,
    )
    started = time.perf_counter()
    rows = run_all(job, named, jobs=args.jobs, done=_heard)
    wall = time.perf_counter() - started
    print(table(rows))
    clockwork = [row for row in rows if row.automata]
    if clockwork:
        print("\nlevels with automata: " + totals(clockwork))
    print("all levels: " + totals(rows) + f"; wall time {wall:.1f} s with --jobs {args.jobs}")
    return 0


def _heard(_index: int, row: object) -> None:
    """One line on stderr as each level finishes, so a long run shows how far it got."""
    if isinstance(row, Row):
        result = row.result
        print(
            f"{row.name}: {result.outcome.value} {row.mode} {result.length} "
            f"{result.expanded} {row.seconds:.2f} s {row.cpu:.2f} CPU s",
            file=sys.stderr,
            flush=True,
        )


def totals(rows: list[Row]) -> str:
    """Count, solved, states, solver time, rate and memory over ``rows``."""
    expanded = sum(row.result.expanded for row in rows)
    seconds = sum(row.seconds for row in rows)
    cpu = sum(row.cpu for row in rows)
    solved = sum(row.result.outcome is Outcome.SOLVED for row in rows)
    by_any = sum(row.result.outcome is Outcome.SOLVED and row.mode != "bfs" for row in rows)
    limits = sum(row.result.outcome is Outcome.LIMIT for row in rows)
    seen = sum(row.result.seen for row in rows)
    memory = sum(row.result.memory for row in rows)
    peak = max(row.result.memory for row in rows)
    rate = expanded / cpu if cpu > 0 else 0.0
    per_state = memory / seen if seen else 0.0
    return (
        f"{len(rows)} levels, {solved} solved ({by_any} by best-first), {limits} LIMIT; "
        f"{expanded:,} expanded in {seconds:.1f} s of solver time ({cpu:.1f} s CPU), "
        f"{rate:,.0f} expanded per CPU second; "
        f"{per_state:.0f} bytes per state seen, largest search {peak / 1e6:,.1f} MB"
    )


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table."""
    header = (
        "level",
        "clock",
        "outcome",
        "mode",
        "moves",
        "expanded",
        "median s",
        "CPU s",
        "states/CPU s",
        "B/state",
        "MB",
    )
    lines = [header]
    for row in rows:
        result = row.result
        lines.append(
            (
                row.name,
                "yes" if row.automata else "",
                result.outcome.value,
                row.mode,
                "" if result.length is None else str(result.length),
                f"{result.expanded:,}",
                f"{row.seconds:.3f}",
                f"{row.cpu:.3f}",
                f"{row.result.expanded / row.cpu if row.cpu > 0 else 0:,.0f}",
                f"{result.bytes_per_state:.0f}",
                f"{result.memory / 1e6:,.1f}",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for line in lines:
        cells = [
            cell.ljust(width) if i < 4 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
