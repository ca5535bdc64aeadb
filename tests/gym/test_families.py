"""Procedural task families: every drawn level is winnable, and seeds repeat levels and trajectories."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.cli import main
from miau.engine import Game, parse_moves
from miau.gym import ACTIONS, FAMILIES, FAMILY_IDS, FamilyError, MiauFamilyEnv
from miau.solver import Outcome, solve

ACTION_OF_LETTER = {"U": "up", "D": "down", "L": "left", "R": "right", "W": "wait"}


@pytest.mark.slow  # each draw is solved: seconds, not milliseconds
@settings(max_examples=8, deadline=None)
@given(family=st.sampled_from(sorted(FAMILIES)), seed=st.integers(0, 2**32 - 1))
def test_every_drawn_level_is_won_by_its_shortest_solution_played_through_the_environment(
    family: str, seed: int
) -> None:
    env = MiauFamilyEnv(family)
    _, info = env.reset(seed=seed)
    entry = env.entry
    assert entry.solution is not None and info["shortest"] == len(entry.solution)
    assert solve(entry.level).moves is not None  # the engine's own level, solved again
    terminated = False
    for letter in entry.solution:
        _, _, terminated, _, info = env.step(ACTIONS.index(ACTION_OF_LETTER[letter]))
    assert terminated and info["is_success"]


@pytest.mark.slow  # each draw is solved: seconds, not milliseconds
@settings(max_examples=6, deadline=None)
@given(
    family=st.sampled_from(sorted(FAMILIES)),
    seed=st.integers(0, 2**32 - 1),
    actions=st.lists(st.integers(0, len(ACTIONS) - 1), min_size=1, max_size=40),
)
def test_identical_seeds_give_identical_levels_and_trajectories(
    family: str, seed: int, actions: list[int]
) -> None:
    runs: list[list[Any]] = []
    for _ in range(2):
        env = gymnasium.make(FAMILY_ID_OF[family], max_steps=15)
        observation, info = env.reset(seed=seed)
        run: list[Any] = [observation.tobytes(), info]
        for action in actions:
            observation, reward, terminated, truncated, info = env.step(action)
            run.append((observation.tobytes(), reward, terminated, truncated, info))
            if terminated or truncated:
                observation, info = env.reset()  # the next level comes from the same generator
                run.append((observation.tobytes(), info))
        runs.append(run)
    assert runs[0] == runs[1]


FAMILY_ID_OF = {family: env_id for env_id, family in FAMILY_IDS.items()}


def test_a_shortest_solution_is_proved_shortest_by_a_search_with_a_larger_budget() -> None:
    env = MiauFamilyEnv("make-win")
    env.reset(seed=11)
    result = solve(env.entry.level, max_expansions=200_000)
    assert result.outcome is Outcome.SOLVED and result.shortest
    assert len(result.moves or "") == env.entry.shortest


def test_different_seeds_draw_different_levels() -> None:
    env = MiauFamilyEnv("goto-win")
    names = {env.reset(seed=seed)[1]["level"] for seed in range(8)}
    assert len(names) > 4


@pytest.mark.slow  # each draw is solved: seconds, not milliseconds
@pytest.mark.parametrize("env_id", ["miau/Family-v0", *FAMILY_IDS])
def test_each_family_passes_the_gymnasium_checker(env_id: str) -> None:
    check_env(gymnasium.make(env_id).unwrapped)


def test_the_family_parameters_shape_the_drawn_levels() -> None:
    env = MiauFamilyEnv("goto-win", width=10, height=7, distractor_objects=5, distractor_rules=2)
    observation, info = env.reset(seed=3)
    assert observation.shape[1:] == (7, 10)
    level = env.entry.level
    assert (level.width, level.height) == (10, 7)
    things = [text for text, word in zip(level.texts, level.is_word, strict=True) if not word]
    assert len(things) == 2 + 5  # the cat, the goal and the distractors
    assert len(info["rules"]) == 2 + 2


@pytest.mark.slow  # each draw is solved: seconds, not milliseconds
def test_a_vector_environment_over_a_family_steps_every_copy() -> None:
    vector = SyncVectorEnv([lambda: gymnasium.make("miau/MakeWin-v0")] * 3)
    observations, infos = vector.reset(seed=5)
    assert observations.shape[0] == 3 and len(set(infos["level"])) == 3
    observations, rewards, *_ = vector.step(np.array([0, 1, 2]))
    assert observations.shape[0] == 3 and rewards.shape == (3,)
    vector.close()


def test_an_unknown_family_or_parameter_is_a_clear_error() -> None:
    with pytest.raises(FamilyError, match="no task family 'maze'; the families are goto-win"):
        MiauFamilyEnv("maze")
    with pytest.raises(FamilyError, match="width must be a whole number from 6 to 24"):
        MiauFamilyEnv("goto-win", width=3)


def test_a_family_that_cannot_be_won_within_its_budget_gives_up_with_the_reason() -> None:
    env = MiauFamilyEnv("make-win", max_expansions=1, max_draws=3)
    with pytest.raises(FamilyError, match="no winnable level in 3 draws"):
        env.reset(seed=0)


def test_miau_bench_scores_the_solver_on_family_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "solver", "family:break-stop:2", "--no-shortest"]) == 0
    out = capsys.readouterr().out
    assert out.count("| break-stop/") == 2
    assert "solved 2/2" in out


def test_a_drawn_solution_replays_on_a_fresh_game() -> None:
    env = MiauFamilyEnv("break-stop")
    env.reset(seed=1)
    game = Game(env.entry.level)
    events = [game.step(intent) for intent in parse_moves(env.entry.solution or "")]
    assert events[-1].won
