"""The Gymnasium environments: the API contract, observations, rewards, ends and seeds."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import miau.gym
from miau.engine import Game, parse_moves, replay
from miau.gym import ACTIONS, UNDO_ACTIONS, MiauLevelEnv, MiauLevelsEnv, ObservationBuilder
from miau.packs import load_pack
from tests.gym.conftest import one_level_pack, sentence, thing, word

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "packs").glob("*.json"))
KEKE_SAMPLE = ROOT / "tests" / "keke" / "sample.miau.json"
SOLVED_LEVELS = [
    pytest.param(path, level.id, level.solution, id=f"{path.stem}/{level.id}")
    for path in [*SHIPPED, KEKE_SAMPLE]
    for level in load_pack(path).levels
    # Some Keke solutions do not win under Miau's rules (tests/keke/test_sample.py).
    if level.solution and (path != KEKE_SAMPLE or replay(level.data, level.solution).won)
]


def test_actions_are_the_move_alphabet_in_order() -> None:
    assert ACTIONS == ("up", "down", "left", "right", "wait")
    assert (*ACTIONS, "undo", "reset") == UNDO_ACTIONS


def test_the_single_level_environment_passes_the_gymnasium_checker() -> None:
    env = gymnasium.make("miau/Level-v0", pack="packs/tutorial.json", level="first-steps")
    check_env(env.unwrapped)


@pytest.mark.parametrize("order", ["cycle", "sample"])
def test_the_level_set_environment_passes_the_gymnasium_checker(order: str) -> None:
    env = gymnasium.make("miau/Levels-v0", packs=["tutorial", str(KEKE_SAMPLE)], order=order)
    check_env(env.unwrapped)


def test_the_environment_with_undo_actions_passes_the_checker_and_has_seven_actions() -> None:
    env = gymnasium.make("miau/Level-v0", pack="tutorial", level="walls", undo_actions=True)
    check_env(env.unwrapped)
    assert env.action_space == gymnasium.spaces.Discrete(7)


def test_a_shipped_pack_id_names_the_same_level_as_its_file() -> None:
    by_id = MiauLevelEnv("tutorial", "walls")
    by_path = MiauLevelEnv(ROOT / "packs" / "tutorial.json", "walls")
    assert np.array_equal(by_id.reset(seed=0)[0], by_path.reset(seed=0)[0])


def test_an_unknown_pack_or_level_is_a_clear_error() -> None:
    with pytest.raises(LookupError, match="no shipped pack"):
        MiauLevelEnv("no-such-pack")
    with pytest.raises(LookupError, match="no level 'nowhere'"):
        MiauLevelEnv("tutorial", "nowhere")


@pytest.mark.parametrize(("pack", "level_id", "solution"), SOLVED_LEVELS)
def test_a_stored_solution_played_through_the_environment_earns_the_win_reward(
    pack: Path, level_id: str, solution: str
) -> None:
    env = MiauLevelEnv(pack, level_id, max_steps=len(solution))
    env.reset(seed=0)
    results = [env.step(ACTIONS.index(intent)) for intent in parse_moves(solution)]
    *before, (_, reward, terminated, truncated, info) = results
    assert reward == pytest.approx(env.reward.win + env.reward.step)
    assert terminated and not truncated and info["won"]
    assert not any(done for _, _, done, _, _ in before)


def test_the_observation_marks_nouns_words_properties_and_facing_where_they_stand() -> None:
    pack = one_level_pack(
        [*sentence("MIAU IS YOU", 0, 0), *sentence("ROCK IS PUSH", 0, 1), thing("MIAU", 2, 3)],
        5,
        4,
    )
    env = MiauLevelsEnv([pack, "tutorial"], ["room"], size=(6, 7))
    observation, info = env.reset(seed=0)
    layout = env.layout
    assert observation.shape == (layout.channel_count, 6, 7)

    def cells(name: str) -> list[tuple[int, int]]:
        ys, xs = np.nonzero(observation[layout.channel(name)])
        return sorted(zip(xs.tolist(), ys.tolist(), strict=True))

    assert cells("noun:MIAU") == [(2, 3)]
    assert cells("property:YOU") == [(2, 3)]
    assert cells("property:PUSH") == []  # no rock on the board
    assert cells("word:IS") == [(1, 0), (1, 1)]
    assert cells("facing:right") == [(2, 3)]
    level_cells = observation[layout.channel("level")]
    assert level_cells[:4, :5].all() and level_cells.sum() == 20
    assert info["rules"] == ("MIAU IS YOU", "ROCK IS PUSH")
    observation, *_ = env.step(ACTIONS.index("left"))
    assert cells("noun:MIAU") == [(1, 3)]
    assert cells("facing:left") == [(1, 3)] and cells("facing:right") == []


def test_stepping_onto_defeat_with_no_way_back_terminates_with_the_loss_reward() -> None:
    pack = one_level_pack(
        [
            *sentence("MIAU IS YOU", 0, 0),
            *sentence("SKULL IS DEFEAT", 0, 1),
            thing("MIAU", 1, 3),
            thing("SKULL", 0, 3),
        ],
        5,
        4,
    )
    env = MiauLevelEnv(pack)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(ACTIONS.index("left"))
    assert terminated and not truncated and info["control_lost"]
    # The loss, this step's reward, and the step reward of the 199 steps the loss cut off.
    assert reward == pytest.approx(env.reward.loss + env.reward.step * env.max_steps)


def test_control_lost_to_defeat_does_not_terminate_when_an_automaton_brings_a_you_back() -> None:
    # The mouse pushes a second YOU word under ROCK IS, four beats from the start.
    objects = [*sentence("MIAU IS YOU", 0, 0), *sentence("SKULL IS DEFEAT", 0, 1)]
    objects += [*sentence("MOUSE IS TICK", 0, 2), word("ROCK", 5, 3), word("IS", 5, 4)]
    objects += [thing("MOUSE", 0, 5), word("YOU", 1, 5), thing("ROCK", 7, 6)]
    objects += [thing("MIAU", 9, 1), thing("SKULL", 8, 1)]
    automata = [{"id": "mouse", "subject": "MOUSE", "property": "TICK", "pattern": ["R"]}]
    env = MiauLevelEnv(one_level_pack(objects, 10, 7, automata=automata))
    env.reset(seed=0)
    _, _, terminated, _, info = env.step(ACTIONS.index("left"))
    assert info["control_lost"] and not terminated
    for _ in range(3):
        *_, info = env.step(ACTIONS.index("wait"))
    assert "ROCK IS YOU" in info["rules"] and not info["control_lost"]


def test_with_undo_actions_losing_control_does_not_terminate_and_undo_brings_it_back() -> None:
    pack = one_level_pack(
        [
            *sentence("MIAU IS YOU", 0, 0),
            *sentence("SKULL IS DEFEAT", 0, 1),
            thing("MIAU", 1, 3),
            thing("SKULL", 0, 3),
        ],
        5,
        4,
    )
    env = MiauLevelEnv(pack, undo_actions=True)
    start, _ = env.reset(seed=0)
    _, _, terminated, _, info = env.step(ACTIONS.index("left"))
    assert info["control_lost"] and not terminated
    observation, *_, info = env.step(UNDO_ACTIONS.index("undo"))
    assert not info["control_lost"] and np.array_equal(observation, start)


def test_an_episode_is_truncated_at_the_step_limit() -> None:
    env = MiauLevelEnv("tutorial", "first-steps", max_steps=3)
    env.reset(seed=0)
    ends = [env.step(ACTIONS.index("wait"))[2:4] for _ in range(3)]
    assert ends == [(False, False), (False, False), (False, True)]


def test_a_step_limit_and_a_reward_set_on_the_environment_count_from_the_next_step() -> None:
    env = MiauLevelEnv("tutorial", "first-steps", max_steps=3)
    env.reset(seed=0)
    env.max_steps = 1
    env.reward = miau.gym.Reward(step=-0.5)
    _, reward, _, truncated, _ = env.step(ACTIONS.index("wait"))
    assert (reward, truncated, env.max_steps) == (-0.5, True, 1)


def test_a_channel_layout_pickles_and_comes_back_equal() -> None:
    layout = MiauLevelsEnv(["tutorial"]).layout
    assert pickle.loads(pickle.dumps(layout)) == layout


def test_rule_shaping_pays_for_each_rule_formed_and_broken() -> None:
    pack = one_level_pack(
        [
            *sentence("MIAU IS YOU", 0, 0),
            word("FLAG", 0, 2),
            word("IS", 1, 2),
            word("WIN", 3, 2),
            thing("MIAU", 4, 2),
        ],
        6,
        4,
    )
    shaping = {"rule_formed": 0.5, "rule_broken": -0.25, "step": 0.0}
    env = MiauLevelEnv(pack, reward=shaping)
    env.reset(seed=0)
    _, reward, *_, info = env.step(ACTIONS.index("left"))  # pushes WIN into FLAG IS _
    assert "FLAG IS WIN" in info["rules"] and reward == 0.5
    env.step(ACTIONS.index("up"))
    env.step(ACTIONS.index("left"))
    _, reward, *_ = env.step(ACTIONS.index("down"))  # pushes IS out of the sentence
    assert reward == -0.25


def test_an_unknown_reward_field_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="reward has no bonus"):
        MiauLevelEnv(reward={"bonus": 1.0})


def test_cycle_order_plays_the_levels_in_turn_and_a_seed_starts_over() -> None:
    env = MiauLevelsEnv("proofs")
    names = [env.reset()[1]["level"] for _ in range(3)]
    assert names == ["proofs/proof-01", "proofs/proof-02", "proofs/proof-03"]
    assert env.reset(seed=5)[1]["level"] == "proofs/proof-01"
    assert env.reset(options={"level": "proof-07"})[1]["level"] == "proofs/proof-07"


def trajectory(env: gymnasium.Env[Any, Any], seed: int, actions: list[int]) -> list[Any]:
    observation, info = env.reset(seed=seed)
    steps: list[Any] = [(observation.tobytes(), info)]
    for action in actions:
        observation, reward, terminated, truncated, info = env.step(action)
        steps.append((observation.tobytes(), reward, terminated, truncated, info))
        if terminated or truncated:
            observation, info = env.reset()
            steps.append((observation.tobytes(), info))
    return steps


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    actions=st.lists(st.integers(0, len(ACTIONS) - 1), max_size=60),
)
def test_identical_seeds_give_identical_trajectories(seed: int, actions: list[int]) -> None:
    def make() -> gymnasium.Env[Any, Any]:
        return gymnasium.make("miau/Levels-v0", packs=["tutorial", "clockwork"], order="sample")

    assert trajectory(make(), seed, actions) == trajectory(make(), seed, actions)


def test_different_seeds_sample_different_levels() -> None:
    env = MiauLevelsEnv(["tutorial", "proofs"], order="sample")
    firsts = {env.reset(seed=seed)[1]["level"] for seed in range(20)}
    assert len(firsts) > 5


LEVELS_FOR_UPDATES = [
    ("tutorial", "rock-in-the-way"),
    ("tutorial", "sink-the-rock"),
    ("tutorial", "rock-is-flag"),
    ("tutorial", "skulls-and-water"),
    ("clockwork", "mouse-keeps-time"),
    ("clockwork-pairs", "key-and-door"),
    ("lexicon", "conveyor"),
]


@settings(max_examples=40, deadline=None)
@given(
    which=st.sampled_from(LEVELS_FOR_UPDATES),
    actions=st.lists(st.integers(0, len(UNDO_ACTIONS) - 1), min_size=1, max_size=80),
)
def test_every_observation_kept_up_to_date_equals_one_built_from_scratch(
    which: tuple[str, str], actions: list[int]
) -> None:
    env = MiauLevelEnv(*which, undo_actions=True, max_steps=10_000)
    env.reset(seed=0)
    for action in actions:
        observation, *_ = env.step(action)
        fresh = ObservationBuilder(env.layout, env.game.level).build(env.game.state)
        assert np.array_equal(observation, fresh), env.actions[action]


def test_the_update_is_incremental_on_a_plain_turn() -> None:
    # The update must not read the state when a move only moves things.
    env = MiauLevelEnv("tutorial", "first-steps")
    env.reset(seed=0)
    builder = ObservationBuilder(env.layout, env.game.level)
    game = Game(env.game.level)
    builder.build(game.state)
    event = game.step("right")
    assert event.accepted

    def no_state() -> Any:
        raise AssertionError("rebuilt from the state")

    updated = builder.update(event, no_state)
    assert np.array_equal(updated, ObservationBuilder(env.layout, game.level).build(game.state))


def test_render_ansi_draws_the_board() -> None:
    env = MiauLevelEnv("tutorial", "first-steps", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text is not None and "MIA*" in text and "WIN" in text


def test_importing_miau_gym_registers_both_environments() -> None:
    assert miau.gym.ACTIONS
    assert {"miau/Level-v0", "miau/Levels-v0"} <= set(gymnasium.registry)


def make_levels_env() -> gymnasium.Env[Any, Any]:
    return gymnasium.make("miau/Levels-v0", packs=["tutorial", "clockwork"], order="sample")


def test_sync_and_async_vector_environments_step_alike() -> None:
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

    actions = np.array([[3, 1, 0], [2, 4, 3], [0, 0, 1]] * 5)
    runs = []
    for kind in (SyncVectorEnv, AsyncVectorEnv):
        vector = kind([make_levels_env] * 3)
        observations, infos = vector.reset(seed=3)
        steps = [(observations.copy(), list(infos["level"]))]
        for batch in actions:
            observations, rewards, terminated, truncated, infos = vector.step(batch)
            assert terminated.shape == truncated.shape == (3,)
            steps.append((observations.copy(), rewards.tolist()))
        vector.close()
        assert observations.shape[0] == 3
        assert observations.shape[1:] == make_levels_env().observation_space.shape
        runs.append(steps)
    sync, asynchronous = runs
    assert len(sync) == len(asynchronous) == 16
    for (a, extra_a), (b, extra_b) in zip(sync, asynchronous, strict=True):
        assert np.array_equal(a, b) and extra_a == extra_b


def test_a_single_level_environment_names_its_level_when_asked_for_an_unknown_one() -> None:
    env = MiauLevelEnv("tutorial", "walls")
    assert env.reset(options={"level": "walls"})[1]["level"] == "tutorial/walls"
    with pytest.raises(
        LookupError, match="no level 'first-steps' in this environment's set \\(walls"
    ):
        env.reset(options={"level": "first-steps"})
