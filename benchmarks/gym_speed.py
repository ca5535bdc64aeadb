"""Environment speed: steps per second of ``miau.gym``, observations included, single and vectorised.

Run: ``.venv/bin/python benchmarks/gym_speed.py [--steps N] [--repeats N]``.
Each line plays N random actions (a fixed seed) through
``gymnasium.make(...)`` (so Gymnasium's own wrappers are counted), resetting
when an episode ends; every step builds the observation and the info. The
single-level lines also time the bare engine (``Game.step``) on the same
moves, alternating with the environment, and give the ratio; for a Keke
import the bare engine plays the imported ``vocabulary-1`` level as it is.
Vectorised lines count environment steps (vector steps times the number of
environments). Task-family lines play N/4 actions: each episode (200 steps
at most) starts with a drawn level that the solver proves winnable, and
that draw is counted. Figures are medians over the repeats. Single lines
also give steps per second of the process's CPU time: on a shared,
overloaded machine wall time counts the time other processes had the core,
CPU time does not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import miau.gym  # registers the environments
from miau.engine import Game

ROOT = Path(__file__).resolve().parent.parent
KEKE_SAMPLE = str(ROOT / "tests" / "keke" / "sample.miau.json")
CORE: dict[str, Any] = {"packs": ["tutorial", "proofs", "clockwork", "clockwork-pairs"]}
KEKE: dict[str, Any] = {"packs": [KEKE_SAMPLE]}
FAMILY_IDS = list(miau.gym.FAMILY_IDS)
SINGLE: list[tuple[str, str, dict[str, Any]]] = [
    ("tutorial `first-steps` (9x5, 8 entities)", "miau/Level-v0", {"level": "first-steps"}),
    ("tutorial `skull-gate` (11x8, 55 entities)", "miau/Level-v0", {"level": "skull-gate"}),
    (
        "clockwork `mouse-keeps-time` (automata)",
        "miau/Level-v0",
        {"pack": "clockwork", "level": "mouse-keeps-time"},
    ),
    ("every core level, sampled (`miau/Levels-v0`)", "miau/Levels-v0", CORE | {"order": "sample"}),
    (
        "lexicon, sampled (vocabulary-1)",
        "miau/Levels-v0",
        {"packs": ["lexicon"], "order": "sample"},
    ),
    (
        "Keke import `keke-1` (vocabulary-1, core words)",
        "miau/Level-v0",
        {"pack": KEKE_SAMPLE, "level": "keke-1"},
    ),
    ("Keke import `keke-65`", "miau/Level-v0", {"pack": KEKE_SAMPLE, "level": "keke-65"}),
    ("Keke import `keke-188` (18x18)", "miau/Level-v0", {"pack": KEKE_SAMPLE, "level": "keke-188"}),
    ("the Keke sample, sampled (`miau/Levels-v0`)", "miau/Levels-v0", KEKE | {"order": "sample"}),
    *((f"task family `{env_id}` (draws included)", env_id, {}) for env_id in FAMILY_IDS),
]
VECTORISED: list[tuple[str, str, dict[str, Any]]] = [
    ("every core level", "miau/Levels-v0", CORE | {"order": "sample"}),
    ("the Keke sample", "miau/Levels-v0", KEKE | {"order": "sample"}),
    *((f"`{env_id}`", env_id, {}) for env_id in FAMILY_IDS),
]


def actions(count: int, choices: int, seed: int = 0) -> list[int]:
    chooser = random.Random(seed)
    return [chooser.randrange(choices) for _ in range(count)]


class Rates(NamedTuple):
    """Steps per second of wall time, and per second of this process's CPU time."""

    wall: float
    cpu: float


class Clocks:
    """Both clocks, started together."""

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def rates(self, steps: int) -> Rates:
        """The rates of ``steps`` steps taken since the clocks started."""
        return Rates(
            steps / (time.perf_counter() - self.wall), steps / (time.process_time() - self.cpu)
        )


def steps_for(env_id: str, steps: int) -> int:
    """Fewer steps for a task family: its resets run the solver."""
    return max(steps // 4, 200) if env_id in FAMILY_IDS else steps


def engine_rate(env_id: str, kwargs: dict[str, Any], steps: int) -> Rates | None:
    """The bare engine on the same level with the same moves (``Game.step``, no observation).

    None for a level set: its episodes switch levels, which the bare loop does not.
    """
    if env_id != "miau/Level-v0":
        return None
    env: Any = gymnasium.make(env_id, **kwargs).unwrapped
    game = Game(env.entry.level)
    names = miau.gym.ACTIONS
    moves = [names[a] for a in actions(steps, len(names))]
    clocks = Clocks()
    for move in moves:
        event = game.step(move)
        if event.won or event.control_lost:
            game.reset()
    return clocks.rates(steps)


def single_rate(env_id: str, kwargs: dict[str, Any], steps: int) -> Rates:
    env = gymnasium.make(env_id, **kwargs)
    env.reset(seed=0)
    clocks = Clocks()
    for action in actions(steps, 5):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            env.reset()
    return clocks.rates(steps)


def vector_rate(
    kind: type[SyncVectorEnv] | type[AsyncVectorEnv],
    count: int,
    steps: int,
    env_id: str,
    kwargs: dict[str, Any],
) -> float:
    make = partial(gymnasium.make, env_id, **kwargs)

    factories: list[Callable[[], gymnasium.Env[Any, Any]]] = [make] * count
    vector = kind(factories)
    vector.reset(seed=0)
    batches = [np.array(batch) for batch in np.array_split(actions(steps, 5), steps // count)]
    start = time.perf_counter()
    done = 0
    for batch in batches:
        if len(batch) != count:
            continue
        vector.step(batch)  # ends reset themselves on the next step (autoreset)
        done += count
    rate = done / (time.perf_counter() - start)
    vector.close()
    return rate


def median_of(repeats: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(repeats))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--vector-envs", type=int, default=8, help="environments per vector")
    args = parser.parse_args()
    steps, repeats, count = args.steps, args.repeats, args.vector_envs
    print(f"{steps:,} random actions per run, median of {repeats} runs\n")
    print(
        "| what | steps/s | steps per CPU second | bare engine, same moves, per CPU second "
        "| environment / engine (CPU) |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, env_id, kwargs in SINGLE:
        rates, engines = [], []
        for _ in range(repeats):  # alternate, so that both see the same machine
            rates.append(single_rate(env_id, kwargs, steps_for(env_id, steps)))
            engine = engine_rate(env_id, kwargs, steps)
            if engine is not None:
                engines.append(engine)
        wall = statistics.median(rate.wall for rate in rates)
        cpu = statistics.median(rate.cpu for rate in rates)
        line = f"| {label} | {wall:,.0f} | {cpu:,.0f} |"
        if engines:
            engine_cpu = statistics.median(rate.cpu for rate in engines)
            line += f" {engine_cpu:,.0f} | {cpu / engine_cpu:.0%} |"
        else:
            line += " | |"
        print(line)
    vectors: list[tuple[type[SyncVectorEnv] | type[AsyncVectorEnv], int]] = [
        (SyncVectorEnv, count),
        (AsyncVectorEnv, 2),
        (AsyncVectorEnv, count),
    ]
    for label, env_id, kwargs in VECTORISED:
        for kind, envs in vectors:
            measure = partial(vector_rate, kind, envs, steps_for(env_id, steps), env_id, kwargs)
            rate = median_of(repeats, measure)
            print(f"| {label}, `{kind.__name__}` x {envs} | {rate:,.0f} | | | |")


if __name__ == "__main__":
    main()
