"""Content checks for the shipped packs ``packs/tutorial.json`` and ``packs/proofs.json``.

Every level's stored solution must win, and be a shortest win; levels that
teach rule editing must not be winnable without pushing a word; First Steps
has no walk after its second level, short required levels, deep challenges
and two hints a level; the proof levels must show the spec scenario they are
named after.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game, parse_moves, replay
from miau.engine.level import Level
from miau.packs import Pack, PackLevel, load_pack
from miau.solver import Outcome, solve
from miau.solver.depth import depth_profile, rule_changes_along

PACKS = Path(__file__).resolve().parents[2] / "packs"
TUTORIAL = PACKS / "tutorial.json"
PROOFS = PACKS / "proofs.json"

WALKS_ALLOWED = 2
"""First Steps may open with this many walks (YOU and WIN, then STOP and PUSH); no more."""

LONGEST_REQUIRED = 25
"""The most moves a required First Steps level may take: the thinking is the point, not the walking."""


def _level_ids(path: Path) -> list[str]:
    # Read the ids with plain json so that collection works even if the pack is broken.
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [str(level["id"]) for level in raw["levels"]]


RULE_EDITING = {
    TUTORIAL: tuple(_level_ids(TUTORIAL)[WALKS_ALLOWED:]),
    PROOFS: ("proof-01", "proof-02", "proof-04", "proof-07", "proof-08", "proof-09"),
}
"""Levels whose lesson is editing a rule: they must need a word to move."""


_CASES = [
    pytest.param(path, level_id, id=level_id)
    for path in (TUTORIAL, PROOFS)
    for level_id in _level_ids(path)
]


def _pack(path: Path) -> Pack:
    return load_pack(path)


def _level(path: Path, level_id: str) -> PackLevel:
    return _pack(path).level(level_id)


def _data(level: PackLevel) -> Mapping[str, Any]:
    return level.data


def _solution(level: PackLevel) -> str:
    assert level.solution, f"{level.id} has no stored solution"
    return level.solution


@pytest.mark.parametrize(("path", "level_id"), _CASES)
def test_solution_wins(path: Path, level_id: str) -> None:
    level = _level(path, level_id)
    game = Game(_data(level))
    events = game.play(_solution(level))
    assert all(event.accepted for event in events), "every move of the solution is taken"
    assert game.won
    assert events[-1].to_json()["won"] is True
    assert not any(event.won for event in events[:-1]), "the solution wins on its last move"


@pytest.mark.slow
@pytest.mark.parametrize(("path", "level_id"), _CASES)
def test_solution_is_shortest(path: Path, level_id: str) -> None:
    level = _level(path, level_id)
    result = solve(_data(level))
    assert result.outcome is Outcome.SOLVED
    assert result.moves is not None
    assert len(_solution(level)) == len(result.moves)


@pytest.mark.parametrize(
    ("path", "level_id"),
    [
        pytest.param(path, level_id, id=level_id)
        for path, level_ids in RULE_EDITING.items()
        for level_id in level_ids
    ],
)
def test_rule_editing_level_needs_a_word_push(path: Path, level_id: str) -> None:
    result = solve(_data(_level(path, level_id)), hands_off=True)
    assert result.outcome is Outcome.UNSOLVABLE


def test_tutorial_size_and_tiers() -> None:
    levels = _pack(TUTORIAL).levels
    tiers = [level.tier for level in levels]
    assert 12 <= len(levels) <= 18
    assert tiers.count("challenge") >= 2
    assert tiers.count("optional") >= 1
    assert tiers.count("required") >= len(levels) // 2
    assert [level.tier for level in levels[:WALKS_ALLOWED]] == ["required"] * WALKS_ALLOWED


def test_every_first_steps_level_has_a_nudge_and_a_plainer_second_hint() -> None:
    for level in _pack(TUTORIAL).levels:
        assert len(level.hints) >= 2, level.id
        nudge, plainer = level.hints[:2]
        assert nudge != plainer, level.id


@pytest.mark.parametrize("level_id", _level_ids(TUTORIAL)[WALKS_ALLOWED:])
def test_no_first_steps_level_after_the_second_is_won_without_a_rule_change(
    level_id: str,
) -> None:
    # The stored solution is a shortest one (test_solution_is_shortest); the
    # rule changes are counted as the depth profile counts them.
    level = _level(TUTORIAL, level_id)
    changes = rule_changes_along(Level.from_dict(_data(level)), _solution(level))
    assert changes.by_player >= 1, (changes.formed, changes.broken)


LESSONS = {
    "rock-in-the-way": ((), ("ROCK IS PUSH",)),
    "break-and-mend": (("FLAG IS WIN",), ("FLAG IS WIN",)),
    "be-the-rock": (("ROCK IS YOU",), ("MIAU IS YOU",)),
    "be-the-flag": (("MIAU IS WIN",), ()),
    "walls-into-flags": (("WALL IS FLAG",), ("WALL IS STOP",)),
    "sink-the-rock": (("ROCK IS PUSH",), ("ROCK IS STOP",)),
    "skulls-and-water": ((), ("SKULL IS DEFEAT",)),
}
"""The rules each level that turns a lesson around forms and breaks on its stored solution."""


@pytest.mark.parametrize(("level_id", "lesson"), LESSONS.items())
def test_a_level_that_turns_a_lesson_around_is_solved_through_it(
    level_id: str, lesson: tuple[tuple[str, ...], tuple[str, ...]]
) -> None:
    level = _level(TUTORIAL, level_id)
    changes = rule_changes_along(Level.from_dict(_data(level)), _solution(level))
    assert (changes.formed, changes.broken) == lesson


def test_sink_the_rock_sinks_the_rock_and_the_water_together() -> None:
    level = _level(TUTORIAL, "sink-the-rock")
    events = Game(_data(level)).play(_solution(level))
    sunk = [entry for event in events for entry in event.to_json()["destroyed"]]
    assert {(entry.get("noun"), entry["cause"]) for entry in sunk} == {
        ("ROCK", "sink"),
        ("WATER", "sink"),
    }


def test_in_skulls_and_water_the_loose_word_fills_the_water() -> None:
    level = _level(TUTORIAL, "skulls-and-water")
    events = Game(_data(level)).play(_solution(level))
    sunk = [entry for event in events for entry in event.to_json()["destroyed"]]
    assert {entry.get("text") or entry.get("noun") for entry in sunk} == {"DEFEAT", "WATER"}


def test_in_rock_in_the_way_pushing_the_rock_jams_it() -> None:
    # Down twice pushes the rock onto the flag and then against the wall: the
    # cat never gets there while ROCK IS PUSH holds.
    level = _level(TUTORIAL, "rock-in-the-way")
    game = Game(_data(level))
    assert all(event.accepted for event in game.play("LDDD"))
    jammed = game.step("down")
    assert not jammed.accepted
    assert jammed.to_json()["blocked"][0]["reason"] == "stop"
    assert not game.won


@pytest.mark.parametrize(
    "level_id", [level.id for level in load_pack(TUTORIAL).levels if level.tier == "required"]
)
def test_every_required_first_steps_level_is_short(level_id: str) -> None:
    assert len(_solution(_level(TUTORIAL, level_id))) <= LONGEST_REQUIRED


@pytest.mark.slow
@pytest.mark.parametrize(
    "level_id", [level.id for level in load_pack(TUTORIAL).levels if level.tier == "challenge"]
)
def test_every_first_steps_challenge_is_deep(level_id: str) -> None:
    profile = depth_profile(_data(_level(TUTORIAL, level_id)))
    assert profile.tier >= 3, (profile.depth, profile.tier_name)
    assert profile.rule_changes >= 1


def test_proof_03_self_win() -> None:
    level = _level(PROOFS, "proof-03")
    game = Game(_data(level))
    moves = _solution(level)
    miaus = [i for i, e in enumerate(game.state.to_json()["entities"]) if e.get("noun") == "MIAU"]
    assert len(miaus) == 1

    def miau_rules() -> set[str]:
        return {rule.predicate for rule in game.state.rules if rule.subject == "MIAU"}

    # The rule is active before the winning move; the move itself wins.
    game.play(moves[:-1])
    assert {"YOU", "WIN"} <= miau_rules()
    assert not game.won
    final = game.step(parse_moves(moves[-1])[0]).to_json()
    assert final["accepted"] is True
    assert final["won"] is True
    assert final["destroyed"] == []
    assert {"YOU", "WIN"} <= miau_rules()
    winner = miaus[0]
    assert game.state.position(winner) is not None, "the winning MIAU survives"
    assert game.state.noun(winner) == "MIAU"
    assert any(move["id"] == winner for move in final["moved"]), "MIAU made the winning move"


def test_proof_04_stop_sinks_and_rock_opens() -> None:
    level = _level(PROOFS, "proof-04")
    game = Game(_data(level))
    events = game.play(_solution(level))
    sinking = next(event.to_json() for event in events if event.destroyed)
    sunk = {
        (entry.get("text") or entry.get("noun"), entry["cause"]) for entry in sinking["destroyed"]
    }
    assert sunk == {("STOP", "sink"), ("WATER", "sink")}
    assert [(r["subject"], r["predicate"]) for r in sinking["rulesRemoved"]] == [("ROCK", "STOP")]
    rocks = {(e["x"], e["y"]) for e in game.state.to_json()["entities"] if e.get("noun") == "ROCK"}
    walked = {
        tuple(m["to"])
        for event in events
        for m in event.to_json()["moved"]
        if m["pushedBy"] is None
    }
    assert rocks & walked, "the cat walks onto a rock after STOP sank"


def test_proof_05_defeat_loses_control_and_undo_restores_it() -> None:
    level = _level(PROOFS, "proof-05")
    game = Game(_data(level))
    events = game.play("RR")
    assert events[-1].to_json()["controlLost"] is True
    assert [entry[3] for entry in events[-1].destroyed] == ["defeat"]
    assert game.undo().accepted
    assert game.state.control_lost is False
    assert replay(_data(level), _solution(level)).won


def test_proof_09_stacked_words_make_two_sentences() -> None:
    level = _level(PROOFS, "proof-09")
    game = Game(_data(level))
    game.play(_solution(level)[:1])
    keys = {(rule.subject, rule.predicate) for rule in game.state.rules}
    assert {("ROCK", "WIN"), ("FLAG", "WIN")} <= keys
    assert len([s for s in game.state.sentences if s.axis == "h"]) >= 3


def test_proof_10_push_into_wall_is_blocked() -> None:
    level = _level(PROOFS, "proof-10")
    game = Game(_data(level))
    before = game.state.to_json()
    event = game.step("right").to_json()
    assert event["accepted"] is False
    assert event["blocked"][0]["reason"] == "stop"
    assert game.state.to_json() == before
    assert replay(_data(level), _solution(level)).won
