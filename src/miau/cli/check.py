"""``miau check``: everything an author needs to know before publishing a pack.

For each level: loader errors and warnings, the rules at the start, whether
YOU can move, the stored solution replayed, the solver's answer, and the
HANDS-OFF flag (winnable without the player ever pushing a word). The exit status is
1 when a pack does not load, a level cannot be run, a stored solution does
not win, or a level is UNSOLVABLE; warnings (a LIMIT among them) are not
failures.

``--depth`` prints each level's depth profile instead, one row per level
(``miau.cli.depth``; the figures are explained in ``docs/depth.md``).
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from miau.cli.depth import run_depth
from miau.cli.progress import level_bar, search_bar
from miau.cli.solve import add_budget_options
from miau.packs import PackError
from miau.solver import (
    LevelFile,
    LevelReport,
    Outcome,
    PackReport,
    check_level,
    read_levels,
    run_all,
)
from miau.solver.ideas import SignedLevel, level_ideas, repeated_ideas, repetition_warning
from miau.worlds import shipped_packs_dir


def add_parser(subparsers: Any) -> None:
    """Register ``miau check``."""
    parser = subparsers.add_parser(
        "check",
        help="check packs before publishing: loader issues, solutions, solver, HANDS-OFF",
        description=(
            "Check every level of each pack: loader errors and warnings, the rules at the "
            "start, whether YOU can move, the stored solution, the solver's result, and "
            "HANDS-OFF (the level can be won without the player pushing a word)."
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="PACK",
        help="pack files (default: the shipped packs)",
    )
    add_budget_options(parser)
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    parser.add_argument(
        "--depth",
        action="store_true",
        help=(
            "print each level's depth profile instead (shortest solution, rule changes, "
            "states to prove it, shortest solutions, dead ends, baselines, dead squares, "
            "depth and tier; see docs/depth.md)"
        ),
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check every pack and print the reports; exit 1 when anything failed."""
    files = args.files or sorted(shipped_packs_dir().glob("*.json"))
    loaded: list[LevelFile | PackReport] = [_load(path) for path in files]
    if args.depth:
        return run_depth(loaded, args)
    specs = [spec for item in loaded if isinstance(item, LevelFile) for spec in item.levels]
    if args.jobs > 1 and len(specs) > 1:
        job = functools.partial(check_level, max_expansions=args.max)
        with level_bar(len(specs)) as advance:
            levels = run_all(job, specs, jobs=args.jobs, done=lambda _i, _r: advance())
    else:
        levels = []
        for spec in specs:
            with search_bar(spec.id, spec.budget(args.max)) as progress:
                levels.append(check_level(spec, max_expansions=args.max, progress=progress))
    reports = _assemble(loaded, levels)
    repeats = [repetition_warning(*pair) for pair in repeated_ideas(signed_levels(loaded, levels))]
    if args.json:
        document = {
            "failed": any(r.failed for r in reports),
            "packs": [r.to_json() for r in reports],
            "repeatedIdeas": repeats,
        }
        print(json.dumps(document, indent=2))
    else:
        for report in reports:
            print("\n".join(describe_pack(report)))
        print("\n".join(f"idea audit: {warning}" for warning in repeats))
        print(summary(reports))
    return 1 if any(report.failed for report in reports) else 0


def signed_levels(
    loaded: Sequence[LevelFile | PackReport], levels: Sequence[LevelReport]
) -> list[SignedLevel]:
    """Each checked level's idea signature, for the repetition audit.

    The signature the pack stores (``ideas``) when it has one; otherwise
    the one ``miau.solver.ideas`` finds along the solver's shortest
    solution; a level without either (unsolved) is left out.
    """
    signed: list[SignedLevel] = []
    reports = iter(levels)
    for item in loaded:
        if isinstance(item, PackReport):
            continue
        pack = item.pack_id or Path(item.path).stem
        for spec in item.levels:
            report = next(reports)
            signature = spec.ideas
            moves = report.solver.moves if report.solver is not None else None
            if signature is None and moves is not None and not report.errors:
                signature = level_ideas(spec.data, moves).signature
            if signature is not None:
                signed.append(SignedLevel(pack, spec.id, tuple(signature), spec.repeats))
    return signed


