"""One rate of HTTP requests for the whole server, with headroom for those within their share.

Each address's allowance of new connections (``serving.ConnectionGate``)
bounds how fast connections open, but a kept-alive connection may send
request after request, and every one costs the event loop a parse, a route
and an answer, whatever its answer is. :class:`RequestBudget` answers at
most ``server_requests_per_second`` requests a second for the whole server
(bursts of ``server_requests_burst``). The last ``server_requests_reserve``
of that bucket is kept for addresses in good standing: those that have not
spent their own share (``address_requests_per_second``, bursts of
``address_requests_burst``, about three loads of the whole client at once)
nor gone past it in the last :data:`STANDING_AFTER` seconds.
So when a flood from a few addresses has spent the rest, a new visitor's
page still loads and a player's requests still pass, while the flood's are
answered 503 with ``Retry-After``. WebSocket frames have their own budget
(:class:`~miau.server.limits.ServerFrames`).

Behind a proxy that shows one address for everyone, every request shares
one address's standing: the reserve then protects nobody in particular, and
the server-wide bound still holds (``miau play --players-per-address 0`` is
the same situation for the quotas).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from miau.server.addresses import refuse_http
from miau.server.limits import ConnectionLimits, TokenBucket
from miau.server.shares import ADDRESSES_REMEMBERED, AddressBuckets, address_key

__all__ = ["BUSY_SENTENCE", "STANDING_AFTER", "RequestBudget"]

STANDING_AFTER: Final = 10.0
"""Seconds an address must keep within its own share after going past it to be in good standing."""

BUSY_SENTENCE: Final = "The server is answering too many requests: try again in a moment."
"""What a request past the server's budget is answered (503, ``Retry-After: 1``)."""


class RequestBudget:
    """ASGI middleware: every HTTP request takes one place in the server's budget, or is refused."""

    def __init__(self, app: ASGIApp, limits: ConnectionLimits) -> None:
        """Guard ``app`` with the budget ``limits`` sets (none when ``server_requests_per_second`` is None)."""
        self.app = app
        rate = limits.server_requests_per_second
        self.bucket = (
            None if rate is None else TokenBucket(rate, limits.server_requests_burst, limits.clock)
        )
        self.floor = limits.server_requests_reserve * limits.server_requests_burst
        self.addresses = AddressBuckets(
            limits.address_requests_per_second * 3600.0,
            limits.address_requests_burst,
            limits.clock,
        )
        self.clock = limits.clock
        self.over: OrderedDict[str, float] = OrderedDict()
        """When each address last went past its own share (the least recently over forgotten first)."""
        self.refused = 0

    def take(self, host: str | None) -> bool:
        """Take one request's place for a request from ``host``; whether there was one.

        The address's own share is charged for every request, answered or
        not, so a flooder stays out of good standing while it floods.
        """
        bucket = self.bucket
        if bucket is None:
            return True
        address = address_key(host)
        now = self.clock()
        if self.addresses.of(address).take():
            since = self.over.get(address)
            in_good_standing = since is None or now - since >= STANDING_AFTER
        else:
            # Past its share: out of standing until it has kept within it for a while,
            # or its refills (a few requests a second) would keep a flood in the reserve.
            in_good_standing = False
            self.over[address] = now
            self.over.move_to_end(address)
            if len(self.over) > ADDRESSES_REMEMBERED:
                self.over.popitem(last=False)
        bucket.settle(0.0)  # refill to now
        floor = 0.0 if in_good_standing else self.floor
        if bucket.tokens - 1.0 >= floor:
            bucket.tokens -= 1.0
            return True
        self.refused += 1
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass an HTTP request on if the budget has a place for it; answer 503 if not."""
        if scope["type"] != "http" or self.bucket is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        if self.take(str(client[0]) if client else None):
            await self.app(scope, receive, send)
            return
        await refuse_http(send, 503, BUSY_SENTENCE, [(b"retry-after", b"1")])
