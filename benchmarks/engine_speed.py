"""Engine speed: accepted steps per second under random play, events included.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--steps N] [--repeats N]``.
Each repeat plays N random intents (U D L R W, a fixed seed) on each level,
resetting when the level is won or nothing is YOU. Figures are the median
over the repeats; time includes rejected attempts, so it is conservative.
Below the table come the short-episode lines of ``short_episodes.py``
(shipped solutions from fresh games, reset-heavy play).
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

from benchmarks import short_episodes
from benchmarks.levels import LEVELS, _word, small_level
from benchmarks.short_episodes import print_rates
from miau.engine import Game

INTENTS = ("up", "down", "left", "right", "wait")


def play(game: Game, intents: list[str], serialise: bool) -> tuple[int, float]:
    """Play ``intents``; return accepted steps and seconds taken."""
    accepted = 0
    start = time.perf_counter()
    for intent in intents:
        event = game.step(intent)
        if serialise:
            event.to_json()
        if event.accepted:
            accepted += 1
            if event.won or event.control_lost:
                game.reset()
    return accepted, time.perf_counter() - start


def tier1_level() -> dict[str, Any]:
    """The small room with vocabulary-1 words: a NOT, a condition, MOVE, PULL, HOT/MELT, HAS.

    Only in the table, not in ``--json``: ``compare.py`` runs that against
    older engines, which have no vocabulary-1.
    """
    data = small_level()
    objects = data["objects"]
    for y, text in ((1, "ROCK IS MOVE"), (2, "LAVA IS HOT"), (3, "MIAU IS NOT MELT")):
        objects += [_word(t, 5 + i, y + 2) for i, t in enumerate(text.split())]
    objects += [_word(t, i, 5) for i, t in enumerate(["ROCK", "NEAR", "MIAU", "IS", "PULL"])]
    objects += [_word(t, i, 4) for i, t in enumerate(["ROCK", "HAS", "FLAG"])]
    objects += [{"kind": "object", "noun": "LAVA", "x": 7, "y": 1}]
    data["features"] = ["vocabulary-1"]
    return data


def main() -> None:
    """Print a table of steps per second per level."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--no-short", action="store_true", help="leave out the short-episode lines")
    args = parser.parse_args()
    rng = random.Random(1)
    intents = [rng.choice(INTENTS) for _ in range(args.steps)]
    if args.json:
        figures: dict[str, float] = {}
        for name, build in LEVELS.items():
            for serialise in (False, True):
                accepted, seconds = play(Game(build()), intents, serialise)
                figures[f"long play, {name}{', to_json' if serialise else ''}"] = accepted / seconds
        print(json.dumps(figures))
        return
    print(f"{'level':36} {'entities':>8} {'accepted':>9} {'steps/s':>10} {'+to_json/s':>11}")
    for name, build in {**LEVELS, "small (9x7), vocabulary-1": tier1_level}.items():
        data = build()
        rates: dict[bool, list[float]] = {False: [], True: []}
        accepted = 0
        for _ in range(args.repeats):
            for serialise in (False, True):
                accepted, seconds = play(Game(data), intents, serialise)
                rates[serialise].append(accepted / seconds)
        print(
            f"{name:36} {len(data['objects']):>8} {accepted / args.steps:>8.0%} "
            f"{statistics.median(rates[False]):>10,.0f} {statistics.median(rates[True]):>11,.0f}"
        )
    if not args.no_short:
        print()
        print(f"{'short episodes, events serialised':56} {'steps/s':>10}")
        print_rates(short_episodes.measure(args.repeats))


if __name__ == "__main__":
    main()
