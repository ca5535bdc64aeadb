"""A Stable-Baselines3 PPO baseline on Miau: one level until it is won, or a task family.

Needs Stable-Baselines3 (``pip install stable-baselines3``; it brings PyTorch), which
is not a dependency of Miau. Run:

    .venv/bin/python scripts/sb3_ppo.py level tutorial:first-steps
    .venv/bin/python scripts/sb3_ppo.py family goto-win --timesteps 100000

PPO runs 8 environments with rollouts of 256 steps each (2,048 a rollout),
otherwise Stable-Baselines3's defaults. ``level`` trains an MLP policy on one
level in chunks of ``--chunk`` steps
and, after each chunk, plays the deterministic policy once; it stops at the
first win and prints the steps and seconds it took. ``family`` trains on
the family's levels (a fresh one each episode, global channels) for
``--timesteps`` steps, then plays the deterministic policy on ``--episodes``
levels drawn with seeds the training never used, and prints how many it won
beside a uniformly random policy on the same levels. Everything is seeded.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np

import miau.gym

try:
    import torch  # type: ignore[import-not-found, unused-ignore]
    from stable_baselines3 import PPO  # type: ignore[import-not-found, unused-ignore]
    from stable_baselines3.common.env_util import (  # type: ignore[import-not-found, unused-ignore]
        make_vec_env,
    )
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise SystemExit(f"{missing}: pip install stable-baselines3") from None

EVALUATION_SEEDS = 1_000_000
"""Evaluation levels are drawn from seeds from here on; training resets start at 0."""


def plays_to_a_win(model: Any, env: gymnasium.Env[Any, Any], seed: int) -> bool:
    """Whether the deterministic policy wins the episode that ``reset(seed=seed)`` starts."""
    observation, _ = env.reset(seed=seed)
    while True:
        action, _ = model.predict(observation, deterministic=True)
        observation, _, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            return bool(info["is_success"])


def train_level(spec: str, chunk: int, limit: int, seed: int) -> None:
    """Train on one level until the deterministic policy wins it, or ``limit`` steps."""
    pack, _, level = spec.rpartition(":")
    kwargs: dict[str, Any] = {"pack": pack, "level": level}
    vector = make_vec_env("miau/Level-v0", n_envs=8, seed=seed, env_kwargs=kwargs)
    model = PPO("MlpPolicy", vector, n_steps=256, seed=seed, device="cpu", verbose=0)
    probe = gymnasium.make("miau/Level-v0", **kwargs)
    started = time.perf_counter()
    trained = 0
    while trained < limit:
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        trained += chunk
        print(f"  {trained:,} steps, {time.perf_counter() - started:.1f} s", flush=True)
        if plays_to_a_win(model, probe, seed):
            seconds = time.perf_counter() - started
            print(f"{spec}: won after {trained:,} steps of training, {seconds:.1f} s")
            return
    print(f"{spec}: not won after {trained:,} steps ({time.perf_counter() - started:.1f} s)")


def train_family(family: str, timesteps: int, episodes: int, seed: int) -> None:
    """Train on a family, then compare the policy with random play on unseen levels."""
    env_id = "miau/Family-v0"
    kwargs: dict[str, Any] = {"family": family}
    vector = make_vec_env(env_id, n_envs=8, seed=seed, env_kwargs=kwargs)
    model = PPO("MlpPolicy", vector, n_steps=256, seed=seed, device="cpu", verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=timesteps)
    seconds = time.perf_counter() - started
    env = gymnasium.make(env_id, **kwargs)
    seeds = range(EVALUATION_SEEDS, EVALUATION_SEEDS + episodes)
    won = sum(plays_to_a_win(model, env, s) for s in seeds)
    chooser = np.random.default_rng(seed)
    random_won = 0
    for s in seeds:
        env.reset(seed=s)
        while True:
            *_, terminated, truncated, info = env.step(int(chooser.integers(len(miau.gym.ACTIONS))))
            if terminated or truncated:
                random_won += bool(info["is_success"])
                break
    print(
        f"{family}: PPO (MLP, {timesteps:,} steps, {seconds:.0f} s) won {won}/{episodes} "
        f"unseen levels; random play won {random_won}/{episodes}"
    )


def main() -> None:
    """Parse the arguments and run the chosen baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["level", "family"])
    parser.add_argument("target", help="PACK:LEVEL for level, a family name for family")
    parser.add_argument("--chunk", type=int, default=2_048, help="steps between two probes")
    parser.add_argument("--timesteps", type=int, default=100_000, help="the limit or budget")
    parser.add_argument("--episodes", type=int, default=50, help="evaluation levels (family)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    # One thread: on a small shared machine PyTorch's thread pool only adds contention.
    torch.set_num_threads(1)
    if args.mode == "level":
        train_level(args.target, args.chunk, args.timesteps, args.seed)
    else:
        train_family(args.target, args.timesteps, args.episodes, args.seed)


if __name__ == "__main__":
    main()
