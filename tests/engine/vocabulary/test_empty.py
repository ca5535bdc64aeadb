"""EMPTY: the empty cells as a noun (``docs/vocabulary.md``, "Nouns").

``EMPTY IS X`` makes an X in every empty cell, with ids the level set aside;
``X IS EMPTY`` removes every X. The choices where Baba Is You is unclear are
pinned one test each; the property tests run undo, restore, saves, the
solver's key and a client's model over generated levels about EMPTY.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from miau.engine import Game, Level
from miau.engine.save import level_to_dict, load_game, save_game
from miau.engine.vocabulary import MAX_LEVEL_OBJECTS, VOCABULARY_1
from miau.packs import PackError, load_pack
from tests.engine.strategies import INTENTS
from tests.engine.test_properties import (
    check_restore_plays_like_the_original,
    check_undo_restores_each_step,
)
from tests.engine.test_wire_model import _follow_all
from tests.engine.vocabulary.grid import board_level, draw
from tests.engine.vocabulary.strategies import empty_levels, moves
from tests.engine.vocabulary.test_properties import (
    _play_and_undo,
    check_solver_agrees_with_a_naive_search,
    check_solver_keys_follow_the_game,
    every_reading_checked,
)

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _events(data: dict[str, Any], moves_: str) -> list[dict[str, Any]]:
    game = Game(data)
    return [event.to_json() for event in game.play(moves_)]


def _nouns_at(game: Game) -> dict[tuple[int, int], list[str]]:
    """The nouns of the objects (words left out) in each cell that holds one."""
    cells: dict[tuple[int, int], list[str]] = {}
    for entity in game.state.to_json()["entities"]:
        if entity["kind"] == "object":
            cells.setdefault((entity["x"], entity["y"]), []).append(entity["noun"])
    return cells


# The ids set aside


def test_a_level_with_the_word_empty_sets_one_id_aside_per_cell_after_its_objects() -> None:
    level = Level.from_dict(board_level(["MIAU IS YOU", "EMPTY . miau"]))
    assert (level.object_count, level.reserved, level.entity_count) == (5, 6, 11)
    assert level.start_positions[5:] == (-1,) * 6
    assert Level.from_dict(level_to_dict(level)) == level
    assert Game(level).state.to_json()["entities"][-1]["id"] == 4


def test_a_level_without_the_word_empty_sets_no_id_aside() -> None:
    for data in (
        board_level(["MIAU IS YOU", ". . miau"]),
        board_level(["MIAU IS YOU", "EMPTY . miau"], feature=False),
    ):
        level = Level.from_dict(data)
        assert level.reserved == 0
        assert level.entity_count == level.object_count == len(data["objects"])


def test_empty_is_x_gives_fresh_ids_in_row_major_order_facing_right() -> None:
    game = Game(board_level(["MIAU IS YOU", "EMPTY IS .", ". . ROCK", ". . miau"]))
    event = game.step("up").to_json()
    assert [(c["id"], c["at"]) for c in event["created"]] == [
        (7, [0, 2]),
        (8, [1, 2]),
        (9, [0, 3]),
        (10, [1, 3]),
        (11, [2, 3]),
    ]
    assert event["destroyed"] == [] and event["transformed"] == []
    made = [e for e in game.state.to_json()["entities"] if e["id"] >= 7]
    assert {e["noun"] for e in made} == {"ROCK"} and {e["facing"] for e in made} == {"right"}


def test_a_thing_made_on_an_id_that_was_used_before_faces_right() -> None:
    """The keys made at the start walk (one turns round at the edge), go, and come back."""
    game = Game(board_level(["EMPTY IS KEY", "KEY IS EMPTY", "KEY IS MOVE", "MIAU IS YOU", "miau"]))
    first = {c["id"] for c in game.step("wait").to_json()["destroyed"]}
    assert draw(game)[4] == "miau> . ."
    made = game.step("wait").to_json()["created"]
    assert {c["id"] for c in made} == first
    assert draw(game)[4] == "miau> key> key>"


def test_a_bounded_level_fills_the_first_empty_cells_and_leaves_the_rest_empty() -> None:
    """64 x 64 with 4,000 objects: 96 ids set aside, so 96 rocks, the first empty cells."""
    words = ["MIAU", "IS", "YOU", "EMPTY", "IS", "ROCK"]
    objects: list[dict[str, Any]] = [
        {"kind": "word", "text": text, "x": index % 3, "y": index // 3}
        for index, text in enumerate(words)
    ]
    objects.append({"kind": "object", "noun": "MIAU", "x": 63, "y": 63})
    objects += [{"kind": "object", "noun": "WALL", "x": 63, "y": 62}] * (4000 - len(objects))
    data = {"width": 64, "height": 64, "objects": objects, "features": [VOCABULARY_1]}
    game = Game(data)
    assert game.level.reserved == MAX_LEVEL_OBJECTS - 4000 == 96
    rocks = [e for e in game.state.to_json()["entities"] if e.get("noun") == "ROCK"]
    assert len(rocks) == 96
    # Row 0 from x=3 (61 cells), then row 1 from x=3.
    assert [(r["x"], r["y"]) for r in rocks] == [(x, 0) for x in range(3, 64)] + [
        (x, 1) for x in range(3, 38)
    ]
    assert game.step("up").accepted
    assert len([e for e in game.state.to_json()["entities"] if e.get("noun") == "ROCK"]) == 96


# EMPTY IS X


def test_the_start_of_a_level_fills_the_empty_cells_without_a_turn() -> None:
    game = Game(board_level(["MIAU IS YOU", "EMPTY IS ROCK", ". miau ."]))
    assert draw(game)[2] == "rock> miau> rock>"
    assert game.state.move_count == 0 and not game.can_undo


def test_a_thing_made_this_turn_does_not_transform_again_before_the_next() -> None:
    game = Game(board_level(["MIAU IS YOU .", "EMPTY IS ROCK .", "ROCK IS KEY .", ". . miau ."]))
    # The start made rocks; the first turn turns them into keys and fills the cell Miau left.
    game.step("right")
    assert _nouns_at(game)[(2, 3)] == ["ROCK"]
    assert _nouns_at(game)[(0, 3)] == ["KEY"]


def test_an_id_removed_in_a_turn_is_not_made_again_in_the_same_turn() -> None:
    """With automata the transformations run twice: rocks removed in the first, cells refilled
    in the second take other ids, so a client never sees one id both go and come in an event."""
    data = board_level(["EMPTY IS ROCK .", "ROCK IS EMPTY .", "MIAU IS YOU .", "miau . . ."])
    data["automata"] = [{"id": "tick", "property": "TICK", "pattern": ["W"]}]
    game = Game(data)
    for _ in range(3):
        event = game.wait().to_json()
        removed = {d["id"] for d in event["destroyed"]}
        made = {c["id"] for c in event["created"]}
        assert removed and made and not removed & made


def test_empty_is_empty_locks_the_empty_cells_and_empty_is_not_x_blocks_x() -> None:
    locked = Game(board_level(["MIAU IS YOU .", "EMPTY IS ROCK .", "EMPTY IS EMPTY .", "miau"]))
    blocked = Game(
        board_level(["MIAU IS YOU .", "EMPTY IS ROCK .", "EMPTY IS NOT ROCK", "EMPTY IS KEY ."])
    )
    assert "rock>" not in " ".join(draw(locked))
    assert "rock>" not in " ".join(draw(blocked))
    assert draw(blocked)[0] == "MIAU IS YOU key>"


def test_empty_is_text_all_or_level_makes_nothing() -> None:
    for value in ("TEXT", "ALL", "LEVEL"):
        game = Game(board_level(["MIAU IS YOU .", f"EMPTY IS {value} .", ". miau . ."]))
        assert game.state.to_json()["entities"][-1]["noun"] == "MIAU", value


def test_empty_is_a_property_gives_no_thing_anything() -> None:
    """EMPTY IS YOU, PUSH, STOP, WIN, SINK, DEFEAT, MOVE: empty cells are no things."""
    for value in ("YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "MOVE"):
        game = Game(board_level(["MIAU IS YOU .", f"EMPTY IS {value} .", ". miau . ."]))
        event = game.step("right").to_json()
        assert event["accepted"] and not event["won"] and not event["controlLost"], value
        assert event["moved"][0]["to"] == [2, 2] and not event["destroyed"], value
    # Without MIAU IS YOU, EMPTY IS YOU gives no control.
    alone = Game(board_level(["EMPTY IS YOU", ". miau ."]))
    assert alone.state.control_lost and not alone.step("right").accepted


def test_empty_near_x_reads_its_condition_at_each_empty_cell() -> None:
    game = Game(board_level([". . . .", ". rock . .", ". . . .", "EMPTY NEAR ROCK IS KEY"]))
    keys = sorted(xy for xy, nouns in _nouns_at(game).items() if nouns == ["KEY"])
    assert keys == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]


def test_lonely_empty_holds_and_empty_on_or_facing_never_does() -> None:
    lonely = Game(board_level(["LONELY EMPTY IS KEY", ". . . ."]))
    assert _nouns_at(lonely)[(0, 1)] == ["KEY"]
    for condition in ("ON ROCK", "FACING ROCK", "ON NOT ROCK"):
        rows = [f"EMPTY {condition} IS KEY", "rock . . . ."]
        assert "key>" not in " ".join(draw(Game(board_level(rows)))), condition


# X IS EMPTY


def test_x_is_x_and_x_is_not_empty_keep_x() -> None:
    for guard in ("ROCK IS ROCK", "ROCK IS NOT EMPTY"):
        game = Game(board_level(["ROCK IS EMPTY", f"{guard}", "rock"]))
        assert game.state.to_json()["entities"][-1]["noun"] == "ROCK", guard


def test_text_is_empty_removes_every_word_and_all_is_empty_every_object() -> None:
    words = Game(board_level(["MIAU IS YOU", "TEXT IS EMPTY", "miau"]))
    assert [e["kind"] for e in words.state.to_json()["entities"]] == ["object"]
    things = Game(board_level(["MIAU IS YOU", "ALL IS EMPTY", "miau rock"]))
    assert [e["kind"] for e in things.state.to_json()["entities"]] == ["word"] * 6
    assert things.state.control_lost


def test_x_has_empty_leaves_nothing() -> None:
    events = _events(
        board_level(["MIAU IS YOU .", "ROCK IS SINK .", "ROCK HAS EMPTY .", "miau rock"]), "R"
    )
    assert [d["cause"] for d in events[0]["destroyed"]] == ["sink", "sink"]
    assert events[0]["spawned"] == []


# EMPTY as a condition's argument


def test_near_empty_and_facing_empty_look_for_empty_cells_and_on_empty_never_holds() -> None:
    near = board_level(["MIAU IS YOU", "MIAU NEAR EMPTY IS WIN", "rock rock rock", "rock miau ."])
    assert Game(near).state.won is False
    assert Game(near).step("wait").to_json()["won"] is True  # (2, 3) is empty
    full = board_level(
        ["MIAU IS YOU", "MIAU NEAR EMPTY IS WIN", "rock rock rock", "rock miau rock"]
    )
    assert Game(full).step("wait").to_json()["won"] is False
    facing = board_level(
        ["MIAU IS YOU .", "MIAU FACING EMPTY IS WIN", ". . . .", ". . . .", "miau rock"]
    )
    assert Game(facing).step("wait").to_json()["won"] is False  # faces the rock
    assert Game(facing).step("up").to_json()["won"] is True  # faces the empty cell above
    on = board_level(["MIAU IS YOU .", "MIAU ON EMPTY IS WIN", ". . . .", "miau . ."])
    assert Game(on).step("right").to_json()["won"] is False


def test_not_empty_means_every_object() -> None:
    game = Game(board_level(["MIAU IS YOU", "NOT EMPTY IS WIN", "miau"]))
    assert game.step("wait").to_json()["won"] is True


# Undo, restore, saves, the solver and a client, on generated levels


@SETTINGS
@given(empty_levels(), moves)
def test_undo_after_any_step_restores_the_exact_previous_state_with_empty(
    data: dict[str, Any], intents: list[str]
) -> None:
    check_undo_restores_each_step(data, intents)


@SETTINGS
@given(empty_levels(), moves, moves)
def test_a_restored_state_with_made_things_plays_and_undoes_like_the_original(
    data: dict[str, Any], first: list[str], then: list[str]
) -> None:
    check_restore_plays_like_the_original(data, first, then)


@SETTINGS
@given(empty_levels(), moves)
def test_a_save_of_a_game_with_empty_loads_back_to_the_same_game(
    data: dict[str, Any], intents: list[str]
) -> None:
    game = Game(data)
    for intent in intents:
        game.step(intent)
    loaded = load_game(json.loads(json.dumps(save_game(game))))
    assert loaded.state.to_json(history=True) == game.state.to_json(history=True)


@SETTINGS
@given(empty_levels(), moves)
def test_solver_keys_follow_the_game_with_empty(data: dict[str, Any], intents: list[str]) -> None:
    check_solver_keys_follow_the_game(data, intents)


@SETTINGS
@given(empty_levels(), moves)
def test_a_reused_reading_is_the_reading_every_phase_would_compute_with_empty(
    data: dict[str, Any], intents: list[str]
) -> None:
    with every_reading_checked():
        _play_and_undo(data, intents)


@SETTINGS
@given(empty_levels(), st.lists(st.sampled_from([*INTENTS, "undo", "undo", "reset"]), max_size=30))
def test_a_client_model_follows_play_that_makes_and_removes_things(
    data: dict[str, Any], actions: list[str]
) -> None:
    _follow_all(data, actions)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(empty_levels(max_side=3))
def test_solver_agrees_with_a_naive_search_with_empty(data: dict[str, Any]) -> None:
    check_solver_agrees_with_a_naive_search(data, budget=600)


# The loader


def _pack(objects: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "manifest": {
            "id": "empty-test",
            "name": "Empty",
            "version": "1.0.0",
            "engine": 1,
            "features": [VOCABULARY_1],
        },
        "levels": [{"id": "one", "title": "One", "width": 4, "height": 3, "objects": objects}],
    }


def test_the_loader_takes_the_word_empty_in_a_vocabulary_1_pack_and_refuses_it_as_a_noun() -> None:
    words = [
        {"kind": "word", "text": text, "x": x, "y": 0}
        for x, text in enumerate(["EMPTY", "IS", "ROCK"])
    ]
    things = [
        {"kind": "object", "noun": noun, "x": x, "y": 2} for x, noun in enumerate(["MIAU", "ROCK"])
    ]
    pack = load_pack(_pack([*words, *things]))
    assert pack.warnings == ()
    assert Level.from_dict(pack.levels[0].data).reserved == 12
    refused = _pack([*words, *things, {"kind": "object", "noun": "EMPTY", "x": 3, "y": 2}])
    with pytest.raises(PackError, match="EMPTY"):
        load_pack(refused)
