"""Decisions of the engine contract that the spec leaves open, each pinned by a test."""

from __future__ import annotations

import pytest

from miau.engine import Game, MoveStringError, parse_moves, replay
from tests.engine.builders import level, rule_pairs, sentence, state_json, thing, word


def test_overlapping_spans_that_do_not_contain_each_other_both_stay() -> None:
    game = Game(level(5, 1, sentence("BABA IS ROCK IS YOU", 0, 0)))
    assert state_json(game)["sentences"] == [
        {"ids": [0, 1, 2], "axis": "h"},
        {"ids": [2, 3, 4], "axis": "h"},
    ]
    assert rule_pairs(game) == [("BABA", "ROCK"), ("ROCK", "YOU")]


def test_horizontal_spans_come_before_vertical_ones_and_rules_expand_subject_major() -> None:
    mixed = Game(
        level(4, 4, sentence("ROCK IS PUSH", 3, 0, axis="v"), sentence("MIAU IS YOU", 0, 3))
    )
    assert [s["axis"] for s in state_json(mixed)["sentences"]] == ["h", "v"]
    assert rule_pairs(mixed) == [("MIAU", "YOU"), ("ROCK", "PUSH")]
    wide = Game(level(7, 1, sentence("MIAU AND FLAG IS YOU AND WIN", 0, 0)))
    assert rule_pairs(wide) == [
        ("MIAU", "YOU"),
        ("MIAU", "WIN"),
        ("FLAG", "YOU"),
        ("FLAG", "WIN"),
    ]
    assert [rule.source_ids for rule in wide.state.rules] == [
        (0, 3, 4),
        (0, 3, 6),
        (2, 3, 4),
        (2, 3, 6),
    ]


def test_a_noun_that_is_itself_is_locked_against_transformation() -> None:
    game = Game(
        level(
            4,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("ROCK IS FLAG", 0, 1),
            sentence("ROCK IS ROCK", 0, 2),
            thing("ROCK", 3, 3),
            thing("MIAU", 0, 3),
        )
    )
    assert game.state.noun(9) == "ROCK"
    game.step("right")
    assert game.state.noun(9) == "ROCK"


def test_two_way_transformation_swaps_once_per_turn() -> None:
    game = Game(
        level(
            4,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("BABA IS ROCK", 0, 1),
            sentence("ROCK IS BABA", 0, 2),
            thing("BABA", 3, 3),
            thing("MIAU", 0, 3),
        )
    )
    # Start-of-level transformation happens once, then one swap per turn.
    assert game.state.noun(9) == "ROCK"
    game.wait()
    assert game.state.noun(9) == "BABA"
    game.wait()
    assert game.state.noun(9) == "ROCK"


def test_push_beats_stop() -> None:
    game = Game(
        level(
            4,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("BOX IS STOP", 0, 1),
            thing("MIAU", 0, 2),
            thing("BOX", 1, 2),
        )
    )
    assert game.step("right").to_json()["accepted"] is False
    both = Game(
        level(
            6,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("BOX IS STOP AND PUSH", 0, 1),
            thing("MIAU", 0, 2),
            thing("BOX", 1, 2),
        )
    )
    event = both.step("right").to_json()
    assert [m["id"] for m in event["moved"]] == [8, 9]


def test_wait_is_a_turn_even_without_you_but_a_move_is_not() -> None:
    game = Game(level(3, 1, sentence("ROCK IS PUSH", 0, 0)))
    assert state_json(game)["controlLost"] is True
    assert game.step("left").to_json()["accepted"] is False
    event = game.wait().to_json()
    assert event["accepted"] is True
    assert event["moveCount"] == 1
    assert game.step("wait").to_json()["moveCount"] == 2


def test_facing_follows_the_last_move_and_undo_restores_it() -> None:
    game = Game(level(3, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 1, 2)))
    facing = {e["id"]: e["facing"] for e in state_json(game)["entities"]}
    assert facing[3] == "right"
    game.step("left")
    assert state_json(game)["entities"][3]["facing"] == "left"
    game.undo()
    assert state_json(game)["entities"][3]["facing"] == "right"


def _pair_level(enter: bool, keys: int = 1) -> Game:
    return Game(
        level(
            7,
            5,
            sentence("MIAU IS YOU", 0, 0),
            sentence("KEY IS OPEN AND PUSH", 0, 1),
            sentence("DOOR IS SHUT AND STOP", 0, 2),
            thing("MIAU", 2, 4),
            *[thing("KEY", 3, 4) for _ in range(keys)],
            thing("DOOR", 4, 4),
            thing("DOOR", 4, 4),
            pairs=[{"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": enter}],
        )
    )


