"""The play log: one entry per accepted intent, how it is replayed, and how it is compacted.

Both hosts keep a player's unfinished game as this log (the server in its
store's ``intents`` rows, the static site in IndexedDB as the entries'
:attr:`LogEntry.text`), and resume it by replaying it on a fresh ``Game``.
A step or wait is stored as its letter of the engine's move alphabet
(``U D L R W``, :data:`miau.engine.vocabulary.INTENT_OF_LETTER`); ``Z`` is an
undo, ``X`` a reset and ``S`` a restore, whose state (only
:data:`RESTORE_FIELDS`, bounded) is the entry's payload.

A log grows by one entry per accepted intent and starts again after a
reset or a restore; once it reaches :data:`COMPACT_AT` entries a host
replaces it by :func:`compacted_log`, which replays to the same board,
counters and undo history.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from miau.engine import Event, Game
from miau.engine.state import history_records
from miau.engine.vocabulary import INTENT_OF_LETTER, INTENT_OF_NAME
from miau.packs import PackLevel
from miau.play.protocol import ErrorCode, Intent, ProtocolError, no_game

__all__ = [
    "COMPACT_AT",
    "LOG_ENTRY_TEXT",
    "MAX_MOVE_COUNT",
    "RESET",
    "RESTORE",
    "RESTORE_FIELDS",
    "UNDO",
    "UNDO_KEPT",
    "LogEntry",
    "OpenGameLike",
    "UnreplayableGameError",
    "apply_entry",
    "apply_intent",
    "capped_log",
    "compacted_log",
    "entry_of_intent",
    "play_intent",
    "replay_log",
    "restore_state",
    "shortened_log",
    "undoable_moves",
]

UNDO: Final = "Z"
RESET: Final = "X"
RESTORE: Final = "S"
"""The log letters of the intents that are not moves (a move's letter is its engine letter)."""

RESTORE_FIELDS: Final = ("entities", "moveCount", "won", "automata")
"""The fields of a restore's state that are read and stored (``docs/protocol.md``); no others."""

MAX_MOVE_COUNT: Final = 1_000_000_000
"""The largest ``moveCount`` a restore takes: far past any real game, far inside a 64-bit column."""

COMPACT_AT: Final = 4096
"""A stored log is compacted when it reaches this many entries (:func:`compacted_log`)."""

UNDO_KEPT: Final = 2048
"""The turns of undo a compacted log keeps when the game has more (the cap's policy)."""

LOG_ENTRY_TEXT: Final = re.compile(r"[UDLRWZX]|S\{.*\}", re.DOTALL)
"""The text form of a log entry (:attr:`LogEntry.text`), as progress files and the site store it."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One accepted intent as stored: its letter, and the state JSON of a restore.

    Letters: ``U D L R`` steps, ``W`` wait, ``Z`` undo, ``X`` reset, ``S``
    restore (with ``payload``).
    """

    letter: str
    payload: str | None = None

    @property
    def is_move(self) -> bool:
        """Whether the entry is a step or a wait (a letter of the engine's move alphabet)."""
        return self.letter in INTENT_OF_LETTER

    @property
    def starts_afresh(self) -> bool:
        """Whether nothing before this entry matters to the board or to undo (a reset, a restore)."""
        return self.letter in (RESET, RESTORE)

    @property
    def text(self) -> str:
        """The entry as one string: its letter, then a restore's state JSON."""
        return self.letter + (self.payload or "")

    @classmethod
    def from_text(cls, text: str) -> LogEntry:
        """The entry whose :attr:`text` is ``text``.

        :raises ValueError: for a string that is no log entry's text.
        """
        if not LOG_ENTRY_TEXT.fullmatch(text):
            raise ValueError(f"not a log entry: {text[:40]!r}")
        return cls(text[0], text[1:] or None)


def restore_state(state: object) -> dict[str, Any]:
    """The part of a restore's state the engine reads: :data:`RESTORE_FIELDS`, bounded.

    Anything else the client sent (a ``history``, a 64 KB extra field) is
    dropped, so it is neither read nor stored. The engine checks the entities
    and automata against the level (ids, cells and phases are bounded by it).

    :raises ValueError: for a state that is not an object, or a ``moveCount``
        that is an integer past :data:`MAX_MOVE_COUNT`.
    """
    if not isinstance(state, dict):
        raise ValueError("state must be an object")
    kept = {key: state[key] for key in RESTORE_FIELDS if key in state}
    move_count = kept.get("moveCount")
    if type(move_count) is int and not 0 <= move_count <= MAX_MOVE_COUNT:
        raise ValueError(f"state.moveCount must be an integer from 0 to {MAX_MOVE_COUNT:,}")
    return kept


def _restore_entry(state: object) -> LogEntry:
    """The ``S`` entry of a restore of ``state`` (:func:`restore_state` of it, compact JSON)."""
    return LogEntry(RESTORE, json.dumps(restore_state(state), separators=(",", ":")))


def entry_of_intent(message: Intent) -> LogEntry | None:
    """The log entry an intent is stored as if accepted; None for a direction no engine knows.

    :raises ProtocolError: ``bad-message`` for a restore whose state is not
        one (not an object, or a ``moveCount`` out of bounds).
    """
    if message.kind == "step":
        direction = INTENT_OF_NAME.get(message.direction or "")
        return None if direction is None else LogEntry(direction.letter)
    if message.kind == "wait":
        return LogEntry(INTENT_OF_NAME["wait"].letter)
    if message.kind == "undo":
        return LogEntry(UNDO)
    if message.kind == "reset":
        return LogEntry(RESET)
    try:
        return _restore_entry(message.state)
    except ValueError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{error}.", message.seq) from None


def apply_entry(game: Game, entry: LogEntry) -> Event:
    """Apply one log entry to ``game``.

    :raises ValueError: for a letter that is not a log letter, or a restore
        whose payload is not JSON.
    """
    if entry.letter in INTENT_OF_LETTER:
        return game.step(INTENT_OF_LETTER[entry.letter])
    if entry.letter == UNDO:
        return game.undo()
    if entry.letter == RESET:
        return game.reset()
    if entry.letter == RESTORE and entry.payload is not None:
        return game.restore(restore_state(json.loads(entry.payload)))
    raise ValueError(f"not a log entry: {entry!r}")


def apply_intent(game: Game, message: Intent) -> tuple[LogEntry | None, Event]:
    """Play one intent on ``game``: its log entry (None: not a move any engine knows) and the event.

    The one step from a parsed intent to the engine, the same on both hosts:
    a step goes to the engine as its direction's name, as the client sent
    it, and its letter is looked up only for the log. The host stores the
    entry if the event was accepted.

    :raises ProtocolError: ``bad-message`` for a restore whose state is not one.
    """
    if message.kind in ("step", "wait"):
        name = message.direction if message.kind == "step" else "wait"
        # A direction the engine does not know: it says no (in its words), and nothing is stored.
        event = game.step(name)
        direction = INTENT_OF_NAME.get(name or "")
        return (None if direction is None else LogEntry(direction.letter)), event
    entry = entry_of_intent(message)
    assert entry is not None  # only a step has no entry
    return entry, apply_entry(game, entry)


class OpenGameLike(Protocol):
    """What the play service reads of a host's open game: the live game and its storage key."""

    game: Game
    pack_id: str | None


Opened = TypeVar("Opened", bound=OpenGameLike)


def play_intent(current: Opened | None, message: Intent) -> tuple[Opened, LogEntry | None, Event]:
    """Play an intent on the open game: the game, the entry to store (None: nothing) and the event.

    Nothing is stored for an intent the engine refused, a direction no
    engine knows, or a game that is never stored (a draft: ``pack_id`` None).

    :raises ProtocolError: ``no-game`` before any level was opened,
        ``bad-message`` for a restore whose state is not one.
    """
    if current is None:
        raise no_game(message)
    entry, event = apply_intent(current.game, message)
    kept = event.accepted and entry is not None and current.pack_id is not None
    return current, (entry if kept else None), event


class UnreplayableGameError(ValueError):
    """A stored log that does not replay: an entry the engine refuses, or one that does not read."""


def replay_log(level: PackLevel, entries: Sequence[LogEntry]) -> Game:
    """A fresh game on ``level`` with the stored ``entries`` applied, oldest first.

    :raises UnreplayableGameError: when an entry does not read or the engine
        refuses it (every stored entry was accepted when it was stored, so
        the level or the engine changed since, or the record was damaged).
    """
    game = Game(level.data)
    for index, entry in enumerate(entries):
        try:
            accepted = apply_entry(game, entry).accepted
        except (ValueError, TypeError, KeyError) as error:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r}: {error}") from None
        if not accepted:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r} is refused now")
    return game


