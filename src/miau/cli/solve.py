"""``miau solve``: find a shortest solution for every level of a pack (``--any``: a solution).

``--from-moves MOVES`` answers "can I still win?" for a game in progress
instead (``miau.solver.winnable``): it never prints a move of a solution.

``--fallback`` is the plan for big corpora such as Keke's: breadth-first
search within ``--max``, then best-first search within ``--any-max`` on the
levels it leaves at LIMIT.

One line per level, e.g. ``mouse-keeps-time: solved in 11 moves
(DRRRRRRRRRR), 118 states, 0.01 s``. The exit status is 1 when a level is
UNSOLVABLE or cannot be run, 2 when the file cannot be read; a LIMIT is
not a failure.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from miau.cli.progress import level_bar, search_bar
from miau.engine import LevelError
from miau.engine.vocabulary import CARDINALS, WAIT
from miau.packs import PackError
from miau.solver import LevelFile, LevelSpec, Outcome, SearchResult, read_levels, run_all
from miau.solver.best_first import solve_any, solve_then_any
from miau.solver.search import Progress as ProgressCallback
from miau.solver.search import solve
from miau.solver.winnable import (
    DEFAULT_WINNABLE_EXPANSIONS,
    MoveLogError,
    Verdict,
    WinnableAnswer,
    can_still_win,
)


def add_parser(subparsers: Any) -> None:
    """Register ``miau solve``."""
    parser = subparsers.add_parser(
        "solve",
        help="find a shortest winning move string for each level",
        description=(
            f"Breadth-first search over the moves {' '.join(d.letter for d in CARDINALS)} "
            f"(and {WAIT.letter} where waiting can matter) "
            "for a shortest winning move string. LIMIT means the search gave up after the "
            "expansion budget; UNSOLVABLE means every reachable state was tried."
        ),
    )
    parser.add_argument("file", type=Path, help="a pack (.json with levels) or a single level")
    parser.add_argument("--level", help="solve only the level with this id")
    add_budget_options(parser)
    parser.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help=(
            "bytes the visited states may hold before giving up with LIMIT, "
            "e.g. 500M or 2G (default: no cap)"
        ),
    )
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument(
        "--any",
        action="store_true",
        help=(
            "best-first search for a solution, not a shortest one: for levels too big for "
            "breadth-first search; its solutions are marked as not proven shortest"
        ),
    )
    modes.add_argument(
        "--fallback",
        action="store_true",
        help=(
            "breadth-first search, then best-first search on each level it leaves at LIMIT "
            "(each line says which search solved the level)"
        ),
    )
    parser.add_argument(
        "--any-max",
        type=_positive,
        metavar="N",
        help="with --fallback: the best-first search's expansion budget (default: as --max)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--from-moves",
        metavar="MOVES",
        help=(
            'instead of solving, answer "can I still win?" for the game played as MOVES '
            "(log letters U D L R W, Z undo, X restart): winnable, not winnable (and how "
            "many undos back it is winnable again), or unknown within --max; never shows "
            "a solution. Needs --level when the pack holds more than one level"
        ),
    )
    parser.set_defaults(run=run)


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    """The ``--max`` and ``--jobs`` options that ``solve`` and ``check`` share."""
    parser.add_argument(
        "--max",
        type=_positive,
        metavar="N",
        help="expanded states before giving up (default: the level's solverMax, else 300,000)",
    )
    parser.add_argument(
        "--jobs", type=_positive, default=1, metavar="N", help="levels solved in parallel"
    )


def _positive(text: str) -> int:
    value = int(text.replace(",", "").replace("_", ""))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


_UNITS = {"": 1, "K": 1_000, "M": 1_000_000, "G": 1_000_000_000}


def _memory_size(text: str) -> int:
    """A byte count such as ``500M``, ``2G``, ``64000K`` or ``1000000``."""
    cleaned = text.strip().upper().removesuffix("B").replace(",", "").replace("_", "")
    unit = cleaned[-1:] if cleaned[-1:] in _UNITS else ""
    number = cleaned.removesuffix(unit) if unit else cleaned
    try:
        value = float(number) * _UNITS[unit]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text} (try 500M or 2G)") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 byte, not {text}")
    return int(value)


def solve_job(
    spec: LevelSpec,
    max_expansions: int | None,
    progress: ProgressCallback | None = None,
    *,
    max_memory: int | None = None,
    best_first: bool = False,
    fallback: bool = False,
    any_expansions: int | None = None,
) -> SearchResult | str:
    """Solve one level; a level the engine cannot run gives its error message instead.

    ``best_first`` runs ``solve_any`` (a solution, not proven shortest);
    ``fallback`` runs ``solve_then_any`` with ``any_expansions`` for its
    best-first part.
    """
    budget = spec.budget(max_expansions)
    try:
        if fallback:
            return solve_then_any(
                spec.data,
                max_expansions=budget,
                any_expansions=any_expansions,
                max_memory=max_memory,
                progress=progress,
            )
        search = solve_any if best_first else solve
        return search(spec.data, max_expansions=budget, max_memory=max_memory, progress=progress)
    except LevelError as error:
        return f"ERROR {error}"


def run(args: argparse.Namespace) -> int:
    """Solve the requested levels and print one line (or one JSON record) per level."""
    try:
        loaded = read_levels(args.file)
        specs = _select(loaded, args.level)
    except PackError as error:
        print(f"miau solve: {args.file} does not load:\n{error}", file=sys.stderr)
        return 2
    except (OSError, ValueError, LookupError) as error:
        print(f"miau solve: {error}", file=sys.stderr)
        return 2
    if args.from_moves is not None:
        return _answer_from_moves(specs, args)
    if args.jobs > 1 and len(specs) > 1:
        job = functools.partial(
            solve_job,
            max_expansions=args.max,
            max_memory=args.max_memory,
            best_first=args.any,
            fallback=args.fallback,
            any_expansions=args.any_max,
        )
        with level_bar(len(specs)) as advance:
            results = run_all(job, specs, jobs=args.jobs, done=lambda _i, _r: advance())
        if not args.json:
            for spec, result in zip(specs, results, strict=True):
                print(_line(spec, result), flush=True)
    else:
        results = []
        for spec in specs:
            with search_bar(spec.id, spec.budget(args.max)) as progress:
                result = solve_job(
                    spec,
                    args.max,
                    progress,
                    max_memory=args.max_memory,
                    best_first=args.any,
                    fallback=args.fallback,
                    any_expansions=args.any_max,
                )
            results.append(result)
            if not args.json:
                print(_line(spec, result), flush=True)
    if args.json:
        print(json.dumps(_json(loaded, specs, results), indent=2))
    failed = any(isinstance(r, str) or r.outcome is Outcome.UNSOLVABLE for r in results)
    return 1 if failed else 0


def _select(loaded: LevelFile, level_id: str | None) -> list[LevelSpec]:
    if level_id is None:
        return list(loaded.levels)
    for spec in loaded.levels:
        if spec.id == level_id:
            return [spec]
    known = ", ".join(spec.id for spec in loaded.levels)
    raise LookupError(f"{loaded.path} has no level {level_id!r}; its levels are: {known}")


def _line(spec: LevelSpec, result: SearchResult | str) -> str:
    text = result if isinstance(result, str) else result.summary()
    return f"{spec.id}: {text}"


def _json(
    loaded: LevelFile, specs: Sequence[LevelSpec], results: Sequence[SearchResult | str]
) -> dict[str, Any]:
    levels: list[dict[str, Any]] = []
    for spec, result in zip(specs, results, strict=True):
        record: dict[str, Any] = {"id": spec.id, "title": spec.title}
        if isinstance(result, str):
            record["error"] = result.removeprefix("ERROR ")
        else:
            record.update(result.to_json())
        levels.append(record)
    return {"path": loaded.path, "pack": loaded.pack_id, "levels": levels}


def _answer_from_moves(specs: Sequence[LevelSpec], args: argparse.Namespace) -> int:
    """Print whether the game played as ``--from-moves`` can still be won (no moves shown)."""
    if len(specs) != 1:
        print(
            "miau solve: --from-moves answers for one level; name it with --level",
            file=sys.stderr,
        )
        return 2
    (spec,) = specs
    budget = args.max if args.max is not None else DEFAULT_WINNABLE_EXPANSIONS
    try:
        answer = can_still_win(spec.data, args.from_moves, max_expansions=budget)
    except MoveLogError as error:
        print(f"miau solve: {error}", file=sys.stderr)
        return 2
    except LevelError as error:
        print(f"miau solve: {spec.id}: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"id": spec.id, **answer.to_json()}, indent=2))
    else:
        print(f"{spec.id}: {describe_answer(answer, budget)}")
    return 0


def describe_answer(answer: WinnableAnswer, budget: int) -> str:
    """The answer in words, without any move of a solution."""
    cost = f"({answer.expanded} states, {answer.seconds:.2f} s)"
    if answer.verdict is Verdict.WINNABLE:
        return f"already won {cost}" if answer.won else f"still winnable {cost}"
    if answer.verdict is Verdict.UNKNOWN:
        return f"could not tell within {budget} states {cost}"
    if answer.undos_back is None:
        return f"not winnable any more; no winnable state found in the undo history {cost}"
    undos = "1 undo" if answer.undos_back == 1 else f"{answer.undos_back} undos"
    return f"not winnable any more; winnable again {undos} back {cost}"
