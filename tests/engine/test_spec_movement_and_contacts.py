"""Spec requirements 3 and 4: controlled movement, pushes, transformations, contacts, win."""

from __future__ import annotations

from miau.engine import Game
from tests.engine.builders import level, rule_pairs, sentence, state_json, thing


def test_a_you_entity_pushes_a_chain_of_push_entities() -> None:
    game = Game(
        level(
            6,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("ROCK IS PUSH", 0, 1),
            thing("MIAU", 0, 2),
            thing("ROCK", 1, 2),
            thing("ROCK", 2, 2),
        )
    )
    event = game.step("right").to_json()
    assert event["accepted"] is True
    assert event["moveCount"] == 1
    assert [(m["id"], m["from"], m["to"], m["pushedBy"]) for m in event["moved"]] == [
        (6, [0, 2], [1, 2], None),
        (7, [1, 2], [2, 2], 6),
        (8, [2, 2], [3, 2], 7),
    ]


def test_stop_blocks_a_push() -> None:
    game = Game(
        level(
            4,
            5,
            sentence("MIAU IS YOU", 0, 0),
            sentence("WALL IS STOP", 0, 1),
            thing("MIAU", 0, 2),
            sentence("ROCK IS PUSH", 0, 3),
            thing("ROCK", 1, 2),
            thing("WALL", 2, 2),
        )
    )
    before = state_json(game)
    into_wall = game.step("right").to_json()
    assert into_wall["accepted"] is False
    assert into_wall["blocked"] == [{"id": 6, "dir": [1, 0], "blockerId": 11, "reason": "stop"}]
    # Pushing ROCK IS PUSH's PUSH word down would shove it off the grid.
    game.step("down")
    moved = state_json(game)
    off_edge = game.step("down").to_json()
    assert off_edge["accepted"] is False
    assert off_edge["blocked"][0]["reason"] == "bounds"
    assert off_edge["blocked"][0]["blockerId"] is None
    assert state_json(game) == moved
    assert before["moveCount"] == 0
    assert moved["moveCount"] == 1


def test_several_you_entities_use_stable_ordering() -> None:
    def build() -> Game:
        return Game(
            level(
                5,
                3,
                sentence("MIAU IS YOU", 0, 0),
                thing("MIAU", 0, 2),
                thing("MIAU", 1, 2),
                thing("MIAU", 4, 1),
                thing("MIAU", 2, 1),
            )
        )

    first, second = build(), build()
    events = [first.step(d).to_json() for d in ("right", "right", "left")]
    assert events == [second.step(d).to_json() for d in ("right", "right", "left")]
    assert state_json(first) == state_json(second)
    # Front-first along the direction, then by id: the one furthest right moves first.
    assert [m["id"] for m in events[0]["moved"]] == [6, 4, 3]
    assert events[0]["blocked"] == [{"id": 5, "dir": [1, 0], "blockerId": None, "reason": "bounds"}]
    # The second push walks one MIAU onto the blocked one; from then on the stack moves together.
    stacked = first.state
    assert stacked.position(5) == stacked.position(6) == (3, 1)
    assert [m["id"] for m in events[2]["moved"]] == [3, 4, 5, 6]


def test_a_noun_transforms() -> None:
    game = Game(
        level(
            6,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("BABA IS", 0, 1),
            thing("FENN", 5, 3),
            thing("BABA", 0, 3),
            thing("MIAU", 4, 1),
            thing("BABA", 2, 3),
            sentence("FENN", 3, 1),
        )
    )
    event = game.step("left").to_json()
    assert ("BABA", "FENN") in rule_pairs(game)
    assert event["transformed"] == [
        {"id": 6, "from": "BABA", "to": "FENN"},
        {"id": 8, "from": "BABA", "to": "FENN"},
    ]
    nouns = {e["id"]: e.get("noun") for e in state_json(game)["entities"]}
    assert nouns[6] == nouns[8] == "FENN"


def test_sink_removes_contact_occupants() -> None:
    game = Game(
        level(
            5,
            4,
            sentence("MIAU IS YOU", 0, 0),
            sentence("HOLE IS SINK", 0, 1),
            sentence("ROCK IS PUSH", 0, 2),
            thing("MIAU", 0, 3),
            thing("ROCK", 1, 3),
            thing("HOLE", 2, 3),
            thing("HOLE", 2, 3),
        )
    )
    event = game.step("right").to_json()
    assert [(d["id"], d["noun"], d["at"], d["cause"]) for d in event["destroyed"]] == [
        (10, "ROCK", [2, 3], "sink"),
        (11, "HOLE", [2, 3], "sink"),
        (12, "HOLE", [2, 3], "sink"),
    ]
    assert game.state.position(9) == (1, 3)
    assert game.state.position(10) is None


def test_defeat_removes_you() -> None:
    game = Game(
        level(
            6,
            3,
            sentence("MIAU IS YOU", 0, 0),
            sentence("SKULL IS DEFEAT AND WIN", 0, 1),
            thing("MIAU", 0, 2),
            thing("SKULL", 1, 2),
        )
    )
    event = game.step("right").to_json()
    assert event["destroyed"] == [{"id": 8, "noun": "MIAU", "at": [1, 2], "cause": "defeat"}]
    assert event["won"] is False
    assert event["controlLost"] is True


def test_a_surviving_same_entity_you_and_win_wins() -> None:
    game = Game(level(5, 3, sentence("MIAU IS YOU AND WIN", 0, 0), thing("MIAU", 0, 2)))
    assert state_json(game)["won"] is False
    event = game.step("right").to_json()
    assert event["won"] is True
    assert state_json(game)["won"] is True


def test_distinct_you_and_win_entities_still_win() -> None:
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
    assert game.step("left").to_json()["accepted"] is False
    assert game.state.position(6) == (1, 3)
    game.reset()
    assert game.step("up").to_json()["accepted"] is True


def test_destruction_takes_precedence_over_same_entity_victory() -> None:
    game = Game(
        level(
            5,
            3,
            sentence("MIAU IS YOU AND WIN", 0, 0),
            sentence("POND IS SINK", 0, 1),
            thing("MIAU", 3, 2),
            thing("POND", 4, 2),
        )
    )
    event = game.step("right").to_json()
    assert [d["id"] for d in event["destroyed"]] == [8, 9]
    assert event["won"] is False
    assert state_json(game)["won"] is False


def test_proof_03_reaches_the_win_state() -> None:
    # The proof level's rule, MIAU IS YOU AND WIN, is built by the winning move itself.
    game = Game(
        level(
            6,
            3,
            sentence("MIAU IS YOU AND", 0, 0),
            thing("MIAU", 3, 2),
            sentence("WIN", 4, 1),
        )
    )
    assert game.step("right").to_json()["won"] is False
    event = game.step("up").to_json()
    assert ("MIAU", "WIN") in rule_pairs(game)
    assert event["won"] is True
    assert state_json(game)["won"] is True
    assert [m["id"] for m in event["moved"]] == [4, 5]
