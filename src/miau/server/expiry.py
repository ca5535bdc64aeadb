"""Expiry by age: players idle long enough go with all they hold, full server or not.

A full server already evicts the least recently active idle players' data
to make room (``miau.server.store.sql``). Without expiry, data nobody comes
back for stays until the server fills up, and a flood stored in one day
holds its place until the quotas are reached. :class:`Expiry` sweeps the
store at the server's start and then every :data:`EXPIRY_INTERVAL` seconds:
players who stored nothing (no game, move, win or pack) for ``expire_after``
seconds, by the store's clock, are deleted with their games in progress,
wins and library packs, the least recently active first, in small
transactions so that players' own calls keep their turns. A player active
within ``expire_after`` is never touched. The engine sees no clock: the
store's is the one it already keeps players' activity by.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import anyio

from miau.server.store import StoreRunner

__all__ = ["EXPIRY_BATCH", "EXPIRY_INTERVAL", "EXPIRY_MOST_PER_SWEEP", "Expiry"]

EXPIRY_INTERVAL = 15 * 60.0
"""Seconds between two sweeps (the first runs when the server starts)."""

EXPIRY_BATCH = 64
"""Players one transaction of a sweep deletes at most."""

EXPIRY_MOST_PER_SWEEP = 100_000
"""Players one sweep deletes at most; the next sweep goes on where it stopped."""

logger = logging.getLogger(__name__)


class Expiry:
    """Deletes the players idle ``expire_after`` seconds, with all they hold, now and then."""

    def __init__(
        self,
        store: StoreRunner,
        expire_after: float | None,
        *,
        every: float = EXPIRY_INTERVAL,
        batch: int = EXPIRY_BATCH,
        most_per_sweep: int = EXPIRY_MOST_PER_SWEEP,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        """Sweeps of ``store``; ``expire_after`` None or 0 turns expiry off.

        :raises ValueError: when ``expire_after`` is negative or not a number.
        """
        if expire_after is not None and not expire_after >= 0:  # also refuses nan
            raise ValueError(f"expire_after must be zero or more seconds, not {expire_after!r}")
        self.store = store
        self.expire_after = expire_after or None
        self.every = every
        self.batch = max(2, batch)  # one player (the highest game id's) may stay found
        self.most_per_sweep = most_per_sweep
        self.sleep = sleep
        self.expired = 0
        """Players deleted by this server's sweeps so far."""

    @property
    def enabled(self) -> bool:
        """Whether data expires by age at all."""
        return self.expire_after is not None

    async def sweep(self) -> int:
        """Delete the players idle ``expire_after`` seconds (at most a sweep's worth); how many went."""
        if self.expire_after is None:
            return 0
        gone = 0
        looked = 0
        while looked < self.most_per_sweep:
            found, went = await self.store.expire_idle(self.expire_after, self.batch)
            looked += found
            gone += went
            if found < self.batch or went == 0:
                break
        self.expired += gone
        if gone:
            logger.info("expired %d players idle for %g days", gone, self.expire_after / 86_400)
        return gone

    async def run(self) -> None:
        """Sweep now and then every :attr:`every` seconds until cancelled; a failed sweep is logged and tried again later."""
        while True:
            try:
                await self.sweep()
            except Exception:
                logger.exception("expiring idle players failed; the next sweep tries again")
            await self.sleep(self.every)
