"""Settled states as values: what a caller, a test or the wire sees.

A ``State`` is frozen when taken; later turns do not change it. Its JSON form
follows the engine contract ("Events and state on the wire"), with one
change made for the wire: history is a count (``historyLength``) unless it
is asked for, and ``Game.restore`` reads either form back
(``docs/wire-format.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from miau.engine.board import GONE, Checkpoint, JournalEntry
from miau.engine.entity_fields import check_entity, problem_text
from miau.engine.events import automaton_active
from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.rules import Rule, RuleSet, Sentence
from miau.engine.vocabulary import FACINGS, TEXT, TIER1_WORDS


@dataclass(slots=True, init=False)
class TurnRecord:
    """What undo needs for one accepted turn: its journal and the board before it.

    Records form a persistent list through ``previous``, newest first, so a
    ``State`` can hold the whole history by one reference, however long it is.
    Treat it as read-only. One is built every turn: a slotted class with a
    written ``__init__``, like ``Checkpoint`` (which says why).
    """

    changes: list[JournalEntry]
    before: Checkpoint
    letter: str | None
    """The move letter that made this turn, or None for a turn read from a restored history."""
    previous: TurnRecord | None
    depth: int
    """How many turns the history holds up to and including this one."""

    def __init__(
        self,
        changes: list[JournalEntry],
        before: Checkpoint,
        letter: str | None,
        previous: TurnRecord | None,
        depth: int,
    ) -> None:
        """One turn's record, on top of ``previous``."""
        self.changes = changes
        self.before = before
        self.letter = letter
        self.previous = previous
        self.depth = depth

    def __reduce__(self) -> tuple[type[TurnRecord], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def history_records(last: TurnRecord | None) -> list[TurnRecord]:
    """The records of a history, oldest first."""
    records: list[TurnRecord] = []
    while last is not None:
        records.append(last)
        last = last.previous
    records.reverse()
    return records


class Snapshot(NamedTuple):
    """Everything that can change during play, at one moment."""

    positions: tuple[int, ...]
    nouns: tuple[str, ...]
    """An object's noun or a word's text."""
    facings: tuple[int, ...]
    kinds: tuple[bool, ...]
    """Whether each entity is a word tile (fixed unless ``vocabulary-1`` changes it)."""
    phases: tuple[int, ...]
    move_count: int
    won: bool
    control_lost: bool

    def to_json(self, level: Level) -> dict[str, Any]:
        """The snapshot as a history entry: entities, counters and automata phases."""
        return {
            "entities": entities_json(self.positions, self.nouns, self.facings, self.kinds, level),
            "moveCount": self.move_count,
            "won": self.won,
            "controlLost": self.control_lost,
            "automata": [
                {"id": record.id, "phase": phase}
                for record, phase in zip(level.automata, self.phases, strict=True)
            ],
        }


@dataclass(frozen=True, slots=True)
class State:
    """A settled state: the board, its derived rules, and the history behind it.

    Taking a state costs the same after two turns as after two thousand: the
    history is kept as a reference to the newest turn record, and snapshots
    are rebuilt from the journals only when ``history`` is asked for.
    """

    level: Level
    now: Snapshot
    rules_table: RuleSet
    last_turn: TurnRecord | None

    @property
    def history_length(self) -> int:
        """How many turns can be undone."""
        return 0 if self.last_turn is None else self.last_turn.depth

    @property
    def history(self) -> tuple[Snapshot, ...]:
        """The snapshot before each turn that can be undone, oldest first."""
        return rewind(self.now, history_records(self.last_turn))

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The active rule table, in table order."""
        return self.rules_table.rules

    @property
    def sentences(self) -> tuple[Sentence, ...]:
        """Every physical maximal sentence span, in span order."""
        return self.rules_table.sentences

    @property
    def move_count(self) -> int:
        """Accepted turns since the level started."""
        return self.now.move_count

    @property
    def won(self) -> bool:
        """Whether the level is won."""
        return self.now.won

    @property
    def control_lost(self) -> bool:
        """Whether nothing surviving is YOU."""
        return self.now.control_lost

    def position(self, ident: int) -> tuple[int, int] | None:
        """Where entity ``ident`` is, or None when it has been destroyed."""
        cell = self.now.positions[ident]
        return None if cell == GONE else self.level.xy(cell)

    def noun(self, ident: int) -> str:
        """An object's current noun, or a word's text."""
        return self.now.nouns[ident]

    def is_word(self, ident: int) -> bool:
        """Whether entity ``ident`` is a word tile now."""
        return self.now.kinds[ident]

    def automata_active(self) -> list[bool]:
        """For each automaton record (in run order), whether a rule activates it now."""
        return [automaton_active(record, self.rules_table) for record in self.level.automata]

    def to_json(self, *, history: bool = False) -> dict[str, Any]:
        """The settled state as the contract's JSON record.

        The wire form carries ``historyLength`` only; with ``history=True``
        it also carries ``history``, the snapshot before every turn that can
        be undone (what ``Game.restore`` needs to keep undo working).
        """
        level, now = self.level, self.now
        out = {
            "width": level.width,
            "height": level.height,
            "entities": entities_json(now.positions, now.nouns, now.facings, now.kinds, level),
            "rules": self.rules_table.to_json(),
            "sentences": [sentence.to_json() for sentence in self.sentences],
            "moveCount": now.move_count,
            "won": now.won,
            "controlLost": now.control_lost,
            "automata": automata_json(level, now.phases, self.rules_table),
            "historyLength": self.history_length,
        }
        if history:
            out["history"] = [snapshot.to_json(level) for snapshot in self.history]
        return out

    def __reduce__(self) -> tuple[type[State], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def automata_json(level: Level, phases: Sequence[int], rules: RuleSet) -> list[dict[str, Any]]:
    """Every automaton record as ``{id, phase, active}``, in run order."""
    return [
        {"id": record.id, "phase": phase, "active": automaton_active(record, rules)}
        for record, phase in zip(level.automata, phases, strict=True)
    ]


def entities_json(
    positions: tuple[int, ...],
    nouns: tuple[str, ...],
    facings: tuple[int, ...],
    kinds: tuple[bool, ...],
    level: Level,
) -> list[dict[str, Any]]:
    """The surviving entities as ``{id, kind, noun | text, x, y, facing}``, in id order."""
    out: list[dict[str, Any]] = []
    for ident, cell in enumerate(positions):
        if cell == GONE:
            continue
        x, y = level.xy(cell)
        if kinds[ident]:
            out.append({"id": ident, "kind": "word", "text": nouns[ident]})
        else:
            out.append({"id": ident, "kind": "object", "noun": nouns[ident]})
        out[-1].update(x=x, y=y, facing=FACINGS[facings[ident]])
    return out


def rewind(now: Snapshot, records: list[TurnRecord]) -> tuple[Snapshot, ...]:
    """The snapshots before each turn in ``records`` (oldest first), rebuilt from ``now``."""
    positions, nouns, facings = list(now.positions), list(now.nouns), list(now.facings)
    kinds = list(now.kinds)
    snapshots: list[Snapshot] = []
    for record in reversed(records):
        for ident, old_pos, old_noun, old_facing, old_word in reversed(record.changes):
            positions[ident] = old_pos
            nouns[ident] = old_noun
            facings[ident] = old_facing
            kinds[ident] = old_word
        before = record.before
        snapshots.append(
            Snapshot(
                tuple(positions),
                tuple(nouns),
                tuple(facings),
                tuple(kinds),
                before.phases,
                before.move_count,
                before.won,
                before.control_lost,
            )
        )
    snapshots.reverse()
    return tuple(snapshots)


class SnapshotError(ValueError):
    """A state or history entry that does not fit the level it is restored into."""


def snapshot_from_json(level: Level, data: object, place: str = "state") -> Snapshot:
    """Read a state or history entry back, checking it against ``level``.

    :raises SnapshotError: naming the first field that does not fit.
    """
    if not isinstance(data, dict):
        raise SnapshotError(f"{place} must be an object")
    entities = data.get("entities")
    if not isinstance(entities, list):
        raise SnapshotError(f"{place}.entities must be a list")
    count = level.entity_count
    positions = [GONE] * count
    nouns = list(level.texts)
    facings = [0] * count
    kinds = list(level.is_word)
    for index, entity in enumerate(entities):
        where = f"{place}.entities[{index}]"
        if not isinstance(entity, dict):
            raise SnapshotError(f"{where} must be an object")
        ident = entity.get("id")
        if type(ident) is not int or not 0 <= ident < count or positions[ident] != GONE:
            raise SnapshotError(f"{where}.id must be a distinct entity id of this level")
        fields = check_entity(entity, level.width, level.height)
        if isinstance(fields, list):
            raise SnapshotError(problem_text(where, fields[0]))
        if level.vocabulary:
            nouns[ident] = _tier1_token(level, ident, fields.is_word, fields.token, where)
            kinds[ident] = fields.is_word
        elif level.is_word[ident]:
            if not fields.is_word or fields.token != level.texts[ident]:
                raise SnapshotError(f"{where} must be the word {level.texts[ident]}")
        else:
            if fields.is_word:
                raise SnapshotError(f"{where} must be an object with a noun")
            if fields.token in level.properties:
                raise SnapshotError(f"{where}.noun {fields.token!r} is not a noun")
            nouns[ident] = fields.token
        positions[ident] = fields.y * level.width + fields.x
        facings[ident] = fields.facing_index
    move_count = data.get("moveCount")
    if type(move_count) is not int or move_count < 0:
        raise SnapshotError(f"{place}.moveCount must be a non-negative integer")
    won = data.get("won")
    if type(won) is not bool:
        raise SnapshotError(f"{place}.won must be true or false")
    return Snapshot(
        tuple(positions),
        tuple(nouns),
        tuple(facings),
        tuple(kinds),
        _phases_from_json(level, data.get("automata", []), place),
        move_count,
        won,
        False,
    )


def _tier1_token(level: Level, ident: int, is_word: bool, token: str, where: str) -> str:
    """An entity's noun or text in a ``vocabulary-1`` snapshot, where a kind may change.

    An object has a noun; a word has its own starting text or a noun (an
    object that became its word through ``IS TEXT`` or ``HAS TEXT``), or
    ``TEXT`` (what a word that ``HAS TEXT`` leaves).

    :raises SnapshotError: when the token cannot be that entity's.
    """
    if is_word and (token == TEXT or (level.is_word[ident] and token == level.texts[ident])):
        return token
    if token in level.properties or token in TIER1_WORDS:
        if is_word:
            raise SnapshotError(f"{where}.text {token!r} is not this word's text nor a noun")
        raise SnapshotError(f"{where}.noun {token!r} is not a noun")
    return token


def _phases_from_json(level: Level, data: object, place: str) -> tuple[int, ...]:
    if not isinstance(data, list) or len(data) != len(level.automata):
        raise SnapshotError(f"{place}.automata must list this level's {len(level.automata)}")
    phases: list[int] = []
    for record, entry in zip(level.automata, data, strict=True):
        if not isinstance(entry, dict) or entry.get("id") != record.id:
            raise SnapshotError(f"{place}.automata must list {record.id} in run order")
        phase = entry.get("phase")
        if type(phase) is not int or not 0 <= phase < len(record.pattern):
            raise SnapshotError(f"{place}.automata {record.id} phase is out of range")
        phases.append(phase)
    return tuple(phases)
