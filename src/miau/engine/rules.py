"""Rule parsing: word tiles on the board become the active rule table.

Core grammar (engine contract, "Words and parsing")::

    NOUN (AND NOUN)* IS VALUE (AND VALUE)*      VALUE = PROPERTY | NOUN

A ``vocabulary-1`` level reads the Tier-1 grammar (``docs/vocabulary.md``,
"Sentences") with the same span search, maximal-span rule and caches; only
the automaton, the word classes and the expansion of a sentence differ::

    SENTENCE = PREFIX* TERM (AND TERM)* CONDITION* VERB
    PREFIX   = NOT* LONELY                 TERM = NOT* NOUN
    CONDITION = (AND)? (ON | NEAR | FACING) TERM (AND TERM)*
    VERB     = IS VALUE (AND VALUE)*  |  HAS NOUN (AND NOUN)*
    VALUE    = NOT* (NOUN | PROPERTY)

There is one rule type and one table type for both: a core rule is a rule
with no NOT, no condition and the verb IS, and a table built by the core
grammar says so in its flags, so the turn reads it as cheaply as ever.

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

from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress
from operator import ne
from typing import Any, Final

from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import (
    ALL,
    AND,
    EMPTY,
    FLOAT,
    HAS,
    INFIX_CONDITIONS,
    IS,
    LEVEL,
    LONELY,
    MAX_LEVEL_SIDE,
    NOT,
    OPEN,
    PULL,
    PUSH,
    SHUT,
    TEXT,
    TIER1_NOUNS,
    TIER1_PROPERTIES,
)

MAX_SPANS: Final = 4096
MAX_PATH_STEPS: Final = 1 << 16
H: Final = "h"
V: Final = "v"

# Word classes: the core's four, then the Tier-1 grammar's own.
_NOUN, _IS, _AND, _PROPERTY, _NOT, _HAS, _LONELY, _INFIX = range(8)
_COLUMN_STRIDE: Final = MAX_LEVEL_SIDE
"""Column-major sort keys are ``x * MAX_LEVEL_SIDE + y``: no column is longer."""
_LINES_PER_AXIS: Final = MAX_LEVEL_SIDE
"""A line's key in ``_Lines.by_line`` is ``axis rank * _LINES_PER_AXIS + line``."""
_UPDATE_LIMIT: Final = 4
"""At most this many moved words are worked into the last arrangement; more: read afresh."""
# What ``RuleParser._update_lines`` found.
_SAME_SPANS: Final = 0
_NEW_SPANS: Final = 1
_UNREADABLE: Final = 2
_TIER1_PROPERTY_SET: Final = frozenset(TIER1_PROPERTIES)

Span = tuple[int, int, int, tuple[int, ...], str]
"""``(axis rank, line, coordinate of the first word, ids, axis)``: sorts in span order."""


