"""Check one level of a pack and build its :class:`PackLevel`.

This module reads a level's own fields and hands its parts on: entities
(objects, map and legend) to :mod:`miau.packs.entities`, automata and pairs
to :mod:`miau.packs.declarations`. Checks that look across levels or at the
pack's glossary live in :mod:`miau.packs.crosscheck`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from miau.engine.vocabulary import TIER1_WORDS, VOCABULARY_1
from miau.packs.declarations import read_automata, read_pairs
from miau.packs.entities import Placed, read_map, read_objects
from miau.packs.format import (
    ID_WHAT,
    LEVEL_FIELDS,
    LEVEL_ID_PATTERN,
    MAX_HINT_LENGTH,
    MAX_HINTS,
    MAX_IDEA_LENGTH,
    MAX_IDEAS,
    MAX_LEVEL_OBJECTS,
    MAX_LEVEL_SIDE,
    MAX_NAME_LENGTH,
    MAX_PACK_LEVELS,
    MAX_SOLVER_MAX,
    SOLUTION_LETTERS,
    TIERS,
    Tier,
)
from miau.packs.issues import IssueLog, Location
from miau.packs.maps import EMPTY_CELLS
from miau.packs.model import AutomatonData, LevelData, PackLevel
from miau.packs.reading import FieldReader, check_string
from miau.packs.values import describe, is_array, is_record, listing, quote

__all__ = ["LevelDraft", "read_level"]


@dataclass
class LevelDraft:
    """What could be read of one level, for the checks that span levels.

    ``level`` is set only when this level alone had no errors.
    """

    loc: Location
    id: str | None = None
    entities: list[Placed] = field(default_factory=list)
    automata: list[tuple[AutomatonData, Location]] = field(default_factory=list)
    properties: dict[str, Location] = field(default_factory=dict)
    """Declared property words of the level, each with its first declaration."""
    uses_automata: bool = False
    uses_pairs: bool = False
    vocabulary: bool = False
    """Whether the pack opts into ``vocabulary-1`` (its words are then built in)."""
    level: PackLevel | None = None


def read_level(
    log: IssueLog, loc: Location, raw: object, *, vocabulary: bool = False
) -> LevelDraft:
    """Check one level and, when it is sound, build its :class:`PackLevel`.

    With ``vocabulary`` (the manifest lists ``vocabulary-1``) the Tier-1
    words are built in: no object, pair word or automaton may claim them.
    """
    draft = LevelDraft(loc, vocabulary=vocabulary)
    if not is_record(raw):
        log.error(
            loc, f"must be a level object with id, title, width and height; found {describe(raw)}"
        )
        return draft
    errors_before = log.error_count
    fields = FieldReader(log, loc, raw)
    fields.unsupported(LEVEL_FIELDS)
    draft.id = fields.matching("id", LEVEL_ID_PATTERN, what=ID_WHAT, required=True)
    title = fields.string(
        "title",
        required=True,
        max_length=MAX_NAME_LENGTH,
        what=f"the level's title, 1 to {MAX_NAME_LENGTH} characters",
    )
    hint = fields.string(
        "hint",
        max_length=MAX_HINT_LENGTH,
        non_blank=False,
        what=f"a hint of at most {MAX_HINT_LENGTH} characters",
    )
    further_hints: tuple[str, ...] = ()
    if "hints" in raw:
        hints = _read_hints(fields, loc)
        if "hint" in raw:
            fields.report(
                "hints", 'give "hint" or "hints", not both (the first of "hints" is the hint)'
            )
        elif hints:
            hint, further_hints = hints[0], tuple(hints[1:])
    size = f"an integer from 1 to {MAX_LEVEL_SIDE}"
    width = fields.integer("width", low=1, high=MAX_LEVEL_SIDE, required=True, what=size)
    height = fields.integer("height", low=1, high=MAX_LEVEL_SIDE, required=True, what=size)
    tier: Tier = fields.choice("tier", TIERS) or "required"

    if "objects" not in raw and "map" not in raw:
        log.error(loc, 'needs "objects", a "map", or both')
    _check_entity_count(log, loc, raw)
    entities = read_map(log, loc, raw, width, height)
    entities += read_objects(log, loc, raw, width, height)
    draft.entities = entities
    if vocabulary:
        _check_tier1_nouns(log, entities)

    automata = read_automata(log, loc, raw)
    if vocabulary:
        _check_tier1_automata(log, automata)
    draft.automata = automata
    draft.uses_automata = is_array(raw.get("automata")) and bool(raw.get("automata"))
    for automaton, automaton_loc in automata:
        draft.properties.setdefault(automaton["property"], (*automaton_loc, "property"))
    pairs = read_pairs(
        log, loc, raw, draft.properties, builtin=TIER1_WORDS if vocabulary else frozenset()
    )
    draft.uses_pairs = is_array(raw.get("pairs")) and bool(raw.get("pairs"))

    solution = _read_solution(fields)
    solver_max = fields.integer("solverMax", low=1, high=MAX_SOLVER_MAX)
    ideas = _read_strings(
        fields,
        loc,
        "ideas",
        what=(
            f"the level's idea signature as miau check --depth prints it: a list of at most "
            f'{MAX_IDEAS} changes such as "+[push] IS YOU"'
        ),
        max_items=MAX_IDEAS,
        max_length=MAX_IDEA_LENGTH,
    )
    repeats = _read_strings(
        fields,
        loc,
        "repeats",
        what=f"a list of at most {MAX_PACK_LEVELS} ids of levels whose idea this one repeats",
        max_items=MAX_PACK_LEVELS,
        max_length=MAX_IDEA_LENGTH,
    )

    if log.error_count == errors_before and draft.id and title and width and height:
        data: LevelData = {
            "width": width,
            "height": height,
            "objects": [placed.entity for placed in entities],
            "automata": [automaton for automaton, _ in automata],
            "pairs": pairs,
        }
        if vocabulary:
            data["features"] = [VOCABULARY_1]
        draft.level = PackLevel(
            id=draft.id,
            title=title,
            hint=hint,
            further_hints=further_hints,
            tier=tier,
            width=width,
            height=height,
            solution=solution,
            solver_max=solver_max,
            ideas=None if ideas is None else tuple(ideas),
            repeats=tuple(repeats or ()),
            data=data,
        )
    return draft


def _read_strings(
    fields: FieldReader, loc: Location, key: str, *, what: str, max_items: int, max_length: int
) -> list[str] | None:
    """A list of one-line strings (``ideas``, ``repeats``); None when absent or any is wrong."""
    raw = fields.array(key, what=what)
    if raw is None:
        return None
    if len(raw) > max_items:
        fields.report(key, f"has {len(raw)} items; expected {what}")
        return None
    items = [
        check_string(
            fields.log, (*loc, key, index), item, what=what, max_length=max_length, one_line=True
        )
        for index, item in enumerate(raw)
    ]
    return None if None in items else [item for item in items if item is not None]


def _read_hints(fields: FieldReader, loc: Location) -> list[str]:
    """The ``hints`` list: 1 to MAX_HINTS non-blank strings, a nudge first; [] when any is wrong."""
    what = (
        f"a list of 1 to {MAX_HINTS} hints, a nudge first and plainer ones after, "
        f"each at most {MAX_HINT_LENGTH} characters"
    )
    raw_hints = fields.array("hints", what=what)
    if raw_hints is None:
        return []
    if not 1 <= len(raw_hints) <= MAX_HINTS:
        fields.report("hints", f"has {len(raw_hints)} hints; expected {what}")
        return []
    hints = [
        check_string(
            fields.log,
            (*loc, "hints", index),
            item,
            what=f"a hint of at most {MAX_HINT_LENGTH} characters",
            max_length=MAX_HINT_LENGTH,
        )
        for index, item in enumerate(raw_hints)
    ]
    return [hint for hint in hints if hint is not None] if None not in hints else []


def _check_tier1_automata(log: IssueLog, automata: list[tuple[AutomatonData, Location]]) -> None:
    """An automaton of a vocabulary-1 level drives a word of its own, not a built-in one."""
    for automaton, automaton_loc in automata:
        for name, example in (("property", "TICK"), ("subject", "MOUSE")):
            word = automaton.get(name)
            if isinstance(word, str) and word in TIER1_WORDS:
                log.error(
                    (*automaton_loc, name),
                    f"{word} is a built-in {VOCABULARY_1} word in this pack; an automaton "
                    f'needs a word of its own, such as "{example}"',
                )


def _check_tier1_nouns(log: IssueLog, entities: list[Placed]) -> None:
    """With vocabulary-1, NOT, TEXT, MOVE and the other Tier-1 words are never nouns."""
    for placed in entities:
        noun = placed.entity.get("noun")
        if noun is not None and noun in TIER1_WORDS:
            log.error(
                placed.loc,
                f"noun {noun} is a {VOCABULARY_1} word in this pack, so no object can be "
                f"a {noun}; rename the object",
            )


def _check_entity_count(log: IssueLog, loc: Location, raw: Mapping[object, object]) -> None:
    """Check the limit on the level as the engine will see it, map included."""
    rows = raw.get("map")
    objects = raw.get("objects")
    count = len(objects) if is_array(objects) else 0
    if is_array(rows):
        count += sum(
            1 for row in rows if isinstance(row, str) for char in row if char not in EMPTY_CELLS
        )
    if count > MAX_LEVEL_OBJECTS:
        log.error(
            loc,
            f"has {count} entities (map cells and objects together); "
            f"a level holds at most {MAX_LEVEL_OBJECTS}",
        )


def _read_solution(fields: FieldReader) -> str | None:
    letters = listing(SOLUTION_LETTERS)
    what = f'a move string such as "DRRL" over {letters}'
    solution = fields.string("solution", what=what)
    if solution is None:
        return None
    upper = solution.upper()
    for index, char in enumerate(solution):
        if not char.isascii() or char.upper() not in SOLUTION_LETTERS:
            fields.report(
                "solution",
                f"has {quote(char)} at index {index}; a solution uses only the letters "
                f"{letters} (in either case)",
            )
            return None
    return upper
