"""Spec requirements 1 and 2: the stacked grid state and the rule vocabulary."""

from __future__ import annotations

from miau.engine import Game
from tests.engine.builders import level, rule_pairs, sentence, state_json, thing, word


def test_multiple_words_share_a_cell() -> None:
    game = Game(level(4, 2, word("ROCK", 0, 0), word("FLAG", 0, 0), sentence("IS PUSH", 1, 0)))
    entities = state_json(game)["entities"]
    assert [(e["id"], e["text"], e["x"], e["y"]) for e in entities[:2]] == [
        (0, "ROCK", 0, 0),
        (1, "FLAG", 0, 0),
    ]
    assert set(rule_pairs(game)) == {("ROCK", "PUSH"), ("FLAG", "PUSH")}


def test_invalid_movement_is_rejected() -> None:
    game = Game(
        level(3, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 0, 2), thing("FLAG", 1, 2))
    )
    before = state_json(game)
    for intent in ("up-left", "diagonal", (1, 1), None, 7, "UP", "down"):
        event = game.step(intent).to_json()
        assert event["kind"] == "step"
        assert event["accepted"] is False
        assert state_json(game) == before
    blocked = game.step("left").to_json()
    assert blocked["blocked"] == [{"id": 3, "dir": [-1, 0], "blockerId": None, "reason": "bounds"}]
    assert state_json(game) == before


def test_invalid_movement_is_rejected_after_the_level_is_won() -> None:
    game = Game(
        level(
            3,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("FLAG IS WIN", 0, 1),
            thing("MIAU", 0, 3),
            thing("FLAG", 1, 3),
        )
    )
    assert game.step("right").to_json()["won"] is True
    won_state = state_json(game)
    for intent in ("left", "up", "wait"):
        assert game.step(intent).to_json()["accepted"] is False
    assert game.wait().to_json()["accepted"] is False
    assert state_json(game) == won_state


def test_an_and_sentence_expands_to_multiple_properties() -> None:
    game = Game(level(5, 1, sentence("BABA IS YOU AND PUSH", 0, 0)))
    assert rule_pairs(game) == [("BABA", "YOU"), ("BABA", "PUSH")]


def test_a_moved_word_changes_the_active_rules() -> None:
    game = Game(
        level(
            5,
            4,
            sentence("WALL IS STOP", 1, 1),
            sentence("MIAU IS YOU", 0, 3),
            thing("MIAU", 3, 2),
        )
    )
    assert ("WALL", "STOP") in rule_pairs(game)
    event = game.step("up").to_json()
    assert event["accepted"] is True
    assert rule_pairs(game) == [("MIAU", "YOU")]
    assert [r["subject"] + " " + r["predicate"] for r in event["rulesRemoved"]] == ["WALL STOP"]


def test_a_malformed_line_is_ignored() -> None:
    game = Game(
        level(
            7,
            8,
            sentence("MIAU YOU", 0, 0),
            sentence("IS YOU", 0, 2),
            sentence("MIAU IS", 0, 4),
            sentence("AND IS PUSH AND", 0, 6),
            sentence("MIAU IS YOU", 6, 0, axis="v"),
            thing("MIAU", 5, 7),
        )
    )
    assert rule_pairs(game) == [("MIAU", "YOU")]
    assert game.step("left").to_json()["accepted"] is True


def _sink_level() -> Game:
    # MIAU stands above STOP of ROCK IS STOP; water waits below it; a rock to the right.
    return Game(
        level(
            5,
            5,
            thing("MIAU", 2, 0),
            sentence("ROCK IS STOP", 0, 1),
            thing("WATER", 2, 2),
            thing("ROCK", 3, 1),
            sentence("MIAU IS YOU", 0, 3),
            sentence("WATER IS SINK", 0, 4),
        )
    )


