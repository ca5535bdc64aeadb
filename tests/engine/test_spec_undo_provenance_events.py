"""Spec requirements 5 to 7: undo and reset, rule provenance, settled turn events."""

from __future__ import annotations

from typing import Any

from miau.engine import Game
from tests.engine.builders import level, rule_pairs, sentence, state_json, thing, word


def _edit_level() -> Game:
    return Game(
        level(
            5,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("WALL IS STOP", 1, 1),
            thing("MIAU", 3, 2),
            thing("WALL", 0, 3),
        )
    )


def test_undo_restores_a_rule_edit() -> None:
    game = _edit_level()
    before = state_json(game)
    assert game.step("up").to_json()["rulesRemoved"]
    assert state_json(game) != before
    assert game.undo().to_json()["accepted"] is True
    assert state_json(game) == before
    assert ("WALL", "STOP") in rule_pairs(game)


def test_undo_with_no_history_is_harmless() -> None:
    game = _edit_level()
    before = state_json(game)
    event = game.undo().to_json()
    assert event["kind"] == "undo"
    assert event["accepted"] is False
    assert state_json(game) == before


def test_reset_returns_to_the_level_start() -> None:
    game = Game(
        level(
            6,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("ROCK IS", 0, 1),
            word("FLAG", 3, 2),
            sentence("FLAG IS WIN", 3, 3),
            thing("MIAU", 4, 2),
            thing("ROCK", 0, 3),
        )
    )
    fresh = state_json(game)
    game.step("left")
    game.step("up")
    game.step("left")
    assert state_json(game)["moveCount"] == 3
    event = game.reset().to_json()
    assert event["kind"] == "reset"
    assert event["moveCount"] == 0
    assert event["won"] is False
    state = state_json(game)
    assert state == fresh
    assert state["history"] == []
    assert game.undo().to_json()["accepted"] is False


def test_a_horizontal_sentence_reports_its_source() -> None:
    game = Game(level(4, 2, thing("MIAU", 3, 1), sentence("MIAU IS YOU", 0, 0)))
    state = state_json(game)
    assert state["rules"] == [
        {"subject": "MIAU", "predicate": "YOU", "sourceIds": [1, 2, 3], "axis": "h"}
    ]
    assert state["sentences"] == [{"ids": [1, 2, 3], "axis": "h"}]


def test_a_vertical_sentence_reports_its_source() -> None:
    game = Game(level(2, 3, sentence("ROCK IS PUSH", 1, 0, axis="v")))
    state = state_json(game)
    assert state["rules"] == [
        {"subject": "ROCK", "predicate": "PUSH", "sourceIds": [0, 1, 2], "axis": "v"}
    ]
    assert state["sentences"] == [{"ids": [0, 1, 2], "axis": "v"}]


def test_exact_duplicate_sentences_remain_physical_spans() -> None:
    game = Game(level(4, 3, sentence("MIAU IS YOU", 0, 2), sentence("MIAU IS YOU", 0, 0)))
    state = state_json(game)
    # Span order is by place (row, then column), so the upper copy comes first.
    assert state["sentences"] == [
        {"ids": [3, 4, 5], "axis": "h"},
        {"ids": [0, 1, 2], "axis": "h"},
    ]
    assert state["rules"] == [
        {"subject": "MIAU", "predicate": "YOU", "sourceIds": [3, 4, 5], "axis": "h"}
    ]


def test_strict_subsets_are_removed() -> None:
    game = Game(level(6, 2, sentence("MIAU AND ROCK IS YOU", 0, 0), sentence("ROCK IS PUSH", 0, 1)))
    state = state_json(game)
    assert state["sentences"] == [
        {"ids": [0, 1, 2, 3, 4], "axis": "h"},
        {"ids": [5, 6, 7], "axis": "h"},
    ]
    assert rule_pairs(game) == [("MIAU", "YOU"), ("ROCK", "YOU"), ("ROCK", "PUSH")]


def test_stacked_words_create_separate_spans() -> None:
    game = Game(level(3, 1, word("MIAU", 0, 0), word("ROCK", 0, 0), sentence("IS YOU", 1, 0)))
    state = state_json(game)
    assert state["sentences"] == [{"ids": [0, 2, 3], "axis": "h"}, {"ids": [1, 2, 3], "axis": "h"}]
    assert rule_pairs(game) == [("MIAU", "YOU"), ("ROCK", "YOU")]


def test_breaking_a_rule_produces_a_rule_delta() -> None:
    game = _edit_level()
    event = game.step("up").to_json()
    assert event["moved"] == [
        {"id": 6, "from": [3, 2], "to": [3, 1], "pushedBy": None, "facing": "up"},
        {"id": 5, "from": [3, 1], "to": [3, 0], "pushedBy": 6, "facing": "up"},
    ]
    assert event["rulesRemoved"] == [
        {"subject": "WALL", "predicate": "STOP", "sourceIds": [3, 4, 5], "axis": "h"}
    ]
    assert event["rulesAdded"] == []


