"""Things that become words and words that become things (``IS TEXT``, ``HAS TEXT``, ``TEXT IS``).

The fixtures ``is-text``, ``has-text``, ``text-is``, ``text-has`` and
``order-text-rules-reread`` replay each idea; these tests pin the choices,
the events, undo, restore, the solver's key and the hands-off check across a
change of kind.
"""

from __future__ import annotations

import json
from typing import Any

from miau.engine import Game
from miau.solver import Outcome, solve
from miau.solver.check import word_moves
from miau.solver.keys import KeyCodec
from tests.engine.vocabulary.grid import board_level, draw

WALLS = [
    "MIAU IS YOU . .",
    "WALL IS STOP . .",
    "FLAG IS WIN . .",
    "WALL IS . wall flag",
    ". . TEXT wall .",
    ". . miau wall .",
]
"""The ``is-text`` fixture: pushing TEXT up makes WALL IS TEXT; URUR wins."""


def _settled(game: Game) -> dict[str, Any]:
    return game.state.to_json(history=True)


def test_targets_are_decided_before_any_thing_changes_kind() -> None:
    # TEXT IS ROCK and MIAU IS TEXT at once: the words become rocks, Miau its word.
    game = Game(board_level(["TEXT IS ROCK", "MIAU IS TEXT", "miau . ."]))
    assert draw(game) == ["rock> rock> rock>", "rock> rock> rock>", "MIAU . ."]
    assert game.state.rules == ()


def test_text_is_text_keeps_words_and_x_is_not_text_blocks() -> None:
    game = Game(board_level(["TEXT IS ROCK", "TEXT IS TEXT", "miau . ."]))
    assert draw(game)[0] == "TEXT IS ROCK"
    game = Game(board_level(["MIAU IS TEXT", "MIAU IS NOT TEXT", "miau . . ."]))
    assert draw(game)[2] == "miau> . . ."
    game = Game(board_level(["MIAU IS TEXT", "MIAU IS MIAU .", "miau . . ."]))
    assert draw(game)[2] == "miau> . . ."


def test_a_word_keeps_its_id_and_facing_and_is_push() -> None:
    level = board_level(["MIAU IS YOU .", "ROCK IS TEXT .", "miau rock< . ."])
    rock = len(level["objects"]) - 1
    game = Game(level)  # the start turns the rock into its word
    assert game.state.is_word(rock) and game.state.noun(rock) == "ROCK"
    entity = game.state.to_json()["entities"][rock]
    assert entity == {"id": rock, "kind": "word", "text": "ROCK", "x": 1, "y": 2, "facing": "left"}
    game.step("right")  # a word is PUSH
    assert draw(game)[2] == ". miau> ROCK ."


def test_a_kind_change_is_a_transformed_entry_with_both_kinds() -> None:
    level = board_level(WALLS)
    walls = [i for i, e in enumerate(level["objects"]) if e.get("noun") == "WALL"]
    event = Game(level).step("up").to_json()
    assert event["transformed"] == [
        {"id": i, "from": "WALL", "to": "WALL", "fromKind": "object", "toKind": "word"}
        for i in walls
    ]
    assert [(r["subject"], r["predicate"]) for r in event["rulesAdded"]] == [("WALL", "TEXT")]


def test_a_word_destroyed_after_becoming_one_is_reported_as_a_word() -> None:
    level = board_level(["MIAU IS YOU . .", "ROCK IS TEXT . .", "WATER IS SINK", "miau rock water"])
    rock = len(level["objects"]) - 2
    event = Game(level).step("right").to_json()
    assert event["destroyed"][0] == {"id": rock, "text": "ROCK", "at": [2, 3], "cause": "sink"}


def test_has_text_leaves_the_noun_word_and_a_word_leaves_the_word_text() -> None:
    level = board_level(["MIAU IS YOU .", "ROCK IS WEAK .", "ROCK HAS TEXT", "miau rock< . ."])
    rock = len(level["objects"]) - 1
    game = Game(level)
    event = game.step("right").to_json()
    assert event["spawned"] == [{"id": rock, "text": "ROCK", "at": [1, 3]}]
    assert draw(game)[3] == ". miau>+ROCK . ."
    # TEXT HAS TEXT: a word that goes leaves the word TEXT (a word's own noun is TEXT).
    level = board_level(["MIAU IS YOU . .", "WATER IS SINK .", "TEXT HAS TEXT .", "miau KEY water"])
    game = Game(level)
    event = game.step("right").to_json()
    assert [s.get("text") for s in event["spawned"]] == ["TEXT"]
    assert draw(game)[3] == ". miau> TEXT . ."


def test_undo_and_reset_bring_back_the_kind_and_the_rules() -> None:
    game = Game(board_level(WALLS))
    start, rules = _settled(game), game.state.rules_table
    game.step("up")
    after = _settled(game)
    event = game.undo().to_json()
    assert _settled(game) == start and game.state.rules_table is rules
    assert {(t["fromKind"], t["toKind"]) for t in event["transformed"]} == {("word", "object")}
    game.step("up")
    assert _settled(game) == after
    game.play("RUR")
    assert game.won
    game.reset()
    assert _settled(game) == start


def test_restore_across_a_kind_change_plays_and_undoes_like_the_original() -> None:
    original = Game(board_level(WALLS))
    original.play("UR")
    copy = Game(board_level(WALLS))
    assert copy.restore(json.loads(json.dumps(_settled(original)))).accepted
    assert _settled(copy) == _settled(original)
    assert copy.state.rules_table.to_json() == original.state.rules_table.to_json()
    for intent in ("up", "right"):
        assert copy.step(intent).to_json() == original.step(intent).to_json()
    while original.can_undo:
        assert copy.undo().to_json() == original.undo().to_json()
        assert _settled(copy) == _settled(original)


def test_restore_checks_what_a_changed_kind_may_be() -> None:
    level = board_level(["MIAU IS YOU .", "ROCK IS TEXT .", "miau rock . ."])
    game = Game(level)
    state = game.state.to_json()
    rock = state["entities"][-1]
    for text, accepted in (("ROCK", True), ("TEXT", True), ("KEKE", True), ("YOU", False)):
        rock.update(kind="word", text=text)
        assert game.restore(state).accepted is accepted, text
    del rock["text"]
    rock.update(kind="object", noun="TEXT")
    assert not game.restore(state).accepted
    # A core level keeps its kinds fixed.
    core = Game(board_level(["MIAU IS YOU", "miau rock ."], feature=False))
    state = core.state.to_json()
    state["entities"][-1] = {**state["entities"][-1], "kind": "word", "text": "ROCK"}
    state["entities"][-1].pop("noun")
    assert not core.restore(state).accepted


def test_the_solver_key_holds_kinds_and_the_solver_finds_the_shortest_way() -> None:
    level = board_level(WALLS)
    game = Game(level)
    codec = KeyCodec(game.level)
    before = codec.encode_state(game.state)
    game.step("up")
    game.undo()
    assert codec.encode_state(game.state) == before
    result = solve(level, max_expansions=20_000)
    assert result.outcome is Outcome.SOLVED and result.length == 4


def test_hands_off_counts_a_thing_that_became_a_word() -> None:
    # The wall is a word from the start (WALL IS TEXT): pushing it changes a rule's words.
    level = board_level(["MIAU IS YOU .", "WALL IS TEXT .", "miau wall . ."])
    assert word_moves(level, "R")
    assert not word_moves(board_level(["MIAU IS YOU .", "miau wall . ."]), "R")
