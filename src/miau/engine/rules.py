"""Rule parsing: word tiles on the board become the active rule table.

Grammar (engine contract, "Words and parsing")::

    NOUN (AND NOUN)* IS VALUE (AND VALUE)*      VALUE = PROPERTY | NOUN

Lines read left to right (axis ``h``) and top to bottom (axis ``v``). Where
words are stacked, every path through consecutive cells that takes one word
per cell is considered; a valid path is a *span*. A span strictly contained in
another valid span on the same axis is dropped; overlapping spans that do not
contain each other, and exact duplicates at different places, all stay.

Stacks multiply paths, so a hostile level could ask for exponentially many
spans. In the core, word stacks never grow during play (a word enters a cell
only by being pushed, and every unstepped word there is pushed on with it),
so real levels stay tiny; vocabulary-1's ``X IS TEXT`` can turn a stack of
things into a stack of words. Either way the parser stops after ``MAX_SPANS`` spans or
``MAX_PATH_STEPS`` extension steps per axis, keeping what its deterministic
search order found first, rather than hang.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from miau.engine.vocabulary import AND, IS, MAX_LEVEL_SIDE

MAX_SPANS: Final = 4096
MAX_PATH_STEPS: Final = 1 << 16
H: Final = "h"
V: Final = "v"

_NOUN, _IS, _AND, _PROPERTY = 0, 1, 2, 3
_COLUMN_STRIDE: Final = MAX_LEVEL_SIDE
"""Column-major sort keys are ``x * MAX_LEVEL_SIDE + y``: no column is longer."""

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
    source_ids: tuple[int, ...]
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
    those reparses into one dict lookup, and a second cache, keyed by the
    sentences found, lets arrangements that read the same (a lone word
    pushed about) share one table. Parsers of levels with the same words (the
    same level started again, a replayed save, a reset-heavy agent, a share
    link opened twice) share both caches, so a fresh game of a known level
    starts warm; a parse is a pure function of the words and their places, so
    sharing cannot change a result. The caches are bounded: at most
    ``CACHE_LIMIT`` entries per level and ``SHARED_LEVELS`` levels, the
    oldest level forgotten first.
    """

    CACHE_LIMIT: Final = 1 << 15
    SHARED_LEVELS: Final = 64
    _shared: ClassVar[dict[tuple[object, ...], _LevelCache]] = {}
    # The grammar: a subclass (the Tier-1 parser) swaps in its own automaton.
    _transitions: ClassVar[tuple[dict[int, int], ...]] = _TRANSITIONS
    _accepting: ClassVar[frozenset[int]] = frozenset({_ACCEPT})
    _starts: ClassVar[frozenset[int]] = frozenset({_NOUN})

    def __init__(
        self, width: int, texts: Sequence[str], word_ids: Sequence[int], properties: frozenset[str]
    ) -> None:
        """Prepare a parser for the words ``word_ids`` (with their ``texts``) of one level."""
        self._width = width
        self._word_ids = tuple(word_ids)
        self._texts = {i: texts[i] for i in word_ids}
        self._properties = properties
        self._classes = {i: self._classify(texts[i], properties) for i in word_ids}
        words = (width, self._word_ids, tuple(texts[i] for i in word_ids), properties)
        shared = type(self)._shared
        cache = shared.get(words)
        if cache is None:
            if len(shared) >= self.SHARED_LEVELS:
                del shared[next(iter(shared))]
            cache = shared[words] = _LevelCache()
        self._cache = cache.by_positions
        self._by_sentences = cache.by_sentences
        self._expansions = cache.expansions
        self._runs = cache.runs

    @classmethod
    def clear_shared_caches(cls) -> None:
        """Forget every cached table, as in a fresh process (for measuring cold starts)."""
        RuleParser._shared.clear()
        for subclass in cls.__subclasses__():
            subclass._shared.clear()

    @staticmethod
    def _classify(text: str, properties: frozenset[str]) -> int:
        """The grammar class of a word's text."""
        return _word_class(text, properties)

    def _table(self, rules: tuple[Rule, ...], sentences: tuple[Sentence, ...]) -> RuleSet:
        """The rule table of one reading."""
        return RuleSet(rules, sentences, self._properties)

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
        key = tuple((axis, ids) for _, _, _, ids, axis in self._spans(word_positions))
        table = self._by_sentences.get(key)
        if table is not None:
            return table
        if len(self._by_sentences) >= self.CACHE_LIMIT:
            self._by_sentences.clear()
            self._expansions.clear()
        sentences: list[Sentence] = []
        rules: list[Rule] = []
        seen: set[tuple[str, str]] = set()
        expansions = self._expansions
        for span in key:
            expansion = expansions.get(span)
            if expansion is None:
                sentence = Sentence(span[1], span[0])
                expansion = expansions[span] = (sentence, self._expand(sentence))
            sentences.append(expansion[0])
            for rule in expansion[1]:
                if rule.key not in seen:
                    seen.add(rule.key)
                    rules.append(rule)
        table = self._table(tuple(rules), tuple(sentences))
        self._by_sentences[key] = table
        return table

    def _spans(
        self, word_positions: tuple[int, ...]
    ) -> list[tuple[int, int, int, tuple[int, ...], str]]:
        """Every maximal span as ``(axis rank, major, minor, ids, axis)``, in span order.

        For each axis the words are sorted line by line (rows for ``h``,
        columns for ``v``) and cut into runs of adjacent cells; a span lies
        within one run. A run of single words is read in one pass; a run
        with a stack is searched path by path, within the parser's bounds.
        """
        width = self._width
        placed = sorted(
            [(p, i) for p, i in zip(word_positions, self._word_ids, strict=True) if p >= 0]
        )
        spans: list[tuple[int, int, int, tuple[int, ...], str]] = []
        if len(placed) < 3:
            return spans
        self._axis_spans(placed, width, 0, H, spans)
        columns = sorted([((p % width) * _COLUMN_STRIDE + p // width, i) for p, i in placed])
        self._axis_spans(columns, _COLUMN_STRIDE, 1, V, spans)
        spans.sort()
        return spans

    def _axis_spans(
        self,
        placed: list[tuple[int, int]],
        stride: int,
        rank: int,
        axis: str,
        spans: list[tuple[int, int, int, tuple[int, ...], str]],
    ) -> None:
        """Add the spans of one axis; ``placed`` is ``(line * stride + coordinate, id)``, sorted."""
        search: _SpanSearch | None = None
        count = len(placed)
        index = 0
        while index < count:
            first = last = placed[index][0]
            cells = [[placed[index][1]]]
            single = True
            index += 1
            while index < count:
                key, ident = placed[index]
                if key == last:
                    cells[-1].append(ident)
                    single = False
                elif key == last + 1 and key // stride == last // stride:
                    cells.append([ident])
                    last = key
                else:
                    break
                index += 1
            if len(cells) < 3:
                continue
            if single:
                run = tuple([stack[0] for stack in cells])
                found = self._runs.get(run)
                if found is None:
                    if len(self._runs) >= self.CACHE_LIMIT:
                        self._runs.clear()
                    found = self._runs[run] = self._single_file_spans(run)
            else:
                search = search or _SpanSearch(
                    self._classes, self._transitions, self._accepting, self._starts
                )
                found = search.maximal_spans(cells)
            line, coordinate = divmod(first, stride)
            for offset, ids in found:
                spans.append((rank, line, coordinate + offset, ids, axis))

    def _single_file_spans(self, ids: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """The maximal spans of a run of single words, as ``(offset, ids)``.

        From each noun the longest valid reading is the only candidate (the
        shorter ones are inside it); it is dropped when a span that starts
        earlier reaches at least as far.
        """
        classes = [self._classes[ident] for ident in ids]
        transitions, accepting, starts = self._transitions, self._accepting, self._starts
        found: list[tuple[int, tuple[int, ...]]] = []
        reach = -1
        for start in range(len(ids) - 2):
            if classes[start] not in starts:
                continue
            state, end = 0, -1
            for index in range(start, len(ids)):
                next_state = transitions[state].get(classes[index])
                if next_state is None:
                    break
                state = next_state
                if state in accepting:
                    end = index
            if end > reach:
                found.append((start, tuple(ids[start : end + 1])))
                reach = end
        return found

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


class _LevelCache:
    """The parse caches of one level's words, shared by all its parsers.

    ``by_positions`` maps a word arrangement to its table, ``by_sentences``
    the sentences an arrangement reads to its table, ``expansions`` one
    sentence to its record and rules, and ``runs`` a run of single words to
    its spans (most sentences and runs recur across arrangements:
    ``MIAU IS YOU`` stands in nearly all of them).
    """

    __slots__ = ("by_positions", "by_sentences", "expansions", "runs")

    def __init__(self) -> None:
        self.by_positions: dict[tuple[int, ...], RuleSet] = {}
        self.by_sentences: dict[tuple[tuple[str, tuple[int, ...]], ...], RuleSet] = {}
        self.expansions: dict[tuple[str, tuple[int, ...]], tuple[Sentence, list[Rule]]] = {}
        self.runs: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}


class _SpanSearch:
    """Path-by-path span search through stacked words, bounded for one axis.

    Every path that takes one word per cell is followed through the grammar
    automaton; the search stops after ``MAX_SPANS`` spans or
    ``MAX_PATH_STEPS`` extension steps on the axis, keeping what its
    deterministic order found first.
    """

    __slots__ = ("_accepting", "_classes", "_spans_left", "_starts", "_steps_left", "_transitions")

    def __init__(
        self,
        classes: dict[int, int],
        transitions: tuple[dict[int, int], ...],
        accepting: frozenset[int],
        starts: frozenset[int],
    ) -> None:
        self._classes = classes
        self._transitions = transitions
        self._accepting = accepting
        self._starts = starts
        self._steps_left = MAX_PATH_STEPS
        self._spans_left = MAX_SPANS

    def maximal_spans(self, cells: list[list[int]]) -> list[tuple[int, tuple[int, ...]]]:
        """The maximal spans of one run of cells, as ``(offset of the first cell, ids)``."""
        found: dict[tuple[int, ...], int] = {}
        for offset, stack in enumerate(cells):
            for ident in stack:
                if self._classes[ident] in self._starts:
                    self._extend(cells, offset, 0, [ident], found)
        contained: set[tuple[int, ...]] = set()
        for ids in found:
            for start in range(len(ids)):
                for end in range(start + 3, len(ids) + 1):
                    if end - start < len(ids):
                        contained.add(ids[start:end])
        return [(offset, ids) for ids, offset in found.items() if ids not in contained]

    def _extend(
        self,
        cells: list[list[int]],
        offset: int,
        state: int,
        path: list[int],
        found: dict[tuple[int, ...], int],
    ) -> None:
        """Follow ``path`` (its last word in cell ``offset + len(path) - 1``) one cell on."""
        state = self._transitions[state][self._classes[path[-1]]]
        self._steps_left -= 1
        if self._spans_left <= 0 or self._steps_left <= 0:
            return
        if state in self._accepting and tuple(path) not in found:
            found[tuple(path)] = offset
            self._spans_left -= 1
        following = offset + len(path)
        if following >= len(cells):
            return
        moves = self._transitions[state]
        for ident in cells[following]:
            if self._classes[ident] in moves:
                path.append(ident)
                self._extend(cells, offset, state, path, found)
                path.pop()


def _word_class(text: str, properties: frozenset[str]) -> int:
    if text == IS:
        return _IS
    if text == AND:
        return _AND
    return _PROPERTY if text in properties else _NOUN
