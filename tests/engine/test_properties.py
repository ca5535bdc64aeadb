"""Invariants over generated levels and move sequences (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Event, Game
from tests.engine.strategies import actions, garbage, levels, moves


def _act(game: Game, action: object) -> Event:
    if action == "undo":
        return game.undo()
    if action == "reset":
        return game.reset()
    return game.step(action)


def _settled(game: Game) -> dict[str, Any]:
    return game.state.to_json(history=True)


def check_undo_restores_each_step(data: dict[str, Any], intents: list[str]) -> None:
    """Each accepted step undoes to the exact state before it and replays identically."""
    game = Game(data)
    for number, intent in enumerate(intents, start=1):
        before = _settled(game)
        event = game.step(intent)
        if not event.accepted:
            assert _settled(game) == before, f"rejected step {number} ({intent}) changed the state"
            continue
        after = _settled(game)
        assert game.undo().accepted
        assert _settled(game) == before, f"undo of step {number} ({intent}) differs"
        again = game.step(intent)
        assert again.to_json() == event.to_json(), f"step {number} ({intent}) replayed differently"
        assert _settled(game) == after


@settings(max_examples=150, deadline=None)
@given(levels(), moves)
def test_undo_after_any_accepted_step_restores_the_exact_previous_state(
    data: dict[str, Any], intents: list[str]
) -> None:
    check_undo_restores_each_step(data, intents)


@settings(max_examples=150, deadline=None)
@given(levels(), actions)
def test_reset_always_equals_a_fresh_game(data: dict[str, Any], sequence: list[str]) -> None:
    game = Game(data)
    for action in sequence:
        _act(game, action)
    game.reset()
    assert _settled(game) == _settled(Game(data))


@settings(max_examples=150, deadline=None)
@given(levels(), actions)
def test_the_same_level_and_moves_give_byte_identical_events(
    data: dict[str, Any], sequence: list[str]
) -> None:
    def run() -> list[str]:
        game = Game(json.loads(json.dumps(data)))
        lines = [json.dumps(_act(game, action).to_json()) for action in sequence]
        return [*lines, json.dumps(_settled(game))]

    first, second = run(), run()
    for number, (one, two) in enumerate(zip(first, second, strict=True), start=1):
        assert one == two, f"action {number} differs between runs"


@settings(max_examples=150, deadline=None)
@given(levels(), st.lists(st.one_of(st.sampled_from(["undo", "reset"]), moves.map(tuple), garbage)))
def test_no_sequence_of_intents_raises(data: dict[str, Any], sequence: list[object]) -> None:
    game = Game(data)
    for item in sequence:
        intents = (
            item if isinstance(item, tuple) and all(isinstance(i, str) for i in item) else (item,)
        )
        for intent in intents:
            before = _settled(game)
            event = _act(game, intent)
            record = event.to_json()
            assert set(record) >= {"kind", "accepted", "moved", "won", "moveCount"}
            if not event.accepted:
                assert _settled(game) == before


@settings(max_examples=100, deadline=None)
@given(levels(), moves, moves)
def test_a_restored_state_plays_and_undoes_like_the_original(
    data: dict[str, Any], first: list[str], then: list[str]
) -> None:
    check_restore_plays_like_the_original(data, first, then)


def check_restore_plays_like_the_original(
    data: dict[str, Any], first: list[str], then: list[str]
) -> None:
    """A game restored from the state after ``first`` plays ``then`` and undoes like the original."""
    original = Game(data)
    for intent in first:
        original.step(intent)
    copy = Game(data)
    assert copy.restore(json.loads(json.dumps(_settled(original)))).accepted
    assert _settled(copy) == _settled(original)
    for intent in then:
        assert copy.step(intent).to_json() == original.step(intent).to_json()
    while original.can_undo:
        assert copy.undo().to_json() == original.undo().to_json()
        assert _settled(copy) == _settled(original)
    assert not copy.can_undo
