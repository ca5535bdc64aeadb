"""Settled turn events: what a step, undo, reset or restore changed.

Entries are kept as plain tuples while a turn runs (the turn is on the hot
path) and become the wire records of the engine contract in ``to_json``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from miau.engine.level import AutomatonDef, Level
from miau.engine.pickling import init_arguments
from miau.engine.rules import Rule, RuleSet
from miau.engine.vocabulary import FACINGS

Moved = tuple[int, int, int, int | None, int]
"""``(id, from cell, to cell, pushedBy, facing after)``."""
Blocked = tuple[int, tuple[int, int], int | None, str]
"""``(mover id, (dx, dy), blockerId, reason)``."""
Transformed = tuple[int, str, str, bool, bool]
"""``(id, from noun or text, to noun or text, was a word, is a word)``.

Only vocabulary-1 changes a kind (``X IS TEXT``, ``TEXT IS X``); the core
always logs two ``False``.
"""
Destroyed = tuple[int, str, int, str, bool]
"""``(id, noun or text, cell, cause, was a word)``."""
Restored = tuple[int, str, int, int, bool]
"""``(id, noun or text, cell, facing, is a word)``: an entity that comes back on undo, reset or restore."""
Spawned = tuple[int, str, int, bool]
"""``(id, noun or text, cell, is a word)``: what a destroyed entity leaves through ``HAS`` (vocabulary-1)."""

KINDS = ("object", "word")
"""The wire name of an entity's kind, indexed by whether it is a word."""


