"""Over-long stored logs: shortened once per stored game, in a process of their own.

Every log the server stores is compacted before it reaches ``COMPACT_AT``
entries (``miau.server.session``), so a resume replays at most that many.
A database written before the cap, though, may hold games of 50,000 entries
and more. Replaying one takes the best part of a second of pure Python; on a
thread of the server it holds the interpreter lock, so every other player's
replies wait behind it, and ten pages opening it at once replayed it ten
times (``docs/security.md``, "Play connections").

Here such a log is met three ways:

- :class:`LongLogs` gives pages of one player opening one level at once a
  single read of the stored game (a single flight): an over-long log is
  read, shortened and stored short once, and the pages that asked
  meanwhile wait for that one result instead of starting their own.
- :class:`LogShortenerProcess` does the shortening in one spawned process
  (address space capped, run at a lower priority), so the server's event
  loop and its threads never replay the long log: they send its letters
  down a pipe and get back the short log (at most ``UNDO_KEPT`` + 1
  entries), which each page then replays like any stored log.
- :class:`ReplayBudgets` bounds the entries each player's resumes replay
  a second, so that even resumes of logs under the cap, again and again,
  take a bounded share of the server.

``miau.server.replays.shorten_on_a_thread`` does the same work on a worker
thread of the server; it is what a ``PlaySession`` made without a
:class:`LongLogs` uses (tests, scripts), never ``miau play``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, NamedTuple, Protocol

from miau.packs import PackLevel
from miau.server.helper_process import HelperProcess, HelperProcessStopped
from miau.server.store import LogEntry, StoredGame

__all__ = [
    "SHORTENER_MEMORY_BYTES",
    "GameKey",
    "LogShortener",
    "LogShortenerProcess",
    "LongLogs",
    "ReplayBudgets",
    "StoredForPlay",
]

SHORTENER_MEMORY_BYTES = 2 * 1024**3
"""The address space of the shortener process (a 50,000-entry replay peaked at 66 MiB resident)."""

SHORTENER_NICENESS = 5
"""How much lower than the server the shortener runs: players' turns come first."""

GameKey = tuple[str, str, str]
"""A player's stored game on a level: player, pack, level."""


class StoredForPlay(NamedTuple):
    """What one read of a player's stored game on a level gives every page that waited on it.

    ``game`` is the stored game (its log short, once an over-long one was
    shortened), or None when there is none; ``set_aside`` says that there
    was one that could not be replayed, and was deleted.
    """

    game: StoredGame | None
    set_aside: bool = False


ShortenLog = Callable[[PackLevel, Sequence[LogEntry], int], list[LogEntry] | None]
"""``miau.play.log.shortened_log``: what the shortener process runs (given by the app, not
imported: the replays module imports this one)."""


class LogShortener(Protocol):
    """Replays a log and returns a shorter one that replays to the same game (``shortened_log``)."""

    def __call__(
        self, level: PackLevel, intents: Sequence[LogEntry], undo_kept: int
    ) -> Awaitable[list[LogEntry] | None]:
        """The short log, or None; raises ``UnreplayableGameError`` for a log that does not replay."""
        ...


class ReplayBudgets:
    """Each player's budget of stored entries replayed by their resumes, all their pages together.

    Even a log under the cap costs a resume tens of milliseconds of replay
    (4,095 entries), on a thread that shares the interpreter lock with the
    event loop; ten pages of one player opening such a game again and again
    took every other player's replies to 100 ms. Each player has a token
    bucket of entries: a resume takes its log's length in tokens (at most
    the burst), and one past the budget waits its turn (it is never refused),
    so one player's resumes take a bounded share of the server. The buckets
    of the :data:`PLAYERS` players seen last are kept; an older one is
    dropped (it was full or nearly, so nothing is lost but its debt).
    """

    PLAYERS = 4096
    """How many players' buckets are kept."""

    def __init__(self) -> None:
        """No player has spent anything yet."""
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def reserve(
        self, player: str, entries: int, per_second: float, burst: float, now: float
    ) -> float:
        """Take ``entries`` from the player's bucket; how many seconds to wait before replaying them.

        The tokens are taken at once (the bucket may go below zero): each
        resume reserves its turn, so resumes waiting together are served in
        the order they came.
        """
        tokens, then = self._buckets.pop(player, (burst, now))
        tokens = min(burst, tokens + max(0.0, now - then) * per_second) - min(entries, burst)
        self._buckets[player] = (tokens, now)
        while len(self._buckets) > self.PLAYERS:
            self._buckets.popitem(last=False)
        return 0.0 if tokens >= 0 else -tokens / per_second


