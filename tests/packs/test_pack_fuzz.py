"""Whatever arrives, validation reports issues and loading is all or nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from miau.packs import Pack, PackError, load_pack, validate_pack
from tests.packs.strategies import draw_place

GOOD = Path(__file__).parent / "good" / "every-field.json"
GOOD_PACK: dict[str, Any] = json.loads(GOOD.read_text(encoding="utf-8"))

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)
field_names = st.sampled_from(
    ["manifest", "levels", "id", "title", "width", "height", "objects", "map", "legend",
     "automata", "pairs", "pattern", "words", "noun", "text", "x", "y", "features",
     "palette", "properties", "vocabulary", "phase", "effect", "enter", "solution"]
)  # fmt: skip
pack_like = st.dictionaries(field_names | st.text(max_size=6), json_values, max_size=6)


def load_outcome(data: Any) -> Pack | PackError:
    try:
        return load_pack(data)
    except PackError as error:
        return error


@settings(deadline=None)
@given(json_values | pack_like)
def test_validate_pack_never_raises(data: Any) -> None:
    issues = validate_pack(data)
    assert all(issue.severity in ("error", "warning") for issue in issues)


@settings(deadline=None)
@given(pack_like)
def test_load_pack_returns_a_pack_or_raises_pack_error(data: Any) -> None:
    before = copy.deepcopy(data)
    outcome = load_outcome(data)
    assert isinstance(outcome, Pack | PackError)
    if isinstance(outcome, PackError):
        assert outcome.errors
    assert repr(data) == repr(before)  # repr, because NaN never equals itself


@st.composite
def damaged_good_pack(draw: st.DrawFn) -> Any:
    """The good pack with one value somewhere deep inside replaced by anything."""
    data = copy.deepcopy(GOOD_PACK)
    place = draw_place(draw, data)
    if place is not None:
        node, key = place
        node[key] = draw(json_values)
    return data


@settings(max_examples=300, deadline=None)
@given(damaged_good_pack())
def test_damage_deep_inside_a_good_pack_is_reported_not_raised(data: Any) -> None:
    outcome = load_outcome(data)
    assert isinstance(outcome, Pack | PackError)
    issues = validate_pack(data)
    if isinstance(outcome, Pack):
        assert all(issue.severity == "warning" for issue in issues)
        assert load_pack(outcome.to_json()) == outcome
    else:
        assert list(outcome.issues) == issues
