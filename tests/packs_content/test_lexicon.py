"""Content checks for ``packs/lexicon.json``, the world that teaches the Tier-1 words.

Every stored solution wins on its last move and is a shortest win; no level
can be won without a word moving; and each level's solution forms the rule
that is its lesson and shows the word at work (the cause of a destruction,
the spawned thing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game
from miau.packs import PackLevel, load_pack
from miau.solver import Outcome, solve

LEXICON = Path(__file__).resolve().parents[2] / "packs" / "lexicon.json"
PACK = load_pack(LEXICON)
LEVEL_IDS = [level.id for level in PACK.levels]

LESSONS: dict[str, tuple[str, str | None]] = {
    "walk-out": ("FLAG IS MOVE", None),
    "stepping-stone": ("ROCK IS MOVE", "sink"),
    "conveyor": ("BELT IS SHIFT", "sink"),
    "pull-out": ("BOX IS PULL", None),
    "thaw": ("ICE IS MELT", "melt"),
    "weak-spot": ("SKULL IS WEAK", "weak"),
    "key": ("KEY IS OPEN", "open"),
    "inheritance": ("ROCK HAS FLAG", "sink"),
    "afloat": ("MIAU IS FLOAT", None),
    "not-stop": ("WALL IS NOT STOP", None),
    "on-the-rock": ("MIAU ON ROCK IS WIN", None),
    "near-enough": ("MIAU NEAR FLAG IS WIN", None),
}
"""For each level: the rule its solution must form, and the cause of destruction it must show."""

SOLUTION_LENGTHS = {
    "walk-out": 13,
    "stepping-stone": 8,
    "conveyor": 7,
    "pull-out": 15,
    "thaw": 7,
    "weak-spot": 7,
    "key": 17,
    "inheritance": 9,
    "afloat": 8,
    "not-stop": 13,
    "on-the-rock": 12,
    "near-enough": 10,
}


def level(level_id: str) -> PackLevel:
    return PACK.level(level_id)


def played(level_id: str) -> tuple[Game, list[dict[str, Any]]]:
    found = level(level_id)
    assert found.solution is not None
    game = Game(found.data)
    return game, [event.to_json() for event in game.play(found.solution)]


def rule_text(rule: dict[str, Any]) -> str:
    return str(rule.get("text") or f"{rule['subject']} IS {rule['predicate']}")


def test_the_world_loads_without_warnings_with_the_tier_one_feature_only() -> None:
    assert PACK.warnings == ()
    assert PACK.manifest.features == ("vocabulary-1",)
    assert len(PACK.levels) >= 12
    assert set(LEVEL_IDS) == set(LESSONS) == set(SOLUTION_LENGTHS)


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_wins_on_its_last_move(level_id: str) -> None:
    game, events = played(level_id)
    assert all(event["accepted"] for event in events)
    assert game.won
    assert not any(event["won"] for event in events[:-1])


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_is_a_shortest_win(level_id: str) -> None:
    found = level(level_id)
    result = solve(found.data, max_expansions=found.solver_max or 300_000)
    assert result.outcome is Outcome.SOLVED
    assert result.moves is not None
    assert len(result.moves) == len(found.solution or "") == SOLUTION_LENGTHS[level_id]


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_no_level_can_be_won_without_a_word_moving(level_id: str) -> None:
    found = level(level_id)
    result = solve(found.data, max_expansions=found.solver_max or 300_000, hands_off=True)
    assert result.outcome is Outcome.UNSOLVABLE


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_solution_forms_the_lesson_rule_and_shows_the_word_at_work(level_id: str) -> None:
    rule, cause = LESSONS[level_id]
    _, events = played(level_id)
    added = [rule_text(added) for event in events for added in event["rulesAdded"]]
    assert rule in added
    causes = {destroyed["cause"] for event in events for destroyed in event["destroyed"]}
    if cause is not None:
        assert cause in causes


def test_inheritance_the_sunken_rock_leaves_the_flag_you_win_on() -> None:
    _, events = played("inheritance")
    spawned = [entry for event in events for entry in event.get("spawned", [])]
    assert [entry["noun"] for entry in spawned] == ["FLAG"]
    last_move = events[-1]["moved"][0]["to"]
    assert last_move == spawned[0]["at"]


def test_weak_spot_the_skull_breaks_before_it_can_defeat_the_cat() -> None:
    game, events = played("weak-spot")
    causes = [d["cause"] for event in events for d in event["destroyed"]]
    assert causes == ["weak"]
    assert game.won and not any(event["controlLost"] for event in events)