def test_a_blocked_push_produces_no_state_change() -> None:
    game = Game(
        level(
            5,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("WALL IS STOP", 0, 1),
            thing("WALL", 4, 2),
            thing("MIAU", 2, 2),
            word("ROCK", 3, 2),
        )
    )
    before = state_json(game)
    event = game.step("right").to_json()
    assert event["kind"] == "step"
    assert event["accepted"] is False
    assert event["blocked"] == [{"id": 7, "dir": [1, 0], "blockerId": 6, "reason": "stop"}]
    assert event["moved"] == []
    assert event["moveCount"] == 0
    assert state_json(game) == before
    assert not game.can_undo


def test_undo_reports_a_restored_state() -> None:
    game = _edit_level()
    game.step("up")
    event = game.undo().to_json()
    assert event["kind"] == "undo"
    assert event["accepted"] is True
    assert event["moved"] == [
        {"id": 5, "from": [3, 0], "to": [3, 1], "pushedBy": None, "facing": "right"},
        {"id": 6, "from": [3, 1], "to": [3, 2], "pushedBy": None, "facing": "right"},
    ]
    assert event["rulesAdded"] == [
        {"subject": "WALL", "predicate": "STOP", "sourceIds": [3, 4, 5], "axis": "h"}
    ]
    assert event["rulesRemoved"] == []
    assert event["controlLost"] is False
    assert event["won"] is False
    assert event["moveCount"] == 0


def test_contact_destruction_includes_presentation_details() -> None:
    game = Game(
        level(
            6,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("LAVA IS DEFEAT", 0, 1),
            sentence("POND IS SINK", 0, 2),
            thing("LAVA", 1, 3),
            thing("POND", 4, 3),
            thing("MIAU", 0, 3),
            word("ROCK", 3, 3),
            thing("MIAU", 2, 3),
        )
    )
    # Front-first: the MIAU at x=2 pushes ROCK into the pond, then the other walks into lava.
    event = game.step("right").to_json()
    assert event["destroyed"] == [
        {"id": 10, "noun": "POND", "at": [4, 3], "cause": "sink"},
        {"id": 12, "text": "ROCK", "at": [4, 3], "cause": "sink"},
        {"id": 11, "noun": "MIAU", "at": [1, 3], "cause": "defeat"},
    ]


def test_control_loss_is_explicit() -> None:
    game = Game(
        level(
            4,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("LAVA IS DEFEAT", 0, 1),
            thing("MIAU", 0, 2),
            thing("LAVA", 1, 2),
        )
    )
    event = game.step("right").to_json()
    assert event["controlLost"] is True
    state = state_json(game)
    assert state["controlLost"] is True
    assert [e["id"] for e in state["entities"]] == [0, 1, 2, 3, 4, 5, 7]
    assert game.step("left").to_json()["accepted"] is False
    assert game.wait().to_json()["accepted"] is True


def test_event_arrays_preserve_resolution_order() -> None:
    game = Game(
        level(
            7,
            6,
            sentence("MIAU IS YOU", 0, 0),
            sentence("FLAG IS WIN", 0, 1),
            sentence("WATER IS SINK", 0, 2),
            sentence("ROCK IS", 0, 3),
            word("FLAG", 3, 3),
            thing("MIAU", 4, 3),
            thing("ROCK", 5, 5),
            thing("MIAU", 6, 5),
            thing("WATER", 5, 4),
            thing("MIAU", 6, 4),
        )
    )
    event: dict[str, Any] = game.step("left").to_json()
    assert [(m["id"], m["pushedBy"]) for m in event["moved"]] == [
        (12, None),
        (11, 12),
        (14, None),
        (16, None),
    ]
    assert event["transformed"] == [{"id": 13, "from": "ROCK", "to": "FLAG"}]
    assert event["destroyed"] == [
        {"id": 15, "noun": "WATER", "at": [5, 4], "cause": "sink"},
        {"id": 16, "noun": "MIAU", "at": [5, 4], "cause": "sink"},
    ]
    assert event["rulesAdded"] == [
        {"subject": "ROCK", "predicate": "FLAG", "sourceIds": [9, 10, 11], "axis": "h"}
    ]
    assert event["won"] is True
    assert list(event) == [
        "kind",
        "accepted",
        "moved",
        "blocked",
        "rulesAdded",
        "rulesRemoved",
        "transformed",
        "destroyed",
        "restored",
        "controlLost",
        "won",
        "moveCount",
        "reason",
        "sentencesFormed",
        "sentencesBroken",
        "rules",
        "automata",
        "historyLength",
    ]
