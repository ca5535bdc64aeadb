"""The default reward cannot be gamed: losing control never pays more than running out of steps."""

from __future__ import annotations

from typing import Any

import gymnasium
import pytest

from miau.gym import ACTIONS, MiauLevelEnv, Reward
from tests.gym.conftest import one_level_pack, sentence, thing

WAIT = ACTIONS.index("wait")

# A level lost on the first move: down pushes IS out of MIAU IS YOU, and nothing is YOU.
LOST_IN_ONE = one_level_pack([*sentence("MIAU IS YOU", 0, 1), thing("MIAU", 1, 0)], 3, 3)


def play(env: gymnasium.Env[Any, Any], moves: str | None) -> tuple[float, bool, bool]:
    """The episode's total reward and how it ended: ``moves`` (letters), or waits to the end."""
    env.reset(seed=0)
    total, step = 0.0, 0
    while True:
        action = WAIT if moves is None else "UDLRW".index(moves[step])
        _, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        step += 1
        if terminated or truncated:
            return total, terminated, truncated


@pytest.mark.parametrize(
    ("make", "lose"),
    [
        pytest.param(lambda: MiauLevelEnv(LOST_IN_ONE), "D", id="lost-in-one-move"),
        pytest.param(
            lambda: gymnasium.make("miau/Level-v0", pack="tutorial", level="be-the-flag"),
            "UU",
            id="tutorial-be-the-flag",
        ),
        pytest.param(
            lambda: gymnasium.make(
                "miau/Level-v0", pack="lexicon", level="company", max_episode_steps=500
            ),
            "DD",
            id="lexicon-company-500-steps",
        ),
    ],
)
def test_losing_at_once_earns_less_than_waiting_until_the_limit(make: Any, lose: str) -> None:
    env = make()
    lost, terminated, truncated = play(env, lose)
    assert terminated and not truncated
    waited, terminated, truncated = play(env, None)
    assert truncated and not terminated
    assert lost < waited
    # By exactly the loss: the steps a loss cuts off are paid when it ends the episode.
    steps = env.unwrapped.max_steps
    reward = env.unwrapped.reward
    assert waited == pytest.approx(steps * reward.step)
    assert lost == pytest.approx(steps * reward.step + reward.loss)


@pytest.mark.parametrize("step", [-0.01, -0.1, 0.0])
def test_a_loss_on_any_step_earns_the_same_as_a_time_out_plus_the_loss(step: float) -> None:
    # Walking first, then losing: the total does not depend on when the loss comes.
    for walks in (0, 3, 7):
        env = MiauLevelEnv(LOST_IN_ONE, max_steps=10, reward={"step": step})
        total, terminated, _ = play(env, "W" * walks + "D")
        assert terminated
        assert total == pytest.approx(10 * step + Reward().loss)


def test_a_loss_on_the_last_step_pays_no_steps_beyond_the_limit() -> None:
    env = MiauLevelEnv(LOST_IN_ONE, max_steps=3)
    total, terminated, truncated = play(env, "WWD")
    assert terminated and not truncated
    assert total == pytest.approx(3 * Reward().step + Reward().loss)


def test_a_win_is_paid_as_before_a_shortest_solution_earns_one_less_its_steps() -> None:
    env = gymnasium.make("miau/Level-v0", pack="tutorial", level="first-steps")
    assert isinstance(env.unwrapped, MiauLevelEnv)
    solution = env.unwrapped.entry.solution
    assert solution is not None
    total, terminated, _ = play(env, solution)
    assert terminated
    assert total == pytest.approx(1 - 0.01 * len(solution))


def test_with_undo_actions_a_loss_ends_nothing_and_pays_only_the_loss() -> None:
    env = MiauLevelEnv(LOST_IN_ONE, undo_actions=True, max_steps=10)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(ACTIONS.index("down"))
    assert info["control_lost"] and not terminated
    assert reward == pytest.approx(Reward().step + Reward().loss)
