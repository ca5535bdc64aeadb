"""What a turn costs the server, measured: the engine's time, charged to the player and the server.

Entity counts guess a level's cost badly: a 64 x 64 level of 4,000 word
tiles under ``TEXT IS MOVE`` costs about 6 ms an entity-token where a
crowded board of plain things costs 0.3 ms. So every turn is timed (the
engine's CPU time on the thread that ran it, :attr:`ConnectionLimits.engine_clock`)
and charged at :data:`ENGINE_SECONDS_PER_TOKEN` to the connection's rate
limit and, past :data:`HEAVY_TURN_SECONDS`, to the server's heavy-work
budget (:class:`~miau.server.limits.HeavyWork`). A level is played off the
event loop (on one worker thread for the whole server, beside a short
thread switch interval) once it is big or a turn on it was measured heavy;
its replays too, with a cap on their engine time. A single reply holds at
most :data:`MAX_REPLY_BYTES` of board: a move that would make the board
bigger than that is taken back and refused. A heavy level's stored log is
replaced by a restore of the board once its turns together cost
:data:`HEAVY_LOG_SECONDS` to replay, so a resume never replays more.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from miau.engine import Event, Game
from miau.packs import PackLevel
from miau.play import service
from miau.play.log import LogEntry, Opened, UnreplayableGameError, apply_entry, play_intent
from miau.play.protocol import Intent

__all__ = [
    "ENGINE_SECONDS_PER_TOKEN",
    "HEAVY_LOG_SECONDS",
    "HEAVY_TURN_SECONDS",
    "MAX_REPLY_BYTES",
    "REPLAY_SECONDS_CAP",
    "REPLY_CHECKED_PAST",
    "TimedTurn",
    "reply_bytes",
    "timed",
    "timed_replay",
    "timed_turn",
    "tokens_of",
]

ENGINE_SECONDS_PER_TOKEN: Final = 0.0003
"""Engine time one rate-limit token stands for (a step on a 1,024-thing draft, about 2.5 ms,
was 8 tokens): the server's heavy budget of 64 tokens a second is about 20 ms of engine time."""

HEAVY_TURN_SECONDS: Final = 0.004
"""A turn measured longer than this is heavy: charged to the server's heavy budget, and its
level's later turns played off the event loop (shipped levels' turns take well under 1 ms)."""

MAX_REPLY_BYTES: Final = 256 * 1024
"""The largest board a reply carries (as JSON): a 1,024-entity draft's is about 82 KiB."""

REPLY_CHECKED_PAST: Final = 1024
"""A board of more entities than this is measured as JSON before its reply is built."""

HEAVY_LOG_SECONDS: Final = 1.0
"""Engine time a heavy level's stored log may take to replay before it becomes one restore."""

REPLAY_SECONDS_CAP: Final = 5.0
"""Engine time a replay may take; past it the stored game cannot be resumed and is set aside."""


def tokens_of(seconds: float) -> float:
    """The rate-limit tokens ``seconds`` of engine time cost (at least one)."""
    return max(1.0, seconds / ENGINE_SECONDS_PER_TOKEN)


Result = TypeVar("Result")


def timed(clock: Callable[[], float], work: Callable[[], Result]) -> tuple[Result, float]:
    """``work()`` and the time of ``clock`` it took.

    On a heavy level: building the board, or the ``opened`` reply.
    """
    began = clock()
    result = work()
    return result, clock() - began


def reply_bytes(state: dict[str, Any]) -> int:
    """The size of a board as a reply carries it (compact JSON, in bytes)."""
    return len(json.dumps(state, separators=(",", ":")).encode("utf-8"))


@dataclass(frozen=True, slots=True)
class TimedTurn:
    """One intent played and timed: what :func:`~miau.play.log.play_intent` gave, and its cost.

    ``reply`` is the ``result`` frame without its progress (built where the
    turn ran, so a heavy board is serialised off the event loop too);
    ``too_big`` is the board's size in bytes when the move made it larger
    than :data:`MAX_REPLY_BYTES` (the move was then taken back), else None.
    """

    entry: LogEntry | None
    event: Event
    reply: dict[str, Any]
    seconds: float
    too_big: int | None = None


def timed_turn(current: Opened | None, message: Intent, clock: Callable[[], float]) -> TimedTurn:
    """Play ``message`` on the open game and time it with ``clock`` (a thread's CPU time).

    A step or wait that makes the board too big to send is undone at once
    (exactly, as the engine's undo is) and nothing is to be stored.

    :raises ProtocolError: as :func:`~miau.play.log.play_intent` does.
    """
    began = clock()
    current, entry, event = play_intent(current, message)
    reply = service.result_reply(message, event, current.game, None)
    state = reply["state"]
    grew = event.accepted and message.kind in ("step", "wait")
    if grew and len(state.get("entities", ())) > REPLY_CHECKED_PAST:
        size = reply_bytes(state)
        if size > MAX_REPLY_BYTES:
            current.game.undo()
            return TimedTurn(None, event, reply, clock() - began, size)
    return TimedTurn(entry, event, reply, clock() - began)


class ReplayTooCostlyError(UnreplayableGameError):
    """A stored log whose replay took more than its cap of engine time."""


def timed_replay(
    level: PackLevel,
    entries: Sequence[LogEntry],
    clock: Callable[[], float],
    cap: float = REPLAY_SECONDS_CAP,
) -> tuple[Game, float]:
    """A fresh game on ``level`` with ``entries`` applied, and the engine time it took.

    :raises UnreplayableGameError: when an entry does not read or is refused
        (as :func:`~miau.play.log.replay_log`), and
        :class:`ReplayTooCostlyError` once the replay has taken ``cap``
        seconds of ``clock``.
    """
    began = clock()
    game = Game(level.data)
    for index, entry in enumerate(entries):
        try:
            accepted = apply_entry(game, entry).accepted
        except (ValueError, TypeError, KeyError) as error:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r}: {error}") from None
        if not accepted:
            raise UnreplayableGameError(f"entry {index} {entry.letter!r} is refused now")
        if clock() - began > cap:
            raise ReplayTooCostlyError(
                f"its replay passed {cap:g} s of engine time at entry {index}"
            )
    return game, clock() - began
