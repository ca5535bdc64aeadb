"""Automata on a vocabulary-1 level: the order of their phase among MOVE, SHIFT and the rest."""

from __future__ import annotations

from typing import Any

import pytest

from miau.engine import Game, Level, LevelError, replay
from miau.packs import load_pack
from miau.solver import Outcome, solve
from tests.engine.test_properties import check_undo_restores_each_step
from tests.engine.vocabulary.grid import board_level, draw


def with_clock(rows: list[str], pattern: list[str], subject: str | None = None) -> dict[str, Any]:
    """A drawn vocabulary-1 board with one automaton driven by TICK."""
    level = board_level(rows)
    record: dict[str, Any] = {"id": "clock", "property": "TICK", "pattern": pattern}
    if subject is not None:
        record["subject"] = subject
    level["automata"] = [record]
    return level


def test_move_runs_before_the_automata() -> None:
    # MOVE first: the rock meets the gear (STOP) and turns back at the edge; then the
    # gear steps right. Automata first would have let the rock follow the gear.
    level = with_clock(
        [
            "MIAU IS YOU . .",
            "GEAR IS TICK .",
            "GEAR IS STOP .",
            "ROCK IS MOVE .",
            "rock gear . . miau",
        ],
        ["R"],
    )
    game = Game(level)
    game.step("wait")
    assert draw(game)[4] == "rock< . gear> . miau>"


def test_a_rule_an_automaton_forms_transforms_in_the_same_turn() -> None:
    # Step 5 pushes KEY into ROCK IS _; step 6 reads the new rule at once.
    level = with_clock(
        ["MIAU IS YOU . .", "GEAR IS TICK . .", "ROCK IS . KEY gear", "rock . . . miau"], ["L"]
    )
    event = Game(level).step("wait").to_json()
    assert [t["to"] for t in event["transformed"]] == ["KEY"]


def test_an_automaton_moves_what_a_not_rule_gives_its_property() -> None:
    level = with_clock(
        ["MIAU IS YOU . .", "NOT MIAU IS TICK", ". . . . .", "rock . miau . ."], ["R"]
    )
    game = Game(level)
    game.step("wait")
    assert draw(game)[3] == ". rock> miau> . ."


def test_an_automaton_with_a_subject_moves_only_its_nouns() -> None:
    level = with_clock(
        ["MIAU IS YOU . .", "ALL IS TICK . .", ". . . . .", "rock gear . miau ."], ["R"], "GEAR"
    )
    game = Game(level)
    game.step("wait")
    assert draw(game)[3] == "rock> . gear> miau> ."


def test_a_level_with_automata_and_vocabulary_1_plays_undoes_and_is_solved() -> None:
    level = with_clock(
        [
            "MIAU IS YOU . . .",
            "FLAG IS WIN . . .",
            "GEAR IS TICK . .",
            "ROCK IS MOVE . .",
            "miau . rock . . flag",
            ". . gear . . .",
        ],
        ["U", "D"],
    )
    check_undo_restores_each_step(level, ["right", "wait", "down", "right", "up", "right"])
    result = solve(level, max_expansions=20_000)
    assert result.outcome is Outcome.SOLVED
    assert result.moves is not None and replay(level, result.moves).won


@pytest.mark.parametrize("field", ["property", "subject"])
def test_an_automaton_may_not_drive_a_built_in_word(field: str) -> None:
    level = with_clock(["MIAU IS YOU", "miau . ."], ["R"])
    level["automata"][0][field] = "MOVE" if field == "property" else "TEXT"
    if field == "subject":
        level["automata"][0]["property"] = "TICK"
    with pytest.raises(LevelError, match="built-in vocabulary-1 word"):
        Level.from_dict(level)


def test_a_vocabulary_1_pack_with_automata_loads_plays_its_stored_solution_and_is_solved() -> None:
    """The pack loader's path: automata and a Tier-1 word (MOVE) in one level.

    The stored solution wins only with both at work: the gear's automaton
    and the moving rock each take steps during it.
    """
    board = with_clock(
        [
            "MIAU IS YOU . . .",
            "FLAG IS WIN . . .",
            "GEAR IS TICK . .",
            "ROCK IS MOVE . .",
            "miau . rock . . flag",
            ". . gear . . .",
        ],
        ["U", "D"],
    )
    solution = solve(board, max_expansions=20_000).moves
    assert solution is not None
    level = {key: board[key] for key in ("width", "height", "objects", "automata")}
    document = {
        "manifest": {
            "id": "clock-words",
            "name": "Clock words",
            "version": "1.0.0",
            "engine": 1,
            "features": ["automata", "vocabulary-1"],
        },
        "levels": [{"id": "one", "title": "One", **level, "solution": solution}],
    }
    pack = load_pack(document)
    assert pack.warnings == ()
    loaded = pack.levels[0]
    assert loaded.data["features"] == ["vocabulary-1"] and loaded.data["automata"]
    game = Game(loaded.data)
    events = game.play(loaded.solution or "")
    assert game.won and all(event.accepted for event in events)
    ids = {e["noun"]: e["id"] for e in Game(loaded.data).state.to_json()["entities"] if "noun" in e}
    # Past the player's own moves: what MOVE and the automaton moved.
    movers = {entry[0] for event in events for entry in event.log.moved[event.log.player_moves :]}
    assert {ids["GEAR"], ids["ROCK"]} <= movers
    result = solve(loaded.data, max_expansions=20_000)
    assert result.outcome is Outcome.SOLVED and result.length == len(solution)
