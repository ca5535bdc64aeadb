"""Undo, determinism, restore and the solver's key on generated vocabulary-1 levels."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings

from miau.compiled import is_compiled
from miau.engine import Game, parse_moves, replay
from miau.engine.board import GONE, Board, KeptReading, Reading
from miau.solver import Outcome, solve
from miau.solver.successors import Expander
from tests.engine.test_properties import (
    check_restore_plays_like_the_original,
    check_undo_restores_each_step,
)
from tests.engine.vocabulary.grid import FIXTURES, board_level, load_fixture
from tests.engine.vocabulary.strategies import moves, tier1_levels

FIXTURE_PATHS = sorted(FIXTURES.glob("*.json"))

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PATCHES_THE_BOARD = pytest.mark.skipif(
    is_compiled(),
    reason="patches Board.read, which the compiled engine calls directly: the pure pass checks it",
)


def _settled(game: Game) -> dict[str, Any]:
    return game.state.to_json(history=True)


@SETTINGS
@given(tier1_levels(), moves)
def test_undo_after_any_step_restores_the_exact_previous_state(
    data: dict[str, Any], intents: list[str]
) -> None:
    check_undo_restores_each_step(data, intents)


@SETTINGS
@given(tier1_levels(), moves)
def test_the_same_level_and_moves_give_byte_identical_events(
    data: dict[str, Any], intents: list[str]
) -> None:
    one, two = Game(data), Game(data)
    first = [json.dumps(one.step(i).to_json(), sort_keys=True) for i in intents]
    second = [json.dumps(two.step(i).to_json(), sort_keys=True) for i in intents]
    assert first == second
    assert _settled(one) == _settled(two)


@SETTINGS
@given(tier1_levels(), moves, moves)
def test_a_restored_state_plays_and_undoes_like_the_original(
    data: dict[str, Any], first: list[str], then: list[str]
) -> None:
    check_restore_plays_like_the_original(data, first, then)


@SETTINGS
@given(tier1_levels(), moves)
def test_solver_keys_follow_the_game(data: dict[str, Any], intents: list[str]) -> None:
    check_solver_keys_follow_the_game(data, intents)


def check_solver_keys_follow_the_game(data: dict[str, Any], intents: list[str]) -> None:
    """A key the solver reaches by successors equals the key of the same game state."""
    game = Game(data)
    search = Expander(data)
    # The search's own codec: a level with only core words is searched with core keys.
    codec = search.codec
    key = search.root
    assert key == codec.encode_state(game.state)
    letters = {"up": "U", "down": "D", "left": "L", "right": "R", "wait": "W"}
    for intent in intents:
        if game.won:
            break
        nexts = dict((letter, child) for letter, child, _ in search.successors(key))
        event = game.step(intent)
        if not event.accepted:
            continue
        letter = letters[intent]
        if letter not in nexts:
            # The solver skips a wait only when it can change nothing.
            assert letter == "W" and codec.encode_state(game.state) == key
            continue
        key = nexts[letter]
        assert key == codec.encode_state(game.state)


def _naive_shortest(data: dict[str, Any], budget: int) -> tuple[int | None, bool]:
    """Breadth-first over Game states (facings kept: MOVE and FACING read them)."""

    def key(game: Game) -> str:
        state = game.state.to_json()
        for name in ("historyLength", "moveCount"):
            state.pop(name)
        return json.dumps(state, sort_keys=True)

    start = Game(data)
    seen = {key(start)}
    queue = deque([(start.state.to_json(history=True), 0)])
    while queue:
        snapshot, depth = queue.popleft()
        for intent in ("up", "down", "left", "right", "wait"):
            game = Game(data)
            game.restore(snapshot)
            if not game.step(intent).accepted:
                continue
            if game.won:
                return depth + 1, False
            found = key(game)
            if found in seen:
                continue
            if len(seen) >= budget:
                return None, True
            seen.add(found)
            queue.append((game.state.to_json(), depth + 1))
    return None, False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tier1_levels(max_side=4))
def test_solver_agrees_with_a_naive_search(data: dict[str, Any]) -> None:
    check_solver_agrees_with_a_naive_search(data, budget=800)


def check_solver_agrees_with_a_naive_search(data: dict[str, Any], budget: int) -> None:
    """The solver's answer wins, and matches a naive search's shortest length or UNSOLVABLE.

    Levels the naive search cannot exhaust within ``budget`` states are
    checked for the winning answer only.
    """
    result = solve(data, max_expansions=20_000)
    if result.outcome is Outcome.SOLVED:
        assert result.moves is not None
        assert replay(data, result.moves).won
    length, exhausted = _naive_shortest(data, budget=budget)
    if exhausted:
        return
    if length is None:
        assert result.outcome is Outcome.UNSOLVABLE
    else:
        assert result.length == length


@contextmanager
def every_reading_checked() -> Iterator[list[int]]:
    """Check each reading a phase takes against one computed afresh; counts the reused ones."""
    reuse = Board.read
    reused = [0]

    def checked(board: Board) -> Reading:
        before = board._reading
        reading = reuse(board)
        fresh = KeptReading(board)
        alive = [i for i, cell in enumerate(board.pos) if cell != GONE]
        assert [reading.props(i) for i in alive] == [fresh.props(i) for i in alive]
        assert reading.floats == fresh.floats
        reused[0] += reading is before or reading is board  # a board reads itself live
        return reading

    with patch.object(Board, "read", checked):
        yield reused


def _play_and_undo(data: dict[str, Any], moves: list[str]) -> None:
    game = Game(data)
    for move in moves:
        game.step(move)
    while game.can_undo:
        game.undo()
        game.wait()
        game.undo()


@PATCHES_THE_BOARD
@SETTINGS
@given(tier1_levels(), moves)
def test_a_reused_reading_is_the_reading_every_phase_would_compute(
    data: dict[str, Any], intents: list[str]
) -> None:
    with every_reading_checked():
        _play_and_undo(data, intents)


@PATCHES_THE_BOARD
@pytest.mark.parametrize("path", FIXTURE_PATHS, ids=[path.stem for path in FIXTURE_PATHS])
def test_a_reused_reading_is_the_reading_every_phase_would_compute_in_each_fixture(
    path: Path,
) -> None:
    fixture = load_fixture(path)
    with every_reading_checked() as reused:
        _play_and_undo(board_level(fixture["board"]), parse_moves(fixture["moves"]))
    assert reused[0] > 0  # the check saw reuse, not only fresh readings
