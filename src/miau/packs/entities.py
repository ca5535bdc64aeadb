"""Check a level's entities: its objects, its map and the map's legend.

Entities come back with the place each came from, in the engine's order:
map cells first (reading order), then the objects array.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from miau.engine.entity_fields import read_entity
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import MAX_LEVEL_OBJECTS
from miau.packs.format import LEGEND_FIELDS, OBJECT_FIELDS
from miau.packs.issues import IssueLog, Location
from miau.packs.maps import EMPTY_CELLS, expand_map, map_cells
from miau.packs.model import EntityData
from miau.packs.reading import FieldReader, check_token, string_keys
from miau.packs.values import describe, is_record, plural, quote

__all__ = ["Placed", "read_map", "read_objects"]


@dataclass(frozen=True)
class Placed:
    """An entity and the place in the document it came from."""

    entity: EntityData
    loc: Location

    def __reduce__(self) -> tuple[type[Placed], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def read_objects(
    log: IssueLog,
    loc: Location,
    raw: Mapping[object, object],
    width: int | None,
    height: int | None,
) -> list[Placed]:
    """Check the objects array; return the sound entities with their places.

    Past ``MAX_LEVEL_OBJECTS`` the level is refused already (its count is
    checked on its own), so only that many are read: the time to refuse a
    huge list stays bounded.
    """
    objects = FieldReader(log, loc, raw).array("objects", what="an array of objects and word tiles")
    placed: list[Placed] = []
    for index, item in enumerate((objects or [])[:MAX_LEVEL_OBJECTS]):
        item_loc = (*loc, "objects", index)
        entity = _read_entity(log, item_loc, item, width, height)
        if entity is not None:
            placed.append(Placed(entity, item_loc))
    return placed


def _read_entity(
    log: IssueLog, loc: Location, raw: object, width: int | None, height: int | None
) -> EntityData | None:
    """Check one entity with the engine's own checker, logging every problem at its place."""
    if is_record(raw):
        FieldReader(log, loc, raw).unsupported(OBJECT_FIELDS)
    fields = read_entity(raw, width, height, log.reporter(loc))
    if fields is None:
        return None
    entity: EntityData
    if fields.is_word:
        entity = {"kind": "word", "text": fields.token, "x": fields.x, "y": fields.y}
    else:
        entity = {"kind": "object", "noun": fields.token, "x": fields.x, "y": fields.y}
    if fields.facing is not None:
        entity["facing"] = fields.facing
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
    rows = FieldReader(log, loc, raw).array("map", what="an array of strings, one per row")
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
    # The checks above leave expand_map nothing to refuse.
    entities = expand_map(width, height, texts, legend.entries)
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
    fields = FieldReader(log, loc, value)
    fields.unsupported(LEGEND_FIELDS)
    has_word, has_noun = "word" in value, "noun" in value
    if has_word and has_noun:
        log.error(loc, "has both word and noun; give one")
        return None
    if has_word:
        text = fields.token("word", role="text", what='a word such as "WALL"')
        return None if text is None else {"word": text}
    if has_noun:
        noun = fields.token("noun", role="noun", what=noun_what)
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
