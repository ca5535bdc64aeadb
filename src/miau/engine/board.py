"""The mutable board a turn works on, with a journal that makes every change undoable.

Every change to an entity first records the entity's previous position,
noun and facing in the journal, then mutates. Reverting the journal restores
the exact previous state; the game's undo history and the solver's search
both rest on this one mechanism.

Positions are cell indexes ``y * width + x``; a destroyed entity has
position ``GONE``. Per-cell occupancy and a per-noun index are kept up to
date as things change, so no phase of a turn has to scan the whole board.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from miau.engine.level import Level
from miau.engine.rules import RuleParser, RuleSet
from miau.engine.rules1 import parser_for_level
from miau.engine.vocabulary import PUSH

GONE: Final = -1

JournalEntry = tuple[int, int, str, int, bool]
"""``(id, previous position, previous noun, previous facing, previously a word)``.

A word's "noun" is its text. Only a ``vocabulary-1`` board (``Board1``) ever
changes an entity's kind; the core board journals the level's fixed kind.
"""

WORD_PROPERTIES: Final = frozenset({PUSH})
"""Words are pushable by default and nothing else: no rule targets a word."""

_NO_PROPERTIES: Final[frozenset[str]] = frozenset()


class Checkpoint(NamedTuple):
    """The board's scalars at one moment; with a journal it takes the board back there.

    A named tuple rather than a frozen dataclass: one is made every turn, and
    a tuple is several times cheaper to build.
    """

    move_count: int
    won: bool
    control_lost: bool
    phases: tuple[int, ...]
    rules: RuleSet


class Board:
    """The current entities of one level, their indexes, and the active rules."""

    __slots__ = (
        "by_noun",
        "cells",
        "control_lost",
        "facing",
        "is_word",
        "journal",
        "level",
        "move_count",
        "noun",
        "parser",
        "phases",
        "pos",
        "rules",
        "width",
        "won",
        "words_dirty",
    )

    def __init__(self, level: Level, parser: RuleParser | None = None) -> None:
        """Set up ``level`` as it starts, before the start-of-level transformations."""
        self.level = level
        self.width = level.width
        self.is_word: Sequence[bool] = level.is_word
        self.parser = parser or parser_for_level(level)
        self.pos: list[int] = list(level.start_positions)
        self.noun: list[str] = list(level.texts)
        self.facing: list[int] = list(level.start_facings)
        self.phases: list[int] = [a.phase for a in level.automata]
        self.move_count = 0
        self.won = False
        self.control_lost = False
        self.journal: list[JournalEntry] = []
        self.cells: list[list[int]] = []
        self.by_noun: dict[str, list[int]] = {}
        self.rebuild_indexes()
        self.rules: RuleSet = self.parser.parse(self.word_positions())
        self.words_dirty = False

    def rebuild_indexes(self) -> None:
        """Recompute occupancy and the noun index from ``pos`` and ``noun``."""
        cells: list[list[int]] = [[] for _ in range(self.width * self.level.height)]
        by_noun: dict[str, list[int]] = {}
        for ident, position in enumerate(self.pos):
            if position != GONE:
                cells[position].append(ident)
                if not self.is_word[ident]:
                    by_noun.setdefault(self.noun[ident], []).append(ident)
        self.cells = cells
        self.by_noun = by_noun

    def word_positions(self) -> tuple[int, ...]:
        """Where every word is (``GONE`` for destroyed ones): the rule cache key."""
        pos = self.pos
        return tuple([pos[i] for i in self.level.word_ids])

    def refresh_rules(self) -> None:
        """Reparse the rules if a word moved or disappeared since the last parse."""
        if self.words_dirty:
            self.rules = self.parser.parse(self.word_positions())
            self.words_dirty = False

    def props(self, ident: int) -> frozenset[str]:
        """The properties entity ``ident`` has under the active rules."""
        if self.is_word[ident]:
            return WORD_PROPERTIES
        return self.rules.props.get(self.noun[ident], _NO_PROPERTIES)

    def holders(self, prop: str) -> list[int]:
        """Ids of the surviving objects that have ``prop``, in id order."""
        nouns = self.rules.holders.get(prop)
        if not nouns:
            return []
        by_noun = self.by_noun
        if len(nouns) == 1:
            return list(by_noun.get(nouns[0], ()))
        found: list[int] = []
        for noun in nouns:
            found.extend(by_noun.get(noun, ()))
        found.sort()
        return found

    def move(self, ident: int, target: int, facing: int) -> None:
        """Move entity ``ident`` to cell ``target``, facing ``facing``."""
        source = self.pos[ident]
        word = self.is_word[ident]
        self.journal.append((ident, source, self.noun[ident], self.facing[ident], word))
        self.cells[source].remove(ident)
        insort(self.cells[target], ident)
        self.pos[ident] = target
        self.facing[ident] = facing
        if word:
            self.words_dirty = True

    def set_noun(self, ident: int, noun: str) -> None:
        """Turn object ``ident`` into a ``noun``."""
        old = self.noun[ident]
        self.journal.append((ident, self.pos[ident], old, self.facing[ident], False))
        self.by_noun[old].remove(ident)
        insort(self.by_noun.setdefault(noun, []), ident)
        self.noun[ident] = noun

    def destroy(self, ident: int) -> None:
        """Remove entity ``ident`` from the board."""
        position = self.pos[ident]
        word = self.is_word[ident]
        self.journal.append((ident, position, self.noun[ident], self.facing[ident], word))
        self.cells[position].remove(ident)
        self.pos[ident] = GONE
        if word:
            self.words_dirty = True
        else:
            self.by_noun[self.noun[ident]].remove(ident)

    def turn(self, ident: int, facing: int) -> None:
        """Turn entity ``ident`` to ``facing`` where it stands (MOVE turning back)."""
        entry = (ident, self.pos[ident], self.noun[ident], self.facing[ident], self.is_word[ident])
        self.journal.append(entry)
        self.facing[ident] = facing

    def revert(self, entries: list[JournalEntry]) -> None:
        """Undo ``entries`` (taken from the journal) newest first, restoring each entity."""
        pos, noun, cells, by_noun = self.pos, self.noun, self.cells, self.by_noun
        is_word = self.is_word
        for ident, old_pos, old_noun, old_facing, _ in reversed(entries):
            current = pos[ident]
            if current != GONE:
                cells[current].remove(ident)
                if not is_word[ident]:
                    by_noun[noun[ident]].remove(ident)
            if old_pos != GONE:
                insort(cells[old_pos], ident)
                if not is_word[ident]:
                    insort(by_noun.setdefault(old_noun, []), ident)
            if is_word[ident] and current != old_pos:
                self.words_dirty = True
            pos[ident] = old_pos
            noun[ident] = old_noun
            self.facing[ident] = old_facing

    def checkpoint(self) -> Checkpoint:
        """The scalars to come back to: counters, flags, automata phases and rules.

        Together with the journal taken after it, ``rewind`` restores the
        board exactly; undo and the solver both rest on this pair.
        """
        return Checkpoint(
            self.move_count, self.won, self.control_lost, tuple(self.phases), self.rules
        )

    def rewind(self, checkpoint: Checkpoint, entries: list[JournalEntry]) -> None:
        """Go back to ``checkpoint``, undoing ``entries`` (the journal taken since it)."""
        self.revert(entries)
        self.move_count = checkpoint.move_count
        self.won = checkpoint.won
        self.control_lost = checkpoint.control_lost
        self.phases[:] = checkpoint.phases
        self.rules = checkpoint.rules
        self.words_dirty = False

    def take_journal(self) -> list[JournalEntry]:
        """Hand over the changes journalled so far and start a fresh journal."""
        entries = self.journal
        self.journal = []
        return entries


class Board1(Board):
    """A ``vocabulary-1`` board, on which an entity may change kind.

    ``X IS TEXT`` and ``X HAS TEXT`` make an object the word of its noun;
    ``TEXT IS X`` and ``TEXT HAS X`` make a word an object. The set of words
    (the *roster*: their ids and texts) then changes, so the board keeps its
    own ``word_ids`` and the parser of its roster, one per roster (a parser
    of other words caches other arrangements). The journal records each
    entity's kind, so undo, the solver's jumps and ``rewind`` restore it like
    any other field. The core board never changes a kind and never runs
    this code.
    """

    __slots__ = ("_parsers", "kinds", "last_reading", "word_ids")

    PARSER_LIMIT: Final = 1 << 12
    """At most this many rosters' parsers are remembered per board (then forgotten at once)."""

    def __init__(self, level: Level, parser: RuleParser | None = None) -> None:
        """Set up ``level`` as it starts, with the level's words as the roster."""
        self.kinds: list[bool] = list(level.is_word)
        # The rule table, the state tuples and the Reading computed from them (tier1.Reading.of).
        self.last_reading: tuple[RuleSet, tuple[tuple[object, ...], ...], Any] | None = None
        self.word_ids: tuple[int, ...] = level.word_ids
        self._parsers: dict[tuple[tuple[int, ...], tuple[str, ...]], RuleParser] = {}
        super().__init__(level, parser)
        self.is_word = self.kinds
        self._parsers[self._roster()] = self.parser

    def word_positions(self) -> tuple[int, ...]:
        """Where every word of the roster is (``GONE`` for destroyed ones)."""
        pos = self.pos
        return tuple([pos[i] for i in self.word_ids])

    def _roster(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        ids = tuple([i for i, word in enumerate(self.kinds) if word])
        noun = self.noun
        return ids, tuple([noun[i] for i in ids])

    def reroster(self) -> None:
        """Take the words as they are now as the roster, with its parser; rules need a reparse."""
        key = self._roster()
        parser = self._parsers.get(key)
        if parser is None:
            if len(self._parsers) >= self.PARSER_LIMIT:
                self._parsers.clear()
            parser = type(self.parser)(self.width, self.noun, key[0], self.level.properties)
            self._parsers[key] = parser
        self.word_ids = key[0]
        self.parser = parser
        self.words_dirty = True

    def set_kind(self, ident: int, word: bool, noun: str) -> None:
        """Turn entity ``ident`` where it stands into a word (``noun`` its text) or an object."""
        old_word, old = self.kinds[ident], self.noun[ident]
        self.journal.append((ident, self.pos[ident], old, self.facing[ident], old_word))
        if not old_word:
            self.by_noun[old].remove(ident)
        if not word:
            insort(self.by_noun.setdefault(noun, []), ident)
        self.kinds[ident] = word
        self.noun[ident] = noun
        self.reroster()

    def revive(self, ident: int, target: int, noun: str, word: bool) -> None:
        """Bring destroyed entity ``ident`` back at cell ``target`` as ``noun`` (HAS).

        ``word`` says whether it comes back as a word tile (``HAS TEXT``).
        The thing a destroyed entity leaves takes over its id, so an entity
        count never grows and undo is the journal's as for any change.
        """
        old_word, old = self.kinds[ident], self.noun[ident]
        self.journal.append((ident, self.pos[ident], old, self.facing[ident], old_word))
        insort(self.cells[target], ident)
        if not word:
            insort(self.by_noun.setdefault(noun, []), ident)
        self.pos[ident] = target
        self.noun[ident] = noun
        self.kinds[ident] = word
        if word != old_word or (word and noun != old):
            self.reroster()
        elif word:
            self.words_dirty = True

    def revert(self, entries: list[JournalEntry]) -> None:
        """Undo ``entries`` newest first, kinds included; a changed roster gets its parser."""
        pos, noun, kinds, cells, by_noun = self.pos, self.noun, self.kinds, self.cells, self.by_noun
        roster_changed = False
        for ident, old_pos, old_noun, old_facing, old_word in reversed(entries):
            current, word = pos[ident], kinds[ident]
            if current != GONE:
                cells[current].remove(ident)
                if not word:
                    by_noun[noun[ident]].remove(ident)
            if old_pos != GONE:
                insort(cells[old_pos], ident)
                if not old_word:
                    insort(by_noun.setdefault(old_noun, []), ident)
            if word != old_word or (word and old_noun != noun[ident]):
                roster_changed = True
            elif word and current != old_pos:
                self.words_dirty = True
            pos[ident] = old_pos
            noun[ident] = old_noun
            kinds[ident] = old_word
            self.facing[ident] = old_facing
        if roster_changed:
            self.reroster()


def new_board(level: Level, parser: RuleParser | None = None) -> Board:
    """The board for ``level``: a ``Board1`` for a ``vocabulary-1`` level, else the core one."""
    if level.vocabulary:
        return Board1(level, parser)
    return Board(level, parser)
