"""Rule parsing: word tiles on the board become the active rule table.

Grammar (engine contract, "Words and parsing")::

    NOUN (AND NOUN)* IS VALUE (AND VALUE)*      VALUE = PROPERTY | NOUN

Lines read left to right (axis ``h``) and top to bottom (axis ``v``). Where
words are stacked, every path through consecutive cells that takes one word
per cell is considered; a valid path is a *span*. A span strictly contained in
another valid span on the same axis is dropped; overlapping spans that do not
contain each other, and exact duplicates at different places, all stay.

Stacks multiply paths, so a hostile level could ask for exponentially many
spans. Word stacks never grow during play (a word enters a cell only by being
pushed, and every unstepped word there is pushed on with it), so real levels
stay tiny; still, the parser stops after ``MAX_SPANS`` spans or
``MAX_PATH_STEPS`` extension steps per axis, keeping what its deterministic
search order found first, rather than hang.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from miau.engine.level import Level
from miau.engine.vocabulary import AND, IS

MAX_SPANS: Final = 4096
MAX_PATH_STEPS: Final = 1 << 16
H: Final = "h"
V: Final = "v"

_NOUN, _IS, _AND, _PROPERTY = 0, 1, 2, 3

# Grammar automaton: state -> word class -> next state; state 4 ends a valid span.
_ACCEPT: Final = 4
_TRANSITIONS: Final[tuple[dict[int, int], ...]] = (
    {_NOUN: 1},  # 0: start
    {_AND: 2, _IS: 3},  # 1: after a subject noun
    {_NOUN: 1},  # 2: after a subject AND
    {_NOUN: 4, _PROPERTY: 4},  # 3: after IS
    {_AND: 5},  # 4: after a value (accepting)
    {_NOUN: 4, _PROPERTY: 4},  # 5: after a value AND
)


@dataclass(frozen=True, slots=True)
class Rule:
    """One semantic rule with the words that formed it, in reading order."""

    subject: str
    predicate: str
    source_ids: tuple[int, int, int]
    axis: str

    @property
    def key(self) -> tuple[str, str]:
        """Semantic identity: rules with the same key are the same rule."""
        return (self.subject, self.predicate)

    def to_json(self) -> dict[str, Any]:
        """The wire record ``{subject, predicate, sourceIds, axis}``."""
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "sourceIds": list(self.source_ids),
            "axis": self.axis,
        }


@dataclass(frozen=True, slots=True)
class Sentence:
    """One physical maximal span: its word ids in reading order and its axis."""

    ids: tuple[int, ...]
    axis: str

    def to_json(self) -> dict[str, Any]:
        """The wire record ``{ids, axis}``."""
        return {"ids": list(self.ids), "axis": self.axis}


class RuleSet:
    """An active rule table and what derives from it.

    Built once per distinct arrangement of words and then shared, so every
    lookup the turn needs (properties of a noun, nouns holding a property,
    a noun's transformation) is a dict access.
    """

    __slots__ = ("holders", "keys", "props", "rules", "sentences", "transforms")

    def __init__(
        self, rules: tuple[Rule, ...], sentences: tuple[Sentence, ...], properties: frozenset[str]
    ) -> None:
        """Derive properties, holders and transformations from ``rules``."""
        self.rules = rules
        self.sentences = sentences
        self.keys = frozenset(rule.key for rule in rules)
        props: dict[str, set[str]] = {}
        holders: dict[str, list[str]] = {}
        transforms: dict[str, str] = {}
        for rule in rules:
            if rule.predicate in properties:
                props.setdefault(rule.subject, set()).add(rule.predicate)
                nouns = holders.setdefault(rule.predicate, [])
                if rule.subject not in nouns:
                    nouns.append(rule.subject)
        for rule in rules:
            if rule.predicate in properties or rule.subject in transforms:
                continue
            # X IS X locks X: it outranks any X IS Y wherever it stands in the table.
            if (rule.subject, rule.subject) in self.keys:
                continue
            transforms[rule.subject] = rule.predicate
        self.props: dict[str, frozenset[str]] = {n: frozenset(p) for n, p in props.items()}
        self.holders: dict[str, tuple[str, ...]] = {p: tuple(n) for p, n in holders.items()}
        self.transforms: dict[str, str] = transforms

    def to_json(self) -> list[dict[str, Any]]:
        """The active rule table as wire records, in table order."""
        return [rule.to_json() for rule in self.rules]


class RuleParser:
    """Parses a level's words, remembering tables by word arrangement.

    Undo, replays and the solver revisit arrangements often; the cache turns
    those reparses into one dict lookup. It is bounded so a long search cannot
    grow it without limit.
    """

    CACHE_LIMIT: Final = 1 << 15

    def __init__(
        self, width: int, texts: Sequence[str], word_ids: Sequence[int], properties: frozenset[str]
    ) -> None:
        """Prepare a parser for the words ``word_ids`` (with their ``texts``) of one level."""
        self._width = width
        self._word_ids = tuple(word_ids)
        self._texts = {i: texts[i] for i in word_ids}
        self._properties = properties
        self._classes = {i: _word_class(texts[i], properties) for i in word_ids}
        self._cache: dict[tuple[int, ...], RuleSet] = {}

    @classmethod
    def for_level(cls, level: Level) -> RuleParser:
        """A parser for the words of ``level``."""
        return cls(level.width, level.texts, level.word_ids, level.properties)

    def parse(self, word_positions: tuple[int, ...]) -> RuleSet:
        """The rule table for words at ``word_positions`` (aligned with ``word_ids``, -1 = gone)."""
        cached = self._cache.get(word_positions)
        if cached is not None:
            return cached
        if len(self._cache) >= self.CACHE_LIMIT:
            self._cache.clear()
        table = self._parse(word_positions)
        self._cache[word_positions] = table
        return table

    def _parse(self, word_positions: tuple[int, ...]) -> RuleSet:
        grid: dict[tuple[int, int], list[int]] = {}
        cell_of: dict[int, tuple[int, int]] = {}
        for ident, position in zip(self._word_ids, word_positions, strict=True):
            if position >= 0:
                y, x = divmod(position, self._width)
                grid.setdefault((x, y), []).append(ident)
                cell_of[ident] = (x, y)
        spans: list[tuple[int, int, int, tuple[int, ...], str]] = []
        for axis, (dx, dy) in ((H, (1, 0)), (V, (0, 1))):
            found: set[tuple[int, ...]] = set()
            budget = [MAX_PATH_STEPS]
            for (x, y), stack in grid.items():
                for ident in stack:
                    if self._classes[ident] == _NOUN:
                        self._extend(grid, x, y, dx, dy, 0, [ident], found, budget)
            contained: set[tuple[int, ...]] = set()
            for ids in found:
                for start in range(len(ids)):
                    for end in range(start + 3, len(ids) + 1):
                        if end - start < len(ids):
                            contained.add(ids[start:end])
            for ids in found - contained:
                x, y = cell_of[ids[0]]
                major, minor = (y, x) if axis == H else (x, y)
                spans.append((0 if axis == H else 1, major, minor, ids, axis))
        spans.sort()
        sentences = tuple(Sentence(ids, axis) for _, _, _, ids, axis in spans)
        table: list[Rule] = []
        seen: set[tuple[str, str]] = set()
        for sentence in sentences:
            for rule in self._expand(sentence):
                if rule.key not in seen:
                    seen.add(rule.key)
                    table.append(rule)
        return RuleSet(tuple(table), sentences, self._properties)

    def _extend(
        self,
        grid: dict[tuple[int, int], list[int]],
        x: int,
        y: int,
        dx: int,
        dy: int,
        state: int,
        path: list[int],
        found: set[tuple[int, ...]],
        budget: list[int],
    ) -> None:
        state = _TRANSITIONS[state][self._classes[path[-1]]]
        budget[0] -= 1
        if len(found) >= MAX_SPANS or budget[0] <= 0:
            return
        if state == _ACCEPT:
            found.add(tuple(path))
        stack = grid.get((x + dx, y + dy))
        if not stack:
            return
        moves = _TRANSITIONS[state]
        for ident in stack:
            if self._classes[ident] in moves:
                path.append(ident)
                self._extend(grid, x + dx, y + dy, dx, dy, state, path, found, budget)
                path.pop()

    def _expand(self, sentence: Sentence) -> list[Rule]:
        ids = sentence.ids
        verb = next(i for i, ident in enumerate(ids) if self._classes[ident] == _IS)
        subjects = [ident for ident in ids[:verb] if self._classes[ident] == _NOUN]
        values = [ident for ident in ids[verb + 1 :] if self._classes[ident] != _AND]
        return [
            Rule(self._texts[s], self._texts[v], (s, ids[verb], v), sentence.axis)
            for s in subjects
            for v in values
        ]


def _word_class(text: str, properties: frozenset[str]) -> int:
    if text == IS:
        return _IS
    if text == AND:
        return _AND
    return _PROPERTY if text in properties else _NOUN
