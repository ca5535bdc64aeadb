"""How much one play connection, and the whole server, may ask of the server.

:class:`ConnectionLimits` holds the numbers; :class:`TokenBucket` is the
rate limit of one connection's frames, :class:`HeavyWork` the server's one
budget for heavy levels (shared by every connection), and
:class:`DropCounter` counts the frames a rate limit dropped, so that a
client flooding past its limit is cut off.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

import anyio

__all__ = [
    "DRAFT_MAX_ENTITIES",
    "DRAFT_OPEN_COST",
    "ENTITIES_PER_TOKEN",
    "PLAY_LIMITS",
    "UNTHROTTLED",
    "ConnectionLimits",
    "DropCounter",
    "HeavyWork",
    "ServerFrames",
    "TokenBucket",
]

DRAFT_MAX_ENTITIES: Final = 1024
"""The most things and words a draft may start with: a step's reply then stays under
140 KiB and the engine's step takes a few milliseconds (4,093 YOU things: 537 KiB, 30 ms)."""

ENTITIES_PER_TOKEN: Final = 128
"""A frame on a level of more entities than this costs the rate limit more than one token:
one for each started 128 (every shipped level has at most 63; a held key keeps up on levels
of up to 256; a step on a 1,024-entity draft costs 8)."""

DRAFT_OPEN_COST: Final = -(-DRAFT_MAX_ENTITIES // ENTITIES_PER_TOKEN)
"""The heavy-work tokens a draft's open takes before the draft is loaded (the largest
playable draft's cost); the rest is settled once its size is known."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """How much one play connection may ask of the server.

    ``frames_per_second`` and ``burst`` make a token bucket over every client
    frame: a held key (about 11 moves a second) never reaches it, a flood
    does; None turns the rate limit off (:data:`UNTHROTTLED`). ``send_timeout`` is how long a reply may wait for a client that
    does not read before the server gives up on that connection.
    ``replay_chunk`` is the longest stored log replayed on the event loop
    (a longer one is replayed on a worker thread), and the most entries a
    page catches up on from another page before it reloads instead.
    ``flood_close`` is how many frames the rate limit may drop within one
    second before the connection is closed (1008): a client that keeps
    sending past its limit costs the server a reply per frame otherwise.
    ``replay_entries_per_second`` and ``replay_burst`` bound the stored
    entries one player's resumes replay (all their pages together,
    :class:`~miau.server.long_logs.ReplayBudgets`): a resume past it waits
    its turn; None turns it off. ``heavy_tokens_per_second`` and
    ``heavy_burst`` make one token bucket for the whole server
    (:class:`HeavyWork`) that every frame costing more than one token (on a
    level of more than :data:`ENTITIES_PER_TOKEN` entities) and every draft
    opened also draws from: it bounds the event-loop time all heavy levels
    together take each second, however many connections (or reconnections)
    ask; None turns it off. ``idle_timeout`` is how long a socket may send
    nothing before it is closed (1001; the page reconnects when it next
    needs the server): keepalive pings answered keep a connection open, not
    a place on the server; None keeps idle sockets.
    ``server_frames_per_second`` and ``server_frames_burst`` bound the
    frames all play sockets together are answered each second
    (:class:`ServerFrames`); the last ``server_frames_reserve`` of it is
    kept for players in good standing; None turns it off.
    ``server_requests_per_second`` and ``server_requests_burst`` bound the
    HTTP requests the whole server answers each second
    (:class:`~miau.server.request_budget.RequestBudget`; keep-alive lets one
    connection send any number); the last ``server_requests_reserve`` of it
    is kept for addresses within their own share
    (``address_requests_per_second``, bursts of ``address_requests_burst``);
    None turns it off. ``server_sockets_per_second`` and
    ``server_sockets_burst`` bound the new WebSockets the whole server
    accepts a second in the same way (the same reserve; each address's own
    share ``address_sockets_per_second``, bursts of
    ``address_sockets_burst``); None turns it off. ``engine_clock`` times each turn and replay
    (the CPU time of the thread that runs it, :mod:`miau.server.costs`),
    whose cost is charged to the rate limit and the heavy budget. ``clock``,
    ``sleep`` and ``engine_clock`` are injectable for tests.
    """

    frames_per_second: float | None = 30.0
    burst: int = 20
    send_timeout: float = 10.0
    replay_chunk: int = 256
    flood_close: int | None = 20
    replay_entries_per_second: float | None = 4096.0
    replay_burst: int = 4096
    heavy_tokens_per_second: float | None = 64.0
    heavy_burst: int = 64
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep
    engine_clock: Callable[[], float] = time.thread_time
    idle_timeout: float | None = 300.0
    server_frames_per_second: float | None = 600.0
    server_frames_burst: int = 600
    server_frames_reserve: float = 0.25
    server_requests_per_second: float | None = 400.0
    server_requests_burst: int = 1200
    server_requests_reserve: float = 0.25
    address_requests_per_second: float = 40.0
    address_requests_burst: int = 120
    server_sockets_per_second: float | None = 100.0
    server_sockets_burst: int = 200
    address_sockets_per_second: float = 4.0
    address_sockets_burst: int = 16


PLAY_LIMITS = ConnectionLimits()
"""The limits for players on the open internet: 30 frames a second, bursts of 20; each player's
resumes replay at most 4,096 stored entries a second (a whole capped log at once); heavy
levels take at most 64 tokens a second of the whole server (about 20 ms of its event loop)."""

UNTHROTTLED = ConnectionLimits(
    frames_per_second=None,
    replay_entries_per_second=None,
    heavy_tokens_per_second=None,
    server_frames_per_second=None,
    server_requests_per_second=None,
    server_sockets_per_second=None,
)
"""No rate limit (scripted clients, tests); the send timeout and replay chunks still hold."""


class TokenBucket:
    """A token bucket: ``burst`` tokens at most, refilled at ``rate`` tokens a second."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """A full bucket."""
        if rate <= 0 or burst < 1:
            raise ValueError("a token bucket needs a positive rate and a burst of at least 1")
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self.tokens = self.burst
        self.last = clock()

    def take(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens (at most the burst) if there are that many; whether there were."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        cost = min(max(cost, 1.0), self.burst)
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def take_above(self, floor: float) -> bool:
        """Take one token if as many as ``floor`` stay afterwards; whether it was taken.

        A floor keeps the last tokens of a shared bucket for those who may
        use them (:class:`ServerFrames`, the request and socket budgets).
        """
        self.settle(0.0)  # refill to now
        if self.tokens - 1.0 >= floor:
            self.tokens -= 1.0
            return True
        return False

    def settle(self, extra: float) -> None:
        """Take ``extra`` more tokens for work already done (into debt), or give some back."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate - extra)
        self.last = now


