"""Stable-Baselines3 takes the environments as they are (skipped where it is not installed).

Stable-Baselines3 and PyTorch are not among the test dependencies (PyTorch's
CPU wheel is 190 MB, 1.2 GB installed); ``.ci/run`` installs them, so CI runs
these tests.
"""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import miau.gym  # noqa: F401  (registers the environments)

pytest.importorskip(
    "stable_baselines3",
    reason="Stable-Baselines3 is not installed (pip install stable-baselines3; .ci/run does)",
)

from stable_baselines3 import PPO  # type: ignore[import-not-found, unused-ignore]
from stable_baselines3.common.env_checker import check_env  # type: ignore[import-not-found, unused-ignore]
from stable_baselines3.common.env_util import make_vec_env  # type: ignore[import-not-found, unused-ignore]


def test_make_vec_env_makes_the_level_environment_with_default_arguments() -> None:
    vector = make_vec_env("miau/Level-v0")
    observations = vector.reset()
    assert isinstance(observations, np.ndarray) and observations.shape[0] == 1
    # make_vec_env asks for render_mode="rgb_array"; the picture comes back.
    frame = vector.env_method("render")[0]
    assert isinstance(frame, np.ndarray) and frame.ndim == 3
    observations, rewards, dones, infos = vector.step(np.array([3]))
    assert isinstance(observations, np.ndarray)
    assert observations.shape[0] == rewards.shape[0] == dones.shape[0] == 1
    assert "is_success" in infos[0]
    vector.close()


def test_stable_baselines3_checker_accepts_the_pixel_observation_without_a_warning() -> None:
    env = gymnasium.make("miau/Level-v0", pack="tutorial", level="walls", observation="pixels")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env)


@pytest.mark.slow
def test_ppo_with_the_cnn_policy_trains_on_pixels_of_a_task_family() -> None:
    vector = make_vec_env("miau/GotoWin-v0", n_envs=2, env_kwargs={"observation": "pixels"})
    model = PPO("CnnPolicy", vector, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    observations = vector.reset()
    assert isinstance(observations, np.ndarray)
    action, _ = model.predict(observations, deterministic=True)
    assert action.shape == (2,)
    vector.close()
