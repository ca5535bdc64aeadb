"""Tabular Q-learning at ``scripts/q_learning.py``'s default budget on every Deep End level.

Run: ``.venv/bin/python benchmarks/deep_end_q_learning.py [--levels ID,ID] [--episodes 2000]``.

Deep End promises puzzles that a learner without an idea of the rules does
not stumble on: for each level this trains the script's learner (2,000
episodes of at most 80 steps, seed 0, unless told otherwise), plays its
greedy policy once and prints whether it won, how many training episodes
won, the states it met and the seconds it took. Minutes in all (about 20 s
a level on an idle machine), which is why it is a benchmark and not a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import gymnasium

import miau.gym  # noqa: F401  (registers miau/Level-v0)
from miau.packs import load_pack
from miau.worlds import shipped_pack_path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "q_learning.py"


def q_learning_script() -> ModuleType:
    """``scripts/q_learning.py`` as a module, so the very learner it documents is the one run."""
    spec = importlib.util.spec_from_file_location("q_learning", SCRIPT)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {SCRIPT}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while being made
    spec.loader.exec_module(module)
    return module


def main() -> int:
    """Train on each level and print one line per level; exit 1 if the learner won any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="", help="level ids, comma-separated (default: all)")
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--max-steps", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    learner = q_learning_script()
    wanted = {each for each in args.levels.split(",") if each}
    pack = load_pack(shipped_pack_path("deep-end"))
    levels = [level for level in pack.levels if not wanted or level.id in wanted]
    print(f"{'level':24} {'greedy policy':14} {'training wins':>13} {'states':>8} {'seconds':>8}")
    any_won = False
    for level in levels:
        env = gymnasium.make(
            "miau/Level-v0", pack="deep-end", level=level.id, max_steps=args.max_steps
        )
        started = time.perf_counter()
        training = learner.train(env, args.episodes, seed=args.seed)
        seconds = time.perf_counter() - started
        won, _moves = learner.play_greedy(env, training.table)
        any_won |= won
        print(
            f"{level.id:24} {'won' if won else 'did not win':14} "
            f"{sum(training.wins_per_block):>13} {len(training.table):>8,} {seconds:>8.1f}"
        )
        env.close()
    return 1 if any_won else 0


if __name__ == "__main__":
    sys.exit(main())
