"""The frozen data classes pickle in both builds: they travel between processes.

The solver's parallel runs, the server's helper and studio workers and the
generator send levels, reports and results through pickle. A class compiled
by mypyc refuses the field-by-field unpickling of a frozen data class, so
each one says how to rebuild itself (``miau.engine.pickling``); these tests
hold whichever build is imported to that.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path

import miau.engine
import miau.packs
import miau.solver
from miau.engine import Game, Level
from miau.engine.state import TurnRecord
from miau.packs import PackError, PackIssue
from miau.solver import check_level, read_levels, solve
from miau.solver.depth import depth_profile

PACKS = Path(__file__).resolve().parents[2] / "packs"


LEFT_INTERPRETED = {"miau.packs.model"}
"""The pack's data model stays interpreted in the compiled build (``setup.py``), so it pickles."""


def frozen_data_classes() -> list[type]:
    """Every frozen data class defined in the engine, the loader and the solver."""
    found = []
    for package in (miau.engine, miau.packs, miau.solver):
        for info in pkgutil.iter_modules(package.__path__):
            if f"{package.__name__}.{info.name}" in LEFT_INTERPRETED:
                continue
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for value in vars(module).values():
                if (
                    inspect.isclass(value)
                    and value.__module__ == module.__name__
                    and dataclasses.is_dataclass(value)
                    and value.__dataclass_params__.frozen  # type: ignore[attr-defined]
                ):
                    found.append(value)
    return found


def round_trip(value: object) -> object:
    return pickle.loads(pickle.dumps(value))


def test_every_frozen_data_class_says_how_to_rebuild_itself() -> None:
    classes = frozen_data_classes()
    assert {"Level", "State", "Rule", "SearchResult", "LevelSpec", "PackIssue"} <= {
        cls.__name__ for cls in classes
    }
    lacking = [cls.__qualname__ for cls in classes if "__reduce__" not in vars(cls)]
    assert lacking == []


def test_a_level_its_state_and_its_rules_come_back_equal() -> None:
    (spec, *_) = read_levels(PACKS / "clockwork-pairs.json").levels
    level = Level.from_dict(spec.data)
    assert round_trip(level) == level
    game = Game(level)
    game.play(spec.solution or "")
    state = game.state
    # The rule table has no equality of its own: the state compares by what it shows.
    assert round_trip(state).to_json(history=True) == state.to_json(history=True)  # type: ignore[attr-defined]
    assert round_trip(state.rules) == state.rules
    assert round_trip(state.sentences) == state.sentences


def test_an_event_its_log_and_the_history_records_come_back_equal() -> None:
    # Written __init__s (the engine's per-turn classes): compiled, they unpickle only through
    # __reduce__.
    (spec, *_) = read_levels(PACKS / "clockwork-pairs.json").levels
    game = Game(Level.from_dict(spec.data))
    events = game.play(spec.solution or "")
    for event in (events[0], events[-1], game.undo()):
        copy = round_trip(event)
        assert copy.to_json() == event.to_json()  # type: ignore[attr-defined]
        assert round_trip(event.log) == event.log
    record = game.state.last_turn
    assert record is not None
    copy = round_trip(record)
    assert isinstance(copy, TurnRecord)
    # A rule table compares by identity, so the records compare by what they hold besides it.
    assert (copy.changes, copy.letter, copy.depth) == (record.changes, record.letter, record.depth)
    assert copy.previous is not None and copy.previous.depth == record.depth - 1
    before, copied = record.before, copy.before
    assert (copied.move_count, copied.won, copied.control_lost, copied.phases) == (
        before.move_count,
        before.won,
        before.control_lost,
        before.phases,
    )
    assert copied.rules.rules == before.rules.rules


def test_the_solvers_levels_results_and_reports_come_back_equal() -> None:
    levels = read_levels(PACKS / "tutorial.json")
    assert round_trip(levels) == levels
    spec = levels.levels[0]
    result = solve(spec.data)
    assert round_trip(result) == result
    report = check_level(spec)
    assert round_trip(report) == report
    profile = depth_profile(spec.data, sample_size=2)
    assert round_trip(profile) == profile


def test_a_pack_error_comes_back_with_its_issues() -> None:
    issues = (PackIssue("manifest.id", "is missing", "error", ("manifest", "id")),)
    error = round_trip(PackError(issues))
    assert isinstance(error, PackError)
    assert error.issues == issues
