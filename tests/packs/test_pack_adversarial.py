"""Hostile packs: every input ends in a valid pack or clean issues, within a stated bound.

``test_pack_fuzz.py`` throws random JSON and random damage at the loader.
This file adds the adversarial cases: huge numbers, non-finite floats, long
strings, control characters and unicode confusables, deep nesting, very many
objects, and every limit of the format at its value and one past it, both
as parsed mappings and as JSON text (what an upload would send).

The bound: a pack of at most :data:`SIZE_CAP` bytes of JSON text loads or
fails within :data:`MEMORY_BOUND` bytes of peak Python allocation
(``tracemalloc``). How long each of these packs takes is a speed figure, not
a test: ``benchmarks/hostile_packs.py`` prints it against the one second
``docs/security.md`` states. The server refuses an upload over the cap
before parsing it.
"""

from __future__ import annotations

import copy
import json
import math
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.packs import Pack, PackError, load_pack, load_pack_text, validate_pack
from miau.packs.format import (
    MAX_AUTOMATA,
    MAX_DESCRIBE_LENGTH,
    MAX_GLYPH_LENGTH,
    MAX_HINT_LENGTH,
    MAX_LEVEL_OBJECTS,
    MAX_LEVEL_SIDE,
    MAX_NAME_LENGTH,
    MAX_PACK_LEVELS,
    MAX_PAIRS,
    MAX_PATTERN_STEPS,
    MAX_SOLVER_MAX,
)
from tests.packs.strategies import draw_place

GOOD: dict[str, Any] = json.loads(
    (Path(__file__).parent / "good" / "every-field.json").read_text(encoding="utf-8")
)
SIZE_CAP = 1024 * 1024
"""Bytes of JSON text: the pack size the bound is stated for (and a future upload's cap)."""
MEMORY_BOUND = 200 * 1024 * 1024

CONFUSABLES = [
    "\u0430",  # Cyrillic a
    "\u041c\u0406\u0410\u0423",  # MIAU in Cyrillic look-alikes
    "\uff2d\uff29\uff21\uff35",  # fullwidth MIAU
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\u202e",  # right-to-left override
    "\ufeff",  # byte order mark
    "e\u0301",  # combining accent
    "\u0130",  # dotted capital I: lowercases to two characters
    "\u00df",  # sharp s: uppercases to SS
    "\ud800",  # a lone surrogate
]
CONTROLS = ["\x00", "\x07", "\x1b[31m", "\r\n", "\t", "\x7f", "\u0085", "\u2028"]

huge_numbers = st.sampled_from(
    [10**99, -(10**99), 2**63, 2**64 + 1, -(2**63) - 1, 1e308, -1e308, 5e-324, -0.0]
) | st.sampled_from([math.inf, -math.inf, math.nan])
weird_text = st.one_of(
    st.sampled_from(CONFUSABLES + CONTROLS),
    st.lists(st.sampled_from(CONFUSABLES + CONTROLS + ["A", "is", "MIAU"]), max_size=8).map(
        "".join
    ),
    st.integers(1, 200_000).map(lambda length: "W" * length),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
)


def nested(depth: int) -> Any:
    """Lists inside lists, ``depth`` deep (built without recursion)."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


deep = st.integers(50, 5000).map(nested)
big_lists = st.integers(100, 1000).map(lambda count: [{"noun": "ROCK", "x": 0, "y": 0}] * count)
"""Past every count limit but objects' (the fixed cases below go far past that one too); longer
lists anywhere else run into the loader's known cost past a limit (see ``junk_levels``)."""
adversarial = st.one_of(
    huge_numbers,
    weird_text,
    deep,
    big_lists,
    st.dictionaries(weird_text, st.integers(), max_size=5),
)


def outcome(load: Callable[[], Pack]) -> Pack | PackError:
    try:
        return load()
    except PackError as error:
        assert error.errors, "a PackError always says what is wrong"
        return error


def within_bound(load: Callable[[], Pack]) -> Pack | PackError:
    """Load under ``tracemalloc``: a pack or clean issues, within the memory bound."""
    tracemalloc.start()
    try:
        result = outcome(load)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MEMORY_BOUND, f"peak {peak / 2**20:.0f} MiB"
    return result


@st.composite
def good_pack_with_adversarial_value(draw: st.DrawFn) -> Any:
    """The good pack with one value anywhere inside replaced by something hostile."""
    data = copy.deepcopy(GOOD)
    place = draw_place(draw, data)
    if place is None:
        return data
    node, key = place
    if isinstance(node, dict) and draw(st.integers(0, 4)) == 0:
        # Sometimes a hostile key instead of a hostile value.
        node[draw(weird_text)] = node.pop(key)
    else:
        node[key] = draw(adversarial)
    return data