def test_a_pair_destroys_one_for_one_in_id_order_with_the_first_word_as_cause() -> None:
    game = _pair_level(enter=True)
    event = game.step("right").to_json()
    assert event["destroyed"] == [
        {"id": 14, "noun": "KEY", "at": [4, 4], "cause": "open"},
        {"id": 15, "noun": "DOOR", "at": [4, 4], "cause": "open"},
    ]
    # The second door has no partner left and survives.
    assert game.state.position(16) == (4, 4)
    assert game.undo().to_json()["restored"] == [
        {"id": 14, "noun": "KEY", "at": [3, 4], "facing": "right"},
        {"id": 15, "noun": "DOOR", "at": [4, 4], "facing": "right"},
    ]


def test_without_enter_a_shut_stop_door_blocks_its_key() -> None:
    game = _pair_level(enter=False)
    event = game.step("right").to_json()
    assert event["accepted"] is False
    assert event["blocked"] == [{"id": 13, "dir": [1, 0], "blockerId": 15, "reason": "stop"}]


def test_a_thing_never_pairs_with_itself() -> None:
    game = Game(
        level(
            8,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("GEM IS OPEN AND SHUT", 0, 1),
            thing("MIAU", 0, 2),
            thing("GEM", 1, 2),
            pairs=[{"words": ["OPEN", "SHUT"], "effect": "destroy-both"}],
        )
    )
    assert game.wait().to_json()["destroyed"] == []


def _clock(pattern: list[object], subject: str | None = "MOUSE") -> Game:
    record: dict[str, object] = {"id": "pace", "property": "TICK", "pattern": pattern}
    if subject is not None:
        record["subject"] = subject
    return Game(
        level(
            6,
            5,
            sentence("MIAU IS YOU", 0, 0),
            sentence("MOUSE IS TICK", 0, 1),
            sentence("WALL IS STOP", 0, 2),
            thing("MIAU", 0, 4),
            thing("MOUSE", 3, 4),
            thing("WALL", 5, 4),
            automata=[record],
        )
    )


def test_a_blocked_actor_waits_and_its_phase_still_advances() -> None:
    game = _clock(["R", "R", {"action": "move", "dx": -1, "dy": 0}])
    mouse = 10
    game.wait()
    assert game.state.position(mouse) == (4, 4)
    event = game.wait().to_json()
    assert event["blocked"] == [{"id": mouse, "dir": [1, 0], "blockerId": 11, "reason": "stop"}]
    assert state_json(game)["automata"][0]["phase"] == 2
    game.wait()
    assert game.state.position(mouse) == (3, 4)


def test_a_paused_clock_resumes_where_it_stopped() -> None:
    game = Game(
        level(
            6,
            7,
            sentence("MIAU IS YOU", 0, 6),
            sentence("MOUSE IS TICK", 1, 0, axis="v"),
            thing("MIAU", 0, 2),
            thing("MOUSE", 4, 4),
            automata=[
                {"id": "pace", "subject": "MOUSE", "property": "TICK", "pattern": list("LRU")}
            ],
        )
    )
    mouse = 7
    game.wait()
    assert game.state.position(mouse) == (3, 4)
    # Push TICK out of the sentence, walk around it, and push it back.
    for move in "RDRRU":
        assert game.play(move)[0].accepted
        assert game.state.position(mouse) == (3, 4)
        assert state_json(game)["automata"][0]["phase"] == 1
    assert state_json(game)["automata"] == [{"id": "pace", "phase": 1, "active": False}]
    game.play("L")
    assert ("MOUSE", "TICK") in rule_pairs(game)
    assert game.state.position(mouse) == (4, 4)
    assert state_json(game)["automata"] == [{"id": "pace", "phase": 2, "active": True}]


def test_the_player_move_comes_before_the_automata_and_a_pushed_actor_still_takes_its_beat() -> (
    None
):
    game = _clock(["U"])
    mouse = 10
    step = game.step("right")
    assert [entry[0] for entry in step.player_moved] == [9]
    event = step.to_json()
    assert [(m["id"], m["pushedBy"]) for m in event["moved"]] == [(9, None), (mouse, None)]
    assert game.state.position(mouse) == (3, 3)


def test_without_a_subject_the_pattern_follows_the_property_word() -> None:
    game = Game(
        level(
            6,
            7,
            sentence("MIAU IS YOU", 0, 0),
            sentence("MOUSE IS TICK", 0, 2),
            sentence("BELL IS", 0, 3),
            thing("MIAU", 2, 1),
            thing("MOUSE", 0, 6),
            thing("BELL", 5, 6),
            automata=[{"id": "any", "property": "TICK", "pattern": ["U", "L"]}],
        )
    )
    mouse, bell = 9, 10
    game.wait()
    assert game.state.position(mouse) == (0, 5)
    # Pushing TICK down turns MOUSE IS TICK into BELL IS TICK: the bell takes the next step.
    event = game.step("down").to_json()
    assert [r["subject"] for r in event["rulesAdded"]] == ["BELL"]
    assert game.state.position(mouse) == (0, 5)
    assert game.state.position(bell) == (4, 6)
    assert state_json(game)["automata"] == [{"id": "any", "phase": 0, "active": True}]


