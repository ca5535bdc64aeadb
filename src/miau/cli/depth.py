"""``miau check --depth``: the depth profile of every level, one row per level.

The profile itself is ``miau.solver.depth`` (standard library only). This
layer adds what needs the Gymnasium extra: whether ``miau bench``'s random
and greedy baselines win, played by ``miau.gym.bench.baseline_wins`` when
the extra is installed (the column reads ``-`` without it). The depth
figure never depends on the baselines.
"""

from __future__ import annotations

import argparse
import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from miau.cli.progress import level_bar
from miau.engine import LevelError
from miau.engine.level import Level
from miau.solver import LevelFile, LevelSpec, run_all
from miau.solver.check import PackReport
from miau.solver.depth import TIER_NAMES, DepthProfile, depth_profile


def play_baselines(level: Level) -> Mapping[str, bool]:
    """The baselines' results, via the Gymnasium extra (imported only when called)."""
    from miau.gym.bench import baseline_wins

    return baseline_wins(level)


def baselines_available() -> bool:
    """Whether the Gymnasium extra that plays the baselines is installed."""
    try:
        import miau.gym.bench  # noqa: F401
    except ImportError:
        return False
    return True


def depth_job(
    spec: LevelSpec, max_expansions: int | None, with_baselines: bool
) -> DepthProfile | str:
    """One level's profile, or the error that kept it from running."""
    try:
        return depth_profile(
            spec.data,
            max_expansions=spec.budget(max_expansions),
            baselines=play_baselines if with_baselines else None,
        )
    except LevelError as error:
        return f"ERROR {error}"


def run_depth(loaded: Sequence[LevelFile | PackReport], args: argparse.Namespace) -> int:
    """Profile every level of the loaded packs and print them; exit 1 when one cannot be run."""
    specs = [spec for item in loaded if isinstance(item, LevelFile) for spec in item.levels]
    job = functools.partial(
        depth_job, max_expansions=args.max, with_baselines=baselines_available()
    )
    with level_bar(len(specs)) as advance:
        profiles = run_all(job, specs, jobs=args.jobs, done=lambda _i, _r: advance())
    failed = any(isinstance(item, PackReport) for item in loaded) or any(
        isinstance(profile, str) for profile in profiles
    )
    if args.json:
        print(json.dumps(_document(loaded, profiles), indent=2))
        return 1 if failed else 0
    position = 0
    for item in loaded:
        if isinstance(item, PackReport):
            print(f"{item.path}: FAIL, the pack does not load")
            print("\n".join(f"  {issue}" for issue in item.errors))
            continue
        mine = profiles[position : position + len(item.levels)]
        position += len(item.levels)
        print(f"{item.path} ({item.pack_id or 'level'})")
        print("\n".join(depth_table(item.levels, mine)))
    return 1 if failed else 0


HEADER = (
    "level",
    "moves",
    "changes",
    "hands-off",
    "proved",
    "shortest",
    "dead ends",
    "random",
    "greedy",
    "dead sq",
    "depth",
    "tier",
    "needed",
    "ideas",
    "depth 2",
    "tier 2",
)


def depth_table(specs: Sequence[LevelSpec], profiles: Sequence[DepthProfile | str]) -> list[str]:
    """One row per level (its key figures and tier), under a header, in aligned columns."""
    rows = [list(HEADER)]
    errors: list[str] = []
    for spec, profile in zip(specs, profiles, strict=True):
        if isinstance(profile, str):
            errors.append(f"  {spec.id}: {profile}")
            continue
        rows.append(row(spec.id, profile))
    widths = [max(len(r[column]) for r in rows) for column in range(len(HEADER))]
    lines = [
        "  " + "  ".join(cell.ljust(width) for cell, width in zip(r, widths, strict=True))
        for r in rows
    ]
    return [line.rstrip() for line in lines] + errors


def row(level_id: str, profile: DepthProfile) -> list[str]:
    """A level's cells in :data:`HEADER` order."""
    bound = profile.shortest_bound
    count = profile.shortest_solutions
    shortest = "?" if count is None else f">={bound}" if count >= bound else str(count)
    dead = profile.dead_ends
    if dead.share is None:
        dead_text = "?"
    elif dead.exact:
        dead_text = f"{dead.share:.0%} of {dead.sample}"
    else:
        dead_text = f"~{dead.share:.0%} (n={dead.sample - dead.undecided})"
    played = profile.baselines or {}

    def won(name: str) -> str:
        return "-" if name not in played else "won" if played[name] else "no"

    hands_off = "?" if profile.hands_off is None else "yes" if profile.hands_off else "no"
    return [
        level_id,
        "?" if profile.length is None else str(profile.length),
        str(profile.rule_changes),
        hands_off,
        str(profile.expanded),
        shortest,
        dead_text,
        won("random"),
        won("greedy"),
        str(len(profile.dead_squares)),
        f"{profile.depth:.2f}",
        f"{profile.tier} {profile.tier_name}",
        "?" if profile.ideas is None else str(len(profile.ideas.needed)),
        "?" if profile.ideas is None else profile.ideas.signature_text(),
        "?" if profile.idea_depth is None else f"{profile.idea_depth:.2f}",
        "?"
        if profile.idea_tier is None
        else f"{profile.idea_tier} {TIER_NAMES[profile.idea_tier]}",
    ]


def _document(
    loaded: Sequence[LevelFile | PackReport], profiles: Sequence[DepthProfile | str]
) -> dict[str, Any]:
    packs: list[dict[str, Any]] = []
    position = 0
    for item in loaded:
        if isinstance(item, PackReport):
            packs.append({"path": item.path, "errors": list(item.errors)})
            continue
        levels: list[dict[str, Any]] = []
        for spec in item.levels:
            profile = profiles[position]
            position += 1
            record: dict[str, Any] = {"id": spec.id, "title": spec.title}
            if isinstance(profile, str):
                record["error"] = profile.removeprefix("ERROR ")
            else:
                record.update(profile.to_json())
                record["storedIdeas"] = None if spec.ideas is None else list(spec.ideas)
                record["storedIdeasCurrent"] = (
                    None
                    if spec.ideas is None or profile.ideas is None
                    else tuple(spec.ideas) == profile.ideas.signature
                )
            levels.append(record)
        packs.append({"path": item.path, "pack": item.pack_id, "levels": levels})
    return {"packs": packs}
