"""expand_map turns a map and legend into entities in reading order."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from miau.packs import expand_map, load_pack
from miau.packs.maps import LegendEntry


def test_cells_expand_row_by_row_left_to_right() -> None:
    rows = ["#a", ".#"]
    legend: dict[str, LegendEntry] = {"#": "WALL", "a": {"word": "WALL"}}
    assert expand_map(2, 2, rows, legend) == [
        {"kind": "object", "noun": "WALL", "x": 0, "y": 0},
        {"kind": "word", "text": "WALL", "x": 1, "y": 0},
        {"kind": "object", "noun": "WALL", "x": 1, "y": 1},
    ]


def test_dot_and_space_are_empty_and_tokens_are_raised() -> None:
    assert expand_map(3, 1, [". r"], {"r": {"noun": "rock"}}) == [
        {"kind": "object", "noun": "ROCK", "x": 2, "y": 0}
    ]


def test_every_entity_is_a_fresh_dict() -> None:
    first, second = expand_map(2, 1, ["##"], {"#": "WALL"})
    first["x"] = 5
    assert second == {"kind": "object", "noun": "WALL", "x": 1, "y": 0}


@pytest.mark.parametrize(
    ("width", "height", "rows", "legend", "message"),
    [
        (2, 2, ["##"], {"#": "WALL"}, "the map has 1 rows; the level is 2 high"),
        (2, 1, ["###"], {"#": "WALL"}, "map row 0 has 3 characters; the level is 2 wide"),
        (2, 1, ["#?"], {"#": "WALL"}, "map character '?' at row 0, column 1 has no legend"),
        (1, 1, ["#"], {"#": "YOU"}, "legend entry '#' is not a noun or a word: 'YOU'"),
        (1, 1, ["#"], {".": "WALL"}, "legend key '.' always means an empty cell"),
    ],
)
def test_a_map_that_does_not_fit_raises_value_error(
    width: int, height: int, rows: list[str], legend: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        expand_map(width, height, rows, legend)


def clockwork_original() -> list[dict[str, Any]]:
    """Clockwork level 1 exactly as clockwork-api.md builds it with w(), o() and row()."""

    def w(text: str, x: int, y: int) -> dict[str, Any]:
        return {"kind": "word", "text": text, "x": x, "y": y}

    def o(noun: str, x: int, y: int) -> dict[str, Any]:
        return {"kind": "object", "noun": noun, "x": x, "y": y}

    def row(noun: str, y: int, xs: range) -> list[dict[str, Any]]:
        return [o(noun, x, y) for x in xs]

    every = range(11)
    return [
        *(w("MIAU", 0, 0), w("IS", 1, 0), w("YOU", 2, 0)),
        *(w("WALL", 4, 0), w("IS", 5, 0), w("STOP", 6, 0)),
        *(w("MOUSE", 8, 0), w("IS", 9, 0), w("TICK", 10, 0)),
        *row("WALL", 2, every),
        *(o("WALL", 0, 3), w("BELL", 1, 3), w("IS", 2, 3), w("WIN", 5, 3)),
        *(o("MOUSE", 9, 3), o("WALL", 10, 3)),
        *row("WALL", 4, every),
        o("MIAU", 0, 5),
        o("BELL", 10, 6),
    ]


def sort_key(entity: dict[str, Any]) -> tuple[int, int, str, str]:
    return (entity["y"], entity["x"], entity["kind"], entity.get("noun") or entity["text"])


def test_the_clockwork_map_places_every_thing_where_the_original_does() -> None:
    pack = load_pack(Path(__file__).parent / "good" / "clockwork-proof.json")
    objects: list[dict[str, Any]] = json.loads(json.dumps(pack.levels[0].data["objects"]))
    assert sorted(objects, key=sort_key) == sorted(clockwork_original(), key=sort_key)
