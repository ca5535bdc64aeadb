"""What reusing a phase's reading saves on vocabulary-1 turns, both ways in one run.

Run: ``.venv/bin/python benchmarks/reading_reuse.py [--rounds N] [--steps N]``.

Each phase of a turn reads every entity's properties (``board.Reading``);
``Board.read`` hands back the last reading while the rule table is the same
and the journal has not grown (and a reading without conditions or FLOAT
always, since it looks entities up as they are). This script alternates,
round after round in one interpreter, between the engine as it is and the
same engine with reuse turned off (``Board.read`` replaced by ``KeptReading``:
every reading computed afresh), so the two are measured under the same
load; ``compare.py REV`` gives the change from another commit. Workloads: the vocabulary-1 packs'
shipped solutions from fresh games, and random play on the benchmark room
with vocabulary-1 words (``engine_speed.py``'s last table row), events
serialised. It prints the median steps per second of each, how many
readings were reused, and the change.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine_speed import INTENTS, play, tier1_level
from benchmarks.short_episodes import replay_solutions, tier1_levels
from miau.engine import Game
from miau.engine.board import Board, KeptReading, Reading


@contextmanager
def fresh_readings() -> Iterator[None]:
    """Every phase computes its reading anew: reuse turned off."""
    with patch.object(Board, "read", lambda board: KeptReading(board)):
        yield


def reuse_share(workload: Callable[[], object]) -> float:
    """The share of ``Board.read`` calls during ``workload`` that computed nothing."""
    reuse = Board.read
    calls, computed = [0], [0]
    original_init = KeptReading.__init__

    def counting_read(board: Board) -> Reading:
        calls[0] += 1
        return reuse(board)

    def counting_init(self: KeptReading, board: Board) -> None:
        computed[0] += 1
        original_init(self, board)

    with (
        patch.object(Board, "read", counting_read),
        patch.object(KeptReading, "__init__", counting_init),
    ):
        workload()
    return 1 - computed[0] / calls[0]


def main() -> None:
    """Print both engines' median rates per workload and the change."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=5_000)
    args = parser.parse_args()
    solutions = tier1_levels()
    room = tier1_level()
    rng = random.Random(1)
    intents = [rng.choice(INTENTS) for _ in range(args.steps)]

    def shipped() -> float:
        steps, seconds, _ = replay_solutions(solutions)
        return steps / seconds

    def random_play() -> float:
        accepted, seconds = play(Game(room), intents, serialise=True)
        return accepted / seconds

    workloads = {
        f"vocabulary-1 shipped solutions ({len(solutions)} levels)": shipped,
        "small (9x7) with vocabulary-1 words, random play": random_play,
    }
    rates: dict[str, dict[bool, list[float]]] = {name: {True: [], False: []} for name in workloads}
    for _ in range(args.rounds):
        for name, workload in workloads.items():
            rates[name][True].append(workload())
            with fresh_readings():
                rates[name][False].append(workload())
    print(
        f"median of {args.rounds} rounds, steps/s{'fresh':>22}{'reused':>10}{'change':>9}  reused"
    )
    for name, workload in workloads.items():
        fresh = statistics.median(rates[name][False])
        reused = statistics.median(rates[name][True])
        share = reuse_share(workload)
        print(f"{name:48} {fresh:>9,.0f} {reused:>9,.0f} {reused / fresh - 1:>+8.1%}  {share:.0%}")


if __name__ == "__main__":
    main()
