"""The Gymnasium registry tells the truth: each id's episode limit, and the shortest solutions known."""

from __future__ import annotations

import json
from typing import Any

import gymnasium
import pytest
from gymnasium.wrappers import TimeLimit

from miau.gym import (
    ACTIONS,
    DEFAULT_MAX_STEPS,
    MiauFamilyEnv,
    MiauLevelEnv,
    MiauLevelsEnv,
    entries_from,
    level_entries,
    resolve_pack,
)
from miau.worlds import shipped_packs_dir

MIAU_IDS = sorted(env_id for env_id in gymnasium.registry if env_id.startswith("miau/"))
WAIT = ACTIONS.index("wait")
FIRST_STEPS: dict[str, Any] = {"pack": "tutorial", "level": "first-steps"}
SHIPPED_IDS = sorted(path.stem for path in shipped_packs_dir().glob("*.json"))


def time_limits(env: gymnasium.Env[Any, Any]) -> int:
    """How many TimeLimit wrappers ``env`` is wrapped in."""
    count = 0
    while isinstance(env, gymnasium.Wrapper):
        count += isinstance(env, TimeLimit)
        env = env.env
    return count


def miau_env(env: gymnasium.Env[Any, Any]) -> MiauLevelEnv | MiauLevelsEnv | MiauFamilyEnv:
    """The Miau environment inside ``env``'s wrappers."""
    inner = env.unwrapped
    assert isinstance(inner, MiauLevelEnv | MiauLevelsEnv | MiauFamilyEnv)
    return inner


def truncated_at(env: gymnasium.Env[Any, Any]) -> int:
    """The first step on which waiting from the start is truncated (no step before it says so)."""
    env.reset(seed=0)
    step = 0
    while True:
        step += 1
        _, _, terminated, truncated, _ = env.step(WAIT)
        assert not terminated
        if truncated:
            return step


def test_every_miau_id_is_registered_with_the_default_episode_limit() -> None:
    assert len(MIAU_IDS) == 6
    for env_id in MIAU_IDS:
        assert gymnasium.spec(env_id).max_episode_steps == DEFAULT_MAX_STEPS, env_id


@pytest.mark.parametrize("env_id", MIAU_IDS)
def test_made_environments_wear_one_time_limit_that_agrees_with_their_own(env_id: str) -> None:
    kwargs: dict[str, dict[str, Any]] = {
        "miau/Level-v0": FIRST_STEPS,
        "miau/Levels-v0": {"packs": "tutorial"},
    }
    env = gymnasium.make(env_id, **kwargs.get(env_id, {}))
    assert time_limits(env) == 1
    assert env.spec is not None and env.spec.max_episode_steps == DEFAULT_MAX_STEPS
    assert miau_env(env).max_steps == DEFAULT_MAX_STEPS


@pytest.mark.parametrize(
    ("kwargs", "limit"),
    [
        pytest.param({}, DEFAULT_MAX_STEPS, id="default"),
        pytest.param({"max_episode_steps": 5}, 5, id="max_episode_steps-below"),
        pytest.param({"max_episode_steps": 260}, 260, id="max_episode_steps-above"),
        pytest.param({"max_steps": 7}, 7, id="max_steps-below"),
        pytest.param({"max_steps": 230}, 230, id="max_steps-above"),
    ],
)
def test_the_time_limit_and_the_environment_truncate_on_the_same_step(
    kwargs: dict[str, Any], limit: int
) -> None:
    env = gymnasium.make("miau/Level-v0", **FIRST_STEPS, **kwargs)
    assert time_limits(env) == 1
    assert miau_env(env).max_steps == limit
    assert env.spec is not None and env.spec.max_episode_steps == limit
    assert truncated_at(env) == limit
    # The unwrapped environment alone truncates on that step too: the two limits are one, so
    # the step that ends the episode is the only one that reports a truncation.
    assert truncated_at(env.unwrapped) == limit


def test_an_environment_made_again_from_its_spec_keeps_the_limit() -> None:
    env = gymnasium.make("miau/Level-v0", **FIRST_STEPS, max_episode_steps=260)
    assert env.spec is not None
    again = gymnasium.make(env.spec)
    assert miau_env(again).max_steps == 260 and truncated_at(again) == 260


def test_without_a_time_limit_the_environment_still_ends_episodes_at_its_own() -> None:
    env = gymnasium.make("miau/Level-v0", **FIRST_STEPS, max_episode_steps=-1)
    assert time_limits(env) == 0
    assert truncated_at(env) == DEFAULT_MAX_STEPS


def test_vector_environments_agree_with_the_limit_too() -> None:
    envs = gymnasium.make_vec(
        "miau/Level-v0", num_envs=2, vectorization_mode="sync", max_episode_steps=9, **FIRST_STEPS
    )
    assert all(miau_env(env).max_steps == 9 for env in envs.envs)  # type: ignore[attr-defined]
    envs.reset(seed=0)
    for step in range(1, 10):
        *_, truncated, _ = envs.step([WAIT, WAIT])
        assert list(truncated) == [step == 9] * 2


@pytest.mark.parametrize("pack_id", SHIPPED_IDS)
def test_a_shipped_level_knows_its_shortest_solution_without_the_solver(pack_id: str) -> None:
    # The stored solutions of shipped packs are proved shortest by `miau check` over every
    # shipped pack (tests/packs_content/test_shipped_packs.py) and the content tests.
    for entry in entries_from(pack_id):
        assert entry.solution is not None
        assert entry.shortest == len(entry.solution), entry.name


def test_the_shortest_length_reaches_info_for_a_shipped_level() -> None:
    env = gymnasium.make("miau/Level-v0", **FIRST_STEPS)
    _, info = env.reset(seed=0)
    solution = miau_env(env).entry.solution
    assert solution is not None and info["shortest"] == len(solution)
    levels = gymnasium.make("miau/Levels-v0", packs=["tutorial", "proofs"])
    assert all(entry.shortest is not None for entry in miau_env(levels).entries)


def test_a_changed_copy_of_a_shipped_pack_or_a_pack_of_ones_own_claims_no_shortest() -> None:
    data = json.loads((shipped_packs_dir() / "tutorial.json").read_text(encoding="utf-8"))
    assert all(entry.shortest is not None for entry in entries_from(data))
    data["levels"][0]["title"] = "Changed"
    assert all(entry.shortest is None for entry in entries_from(data))
    level = {"width": 3, "height": 1, "objects": []}
    assert entries_from(level)[0].shortest is None
    # The shipped pack by id, by path and loaded: the same pack, so the same claim.
    by_path = level_entries([shipped_packs_dir() / "proofs.json", resolve_pack("proofs")])
    assert all(entry.shortest is not None for entry in by_path)
