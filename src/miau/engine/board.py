"""The mutable board a turn works on, with a journal that makes every change undoable.

Every change to an entity first records the entity's previous position,
noun, facing and kind in the journal, then mutates. Reverting the journal
restores the exact previous state; the game's undo history and the solver's
search both rest on this one mechanism.

Positions are cell indexes ``y * width + x``; a destroyed entity has
position ``GONE``. Per-cell occupancy and a per-noun index are kept up to
date as things change, so no phase of a turn has to scan the whole board.

What an entity *is* at a moment (its properties) is a ``Reading`` of the
board under the active rule table (``Board.read``). A core table, or any
table without conditions, gives properties by kind and noun, so a reading is
a table lookup. A table with conditions (``NEAR``, ``ON``, ``FACING``,
``LONELY``) is read entity by entity; such a reading is kept and handed out
again until the rule table changes or the journal grows (the board changed),
so a phase that finds the board as the last one left it costs nothing.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.rules import (
    NO_PROPERTIES,
    Rule,
    RuleParser,
    RuleSet,
    parser_for_level,
    subject_matches,
    term_matches,
)
from miau.engine.vocabulary import (
    ALL,
    EMPTY,
    FACING,
    FLOAT,
    LONELY,
    NEAR,
    ON,
    TEXT,
    VECTOR_OF_FACING,
)

GONE: Final = -1

JournalEntry = tuple[int, int, str, int, bool]
"""``(id, previous position, previous noun, previous facing, previously a word)``.

A word's "noun" is its text. Only vocabulary-1 rules (``IS TEXT``, ``HAS``)
ever change an entity's kind; otherwise the journal repeats the level's.
"""


@dataclass(slots=True, init=False)
class Checkpoint:
    """The board's scalars at one moment; with a journal it takes the board back there.

    Treat it as read-only. One is made every turn, so it is neither a frozen
    dataclass nor a named tuple: a slotted class with a written ``__init__``
    builds faster than either when interpreted, and the compiled build
    compiles that ``__init__`` (a named tuple's ``__new__`` and a generated
    ``__init__`` run interpreted there).
    """

    move_count: int
    won: bool
    control_lost: bool
    phases: tuple[int, ...]
    rules: RuleSet

    def __init__(
        self,
        move_count: int,
        won: bool,
        control_lost: bool,
        phases: tuple[int, ...],
        rules: RuleSet,
    ) -> None:
        """The scalars, as ``Board.checkpoint`` takes them."""
        self.move_count = move_count
        self.won = won
        self.control_lost = control_lost
        self.phases = phases
        self.rules = rules

    def __reduce__(self) -> tuple[type[Checkpoint], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


class Reading:
    """Every entity's properties at one moment: the rules applied to the board.

    ``props(ident)`` gives an entity's properties; ``floats`` (None when no
    rule gives FLOAT) says which entities are on the FLOAT layer; the rest
    are queries by property and by cell. Under a table without conditions or
    FLOAT the board is its own reading (properties follow each entity's kind
    and noun as they are when asked, so nothing is built per phase); under
    another table it is a ``KeptReading``.

    A base class rather than a protocol: the compiled build calls a method
    of a class hierarchy it compiled directly, and a protocol's only by name.
    """

    __slots__ = ("floats", "rules")

    rules: RuleSet
    """The rule table read."""
    floats: list[bool] | None
    """Which entities float (None: no layers)."""

    def props(self, ident: int) -> frozenset[str]:
        """The properties of entity ``ident``."""
        raise NotImplementedError

    def holders(self, prop: str) -> list[int]:
        """Surviving entities with ``prop``, in id order (a list the caller must not change)."""
        raise NotImplementedError

    def any_holder(self, prop: str) -> bool:
        """Whether a surviving entity has ``prop``."""
        raise NotImplementedError

    def cells_holding(self, prop: str) -> list[int]:
        """Row-major list of the cells that hold an entity with ``prop``."""
        raise NotImplementedError

    def layer(self, cell: int, ident: int) -> list[int]:
        """The entities in ``cell`` on ``ident``'s layer (FLOAT or not), in id order."""
        raise NotImplementedError

    def layers(self, cell: int) -> list[list[int]]:
        """The entities of ``cell`` split into the ground layer and the FLOAT layer."""
        raise NotImplementedError

    def same_layer(self, one: int, other: int) -> bool:
        """Whether two entities are on the same layer (FLOAT or not)."""
        raise NotImplementedError


