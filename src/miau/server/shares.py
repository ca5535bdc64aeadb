"""Each address's share of the server-wide quotas: new players and library bytes.

Any well-formed cookie is a player, so a flood of fresh cookies from one
address used to take every place of the server-wide quotas (512 uploads of
1 MiB in 62 s), which then stayed taken until their players were idle long
enough to be evicted. Here each address (an IPv6 address by its /64, which
one host is usually given whole) gets a rate of what it may add:

- new players (a player is new at their first stored game or pack; a
  player already stored is remembered, so their writes cost one indexed
  read the first time only): :data:`NEW_PLAYERS_PER_HOUR`, all of them at
  once at most;
- library bytes (what a save adds to the libraries, the size it takes
  less the size of the pack it replaces): :data:`LIBRARY_BYTES_PER_HOUR`,
  all of them at once at most.

Past a share the write is refused with a sentence that says which share
and how large it is, and only that address is refused: others are served as
before. The counts live in the server process (several processes on one
PostgreSQL each keep their own) and forget the least recently seen
addresses past :data:`ADDRESSES_REMEMBERED`.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from miau.server.limits import TokenBucket
from miau.server.store import StoreRunner

__all__ = [
    "ADDRESSES_REMEMBERED",
    "ADDRESS_SHARE",
    "LIBRARY_BYTES_PER_HOUR",
    "NEW_PLAYERS_PER_HOUR",
    "AddressBuckets",
    "AddressShare",
    "AddressShareError",
    "AddressShares",
    "address_key",
]

NEW_PLAYERS_PER_HOUR: Final = 32.0
"""New players one address may start in an hour (a family or a classroom behind one address
starts a few; a flood of fresh cookies, thousands)."""

LIBRARY_BYTES_PER_HOUR: Final = 8 * 1024 * 1024
"""Bytes one address may add to the libraries in an hour: one player's whole library."""

ADDRESSES_REMEMBERED: Final = 10_000
"""Addresses whose shares are counted at once; the least recently seen are forgotten first."""

PLAYERS_REMEMBERED: Final = 100_000
"""Players known to be stored, remembered so that their writes need no read."""


@dataclass(frozen=True, slots=True)
class AddressShare:
    """How much one address may add to the server-wide quotas; None turns a share off."""

    new_players_per_hour: float | None = NEW_PLAYERS_PER_HOUR
    new_players_burst: int = int(NEW_PLAYERS_PER_HOUR)
    library_bytes_per_hour: float | None = LIBRARY_BYTES_PER_HOUR
    library_bytes_burst: int = LIBRARY_BYTES_PER_HOUR
    clock: Callable[[], float] = time.monotonic


ADDRESS_SHARE = AddressShare()
"""The shares ``miau play`` gives each address (:data:`NEW_PLAYERS_PER_HOUR`, :data:`LIBRARY_BYTES_PER_HOUR`)."""


class AddressShareError(Exception):
    """A write past its address's share: nothing was stored. Its text is the sentence to show."""


def address_key(host: str | None) -> str:
    """The address a share is counted for: an IPv4 address, an IPv6 address's /64, or the host as given."""
    if not host:
        return "?"
    try:
        parsed = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


class AddressBuckets:
    """A token bucket per address, the least recently used forgotten past a bound."""

    def __init__(self, rate_per_hour: float, burst: int, clock: Callable[[], float]) -> None:
        """Buckets of ``burst`` tokens, each refilled at ``rate_per_hour``, read on ``clock``."""
        self.rate = rate_per_hour / 3600.0
        self.burst = max(1, burst)
        self.clock = clock
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def of(self, address: str) -> TokenBucket:
        """The bucket of ``address`` (a full one for an address not seen lately), filled up to now."""
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= ADDRESSES_REMEMBERED:
                self.buckets.popitem(last=False)
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
        self.buckets.move_to_end(address)
        bucket.settle(0.0)  # filled up to now
        return bucket


class AddressShares:
    """Counts what each address adds to the server-wide quotas, and refuses it past its share."""

    def __init__(self, share: AddressShare, store: StoreRunner) -> None:
        """Shares ``share`` of the quotas of ``store``'s database."""
        self.share = share
        self.store = store
        players_rate = share.new_players_per_hour
        bytes_rate = share.library_bytes_per_hour
        self._players = (
            None
            if players_rate is None
            else AddressBuckets(players_rate, share.new_players_burst, share.clock)
        )
        self._bytes = (
            None
            if bytes_rate is None
            else AddressBuckets(bytes_rate, share.library_bytes_burst, share.clock)
        )
        self._known: OrderedDict[str, None] = OrderedDict()
        self.refused = 0
        """Writes refused for being past their address's share (for tests and benchmarks)."""

    async def _is_new(self, player: str) -> bool:
        """Whether ``player`` is not stored yet (a stored one is remembered)."""
        if player in self._known:
            self._known.move_to_end(player)
            return False
        if await self.store.is_player(player):
            self._remember(player)
            return False
        return True

    def _remember(self, player: str) -> None:
        self._known[player] = None
        if len(self._known) > PLAYERS_REMEMBERED:
            self._known.popitem(last=False)

    async def take(self, player: str, host: str | None, library_bytes: int = 0) -> None:
        """Count a write by ``player`` from ``host`` that adds ``library_bytes`` to the libraries.

        Both shares are checked before either is taken: a refused write
        costs its address nothing.

        :raises AddressShareError: past the address's share of new players
            or of library bytes; nothing may be stored then.
        """
        players, size, cost = await self._check(player, host, library_bytes)
        if players is not None:
            players.tokens -= 1.0
        if size is not None:
            size.tokens -= cost
        self._remember(player)

    async def first_look(self, player: str, host: str | None, least_bytes: int) -> None:
        """Refuse early a write that adds at least ``least_bytes`` and cannot fit the share.

        A library save knows its pack's size before it parses the pack, and
        what it adds at least (its size less all the player's library holds,
        the most a replacement can free); a write past its address's share
        is refused before the parse it would cost. Nothing is taken.

        :raises AddressShareError: as :meth:`take` would.
        """
        await self._check(player, host, least_bytes)

    async def _check(
        self, player: str, host: str | None, library_bytes: int
    ) -> tuple[TokenBucket | None, TokenBucket | None, float]:
        """The buckets a write would take from and its byte cost, or why it may not.

        :raises AddressShareError: past the address's share of new players
            or of library bytes.
        """
        address = address_key(host)
        new = self._players is not None and await self._is_new(player)
        players = None if not new or self._players is None else self._players.of(address)
        if players is not None and players.tokens < 1.0:
            self.refused += 1
            raise AddressShareError(
                "Your network has started as many new players on this server lately as it may "
                f"({self.share.new_players_per_hour:g} an hour); nothing was stored. Try again "
                "later, or from the browser you played in before."
            )
        size = None
        cost = 0.0
        if library_bytes > 0 and self._bytes is not None:
            size = self._bytes.of(address)
            cost = min(float(library_bytes), size.burst)
            if size.tokens < cost:
                self.refused += 1
                per_hour = self.share.library_bytes_per_hour or 0
                raise AddressShareError(
                    "Your network has added as much to this server's libraries lately as it "
                    f"may ({per_hour / 1048576:g} MiB an hour); this pack was not saved. Try "
                    "again later."
                )
        return players, size, cost