def test_automata_run_in_id_order_each_as_its_own_movement_phase() -> None:
    game = Game(
        level(
            6,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("MOUSE IS TICK", 0, 1),
            thing("MOUSE", 2, 3),
            automata=[
                {"id": "b-second", "property": "TICK", "pattern": ["R"]},
                {"id": "a-first", "property": "TICK", "pattern": ["U"]},
            ],
        )
    )
    event = game.wait().to_json()
    assert [(m["from"], m["to"]) for m in event["moved"]] == [([2, 3], [2, 2]), ([2, 2], [3, 2])]
    assert [a["id"] for a in state_json(game)["automata"]] == ["a-first", "b-second"]


def test_move_strings_accept_any_case_and_reject_other_letters() -> None:
    assert parse_moves("dRw u") == ["down", "right", "wait", "up"]
    with pytest.raises(MoveStringError, match="move 3"):
        parse_moves("UDX")


def test_replay_plays_a_move_string_on_a_fresh_game() -> None:
    result = replay(
        level(
            3,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("FLAG IS WIN", 0, 1),
            thing("MIAU", 0, 3),
            thing("FLAG", 2, 3),
        ),
        "rr",
    )
    assert result.won is True
    assert [e.to_json()["accepted"] for e in result.events] == [True, True]


def test_a_hostile_stack_of_words_is_parsed_in_bounded_time() -> None:
    # 16 cells, each stacking a noun, IS, AND and a property: exponentially many paths.
    stacked = [word(text, x, 0) for x in range(16) for text in ("MIAU", "IS", "AND", "PUSH")]
    game = Game(level(16, 1, stacked))
    assert 0 < len(game.state.sentences) <= 2 * 4096
    assert game.wait().accepted


def test_a_hostile_stack_that_never_forms_a_sentence_is_parsed_in_bounded_time() -> None:
    stacked = [word(text, x, 0) for x in range(40) for text in ("MIAU", "AND")]
    game = Game(level(40, 1, stacked))
    assert game.state.sentences == ()


def test_the_level_start_is_not_a_turn_so_the_first_wait_settles_contacts_and_win() -> None:
    game = Game(
        level(
            6,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("FLAG IS WIN", 0, 1),
            sentence("LAVA IS DEFEAT", 0, 2),
            thing("MIAU", 0, 3),
            thing("FLAG", 0, 3),
            thing("LAVA", 4, 3),
            thing("MIAU", 4, 3),
        )
    )
    start = state_json(game)
    assert start["won"] is False
    assert len(start["entities"]) == 13
    event = game.wait().to_json()
    assert event["destroyed"] == [{"id": 12, "noun": "MIAU", "at": [4, 3], "cause": "defeat"}]
    assert event["won"] is True


def test_the_lowest_id_of_a_pushed_stack_is_the_pusher_of_what_it_pushes() -> None:
    game = Game(
        level(
            6,
            2,
            sentence("MIAU IS YOU", 0, 0),
            sentence("ROCK IS PUSH", 3, 0),
            thing("MIAU", 0, 1),
            thing("ROCK", 1, 1),
            thing("ROCK", 1, 1),
            thing("ROCK", 2, 1),
        )
    )
    event = game.step("right").to_json()
    assert [(m["id"], m["pushedBy"]) for m in event["moved"]] == [
        (6, None),
        (7, 6),
        (8, 6),
        (9, 7),
    ]


def test_a_pair_occupant_is_passed_through_only_when_every_entrant_may_enter() -> None:
    def build(rock_is_open: bool) -> Game:
        rules = "KEY AND ROCK IS OPEN AND PUSH" if rock_is_open else "KEY IS OPEN AND PUSH"
        return Game(
            level(
                8,
                5,
                sentence("MIAU IS YOU", 0, 0),
                sentence(rules, 0, 1),
                sentence("DOOR IS SHUT AND STOP", 0, 2),
                sentence("ROCK IS PUSH", 0, 3) if not rock_is_open else [],
                thing("MIAU", 2, 4),
                thing("KEY", 3, 4),
                thing("ROCK", 3, 4),
                thing("DOOR", 4, 4),
                pairs=[{"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": True}],
            )
        )

    # The key may enter the door's cell but the rock beside it may not: the door blocks both.
    assert build(rock_is_open=False).step("right").to_json()["accepted"] is False
    both = build(rock_is_open=True).step("right").to_json()
    assert both["accepted"] is True
    assert [d["cause"] for d in both["destroyed"]] == ["open", "open"]
