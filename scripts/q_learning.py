"""Tabular Q-learning on one Miau level: the training example of ``docs/gym.md``.

Run: ``.venv/bin/python scripts/q_learning.py [--level break-the-wall] [--episodes 2000]``.

The table is keyed by the observation's bytes (the whole board, so every
distinct state has its own row); actions are chosen epsilon-greedily with
a seeded generator, so a run repeats exactly. At the end the greedy policy
plays one episode, and the script prints its moves and whether it won,
beside the solver's shortest solution.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import miau.gym  # registers miau/Level-v0
from miau.solver import solve

QTable = defaultdict[bytes, np.ndarray]


@dataclass(frozen=True)
class Training:
    """What a run learned and how it went."""

    table: QTable
    wins_per_block: list[int]
    """Episodes won in each block of 50, in order."""
    episodes: int


def train(
    env: gymnasium.Env[np.ndarray, np.int64],
    episodes: int,
    *,
    seed: int = 0,
    alpha: float = 0.5,
    gamma: float = 0.99,
    epsilon: float = 0.2,
) -> Training:
    """Q-learning with an epsilon-greedy behaviour policy; ties broken by the generator."""
    chooser = random.Random(seed)
    actions = int(env.action_space.n)  # type: ignore[attr-defined]
    table: QTable = defaultdict(lambda: np.zeros(actions))
    wins_per_block: list[int] = []
    for episode in range(episodes):
        observation, _ = env.reset(seed=seed + episode)
        key = observation.tobytes()
        won = False
        while True:
            values = table[key]
            if chooser.random() < epsilon:
                action = chooser.randrange(actions)
            else:
                best = np.flatnonzero(values == values.max())
                action = int(best[chooser.randrange(best.size)])
            observation, reward, terminated, truncated, info = env.step(np.int64(action))
            next_key = observation.tobytes()
            target = float(reward) + (0.0 if terminated else gamma * table[next_key].max())
            values[action] += alpha * (target - values[action])
            key = next_key
            if terminated or truncated:
                won = bool(info["won"])
                break
        if episode % 50 == 0:
            wins_per_block.append(0)
        wins_per_block[-1] += won
    return Training(table, wins_per_block, episodes)


def play_greedy(env: gymnasium.Env[np.ndarray, np.int64], table: QTable) -> tuple[bool, str]:
    """One episode of the learned greedy policy: (won, moves as letters)."""
    observation, _ = env.reset(seed=0)
    letters = []
    while True:
        values = table.get(observation.tobytes())
        action = 0 if values is None else int(values.argmax())
        letters.append(miau.gym.ACTIONS[action][0].upper())
        observation, _, terminated, truncated, info = env.step(np.int64(action))
        if terminated or truncated:
            return bool(info["won"]), "".join(letters)


def main() -> None:
    """Train, play the learned policy once, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="tutorial")
    parser.add_argument("--level", default="break-the-wall")
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--max-steps", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = gymnasium.make(
        "miau/Level-v0", pack=args.pack, level=args.level, max_steps=args.max_steps
    )
    started = time.perf_counter()
    training = train(env, args.episodes, seed=args.seed)
    seconds = time.perf_counter() - started
    won, moves = play_greedy(env, training.table)
    shortest = solve(env.unwrapped.game.level).moves  # type: ignore[attr-defined]
    print(f"{args.pack}/{args.level}: {args.episodes} episodes in {seconds:.1f} s")
    print(f"states in the table: {len(training.table):,}")
    print(f"wins per 50 episodes: {' '.join(map(str, training.wins_per_block))}")
    print(f"greedy policy: {'won' if won else 'did not win'} with {moves} ({len(moves)} moves)")
    print(f"solver's shortest: {shortest} ({len(shortest or '')} moves)")


if __name__ == "__main__":
    main()
