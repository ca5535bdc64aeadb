"""Store calls on worker threads, so a commit never blocks the server's event loop."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, TypeVarTuple

from miau.server.store.protocol import Store
from miau.server.store.records import (
    CallOutcome,
    LevelProgress,
    LibraryBounds,
    LibraryEntry,
    LibraryPack,
    LibraryUsage,
    LogEntry,
    RoomCheck,
    StoredGame,
)

__all__ = ["StoreRunner"]

Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")


class StoreRunner:
    """Runs store calls on its own worker threads so commits never block the event loop.

    One call at a time, unless the store serves several at once (a pool of
    connections) and says how many in a ``concurrent_calls`` attribute.

    The workers take calls from a queue back to back and hand each result to
    the caller's event loop; the loop is not a link in the chain from one
    call to the next. A store with a ``run_batch`` method (SQLite) gets the
    calls that queued up meanwhile in one batch, committed together. (With a thread hop per call gated by the loop, as
    ``anyio.to_thread`` with a capacity limiter does, a busy loop throttled
    a serial store to about 1000 calls a second whatever the disk did.)
    Workers start on demand and stop after a second without work.
    """

    IDLE_SECONDS = 1.0
    """How long a worker waits for a call before it stops."""

    MAX_BATCH = 64
    """The most calls handed to a store's ``run_batch`` at once."""

    def __init__(self, store: Store) -> None:
        """Serve calls to ``store``."""
        self.store = store
        self.concurrent_calls: int = max(1, int(getattr(store, "concurrent_calls", 1)))
        self._calls: queue.SimpleQueue[_PendingCall] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._workers = 0
        self._idle = 0

    async def run(self, call: Callable[[*Arguments], Result], *args: *Arguments) -> Result:
        """``call(*args)`` on a worker thread; its result (or its exception)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Result] = loop.create_future()
        self._calls.put(_PendingCall(partial(call, *args), loop, future))
        with self._lock:
            if self._idle == 0 and self._workers < self.concurrent_calls:
                self._workers += 1
                threading.Thread(target=self._work, name="miau-store", daemon=True).start()
        return await future

    # --- the store's methods, each awaited on a worker ----------------------------------------

    async def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new."""
        await self.run(self.store.ensure_player, token)

    async def is_player(self, token: str) -> bool:
        """Whether the player ``token`` is stored."""
        return await self.run(self.store.is_player, token)

    async def current_game(
        self, player: str, pack: str, level: str, at_most: int | None = None
    ) -> StoredGame | None:
        """The player's unfinished game on this level, with (the start of) its log, or None."""
        return await self.run(self.store.current_game, player, pack, level, at_most)

    async def game_tail(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        since: int,
        at_most: int | None = None,
    ) -> tuple[LogEntry, ...] | None:
        """Entries ``since`` on of the game, if it is still the unfinished one (see :class:`Store`)."""
        return await self.run(self.store.game_tail, player, pack, level, game_id, since, at_most)

    async def start_game(
        self,
        player: str,
        pack: str,
        level: str,
        intents: Sequence[LogEntry] = (),
        *,
        replace: bool = False,
    ) -> int:
        """Start a game on this level with the log ``intents``; its id (see :class:`Store`)."""
        start = partial(self.store.start_game, replace=replace)
        return await self.run(start, player, pack, level, intents)

    async def compact_game(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        length: int,
        intents: Sequence[LogEntry],
    ) -> int | None:
        """Replace a game by an equivalent shorter log, if nothing moved it on (see :class:`Store`)."""
        return await self.run(
            self.store.compact_game, player, pack, level, game_id, length, intents
        )

    async def abandon_game(self, game_id: int, player: str) -> None:
        """Finish and delete a game that cannot be replayed (see :class:`Store`)."""
        await self.run(self.store.abandon_game, game_id, player)

    async def append_intent(self, game_id: int, seq: int, intent: LogEntry) -> None:
        """Append ``intent`` as entry ``seq`` of the game's log (see :class:`Store`)."""
        await self.run(self.store.append_intent, game_id, seq, intent)

    async def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win; the new progress (see :class:`Store`)."""
        return await self.run(self.store.record_win, game_id, player, pack, level, moves, solution)

    async def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id."""
        return await self.run(self.store.progress, player)

    async def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id, without its text."""
        return await self.run(self.store.library_packs, player)

    async def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        return await self.run(self.store.library_pack, player, pack)

    async def save_library_pack(
        self,
        player: str,
        pack: str,
        version: str,
        name: str,
        text: str,
        *,
        replace: bool = True,
        stale_levels: Sequence[str] = (),
        summary: str = "",
        check_room: RoomCheck | None = None,
        bounds: LibraryBounds | None = None,
    ) -> bool:
        """Keep ``text`` as a pack of the player's library; whether it replaced one (see :class:`Store`)."""
        save = partial(
            self.store.save_library_pack,
            replace=replace,
            stale_levels=stale_levels,
            summary=summary,
            check_room=check_room,
            bounds=bounds,
        )
        return await self.run(save, player, pack, version, name, text)

    async def set_library_summary(
        self, player: str, pack: str, digest: str, summary: str, size: int
    ) -> None:
        """Keep the summary of a pack saved before summaries were (see :class:`Store`)."""
        await self.run(self.store.set_library_summary, player, pack, digest, summary, size)

    async def library_usage(self, player: str) -> LibraryUsage:
        """What the player's library and all libraries hold (see :class:`Store`)."""
        return await self.run(self.store.library_usage, player)

    async def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        return await self.run(self.store.delete_library_pack, player, pack)

    async def expire_idle(self, idle_for: float, at_most: int = 64) -> tuple[int, int]:
        """Delete up to ``at_most`` players idle ``idle_for`` seconds, with all they hold (see :class:`Store`)."""
        return await self.run(self.store.expire_idle, idle_for, at_most)

    def _work(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            try:
                pending = self._calls.get(timeout=self.IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    self._idle -= 1
                    # A call queued after the timeout but before this lock saw this worker
                    # idle and started none: serve it.
                    if self._calls.empty():
                        self._workers -= 1
                        return
                continue
            with self._lock:
                self._idle -= 1
            run_batch = getattr(self.store, "run_batch", None)
            if run_batch is None:
                pending.run()
                continue
            # Everything queued while the last commit was being flushed goes in the next one.
            batch = [pending]
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self._calls.get_nowait())
                except queue.Empty:
                    break
            try:
                outcomes: list[CallOutcome] = run_batch([queued.call for queued in batch])
            except Exception as error:
                outcomes = [CallOutcome(None, error)] * len(batch)
            for queued, outcome in zip(batch, outcomes, strict=True):
                queued.settle(outcome.result, outcome.error)


@dataclass(frozen=True, slots=True)
class _PendingCall:
    """A store call waiting for a worker, and where its result goes."""

    call: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]

    def run(self) -> None:
        """Make the call and settle the future with its outcome."""
        try:
            result, error = self.call(), None
        except Exception as raised:
            result, error = None, raised
        self.settle(result, error)

    def settle(self, result: Any, error: Exception | None) -> None:
        """Hand the outcome to the caller's loop (unless the caller gave up)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
            self.loop.call_soon_threadsafe(_settle, self.future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: Exception | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