def _load(path: Path) -> LevelFile | PackReport:
    """The file's levels, or a failed report saying why there are none."""
    try:
        return read_levels(path)
    except PackError as error:
        return PackReport(str(path), None, errors=tuple(str(i) for i in error.issues))
    except (OSError, ValueError) as error:
        return PackReport(str(path), None, errors=(str(error),))


def _assemble(
    loaded: Sequence[LevelFile | PackReport], levels: Sequence[LevelReport]
) -> list[PackReport]:
    reports: list[PackReport] = []
    position = 0
    for item in loaded:
        if isinstance(item, PackReport):
            reports.append(item)
            continue
        count = len(item.levels)
        mine = tuple(levels[position : position + count])
        position += count
        reports.append(PackReport(item.path, item.pack_id, warnings=item.warnings, levels=mine))
    return reports


def describe_pack(report: PackReport) -> list[str]:
    """The report for one pack as lines of text."""
    name = f" ({report.pack_id})" if report.pack_id else ""
    if report.errors:
        lines = [f"{report.path}{name}: FAIL, the pack does not load"]
        return lines + [f"  {issue}" for issue in report.errors]
    lines = [f"{report.path}{name}: {_count(len(report.levels), 'level')}"]
    lines += [f"  warning: {warning}" for warning in report.warnings]
    for level in report.levels:
        lines += describe_level(level)
    return lines


def describe_level(level: LevelReport) -> list[str]:
    """The report for one level as indented lines of text, its verdict first."""
    verdict = "FAIL" if level.failed else "ok"
    if level.warnings:
        verdict += ", with warnings"
    if level.is_hands_off:
        verdict += ", HANDS-OFF"
    lines = [f"  {level.id} ({level.title}): {verdict}"]
    lines += [f"    error: {error}" for error in level.errors]
    if level.errors:
        return lines + [f"    warning: {warning}" for warning in level.warnings]
    lines.append(f"    rules at start: {'; '.join(level.rules) or '(none)'}")
    # "none": the warning below says that no YOU can move, and why, once.
    moves = " ".join(level.start_moves) if level.start_moves else "none"
    lines.append(f"    moves from start: {moves}")
    lines.append(f"    solution: {_describe_solution(level)}")
    if level.solver is not None:
        lines.append(f"    solver: {level.solver.summary()}")
    if level.is_hands_off and level.hands_off is not None:
        lines.append(f"    HANDS-OFF: won without pushing a word: {level.hands_off.moves}")
    elif level.hands_off is not None and level.hands_off.outcome is Outcome.LIMIT:
        lines.append("    hands-off: not known, the search without pushing words gave up")
    lines += [f"    warning: {warning}" for warning in level.warnings]
    return lines


def _describe_solution(level: LevelReport) -> str:
    check = level.solution
    if check is None:
        return "none stored"
    if check.error is not None:
        return f"FAIL: {check.error}"
    if not check.won:
        return f"FAIL: {check.moves} does not win ({_moves(check.turns)} accepted)"
    shortest = level.solver.length if level.solver is not None else None
    if shortest is None:
        return f"wins in {_moves(check.turns)}"
    if check.turns > shortest:
        return f"wins in {_moves(check.turns)} (the shortest takes {shortest})"
    return f"wins in {_moves(check.turns)} (shortest)"


def summary(reports: Sequence[PackReport]) -> str:
    """One closing line: packs and levels checked, how many failed, warned or are HANDS-OFF."""
    levels = [level for report in reports for level in report.levels]
    failed = sum(level.failed for level in levels) + sum(bool(r.errors) for r in reports)
    warned = sum(bool(level.warnings) for level in levels)
    hands_off = sum(level.is_hands_off for level in levels)
    return (
        f"checked {_count(len(reports), 'pack')}, {_count(len(levels), 'level')}: "
        f"{failed} failed, {warned} with warnings, {hands_off} HANDS-OFF"
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _moves(number: int) -> str:
    return _count(number, "move")
