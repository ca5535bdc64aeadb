"""The solver's successor machinery against ``Game``, step by step.

The expander reuses the engine's turn, but it moves its board between
states by comparing keys, and builds child keys from the turn's journal.
These tests play random games with ``Game`` (branching with ``undo``) and
check at every step that the expander offers exactly the accepted moves,
each leading to the key and win flag of the state ``Game`` reaches.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.vocabulary import MOVE_LETTERS
from miau.solver import Expander, KeyCodec, read_levels, solve
from miau.solver.successors import Child
from tests.solver.builders import (
    LEVELS,
    PACKS,
    SHIPPED_PACKS,
    fixture_level,
    level,
    sentence,
    thing,
)
from tests.solver.strategies import small_levels

INTENTS = MOVE_LETTERS


def _every_level(paths: list[Path]) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in paths:
        for spec in read_levels(path).levels:
            found.append((f"{path.stem}/{spec.id}", dict(spec.data)))
    return found


LOADABLE_TEST_PACKS = sorted(p for p in PACKS.glob("*.json") if p.name != "does-not-load.json")
KNOWN_LEVELS = _every_level(SHIPPED_PACKS + LOADABLE_TEST_PACKS)
KNOWN_LEVELS += _every_level(sorted(LEVELS.glob("*.json")))


def _random_play(data: dict[str, Any], seed: int, steps: int) -> None:
    rnd = random.Random(seed)
    expander = Expander(data)
    codec = expander.codec
    game = Game(data)
    key = expander.root
    assert codec.encode_state(game.state) == key
    for step in range(steps):
        offered = {letter: (child, won) for letter, child, won in expander.successors(key)}
        for letter, intent in INTENTS.items():
            event = game.step(intent)
            where = f"step {step}, move {letter}"
            if letter in offered:
                child, won = offered[letter]
                assert event.accepted, where
                assert codec.encode_state(game.state) == child, where
                assert event.won == won, where
            elif event.accepted:
                # Only a wait may be left out, and only when it changes nothing.
                assert letter == "W", where
                assert codec.encode_state(game.state) == key and not event.won, where
            if event.accepted:
                assert game.undo().accepted
        playable = sorted(m for m, (_, won) in offered.items() if not won)
        if not playable:
            return
        letter = rnd.choice(playable)
        game.step(INTENTS[letter])
        key = offered[letter][0]


@pytest.mark.parametrize(("name", "data"), KNOWN_LEVELS, ids=[n for n, _ in KNOWN_LEVELS])
def test_expander_matches_game_on_random_play_over_known_levels(
    name: str, data: dict[str, Any]
) -> None:
    for seed in range(3):
        _random_play(data, seed, steps=60)


@settings(max_examples=80, deadline=None)
@given(small_levels(), st.integers(0, 1000))
def test_expander_matches_game_on_random_play_over_generated_levels(
    data: dict[str, Any], seed: int
) -> None:
    _random_play(data, seed, steps=25)


def test_objects_no_rule_can_reach_are_left_out_of_the_key() -> None:
    data = level(
        5, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 0, 2), thing("ROCK", 3, 2),
    )  # fmt: skip
    codec = KeyCodec(Game(data).level)
    assert codec.pos_ids == (0, 1, 2, 3)  # the words and the cat, not the rock
    assert codec.noun_ids == ()  # one noun word: nothing can transform


def test_with_a_sink_word_every_object_is_in_the_key() -> None:
    data = level(
        5, 3, sentence("MIAU IS SINK", 0, 0), thing("MIAU", 0, 2), thing("ROCK", 3, 2),
    )  # fmt: skip
    assert KeyCodec(Game(data).level).pos_ids == (0, 1, 2, 3, 4)


def test_nouns_are_in_the_key_when_a_transformation_can_be_formed() -> None:
    data = level(
        5, 3, sentence("MIAU IS FLAG", 0, 0), thing("MIAU", 0, 2), thing("ROCK", 3, 2),
    )  # fmt: skip
    assert KeyCodec(Game(data).level).noun_ids == (3,)  # the cat, not the unreachable rock


def test_facing_is_not_part_of_the_key() -> None:
    data = level(5, 3, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 1, 2))
    game = Game(data)
    codec = KeyCodec(game.level)
    start = codec.encode_state(game.state)
    game.play("RL")
    assert game.state.to_json()["entities"][-1]["facing"] == "left"
    assert codec.encode_state(game.state) == start


def test_boards_of_more_than_254_cells_use_two_bytes_per_slot() -> None:
    data = level(
        20, 20, sentence("MIAU IS YOU", 0, 0), sentence("FLAG IS WIN", 0, 1),
        thing("MIAU", 18, 18), thing("FLAG", 19, 19),
    )  # fmt: skip
    expander = Expander(data)
    codec = expander.codec
    assert codec.wide
    assert len(expander.root) == 2 * codec.slot_count
    assert codec.unpack(expander.root) == codec.values(expander.board)
    assert solve(data).moves == "DR"


FACING_LETTERS = "RDLU"
"""Move letters by facing index (right, down, left, up)."""


def _states(data: dict[str, Any], budget: int) -> Iterator[tuple[Expander, bytes, list[Child]]]:
    """Up to ``budget`` states breadth-first, each with its expander and its children as played.

    A rating is asked for, so no child is told (``Expander.children``).
    """
    expander = Expander(data)
    seen = {expander.root}
    frontier = deque([expander.root])
    while frontier and len(seen) < budget:
        key = frontier.popleft()
        played = expander.children(key, _unrated)
        yield expander, key, played
        for _, child, won, _, _ in played:
            if not won and child not in seen:
                seen.add(child)
                frontier.append(child)


def _check_ways_back(data: dict[str, Any], budget: int) -> int:
    """Every way back given on the first ``budget`` states, played, leads home.

    Returns how many ways back were checked, so a caller can see the rule at work.
    """
    checked = 0
    for expander, key, played in _states(data, budget):
        for letter, child, won, _, back in played:
            if back is not None:
                assert not won
                home = {m: (k, w) for m, k, w, _, _ in expander.children(child, _unrated)}
                assert home[FACING_LETTERS[back]] == (key, False), (letter, back)
                checked += 1
    return checked


@settings(max_examples=120, deadline=None)
@given(small_levels())
def test_every_way_back_leads_from_the_child_straight_back_to_its_parent(
    data: dict[str, Any],
) -> None:
    _check_ways_back(data, budget=300)


@pytest.mark.parametrize(("name", "data"), KNOWN_LEVELS, ids=[n for n, _ in KNOWN_LEVELS])
def test_every_way_back_on_known_levels_leads_straight_back(
    name: str, data: dict[str, Any]
) -> None:
    _check_ways_back(data, budget=400)


def test_a_crowd_of_cats_walking_in_a_line_gets_its_way_back_and_a_push_does_not() -> None:
    data = level(
        7, 5, sentence("MIAU IS YOU", 0, 0), sentence("ROCK IS PUSH", 0, 1),
        thing("MIAU", 1, 3), thing("MIAU", 2, 3), thing("MIAU", 3, 3), thing("ROCK", 4, 3),
    )  # fmt: skip
    expander = Expander(data)

    def children(key: bytes) -> dict[str, tuple[bytes, int | None]]:
        return {m: (child, back) for m, child, _, _, back in expander.children(key, _unrated)}

    # The start was never settled, so nothing is proven from it: step away first.
    away, back = children(expander.root)["U"]
    assert back is None
    along, back = children(away)["R"]
    assert back == FACING_LETTERS.index("L")  # three cats step into free cells together
    further = children(along)
    assert further["R"][1] == FACING_LETTERS.index("L")
    assert further["D"][1] is None  # the front cat pushes the rock, which stays pushed
    assert _check_ways_back(data, budget=200) > 0
    _check_told_children(data, budget=200)


def _unrated(_board: object) -> int:
    return 0


def test_no_way_back_is_claimed_on_levels_with_automata() -> None:
    data = fixture_level("mouse-keeps-time")
    expander = Expander(data)
    for _, child, _, _, _ in expander.children(expander.root, _unrated):
        assert all(back is None for *_, back in expander.children(child, _unrated))


def test_a_board_with_a_sink_or_defeat_meeting_left_over_is_not_one_a_turn_leaves_alone() -> None:
    # Only the start (never settled) or a state whose rules changed in the last
    # turn's contact pass can look like this; the way back is then not proven.
    sinking = level(
        5, 4, sentence("MIAU IS YOU", 0, 0), sentence("ROCK IS SINK", 0, 1),
        thing("MIAU", 0, 3), thing("ROCK", 3, 3), thing("FLAG", 3, 3),
    )  # fmt: skip
    deadly = level(
        5, 4, sentence("MIAU IS YOU", 0, 0), sentence("ROCK IS DEFEAT", 0, 1),
        thing("MIAU", 3, 3), thing("ROCK", 3, 3),
    )  # fmt: skip
    calm = level(5, 4, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 3, 3), thing("ROCK", 1, 3))
    for data, settled in ((sinking, False), (deadly, False), (calm, True)):
        expander = Expander(data)
        board = expander.board
        assert expander.settles_to_itself(board, board.holders("YOU")) is settled


def _check_told_children(data: dict[str, Any], budget: int) -> None:
    """Children told without playing (no rating asked) equal the children played, field by field."""
    for expander, key, played in _states(data, budget):
        assert expander.children(key, None) == played


@settings(max_examples=120, deadline=None)
@given(small_levels())
def test_a_turn_told_without_playing_is_the_turn_played(
    data: dict[str, Any],
) -> None:
    _check_told_children(data, budget=300)


@pytest.mark.parametrize(("name", "data"), KNOWN_LEVELS, ids=[n for n, _ in KNOWN_LEVELS])
def test_children_told_without_playing_on_known_levels_are_the_children_played(
    name: str, data: dict[str, Any]
) -> None:
    _check_told_children(data, budget=400)


def test_a_thing_still_to_transform_keeps_every_step_played() -> None:
    # The level starts with the rock made a flag, the first turn makes it a wall and
    # the next a keke, so from the state after the first turn no step can be told.
    data = level(
        6, 6, sentence("MIAU IS YOU", 0, 0), sentence("ROCK IS FLAG", 0, 1),
        sentence("FLAG IS WALL", 0, 2), sentence("WALL IS KEKE", 0, 3),
        thing("MIAU", 2, 5), thing("ROCK", 5, 5),
    )  # fmt: skip
    _check_told_children(data, budget=50)


def _check_regions(data: dict[str, Any], budget: int) -> int:
    """Each region's states and leaving children are what playing every move of its states gives.

    Every child played from a state of the region either leaves it (and is
    listed, from that state, with the same move, key, win and deadness) or is
    one of the region's own states, not won; and each state of the region is
    a child of the state it was walked to from. Returns the largest region seen.
    """
    largest = 0
    for expander, key, _ in _states(data, budget):
        states, leaving = expander.region(key)
        inside = {state for state, _ in states}
        assert states[0] == (key, None)
        assert len(inside) == len(states)
        largest = max(largest, len(states))
        for state, came_from in states:
            played = {(m, k, w, v) for m, k, w, v, _ in expander.children(state, _unrated)}
            out = {(m, k, w, v) for source, (m, k, w, v, _) in leaving if source == state}
            assert out <= played
            for _, child, won, value in played - out:
                assert child in inside and not won and value == 0
            if came_from is not None:
                walked = expander.children(came_from, _unrated)
                assert state in {child for _, child, _, _, _ in walked}
    return largest


@settings(max_examples=120, deadline=None)
@given(small_levels())
def test_a_region_is_the_states_and_children_its_moves_play(data: dict[str, Any]) -> None:
    _check_regions(data, budget=150)


@pytest.mark.parametrize(("name", "data"), KNOWN_LEVELS, ids=[n for n, _ in KNOWN_LEVELS])
def test_regions_on_known_levels_are_the_states_and_children_their_moves_play(
    name: str, data: dict[str, Any]
) -> None:
    _check_regions(data, budget=120)


def test_a_lone_cat_in_an_empty_room_walks_the_whole_room_as_one_region() -> None:
    data = level(5, 4, sentence("MIAU IS YOU", 0, 0), thing("MIAU", 2, 2))
    expander = Expander(data)
    child = next(k for m, k, _ in expander.successors(expander.root) if m == "D")
    states, leaving = expander.region(child)
    # Every cell but the three words' is free to walk, and every push of the words
    # runs into the board's edge: nothing leaves the region.
    assert len(states) == 5 * 4 - 3
    assert leaving == []
