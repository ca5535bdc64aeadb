"""The size of a state on the wire, and the cost of taking one, as history grows.

Run: ``.venv/bin/python benchmarks/wire_size.py [--turns N] [--repeats N]``.

Plays ``--turns`` accepted turns of random intents (a fixed seed; a win or
a loss of control is undone) on the tutorial's ``skull-gate`` (55 entities),
then prints the size of ``state.to_json()`` (the wire form, history as a
count) and of ``state.to_json(history=True)`` (the full snapshots), and the
median time of taking ``game.state`` after 2 turns and after ``--turns``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.engine import Game
from miau.packs import load_pack

ROOT = Path(__file__).resolve().parent.parent
INTENTS = ("up", "down", "left", "right", "wait")


def play_turns(game: Game, turns: int, rng: random.Random) -> None:
    """Play until ``turns`` turns can be undone, undoing wins and losses."""
    while game.history_length < turns:
        event = game.step(rng.choice(INTENTS))
        if event.won or event.control_lost:
            game.undo()


def state_cost(game: Game, repeats: int) -> float:
    """Median microseconds of one ``game.state`` access."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(100):
            game.state  # noqa: B018 -- the access is what is timed
        times.append((time.perf_counter() - start) / 100 * 1e6)
    return statistics.median(times)


def main() -> None:
    """Print sizes and costs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    level = load_pack(ROOT / "packs" / "tutorial.json").level("skull-gate")
    rng = random.Random(3)
    game = Game(level.data)
    play_turns(game, 2, rng)
    early = state_cost(game, args.repeats)
    play_turns(game, args.turns, rng)
    late = state_cost(game, args.repeats)
    wire = len(json.dumps(game.state.to_json(), separators=(",", ":")))
    full = len(json.dumps(game.state.to_json(history=True), separators=(",", ":")))
    print(f"level skull-gate, {len(level.data['objects'])} entities, {args.turns} turns")
    rows = [
        ("state on the wire (history as a count)", f"{wire:,} bytes"),
        ("state with full history", f"{full:,} bytes"),
        ("game.state after 2 turns", f"{early:.1f} us"),
        (f"game.state after {args.turns} turns", f"{late:.1f} us"),
    ]
    for label, figure in rows:
        print(f"{label:42} {figure:>16}")


if __name__ == "__main__":
    main()
