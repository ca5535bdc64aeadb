"""A deliberately simple rule parser, the reference the engine's fast one must match.

It follows the contract's words literally: every path through consecutive
cells from a noun, one word per cell, is read through the grammar; every
valid path is a span; a span inside another on the same axis is dropped;
spans sort by axis, first cell and ids; each expands subject-major,
value-minor; the first record of each ``(subject, predicate)`` wins. No
runs, no fast path, no caches, no bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

NOUN, IS, AND, PROPERTY = "noun", "is", "and", "property"
GRAMMAR = {
    0: {NOUN: 1},
    1: {AND: 2, IS: 3},
    2: {NOUN: 1},
    3: {NOUN: 4, PROPERTY: 4},
    4: {AND: 5},
    5: {NOUN: 4, PROPERTY: 4},
}
ACCEPT = 4

Span = tuple[str, tuple[int, ...]]
RuleRecord = tuple[str, str, tuple[int, int, int], str]


def word_class(text: str, properties: frozenset[str]) -> str:
    if text == "IS":
        return IS
    if text == "AND":
        return AND
    return PROPERTY if text in properties else NOUN


def _walk(
    cells: dict[tuple[int, int], list[int]],
    classes: list[str],
    at: tuple[int, int],
    step: tuple[int, int],
    state: int,
    path: list[int],
    into: set[tuple[int, ...]],
) -> None:
    state = GRAMMAR[state][classes[path[-1]]]
    if state == ACCEPT:
        into.add(tuple(path))
    following = (at[0] + step[0], at[1] + step[1])
    for ident in cells.get(following, []):
        if classes[ident] in GRAMMAR[state]:
            _walk(cells, classes, following, step, state, [*path, ident], into)


def naive_parse(
    width: int,
    texts: Sequence[str],
    positions: Sequence[int],
    properties: frozenset[str],
) -> tuple[list[Span], list[RuleRecord]]:
    """Sentences ``(axis, ids)`` and rules ``(subject, predicate, sourceIds, axis)``."""
    cells: dict[tuple[int, int], list[int]] = {}
    for ident, position in enumerate(positions):
        if position >= 0:
            cells.setdefault((position % width, position // width), []).append(ident)
    classes = [word_class(text, properties) for text in texts]
    ordered: list[tuple[tuple[int, int, int, tuple[int, ...]], Span]] = []
    for rank, axis, (dx, dy) in ((0, "h", (1, 0)), (1, "v", (0, 1))):
        spans: set[tuple[int, ...]] = set()
        for (x, y), stack in cells.items():
            for ident in stack:
                if classes[ident] == NOUN:
                    _walk(cells, classes, (x, y), (dx, dy), 0, [ident], spans)
        for ids in spans:
            inside = any(
                other != ids
                and any(other[i : i + len(ids)] == ids for i in range(len(other) - len(ids) + 1))
                for other in spans
            )
            if not inside:
                x, y = positions[ids[0]] % width, positions[ids[0]] // width
                ordered.append(((rank, *((y, x) if axis == "h" else (x, y)), ids), (axis, ids)))
    ordered.sort()
    sentences = [span for _, span in ordered]
    rules: list[RuleRecord] = []
    seen: set[tuple[str, str]] = set()
    for axis, ids in sentences:
        verb = next(i for i, ident in enumerate(ids) if classes[ident] == IS)
        subjects = [i for i in ids[:verb] if classes[i] == NOUN]
        values = [i for i in ids[verb + 1 :] if classes[i] != AND]
        for subject in subjects:
            for value in values:
                key = (texts[subject], texts[value])
                if key not in seen:
                    seen.add(key)
                    rules.append((*key, (subject, ids[verb], value), axis))
    return sentences, rules
