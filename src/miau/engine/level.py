"""A level's fixed data: grid size, entities at the start, automata and pairs.

``Level.from_dict`` reads the engine-level dict (the ``data`` of a loaded pack
level, or any dict of the same shape) and raises ``LevelError`` on the first
problem it finds. The pack loader reports every problem with its place; this
check exists so that the engine never runs on data it cannot honour, however
the data reached it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from miau.engine.entity_fields import check_entity, problem_text
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import (
    CORE_PROPERTIES,
    EMPTY,
    MAX_AUTOMATA,
    MAX_LEVEL_OBJECTS,
    MAX_LEVEL_SIDE,
    MAX_PAIRS,
    MAX_PATTERN_STEPS,
    PAIR_EFFECTS,
    RESERVED_WORDS,
    TIER1_PROPERTIES,
    TIER1_WORDS,
    TOKEN_PATTERN,
    VOCABULARY_1,
    AutomatonStep,
    parse_pattern_step,
)

_OFF_BOARD = -1
"""A reserved id's start position: off the board (the board's ``GONE``)."""


class LevelError(ValueError):
    """A level dict the engine cannot run; the message names the field."""


@dataclass(frozen=True, slots=True)
class AutomatonDef:
    """One Clockwork automaton record: a pattern that things with ``property`` follow."""

    id: str
    subject: str | None
    property: str
    phase: int
    pattern: tuple[AutomatonStep, ...]

    def __reduce__(self) -> tuple[type[AutomatonDef], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class PairDef:
    """One Clockwork pair: things with ``words[0]`` and ``words[1]`` destroy each other."""

    words: tuple[str, str]
    effect: str
    enter: bool

    def __reduce__(self) -> tuple[type[PairDef], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class Level:
    """Everything about a level that never changes while it is played.

    Entities are numbered by their index in ``objects``; positions are cell
    indexes ``y * width + x``, so ascending order is row-major order.

    A ``vocabulary-1`` level with the word ``EMPTY`` also sets ids aside
    after its objects (``reserved`` of them, every one off the board at the
    start, noun ``EMPTY``): ``EMPTY IS X`` makes its new things there. The
    entity arrays never grow during play, so undo, restore and the solver's
    keys stay what they are for any level.
    """

    width: int
    height: int
    is_word: tuple[bool, ...]
    texts: tuple[str, ...]
    """A word's text; for an object, its starting noun."""
    start_positions: tuple[int, ...]
    start_facings: tuple[int, ...]
    automata: tuple[AutomatonDef, ...]
    """Sorted by id: the order in which automata run each turn."""
    pairs: tuple[PairDef, ...]
    """In declaration order: the order of the pair phases of the contact pass."""
    enter_pairs: tuple[PairDef, ...]
    """The pairs whose movers may enter their partner's cell, for the movement planner."""
    properties: frozenset[str]
    """Core properties plus the level's declared ones; every other word is a noun."""
    word_ids: tuple[int, ...]
    features: tuple[str, ...] = ()
    """Engine features the level opts into (``vocabulary-1``), in a fixed order."""
    vocabulary: bool = False
    """Whether the level reads the Tier-1 vocabulary (``features`` lists ``vocabulary-1``)."""
    reserved: int = 0
    """How many ids are set aside after the objects for things ``EMPTY IS X`` makes."""

    @property
    def entity_count(self) -> int:
        """How many entity ids the level has (``0 .. entity_count - 1``), reserved included."""
        return len(self.is_word)

    @property
    def object_count(self) -> int:
        """How many entities the level's own data lists (the ids before the reserved ones)."""
        return len(self.is_word) - self.reserved

    def xy(self, position: int) -> tuple[int, int]:
        """The ``(x, y)`` coordinate of a cell index."""
        y, x = divmod(position, self.width)
        return x, y

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Level:
        """Read and check an engine-level dict.

        :raises LevelError: naming the first field that is missing or wrong.
        """
        if not isinstance(data, Mapping):
            raise LevelError(f"a level must be a mapping, not {type(data).__name__}")
        if "map" in data and "objects" not in data:
            raise LevelError("this level uses 'map'; load it with miau.packs to expand the map")
        width = _grid_side(data, "width")
        height = _grid_side(data, "height")
        features = _read_features(data.get("features", ()))
        vocabulary = VOCABULARY_1 in features
        automata = _read_automata(data.get("automata", ()))
        for index, automaton in enumerate(automata):
            for word in (automaton.property, automaton.subject):
                if vocabulary and word in TIER1_WORDS:
                    raise LevelError(f"automata[{index}]: {word} is a built-in {VOCABULARY_1} word")
        pairs = _read_pairs(data.get("pairs", ()), automata, vocabulary)
        declared = {a.property for a in automata} | {w for p in pairs for w in p.words}
        objects = data.get("objects")
        if not isinstance(objects, Sequence) or isinstance(objects, str | bytes):
            raise LevelError("objects must be a list")
        if len(objects) > MAX_LEVEL_OBJECTS:
            raise LevelError(f"a level holds at most {MAX_LEVEL_OBJECTS} objects")
        is_word: list[bool] = []
        texts: list[str] = []
        positions: list[int] = []
        facings: list[int] = []
        for index, raw in enumerate(objects):
            place = f"objects[{index}]"
            entity = check_entity(raw, width, height)
            if isinstance(entity, list):
                raise LevelError(problem_text(place, entity[0]))
            if not entity.is_word and entity.token in declared:
                raise LevelError(f"{place}: {entity.token} is a property word, not a noun")
            if vocabulary and not entity.is_word and entity.token in TIER1_WORDS:
                raise LevelError(f"{place}: {entity.token} is a {VOCABULARY_1} word, not a noun")
            is_word.append(entity.is_word)
            texts.append(entity.token)
            positions.append(entity.y * width + entity.x)
            facings.append(entity.facing_index)
        reserved = 0
        if vocabulary and any(w and t == EMPTY for w, t in zip(is_word, texts, strict=True)):
            reserved = _reserve_for_empty(width * height, len(objects))
            is_word.extend([False] * reserved)
            texts.extend([EMPTY] * reserved)
            positions.extend([_OFF_BOARD] * reserved)
            facings.extend([0] * reserved)
        return cls(
            width=width,
            height=height,
            is_word=tuple(is_word),
            texts=tuple(texts),
            start_positions=tuple(positions),
            start_facings=tuple(facings),
            automata=tuple(sorted(automata, key=lambda a: a.id)),
            pairs=pairs,
            enter_pairs=tuple(pair for pair in pairs if pair.enter),
            properties=frozenset(CORE_PROPERTIES)
            | declared
            | (frozenset(TIER1_PROPERTIES) if vocabulary else frozenset()),
            word_ids=tuple(i for i, w in enumerate(is_word) if w),
            features=features,
            vocabulary=vocabulary,
            reserved=reserved,
        )

    def __reduce__(self) -> tuple[type[Level], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def _reserve_for_empty(cells: int, objects: int) -> int:
    """How many ids a level with the word ``EMPTY`` sets aside for the things it may make.

    One per cell (``EMPTY IS X`` fills every empty cell at once), but never
    more than keeps the level within ``MAX_LEVEL_OBJECTS`` entities: the
    bound the loader and the editor put on a level's size holds for what
    play makes too.
    """
    return max(0, min(cells, MAX_LEVEL_OBJECTS - objects))


def _grid_side(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if type(value) is not int or not 1 <= value <= MAX_LEVEL_SIDE:
        raise LevelError(f"{name} must be an integer from 1 to {MAX_LEVEL_SIDE}, not {value!r}")
    return value


def _read_features(raw: object) -> tuple[str, ...]:
    """The engine features a level dict opts into; only ``vocabulary-1`` exists."""
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise LevelError("features must be a list")
    for index, name in enumerate(raw):
        if name != VOCABULARY_1:
            raise LevelError(f"features[{index}] must be {VOCABULARY_1!r}, not {name!r}")
    return (VOCABULARY_1,) if raw else ()


def _token(value: object, place: str) -> str:
    if not isinstance(value, str) or not TOKEN_PATTERN.fullmatch(value.upper()):
        raise LevelError(f"{place} must be a word in capitals such as MIAU, not {value!r}")
    return value.upper()


def _read_automata(raw: object) -> list[AutomatonDef]:
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise LevelError("automata must be a list")
    if len(raw) > MAX_AUTOMATA:
        raise LevelError(f"a level has at most {MAX_AUTOMATA} automata")
    records: list[AutomatonDef] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        place = f"automata[{index}]"
        if not isinstance(item, Mapping):
            raise LevelError(f"{place} must be a mapping")
        ident = item.get("id")
        if not isinstance(ident, str) or not ident or ident in seen:
            raise LevelError(f"{place}.id must be a unique non-empty string")
        seen.add(ident)
        subject = item.get("subject")
        subject = None if subject is None else _token(subject, f"{place}.subject")
        prop = _token(item.get("property"), f"{place}.property")
        if prop in RESERVED_WORDS:
            raise LevelError(f"{place}.property {prop} is a core word; choose a new word")
        pattern_raw = item.get("pattern")
        if not isinstance(pattern_raw, Sequence) or isinstance(pattern_raw, str | bytes):
            raise LevelError(f"{place}.pattern must be a list of steps")
        if not 1 <= len(pattern_raw) <= MAX_PATTERN_STEPS:
            raise LevelError(f"{place}.pattern needs 1 to {MAX_PATTERN_STEPS} steps")
        pattern: list[AutomatonStep] = []
        for step_index, step_raw in enumerate(pattern_raw):
            step = parse_pattern_step(step_raw)
            if step is None:
                raise LevelError(f"{place}.pattern[{step_index}] is not a step: {step_raw!r}")
            pattern.append(step)
        phase = item.get("phase", 0)
        if type(phase) is not int or not 0 <= phase < len(pattern):
            raise LevelError(f"{place}.phase must be an index into its pattern")
        records.append(AutomatonDef(ident, subject, prop, phase, tuple(pattern)))
    return records


def _read_pairs(raw: object, automata: list[AutomatonDef], vocabulary: bool) -> tuple[PairDef, ...]:
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise LevelError("pairs must be a list")
    if len(raw) > MAX_PAIRS:
        raise LevelError(f"a level has at most {MAX_PAIRS} pairs")
    automaton_words = {a.property for a in automata}
    used: set[str] = set()
    pairs: list[PairDef] = []
    for index, item in enumerate(raw):
        place = f"pairs[{index}]"
        if not isinstance(item, Mapping):
            raise LevelError(f"{place} must be a mapping")
        words_raw = item.get("words")
        if not isinstance(words_raw, Sequence) or isinstance(words_raw, str | bytes):
            raise LevelError(f"{place}.words must name two property words")
        if len(words_raw) != 2:
            raise LevelError(f"{place}.words must name two property words")
        first = _token(words_raw[0], f"{place}.words[0]")
        second = _token(words_raw[1], f"{place}.words[1]")
        for word in (first, second):
            if word in RESERVED_WORDS or word in automaton_words or word in used:
                raise LevelError(f"{place}: {word} is already a word of this level")
            if vocabulary and word in TIER1_WORDS:
                raise LevelError(f"{place}: {word} is a built-in {VOCABULARY_1} word")
            used.add(word)
        effect = item.get("effect")
        if effect not in PAIR_EFFECTS:
            raise LevelError(f"{place}.effect must be one of {', '.join(PAIR_EFFECTS)}")
        enter = item.get("enter", False)
        if type(enter) is not bool:
            raise LevelError(f"{place}.enter must be true or false")
        pairs.append(PairDef((first, second), str(effect), enter))
    return tuple(pairs)
