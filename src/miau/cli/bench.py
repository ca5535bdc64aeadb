"""``miau bench``: score an agent on levels, with Keke-style step and time limits."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Register ``miau bench``."""
    parser = subparsers.add_parser(
        "bench",
        help="score an agent on levels (needs the gym extra)",
        description=(
            "Play each level with AGENT under a step limit and a time limit, and print "
            "a table: solved, steps, the solver's shortest solution, time. AGENT is "
            "random, greedy, solver, or module:callable (see docs/gym.md). Each LEVELS "
            "argument is a pack file or shipped pack id (all its levels), PACK:LEVEL, or "
            "family:NAME[:COUNT] (COUNT levels of a task family, seed 0)."
        ),
    )
    parser.add_argument("agent", metavar="AGENT", help="random, greedy, solver or module:callable")
    parser.add_argument(
        "levels", metavar="LEVELS", nargs="+", help="PACK, PACK:LEVEL or family:NAME[:COUNT]"
    )
    parser.add_argument("--max-steps", type=int, default=None, help="moves per level (default 200)")
    parser.add_argument(
        "--time-limit", type=float, default=None, help="seconds per level (default 10)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed handed to the agent (default 0)")
    parser.add_argument(
        "--shortest-budget",
        type=int,
        default=None,
        help="solver expansions for the shortest-solution column (default 100,000)",
    )
    parser.add_argument(
        "--no-shortest", action="store_true", help="leave out the solver's shortest solution"
    )
    parser.add_argument("--json", action="store_true", help="print the scores as JSON lines")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score the agent; exit 0 when it ran (whatever it scored), 2 on bad input."""
    try:
        from miau.gym import bench
        from miau.gym.agents import load_agent
        from miau.gym.families import level_spec_entries
    except ImportError as error:
        print(
            f"miau bench: {error}; install the gym extra: pip install 'miau-puzzle[gym]'",
            file=sys.stderr,
        )
        return 2
    max_steps = bench.DEFAULT_BENCH_STEPS if args.max_steps is None else args.max_steps
    time_limit = bench.DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit
    budget = bench.DEFAULT_SHORTEST_BUDGET if args.shortest_budget is None else args.shortest_budget
    if max_steps < 1 or time_limit <= 0 or budget < 1:
        print("miau bench: limits and budgets must be positive", file=sys.stderr)
        return 2
    try:
        agent = load_agent(args.agent)
        entries = [entry for spec in args.levels for entry in level_spec_entries(spec)]
    except (OSError, ValueError, LookupError, TypeError) as error:
        print(f"miau bench: {error}", file=sys.stderr)
        return 2
    try:
        scores = bench.score_agent(
            agent,
            entries,
            max_steps=max_steps,
            time_limit=time_limit,
            seed=args.seed,
            shortest_budget=None if args.no_shortest else budget,
        )
    except ValueError as error:
        print(f"miau bench: {error}", file=sys.stderr)
        return 2
    if args.json:
        for score in scores:
            print(json.dumps(score.to_json(), sort_keys=True))
    else:
        print(bench.format_table(args.agent, scores))
    return 0
