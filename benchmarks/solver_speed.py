"""Solver speed per level: expanded states per second and time to solve.

Usage::

    .venv/bin/python benchmarks/solver_speed.py [PATH ...] [--repeat N] [--max N]

Each PATH is a pack or a single engine-level file; without one, every
``packs/*.json`` is measured. Every level is solved ``--repeat`` times and
the table shows the median time and the median rate. The closing lines give
the rate over all levels with automata (Clockwork-style), the kind the
solver's speed target is stated for.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from miau.solver import LevelSpec, SearchResult, read_levels, solve

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Row:
    """One level's measurements."""

    name: str
    automata: bool
    result: SearchResult
    seconds: float
    rate: float


def measure(
    spec: LevelSpec, repeat: int, max_expansions: int | None
) -> tuple[SearchResult, float, float]:
    """Solve ``spec`` ``repeat`` times; the last result, the median time and the median rate."""
    results = [solve(spec.data, max_expansions=spec.budget(max_expansions)) for _ in range(repeat)]
    seconds = statistics.median(r.seconds for r in results)
    rate = statistics.median(r.rate for r in results)
    return results[-1], seconds, rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="packs or level files")
    parser.add_argument("--repeat", type=int, default=5, help="runs per level (median shown)")
    parser.add_argument("--max", type=int, help="expansion budget for every level")
    args = parser.parse_args(argv)
    paths = args.paths or sorted((ROOT / "packs").glob("*.json"))
    if not paths:
        print("no packs to measure", file=sys.stderr)
        return 1
    rows: list[Row] = []
    for path in paths:
        for spec in read_levels(path).levels:
            result, seconds, rate = measure(spec, args.repeat, args.max)
            automata = bool(spec.data.get("automata"))
            rows.append(Row(f"{path.stem}/{spec.id}", automata, result, seconds, rate))
    print(table(rows))
    clockwork = [row for row in rows if row.automata]
    if clockwork:
        expanded = sum(row.result.expanded for row in clockwork)
        seconds = sum(row.seconds for row in clockwork)
        print(
            f"\nlevels with automata: {len(clockwork)}, {expanded:,} states in {seconds:.2f} s, "
            f"{expanded / seconds:,.0f} expanded states/s"
        )
    expanded = sum(row.result.expanded for row in rows)
    seconds = sum(row.seconds for row in rows)
    print(f"all levels: {len(rows)}, {expanded:,} states in {seconds:.2f} s, "
          f"{expanded / seconds:,.0f} expanded states/s")  # fmt: skip
    return 0


def table(rows: list[Row]) -> str:
    """The rows as an aligned text table."""
    header = ("level", "clock", "outcome", "moves", "expanded", "median s", "states/s")
    lines = [header]
    for row in rows:
        result = row.result
        lines.append(
            (
                row.name,
                "yes" if row.automata else "",
                result.outcome.value,
                "" if result.length is None else str(result.length),
                f"{result.expanded:,}",
                f"{row.seconds:.3f}",
                f"{row.rate:,.0f}",
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for line in lines:
        cells = [
            cell.ljust(width) if i < 3 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
