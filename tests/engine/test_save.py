"""The compact save (level plus move string) replays to the exact game, undo included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game, Level
from miau.engine.save import SaveError, level_to_dict, load_game, save_game
from tests.engine.builders import level, sentence, thing
from tests.engine.strategies import INTENTS, levels


@settings(max_examples=150, deadline=None)
@given(levels(), st.lists(st.sampled_from([*INTENTS, "undo", "reset"]), max_size=30))
def test_a_save_replays_to_the_same_state_and_history(
    data: dict[str, Any], actions: list[str]
) -> None:
    game = Game(data)
    for action in actions:
        getattr(game, action)() if action in ("undo", "reset") else game.step(action)
    save = json.loads(json.dumps(save_game(game)))
    assert save["moves"] == game.moves
    assert len(save["moves"]) == game.history_length
    loaded = load_game(save)
    assert loaded.state.to_json(history=True) == game.state.to_json(history=True)


@settings(max_examples=100, deadline=None)
@given(levels())
def test_a_level_written_as_a_dict_reads_back_equal(data: dict[str, Any]) -> None:
    level = Level.from_dict(data)
    assert Level.from_dict(level_to_dict(level)) == level


def test_a_game_with_a_restored_history_saves_its_state() -> None:
    data = level(5, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 0, 2))
    original = Game(data)
    original.play("RR")
    copy = Game(data)
    assert copy.restore(original.state.to_json(history=True)).accepted
    assert copy.moves is None
    save = save_game(copy)
    assert "state" in save and "moves" not in save
    assert load_game(save).state.to_json(history=True) == original.state.to_json(history=True)


@pytest.mark.parametrize(
    ("save", "message"),
    [
        ({"format": "other"}, "not a Miau save"),
        ({"format": "miau-save", "version": 9}, "save version"),
        ({"format": "miau-save", "version": 1, "level": {"width": 0}}, "level: width"),
        (
            {
                "format": "miau-save",
                "version": 1,
                "level": {"width": 2, "height": 1, "objects": []},
                "moves": "RQ",
            },
            "'Q'",
        ),
        (
            {
                "format": "miau-save",
                "version": 1,
                "level": {"width": 2, "height": 1, "objects": []},
                "moves": "R",
            },
            "not accepted",
        ),
        (
            {
                "format": "miau-save",
                "version": 1,
                "level": {"width": 2, "height": 1, "objects": []},
                "state": 3,
            },
            "state:",
        ),
    ],
)
def test_a_broken_save_is_refused_with_its_reason(save: dict[str, Any], message: str) -> None:
    with pytest.raises(SaveError, match=message):
        load_game(save)


def test_a_game_restored_without_history_has_no_move_string_until_reset() -> None:
    data = level(5, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 0, 2))
    original = Game(data)
    original.play("RRD")
    copy = Game(data)
    assert copy.restore(original.state.to_json()).accepted
    copy.step("right")
    assert copy.moves is None
    assert load_game(save_game(copy)).state.to_json(history=True) == copy.state.to_json(
        history=True
    )
    copy.reset()
    assert copy.moves == ""
