"""Long replays off the event loop: the worker threads they run on, and the shortener of old logs.

A stored log of more than ``ConnectionLimits.replay_chunk`` entries is
replayed (:func:`miau.play.log.replay_log`) on a worker thread, at most
:data:`_REPLAY_THREADS` at once, so that the event loop keeps answering
everyone else. Sessions made without a server shorten over-long stored logs
on such a thread too (:func:`shorten_on_a_thread`).
"""

from __future__ import annotations

import asyncio
import sys
import weakref
from collections.abc import Sequence

import anyio

from miau.packs import PackLevel
from miau.play.log import LogEntry, shortened_log
from miau.server.long_logs import LongLogs

__all__ = [
    "REPLAY_SWITCH_INTERVAL",
    "default_long_logs",
    "heavy_turn_limiter",
    "pack_parse_limiter",
    "query_limiter",
    "replay_limiter",
    "shorten_on_a_thread",
]

_REPLAY_THREADS = 2
"""How many long logs are replayed at once (each on a worker thread); more wait their turn."""

_QUERY_THREADS = 1
"""How many play queries (such as "can I still win?", up to 2 s of solver each) run at once,
server-wide; more wait their turn, so many sockets asking at once take one thread's share."""

_HEAVY_TURN_THREADS = 1
"""How many turns on heavy levels run at once, server-wide (each on a worker thread): heavy
levels together take one thread's share of the interpreter, whoever plays them."""

_PACK_PARSE_THREADS = 1
"""How many library packs are parsed at once, server-wide (JSON and the pack loader, up to
tens of milliseconds for a 1 MiB pack): uploads from many players take one thread's share."""

REPLAY_SWITCH_INTERVAL = 0.001
"""The interpreter's thread switch interval (s) once a long replay runs beside the event loop.

A replay thread holds the GIL until the interval passes; at Python's default
of 5 ms, two of them kept a 5 ms ticker on the loop late by 95 to 130 ms
(p99) on the loaded development machine, at 1 ms by under 20 ms.
"""

_Limiters = weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, anyio.CapacityLimiter]

_replay_limiters: _Limiters = weakref.WeakKeyDictionary()
_query_limiters: _Limiters = weakref.WeakKeyDictionary()
_heavy_turn_limiters: _Limiters = weakref.WeakKeyDictionary()
_pack_parse_limiters: _Limiters = weakref.WeakKeyDictionary()


def replay_limiter() -> anyio.CapacityLimiter:
    """The limiter of long replays on the running event loop (one per loop: tests run several).

    Also lowers the thread switch interval to :data:`REPLAY_SWITCH_INTERVAL`
    (never raises it), so that the loop gets the GIL back soon.
    """
    return _limiter_on_this_loop(_replay_limiters, _REPLAY_THREADS)


def query_limiter() -> anyio.CapacityLimiter:
    """The limiter of play queries' worker threads on the running event loop, as for replays."""
    return _limiter_on_this_loop(_query_limiters, _QUERY_THREADS)


def heavy_turn_limiter() -> anyio.CapacityLimiter:
    """The limiter of turns on heavy levels (``miau.server.costs``) on the running event loop."""
    return _limiter_on_this_loop(_heavy_turn_limiters, _HEAVY_TURN_THREADS)


def pack_parse_limiter() -> anyio.CapacityLimiter:
    """The limiter of library pack parses' worker threads on the running event loop."""
    return _limiter_on_this_loop(_pack_parse_limiters, _PACK_PARSE_THREADS)


def _limiter_on_this_loop(limiters: _Limiters, threads: int) -> anyio.CapacityLimiter:
    if sys.getswitchinterval() > REPLAY_SWITCH_INTERVAL:
        sys.setswitchinterval(REPLAY_SWITCH_INTERVAL)
    loop = asyncio.get_running_loop()
    limiter = limiters.get(loop)
    if limiter is None:
        limiter = limiters[loop] = anyio.CapacityLimiter(threads)
    return limiter


_long_logs_of_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LongLogs] = (
    weakref.WeakKeyDictionary()
)


def default_long_logs() -> LongLogs:
    """The long-log flights of sessions made without any: one per event loop, on threads."""
    loop = asyncio.get_running_loop()
    long_logs = _long_logs_of_loops.get(loop)
    if long_logs is None:
        long_logs = _long_logs_of_loops[loop] = LongLogs(shorten_on_a_thread)
    return long_logs


async def shorten_on_a_thread(
    level: PackLevel, intents: Sequence[LogEntry], undo_kept: int
) -> list[LogEntry] | None:
    """:func:`shortened_log` on a worker thread of this process (sessions made without a server)."""
    result: list[LogEntry] | None = await anyio.to_thread.run_sync(
        shortened_log, level, intents, undo_kept, limiter=replay_limiter()
    )
    return result