@settings(deadline=None)
@given(good_pack_with_adversarial_value())
def test_a_hostile_value_anywhere_ends_in_a_pack_or_clean_issues_within_the_bound(
    data: Any,
) -> None:
    result = within_bound(lambda: load_pack(data))
    issues = validate_pack(data)
    if isinstance(result, Pack):
        assert all(issue.severity == "warning" for issue in issues)
    else:
        assert list(result.issues) == issues


@settings(deadline=None)
@given(good_pack_with_adversarial_value())
def test_the_same_hostile_pack_as_text_ends_the_same_way(data: Any) -> None:
    try:
        text = json.dumps(data, ensure_ascii=False)
        text.encode("utf-8")
    except (ValueError, UnicodeEncodeError, RecursionError):
        return  # a lone surrogate or nesting json cannot write: no upload could carry it
    if len(text.encode("utf-8")) > SIZE_CAP:
        return  # over the cap: refused before parsing
    result = within_bound(lambda: load_pack_text(text))
    assert isinstance(result, Pack | PackError)


def rocks(count: int, side: int = MAX_LEVEL_SIDE) -> list[dict[str, Any]]:
    """MIAU IS YOU and ``count - 3`` rocks, filling a ``side`` x ``side`` grid row by row."""
    words = [{"text": text, "x": index, "y": 0} for index, text in enumerate(("MIAU", "IS", "YOU"))]
    return words + [
        {"noun": "ROCK", "x": index % side, "y": (index // side) % side}
        for index in range(3, count)
    ]


def pack_of(levels: int, objects: int) -> dict[str, Any]:
    """The good pack's manifest and palette with ``levels`` plain levels of ``objects`` each."""
    data = copy.deepcopy(GOOD)
    data["levels"] = [
        {
            "id": f"level-{number}",
            "title": f"Level {number}",
            "width": MAX_LEVEL_SIDE,
            "height": MAX_LEVEL_SIDE,
            "objects": rocks(objects),
        }
        for number in range(levels)
    ]
    return data


def nested_title(depth: int) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["levels"][0]["title"] = nested(depth)
    return data


def many_palette_entries(count: int) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["palette"] = {f"N{index}": "x" for index in range(count)}
    return data


BIG_TEXTS: dict[str, Callable[[], str]] = {
    "one level at the object limit": lambda: json.dumps(pack_of(1, MAX_LEVEL_OBJECTS)),
    "seven levels at the object limit (~1 MiB)": lambda: json.dumps(pack_of(7, MAX_LEVEL_OBJECTS)),
    "the level limit, small levels": lambda: json.dumps(pack_of(MAX_PACK_LEVELS, 40)),
    "one level with 7x the object limit": lambda: json.dumps(pack_of(1, 7 * MAX_LEVEL_OBJECTS)),
    "a title of a million characters": lambda: json.dumps(
        {**GOOD, "manifest": {**GOOD["manifest"], "name": "M" * (SIZE_CAP - 4096)}}
    ),
    "a title nested 900 deep": lambda: json.dumps(nested_title(900)),
    "nesting far past the parser": lambda: "[" * (SIZE_CAP - 10),
    "a number of 100,000 digits": lambda: '{"levels": ' + "9" * 100_000 + "}",
    "20,000 palette entries": lambda: json.dumps(many_palette_entries(20_000)),
    # One problem a key: the problems were once sorted by a key's place looked up in a list
    # of its siblings, for each problem (8,000 bad palette entries took 1.7 s).
    "20,000 bad palette entries": lambda: json.dumps(
        {**many_palette_entries(0), "palette": {f"N{index}": 5 for index in range(20_000)}}
    ),
    "40,000 bad legend entries": lambda: json.dumps(bad_legend(40_000)),
    "50,000 duplicate keys": lambda: "{" + ",".join(['"levels": []'] * 50_000) + "}",
    "control characters everywhere": lambda: json.dumps(
        {**GOOD, "manifest": {**GOOD["manifest"], "name": "\x00\x1b[2J" * 20_000}}
    ),
}


def bad_legend(count: int) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data["levels"][0]["legend"] = {f"k{index}": 5 for index in range(count)}
    return data


def junk_levels(count: int) -> dict[str, Any]:
    return {**GOOD, "levels": [{"noun": "ROCK", "x": 0, "y": 0}] * count}


FAR_PAST_THE_LEVEL_LIMIT = pytest.param(
    lambda: json.dumps(junk_levels(15_000)),
    id="15,000 junk levels (500 KiB)",
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [*(pytest.param(make, id=name) for name, make in BIG_TEXTS.items()), FAR_PAST_THE_LEVEL_LIMIT],
)
def test_a_pack_text_under_the_size_cap_loads_or_fails_within_the_bound(
    make: Callable[[], str],
) -> None:
    text = make()
    assert len(text.encode("utf-8")) <= SIZE_CAP
    within_bound(lambda: load_pack_text(text))


def test_many_problems_in_one_object_cost_the_loader_linear_time() -> None:
    # Each problem's place was ranked by looking its key up in a list of all its siblings:
    # 8,000 bad legend entries took 5 s of CPU, 20,000 about 30 s. Now a fraction of a second;
    # CPU time, with room for a slow machine.
    text = json.dumps(bad_legend(20_000))
    started = time.process_time()
    error = outcome(lambda: load_pack_text(text))
    seconds = time.process_time() - started
    assert isinstance(error, PackError) and len(error.issues) >= 20_000
    assert seconds < 3.0, f"{seconds:.1f} s"


def spin_cycle(data: dict[str, Any]) -> dict[str, Any]:
    level: dict[str, Any] = data["levels"][1]
    return level


def set_automata(count: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        first = spin_cycle(data)["automata"][0]
        spin_cycle(data)["automata"] = [{**first, "id": f"a-{index}"} for index in range(count)]

    return change


def set_field(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def set_pairs(count: int) -> Callable[[dict[str, Any]], None]:
    words = ["OPEN", "SHUT", "HOT", "MELT", "SINKY", "FLOATY", "LOVE", "HATE", "UP2", "DOWN2"]

    def change(data: dict[str, Any]) -> None:
        spin_cycle(data)["pairs"] = [
            {"words": [words[2 * index % 10] + str(index), words[2 * index % 10 + 1] + str(index)],
             "effect": "destroy-both"}
            for index in range(count)
        ]  # fmt: skip

    return change


def set_objects(count: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        level = spin_cycle(data)
        level["width"] = level["height"] = MAX_LEVEL_SIDE
        level["objects"] = rocks(count)
        level.pop("solution", None)

    return change


def set_levels(count: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["levels"] = [
            {**spin_cycle(data), "id": f"level-{index}", "tier": "optional"}
            for index in range(count)
        ]

    return change


LEVEL = ("levels", 1)
LIMITS: dict[str, Callable[[int], Callable[[dict[str, Any]], None]]] = {
    "automata": set_automata,
    "pattern steps": lambda n: set_field((*LEVEL, "automata", 0, "pattern"), ["U"] * n),
    "pairs": set_pairs,
    "objects": set_objects,
    "levels": set_levels,
    "width": lambda n: set_field((*LEVEL, "width"), n),
    "height": lambda n: set_field((*LEVEL, "height"), n),
    "title": lambda n: set_field((*LEVEL, "title"), "T" * n),
    "hint": lambda n: set_field((*LEVEL, "hint"), "H" * n),
    "pack name": lambda n: set_field(("manifest", "name"), "N" * n),
    "glyph": lambda n: set_field(("palette", "WALL"), "G" * n),
    "describe": lambda n: set_field(("properties", "OPEN", "describe"), "D" * n),
    "solverMax": lambda n: set_field(("levels", 0, "solverMax"), n),
}
LIMIT_VALUES = {
    "automata": MAX_AUTOMATA,
    "pattern steps": MAX_PATTERN_STEPS,
    "pairs": MAX_PAIRS,
    "objects": MAX_LEVEL_OBJECTS,
    "levels": MAX_PACK_LEVELS,
    "width": MAX_LEVEL_SIDE,
    "height": MAX_LEVEL_SIDE,
    "title": MAX_NAME_LENGTH,
    "hint": MAX_HINT_LENGTH,
    "pack name": MAX_NAME_LENGTH,
    "glyph": MAX_GLYPH_LENGTH,
    "describe": MAX_DESCRIBE_LENGTH,
    "solverMax": MAX_SOLVER_MAX,
}


def limit_errors(data: dict[str, Any], limit: int) -> list[str]:
    """Error messages that quote the limit (``at most N``, ``the most is N``, ``1 to N``)."""
    quoted = (f"at most {limit}", f"the most is {limit}", f"to {limit}")
    return [
        str(issue)
        for issue in validate_pack(data)
        if issue.severity == "error" and any(text in str(issue) for text in quoted)
    ]


@pytest.mark.parametrize("name", list(LIMITS))
def test_every_limit_holds_at_its_value_and_is_reported_one_past_it(name: str) -> None:
    limit = LIMIT_VALUES[name]
    at, past = copy.deepcopy(GOOD), copy.deepcopy(GOOD)
    LIMITS[name](limit)(at)
    LIMITS[name](limit + 1)(past)

    assert limit_errors(at, limit) == []
    assert limit_errors(past, limit), validate_pack(past)
    assert isinstance(within_bound(lambda: load_pack(past)), PackError)
    assert isinstance(within_bound(lambda: load_pack_text(json.dumps(past))), PackError)
