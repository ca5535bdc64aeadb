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
    "everything": ("ALL IS WIN", None),
    "words-walk": ("TEXT IS YOU", None),
    "everyone-else": ("NOT MIAU IS WIN", None),
    "eye-contact": ("MIAU FACING FLAG IS WIN", None),
    "both": ("MIAU ON ROCK AND NEAR FLAG IS WIN", None),
    "anything-but": ("MIAU ON NOT FLAG IS WIN", None),
    "company": ("LONELY SKULL IS DEFEAT", None),
    "the-whole-level": ("LEVEL IS WIN", None),
    "out-of-nothing": ("EMPTY IS FLAG", None),
    "clean-sweep": ("WALL IS EMPTY", "empty"),
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
    "everything": 6,
    "words-walk": 5,
    "everyone-else": 12,
    "eye-contact": 9,
    "both": 11,
    "anything-but": 6,
    "company": 12,
    "the-whole-level": 14,
    "out-of-nothing": 14,
    "clean-sweep": 11,
}


def level(level_id: str) -> PackLevel:
    return PACK.level(level_id)


def played(level_id: str) -> tuple[Game, list[dict[str, Any]]]:
    found = level(level_id)
    assert found.solution is not None
    game = Game(found.data)
    return game, [event.to_json() for event in game.play(found.solution)]


def final_entities(game: Game) -> list[dict[str, Any]]:
    entities: list[dict[str, Any]] = game.state.to_json()["entities"]
    return entities


def objects_at(game: Game, x: int, y: int) -> list[str]:
    """The nouns of the objects (not words) in cell ``(x, y)`` at the end."""
    return [
        e["noun"]
        for e in final_entities(game)
        if e["kind"] == "object" and (e["x"], e["y"]) == (x, y)
    ]


def flag_cells(game: Game) -> set[tuple[int, int]]:
    return {(e["x"], e["y"]) for e in final_entities(game) if e.get("noun") == "FLAG"}


def the_cat(game: Game) -> dict[str, Any]:
    (cat,) = [e for e in final_entities(game) if e.get("noun") == "MIAU"]
    return cat


def rule_text(rule: dict[str, Any]) -> str:
    return str(rule.get("text") or f"{rule['subject']} IS {rule['predicate']}")


def test_the_world_loads_without_warnings_with_the_tier_one_feature_only() -> None:
    assert PACK.warnings == ()
    assert PACK.manifest.features == ("vocabulary-1",)
    assert len(PACK.levels) >= 19
    assert set(LEVEL_IDS) == set(LESSONS) == set(SOLUTION_LENGTHS)


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_wins_on_its_last_move(level_id: str) -> None:
    game, events = played(level_id)
    assert all(event["accepted"] for event in events)
    assert game.won
    assert not any(event["won"] for event in events[:-1])


@pytest.mark.slow
@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_stored_solution_is_a_shortest_win(level_id: str) -> None:
    found = level(level_id)
    result = solve(found.data, max_expansions=found.solver_max or 300_000)
    assert result.outcome is Outcome.SOLVED
    assert result.moves is not None
    assert len(result.moves) == len(found.solution or "") == SOLUTION_LENGTHS[level_id]


@pytest.mark.slow
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


def test_the_new_words_come_after_the_words_they_build_on() -> None:
    position = {level_id: index for index, level_id in enumerate(LEVEL_IDS)}
    assert position["not-stop"] < position["everyone-else"] < position["anything-but"]
    assert position["on-the-rock"] < position["both"] < position["anything-but"]
    assert position["near-enough"] < position["both"]
    assert position["weak-spot"] < position["company"]


def test_everything_the_cat_wins_by_itself_away_from_the_sealed_flag() -> None:
    game, _ = played("everything")
    cat = the_cat(game)
    assert objects_at(game, cat["x"], cat["y"]) == ["MIAU"]
    assert game.won


def test_words_walk_a_word_walks_onto_the_flag_the_cat_cannot_reach() -> None:
    game, events = played("words-walk")
    last = events[-1]["moved"]
    words = {e["id"]: e["text"] for e in final_entities(game) if e["kind"] == "word"}
    on_flag = [m for m in last if m["id"] in words and tuple(m["to"]) in flag_cells(game)]
    assert [words[m["id"]] for m in on_flag] == ["ROCK"]
    cat = the_cat(game)
    assert "FLAG" not in objects_at(game, cat["x"], cat["y"])


def test_everyone_else_the_rule_names_every_object_but_the_cat_and_the_flag_counts() -> None:
    game, events = played("everyone-else")
    (rule,) = [r for event in events for r in event["rulesAdded"] if r["predicate"] == "WIN"]
    assert rule["subjectNot"] is True and rule["subject"] == "MIAU"
    cat = the_cat(game)
    assert sorted(objects_at(game, cat["x"], cat["y"])) == ["FLAG", "MIAU"]


def test_eye_contact_the_cat_wins_looking_at_the_flag_it_cannot_stand_on() -> None:
    game, _ = played("eye-contact")
    cat = the_cat(game)
    step = {"right": (1, 0), "down": (0, 1), "left": (-1, 0), "up": (0, -1)}[cat["facing"]]
    assert (cat["x"] + step[0], cat["y"] + step[1]) in flag_cells(game)
    assert "FLAG" not in objects_at(game, cat["x"], cat["y"])


def test_both_only_the_rock_next_to_the_flag_will_do() -> None:
    game, _ = played("both")
    cat = the_cat(game)
    assert "ROCK" in objects_at(game, cat["x"], cat["y"])
    (flag,) = flag_cells(game)
    assert max(abs(cat["x"] - flag[0]), abs(cat["y"] - flag[1])) == 1
    rocks = [e for e in final_entities(game) if e.get("noun") == "ROCK"]
    assert any(max(abs(r["x"] - flag[0]), abs(r["y"] - flag[1])) > 1 for r in rocks)


def test_anything_but_the_cat_wins_on_a_rock_with_the_flag_sealed_off() -> None:
    game, _ = played("anything-but")
    cat = the_cat(game)
    assert sorted(objects_at(game, cat["x"], cat["y"])) == ["MIAU", "ROCK"]


def test_company_the_cat_walks_through_a_skull_that_is_no_longer_lonely() -> None:
    game, events = played("company")
    skulls = {(e["x"], e["y"]) for e in final_entities(game) if e.get("noun") == "SKULL"}
    cat_moves = [m for event in events for m in event["moved"] if m["id"] == the_cat(game)["id"]]
    assert any(tuple(m["to"]) in skulls for m in cat_moves)
    assert not any(event["destroyed"] or event["controlLost"] for event in events)


def test_out_of_nothing_the_cat_wins_on_a_flag_made_in_an_empty_cell() -> None:
    game, events = played("out-of-nothing")
    made = {tuple(c["at"]) for event in events for c in event["created"] if c["noun"] == "FLAG"}
    cat = the_cat(game)
    assert (cat["x"], cat["y"]) in made
    sealed = {
        (e["x"], e["y"]) for e in level("out-of-nothing").data["objects"] if e.get("noun") == "FLAG"
    }
    assert (cat["x"], cat["y"]) not in sealed


def test_clean_sweep_the_walls_turn_into_nothing_while_flag_is_win_stands() -> None:
    game, events = played("clean-sweep")
    removed = [d for event in events for d in event["destroyed"]]
    assert {d["noun"] for d in removed} == {"WALL"} and {d["cause"] for d in removed} == {"empty"}
    assert not any(r["subject"] == "FLAG" for event in events for r in event["rulesRemoved"])
    assert "FLAG" in objects_at(game, the_cat(game)["x"], the_cat(game)["y"])
