"""Deep End, the world of deep puzzles: every level stays above the depth thresholds.

The thresholds (docs/depth.md, issue 36): the shortest solution forms or
breaks at least three rules by the player's own pushes; the level is no
HANDS-OFF walk; its depth figure is in tier 3 ("deep") or above; and the
random and greedy baselines of ``miau bench`` lose it. So a later edit
cannot slip a walk, a one-idea level or a lucky win into the world.
(Tabular Q-learning at ``scripts/q_learning.py``'s default budget is
``benchmarks/deep_end_q_learning.py``: minutes, not a test.)
"""

from __future__ import annotations

import pytest

from miau.engine import Game
from miau.engine.level import Level
from miau.packs import PackLevel, load_pack
from miau.solver.depth import depth_profile, rule_changes_along
from miau.worlds import shipped_pack_path

DEEP_END = load_pack(shipped_pack_path("deep-end"))
LEVELS = [pytest.param(level, id=level.id) for level in DEEP_END.levels]
MINIMUM_RULE_CHANGES = 3
MINIMUM_TIER = 3  # "deep": depth 4.0 and above


def test_deep_end_has_required_optional_and_challenge_levels() -> None:
    assert {level.tier for level in DEEP_END.levels} == {"required", "optional", "challenge"}


def test_every_deep_end_level_has_a_title_and_a_hint_of_its_own() -> None:
    titles = [level.title for level in DEEP_END.levels]
    hints = [level.hint for level in DEEP_END.levels]
    assert len(set(titles)) == len(titles)
    assert all(hint for hint in hints) and len(set(hints)) == len(hints)


@pytest.mark.parametrize("level", LEVELS)
def test_the_stored_solution_of_a_deep_end_level_changes_at_least_three_rules(
    level: PackLevel,
) -> None:
    assert level.solution is not None
    game = Game(level.data)
    game.play(level.solution)
    assert game.won
    changes = rule_changes_along(Level.from_dict(level.data), level.solution)
    assert changes.by_player >= MINIMUM_RULE_CHANGES, (changes.formed, changes.broken)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_a_deep_end_level_is_above_the_depth_thresholds_and_the_baselines_lose_it(
    level: PackLevel,
) -> None:
    from miau.gym.bench import baseline_wins  # the gym extra: numpy and Gymnasium

    profile = depth_profile(level.data, baselines=baseline_wins)
    assert profile.solution == level.solution or profile.length == len(level.solution or "")
    assert profile.rule_changes >= MINIMUM_RULE_CHANGES, (
        profile.rules_formed,
        profile.rules_broken,
    )
    assert profile.hands_off is False
    assert profile.tier >= MINIMUM_TIER, profile.depth
    assert profile.baselines == {"random": False, "greedy": False}
