"""``Game``: one level in play, with its undo history.

Every action (``step``, ``wait``, ``undo``, ``reset``, ``restore``) returns a
settled ``Event``; invalid input is never an exception here but a rejected
event that leaves state and history unchanged. Undo restores the exact
pre-turn state from the journal saved with each turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from miau.engine.board import GONE, Board, JournalEntry
from miau.engine.events import Event, TurnLog
from miau.engine.level import Level
from miau.engine.rules import Rule, RuleParser, RuleSet
from miau.engine.state import (
    Snapshot,
    SnapshotError,
    State,
    TurnRecord,
    rewind,
    snapshot_from_json,
)
from miau.engine.turn import apply_transformations, has_control, resolve_turn
from miau.engine.vocabulary import DIRECTIONS, MOVE_LETTERS

WAIT = "wait"


class MoveStringError(ValueError):
    """A move string with a letter outside ``U D L R W``."""


class Game:
    """A level in play: the board, its history, and the actions a player takes."""

    def __init__(self, level: Mapping[str, Any] | Level) -> None:
        """Start ``level`` (an engine-level dict or a ``Level``).

        :raises LevelError: when the dict is not a level the engine can run.
        """
        self.level = level if isinstance(level, Level) else Level.from_dict(level)
        self._parser = RuleParser(
            self.level.width, self.level.texts, self.level.word_ids, self.level.properties
        )
        self._board = self._start_board()
        self._history: list[TurnRecord] = []

    def _start_board(self) -> Board:
        board = Board(self.level, self._parser)
        apply_transformations(board, set(), None)
        board.take_journal()
        board.control_lost = not has_control(board)
        return board

    @property
    def board(self) -> Board:
        """The live board (for the solver and tools that must not pay for events)."""
        return self._board

    @property
    def state(self) -> State:
        """The settled state now, history included."""
        now = self._snapshot()
        return State(self.level, now, self._board.rules, rewind(now, self._history))

    @property
    def won(self) -> bool:
        """Whether the level is won."""
        return self._board.won

    @property
    def can_undo(self) -> bool:
        """Whether there is a turn to undo."""
        return bool(self._history)

    def step(self, direction: object) -> Event:
        """Take one intent: ``up``, ``down``, ``left``, ``right`` or ``wait``.

        Anything else, or any intent once the level is won, gives a rejected
        ``step`` event and changes nothing.
        """
        if direction == WAIT:
            return self.wait()
        vector = DIRECTIONS.get(direction) if isinstance(direction, str) else None
        if vector is None or self._board.won:
            return self._rejected("step", TurnLog())
        return self._turn(vector)

    def wait(self) -> Event:
        """Let one turn pass without moving: automata take their beat."""
        if self._board.won:
            return self._rejected("step", TurnLog())
        return self._turn(None)

    def _turn(self, vector: tuple[int, int] | None) -> Event:
        board = self._board
        record = TurnRecord(
            [],
            board.move_count,
            board.won,
            board.control_lost,
            tuple(board.phases),
            board.rules,
        )
        log = TurnLog()
        if not resolve_turn(board, vector, log):
            board.take_journal()
            return self._rejected("step", log)
        record.changes.extend(board.take_journal())
        self._history.append(record)
        return self._event("step", log, record.rules)

    def undo(self) -> Event:
        """Restore the state before the last accepted turn; a no-op without history."""
        if not self._history:
            return self._rejected("undo", TurnLog())
        record = self._history.pop()
        board = self._board
        undone = self._snapshot()
        rules_before = board.rules
        board.revert(record.changes)
        board.move_count = record.move_count
        board.won = record.won
        board.control_lost = record.control_lost
        board.phases[:] = record.phases
        board.rules = record.rules
        board.words_dirty = False
        touched = sorted({entry[0] for entry in record.changes})
        return self._event("undo", self._difference("undo", undone, touched), rules_before)

    def reset(self) -> Event:
        """Return to the level start: initial entities and rules, no history, not won."""
        before, rules_before = self._snapshot(), self._board.rules
        self._board = self._start_board()
        self._history.clear()
        every = range(self.level.entity_count)
        return self._event("reset", self._difference("reset", before, every), rules_before)

    def restore(self, snapshot: Mapping[str, Any]) -> Event:
        """Continue from a state in its JSON form (``state.to_json()``), history included.

        Rules are derived from the restored words. A snapshot that does not
        fit this level gives a rejected ``restore`` event and changes nothing.
        """
        try:
            now = snapshot_from_json(self.level, snapshot)
            history_raw = snapshot.get("history", [])
            if not isinstance(history_raw, list):
                raise SnapshotError("state.history must be a list")
            history = [
                snapshot_from_json(self.level, entry, f"state.history[{index}]")
                for index, entry in enumerate(history_raw)
            ]
        except SnapshotError:
            return self._rejected("restore", TurnLog())
        before, rules_before = self._snapshot(), self._board.rules
        self._board = self._board_from(now)
        self._history = self._records_from(history, now)
        every = range(self.level.entity_count)
        return self._event("restore", self._difference("restore", before, every), rules_before)

    def play(self, moves: str) -> list[Event]:
        """Take every move of a move string (``U D L R W``, any case) in order.

        :raises MoveStringError: before any move is taken, if a letter is not a move.
        """
        return [self.step(intent) for intent in parse_moves(moves)]

    def _board_from(self, snapshot: Snapshot) -> Board:
        board = Board(self.level, self._parser)
        board.pos[:] = snapshot.positions
        board.noun[:] = snapshot.nouns
        board.facing[:] = snapshot.facings
        board.phases[:] = snapshot.phases
        board.move_count = snapshot.move_count
        board.won = snapshot.won
        board.rebuild_indexes()
        board.rules = self._parser.parse(board.word_positions())
        board.control_lost = not has_control(board)
        return board

    def _records_from(self, history: list[Snapshot], now: Snapshot) -> list[TurnRecord]:
        records: list[TurnRecord] = []
        for index, before in enumerate(history):
            after = history[index + 1] if index + 1 < len(history) else now
            changes: list[JournalEntry] = [
                (ident, before.positions[ident], before.nouns[ident], before.facings[ident])
                for ident in range(self.level.entity_count)
                if (before.positions[ident], before.nouns[ident], before.facings[ident])
                != (after.positions[ident], after.nouns[ident], after.facings[ident])
            ]
            board = self._board_from(before)
            records.append(
                TurnRecord(
                    changes,
                    before.move_count,
                    before.won,
                    board.control_lost,
                    before.phases,
                    board.rules,
                )
            )
        return records

    def _snapshot(self) -> Snapshot:
        board = self._board
        return Snapshot(
            tuple(board.pos),
            tuple(board.noun),
            tuple(board.facing),
            tuple(board.phases),
            board.move_count,
            board.won,
            board.control_lost,
        )

    def _difference(self, kind: str, before: Snapshot, ids: Iterable[int]) -> TurnLog:
        """Entries for every entity in ``ids`` whose position, noun or existence changed.

        An entity that exists before but not after (only a restore can do
        that) is listed as destroyed with the action's ``kind`` as cause.
        """
        board, log = self._board, TurnLog()
        for ident in ids:
            old, new = before.positions[ident], board.pos[ident]
            old_noun, new_noun = before.nouns[ident], board.noun[ident]
            if old == GONE and new != GONE:
                log.restored.append((ident, new_noun, new))
                continue
            if new == GONE:
                if old != GONE:
                    log.destroyed.append((ident, old_noun, old, kind))
                continue
            if old != new:
                log.moved.append((ident, old, new, None))
            if old_noun != new_noun:
                log.transformed.append((ident, old_noun, new_noun))
        return log

    def _event(self, kind: str, log: TurnLog, rules_before: RuleSet) -> Event:
        board = self._board
        added, removed = rule_delta(rules_before, board.rules)
        return Event(
            self.level,
            kind,
            True,
            log,
            added,
            removed,
            board.control_lost,
            board.won,
            board.move_count,
        )

    def _rejected(self, kind: str, log: TurnLog) -> Event:
        board = self._board
        return Event(
            self.level, kind, False, log, (), (), board.control_lost, board.won, board.move_count
        )


def rule_delta(before: RuleSet, after: RuleSet) -> tuple[tuple[Rule, ...], tuple[Rule, ...]]:
    """Rules added and removed between two tables, by semantic identity, in table order."""
    if before is after:
        return (), ()
    added = tuple(rule for rule in after.rules if rule.key not in before.keys)
    removed = tuple(rule for rule in before.rules if rule.key not in after.keys)
    return added, removed


def parse_moves(moves: str) -> list[str]:
    """The intents of a move string (``U D L R W``, any case; spaces ignored).

    :raises MoveStringError: naming the first letter that is not a move.
    """
    intents: list[str] = []
    for index, letter in enumerate(moves):
        if letter.isspace():
            continue
        intent = MOVE_LETTERS.get(letter.upper())
        if intent is None:
            raise MoveStringError(
                f"move {index + 1} of {moves!r} is {letter!r}; moves are U, D, L, R and W"
            )
        intents.append(intent)
    return intents


@dataclass(frozen=True, slots=True)
class Replay:
    """A finished replay: the game after the moves, and one event per move."""

    game: Game
    events: list[Event]

    @property
    def won(self) -> bool:
        """Whether the moves won the level."""
        return self.game.won


def replay(level: Mapping[str, Any] | Level, moves: str) -> Replay:
    """Play ``moves`` on a fresh game of ``level``."""
    game = Game(level)
    return Replay(game, game.play(moves))