@dataclass(frozen=True, slots=True)
class Grammar:
    """A grammar automaton: state -> word class -> next state, its accepting states and starts."""

    transitions: tuple[dict[int, int], ...]
    accepting: frozenset[int]
    starts: frozenset[int]

    def __reduce__(self) -> tuple[type[Grammar], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


CORE_GRAMMAR: Final = Grammar(
    (
        {_NOUN: 1},  # 0: start
        {_AND: 2, _IS: 3},  # 1: after a subject noun
        {_NOUN: 1},  # 2: after a subject AND
        {_NOUN: 4, _PROPERTY: 4},  # 3: after IS
        {_AND: 5},  # 4: after a value (accepting)
        {_NOUN: 4, _PROPERTY: 4},  # 5: after a value AND
    ),
    frozenset({4}),
    frozenset({_NOUN}),
)
TIER1_GRAMMAR: Final = Grammar(
    (
        {_NOT: 0, _LONELY: 1, _NOUN: 2},  # 0: start (NOTs before a noun or LONELY)
        {_NOT: 1, _NOUN: 2},  # 1: after LONELY
        {_AND: 3, _IS: 6, _HAS: 9, _INFIX: 4},  # 2: after a subject noun
        {_NOT: 3, _NOUN: 2},  # 3: after a subject AND
        {_NOT: 4, _NOUN: 5},  # 4: after ON, NEAR or FACING
        {_AND: 12, _IS: 6, _HAS: 9},  # 5: after a condition's argument
        {_NOT: 6, _NOUN: 7, _PROPERTY: 7},  # 6: after IS
        {_AND: 8},  # 7: after an IS value (accepting)
        {_NOT: 6, _NOUN: 7, _PROPERTY: 7},  # 8: after a value AND
        {_NOUN: 10},  # 9: after HAS
        {_AND: 11},  # 10: after a HAS value (accepting)
        {_NOUN: 10},  # 11: after a HAS value AND
        {_NOT: 13, _NOUN: 5, _INFIX: 4},  # 12: after a condition AND
        {_NOT: 13, _NOUN: 5},  # 13: after a condition AND and NOT
    ),
    frozenset({7, 10}),
    frozenset({_NOUN, _NOT, _LONELY}),
)

Term = tuple[bool, str]
"""``(negated, noun)``: a noun as a subject or a condition's argument."""

NO_PROPERTIES: Final[frozenset[str]] = frozenset()
WORD_PROPERTIES: Final = frozenset({PUSH})
"""What a word is without any rule about TEXT: pushable, and nothing else."""


@dataclass(frozen=True, slots=True)
class Condition:
    """One condition of a rule: ``LONELY`` (maybe negated) or ``ON/NEAR/FACING`` arguments."""

    word: str
    negated: bool
    args: tuple[Term, ...]

    def to_json(self) -> dict[str, Any]:
        """``{word, not, args: [{noun, not}]}``."""
        return {
            "word": self.word,
            "not": self.negated,
            "args": [{"noun": noun, "not": negated} for negated, noun in self.args],
        }

    def text(self) -> str:
        """The condition as words, for people."""
        if self.word == LONELY:
            return f"{'NOT ' if self.negated else ''}LONELY"
        args = " AND ".join(f"{'NOT ' if n else ''}{noun}" for n, noun in self.args)
        return f"{self.word} {args}"

    def __reduce__(self) -> tuple[type[Condition], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class Rule:
    """One semantic rule with the words that formed it, in reading order.

    ``subject``/``predicate`` are the bare nouns or property. A core rule is
    ``X IS Y`` and nothing else; a vocabulary-1 rule may add a NOT before
    either (``subject_not``, ``negated``), conditions, and the verb HAS.
    ``source_ids`` holds every word of the rule in reading order (NOT and
    condition words included, AND left out).
    """

    subject: str
    predicate: str
    source_ids: tuple[int, ...]
    axis: str
    subject_not: bool = False
    conditions: tuple[Condition, ...] = ()
    verb: str = IS
    negated: bool = False
    plain: bool = field(init=False, repr=False, compare=False)
    """Whether the rule reads like a core rule (``X IS Y`` with nothing else)."""
    key: tuple[Any, ...] = field(init=False, repr=False, compare=False)
    """Semantic identity: rules with the same key are the same rule (ids and axis aside).

    Both are set once when the rule is made: tables and events read them often.
    """

    def __post_init__(self) -> None:
        plain = not (self.subject_not or self.conditions or self.negated or self.verb != IS)
        object.__setattr__(self, "plain", plain)
        key: tuple[Any, ...] = (self.subject, self.predicate)
        if not plain:
            key += (self.subject_not, self.conditions, self.verb, self.negated)
        object.__setattr__(self, "key", key)

    def text(self) -> str:
        """The rule as words, for people: ``LONELY BABA ON KEKE IS NOT YOU``."""
        lonely = [c.text() for c in self.conditions if c.word == LONELY]
        infix = [c.text() for c in self.conditions if c.word != LONELY]
        parts = [*lonely, f"{'NOT ' if self.subject_not else ''}{self.subject}"]
        if infix:
            parts.append(" AND ".join(infix))
        parts.append(self.verb)
        parts.append(f"{'NOT ' if self.negated else ''}{self.predicate}")
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The wire record ``{subject, predicate, sourceIds, axis}``.

        A rule that is more than ``X IS Y`` adds ``verb``, ``subjectNot``,
        ``not``, ``conditions`` and ``text``.
        """
        out: dict[str, Any] = {
            "subject": self.subject,
            "predicate": self.predicate,
            "sourceIds": list(self.source_ids),
            "axis": self.axis,
        }
        if not self.plain:
            out["verb"] = self.verb
            out["subjectNot"] = self.subject_not
            out["not"] = self.negated
            out["conditions"] = [c.to_json() for c in self.conditions]
            out["text"] = self.text()
        return out

    def __reduce__(self) -> tuple[type[Rule], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


@dataclass(frozen=True, slots=True)
class Sentence:
    """One physical maximal span: its word ids in reading order and its axis."""

    ids: tuple[int, ...]
    axis: str

    def to_json(self) -> dict[str, Any]:
        """The wire record ``{ids, axis}``."""
        return {"ids": list(self.ids), "axis": self.axis}

    def __reduce__(self) -> tuple[type[Sentence], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def term_matches(negated: bool, noun: str, is_word: bool, entity_noun: str) -> bool:
    """Whether an entity (a word, or an object of ``entity_noun``) is meant by a Tier-1 term.

    ``TEXT`` is every word, ``ALL`` every object, a noun the objects of that
    noun; ``NOT`` X is every object X does not mean (words are never meant by
    a negated term, as in Baba Is You).
    """
    if noun == TEXT:
        meant = is_word
    elif is_word:
        meant = False
    else:
        meant = noun in (ALL, entity_noun)
    if negated:
        return not is_word and not meant
    return meant


def subject_matches(rule: Rule, is_word: bool, entity_noun: str) -> bool:
    """Whether ``rule``'s subject means this entity (conditions aside)."""
    return term_matches(rule.subject_not, rule.subject, is_word, entity_noun)


class RuleSet:
    """An active rule table and what derives from it, for every level.

    Built once per distinct arrangement of words and then shared. The turn
    reads it through a few precomputed parts, so a table that uses none of
    the Tier-1 words costs what the core table always cost:

    - ``props``, ``holders`` and ``transforms``: what the plain ``X IS Y``
      rules say, by noun (the whole story in a core table; tools that show
      a table read these).
    - ``property_rules``, ``noun_rules``, ``has_rules``: the rules by kind
      of value; ``conditional``: the property rules with conditions (empty:
      an entity's properties depend only on its kind and noun).
    - ``properties``: the property words the table was read with (what
      ``__init__`` took), kept so that the table can be rebuilt from pickle.
    - ``tier1``: whether the table was read with the Tier-1 grammar (TEXT,
      ALL and NOT mean something); ``given``: every Tier-1 property some rule
      gives (nothing in a core table), so a phase for MOVE, SHIFT, PULL,
      FLOAT, OPEN/SHUT, WEAK or HOT/MELT runs only when its word is in play.
    - ``simple_props`` / ``simple_transforms``: whether the by-noun lookups
      above are exact for every entity (no NOT, TEXT, ALL or condition
      among those rules).
    - ``level_props``: what unconditional ``LEVEL IS ...`` rules give the
      level itself (WIN and DEFEAT mean something).
    - ``empty_rules``: the transformations whose subject is ``EMPTY`` (the
      empty cells), in table order; empty when only ``EMPTY IS NOT ...``
      rules (or none) stand, since those alone make nothing.
    - ``givable``: every property some rule (or being a word) may give, so a
      phase about a property nothing can have is skipped at once; ``live``:
      no conditions and no FLOAT, so properties follow kind and noun alone.
    """

    __slots__ = (
        "_kinds",
        "conditional",
        "empty_rules",
        "floating",
        "givable",
        "given",
        "has_rules",
        "holders",
        "keys",
        "known_props",
        "level_props",
        "live",
        "noun_rules",
        "open_shut",
        "properties",
        "property_rules",
        "props",
        "pull",
        "rules",
        "sentence_spans",
        "sentences",
        "simple_props",
        "simple_transforms",
        "tier1",
        "transforms",
        "word_props",
    )

    def __init__(
        self,
        rules: tuple[Rule, ...],
        sentences: tuple[Sentence, ...],
        properties: frozenset[str],
        tier1: bool = False,
    ) -> None:
        """Derive the lookups and flags the turn reads from ``rules``."""
        self.rules = rules
        self.sentences = sentences
        # Each sentence as (axis, ids), for comparing tables: a tuple hashes in C, while a
        # compiled dataclass hashes through its generated, interpreted ``__hash__``.
        self.sentence_spans = frozenset([(s.axis, s.ids) for s in sentences])
        self.properties = properties
        self.tier1 = tier1
        keys = self.keys = frozenset([rule.key for rule in rules])
        props: dict[str, set[str]] = {}
        holders: dict[str, list[str]] = {}
        transforms: dict[str, str] = {}
        property_rules: list[Rule] = []
        noun_rules: list[Rule] = []
        has_rules: list[Rule] = []
        # Whether every rule reads as in the core grammar (X IS Y, no Tier-1 noun).
        core_reading = True
        for rule in rules:
            subject, predicate = rule.subject, rule.predicate
            if tier1 and (not rule.plain or subject in TIER1_NOUNS or predicate in TIER1_NOUNS):
                core_reading = False
            if rule.verb != IS:
                has_rules.append(rule)
            elif predicate in properties:
                property_rules.append(rule)
                if rule.plain:
                    props.setdefault(subject, set()).add(predicate)
                    nouns = holders.setdefault(predicate, [])
                    if subject not in nouns:
                        nouns.append(subject)
            else:
                noun_rules.append(rule)
                # X IS X locks X: it outranks any X IS Y wherever it stands in the table.
                if rule.plain and subject not in transforms and (subject, subject) not in keys:
                    transforms[subject] = predicate
        self.props: dict[str, frozenset[str]] = {n: frozenset(p) for n, p in props.items()}
        self.holders: dict[str, tuple[str, ...]] = {p: tuple(n) for p, n in holders.items()}
        self.transforms: dict[str, str] = transforms
        self.property_rules = tuple(property_rules)
        self.noun_rules = tuple(noun_rules)
        self.has_rules = tuple(has_rules)
        self._kinds: dict[tuple[bool, str], tuple[frozenset[str], frozenset[str]]] = {}
        # By noun, what the unconditional rules give an object: filled as nouns are met.
        self.known_props: dict[str, frozenset[str]] = dict(self.props)
        self.word_props = WORD_PROPERTIES
        if core_reading:
            # X IS Y only (the core grammar's every table, and many Tier-1 ones): every
            # by-noun lookup is exact, and the Tier-1 properties given are those held.
            self.conditional: tuple[Rule, ...] = ()
            self.empty_rules: tuple[Rule, ...] = ()
            self.simple_props = self.simple_transforms = True
            self.level_props: frozenset[str] = frozenset()
            self.givable = self.word_props.union(holders)
            if not tier1:
                self.given: frozenset[str] = frozenset()
                self.floating = self.pull = self.open_shut = False
                self.live = True
                return
            given = self.given = _TIER1_PROPERTY_SET.intersection(holders)
            self.floating = FLOAT in given
            self.pull = PULL in given
            self.open_shut = OPEN in given and SHUT in given
            self.live = not self.floating
            return
        self.conditional = tuple(r for r in property_rules if r.conditions)
        # EMPTY IS X (and what blocks it) applies to cells, not to entities.
        self.empty_rules = tuple(r for r in noun_rules if r.subject == EMPTY and not r.subject_not)
        if not any(not r.negated for r in self.empty_rules):
            self.empty_rules = ()
        self.simple_props = not any(not r.plain or r.subject in TIER1_NOUNS for r in property_rules)
        self.simple_transforms = not any(
            not r.plain or r.subject in TIER1_NOUNS or r.predicate in TIER1_NOUNS
            for r in noun_rules
        )
        gives = {r.predicate for r in property_rules if not r.negated}
        self.given = frozenset(gives.intersection(TIER1_PROPERTIES))
        self.floating = FLOAT in self.given
        self.pull = PULL in self.given
        self.open_shut = OPEN in self.given and SHUT in self.given
        if not self.simple_props:
            self.known_props = {}
            given, taken = self.kind_given_taken(True, TEXT)
            self.word_props = given - taken
        self.givable = self.word_props | gives
        self.live = not self.conditional and not self.floating
        # LEVEL IS WIN, LEVEL IS DEFEAT: what the unconditional rules say of the level itself.
        level_given = {
            r.predicate
            for r in property_rules
            if r.subject == LEVEL and not r.subject_not and not r.conditions and not r.negated
        }
        level_taken = {
            r.predicate
            for r in property_rules
            if r.subject == LEVEL and not r.subject_not and not r.conditions and r.negated
        }
        self.level_props = frozenset(level_given - level_taken)

    def __reduce__(
        self,
    ) -> tuple[type[RuleSet], tuple[tuple[Rule, ...], tuple[Sentence, ...], frozenset[str], bool]]:
        """Pickle as a call of the class: a compiled class is rebuilt through ``__init__``."""
        return type(self), (self.rules, self.sentences, self.properties, self.tier1)

    def object_props(self, noun: str) -> frozenset[str]:
        """The properties the unconditional rules give every object of ``noun``."""
        found = self.known_props.get(noun)
        if found is None:
            if self.simple_props:
                found = NO_PROPERTIES
            else:
                given, taken = self.kind_given_taken(False, noun)
                found = given - taken
            self.known_props[noun] = found
        return found

    def kind_given_taken(self, is_word: bool, noun: str) -> tuple[frozenset[str], frozenset[str]]:
        """``(given, taken)``: the properties unconditional rules give and take (NOT) a kind.

        A word is given PUSH by the implicit ``TEXT IS PUSH``. A reading with
        conditional rules needs the two apart: a NOT anywhere takes what any
        rule gives. Remembered per kind: tables are shared.
        """
        key = (is_word, noun)
        found = self._kinds.get(key)
        if found is None:
            given: set[str] = {PUSH} if is_word else set()
            taken: set[str] = set()
            for rule in self.property_rules:
                if not rule.conditions and subject_matches(rule, is_word, noun):
                    (taken if rule.negated else given).add(rule.predicate)
            found = self._kinds[key] = (frozenset(given), frozenset(taken))
        return found

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
    ``CACHE_LIMIT`` entries per level, and ``_SharedCaches``' bounds on levels
    and arrangements over all levels, the level used longest ago forgotten
    first.
    """

    CACHE_LIMIT: Final = 1 << 15

    def __init__(
        self,
        width: int,
        texts: Sequence[str],
        word_ids: Sequence[int],
        properties: frozenset[str],
        tier1: bool = False,
    ) -> None:
        """Prepare a parser for the words ``word_ids`` (with their ``texts``) of one level.

        ``tier1`` chooses the Tier-1 grammar (a ``vocabulary-1`` level).
        """
        self._width = width
        # Words sort by line as one int each, ``key * _id_stride + id``: ints compare and
        # hash faster than pairs, and every id is below the level's entity count.
        self._id_stride = len(texts)
        self._word_ids = tuple(word_ids)
        self._texts = {i: texts[i] for i in word_ids}
        self._properties = properties
        self.tier1 = tier1
        grammar = TIER1_GRAMMAR if tier1 else CORE_GRAMMAR
        self._transitions = grammar.transitions
        self._accepting = grammar.accepting
        self._starts = grammar.starts
        self._classes = {i: _word_class(texts[i], properties, tier1) for i in word_ids}
        # The words only the Tier-1 grammar has (NOT, HAS, LONELY, ON, NEAR, FACING).
        self._operators = frozenset([i for i, c in self._classes.items() if c >= _NOT])
        words = (
            width,
            len(texts),
            self._word_ids,
            tuple(texts[i] for i in word_ids),
            properties,
            tier1,
        )
        cache = _SHARED.take(words)
        self._cache = cache.by_positions
        self._by_sentences = cache.by_sentences
        self._expansions = cache.expansions
        self._runs = cache.runs
        self._lines = cache.lines
        # The last arrangement read, by line: the next differs from it by a word or two.
        self._last: _Lines | None = None
        # The table of that arrangement (None until one is parsed).
        self._last_table: RuleSet | None = None

    @classmethod
    def clear_shared_caches(cls) -> None:
        """Forget every cached table, as in a fresh process (for measuring cold starts)."""
        _SHARED.clear()

    def for_words(self, texts: Sequence[str], word_ids: Sequence[int]) -> RuleParser:
        """A parser of the same grammar for another set of words (a kind changed)."""
        return RuleParser(self._width, texts, word_ids, self._properties, self.tier1)

    def parse(self, word_positions: tuple[int, ...]) -> RuleSet:
        """The rule table for words at ``word_positions`` (aligned with ``word_ids``, -1 = gone)."""
        cached = self._cache.get(word_positions)
        if cached is not None:
            return cached
        if len(self._cache) >= self.CACHE_LIMIT:
            self._cache.clear()
        table = self._parse(word_positions)
        self._cache[word_positions] = table
        _SHARED.note_added()
        return table

    def _parse(self, word_positions: tuple[int, ...]) -> RuleSet:
        spans = self._spans(word_positions)
        if spans is None:
            # No line's spans changed (a word pushed about outside any sentence): the same table.
            table = self._last_table
            assert table is not None
            return table
        key = tuple([(axis, ids) for _, _, _, ids, axis in spans])
        table = self._by_sentences.get(key)
        if table is not None:
            self._last_table = table
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
        table = RuleSet(tuple(rules), tuple(sentences), self._properties, self.tier1)
        self._by_sentences[key] = table
        self._last_table = table
        return table

    def _spans(self, word_positions: tuple[int, ...]) -> list[Span] | None:
        """Every maximal span as ``(axis rank, major, minor, ids, axis)``, in span order.

        None when the spans are those of the last arrangement parsed (whose
        table is ``_last_table``): the words that moved changed no line's spans.

        For each axis the words are sorted line by line (rows for ``h``,
        columns for ``v``) and cut into runs of adjacent cells; a span lies
        within one run. A run of single words is read in one pass; a run
        with a stack is searched path by path, within the parser's bounds.

        Spans lie within one line, so when a few words moved since the
        parser's last arrangement only the lines they left and entered are
        read again (``_update_lines``); otherwise, or when a stack is about,
        every line is (``_read_lines``). Both give the same spans.
        """
        last = self._last
        if last is not None and not last.stacked:
            changed = list(
                compress(range(len(word_positions)), map(ne, word_positions, last.positions))
            )
            if len(changed) <= _UPDATE_LIMIT:
                updated = self._update_lines(last, word_positions, changed)
                if updated == _SAME_SPANS and self._last_table is not None:
                    return None
                if updated != _UNREADABLE:
                    return last.spans()
        lines = self._last = self._read_lines(word_positions)
        return lines.spans()

    def _read_lines(self, word_positions: tuple[int, ...]) -> _Lines:
        """Every line of the arrangement read from scratch."""
        width, id_stride = self._width, self._id_stride
        pairs = [(p, i) for p, i in zip(word_positions, self._word_ids, strict=True) if p >= 0]
        placed = sorted([p * id_stride + i for p, i in pairs])
        columns = sorted(
            [((p % width) * _COLUMN_STRIDE + p // width) * id_stride + i for p, i in pairs]
        )
        lines = _Lines(word_positions, placed, columns)
        if len(placed) >= 3:
            for rank, (axis, stride, words) in enumerate(
                ((H, width, placed), (V, _COLUMN_STRIDE, columns))
            ):
                search: list[_SpanSearch] = []
                line_stride = stride * id_stride
                line_of = [entry // line_stride for entry in words]
                count = len(line_of)
                index = 0
                while index < count:
                    line = line_of[index]
                    end = bisect_right(line_of, line, index)
                    if end - index >= 3:
                        found, stacked = self._spans_of_line(
                            tuple(words[index:end]), line, stride, rank, axis, search
                        )
                        lines.stacked = lines.stacked or stacked
                        if found:
                            lines.by_line[rank * _LINES_PER_AXIS + line] = found
                    index = end
        return lines

    def _update_lines(
        self, lines: _Lines, word_positions: tuple[int, ...], changed: list[int]
    ) -> int:
        """Bring ``lines`` to ``word_positions``, where the words at ``changed`` moved.

        Only the lines those words left or entered are read again. Returns
        ``_SAME_SPANS`` when no line's spans changed, ``_NEW_SPANS`` when one
        did, and ``_UNREADABLE`` (``lines`` then unusable) when one of them
        has a stack: the bounded search must then run over every line in order.
        """
        width, word_ids, old = self._width, self._word_ids, lines.positions
        id_stride = self._id_stride
        placed, columns = lines.placed, lines.columns
        # Each line as one int (see ``_Lines``): rows first, then columns.
        touched: set[int] = set()
        for index in changed:
            ident = word_ids[index]
            cell = old[index]
            if cell >= 0:
                y, x = divmod(cell, width)
                del placed[bisect_left(placed, cell * id_stride + ident)]
                del columns[bisect_left(columns, (x * _COLUMN_STRIDE + y) * id_stride + ident)]
                touched.add(y)
                touched.add(_LINES_PER_AXIS + x)
            cell = word_positions[index]
            if cell >= 0:
                y, x = divmod(cell, width)
                insort(placed, cell * id_stride + ident)
                insort(columns, (x * _COLUMN_STRIDE + y) * id_stride + ident)
                touched.add(y)
                touched.add(_LINES_PER_AXIS + x)
        lines.positions = word_positions
        by_line = lines.by_line
        outcome = _SAME_SPANS
        for key in sorted(touched):
            rank, line = divmod(key, _LINES_PER_AXIS)
            if rank == 0:
                axis, stride, words = H, width, placed
            else:
                axis, stride, words = V, _COLUMN_STRIDE, columns
            start = bisect_left(words, line * stride * id_stride)
            end = bisect_left(words, (line + 1) * stride * id_stride, start)
            found: list[Span] = []
            if end - start >= 3:
                found, stacked = self._spans_of_line(
                    tuple(words[start:end]), line, stride, rank, axis, []
                )
                if stacked:
                    self._last = None
                    return _UNREADABLE
            if found:
                if by_line.get(key) != found:
                    by_line[key] = found
                    outcome = _NEW_SPANS
            elif by_line.pop(key, None) is not None:
                outcome = _NEW_SPANS
        return outcome

    def _spans_of_line(
        self,
        words: tuple[int, ...],
        line: int,
        stride: int,
        rank: int,
        axis: str,
        search: list[_SpanSearch],
    ) -> tuple[list[Span], bool]:
        """The spans of one line's words and whether it has a stack, remembered if it has none.

        A line of single words reads the same wherever the other words are,
        so its spans are kept by the line's words and places. A line with a
        stack is searched every time, with the axis's one bounded search.
        """
        cache = self._lines[rank]
        found = cache.get(words)
        if found is not None:
            return found, False
        found, stacked = self._line_spans(words, line, stride, rank, axis, search)
        if not stacked:
            if len(cache) >= self.CACHE_LIMIT:
                cache.clear()
            cache[words] = found
        return found, stacked

    def _line_spans(
        self,
        words: tuple[int, ...],
        line: int,
        stride: int,
        rank: int,
        axis: str,
        search: list[_SpanSearch],
    ) -> tuple[list[Span], bool]:
        """The spans of one line's words (sorted) and whether the line has a stack.

        ``search`` holds the axis's bounded search once a stack needed it.
        """
        found: list[Span] = []
        stacked = False
        id_stride = self._id_stride
        count = len(words)
        index = 0
        while index < count:
            first, ident = divmod(words[index], id_stride)
            last = first
            cells = [[ident]]
            single = True
            index += 1
            while index < count:
                key, ident = divmod(words[index], id_stride)
                if key == last:
                    cells[-1].append(ident)
                    single = False
                elif key == last + 1:
                    cells.append([ident])
                    last = key
                else:
                    break
                index += 1
            stacked = stacked or not single
            if len(cells) < 3:
                continue
            if single:
                run = tuple([stack[0] for stack in cells])
                in_run = self._runs.get(run)
                if in_run is None:
                    if len(self._runs) >= self.CACHE_LIMIT:
                        self._runs.clear()
                    in_run = self._runs[run] = self._single_file_spans(run)
            else:
                if not search:
                    search.append(
                        _SpanSearch(self._classes, self._transitions, self._accepting, self._starts)
                    )
                in_run = search[0].maximal_spans(cells)
            coordinate = first - line * stride
            for offset, ids in in_run:
                found.append((rank, line, coordinate + offset, ids, axis))
        return found, stacked

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
        """The rules of one sentence: every subject with every value.

        A Tier-1 sentence without NOT, HAS or a condition reads as a core one.
        """
        if self.tier1 and not self._operators.isdisjoint(sentence.ids):
            return self._expand_tier1(sentence)
        ids = sentence.ids
        verb = next(i for i, ident in enumerate(ids) if self._classes[ident] == _IS)
        subjects = [ident for ident in ids[:verb] if self._classes[ident] == _NOUN]
        values = [ident for ident in ids[verb + 1 :] if self._classes[ident] != _AND]
        return [
            Rule(self._texts[s], self._texts[v], (s, ids[verb], v), sentence.axis)
            for s in subjects
            for v in values
        ]

    def _expand_tier1(self, sentence: Sentence) -> list[Rule]:
        """The rules of one Tier-1 sentence; every rule shares the sentence's conditions.

        A rule's ``source_ids`` are its subject's words, every condition word,
        the verb and its value's words, in reading order (ANDs left out).
        """
        texts, classes = self._texts, self._classes
        subjects: list[tuple[bool, str, list[int]]] = []
        values: list[tuple[bool, str, list[int]]] = []
        conditions: list[tuple[str, bool, list[Term], list[int]]] = []
        shared_ids: list[int] = []
        verb, verb_id = IS, -1
        section = "subject"
        nots: list[int] = []
        for ident in sentence.ids:
            kind = classes[ident]
            if kind == _NOT:
                nots.append(ident)
            elif kind == _LONELY:
                conditions.append((LONELY, len(nots) % 2 == 1, [], [*nots, ident]))
                nots = []
            elif kind == _INFIX:
                section = "condition"
                conditions.append((texts[ident], False, [], [ident]))
            elif kind in (_IS, _HAS):
                verb, verb_id, section = texts[ident], ident, "value"
            elif kind in (_NOUN, _PROPERTY):
                term = (len(nots) % 2 == 1, texts[ident], [*nots, ident])
                nots = []
                if section == "subject":
                    subjects.append(term)
                elif section == "condition":
                    conditions[-1][2].append((term[0], term[1]))
                    conditions[-1][3].extend(term[2])
                else:
                    values.append(term)
        for _, _, _, ids in conditions:
            shared_ids.extend(ids)
        made = tuple(Condition(word, negated, tuple(args)) for word, negated, args, _ in conditions)
        order = {ident: index for index, ident in enumerate(sentence.ids)}
        rules: list[Rule] = []
        for subject_not, subject, subject_ids in subjects:
            for negated, value, value_ids in values:
                ids = sorted(
                    [*subject_ids, *shared_ids, verb_id, *value_ids], key=order.__getitem__
                )
                rules.append(
                    Rule(
                        subject,
                        value,
                        tuple(ids),
                        sentence.axis,
                        subject_not=subject_not,
                        conditions=made,
                        verb=verb,
                        negated=negated,
                    )
                )
        return rules


def parser_for_level(level: Level) -> RuleParser:
    """A parser for the words of ``level``, with the Tier-1 grammar when the level opts in."""
    return RuleParser(level.width, level.texts, level.word_ids, level.properties, level.vocabulary)


class _Lines:
    """One arrangement's words sorted by row and by column, and each line's spans.

    ``placed`` holds ``cell * n + id`` and ``columns`` ``(x * MAX_LEVEL_SIDE
    + y) * n + id`` (``n``: the parser's ``_id_stride``), both sorted;
    ``by_line`` maps ``axis rank * _LINES_PER_AXIS + line`` (rows, then
    columns) to the line's spans (lines without any left out); ``stacked``
    says a line has a stack.
    """

    __slots__ = ("by_line", "columns", "placed", "positions", "stacked")

    def __init__(
        self,
        positions: tuple[int, ...],
        placed: list[int],
        columns: list[int],
    ) -> None:
        self.positions = positions
        self.placed = placed
        self.columns = columns
        self.by_line: dict[int, list[Span]] = {}
        self.stacked = False

    def spans(self) -> list[Span]:
        """Every span of every line, in span order."""
        found = [span for spans in self.by_line.values() for span in spans]
        found.sort()
        return found


class _LevelCache:
    """The parse caches of one level's words, shared by all its parsers.

    ``by_positions`` maps a word arrangement to its table, ``by_sentences``
    the sentences an arrangement reads to its table, ``expansions`` one
    sentence to its record and rules, ``runs`` a run of single words to
    its spans, and ``lines`` (one dict per axis) a line of single words with
    their places to its spans (most sentences, runs and lines recur across
    arrangements:
    ``MIAU IS YOU`` stands in nearly all of them).
    """

    __slots__ = ("by_positions", "by_sentences", "expansions", "lines", "runs")

    def __init__(self) -> None:
        self.by_positions: dict[tuple[int, ...], RuleSet] = {}
        self.by_sentences: dict[tuple[tuple[str, tuple[int, ...]], ...], RuleSet] = {}
        self.expansions: dict[tuple[str, tuple[int, ...]], tuple[Sentence, list[Rule]]] = {}
        self.runs: dict[tuple[int, ...], list[tuple[int, tuple[int, ...]]]] = {}
        self.lines: tuple[dict[tuple[int, ...], list[Span]], ...] = ({}, {})

    def clear(self) -> None:
        """Empty every cache (the parsers holding them keep working, from scratch)."""
        self.by_positions.clear()
        self.by_sentences.clear()
        self.expansions.clear()
        self.runs.clear()
        for cache in self.lines:
            cache.clear()


class _SharedCaches:
    """Every level's parse caches, by the level's words, the one used longest ago first.

    Bounded twice: at most ``LEVELS`` levels, and at most ``ARRANGEMENTS``
    remembered arrangements over all of them, counted every ``SWEEP_EVERY``
    new ones. A level past either bound is forgotten and its caches emptied,
    so a game still playing it parses afresh (a parse is a pure function of
    the words, so nothing it reads changes).
    """

    LEVELS: Final = 256
    ARRANGEMENTS: Final = 1 << 18
    SWEEP_EVERY: Final = 1 << 10

    __slots__ = ("levels", "unswept")

    def __init__(self) -> None:
        self.levels: dict[tuple[object, ...], _LevelCache] = {}
        self.unswept = 0

    def take(self, words: tuple[object, ...]) -> _LevelCache:
        """The caches of the level with ``words`` (new ones if it is not known), as used now."""
        levels = self.levels
        cache = levels.pop(words, None)
        if cache is None:
            cache = _LevelCache()
            levels[words] = cache
            self.sweep()
        else:
            levels[words] = cache  # the newest use goes last
        return cache

    def note_added(self) -> None:
        """Count one arrangement remembered; sweep every ``SWEEP_EVERY``."""
        self.unswept += 1
        if self.unswept >= self.SWEEP_EVERY:
            self.sweep()

    def sweep(self) -> None:
        """Forget the levels used longest ago while either bound is passed (never the newest)."""
        self.unswept = 0
        levels = self.levels
        total = sum([len(cache.by_positions) for cache in levels.values()])
        while len(levels) > 1 and (len(levels) > self.LEVELS or total > self.ARRANGEMENTS):
            oldest = levels.pop(next(iter(levels)))
            total -= len(oldest.by_positions)
            oldest.clear()

    def clear(self) -> None:
        """Forget every level."""
        self.levels.clear()
        self.unswept = 0


_SHARED: Final = _SharedCaches()


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


def _word_class(text: str, properties: frozenset[str], tier1: bool) -> int:
    """The grammar class of a word's text (the Tier-1 operators only in a Tier-1 grammar)."""
    if text == IS:
        return _IS
    if text == AND:
        return _AND
    if tier1:
        if text == NOT:
            return _NOT
        if text == HAS:
            return _HAS
        if text == LONELY:
            return _LONELY
        if text in INFIX_CONDITIONS:
            return _INFIX
    return _PROPERTY if text in properties else _NOUN
