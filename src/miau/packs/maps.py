"""Turn a level's map and legend into the objects the engine places.

The engine knows only object lists, so maps end here. Map cells come first,
in reading order, which is what fixes their entity ids.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from miau.engine.vocabulary import RESERVED_WORDS
from miau.packs.model import EntityData
from miau.packs.values import normal_token

__all__ = ["EMPTY_CELLS", "LegendEntry", "expand_map", "legend_entity", "map_cells"]

EMPTY_CELLS: Final = frozenset({".", " "})
"""Map characters that always mean an empty cell and cannot be redefined."""

LegendEntry = str | Mapping[str, str]
"""A noun (``"WALL"``), a word tile (``{"word": "WALL"}``) or ``{"noun": "WALL"}``."""


def map_cells(rows: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """Yield ``(x, y, character)`` for every non-empty cell, in reading order."""
    for y, row in enumerate(rows):
        for x, character in enumerate(row):
            if character not in EMPTY_CELLS:
                yield x, y, character


def legend_entity(entry: object) -> EntityData | None:
    """Read one legend entry as an entity template at (0, 0), or None if it is not one.

    Lowercase tokens are accepted and raised; a noun may not be an operator
    or a core property.
    """
    if isinstance(entry, str):
        noun: str | None = normal_token(entry)
        return _object(noun)
    if not isinstance(entry, Mapping) or len(entry) != 1:
        return None
    if "noun" in entry:
        return _object(normal_token(entry["noun"]))
    text = normal_token(entry.get("word"))
    return None if text is None else {"kind": "word", "text": text, "x": 0, "y": 0}


def _object(noun: str | None) -> EntityData | None:
    if noun is None or noun in RESERVED_WORDS:
        return None
    return {"kind": "object", "noun": noun, "x": 0, "y": 0}


def expand_map(
    width: int, height: int, rows: Sequence[str], legend: Mapping[str, LegendEntry]
) -> list[EntityData]:
    """Expand a map into entity dicts, in reading order (row by row, left to right).

    ``rows`` must be ``height`` strings of exactly ``width`` characters;
    ``.`` and space are empty cells; every other character must be a key of
    ``legend``.

    :raises ValueError: if the map does not fit the grid, a character is
        missing from the legend, or a legend entry is not an entity.
    """
    if len(rows) != height:
        raise ValueError(f"the map has {len(rows)} rows; the level is {height} high")
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"map row {y} has {len(row)} characters; the level is {width} wide")
    templates: dict[str, EntityData] = {}
    for key, entry in legend.items():
        if key in EMPTY_CELLS:
            raise ValueError(f"legend key {key!r} always means an empty cell")
        template = legend_entity(entry)
        if template is None:
            raise ValueError(f"legend entry {key!r} is not a noun or a word: {entry!r}")
        templates[key] = template
    entities: list[EntityData] = []
    for x, y, character in map_cells(rows):
        template = templates.get(character)
        if template is None:
            raise ValueError(f"map character {character!r} at row {y}, column {x} has no legend")
        entity = template.copy()
        entity["x"], entity["y"] = x, y
        entities.append(entity)
    return entities