def undoable_moves(game: Game) -> str | None:
    """The letters of the turns ``game`` can undo, oldest first; None if a restore read them.

    A history read from a restored state has no letters to store.
    """
    letters = [record.letter for record in history_records(game.state.last_turn)]
    if any(letter is None or letter not in INTENT_OF_LETTER for letter in letters):
        return None
    return "".join(letter for letter in letters if letter is not None)


def _head(log: Sequence[LogEntry]) -> list[LogEntry]:
    """The entry that began the game's board, if it began with a restore."""
    return list(log[:1]) if log and log[0].letter == RESTORE else []


def capped_log(
    level: PackLevel, head: Sequence[LogEntry], moves: str
) -> tuple[list[LogEntry], Game]:
    """A restore of the board :data:`UNDO_KEPT` turns from the end, then those turns; and its game."""
    earlier = replay_log(level, [*head, *(LogEntry(letter) for letter in moves[:-UNDO_KEPT])])
    log = [
        _restore_entry(earlier.state.to_json()),
        *(LogEntry(letter) for letter in moves[-UNDO_KEPT:]),
    ]
    return log, replay_log(level, log)


def compacted_log(
    level: PackLevel, log: Sequence[LogEntry], game: Game
) -> tuple[list[LogEntry], Game | None] | None:
    """A shorter log that replays to ``game`` (the live game of ``log``), and the game it gives.

    The new log is the entry that began the game's board (a restore, if it
    began with one) and the letters of the turns that can be undone:
    replaying it gives the same board, counters and undo history (the
    engine's compact save), so steps taken back, undos and waits cost
    nothing on the next resume. When more than :data:`UNDO_KEPT` turns can
    be undone, the log begins instead with a restore of the board
    :data:`UNDO_KEPT` turns back, followed by those turns: the board and
    move count stay exact, undo reaches back that far, and a later win keeps
    its move count but not its move string; the game returned is then the
    replay of that log (the live game should undo no further than a resume
    could), else None (``game`` stands). None when there is no shorter log.
    """
    moves = undoable_moves(game)
    if moves is None:
        return None
    head = _head(log)
    capped: Game | None = None
    if len(head) + len(moves) > UNDO_KEPT:
        short, capped = capped_log(level, head, moves)
    else:
        short = [*head, *(LogEntry(letter) for letter in moves)]
    return (short, capped) if len(short) < len(log) else None


def shortened_log(
    level: PackLevel, entries: Sequence[LogEntry], undo_kept: int
) -> list[LogEntry] | None:
    """A shorter log that replays to the same game as ``entries``; None if there is none.

    The same log :func:`compacted_log` gives (the entry that began the board,
    then the letters of the turns that can be undone, capped at
    ``undo_kept`` turns behind a restore of the board before them), made
    from the log alone: this is how an over-long stored log is shortened.

    :raises UnreplayableGameError: when the log does not replay.
    """
    game = replay_log(level, entries)
    moves = undoable_moves(game)
    if moves is None:
        return None
    head = _head(entries)
    if len(head) + len(moves) > undo_kept:
        # The board undo_kept turns back: undo is exact, and this game is thrown away,
        # so undoing costs far less than the second replay capped_log makes.
        for _ in range(undo_kept):
            game.undo()
        log = [
            _restore_entry(game.state.to_json()),
            *(LogEntry(letter) for letter in moves[-undo_kept:]),
        ]
    else:
        log = [*head, *(LogEntry(letter) for letter in moves)]
    return log if len(log) < len(entries) else None