class Board(Reading):
    """The current entities of one level, their indexes, and the active rules.

    An entity may change kind (vocabulary-1: ``X IS TEXT`` makes an object
    the word of its noun, ``TEXT IS X`` a word an object). The set of words
    (the *roster*: their ids and texts) then changes, so the board keeps its
    own ``word_ids`` and one parser per roster (a parser of other words
    caches other arrangements). Until a kind changes, ``is_word`` is the
    level's own tuple and nothing of this runs.
    """

    __slots__ = (
        "_known",
        "_known_census",
        "_known_rules",
        "_parsers",
        "_reading",
        "by_noun",
        "cells",
        "census",
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
        "width",
        "won",
        "word_ids",
        "words_dirty",
    )

    PARSER_LIMIT: Final = 1 << 12
    """At most this many rosters' parsers are remembered per board (then forgotten at once)."""

    def __init__(self, level: Level, parser: RuleParser | None = None) -> None:
        """Set up ``level`` as it starts, before the start-of-level transformations."""
        self.level = level
        self.width = level.width
        self.is_word: Sequence[bool] = level.is_word
        self.word_ids: tuple[int, ...] = level.word_ids
        self.parser = parser or parser_for_level(level)
        self._parsers: dict[tuple[tuple[int, ...], tuple[str, ...]], RuleParser] | None = None
        self._reading: KeptReading | None = None
        # As a reading (a table without conditions or FLOAT): no layers, and each
        # property's holders kept under one rule table and census.
        self.floats = None
        self._known: dict[str, list[int]] = {}
        self._known_rules: RuleSet | None = None
        self._known_census = -1
        self.pos: list[int] = list(level.start_positions)
        self.noun: list[str] = list(level.texts)
        self.facing: list[int] = list(level.start_facings)
        self.phases: list[int] = [a.phase for a in level.automata]
        self.move_count = 0
        self.won = False
        self.control_lost = False
        self.journal: list[JournalEntry] = []
        # Counts changes to who is on the board as what (not where): a live reading keeps
        # each property's holders until it moves on.
        self.census = 0
        self.cells: list[list[int]] = []
        self.by_noun: dict[str, list[int]] = {}
        self.rebuild_indexes()
        self.rules = self.parser.parse(self.word_positions())
        self.words_dirty = False

    def rebuild_indexes(self) -> None:
        """Recompute occupancy and the noun index from ``pos``, ``noun`` and kinds."""
        cells: list[list[int]] = [[] for _ in range(self.width * self.level.height)]
        by_noun: dict[str, list[int]] = {}
        for ident, position in enumerate(self.pos):
            if position != GONE:
                cells[position].append(ident)
                if not self.is_word[ident]:
                    by_noun.setdefault(self.noun[ident], []).append(ident)
        self.cells = cells
        self.by_noun = by_noun
        self._reading = None
        self.census += 1

    def word_positions(self) -> tuple[int, ...]:
        """Where every word of the roster is (``GONE`` for destroyed ones): the rule cache key."""
        pos = self.pos
        return tuple([pos[i] for i in self.word_ids])

    def refresh_rules(self) -> None:
        """Reparse the rules if a word moved or disappeared since the last parse."""
        if self.words_dirty:
            self.rules = self.parser.parse(self.word_positions())
            self.words_dirty = False

    def read(self) -> Reading:
        """Every entity's properties now (see ``Reading``); the last reading if still exact."""
        if self.rules.live:
            return self
        reading = self._reading
        if (
            reading is not None
            and reading.rules is self.rules
            and reading.journal is self.journal
            and reading.length == len(self.journal)
        ):
            return reading
        reading = self._reading = KeptReading(self)
        return reading

    def props(self, ident: int) -> frozenset[str]:
        """The properties entity ``ident`` has under the active rules."""
        rules = self.rules
        if not rules.live:
            return self.read().props(ident)
        if self.is_word[ident]:
            return rules.word_props
        noun = self.noun[ident]
        found = rules.known_props.get(noun)
        return found if found is not None else rules.object_props(noun)

    def holders(self, prop: str) -> list[int]:
        """Surviving entities with ``prop``, in id order (a list the caller must not change).

        Under a table without conditions or FLOAT they are kept until the
        table or the census changes: a move changes nobody's properties.
        """
        rules = self.rules
        if not rules.live:
            return self.read().holders(prop)
        if self._known_rules is not rules or self._known_census != self.census:
            self._known_rules, self._known_census = rules, self.census
            self._known = {}
        found = self._known.get(prop)
        if found is None:
            found = self._known[prop] = self._find_holders(rules, prop)
        return found

    def _find_holders(self, rules: RuleSet, prop: str) -> list[int]:
        by_noun = self.by_noun
        if rules.simple_props and prop not in rules.word_props:
            nouns = rules.holders.get(prop)
            if not nouns:
                return []
            if len(nouns) == 1:
                return list(by_noun.get(nouns[0], ()))
            found: list[int] = []
            for noun in nouns:
                found.extend(by_noun.get(noun, ()))
            found.sort()
            return found
        object_props = rules.object_props
        found = []
        for noun, ids in by_noun.items():
            if prop in object_props(noun):
                found.extend(ids)
        if prop in rules.word_props:
            pos = self.pos
            found.extend(i for i in self.word_ids if pos[i] != GONE)
        found.sort()
        return found

    def any_holder(self, prop: str) -> bool:
        """Whether a surviving entity has ``prop``."""
        rules = self.rules
        if prop not in rules.givable:
            return False
        if not rules.live:
            return self.read().any_holder(prop)
        if rules.simple_props and prop not in rules.word_props:
            # A plain loop over the (one or two) nouns: neither a generator, which costs the
            # interpreter a frame, nor map() over a bound method, which the compiled build
            # calls as a Python object.
            by_noun = self.by_noun
            for noun in rules.holders[prop]:  # noqa: SIM110
                if by_noun.get(noun):
                    return True
            return False
        return bool(self.holders(prop))

    def cells_holding(self, prop: str) -> list[int]:
        """Row-major list of the cells that hold an entity with ``prop``."""
        pos = self.pos
        return sorted({pos[i] for i in self.holders(prop)})

    def layer(self, cell: int, ident: int) -> list[int]:
        """The entities in ``cell`` on ``ident``'s layer: all of them, without FLOAT."""
        if not self.rules.live:
            return self.read().layer(cell, ident)
        return self.cells[cell]

    def layers(self, cell: int) -> list[list[int]]:
        """The entities of ``cell`` by layer: one layer, without FLOAT."""
        if not self.rules.live:
            return self.read().layers(cell)
        occupants = self.cells[cell]
        return [occupants] if occupants else []

    def same_layer(self, one: int, other: int) -> bool:
        """Whether two entities are on the same layer (FLOAT or not)."""
        return self.rules.live or self.read().same_layer(one, other)

    def move(self, ident: int, target: int, facing: int) -> None:
        """Move entity ``ident`` to cell ``target``, facing ``facing``."""
        source = self.pos[ident]
        word = self.is_word[ident]
        self.journal.append((ident, source, self.noun[ident], self.facing[ident], word))
        self.cells[source].remove(ident)
        entering = self.cells[target]
        if entering:
            insort(entering, ident)
        else:
            entering.append(ident)
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
        self.census += 1

    def destroy(self, ident: int) -> None:
        """Remove entity ``ident`` from the board."""
        position = self.pos[ident]
        word = self.is_word[ident]
        self.journal.append((ident, position, self.noun[ident], self.facing[ident], word))
        self.cells[position].remove(ident)
        self.pos[ident] = GONE
        self.census += 1
        if word:
            self.words_dirty = True
        else:
            self.by_noun[self.noun[ident]].remove(ident)

    def turn(self, ident: int, facing: int) -> None:
        """Turn entity ``ident`` to ``facing`` where it stands (MOVE turning back)."""
        entry = (ident, self.pos[ident], self.noun[ident], self.facing[ident], self.is_word[ident])
        self.journal.append(entry)
        self.facing[ident] = facing

    def _kinds(self) -> list[bool]:
        """The board's own list of kinds, made from the level's on the first change."""
        kinds = self.is_word
        if not isinstance(kinds, list):
            kinds = self.is_word = list(kinds)
        return kinds

    def _roster(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        ids = tuple([i for i, word in enumerate(self.is_word) if word])
        noun = self.noun
        return ids, tuple([noun[i] for i in ids])

    def reroster(self) -> None:
        """Take the words as they are now as the roster, with its parser; rules need a reparse."""
        key = self._roster()
        parsers = self._parsers
        if parsers is None:
            level = self.level
            start = (level.word_ids, tuple([level.texts[i] for i in level.word_ids]))
            parsers = self._parsers = {start: self.parser}
        parser = parsers.get(key)
        if parser is None:
            if len(parsers) >= self.PARSER_LIMIT:
                parsers.clear()
            parser = parsers[key] = self.parser.for_words(self.noun, key[0])
        self.word_ids = key[0]
        self.parser = parser
        self.words_dirty = True

    def restore_kinds(self, kinds: Sequence[bool]) -> None:
        """Take ``kinds`` as every entity's kind (a restored state), with the roster they make.

        Call it after setting ``noun`` (a word's text names the roster) and
        before ``rebuild_indexes``. Only a vocabulary-1 level can have another
        roster than its start (a kind or a word's text changed).
        """
        if tuple(kinds) != tuple(self.is_word):
            self.is_word = list(kinds)
        if self.level.vocabulary:
            self.reroster()

    def set_kind(self, ident: int, word: bool, noun: str) -> None:
        """Turn entity ``ident`` where it stands into a word (``noun`` its text) or an object."""
        kinds = self._kinds()
        old_word, old = kinds[ident], self.noun[ident]
        self.journal.append((ident, self.pos[ident], old, self.facing[ident], old_word))
        if not old_word:
            self.by_noun[old].remove(ident)
        if not word:
            insort(self.by_noun.setdefault(noun, []), ident)
        kinds[ident] = word
        self.noun[ident] = noun
        self.census += 1
        self.reroster()

    def revive(self, ident: int, target: int, noun: str, word: bool) -> None:
        """Bring destroyed entity ``ident`` back at cell ``target`` as ``noun`` (HAS).

        ``word`` says whether it comes back as a word tile (``HAS TEXT``).
        The thing a destroyed entity leaves takes over its id, so an entity
        count never grows and undo is the journal's as for any change.
        """
        old_word, old = self.is_word[ident], self.noun[ident]
        self.journal.append((ident, self.pos[ident], old, self.facing[ident], old_word))
        insort(self.cells[target], ident)
        if not word:
            insort(self.by_noun.setdefault(noun, []), ident)
        self.pos[ident] = target
        self.noun[ident] = noun
        self.census += 1
        if word != old_word:
            self._kinds()[ident] = word
        if word != old_word or (word and noun != old):
            self.reroster()
        elif word:
            self.words_dirty = True

    def create(self, ident: int, target: int, noun: str) -> None:
        """Put reserved entity ``ident`` (off the board) in cell ``target`` as a new ``noun``.

        ``EMPTY IS X`` makes things this way. A new thing faces right, as
        every thing does until it first moves, whatever the id held before.
        """
        self.revive(ident, target, noun, False)
        self.facing[ident] = 0

    def revert(self, entries: list[JournalEntry]) -> None:
        """Undo ``entries`` (taken from the journal) newest first, kinds included.

        A changed roster (a kind or a word's text changed back) gets its parser.
        """
        pos, noun, facing, kinds = self.pos, self.noun, self.facing, self.is_word
        cells, by_noun = self.cells, self.by_noun
        roster_changed = False
        recounted = False
        for ident, old_pos, old_noun, old_facing, old_word in reversed(entries):
            current, word = pos[ident], kinds[ident]
            if current != GONE and old_pos != GONE and word == old_word and old_noun == noun[ident]:
                # A step or a turn taken back: the same thing, so the noun index and
                # every property's holders stay as they are.
                if current != old_pos:
                    cells[current].remove(ident)
                    insort(cells[old_pos], ident)
                    pos[ident] = old_pos
                    if word:
                        self.words_dirty = True
                facing[ident] = old_facing
                continue
            recounted = True
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
                if word != old_word:
                    kinds = self._kinds()
                    kinds[ident] = old_word
            elif word and current != old_pos:
                self.words_dirty = True
            pos[ident] = old_pos
            noun[ident] = old_noun
            facing[ident] = old_facing
        self._reading = None
        if recounted:
            self.census += 1
        if roster_changed:
            self.reroster()

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
        """Hand over the changes journalled so far and start a fresh journal.

        A reading of the board as it stands stays valid: it moves to the new journal.
        """
        entries = self.journal
        self.journal = []
        reading = self._reading
        if reading is not None and reading.journal is entries and reading.length == len(entries):
            reading.journal, reading.length = self.journal, 0
        return entries


class KeptReading(Reading):
    """A reading computed once, for a table with conditions or FLOAT, kept while exact.

    Conditions are evaluated on the board as it stands. FLOAT is settled
    first (its own conditions reading ``ON`` across layers), then every other
    property with ``ON`` limited to the thing's own layer. A NOT takes a
    property whatever gives it. ``Board.read`` hands the same reading out
    again while the rule table is the same and the journal has not grown;
    each property's holders are listed once, when first asked.
    """

    __slots__ = ("_holders", "_list", "board", "journal", "length")

    def __init__(self, board: Board) -> None:
        """Read the properties of every surviving entity of ``board`` now."""
        self.board = board
        self.floats = None
        self.rules = board.rules
        self.journal = board.journal
        self.length = len(board.journal)
        self._holders: dict[str, list[int]] = {}
        self._list = _read_every_entity(board, self)

    def props(self, ident: int) -> frozenset[str]:
        """The properties of entity ``ident`` (those of the board when the reading was made)."""
        return self._list[ident]

    def holders(self, prop: str) -> list[int]:
        """Surviving entities with ``prop``, in id order (found on the board when first asked)."""
        found = self._holders.get(prop)
        if found is None:
            props, pos = self._list, self.board.pos
            found = [i for i in range(len(props)) if prop in props[i] and pos[i] != GONE]
            self._holders[prop] = found
        return found

    def any_holder(self, prop: str) -> bool:
        """Whether a surviving entity has ``prop``."""
        return prop in self.rules.givable and bool(self.holders(prop))

    def cells_holding(self, prop: str) -> list[int]:
        """Row-major list of the cells that hold an entity with ``prop``."""
        pos = self.board.pos
        return sorted({pos[i] for i in self.holders(prop)})

    def layer(self, cell: int, ident: int) -> list[int]:
        """The entities in ``cell`` on ``ident``'s layer (FLOAT or not), in id order."""
        floats = self.floats
        occupants = self.board.cells[cell]
        if floats is None:
            return occupants
        mine = floats[ident]
        return [o for o in occupants if floats[o] == mine]

    def layers(self, cell: int) -> list[list[int]]:
        """The entities of ``cell`` split into the ground layer and the FLOAT layer."""
        occupants = self.board.cells[cell]
        floats = self.floats
        if floats is None:
            return [occupants] if occupants else []
        ground = [i for i in occupants if not floats[i]]
        floating = [i for i in occupants if floats[i]]
        return [layer for layer in (ground, floating) if layer]

    def same_layer(self, one: int, other: int) -> bool:
        """Whether two entities are on the same layer (FLOAT or not)."""
        floats = self.floats
        return floats is None or floats[one] == floats[other]


def _candidates(board: Board, rule: Rule) -> Sequence[int]:
    """The surviving entities ``rule``'s subject may mean (a superset for NOT and ALL)."""
    if not rule.subject_not and rule.subject not in (TEXT, ALL):
        return board.by_noun.get(rule.subject, ())
    pos = board.pos
    if rule.subject == TEXT and not rule.subject_not:
        return [i for i in board.word_ids if pos[i] != GONE]
    return [i for i in range(len(pos)) if pos[i] != GONE]


def _read_every_entity(board: Board, reading: KeptReading) -> list[frozenset[str]]:
    """Every entity's properties (see ``KeptReading``); sets ``reading.floats``.

    Entities no conditional rule can mean keep their kind's properties; only
    the others are evaluated.
    """
    rules = board.rules
    pos, noun, is_word = board.pos, board.noun, board.is_word
    count = len(pos)
    object_props, word_props = rules.object_props, rules.word_props
    props: list[frozenset[str]] = [NO_PROPERTIES] * count
    # By noun, not entity by entity: one lookup per noun on the board.
    for name, ids in board.by_noun.items():
        given = object_props(name)
        if given:
            for ident in ids:
                props[ident] = given
    for ident in board.word_ids:
        if pos[ident] != GONE:
            props[ident] = word_props
    touched: dict[int, tuple[set[str], set[str]]] = {}
    floats: list[bool] | None = None
    if rules.floating:
        floats = [FLOAT in p for p in props]
        for rule in rules.conditional:
            if rule.predicate != FLOAT:
                continue
            for ident in _candidates(board, rule):
                if applies(board, rule, ident, None):
                    touched.setdefault(ident, (set(), set()))[rule.negated].add(FLOAT)
        for ident, (more, less) in touched.items():
            given, taken = rules.kind_given_taken(is_word[ident], noun[ident])
            floats[ident] = (FLOAT in given or FLOAT in more) and not (
                FLOAT in taken or FLOAT in less
            )
    reading.floats = floats
    for rule in rules.conditional:
        if rule.predicate == FLOAT:
            continue
        for ident in _candidates(board, rule):
            if applies(board, rule, ident, floats):
                touched.setdefault(ident, (set(), set()))[rule.negated].add(rule.predicate)
    for ident, (more, less) in touched.items():
        given, taken = rules.kind_given_taken(is_word[ident], noun[ident])
        held = set(given | more) - taken - less
        held.discard(FLOAT)
        if floats is not None and floats[ident]:
            held.add(FLOAT)
        props[ident] = frozenset(held)
    return props


def applies(board: Board, rule: Rule, ident: int, floats: list[bool] | None) -> bool:
    """Whether ``rule`` applies to entity ``ident`` now: subject and every condition."""
    if not subject_matches(rule, board.is_word[ident], board.noun[ident]):
        return False
    return all(
        _condition_holds(board, c.word, c.negated, c.args, ident, floats) for c in rule.conditions
    )


def _condition_holds(
    board: Board,
    word: str,
    negated: bool,
    args: tuple[tuple[bool, str], ...],
    ident: int,
    floats: list[bool] | None,
) -> bool:
    """One condition as a query on the board (``floats`` None: ON ignores layers)."""
    cell = board.pos[ident]
    cells = board.cells
    if word == LONELY:
        return (len(cells[cell]) == 1) != negated
    width, height = board.width, board.level.height
    y, x = divmod(cell, width)
    others: list[int]
    if word == ON:
        others = [o for o in cells[cell] if o != ident]
        if floats is not None:
            others = [o for o in others if floats[o] == floats[ident]]
    elif word == FACING:
        dx, dy = VECTOR_OF_FACING[board.facing[ident]]
        fx, fy = x + dx, y + dy
        others = cells[fy * width + fx] if 0 <= fx < width and 0 <= fy < height else []
    else:  # NEAR: the eight neighbours and the thing's own cell
        others = []
        for ny in range(max(0, y - 1), min(height, y + 2)):
            for nx in range(max(0, x - 1), min(width, x + 2)):
                others.extend(o for o in cells[ny * width + nx] if o != ident)
    is_word, noun = board.is_word, board.noun
    if (False, EMPTY) in args and not _empty_in_reach(board, word, ident):
        return negated
    held = all(
        (arg == EMPTY and not neg)
        or any(term_matches(neg, arg, is_word[o], noun[o]) for o in others)
        for neg, arg in args
    )
    return held != negated


def _empty_in_reach(board: Board, word: str, ident: int) -> bool:
    """Whether a condition's ``EMPTY`` holds for ``ident``: an empty cell where it looks.

    ``ON EMPTY`` never holds (the thing's own cell holds the thing); ``NEAR
    EMPTY`` holds when one of the eight cells around is empty; ``FACING
    EMPTY`` when the cell in front is on the board and empty.
    """
    if word == ON:
        return False
    cells, width, height = board.cells, board.width, board.level.height
    y, x = divmod(board.pos[ident], width)
    if word == FACING:
        dx, dy = VECTOR_OF_FACING[board.facing[ident]]
        fx, fy = x + dx, y + dy
        return 0 <= fx < width and 0 <= fy < height and not cells[fy * width + fx]
    return any(
        not cells[ny * width + nx]
        for ny in range(max(0, y - 1), min(height, y + 2))
        for nx in range(max(0, x - 1), min(width, x + 2))
    )


def empty_cell_applies(board: Board, rule: Rule, cell: int) -> bool:
    """Whether ``rule`` (subject ``EMPTY``) applies to the empty ``cell``: every condition.

    An empty cell is alone (``LONELY`` holds, ``NOT LONELY`` not), has
    nothing on it (``ON`` never holds) and faces nowhere (``FACING`` never
    holds); ``NEAR`` looks at the eight cells around.
    """
    for condition in rule.conditions:
        if condition.word == LONELY:
            if condition.negated:
                return False
            continue
        if condition.word != NEAR:
            return False
        width, height = board.width, board.level.height
        y, x = divmod(cell, width)
        around = [
            ny * width + nx
            for ny in range(max(0, y - 1), min(height, y + 2))
            for nx in range(max(0, x - 1), min(width, x + 2))
            if ny * width + nx != cell
        ]
        cells, is_word, noun = board.cells, board.is_word, board.noun
        for negated, arg in condition.args:
            if arg == EMPTY and not negated:
                held = any(not cells[c] for c in around)
            else:
                held = any(
                    term_matches(negated, arg, is_word[o], noun[o])
                    for c in around
                    for o in cells[c]
                )
            if not held:
                return False
    return True
