"""Mutations of an engine-level dict: move, add, remove and swap words and things, resize.

Adding comes in three sizes: a thing, a loose word, or a whole sentence.

Every mutation takes the level and a ``random.Random`` and returns a new
level (the input is never changed). The generator gives each candidate its
own ``Random``, derived from the run's seed and the candidate's index, so a
candidate's mutations never depend on what other candidates drew.

Objects come back in a canonical order (row by row, then kind and name):
entity ids follow that order, so two candidates with the same board are the
same level, and a generated level reads top to bottom in its pack.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from miau.engine.vocabulary import CORE_PROPERTIES, OPERATORS

LevelDict = dict[str, Any]
"""An engine-level dict: ``width``, ``height``, ``objects``, ``automata``, ``pairs`` (and ``features``)."""

MIN_SIDE: Final = 3
"""No generated level is narrower or lower than this."""


@dataclass(frozen=True)
class Pools:
    """What mutations may put on the board: word texts and the nouns of things."""

    words: tuple[str, ...]
    nouns: tuple[str, ...]


@dataclass(frozen=True)
class Limits:
    """How big a generated level may grow."""

    max_width: int
    max_height: int
    max_entities: int


Mutation = Callable[[LevelDict, random.Random, Pools, Limits], LevelDict | None]
"""One mutation; None when it does not apply to this level (nothing to remove, no room)."""


def mutate(level: Mapping[str, Any], rng: random.Random, pools: Pools, limits: Limits) -> LevelDict:
    """One to three mutations of ``level``, drawn with ``rng``; the result in canonical order.

    The result always differs from ``level`` unless no mutation applied
    (a level so full and so small that nothing can change).
    """
    current = copy.deepcopy(dict(level))
    steps = rng.choice((1, 1, 1, 2, 2, 3))
    for _ in range(steps):
        for _attempt in range(8):
            name = rng.choices(_NAMES, weights=_WEIGHTS)[0]
            changed = MUTATIONS[name](current, rng, pools, limits)
            if changed is not None:
                current = changed
                break
    return canonical(current)


def canonical(level: Mapping[str, Any]) -> LevelDict:
    """``level`` with its objects sorted by row, column, kind and name (which sets the ids)."""
    out = dict(level)
    out["objects"] = sorted(level["objects"], key=_entity_order)
    return out


def _entity_order(entity: Mapping[str, Any]) -> tuple[int, int, str, str]:
    return (entity["y"], entity["x"], entity["kind"], entity.get("noun") or entity.get("text", ""))


def _cells(level: Mapping[str, Any]) -> list[tuple[int, int]]:
    return [(x, y) for y in range(level["height"]) for x in range(level["width"])]


def _empty_cells(level: Mapping[str, Any]) -> list[tuple[int, int]]:
    taken = {(e["x"], e["y"]) for e in level["objects"]}
    return [cell for cell in _cells(level) if cell not in taken]


def move_entity(
    level: LevelDict, rng: random.Random, _pools: Pools, _limits: Limits
) -> LevelDict | None:
    """Move one word or thing: most often one step, sometimes anywhere empty."""
    objects: list[dict[str, Any]] = level["objects"]
    if not objects:
        return None
    index = rng.randrange(len(objects))
    entity = objects[index]
    if rng.random() < 0.6:
        dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
        x, y = entity["x"] + dx, entity["y"] + dy
        if not (0 <= x < level["width"] and 0 <= y < level["height"]):
            return None
    else:
        empty = _empty_cells(level)
        if not empty:
            return None
        x, y = rng.choice(empty)
    moved = [dict(e) for e in objects]
    moved[index] = {**entity, "x": x, "y": y}
    return {**level, "objects": moved}


def add_thing(
    level: LevelDict, rng: random.Random, pools: Pools, limits: Limits
) -> LevelDict | None:
    """Put a thing of a known noun on an empty cell."""
    return _add(level, rng, limits, {"kind": "object", "noun": _pick(rng, pools.nouns)})


def add_word(
    level: LevelDict, rng: random.Random, pools: Pools, limits: Limits
) -> LevelDict | None:
    """Put a word tile from the pool on an empty cell."""
    return _add(level, rng, limits, {"kind": "word", "text": _pick(rng, pools.words)})


def _pick(rng: random.Random, choices: Sequence[str]) -> str | None:
    return rng.choice(choices) if choices else None


def _add(
    level: LevelDict, rng: random.Random, limits: Limits, entity: dict[str, Any]
) -> LevelDict | None:
    if None in entity.values() or len(level["objects"]) >= limits.max_entities:
        return None
    empty = _empty_cells(level)
    if not empty:
        return None
    x, y = rng.choice(empty)
    return {**level, "objects": [*level["objects"], {**entity, "x": x, "y": y}]}


def remove_entity(
    level: LevelDict, rng: random.Random, _pools: Pools, _limits: Limits
) -> LevelDict | None:
    """Take one word or thing off the board."""
    objects = level["objects"]
    if len(objects) <= 1:
        return None
    index = rng.randrange(len(objects))
    return {**level, "objects": objects[:index] + objects[index + 1 :]}


def swap_places(
    level: LevelDict, rng: random.Random, _pools: Pools, _limits: Limits
) -> LevelDict | None:
    """Swap the cells of two entities."""
    objects = level["objects"]
    if len(objects) < 2:
        return None
    first, second = rng.sample(range(len(objects)), 2)
    swapped = [dict(e) for e in objects]
    a, b = swapped[first], swapped[second]
    a["x"], a["y"], b["x"], b["y"] = b["x"], b["y"], a["x"], a["y"]
    return {**level, "objects": swapped}


def swap_word(
    level: LevelDict, rng: random.Random, pools: Pools, _limits: Limits
) -> LevelDict | None:
    """Change one word tile's text for another of its class (noun, property or operator)."""
    words = [i for i, e in enumerate(level["objects"]) if e["kind"] == "word"]
    if not words:
        return None
    index = rng.choice(words)
    text = level["objects"][index]["text"]
    same_class = [w for w in pools.words if w != text and _word_class(w) == _word_class(text)]
    if not same_class:
        return None
    changed = [dict(e) for e in level["objects"]]
    changed[index]["text"] = rng.choice(same_class)
    return {**level, "objects": changed}


