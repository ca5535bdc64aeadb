"""Engine speed from the first step: short episodes, as players and tools use it.

Run: ``.venv/bin/python benchmarks/short_episodes.py [--repeats N]``.

Two workloads, both building and serialising every event (``to_json``):

- **shipped solutions**: every stored solution of every shipped pack is
  replayed from a fresh ``Game``. The rate is shown without construction
  (only the steps are timed) and with it (the ``Game(...)`` call timed too).
- **reset-heavy play**: random intents (fixed seed) on each shipped level
  in turn, with a ``reset()`` every 20 to 40 steps, as an agent or an editor
  would play.

Both use the core packs (those without ``vocabulary-1``), so the figures
compare across engine versions; more lines replay the vocabulary-1 packs'
solutions the same two ways (parse caches warm, and emptied), each beside
the core line of the same cache state, with their ratios.

Figures are the median over ``--repeats`` runs (the machines are shared and
noisy). Games of the same level share the rule parser's caches, so after the
first run the shipped levels' word arrangements are known; the line "parse
caches emptied" shows the cost when every arrangement is new. ``benchmarks/engine_speed.py`` prints these lines beside its table.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.engine import Game, parse_moves
from miau.engine.rules import RuleParser
from miau.packs import load_pack

ROOT = Path(__file__).resolve().parent.parent
INTENTS = ("up", "down", "left", "right", "wait")


VOCABULARY_1 = "vocabulary-1"


def _manifest_features(path: Path) -> list[str]:
    features: list[str] = json.loads(path.read_text("utf-8"))["manifest"].get("features", [])
    return features


def shipped_levels(*, vocabulary_1: bool = False) -> list[tuple[dict[str, Any], list[str]]]:
    """Every shipped level with a stored solution: its engine dict and its intents.

    By default the core packs only (the workload the figures have always
    measured); with ``vocabulary_1``, the packs with the Tier-1 words instead.
    """
    found: list[tuple[dict[str, Any], list[str]]] = []
    for path in sorted((ROOT / "packs").glob("*.json")):
        if (VOCABULARY_1 in _manifest_features(path)) != vocabulary_1:
            continue
        for level in load_pack(path).levels:
            if level.solution:
                found.append((dict(level.data), parse_moves(level.solution)))
    return found


def tier1_levels() -> list[tuple[dict[str, Any], list[str]]]:
    """The vocabulary-1 packs' levels, or none on an engine that predates them."""
    try:
        return shipped_levels(vocabulary_1=True)
    except ValueError:  # an older loader refuses the feature
        return []


def replay_solutions(
    levels: list[tuple[dict[str, Any], list[str]]], *, cold: bool = False
) -> tuple[int, float, float]:
    """Replay every solution from a fresh game; return steps, step seconds, total seconds.

    With ``cold``, the rule parser's shared caches are emptied first, so every
    arrangement of words is parsed as if the levels were new to the process.
    """
    # An engine without shared caches (an older commit, in benchmarks/compare.py)
    # starts every game cold anyway.
    clear = getattr(RuleParser, "clear_shared_caches", None)
    if cold and clear is not None:
        clear()
    steps = 0
    stepping = 0.0
    total_start = time.perf_counter()
    for data, intents in levels:
        game = Game(data)
        start = time.perf_counter()
        for intent in intents:
            game.step(intent).to_json()
        stepping += time.perf_counter() - start
        steps += len(intents)
    return steps, stepping, time.perf_counter() - total_start


def reset_heavy(levels: list[tuple[dict[str, Any], list[str]]], steps: int) -> tuple[int, float]:
    """Random play with a reset every 20 to 40 steps; return accepted steps and seconds."""
    rng = random.Random(7)
    plan = [(rng.choice(INTENTS), rng.randint(20, 40)) for _ in range(steps)]
    games = [Game(data) for data, _ in levels]
    accepted = 0
    start = time.perf_counter()
    index = 0
    for number, game in enumerate(games):
        budget = steps // len(games) + (1 if number < steps % len(games) else 0)
        since_reset = 0
        for _ in range(budget):
            intent, reset_after = plan[index]
            index += 1
            event = game.step(intent)
            event.to_json()
            accepted += event.accepted
            since_reset += 1
            if since_reset >= reset_after or event.won:
                game.reset().to_json()
                since_reset = 0
    return accepted, time.perf_counter() - start


def measure(repeats: int, *, ratio: bool = False) -> list[tuple[str, float]]:
    """The median rates of every workload, as ``(label, steps per second)``.

    Each repeat replays the core solutions with the parse caches emptied,
    then again with them warm, plays the reset-heavy run, and then does the
    same two replays for the vocabulary-1 solutions, so each vocabulary-1
    line sees the same load and the same cache state as the core line it is
    set against. With ``ratio``, two more rows give the median over the
    repeats of vocabulary-1's rate over the core's, warm and emptied.
    """
    levels = shipped_levels()
    tier1 = tier1_levels()
    without, with_construction, resets, cold = [], [], [], []
    tier1_warm, tier1_cold, warm_ratios, cold_ratios = [], [], [], []
    for _ in range(repeats):
        steps, stepping, _ = replay_solutions(levels, cold=True)
        cold.append(steps / stepping)
        steps, stepping, total = replay_solutions(levels)
        without.append(steps / stepping)
        with_construction.append(steps / total)
        accepted, seconds = reset_heavy(levels, 20_000)
        resets.append(accepted / seconds)
        if tier1:
            steps, stepping, _ = replay_solutions(tier1, cold=True)
            tier1_cold.append(steps / stepping)
            steps, stepping, _ = replay_solutions(tier1)
            tier1_warm.append(steps / stepping)
            warm_ratios.append(tier1_warm[-1] / without[-1])
            cold_ratios.append(tier1_cold[-1] / cold[-1])
    count = sum(len(intents) for _, intents in levels)
    rows = [
        (f"shipped solutions, fresh games ({len(levels)} levels, {count} steps)", 0.0),
        ("  steps only", statistics.median(without)),
        ("  with Game() construction", statistics.median(with_construction)),
        ("  steps only, parse caches emptied before each run", statistics.median(cold)),
        ("reset-heavy random play (reset every 20-40 steps)", statistics.median(resets)),
    ]
    if tier1:
        tier1_count = sum(len(intents) for _, intents in tier1)
        label = f"vocabulary-1 shipped solutions ({len(tier1)} levels, {tier1_count} steps)"
        rows.append((label, statistics.median(tier1_warm)))
        if ratio:
            rows.append(
                (
                    "  over the core's steps only, same repeats (x100)",
                    100 * statistics.median(warm_ratios),
                )
            )
        rows.append(
            ("  vocabulary-1, parse caches emptied before each run", statistics.median(tier1_cold))
        )
        if ratio:
            rows.append(
                (
                    "  over the core's, caches emptied, same repeats (x100)",
                    100 * statistics.median(cold_ratios),
                )
            )
    return rows


def print_rates(rows: list[tuple[str, float]]) -> None:
    """Print the rows as a small table (a zero rate is a heading)."""
    for label, rate in rows:
        print(f"{label:56} {rate:>10,.0f}" if rate else label)


def main() -> None:
    """Print the short-episode rates."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.json:
        rows = measure(args.repeats)
        print(json.dumps({label.strip(): rate for label, rate in rows if rate}))
        return
    print(f"{'short episodes, events serialised':56} {'steps/s':>10}")
    print_rates(measure(args.repeats, ratio=True))


if __name__ == "__main__":
    main()
