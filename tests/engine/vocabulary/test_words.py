"""Finer points of the vocabulary-1 words: provenance, events, choices pinned."""

from __future__ import annotations

from typing import Any

from miau.engine import Game, Level, LevelError
from miau.engine.rules import Rule
from tests.engine.vocabulary.grid import board_level, draw


def rules_of(game: Game) -> list[Rule]:
    rules = [r for r in game.state.rules if isinstance(r, Rule)]
    assert len(rules) == len(game.state.rules)
    return rules


def ids_of(level: dict[str, Any], text: str) -> list[int]:
    return [i for i, e in enumerate(level["objects"]) if e.get("text") == text]


def test_source_ids_hold_not_and_condition_words_in_reading_order() -> None:
    level = board_level(["LONELY MIAU ON NOT ROCK AND NEAR KEKE IS NOT YOU AND WIN"])
    game = Game(level)
    first, second = rules_of(game)
    assert first.text() == "LONELY MIAU ON NOT ROCK AND NEAR KEKE IS NOT YOU"
    assert second.text() == "LONELY MIAU ON NOT ROCK AND NEAR KEKE IS WIN"
    # Every word but the ANDs, in reading order; the second rule lacks the value's NOT.
    assert list(first.source_ids) == [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]
    assert list(second.source_ids) == [0, 1, 2, 3, 4, 6, 7, 8, 12]
    record = first.to_json()
    assert record["not"] is True and record["subjectNot"] is False
    assert record["conditions"][0] == {"word": "LONELY", "not": False, "args": []}
    assert record["conditions"][1]["args"] == [{"noun": "ROCK", "not": True}]


def test_a_plain_rule_keeps_the_core_wire_record() -> None:
    game = Game(board_level(["MIAU IS YOU"]))
    assert game.state.to_json()["rules"] == [
        {"subject": "MIAU", "predicate": "YOU", "sourceIds": [0, 1, 2], "axis": "h"}
    ]


def test_not_not_cancels_and_order_of_rules_does_not_matter() -> None:
    game = Game(board_level(["MIAU IS NOT NOT YOU", "MIAU IS NOT YOU .", "miau . . . ."]))
    assert game.state.control_lost  # NOT NOT YOU is YOU, suppressed by NOT YOU
    game = Game(board_level(["MIAU IS NOT YOU", "MIAU IS YOU . .", "miau . . . ."]))
    assert game.state.control_lost


def test_has_spawn_takes_the_destroyed_id_and_undo_brings_the_rock_back() -> None:
    level = board_level(["MIAU IS YOU .", "ROCK IS WEAK .", "ROCK HAS KEY .", "miau rock< . ."])
    game = Game(level)
    rock = len(level["objects"]) - 1
    event = game.step("right").to_json()
    assert event["destroyed"] == [{"id": rock, "noun": "ROCK", "at": [1, 3], "cause": "weak"}]
    assert event["spawned"] == [{"id": rock, "noun": "KEY", "at": [1, 3]}]
    assert draw(game)[3] == ". miau>+key< . ."  # the key faces as the rock did
    game.undo()
    assert draw(game)[3] == "miau> rock< . ."


def test_has_spawn_is_not_touched_until_the_next_turn() -> None:
    level = board_level(
        ["MIAU IS YOU . .", "ROCK IS MELT . .", "LAVA IS HOT . .", "ROCK HAS KEY . .",
         "KEY IS MELT . .", "ROCK IS PUSH . .", "miau rock lava . ."]
    )  # fmt: skip
    game = Game(level)
    game.step("right")
    assert draw(game)[6] == ". miau> key>+lava> . ."  # the key keeps the rock's id
    assert [d["noun"] for d in game.wait().to_json()["destroyed"]] == ["KEY"]


def test_move_turning_back_is_reported_on_moved() -> None:
    level = board_level(["ROCK IS MOVE . WALL IS STOP", "wall rock wall . . . ."])
    event = Game(level).wait().to_json()
    rock = len(level["objects"]) - 2
    assert event["moved"] == [
        {"id": rock, "from": [1, 1], "to": [1, 1], "pushedBy": None, "facing": "left"}
    ]
    assert [b["reason"] for b in event["blocked"]] == ["stop", "stop"]


def test_pull_blocks_like_stop_from_the_front() -> None:
    game = Game(board_level(["MIAU IS YOU", "ROCK IS PULL", "miau rock ."]))
    assert not game.step("right").accepted


def test_float_things_do_not_touch_ground_things_for_defeat() -> None:
    level = board_level(["MIAU IS YOU .", "MIAU IS FLOAT", "SKULL IS DEFEAT", "miau skull . ."])
    game = Game(level)
    game.step("right")
    assert not game.state.control_lost


def test_float_rule_reads_on_across_layers() -> None:
    # MIAU ON WATER IS FLOAT: the FLOAT rule sees the water although Miau would float.
    level = board_level(
        ["MIAU IS YOU . .", "WATER IS SINK . .", "MIAU ON WATER IS FLOAT", "miau water . . ."]
    )
    game = Game(level)
    game.step("right")
    assert not game.state.control_lost


def test_text_is_not_push_lets_things_walk_over_words() -> None:
    game = Game(board_level(["MIAU IS YOU .", "TEXT IS NOT PUSH", "miau ROCK . ."]))
    game.step("right")
    assert draw(game)[2] == ". miau>+ROCK . ."


def test_not_subject_leaves_words_alone() -> None:
    game = Game(board_level(["NOT ROCK IS YOU", "miau rock . ."]))
    game.step("down")
    assert draw(game)[0] == "NOT ROCK IS YOU"


def test_the_engine_refuses_tier1_nouns_and_built_in_automaton_words_with_the_feature() -> None:
    for bad in (
        board_level(["move . ."]),
        {**board_level(["miau"]), "automata": [{"id": "a", "property": "MOVE", "pattern": ["L"]}]},
        {**board_level(["miau"]), "pairs": [{"words": ["OPEN", "LOCK"], "effect": "destroy-both"}]},
        {**board_level(["miau"]), "features": ["teleport"]},
    ):
        try:
            Level.from_dict(bad)
        except LevelError:
            continue
        raise AssertionError(f"accepted {bad}")


def test_level_is_a_built_in_noun_no_object_may_take() -> None:
    try:
        Level.from_dict(board_level(["level . ."]))
    except LevelError:
        return
    raise AssertionError("an object called LEVEL was accepted")


def test_x_is_level_and_has_level_change_nothing() -> None:
    game = Game(board_level(["MIAU IS YOU .", "ROCK IS LEVEL", "ROCK HAS LEVEL", "rock miau . ."]))
    assert game.step("wait").to_json()["transformed"] == []
    assert draw(game)[3] == "rock> miau> . ."


def test_level_is_not_win_and_a_condition_on_level_keep_the_level_unwon() -> None:
    negated = Game(board_level(["MIAU IS YOU . .", "LEVEL IS WIN . .", "LEVEL IS NOT WIN", "miau"]))
    assert not negated.step("wait").won
    conditional = Game(board_level(["MIAU IS YOU . . .", "LEVEL NEAR MIAU IS WIN", "miau"]))
    assert not conditional.step("wait").won
    plain = Game(board_level(["MIAU IS YOU . .", "LEVEL IS WIN . .", "miau"]))
    assert plain.step("wait").won
