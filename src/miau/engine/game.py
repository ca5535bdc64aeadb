"""``Game``: one level in play, with its undo history.

Every action (``step``, ``wait``, ``undo``, ``reset``, ``restore``) returns a
settled ``Event``; invalid input is never an exception here but a rejected
event that leaves state and history unchanged. Undo restores the exact
pre-turn state from the journal saved with each turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from miau.engine.board import GONE, Board, Checkpoint, JournalEntry
from miau.engine.events import Event, TurnLog
from miau.engine.forecast import FORECAST_BEATS, Forecast, forecast
from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.rules import RuleSet, parser_for_level
from miau.engine.state import (
    Snapshot,
    SnapshotError,
    State,
    TurnRecord,
    history_records,
    snapshot_from_json,
)
from miau.engine.turn import has_control, resolve_turn, start_board
from miau.engine.vocabulary import INTENT_OF_LETTER, INTENT_OF_NAME, WAIT, YOU, Direction

MAX_RESTORE_HISTORY: Final = 1000
"""The longest history ``restore`` takes: a longer one is rejected, not read."""

NOT_AN_INTENT: Final = "not an intent: use up, down, left, right or wait"
ALREADY_WON: Final = "the level is won: undo or restart to play on"
NOTHING_IS_YOU: Final = "nothing is YOU"
BLOCKED: Final = "everything that is YOU is blocked"
NOTHING_TO_UNDO: Final = "there is nothing to undo"


class MoveStringError(ValueError):
    """A move string with a letter outside the move alphabet (``U D L R W``)."""


class Game:
    """A level in play: the board, its history, and the actions a player takes.

    >>> from miau.packs import load_pack
    >>> from miau.worlds import shipped_pack_path
    >>> level = load_pack(shipped_pack_path("tutorial")).level("first-steps")
    >>> game = Game(level.data)
    >>> [rule.text() for rule in game.state.rules]
    ['MIAU IS YOU', 'FLAG IS WIN']
    >>> event = game.step("right")
    >>> event.accepted, event.move_count, event.won
    (True, 1, False)
    >>> game.undo().move_count
    0
    >>> game.play("RRRRRR")[-1].won
    True
    """

    def __init__(self, level: Mapping[str, Any] | Level) -> None:
        """Start ``level`` (an engine-level dict or a ``Level``).

        :raises LevelError: when the dict is not a level the engine can run.
        """
        self.level = level if isinstance(level, Level) else Level.from_dict(level)
        self._parser = parser_for_level(self.level)
        self._board = start_board(self.level, self._parser)
        self._last_turn: TurnRecord | None = None
        # Whether the history goes back to the level start (false after a restore).
        self._from_start = True

    @property
    def state(self) -> State:
        """The settled state now; its history is a reference, so taking it is cheap."""
        return State(self.level, self._snapshot(), self._board.rules, self._last_turn)

    @property
    def won(self) -> bool:
        """Whether the level is won."""
        return self._board.won

    @property
    def can_undo(self) -> bool:
        """Whether there is a turn to undo."""
        return self._last_turn is not None

    @property
    def history_length(self) -> int:
        """How many turns can be undone."""
        return 0 if self._last_turn is None else self._last_turn.depth

    @property
    def moves(self) -> str | None:
        """The move string of the turns that can be undone, oldest first.

        Replaying it on a fresh game gives this exact state, history included
        (the compact save of ``miau.engine.save``). None after a ``restore``
        (until the next reset): the history then starts from the restored
        board, not from the level start.
        """
        if not self._from_start:
            return None
        letters = [record.letter for record in history_records(self._last_turn)]
        if any(letter is None for letter in letters):
            return None
        return "".join(letter for letter in letters if letter is not None)

    def forecast(self, beats: int = FORECAST_BEATS) -> Forecast:
        """The next ``beats`` of every TICK thing if the player waits, and whose facing matters.

        See :mod:`miau.engine.forecast`; the game is left exactly as it was.

        :raises ValueError: when ``beats`` is out of range.
        """
        return forecast(self._board, beats)

    def step(self, direction: object) -> Event:
        """Take one intent: ``up``, ``down``, ``left``, ``right`` or ``wait``, or its ``Direction``.

        Anything else, or any intent once the level is won, gives a rejected
        ``step`` event (its ``reason`` says why) and changes nothing.
        """
        intent: Direction | None = None
        if isinstance(direction, str):
            intent = INTENT_OF_NAME.get(direction)
        elif isinstance(direction, Direction):
            intent = direction
        if intent is None:
            return self._rejected("step", TurnLog(), NOT_AN_INTENT)
        if self._board.won:
            return self._rejected("step", TurnLog(), ALREADY_WON)
        return self._turn(intent)

    def wait(self) -> Event:
        """Let one turn pass without moving: automata take their beat."""
        return self.step(WAIT.name)

    def _turn(self, intent: Direction) -> Event:
        board = self._board
        before = board.checkpoint()
        log = TurnLog()
        if not resolve_turn(board, intent, log):
            board.take_journal()
            return self._rejected("step", log, BLOCKED if log.blocked else NOTHING_IS_YOU)
        last = self._last_turn
        depth = 1 if last is None else last.depth + 1
        self._last_turn = TurnRecord(board.take_journal(), before, intent.letter, last, depth)
        return self._event("step", log, before.rules, before.phases)

    def undo(self) -> Event:
        """Restore the state before the last accepted turn; a no-op without history."""
        record = self._last_turn
        if record is None:
            return self._rejected("undo", TurnLog(), NOTHING_TO_UNDO)
        board = self._board
        undone, rules_before = self._snapshot(), board.rules
        board.rewind(record.before, record.changes)
        self._last_turn = record.previous
        touched = sorted({entry[0] for entry in record.changes})
        log = self._difference("undo", undone, touched)
        return self._event("undo", log, rules_before, undone.phases)

    def reset(self) -> Event:
        """Return to the level start: initial entities and rules, no history, not won."""
        before, rules_before = self._snapshot(), self._board.rules
        self._board = start_board(self.level, self._parser)
        self._last_turn = None
        self._from_start = True
        every = range(self.level.entity_count)
        log = self._difference("reset", before, every)
        return self._event("reset", log, rules_before, before.phases)

    def restore(self, snapshot: Mapping[str, Any]) -> Event:
        """Continue from a state in its JSON form (``state.to_json(history=True)``).

        Rules are derived from the restored words; a state without
        ``history`` restores with nothing to undo. A snapshot that does not
        fit this level, or a history longer than ``MAX_RESTORE_HISTORY``,
        gives a rejected ``restore`` event whose ``reason`` names the
        problem, and changes nothing.
        """
        try:
            now, history = self._read_snapshot(snapshot)
        except SnapshotError as error:
            return self._rejected("restore", TurnLog(), str(error))
        before, rules_before = self._snapshot(), self._board.rules
        self._board = self._board_from(now)
        self._last_turn = self._records_from(history, now)
        self._from_start = False
        every = range(self.level.entity_count)
        log = self._difference("restore", before, every)
        return self._event("restore", log, rules_before, before.phases)

    def play(self, moves: str) -> list[Event]:
        """Take every move of a move string (``U D L R W``, any case) in order.

        :raises MoveStringError: before any move is taken, if a letter is not a move.
        """
        return [self.step(intent) for intent in parse_directions(moves)]

    def _read_snapshot(self, snapshot: object) -> tuple[Snapshot, list[Snapshot]]:
        """The state and its history from their JSON form.

        :raises SnapshotError: naming the first field that does not fit.
        """
        if not isinstance(snapshot, Mapping):
            raise SnapshotError("state must be an object")
        now = snapshot_from_json(self.level, snapshot)
        history_raw = snapshot.get("history", [])
        if not isinstance(history_raw, list):
            raise SnapshotError("state.history must be a list")
        if len(history_raw) > MAX_RESTORE_HISTORY:
            raise SnapshotError(
                f"state.history holds {len(history_raw)} entries; "
                f"a restore takes at most {MAX_RESTORE_HISTORY}"
            )
        history = [
            snapshot_from_json(self.level, entry, f"state.history[{index}]")
            for index, entry in enumerate(history_raw)
        ]
        return now, history

    def _board_from(self, snapshot: Snapshot) -> Board:
        board = Board(self.level, self._parser)
        board.pos[:] = snapshot.positions
        board.noun[:] = snapshot.nouns
        board.facing[:] = snapshot.facings
        board.restore_kinds(snapshot.kinds)
        board.phases[:] = snapshot.phases
        board.move_count = snapshot.move_count
        board.won = snapshot.won
        board.rebuild_indexes()
        board.rules = board.parser.parse(board.word_positions())
        board.words_dirty = False
        board.control_lost = not has_control(board)
        return board

    def _records_from(self, history: list[Snapshot], now: Snapshot) -> TurnRecord | None:
        """Turn records for a restored history: journals rebuilt by comparing snapshots."""
        level = self.level
        last: TurnRecord | None = None
        for index, before in enumerate(history):
            after = history[index + 1] if index + 1 < len(history) else now
            changes: list[JournalEntry] = [
                (
                    ident,
                    before.positions[ident],
                    before.nouns[ident],
                    before.facings[ident],
                    before.kinds[ident],
                )
                for ident in range(level.entity_count)
                if (
                    before.positions[ident],
                    before.nouns[ident],
                    before.facings[ident],
                    before.kinds[ident],
                )
                != (
                    after.positions[ident],
                    after.nouns[ident],
                    after.facings[ident],
                    after.kinds[ident],
                )
            ]
            if level.vocabulary:
                # Tier-1 words depend on kinds (IS TEXT), control on the board
                # (NOT, conditions, TEXT IS YOU): both come from a board.
                earlier = self._board_from(before)
                rules, control_lost = earlier.rules, earlier.control_lost
            else:
                rules = self._parser.parse(tuple(before.positions[i] for i in level.word_ids))
                you = set(rules.holders.get(YOU, ()))
                control_lost = not any(
                    before.nouns[ident] in you
                    for ident, cell in enumerate(before.positions)
                    if cell != GONE and not level.is_word[ident]
                )
            checkpoint = Checkpoint(
                before.move_count, before.won, control_lost, before.phases, rules
            )
            last = TurnRecord(changes, checkpoint, None, last, index + 1)
        return last

    def _snapshot(self) -> Snapshot:
        board = self._board
        return Snapshot(
            tuple(board.pos),
            tuple(board.noun),
            tuple(board.facing),
            tuple(board.is_word),
            tuple(board.phases),
            board.move_count,
            board.won,
            board.control_lost,
        )

    def _difference(self, kind: str, before: Snapshot, ids: Iterable[int]) -> TurnLog:
        """Entries for every entity in ``ids`` whose position, facing, noun, kind or existence changed.

        An entity that only turned is listed under ``moved`` with ``from``
        equal to ``to``. An entity that exists before but not after (only a
        restore can do that) is listed as destroyed with the action's
        ``kind`` as cause. A change of noun or kind (vocabulary-1: a word
        that was an object) is listed under ``transformed``.
        """
        board, log = self._board, TurnLog()
        kinds = board.is_word
        # The core board's kinds are the level's own tuple, never changed: skip them.
        kinds_change = before.kinds is not kinds
        for ident in ids:
            old, new = before.positions[ident], board.pos[ident]
            old_noun, new_noun = before.nouns[ident], board.noun[ident]
            facing = board.facing[ident]
            if old == GONE and new != GONE:
                log.restored.append((ident, new_noun, new, facing, kinds[ident]))
                continue
            if new == GONE:
                if old != GONE:
                    log.destroyed.append((ident, old_noun, old, kind, before.kinds[ident]))
                continue
            if old != new or before.facings[ident] != facing:
                log.moved.append((ident, old, new, None, facing))
            if old_noun != new_noun or (kinds_change and before.kinds[ident] != kinds[ident]):
                log.transformed.append(
                    (ident, old_noun, new_noun, before.kinds[ident], kinds[ident])
                )
        return log

    def _event(
        self, kind: str, log: TurnLog, rules_before: RuleSet, phases_before: tuple[int, ...]
    ) -> Event:
        board = self._board
        return Event(
            self.level,
            kind,
            True,
            log,
            rules_before,
            board.rules,
            phases_before,
            tuple(board.phases),
            board.control_lost,
            board.won,
            board.move_count,
            self.history_length,
        )

    def _rejected(self, kind: str, log: TurnLog, reason: str) -> Event:
        board = self._board
        phases = tuple(board.phases)
        return Event(
            self.level,
            kind,
            False,
            log,
            board.rules,
            board.rules,
            phases,
            phases,
            board.control_lost,
            board.won,
            board.move_count,
            self.history_length,
            reason,
        )


def parse_moves(moves: str) -> list[str]:
    """The intents of a move string (``U D L R W``, any case; spaces ignored), by name.

    :raises MoveStringError: naming the first letter that is not a move.
    """
    return [intent.name for intent in parse_directions(moves)]


def parse_directions(moves: str) -> list[Direction]:
    """The intents of a move string (``U D L R W``, any case; spaces ignored).

    :raises MoveStringError: naming the first letter that is not a move.
    """
    intents: list[Direction] = []
    for index, letter in enumerate(moves):
        if letter.isspace():
            continue
        intent = INTENT_OF_LETTER.get(letter.upper())
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

    def __reduce__(self) -> tuple[type[Replay], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def replay(level: Mapping[str, Any] | Level, moves: str) -> Replay:
    """Play ``moves`` on a fresh game of ``level``."""
    game = Game(level)
    return Replay(game, game.play(moves))
