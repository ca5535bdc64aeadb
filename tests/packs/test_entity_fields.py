"""One entity checker for the engine and the pack loader: same answers, same messages."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from miau.engine import Level, LevelError
from miau.engine.entity_fields import EntityFields, Problem, check_entity, read_entity
from miau.packs import PackError, load_pack

WIDTH, HEIGHT = 4, 3

_FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "kind": st.sampled_from(["object", "word", "ghost", "", 1, None]),
    "noun": st.sampled_from(["ROCK", "rock", "YOU", "IS", "FLAG-2", "\u0131s", "", "A B", 5, None]),
    "text": st.sampled_from(["ROCK", "is", "YOU", "WIN", "\u017f", "", 3.0, None]),
    "x": st.sampled_from([0, 1, 3, 4, -1, True, 1.0, "1", None, 10**30]),
    "y": st.sampled_from([0, 2, 3, -1, False, "0", None]),
    "facing": st.sampled_from(["right", "down", "left", "up", "north", "UP", None, 0]),
    "id": st.integers(0, 3),
}

entities = st.fixed_dictionaries(
    {}, optional={name: values for name, values in _FIELD_VALUES.items()}
)


def _read_slowly(raw: object) -> EntityFields | list[Problem]:
    problems: list[Problem] = []
    entity = read_entity(raw, WIDTH, HEIGHT, lambda key, message: problems.append((key, message)))
    return problems if problems or entity is None else entity


@given(entities)
@example({"kind": "object", "noun": "ROCK", "x": 3, "y": 2, "facing": "up", "id": 0})
@example({"kind": "word", "text": "IS", "x": 0, "y": 0})
@example({"kind": "object", "noun": "ROCK", "x": 0, "y": 0, "facing": None})
def test_the_engines_quick_path_answers_exactly_as_the_full_reader(raw: dict[str, Any]) -> None:
    assert check_entity(raw, WIDTH, HEIGHT) == _read_slowly(raw)


def test_a_sound_entity_is_read_with_its_token_raised_and_its_kind_made_explicit() -> None:
    assert check_entity({"text": "is", "x": 1, "y": 2}, WIDTH, HEIGHT) == EntityFields(
        "word", "IS", 1, 2, None
    )
    rock = check_entity({"noun": "ROCK", "x": 0, "y": 0, "facing": "up"}, WIDTH, HEIGHT)
    assert isinstance(rock, EntityFields) and rock.facing_index == 3 and not rock.is_word


def test_every_problem_of_an_entity_is_reported_with_its_field() -> None:
    raw = {"kind": "word", "noun": "ROCK", "text": 7, "x": 4, "y": -1, "facing": "north"}
    problems = _read_slowly(raw)
    assert isinstance(problems, list)
    assert [field for field, _ in problems] == ["noun", "text", "x", "y", "facing"]


def _pack_with(entity: dict[str, Any]) -> dict[str, Any]:
    return {
        "manifest": {"id": "tiny", "name": "Tiny", "version": "1.0.0", "engine": 1},
        "levels": [
            {"id": "a", "title": "A", "width": WIDTH, "height": HEIGHT, "objects": [entity]}
        ],
    }


@pytest.mark.parametrize(
    "entity",
    [
        {"noun": "ROCK", "x": 4, "y": 0},
        {"kind": "word", "x": 0, "y": 0},
        {"noun": "YOU", "x": 0, "y": 0},
        {"kind": "ghost", "noun": "ROCK", "x": 0, "y": 0},
        {"noun": "miau cat", "x": 0, "y": 0},
        {"noun": "ROCK", "x": 0, "y": 0, "facing": "north"},
        {"noun": "ROCK", "text": "ROCK", "x": 0, "y": 0},
        [1, 2],
    ],
)
def test_the_engine_raises_the_pack_loaders_first_message(entity: Any) -> None:
    with pytest.raises(PackError) as loader:
        load_pack(_pack_with(entity))
    with pytest.raises(LevelError) as engine:
        Level.from_dict({"width": WIDTH, "height": HEIGHT, "objects": [entity]})
    first = loader.value.errors[0]
    assert f"levels[0].{engine.value}" == str(first)
