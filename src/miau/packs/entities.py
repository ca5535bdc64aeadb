"""Check a level's entities: its objects, its map and the map's legend.

Entities come back with the place each came from, in the engine's order:
map cells first (reading order), then the objects array.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from miau.packs.format import FACINGS, LEGEND_FIELDS, OBJECT_FIELDS
from miau.packs.issues import IssueLog, Location
from miau.packs.maps import EMPTY_CELLS, expand_map, map_cells
from miau.packs.model import EntityData
from miau.packs.reading import (
    check_token,
    read_array,
    read_choice,
    read_integer,
    read_token,
    string_keys,
    unsupported_fields,
)
from miau.packs.values import describe, integer_text, is_record, plural, quote

__all__ = ["Placed", "read_map", "read_objects"]


@dataclass(frozen=True)
class Placed:
    """An entity and the place in the document it came from."""

    entity: EntityData
    loc: Location


def _coordinate(
    log: IssueLog, loc: Location, raw: Mapping[object, object], key: str, side: int | None
) -> int | None:
    axis = "wide" if key == "x" else "high"
    value = read_integer(log, loc, raw, key, low=None, required=True, what="an integer")
    if value is None:
        return None
    if side is not None and not 0 <= value < side:
        log.error(
            (*loc, key),
            f"is {integer_text(value)}, outside the {side}-{axis} grid (0 to {side - 1})",
        )
        return None
    if side is None and value < 0:
        log.error((*loc, key), f"is {integer_text(value)}; coordinates start at 0")
        return None
    return value


def read_objects(
    log: IssueLog,
    loc: Location,
    raw: Mapping[object, object],
    width: int | None,
    height: int | None,
) -> list[Placed]:
    """Check the objects array; return the sound entities with their places."""
    objects = read_array(log, loc, raw, "objects", what="an array of objects and word tiles")
    placed: list[Placed] = []
    for index, item in enumerate(objects or ()):
        item_loc = (*loc, "objects", index)
        entity = _read_entity(log, item_loc, item, width, height)
        if entity is not None:
            placed.append(Placed(entity, item_loc))
    return placed


def _read_entity(
    log: IssueLog, loc: Location, raw: object, width: int | None, height: int | None
) -> EntityData | None:
    if not is_record(raw):
        log.error(
            loc,
            'must be an object such as {"noun": "ROCK", "x": 0, "y": 0} or a word tile such as '
            f'{{"text": "ROCK", "x": 0, "y": 0}}; found {describe(raw)}',
        )
        return None
    unsupported_fields(log, loc, raw, OBJECT_FIELDS)
    token: str | None = None
    if "kind" in raw:
        kind = read_choice(log, loc, raw, "kind", ("object", "word"))
    else:
        kind = "word" if "text" in raw else "object"
        if "noun" in raw and "text" in raw:
            log.error(loc, "has both noun and text; an object has a noun, a word tile has a text")
            kind = None
    if kind == "word":
        if "noun" in raw and "kind" in raw:
            log.error((*loc, "noun"), "a word tile has a text, not a noun")
        what = 'the word on the tile, such as "ROCK" or "IS"'
        token = read_token(log, loc, raw, "text", role="text", what=what, required=True)
    elif kind == "object":
        if "text" in raw:
            log.error((*loc, "text"), "an object has a noun, not a text")
        what = 'the object\'s noun, such as "ROCK"'
        token = read_token(log, loc, raw, "noun", role="noun", what=what, required=True)
    x = _coordinate(log, loc, raw, "x", width)
    y = _coordinate(log, loc, raw, "y", height)
    facing = read_choice(log, loc, raw, "facing", FACINGS)
    if kind is None or token is None or x is None or y is None:
        return None
    entity: EntityData
    if kind == "word":
        entity = {"kind": "word", "text": token, "x": x, "y": y}
    else:
        entity = {"kind": "object", "noun": token, "x": x, "y": y}
    if facing is not None:
        entity["facing"] = facing
    return entity


def read_map(
    log: IssueLog,
    loc: Location,
    raw: Mapping[object, object],
    width: int | None,
    height: int | None,
) -> list[Placed]:
    """Check the map and legend; expand them when both are sound."""
    errors_before = log.error_count
    legend = _read_legend(log, loc, raw)
    if "map" not in raw:
        if "legend" in raw:
            log.error((*loc, "legend"), "is only used with a map, and this level has none")
        return []
    rows = read_array(log, loc, raw, "map", what="an array of strings, one per row")
    if rows is None:
        return []
    map_loc = (*loc, "map")
    if height is not None and len(rows) != height:
        log.error(map_loc, f"has {plural(len(rows), 'row')}; the level is {height} high")
    texts: list[str] = []
    for y, row in enumerate(rows):
        if not isinstance(row, str):
            log.error((*map_loc, y), f"must be a string of map characters; found {describe(row)}")
            continue
        if width is not None and len(row) != width:
            log.error(
                (*map_loc, y), f"is {plural(len(row), 'character')} long; the level is {width} wide"
            )
        texts.append(row)
    _check_map_characters(log, loc, rows, legend)
    if log.error_count != errors_before or width is None or height is None:
        return []
    try:
        entities = expand_map(width, height, texts, legend.entries)
    except ValueError as error:  # the checks above should make this unreachable
        log.error(map_loc, f"cannot be expanded: {error}")
        return []
    cells = map_cells(texts)
    return [
        Placed(entity, (*map_loc, y, x)) for entity, (x, y, _) in zip(entities, cells, strict=True)
    ]


@dataclass
class _Legend:
    keys: dict[str, None] = field(default_factory=dict)
    """Every string key written, sound or not, so a character is never reported twice."""
    entries: dict[str, str | dict[str, str]] = field(default_factory=dict)


def _read_legend(log: IssueLog, loc: Location, raw: Mapping[object, object]) -> _Legend:
    legend = _Legend()
    what = 'an object mapping single characters to nouns, such as {"#": "WALL"}'
    if "legend" not in raw:
        return legend
    record = raw["legend"]
    legend_loc = (*loc, "legend")
    if not is_record(record):
        log.error(legend_loc, f"must be {what}; found {describe(record)}")
        return legend
    for key, value in string_keys(log, legend_loc, record):
        legend.keys[key] = None
        entry_loc = (*legend_loc, key)
        if key in EMPTY_CELLS:
            log.error(entry_loc, f"{quote(key)} always means an empty cell and cannot be redefined")
        elif len(key) != 1:
            log.error(entry_loc, f"a legend key is a single character; this one has {len(key)}")
        entry = _read_legend_entry(log, entry_loc, value)
        if entry is not None:
            legend.entries[key] = entry
    return legend


def _read_legend_entry(log: IssueLog, loc: Location, value: object) -> str | dict[str, str] | None:
    noun_what = 'a noun such as "WALL"'
    if isinstance(value, str):
        return check_token(log, loc, value, role="noun", what=noun_what)
    if not is_record(value):
        log.error(
            loc,
            'must be a noun such as "WALL", {"word": "WALL"} for a word tile, '
            f'or {{"noun": "WALL"}}; found {describe(value)}',
        )
        return None
    unsupported_fields(log, loc, value, LEGEND_FIELDS)
    has_word, has_noun = "word" in value, "noun" in value
    if has_word and has_noun:
        log.error(loc, "has both word and noun; give one")
        return None
    if has_word:
        text = read_token(log, loc, value, "word", role="text", what='a word such as "WALL"')
        return None if text is None else {"word": text}
    if has_noun:
        noun = read_token(log, loc, value, "noun", role="noun", what=noun_what)
        return None if noun is None else {"noun": noun}
    log.error(loc, 'needs "word" (for a word tile) or "noun" (for an object)')
    return None


def _check_map_characters(
    log: IssueLog, loc: Location, rows: Sequence[object], legend: _Legend
) -> None:
    """Report each unknown character once, where it first appears; and unused keys."""
    texts = [row if isinstance(row, str) else "" for row in rows]
    counts = Counter(char for _, _, char in map_cells(texts))
    reported: set[str] = set()
    for x, y, char in map_cells(texts):
        if char in legend.keys or char in reported:
            continue
        reported.add(char)
        times = f" (it appears {counts[char]} times)" if counts[char] > 1 else ""
        log.error((*loc, "map", y, x), f"{quote(char)} is not in the legend{times}")
    for key in legend.keys:
        if key in legend.entries and len(key) == 1 and key not in EMPTY_CELLS and key not in counts:
            log.warning((*loc, "legend", key), "is never used in the map")