def test_sink_removes_a_rule_word() -> None:
    game = _sink_level()
    assert ("ROCK", "STOP") in rule_pairs(game)
    event = game.step("down").to_json()
    state = state_json(game)
    assert ("ROCK", "STOP") not in rule_pairs(game)
    assert all(3 not in s["ids"] for s in state["sentences"])
    assert event["rulesRemoved"] == [
        {"subject": "ROCK", "predicate": "STOP", "sourceIds": [1, 2, 3], "axis": "h"}
    ]
    assert [(d["id"], d["cause"]) for d in event["destroyed"]] == [(3, "sink"), (4, "sink")]
    onto_rock = game.step("right").to_json()
    assert onto_rock["accepted"] is True
    assert game.state.position(0) == (3, 1)


def test_contact_removal_updates_derived_control_and_automata() -> None:
    # Control: MIAU pushes its own YOU word into water.
    control = Game(
        level(
            5,
            4,
            sentence("WATER IS SINK", 0, 0),
            sentence("MIAU IS YOU", 3, 1, axis="v"),
            thing("MIAU", 2, 3),
            thing("WATER", 4, 3),
        )
    )
    before = state_json(control)
    event = control.step("right").to_json()
    assert event["controlLost"] is True
    assert state_json(control)["controlLost"] is True
    assert ("MIAU", "YOU") not in rule_pairs(control)
    assert control.undo().to_json()["controlLost"] is False
    assert state_json(control) == before
    # Automata: MIAU pushes TICK onto water, completing MOUSE IS TICK for one beat.
    clock = Game(
        level(
            6,
            5,
            sentence("WATER IS SINK", 0, 0),
            sentence("MIAU IS YOU", 0, 1),
            sentence("MOUSE IS", 0, 2),
            word("TICK", 3, 2),
            thing("MIAU", 4, 2),
            thing("WATER", 2, 2),
            thing("MOUSE", 0, 4),
            automata=[
                {"id": "pace", "subject": "MOUSE", "property": "TICK", "pattern": ["R", "L"]}
            ],
        )
    )
    start = state_json(clock)
    assert start["automata"] == [{"id": "pace", "phase": 0, "active": False}]
    mouse = 11
    event = clock.step("left").to_json()
    assert [m["id"] for m in event["moved"]] == [9, 8, mouse]
    assert [d["id"] for d in event["destroyed"]] == [8, 10]
    assert state_json(clock)["automata"] == [{"id": "pace", "phase": 1, "active": False}]
    assert clock.state.position(mouse) == (1, 4)
    clock.wait()
    assert clock.state.position(mouse) == (1, 4)
    assert state_json(clock)["automata"] == [{"id": "pace", "phase": 1, "active": False}]
    clock.undo()
    clock.undo()
    assert state_json(clock) == start


def test_a_destroyed_win_word_cannot_grant_a_final_victory() -> None:
    def build(with_water: bool) -> Game:
        water = [thing("WATER", 2, 2)] if with_water else []
        return Game(
            level(
                6,
                6,
                sentence("MIAU IS YOU", 0, 0),
                sentence("WATER IS SINK", 0, 1),
                sentence("FLAG IS", 0, 2),
                word("WIN", 3, 2),
                thing("MIAU", 4, 2),
                thing("MIAU", 2, 4),
                thing("FLAG", 1, 4),
                *water,
            )
        )

    # One move both completes FLAG IS WIN (on the water) and puts a MIAU on the flag.
    dry = build(with_water=False).step("left").to_json()
    assert dry["won"] is True
    wet_game = build(with_water=True)
    wet = wet_game.step("left").to_json()
    assert [d.get("text") for d in wet["destroyed"]] == ["WIN", None]
    assert wet["won"] is False
    assert wet["rulesAdded"] == []
    assert ("FLAG", "WIN") not in rule_pairs(wet_game)


def test_restore_a_state_after_rule_word_destruction() -> None:
    game = _sink_level()
    initial = state_json(game)
    game.step("down")
    settled = state_json(game)
    restored = Game(game.level)
    event = restored.restore(settled).to_json()
    assert event["accepted"] is True
    assert state_json(restored) == settled
    assert ("ROCK", "STOP") not in rule_pairs(restored)
    restored.reset()
    assert state_json(restored) == initial
    assert ("ROCK", "STOP") in rule_pairs(restored)