def swap_thing(
    level: LevelDict, rng: random.Random, pools: Pools, _limits: Limits
) -> LevelDict | None:
    """Change one thing's noun for another known noun."""
    things = [i for i, e in enumerate(level["objects"]) if e["kind"] == "object"]
    if not things:
        return None
    index = rng.choice(things)
    others = [n for n in pools.nouns if n != level["objects"][index]["noun"]]
    if not others:
        return None
    changed = [dict(e) for e in level["objects"]]
    changed[index]["noun"] = rng.choice(others)
    return {**level, "objects": changed}


def add_sentence(
    level: LevelDict, rng: random.Random, pools: Pools, limits: Limits
) -> LevelDict | None:
    """Lay a whole sentence ``NOUN IS VALUE`` across or down three empty cells.

    Three loose words rarely line up by chance; a whole sentence is what
    brings a new mechanic into play (a rock that sinks, a wall that stops).
    """
    nouns = [w for w in pools.words if _word_class(w) == "noun"]
    values = [w for w in pools.words if w not in OPERATORS]
    if "IS" not in pools.words or not nouns or not values:
        return None
    if len(level["objects"]) + 3 > limits.max_entities:
        return None
    noun = rng.choice(nouns)
    value = rng.choice([v for v in values if v != noun] or values)
    dx, dy = rng.choice(((1, 0), (0, 1)))
    taken = {(e["x"], e["y"]) for e in level["objects"]}
    starts = [
        (x, y)
        for x, y in _cells(level)
        if x + 2 * dx < level["width"]
        and y + 2 * dy < level["height"]
        and all((x + i * dx, y + i * dy) not in taken for i in range(3))
    ]
    if not starts:
        return None
    x, y = rng.choice(starts)
    words = [
        {"kind": "word", "text": text, "x": x + i * dx, "y": y + i * dy}
        for i, text in enumerate((noun, "IS", value))
    ]
    return {**level, "objects": [*level["objects"], *words]}


def _word_class(text: str) -> str:
    if text in OPERATORS:
        return "operator"
    if text in CORE_PROPERTIES:
        return "property"
    return "noun"


def resize(level: LevelDict, rng: random.Random, _pools: Pools, limits: Limits) -> LevelDict | None:
    """Grow or shrink the grid by one row or column at one edge; what falls off is gone."""
    axis = rng.choice(("width", "height"))
    grow = rng.random() < 0.5
    at_start = rng.random() < 0.5
    side = level[axis]
    cap = limits.max_width if axis == "width" else limits.max_height
    new_side = side + 1 if grow else side - 1
    if new_side < MIN_SIDE or new_side > cap:
        return None
    coordinate = "x" if axis == "width" else "y"
    shift = (1 if grow else -1) if at_start else 0
    kept = []
    for entity in level["objects"]:
        placed = {**entity, coordinate: entity[coordinate] + shift}
        if 0 <= placed[coordinate] < new_side:
            kept.append(placed)
    return {**level, axis: new_side, "objects": kept}


MUTATIONS: Final[dict[str, Mutation]] = {
    "move": move_entity,
    "add-thing": add_thing,
    "add-word": add_word,
    "add-sentence": add_sentence,
    "remove": remove_entity,
    "swap-places": swap_places,
    "swap-word": swap_word,
    "swap-thing": swap_thing,
    "resize": resize,
}
"""Every mutation by name; the weights below say how often each is drawn."""

_WEIGHTS_BY_NAME: Final = {
    "move": 30,
    "add-thing": 14,
    "add-word": 6,
    "add-sentence": 6,
    "remove": 16,
    "swap-places": 12,
    "swap-word": 10,
    "swap-thing": 6,
    "resize": 6,
}
_NAMES: Final = tuple(MUTATIONS)
_WEIGHTS: Final = tuple(_WEIGHTS_BY_NAME[name] for name in _NAMES)
