"""The board's forecast: TICK paths match the beats the engine then plays, facings that matter.

The forecast plays waits on the live board and rewinds them, so the tests
check both halves: the paths equal what waiting really does (on a separate
game), and the game is exactly as it was afterwards (state, history, and
the events of the next moves).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miau.engine import Game
from miau.engine.forecast import FORECAST_BEATS, MAX_FORECAST_BEATS, MAX_TICK_PATHS, Forecast
from miau.packs import load_pack
from miau.worlds import shipped_pack_path
from tests.engine.builders import sentence, state_json, thing
from tests.engine.strategies import levels, moves
from tests.engine.vocabulary.grid import board_level
from tests.engine.vocabulary.strategies import tier1_levels


def waited_cells(
    level: Any, moves_so_far: list[str], ids: list[int], beats: int
) -> tuple[dict[int, list[tuple[int, int]]], set[int]]:
    """Each id's cell after each of ``beats`` waits on a fresh game (until gone or won), and the gone."""
    game = Game(level)
    for intent in moves_so_far:
        game.step(intent)
    cells: dict[int, list[tuple[int, int]]] = {ident: [] for ident in ids}
    gone: set[int] = set()
    for _ in range(beats):
        if game.won:
            break
        game.wait()
        where = {entity["id"]: entity for entity in game.state.to_json()["entities"]}
        for ident in ids:
            if ident in gone or ident not in where:
                gone.add(ident)
                continue
            cells[ident].append((where[ident]["x"], where[ident]["y"]))
    return cells, gone


def assert_forecast_is_the_waits(level: Any, played: list[str], beats: int) -> Forecast:
    game = Game(level)
    for intent in played:
        game.step(intent)
    before = state_json(game)
    found = game.forecast(beats)
    assert state_json(game) == before, "the forecast changed the game"
    ids = [tick.id for tick in found.ticks]
    expected, gone = waited_cells(level, played, ids, beats)
    for tick in found.ticks:
        assert list(tick.path) == expected[tick.id], (played, tick)
        assert tick.gone == (tick.id in gone), (played, tick)
    return found


def clockwork_levels() -> list[Any]:
    return list(load_pack(shipped_pack_path("clockwork")).levels)


@pytest.mark.parametrize("level", clockwork_levels(), ids=lambda level: level.id)
def test_tick_paths_along_each_clockwork_solution_are_the_beats_waiting_plays(level: Any) -> None:
    assert level.solution
    letters = {"U": "up", "D": "down", "L": "left", "R": "right", "W": "wait"}
    played: list[str] = []
    for letter in ["", *level.solution]:
        if letter:
            played.append(letters[letter])
        found = assert_forecast_is_the_waits(level.data, played, FORECAST_BEATS)
        game = Game(level.data)
        for intent in played:
            game.step(intent)
        running = [a for a in game.state.to_json()["automata"] if a["active"]]
        if running and not game.won:
            assert found.ticks, (level.id, played)


def test_a_tick_path_names_its_automaton_and_the_beat_it_stands_on() -> None:
    level = load_pack(shipped_pack_path("clockwork")).level("double-time")
    game = Game(level.data)
    (tick,) = game.forecast().ticks
    assert (tick.automaton, tick.beat, tick.beats) == ("pendulum", 0, 2)
    game.wait()
    (tick,) = game.forecast().ticks
    assert tick.beat == 1
    mouse = next(e for e in game.state.to_json()["entities"] if e["id"] == tick.id)
    assert mouse["kind"] == "object"
    assert mouse["noun"] == "MOUSE"


def test_a_tick_thing_that_waiting_destroys_is_gone_after_its_path() -> None:
    level = load_pack(shipped_pack_path("clockwork")).level("double-time")
    game = Game(level.data)
    game.play("RRUURDDRWR")  # MIAU IS TICK, and the pendulum's next beat carries Miau into the fire
    miau = next(tick for tick in game.forecast().ticks if tick.id == 9)
    assert (miau.path, miau.gone) == ((), True)
    assert game.forecast().to_json()["ticks"][0]["gone"] is True


def test_the_forecast_leaves_the_next_moves_exactly_as_they_would_have_been() -> None:
    level = load_pack(shipped_pack_path("clockwork")).level("stop-the-clock")
    plain, looked = Game(level.data), Game(level.data)
    for letter in level.solution or "":
        looked.forecast(MAX_FORECAST_BEATS)
        assert looked.play(letter)[0].to_json() == plain.play(letter)[0].to_json()
    assert looked.won and plain.won
    assert looked.forecast().ticks == ()
    assert looked.undo().to_json() == plain.undo().to_json()
    assert state_json(looked) == state_json(plain)


@given(levels(), moves, st.integers(0, 6))
def test_tick_paths_are_the_waits_on_generated_levels(
    level: dict[str, Any], played: list[str], beats: int
) -> None:
    assert_forecast_is_the_waits(level, played, beats)


@given(tier1_levels(), moves)
def test_the_forecast_never_changes_a_vocabulary_1_game(
    level: dict[str, Any], played: list[str]
) -> None:
    game = Game(level)
    for intent in played:
        game.step(intent)
    before = state_json(game)
    game.forecast(4)
    assert state_json(game) == before


def test_only_things_that_move_along_their_facing_are_marked() -> None:
    level = load_pack(shipped_pack_path("lexicon")).level("stepping-stone")
    game = Game(level.data)
    rock = next(e["id"] for e in game.state.to_json()["entities"] if e.get("noun") == "ROCK")
    assert game.forecast().facing == ()
    game.play("LLLL")  # pushes MOVE into ROCK IS MOVE
    assert game.forecast().facing == (rock,)
    assert game.forecast().to_json() == {"facingMatters": [rock]}


def test_shift_things_and_the_subjects_of_facing_conditions_are_marked() -> None:
    game = Game(
        board_level(
            [
                "ROCK IS SHIFT . .",
                "MIAU FACING FLAG IS WIN",
                "MIAU IS YOU . .",
                "rock> miau< flag wall .",
            ]
        )
    )
    entities = game.state.to_json()["entities"]
    rock, miau = (
        next(e["id"] for e in entities if e.get("noun") == noun) for noun in ("ROCK", "MIAU")
    )
    assert game.forecast().facing == (rock, miau)


@pytest.mark.parametrize("mice", [MAX_TICK_PATHS, MAX_TICK_PATHS + 1])
def test_a_board_with_too_many_tick_things_follows_none(mice: int) -> None:
    level = {
        "width": 40,
        "height": 4,
        "objects": [
            *sentence("MOUSE IS TICK", 0, 0),
            *sentence("MIAU IS YOU", 4, 0),
            thing("MIAU", 0, 1),
            *(thing("MOUSE", x, 2) for x in range(mice)),
        ],
        "automata": [{"id": "run", "property": "TICK", "pattern": ["R", "L"]}],
    }
    ticks = Game(level).forecast().ticks
    assert len(ticks) == (mice if mice <= MAX_TICK_PATHS else 0)


def test_a_core_level_without_automata_forecasts_nothing() -> None:
    level = load_pack(shipped_pack_path("tutorial")).levels[0]
    assert Game(level.data).forecast().to_json() == {}


@pytest.mark.parametrize("beats", [-1, MAX_FORECAST_BEATS + 1])
def test_a_forecast_too_far_ahead_is_refused(beats: int) -> None:
    with pytest.raises(ValueError, match="beats"):
        Game(load_pack(shipped_pack_path("tutorial")).levels[0].data).forecast(beats)
