"""The Tier-1 grammar (``vocabulary-1``): NOT, HAS, conditions, TEXT and ALL.

Grammar (``docs/vocabulary.md``, "Sentences")::

    SENTENCE = PREFIX* TERM (AND TERM)* CONDITION* VERB
    PREFIX   = NOT* LONELY                 TERM = NOT* NOUN
    CONDITION = (AND)? (ON | NEAR | FACING) TERM (AND TERM)*
    VERB     = IS VALUE (AND VALUE)*  |  HAS NOUN (AND NOUN)*
    VALUE    = NOT* (NOUN | PROPERTY)

The span search, the maximal-span rule and the caches are the core parser's
(``miau.engine.rules``); only the automaton, the word classes and the
expansion of a sentence into rules differ. A rule here is a ``Rule1``: the
core record plus its negations, its conditions and its verb, with every word
that formed it (NOT and condition words included) in reading order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from miau.engine.level import Level
from miau.engine.rules import Rule, RuleParser, RuleSet, Sentence, _LevelCache
from miau.engine.vocabulary import (
    AND,
    HAS,
    INFIX_CONDITIONS,
    IS,
    LONELY,
    NOT,
    PUSH,
    TEXT,
)

# Word classes: the core's four, then Tier-1's own.
_NOUN, _IS, _AND, _PROPERTY, _NOT, _HAS, _LONELY, _INFIX = range(8)

_TRANSITIONS1: Final[tuple[dict[int, int], ...]] = (
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
)
_ACCEPTING1: Final = frozenset({7, 10})
_STARTS1: Final = frozenset({_NOUN, _NOT, _LONELY})

Term = tuple[bool, str]
"""``(negated, noun)``: a noun as a subject or a condition's argument."""


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


@dataclass(frozen=True, slots=True)
class Rule1(Rule):
    """A Tier-1 rule: the core record plus negations, conditions and verb.

    ``subject``/``predicate`` are the bare nouns or property; ``subject_not``
    and ``negated`` say whether a NOT stands before them; ``source_ids`` holds
    every word of the rule in reading order.
    """

    subject_not: bool = False
    conditions: tuple[Condition, ...] = ()
    verb: str = IS
    negated: bool = False

    @property
    def key(self) -> tuple[Any, ...]:
        """Semantic identity: everything but the words' ids and axis."""
        return (
            self.subject,
            self.predicate,
            self.subject_not,
            self.conditions,
            self.verb,
            self.negated,
        )

    @property
    def plain(self) -> bool:
        """Whether the rule reads like a core rule (``X IS Y`` with nothing else)."""
        return not (self.subject_not or self.conditions or self.negated or self.verb != IS)

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
        """The core wire record; more than ``X IS Y`` adds the Tier-1 fields.

        Those are ``verb``, ``subjectNot``, ``not``, ``conditions`` and ``text``.
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


class RuleSet1(RuleSet):
    """A Tier-1 rule table, with the parts the turn reads split out once.

    ``props``, ``holders`` and ``transforms`` (the core table's lookups) hold
    only what plain rules say, for tools that show a rule table; the turn
    itself reads ``property_rules``, ``noun_rules`` and ``has_rules``
    through ``miau.engine.tier1``, which evaluates NOT and conditions.
    """

    __slots__ = ("_static", "conditional", "has_rules", "noun_rules", "property_rules")

    def __init__(
        self, rules: tuple[Rule1, ...], sentences: tuple[Sentence, ...], properties: frozenset[str]
    ) -> None:
        """Split ``rules`` into property, transformation and HAS rules."""
        plain = tuple(rule for rule in rules if rule.plain)
        super().__init__(plain, sentences, properties)
        self.rules = rules
        self.keys = frozenset(rule.key for rule in rules)
        self.property_rules = tuple(r for r in rules if r.verb == IS and r.predicate in properties)
        self.noun_rules = tuple(r for r in rules if r.verb == IS and r.predicate not in properties)
        self.has_rules = tuple(r for r in rules if r.verb == HAS)
        self.conditional = tuple(r for r in self.property_rules if r.conditions)
        self._static: dict[tuple[bool, str], tuple[frozenset[str], frozenset[str]]] = {}

    def static_props(self, is_word: bool, noun: str) -> tuple[frozenset[str], frozenset[str]]:
        """The properties unconditional rules give and take from a kind of entity.

        Returns ``(given, taken)``; a word is given PUSH by the implicit
        ``TEXT IS PUSH``. Remembered per kind: tables are shared.
        """
        key = (is_word, noun)
        found = self._static.get(key)
        if found is None:
            given: set[str] = {PUSH} if is_word else set()
            taken: set[str] = set()
            for rule in self.property_rules:
                if not rule.conditions and subject_matches(rule, is_word, noun):
                    (taken if rule.negated else given).add(rule.predicate)
            found = self._static[key] = (frozenset(given), frozenset(taken))
        return found


def term_matches(negated: bool, noun: str, is_word: bool, entity_noun: str) -> bool:
    """Whether an entity (a word, or an object of ``entity_noun``) is meant by a term.

    ``TEXT`` is every word, ``ALL`` every object, a noun the objects of that
    noun; ``NOT`` X is every object X does not mean (words are never meant by
    a negated term, as in Baba Is You).
    """
    if noun == TEXT:
        meant = is_word
    elif is_word:
        meant = False
    else:
        meant = noun == "ALL" or noun == entity_noun
    if negated:
        return not is_word and not meant
    return meant


def subject_matches(rule: Rule1, is_word: bool, entity_noun: str) -> bool:
    """Whether ``rule``'s subject means this entity (conditions aside)."""
    return term_matches(rule.subject_not, rule.subject, is_word, entity_noun)


class Tier1Parser(RuleParser):
    """The parser of ``vocabulary-1`` levels: the Tier-1 automaton and expansion."""

    _shared: ClassVar[dict[tuple[object, ...], _LevelCache]] = {}
    _transitions: ClassVar[tuple[dict[int, int], ...]] = _TRANSITIONS1
    _accepting: ClassVar[frozenset[int]] = _ACCEPTING1
    _starts: ClassVar[frozenset[int]] = _STARTS1

    @staticmethod
    def _classify(text: str, properties: frozenset[str]) -> int:
        """The Tier-1 grammar class of a word's text."""
        if text == IS:
            return _IS
        if text == AND:
            return _AND
        if text == NOT:
            return _NOT
        if text == HAS:
            return _HAS
        if text == LONELY:
            return _LONELY
        if text in INFIX_CONDITIONS:
            return _INFIX
        return _PROPERTY if text in properties else _NOUN

    def _table(self, rules: tuple[Rule, ...], sentences: tuple[Sentence, ...]) -> RuleSet:
        """A ``RuleSet1`` (every rule this parser expands is a ``Rule1``)."""
        return RuleSet1(
            tuple(r for r in rules if isinstance(r, Rule1)), sentences, self._properties
        )

    def _expand(self, sentence: Sentence) -> list[Rule]:
        """The rules of one sentence: every subject with every value, all conditions shared.

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
                    Rule1(
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
    """A parser for the words of ``level``: the Tier-1 parser when the level opts in.

    It lives here, not on :class:`RuleParser`, because this module builds on
    ``rules``: the one that knows both parsers chooses between them.
    """
    parser_class = Tier1Parser if level.vocabulary else RuleParser
    return parser_class(level.width, level.texts, level.word_ids, level.properties)