class HeavyWork:
    """The server's one budget for heavy levels, shared by every play connection.

    A step on a 1,024-entity draft costs the server about 2.5 ms of its
    event loop (the engine's step, the state, its JSON), 8 tokens: a
    connection's own rate limit bounds one connection, but a client that
    opens many connections, or opens a new one each time it is cut off,
    starts each with a full bucket. This bucket is not per connection: all
    heavy frames together get at most ``rate`` tokens a second, so heavy
    levels take a bounded share of the event loop whatever the number of
    sockets. Frames on shipped levels and small drafts (one token) never
    draw from it; opening any draft does (a small one 1 token in the end).
    A flood of heavy drafts delays other drafts, never play on shipped
    levels.
    """

    def __init__(self, limits: ConnectionLimits) -> None:
        """The budget ``limits`` sets (none when its ``heavy_tokens_per_second`` is None)."""
        rate = limits.heavy_tokens_per_second
        self.bucket = None if rate is None else TokenBucket(rate, limits.heavy_burst, limits.clock)

    def take(self, cost: float) -> bool:
        """Take ``cost`` tokens of heavy work if the server has them now; whether it had."""
        return self.bucket is None or self.bucket.take(cost)

    def settle(self, taken: float, cost: float) -> None:
        """The work ``taken`` tokens were taken for cost ``cost`` in the end: charge or refund.

        A draft is loaded before its size is known, so its open takes the
        cost of the largest draft first; a smaller one gets the rest back,
        and a larger one (refused once loaded) leaves the budget in debt.
        """
        if self.bucket is not None:
            self.bucket.settle(cost - taken)


class DropCounter:
    """Counts the frames a rate limit dropped in the current one-second window."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """No drops yet."""
        self.clock = clock
        self.window_start = clock()
        self.in_the_last_second = 0

    def count(self) -> None:
        """One more frame dropped (a new window starts a second after the last one began)."""
        now = self.clock()
        if now - self.window_start >= 1.0:
            self.window_start, self.in_the_last_second = now, 0
        self.in_the_last_second += 1


class ServerFrames:
    """The frames all play connections together are answered each second, with headroom.

    Each connection's own rate limit bounds one socket; a flood from many
    sockets and addresses (garbage, reconnect storms) is bounded here. The
    last ``reserve`` share of the bucket is kept for players in good
    standing (a level open, no frame refused lately): when the flood has
    spent the rest, their frames still pass and the flood's are refused.
    """

    def __init__(self, limits: ConnectionLimits) -> None:
        """The budget ``limits`` sets (none when its ``server_frames_per_second`` is None)."""
        rate = limits.server_frames_per_second
        self.bucket = (
            None if rate is None else TokenBucket(rate, limits.server_frames_burst, limits.clock)
        )
        self.floor = limits.server_frames_reserve * limits.server_frames_burst
        self.refused = 0

    def take(self, in_good_standing: bool) -> bool:
        """Take one frame's place if there is one for a sender of this standing; whether there was."""
        bucket = self.bucket
        if bucket is None:
            return True
        if bucket.take_above(0.0 if in_good_standing else self.floor):
            return True
        self.refused += 1
        return False
