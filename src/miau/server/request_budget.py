"""One rate of HTTP requests for the whole server, with headroom for those within their share.

Each address's allowance of new connections (``serving.ConnectionGate``)
bounds how fast connections open, but a kept-alive connection may send
request after request, and every one costs the event loop a parse, a route
and an answer, whatever its answer is. :class:`RequestBudget` answers at
most ``server_requests_per_second`` requests a second for the whole server
(bursts of ``server_requests_burst``). The last ``server_requests_reserve``
of that bucket is kept for addresses in good standing: those that have not
spent their own share (``address_requests_per_second``, bursts of
``address_requests_burst``, about one load of the whole client at once)
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
from collections.abc import Callable
from typing import Final

from starlette.types import ASGIApp, Receive, Scope, Send

from miau.server.addresses import refuse_http
from miau.server.limits import ConnectionLimits, TokenBucket
from miau.server.shares import ADDRESSES_REMEMBERED, AddressBuckets, address_key

__all__ = [
    "BUSY_SENTENCE",
    "SOCKETS_BUSY_REASON",
    "STANDING_AFTER",
    "RequestBudget",
    "ServerBudget",
]

STANDING_AFTER: Final = 10.0
"""Seconds an address must keep within its own share after going past it to be in good standing."""

BUSY_SENTENCE: Final = "The server is answering too many requests: try again in a moment."
"""What a request past the server's budget is answered (503, ``Retry-After: 1``)."""

SOCKETS_BUSY_REASON: Final = "server busy: try again"
"""Why a WebSocket past the server's budget is refused (code 1013, "try again later"; a
browser sees the handshake fail, and the page reconnects with its back-off)."""


class ServerBudget:
    """A server-wide token bucket whose last share is kept for addresses in good standing.

    An address is in good standing while it keeps within its own share
    (a bucket per address) and has not gone past it for
    :data:`STANDING_AFTER` seconds.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        reserve: float,
        address_rate: float,
        address_burst: int,
        clock: Callable[[], float],
    ) -> None:
        """``burst`` places refilled at ``rate`` a second, the last ``reserve`` of them kept."""
        self.bucket = TokenBucket(rate, burst, clock)
        self.floor = reserve * burst
        self.addresses = AddressBuckets(address_rate * 3600.0, address_burst, clock)
        self.clock = clock
        self.over: OrderedDict[str, float] = OrderedDict()
        """When each address last went past its own share (the least recently over forgotten first)."""
        self.refused = 0

    def take(self, host: str | None) -> bool:
        """Take one place for ``host``; whether there was one.

        The address's own share is charged for every attempt, answered or
        not, so a flooder stays out of good standing while it floods.
        """
        address = address_key(host)
        now = self.clock()
        if self.addresses.of(address).take():
            since = self.over.get(address)
            in_good_standing = since is None or now - since >= STANDING_AFTER
        else:
            # Past its share: out of standing until it has kept within it for a while,
            # or its refills (a few a second) would keep a flood in the reserve.
            in_good_standing = False
            self.over[address] = now
            self.over.move_to_end(address)
            if len(self.over) > ADDRESSES_REMEMBERED:
                self.over.popitem(last=False)
        if self.bucket.take_above(0.0 if in_good_standing else self.floor):
            return True
        self.refused += 1
        return False


class RequestBudget:
    """ASGI middleware: every HTTP request and every new WebSocket takes a place, or is refused.

    Requests and sockets have a budget each (:class:`ServerBudget`): a new
    WebSocket costs a handshake, a session and usually a level opened,
    several times a request, so a storm of reconnecting sockets is bounded
    apart.
    """

    def __init__(self, app: ASGIApp, limits: ConnectionLimits) -> None:
        """Guard ``app`` with the budgets ``limits`` sets (each None when its rate is None)."""
        self.app = app
        requests, sockets = limits.server_requests_per_second, limits.server_sockets_per_second
        self.requests = (
            None
            if requests is None
            else ServerBudget(
                requests,
                limits.server_requests_burst,
                limits.server_requests_reserve,
                limits.address_requests_per_second,
                limits.address_requests_burst,
                limits.clock,
            )
        )
        self.sockets = (
            None
            if sockets is None
            else ServerBudget(
                sockets,
                limits.server_sockets_burst,
                limits.server_requests_reserve,
                limits.address_sockets_per_second,
                limits.address_sockets_burst,
                limits.clock,
            )
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass a request or a socket on if its budget has a place; refuse it here if not."""
        kind = scope["type"]
        budget = self.requests if kind == "http" else self.sockets if kind == "websocket" else None
        if budget is None:
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        if budget.take(str(client[0]) if client else None):
            await self.app(scope, receive, send)
        elif kind == "http":
            await refuse_http(send, 503, BUSY_SENTENCE, [(b"retry-after", b"1")])
        else:
            # Refused before the handshake completes (HTTP 403): the cheapest answer, and a
            # page that never connected backs off further before it tries again.
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1013, "reason": SOCKETS_BUSY_REASON})
