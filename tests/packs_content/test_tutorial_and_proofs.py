"""Content checks for the shipped packs ``packs/tutorial.json`` and ``packs/proofs.json``.

Every level's stored solution must win, and be a shortest win; levels that
teach rule editing must not be winnable without pushing a word; the proof
levels must show the spec scenario they are named after.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game, parse_moves, replay
from miau.packs import Pack, PackLevel, load_pack
from miau.solver import Outcome, solve

PACKS = Path(__file__).resolve().parents[2] / "packs"
TUTORIAL = PACKS / "tutorial.json"
PROOFS = PACKS / "proofs.json"

RULE_EDITING = {
    TUTORIAL: (
        "break-the-wall",
        "spell-it",
        "borrow-a-word",
        "and",
        "rock-is-flag",
        "skull-gate",
        "be-the-flag",
        "crossword",
        "sunken-word",
        "through-the-wall",
    ),
    PROOFS: ("proof-01", "proof-02", "proof-04", "proof-07", "proof-08", "proof-09"),
}
"""Levels whose lesson is editing a rule: they must need a word to move."""


def _level_ids(path: Path) -> list[str]:
    # Read the ids with plain json so that collection works even if the pack is broken.
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [str(level["id"]) for level in raw["levels"]]


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
    assert len(levels) >= 12
    assert tiers.count("challenge") >= 2
    assert tiers.count("required") >= len(levels) // 2
    assert all(level.hint for level in levels), "every level has a hint"


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