class LongLogs:
    """The server's resume costs: stored games read once for every page, and replay budgets.

    Pages of one player opening one level together share one read of the
    stored game (:meth:`read_once`), and with it one shortening of an
    over-long log (:meth:`shortened`, which ``shorten`` does: under
    ``miau play`` a :class:`LogShortenerProcess`; a session made without a
    server shortens on a worker thread, ``replays.shorten_on_a_thread``).
    ``replays`` counts the logs shortened, for tests and diagnostics;
    ``budgets`` holds each player's replay budget.
    """

    def __init__(self, shorten: LogShortener) -> None:
        """No read under way yet."""
        self.shorten = shorten
        self.replays = 0
        self.budgets = ReplayBudgets()
        """The replay budget of each player (``ConnectionLimits.replay_entries_per_second``)."""
        self._flights: dict[GameKey, asyncio.Future[StoredForPlay]] = {}

    async def read_once(
        self, key: GameKey, read: Callable[[], Awaitable[StoredForPlay]]
    ) -> StoredForPlay:
        """``read()`` of the stored game ``key``, shared by every page that asks while it runs.

        The first caller starts the read; callers for the same key meanwhile
        wait for its result (or its exception). It finishes even if the page
        that started it goes away, so the pages waiting on it are answered.
        """
        flight = self._flights.get(key)
        if flight is None:
            flight = asyncio.ensure_future(read())
            self._flights[key] = flight
            flight.add_done_callback(lambda done: self._land(key, done))
        return await asyncio.shield(flight)

    async def shortened(
        self, level: PackLevel, intents: Sequence[LogEntry], undo_kept: int
    ) -> list[LogEntry] | None:
        """A shorter log replaying to the same game as ``intents`` (``shortened_log``), or None.

        :raises UnreplayableGameError: when the log does not replay.
        """
        self.replays += 1
        return await self.shorten(level, intents, undo_kept)

    def _land(self, key: GameKey, flight: asyncio.Future[StoredForPlay]) -> None:
        if self._flights.get(key) is flight:
            del self._flights[key]
        if not flight.cancelled():
            flight.exception()  # read here, so a flight nobody waits for any more logs nothing

    async def close(self) -> None:
        """Stop the shortener's process, if it has one."""
        closing = getattr(self.shorten, "close", None)
        if closing is not None:
            closing()


class LogShortenerProcess:
    """One spawned process, shared by the server, where over-long logs are replayed and shortened.

    Logs take turns at the process. It starts with the first long log (a
    database written under the cap never needs it). A process that dies (out
    of memory, killed) is replaced for the next log, and the open that held
    it fails with ``server-error``, its stored game untouched; one whose
    server died sees its pipe close and ends.
    """

    def __init__(
        self,
        shorten: ShortenLog,
        unreplayable: type[Exception],
        memory_bytes: int | None = SHORTENER_MEMORY_BYTES,
    ) -> None:
        """No process yet; its address space will be capped at ``memory_bytes``.

        The process runs ``shorten`` (``shortened_log``); ``unreplayable``
        is the error it raises for a log that does not replay, raised here
        again. Both reach the spawned process by their import names.
        """
        self.shorten = shorten
        self.unreplayable = unreplayable
        self.memory_bytes = memory_bytes
        self._helper = HelperProcess(
            _serve_shortening, (shorten, unreplayable, memory_bytes), "miau-log-shortener"
        )

    def pid(self) -> int | None:
        """The process's id while it runs (for tests and diagnostics)."""
        return self._helper.pid()

    async def __call__(
        self, level: PackLevel, intents: Sequence[LogEntry], undo_kept: int
    ) -> list[LogEntry] | None:
        """The short log of ``intents`` on ``level``, made in the process.

        :raises UnreplayableGameError: when the log does not replay.
        :raises RuntimeError: when the process died on it.
        """
        # Letters and the few payloads (restores) pickle far faster than 50,000 objects.
        letters = [entry.letter for entry in intents]
        payloads = {index: entry.payload for index, entry in enumerate(intents) if entry.payload}
        try:
            answer: tuple[str, Any] = await self._helper.ask((level, letters, payloads, undo_kept))
        except HelperProcessStopped:
            raise RuntimeError("the log shortener process stopped on a long log") from None
        kind, value = answer
        if kind == "unreplayable":
            raise self.unreplayable(value)
        if value is None:
            return None
        short_letters, head_payload = value
        return [
            LogEntry(letter, head_payload if index == 0 else None)
            for index, letter in enumerate(short_letters)
        ]

    def close(self) -> None:
        """Kill the process; a later long log starts a new one."""
        self._helper.close()


def _serve_shortening(
    pipe: Connection,
    shorten: ShortenLog,
    unreplayable: type[Exception],
    memory_bytes: int | None,
) -> None:
    """The shortener process: shorten each log sent down ``pipe`` and send back the result."""
    if memory_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    with contextlib.suppress(OSError):
        os.nice(SHORTENER_NICENESS)

    while True:
        try:
            level, letters, payloads, undo_kept = pipe.recv()
        except (EOFError, OSError):
            return  # the server is gone
        intents = [LogEntry(letter, payloads.get(index)) for index, letter in enumerate(letters)]
        try:
            log = shorten(level, intents, undo_kept)
            answer: tuple[str, Any] = (
                "log",
                None
                if log is None
                else ([entry.letter for entry in log], log[0].payload if log else None),
            )
        except unreplayable as problem:
            answer = ("unreplayable", str(problem))
        except MemoryError:
            return  # the server answers that open with an error and starts another process
        try:
            pipe.send(answer)
        except OSError:
            return