# ``init=False`` and a written ``__init__`` (here and in ``Event``): one of each is built every
# turn, and mypyc compiles a written ``__init__`` while the one ``dataclass`` generates runs
# interpreted, a Python call per construction in the compiled build. Same cost when interpreted.
@dataclass(slots=True, init=False)
class TurnLog:
    """The ordered entries one action produces, filled in resolution order."""

    moved: list[Moved] = field(default_factory=list)
    blocked: list[Blocked] = field(default_factory=list)
    transformed: list[Transformed] = field(default_factory=list)
    destroyed: list[Destroyed] = field(default_factory=list)
    restored: list[Restored] = field(default_factory=list)
    player_moves: int = 0
    """How many leading ``moved`` entries the player's own movement phase made."""
    spawned: list[Spawned] | None = None
    """``HAS`` spawns, in spawn order; None until a vocabulary-1 turn makes the list."""
    created: list[Spawned] | None = None
    """Things ``EMPTY IS X`` made, in the order made; None until a turn makes one."""

    def __init__(
        self,
        moved: list[Moved] | None = None,
        blocked: list[Blocked] | None = None,
        transformed: list[Transformed] | None = None,
        destroyed: list[Destroyed] | None = None,
        restored: list[Restored] | None = None,
        player_moves: int = 0,
        spawned: list[Spawned] | None = None,
        created: list[Spawned] | None = None,
    ) -> None:
        """An empty log, or one with the given entries (each list a new one when left out)."""
        self.moved = [] if moved is None else moved
        self.blocked = [] if blocked is None else blocked
        self.transformed = [] if transformed is None else transformed
        self.destroyed = [] if destroyed is None else destroyed
        self.restored = [] if restored is None else restored
        self.player_moves = player_moves
        self.spawned = spawned
        self.created = created

    def __reduce__(self) -> tuple[type[TurnLog], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: a compiled class needs it)."""
        return type(self), init_arguments(self)


@dataclass(slots=True, init=False)
class Event:
    """The settled record of one action (``kind`` is step, undo, reset or restore).

    The board's rule tables and automata phases from before and after the
    action are kept as they are; the deltas a client animates from (rules and
    sentences formed and broken, automata that changed) are worked out only
    when the event is serialised. Treat it as read-only; it is not frozen only
    because a frozen dataclass costs several microseconds more to build, and
    one is built for every action.
    """

    level: Level
    kind: str
    accepted: bool
    log: TurnLog
    rules_before: RuleSet
    rules_after: RuleSet
    phases_before: tuple[int, ...]
    phases_after: tuple[int, ...]
    control_lost: bool
    won: bool
    move_count: int
    history_length: int
    reason: str | None = None
    """Why a rejected action was rejected, in plain words; None when accepted."""

    def __init__(
        self,
        level: Level,
        kind: str,
        accepted: bool,
        log: TurnLog,
        rules_before: RuleSet,
        rules_after: RuleSet,
        phases_before: tuple[int, ...],
        phases_after: tuple[int, ...],
        control_lost: bool,
        won: bool,
        move_count: int,
        history_length: int,
        reason: str | None = None,
    ) -> None:
        """The record of one action; the fields as described above (written out: see ``TurnLog``)."""
        self.level = level
        self.kind = kind
        self.accepted = accepted
        self.log = log
        self.rules_before = rules_before
        self.rules_after = rules_after
        self.phases_before = phases_before
        self.phases_after = phases_after
        self.control_lost = control_lost
        self.won = won
        self.move_count = move_count
        self.history_length = history_length
        self.reason = reason

    def __reduce__(self) -> tuple[type[Event], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: a compiled class needs it)."""
        return type(self), init_arguments(self)

    @property
    def moved(self) -> list[Moved]:
        """Movement entries in resolution order."""
        return self.log.moved

    @property
    def player_moved(self) -> list[Moved]:
        """The movement entries of the player's own move (step 3), before any automaton's."""
        return self.log.moved[: self.log.player_moves]

    @property
    def destroyed(self) -> list[Destroyed]:
        """Destruction entries in contact order."""
        return self.log.destroyed

    @property
    def rules_added(self) -> tuple[Rule, ...]:
        """Rules in the table after the action and not before, in table order."""
        return rule_delta(self.rules_before, self.rules_after)[0]

    @property
    def rules_removed(self) -> tuple[Rule, ...]:
        """Rules in the table before the action and not after, in their old table order."""
        return rule_delta(self.rules_before, self.rules_after)[1]

    def to_json(self) -> dict[str, Any]:
        """The event as the contract's JSON record, with the deltas a client needs.

        Beyond the contract's keys: ``reason`` (why a rejected action was
        rejected), ``facing`` on ``moved`` and ``restored`` entries,
        ``sentencesFormed`` and ``sentencesBroken``, ``rules`` (the whole new
        table when it changed, else null), ``automata`` (the records whose
        phase or activity changed) and ``historyLength``.
        """
        level, log = self.level, self.log
        before, after = self.rules_before, self.rules_after
        if before is after:
            added: tuple[Rule, ...] = ()
            removed: tuple[Rule, ...] = ()
            formed: list[dict[str, Any]] = []
            broken: list[dict[str, Any]] = []
            table = None
        else:
            added, removed = rule_delta(before, after)
            formed, broken = sentence_delta(before, after)
            table = None if before.rules == after.rules else after.to_json()
        transformed: list[dict[str, Any]] = []
        if log.transformed and level.vocabulary:
            transformed = [
                {"id": i, "from": a, "to": b, "fromKind": KINDS[u], "toKind": KINDS[w]}
                for i, a, b, u, w in log.transformed
            ]
        elif log.transformed:
            transformed = [{"id": i, "from": a, "to": b} for i, a, b, _, _ in log.transformed]
        # Cells are y * width + x; the arithmetic is inlined because this runs
        # for every entry of every event a client is sent.
        width = level.width
        out = {
            "kind": self.kind,
            "accepted": self.accepted,
            "moved": [
                {
                    "id": i,
                    "from": [a % width, a // width],
                    "to": [b % width, b // width],
                    "pushedBy": p,
                    "facing": FACINGS[f],
                }
                for i, a, b, p, f in log.moved
            ],
            # An empty list is written as such: most entries of most events are empty,
            # and a comprehension costs a call even over nothing.
            "blocked": [
                {"id": i, "dir": list(d), "blockerId": b, "reason": r} for i, d, b, r in log.blocked
            ]
            if log.blocked
            else [],
            "rulesAdded": [rule.to_json() for rule in added] if added else [],
            "rulesRemoved": [rule.to_json() for rule in removed] if removed else [],
            "transformed": transformed,
            "destroyed": [
                {
                    "id": i,
                    "text" if w else "noun": n,
                    "at": [c % width, c // width],
                    "cause": cause,
                }
                for i, n, c, cause, w in log.destroyed
            ]
            if log.destroyed
            else [],
            "restored": [
                {
                    "id": i,
                    "text" if w else "noun": n,
                    "at": [c % width, c // width],
                    "facing": FACINGS[f],
                }
                for i, n, c, f, w in log.restored
            ]
            if log.restored
            else [],
            "controlLost": self.control_lost,
            "won": self.won,
            "moveCount": self.move_count,
            "reason": self.reason,
            "sentencesFormed": formed,
            "sentencesBroken": broken,
            "rules": table,
            "automata": self._automata_changes() if level.automata else [],
            "historyLength": self.history_length,
        }
        if level.vocabulary:
            out["spawned"] = (
                [
                    {"id": i, "text" if w else "noun": n, "at": [c % width, c // width]}
                    for i, n, c, w in log.spawned
                ]
                if log.spawned
                else []
            )
            out["created"] = (
                [{"id": i, "noun": n, "at": [c % width, c // width]} for i, n, c, _ in log.created]
                if log.created
                else []
            )
        return out

    def _automata_changes(self) -> list[dict[str, Any]]:
        """``{id, phase, active}`` for every automaton whose phase or activity changed."""
        changes: list[dict[str, Any]] = []
        rules_changed = self.rules_before is not self.rules_after
        for record, old, new in zip(
            self.level.automata, self.phases_before, self.phases_after, strict=True
        ):
            active = automaton_active(record, self.rules_after)
            if old != new or (
                rules_changed and active != automaton_active(record, self.rules_before)
            ):
                changes.append({"id": record.id, "phase": new, "active": active})
        return changes


def automaton_active(record: AutomatonDef, rules: RuleSet) -> bool:
    """Whether a rule ``X IS <property>`` activates ``record`` under ``rules``."""
    if record.subject is None:
        return record.property in rules.holders
    return record.property in rules.props.get(record.subject, ())


def rule_delta(before: RuleSet, after: RuleSet) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    """Rules added and removed between two tables, by semantic identity, in table order."""
    if before is after:
        return (), ()
    added = tuple(rule for rule in after.rules if rule.key not in before.keys)
    removed = tuple(rule for rule in before.rules if rule.key not in after.keys)
    return added, removed


def sentence_delta(
    before: RuleSet, after: RuleSet
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Sentences formed and broken between two tables, as wire records in span order."""
    old, new = before.sentence_spans, after.sentence_spans
    formed = [s.to_json() for s in after.sentences if (s.axis, s.ids) not in old]
    broken = [s.to_json() for s in before.sentences if (s.axis, s.ids) not in new]
    return formed, broken
