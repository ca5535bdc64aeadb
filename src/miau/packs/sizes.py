"""What a pack document will cost the loader, counted on its JSON before the loader sees it.

The loader (:func:`miau.packs.load_pack`) reads every value it is given and
reports every problem, so its time grows with the document, and with the
problems in it (each costs tens of microseconds to report). Whoever hands
the loader a document from a stranger counts it first, with these, and
refuses or paces it before any loading is done: a share link's level
(:mod:`miau.packs.share`), an editor's level saved or shared over HTTP, a
library pack.

Only the standard library is used, so this also runs in Pyodide.
"""

from __future__ import annotations

from dataclasses import dataclass

from miau.engine.pickling import init_arguments
from miau.packs.maps import EMPTY_CELLS

__all__ = ["DocumentSize", "document_size", "json_values", "pack_entity_count"]


def pack_entity_count(document: object) -> int:
    """The entities a pack document would hold across its levels: map cells and objects.

    Counted on the JSON as the loader counts a level's entities (every
    object, thing or word, and every map cell that is not empty), without
    loading anything. Anything malformed counts as nothing (the loader
    reports it).
    """
    if not isinstance(document, dict):
        return 0
    levels = document.get("levels")
    if not isinstance(levels, list):
        return 0
    count = 0
    for level in levels:
        if not isinstance(level, dict):
            continue
        objects = level.get("objects")
        if isinstance(objects, list):
            count += len(objects)
        rows = level.get("map")
        if isinstance(rows, list):
            count += sum(
                len(row) - sum(row.count(empty) for empty in EMPTY_CELLS)
                for row in rows
                if isinstance(row, str)
            )
    return count


def json_values(value: object, limit: int) -> int:
    """How many JSON values ``value`` holds, itself included (objects, arrays and scalars).

    Keys are not counted: each belongs to its value. The walk stops as soon
    as it has counted past ``limit``, so counting a huge document costs no
    more than counting ``limit + 1`` values; the answer is then ``limit + 1``.
    """
    count = 0
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


@dataclass(frozen=True, slots=True)
class DocumentSize:
    """A pack document as counted before loading: its levels, entities and JSON values."""

    levels: int | None
    """How many levels its ``levels`` array holds; None when it has no such array."""
    entities: int
    """Map cells and objects across its levels (:func:`pack_entity_count`)."""
    values: int
    """Its JSON values (:func:`json_values`), at most the limit it was counted to plus one."""

    @property
    def cost(self) -> int:
        """What loading it costs, in the parse budget's units: the more of entities and values.

        A good entity costs the loader about what a JSON value does, a map
        cell much less; a document of bad values costs more (each problem is
        reported), and is bounded by the values a caller lets through.
        """
        return max(self.entities, self.values)

    def __reduce__(self) -> tuple[type[DocumentSize], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def document_size(document: object, max_values: int) -> DocumentSize:
    """Count ``document``'s levels, entities and values (the values up to ``max_values`` + 1)."""
    levels = document.get("levels") if isinstance(document, dict) else None
    return DocumentSize(
        len(levels) if isinstance(levels, list) else None,
        pack_entity_count(document),
        json_values(document, max_values),
    )
