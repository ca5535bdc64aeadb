"""What researchers' tools expect: is_success, nothing after the end, snapshots, and Keke speed."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.gym import ACTIONS, UNDO_ACTIONS, MiauLevelEnv, ObservationBuilder
from miau.packs import load_pack

ROOT = Path(__file__).resolve().parents[2]
KEKE_SAMPLE = ROOT / "tests" / "keke" / "sample.miau.json"
KEKE_LEVELS = [level.id for level in load_pack(KEKE_SAMPLE).levels]


def right() -> int:
    return ACTIONS.index("right")


def test_info_says_is_success_exactly_when_the_level_is_won() -> None:
    env = MiauLevelEnv("tutorial", "first-steps")
    _, info = env.reset(seed=0)
    assert info["is_success"] is False
    for _ in range(5):
        *_, info = env.step(right())
        assert info["is_success"] is False
    _, reward, terminated, _, info = env.step(right())
    assert terminated and info["is_success"] is True and info["won"] is True
    assert float(reward) == 0.99


def test_a_step_after_the_win_pays_nothing_and_repeats_the_terminal_observation() -> None:
    env = MiauLevelEnv("tutorial", "first-steps")
    env.reset(seed=0)
    for _ in range(6):
        terminal, *_, terminal_info = env.step(right())
    for action in range(len(ACTIONS)):
        observation, reward, terminated, truncated, info = env.step(action)
        assert np.array_equal(observation, terminal)
        assert (float(reward), terminated, truncated) == (0.0, True, False)
        assert info == terminal_info


@settings(max_examples=30, deadline=None)
@given(
    level=st.sampled_from(["first-steps", "walls", "break-the-wall", "skull-gate"]),
    before=st.lists(st.integers(0, len(UNDO_ACTIONS) - 1), max_size=25),
    after=st.lists(st.integers(0, len(UNDO_ACTIONS) - 1), min_size=1, max_size=25),
)
def test_resuming_a_snapshot_replays_exactly_what_followed_it(
    level: str, before: list[int], after: list[int]
) -> None:
    env = MiauLevelEnv("tutorial", level, undo_actions=True, max_steps=1000)
    at_snapshot, _ = env.reset(seed=0)
    for action in before:
        at_snapshot, *_ = env.step(action)
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    first = [env.step(action) for action in after]
    observation, info = env.reset(options={"state": snapshot})
    assert np.array_equal(observation, at_snapshot)
    assert info["steps"] == len(before)
    second = [env.step(action) for action in after]
    for (obs_a, *rest_a), (obs_b, *rest_b) in zip(first, second, strict=True):
        assert np.array_equal(obs_a, obs_b)
        assert rest_a == rest_b


def test_a_snapshot_resumes_in_another_environment_of_the_same_level() -> None:
    env = MiauLevelEnv("tutorial", "first-steps")
    env.reset(seed=0)
    for _ in range(3):
        expected, *_ = env.step(right())
    other = MiauLevelEnv("tutorial", "first-steps")
    observation, info = other.reset(options={"state": env.snapshot()})
    assert np.array_equal(observation, expected) and info["moves"] == 3


@settings(max_examples=40, deadline=None)
@given(
    level=st.sampled_from(KEKE_LEVELS),
    actions=st.lists(st.integers(0, len(ACTIONS) - 1), min_size=1, max_size=60),
)
def test_on_keke_levels_the_kept_observation_equals_the_vocabulary_1_games_from_scratch(
    level: str, actions: list[int]
) -> None:
    env = MiauLevelEnv(KEKE_SAMPLE, level, max_steps=10_000)
    env.reset(seed=0)
    original = Game(env.entry.level)
    assert original.level.vocabulary
    builder = ObservationBuilder(env.layout, original.level)
    for action in actions:
        observation, _, terminated, _, info = env.step(action)
        event = original.step(ACTIONS[action])
        assert np.array_equal(observation, builder.build(original.state))
        assert (info["won"], info["control_lost"]) == (event.won, original.state.control_lost)
        if terminated:
            break


def test_a_keke_level_is_played_as_its_core_twin_so_its_observation_is_kept_incrementally() -> None:
    env = MiauLevelEnv(KEKE_SAMPLE, "keke-1")
    assert env.entry.level.vocabulary
    env.reset(seed=0)
    assert not env.game.level.vocabulary


@settings(max_examples=25, deadline=None)
@given(
    level=st.sampled_from(["keke-65", "keke-188"]),
    actions=st.lists(st.integers(0, len(UNDO_ACTIONS) - 1), min_size=1, max_size=60),
)
def test_on_keke_levels_the_kept_observation_with_undo_and_reset_equals_a_fresh_build(
    level: str, actions: list[int]
) -> None:
    # Resets give the remembered start observation again; it must equal a fresh build.
    env = MiauLevelEnv(KEKE_SAMPLE, level, undo_actions=True, max_steps=10_000)
    env.reset(seed=0)
    for action in actions:
        observation, *_ = env.step(action)
        fresh = ObservationBuilder(env.layout, env.game.level).build(env.game.state)
        assert np.array_equal(observation, fresh), env.actions[action]
    observation, _ = env.reset()
    fresh = ObservationBuilder(env.layout, env.game.level).build(env.game.state)
    assert np.array_equal(observation, fresh)
