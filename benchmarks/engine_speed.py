"""Engine speed: accepted steps per second under random play, events included.

Run: ``.venv/bin/python benchmarks/engine_speed.py [--steps N] [--repeats N]``.
Each repeat plays N random intents (U D L R W, a fixed seed) on each level,
resetting when the level is won or nothing is YOU. Figures are the median
over the repeats; time includes rejected attempts, so it is conservative.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.levels import LEVELS
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


def main() -> None:
    """Print a table of steps per second per level."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(1)
    intents = [rng.choice(INTENTS) for _ in range(args.steps)]
    print(f"{'level':36} {'entities':>8} {'accepted':>9} {'steps/s':>10} {'+to_json/s':>11}")
    for name, build in LEVELS.items():
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


if __name__ == "__main__":
    main()
