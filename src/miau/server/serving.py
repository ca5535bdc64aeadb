"""How the game server runs on uvicorn: the transport settings every way of serving it shares.

Besides uvicorn's own settings, every connection passes a :class:`ConnectionGate`
(``docs/security.md``, "Connections"):

- a connection may hold at most ``per_address`` connections from its peer's
  address and the server at most ``total`` in all; one past the address's
  cap is closed as soon as it is accepted, so the file descriptors of the
  process never run out and the connections already open (players already
  playing) keep being served. A full server is shared fairly: a newcomer
  from an address holding fewer connections than the biggest holder takes
  the place of that holder's longest-idle connection (idle: no request or
  WebSocket message from it for the longest), so 64 idle sockets from each
  of 8 addresses no longer lock every new visitor out;
- a request's head (request line and headers) may hold at most
  :data:`MAX_HEAD_BYTES` bytes and :data:`MAX_HEADER_LINES` lines: past
  either it is answered 431 and the socket closed, before it is parsed;
- an address may open ``new_burst`` connections at once (``per_address``,
  at least 64) and then a quarter of that a second (16 by default), however
  many it has closed meanwhile: a client cut off for flooding
  that reconnects at once, again and again, would otherwise start every new
  connection with a full rate limit; one past it is closed as soon as it
  is accepted, before anything of it is read;
- a request must arrive whole (request line and headers) within
  ``request_timeout`` seconds of its first byte, or of the connection's
  opening: a socket that sends nothing, or half a request, is closed then;
- its body must arrive whole within ``body_timeout`` seconds of its
  headers: past it, the request is answered 408 and the socket closed,
  so a body trickled a byte at a time holds no connection for long;
- a WebSocket whose application has finished while the client has stopped
  reading is aborted (its unsent buffer dropped) rather than closed
  politely, which would wait for the buffer to drain, that is for ever.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import h11
import uvicorn
from starlette.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets import websockets_sansio_impl
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = [
    "BODY_TIMEOUT",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_ADDRESS",
    "MAX_HEADER_LINES",
    "MAX_HEAD_BYTES",
    "MAX_WEBSOCKET_FRAME",
    "REQUEST_TIMEOUT",
    "ConnectionGate",
    "uvicorn_config",
]

MAX_WEBSOCKET_FRAME: Final = 1024 * 1024
"""Frames up to this size reach the game, which answers anything over 64 KiB with an error;
larger ones make uvicorn close the connection."""

MAX_CONNECTIONS_PER_ADDRESS: Final = 64
"""Open connections from one address: a browser holds about six plus one socket per tab."""

MAX_CONNECTIONS: Final = 512
"""Open connections in all (fewer when the process may open fewer files: see ConnectionGate)."""

MAX_HEAD_BYTES: Final = 16 * 1024
"""The largest request head (request line and headers) read: a browser's is about 1 KiB."""

MAX_HEADER_LINES: Final = 100
"""The most header lines a request may have (10,000 of them cost 40 requests' time)."""

_HEADERS_TOO_LARGE: Final = json.dumps(
    {
        "error": f"The request's headers are too large: at most {MAX_HEADER_LINES} lines "
        f"and {MAX_HEAD_BYTES // 1024} KiB."
    }
).encode()
_HEADERS_TOO_LARGE_RESPONSE: Final = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
    b"content-length: "
    + str(len(_HEADERS_TOO_LARGE)).encode()
    + b"\r\nconnection: close\r\n\r\n"
    + _HEADERS_TOO_LARGE
)

REQUEST_TIMEOUT: Final = 10.0
"""Seconds a request may take to arrive whole, from its first byte or the connection's opening."""

BODY_TIMEOUT: Final = 30.0
"""Seconds a request's body may take to arrive whole, from its headers: the largest body
taken (an upload of 1.5 MiB) at 50 KiB/s."""

_BODY_TIMED_OUT: Final = json.dumps(
    {"error": "The request's body did not arrive in time; send it again."}
).encode()
_BODY_TIMED_OUT_RESPONSE: Final = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
    b"content-length: "
    + str(len(_BODY_TIMED_OUT)).encode()
    + b"\r\nconnection: close\r\n\r\n"
    + _BODY_TIMED_OUT
)
"""The answer to a request whose body is late (written straight to the socket, which then closes)."""

NEW_CONNECTIONS_REFILL: Final = 4.0
"""Seconds in which an address's allowance of new connections (``per_address``) refills."""

_ADDRESSES_REMEMBERED: Final = 4096
"""Past this many addresses with a new-connection allowance, those whose allowance is whole
again and that hold no connection are forgotten (their allowance would be the same anew)."""

_SPARE_FILES: Final = 64
"""File descriptors kept free for the database, the studio's workers and the web client's files."""


def _open_file_limit() -> int:
    """The soft limit on this process's open files."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


@dataclass(slots=True)
class ConnectionGate:
    """Counts the open connections, by peer address and in all, and admits or refuses new ones.

    ``total`` is further bounded by the open-file limit (less a spare
    margin), so that accepting never fails with "Too many open files".
    ``refused`` counts the connections closed at once for being past a cap
    (open connections, or new ones: ``new_burst`` at once from one address,
    refilled over :data:`NEW_CONNECTIONS_REFILL` seconds), and
    ``timed_out`` those closed for a request (head or body) that did not
    arrive in time, ``evicted`` the idle connections closed to make room
    for a newcomer on a full server, ``too_large`` the requests whose head
    was past its caps (for tests, benchmarks and diagnostics). ``clock`` is
    injectable for tests.
    """

    per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    total: int = MAX_CONNECTIONS
    request_timeout: float = REQUEST_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    new_burst: int = 0
    """New connections one address may open at once (0: ``per_address``, at least 64)."""
    clock: Callable[[], float] = time.monotonic
    refused: int = 0
    timed_out: int = 0
    evicted: int = 0
    too_large: int = 0
    _by_address: Counter[str] = field(default_factory=Counter, init=False)
    _open: dict[int, str] = field(default_factory=dict, init=False)
    _transports: dict[int, asyncio.BaseTransport] = field(default_factory=dict, init=False)
    _active: dict[int, float] = field(default_factory=dict, init=False)
    """Per open connection: when it last sent a request or a WebSocket message."""
    _allowance: dict[str, tuple[float, float]] = field(default_factory=dict, init=False)
    """Per address: new connections it may still open, and when that was counted."""

    def __post_init__(self) -> None:
        """Keep ``total`` under the process's open-file limit."""
        if (
            self.per_address < 1
            or self.total < 1
            or self.request_timeout <= 0
            or self.body_timeout <= 0
        ):
            raise ValueError("a connection gate needs positive caps and positive timeouts")
        self.total = max(1, min(self.total, _open_file_limit() - _SPARE_FILES))
        if self.new_burst < 1:
            self.new_burst = max(self.per_address, MAX_CONNECTIONS_PER_ADDRESS)

    @property
    def open_connections(self) -> int:
        """How many admitted connections are open now."""
        return len(self._open)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in; False (and nothing counted) when it is past a cap."""
        key = id(transport)
        if key in self._open:
            return True  # a connection upgraded to a WebSocket is still the same one
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if self._by_address[address] >= self.per_address:
            self.refused += 1
            return False
        if len(self._open) >= self.total and not self._make_room_for(address):
            self.refused += 1
            return False
        if not self._take_new(address):
            self.refused += 1
            return False
        self._open[key] = address
        self._transports[key] = transport
        self._active[key] = self.clock()
        self._by_address[address] += 1
        return True

    def touch(self, transport: asyncio.BaseTransport) -> None:
        """Note that a connection sent a request or a message (it is not idle)."""
        key = id(transport)
        if key in self._active:
            self._active[key] = self.clock()

    def _make_room_for(self, address: str) -> bool:
        """Close the longest-idle connection of the biggest holder, if it holds more than ``address``.

        Whether a place was freed. An address holding as many connections as
        any other gets no place taken for it: the server is then shared.
        """
        holder, held = max(self._by_address.items(), key=lambda item: item[1])
        if held <= self._by_address[address] + 1:
            return False
        victim = min(
            (key for key, owner in self._open.items() if owner == holder),
            key=lambda key: self._active[key],
        )
        transport = self._transports[victim]
        self.release(transport)
        self.evicted += 1
        # Aborted, not closed: an idle holder's unsent buffer is not worth waiting for.
        abort: Callable[[], object] | None = getattr(transport, "abort", None)
        (abort or transport.close)()
        return True

    def _take_new(self, address: str) -> bool:
        """Count one new connection against ``address``'s allowance; whether it had one."""
        now = self.clock()
        rate = self.new_burst / NEW_CONNECTIONS_REFILL
        if len(self._allowance) >= _ADDRESSES_REMEMBERED:
            self._forget_whole_allowances(now, rate)
        left, counted = self._allowance.get(address, (float(self.new_burst), now))
        left = min(float(self.new_burst), left + (now - counted) * rate)
        if left < 1:
            self._allowance[address] = (left, now)
            return False
        self._allowance[address] = (left - 1, now)
        return True

    def _forget_whole_allowances(self, now: float, rate: float) -> None:
        """Drop the addresses that hold no connection and whose allowance is whole again."""
        for address, (left, counted) in list(self._allowance.items()):
            whole = left + (now - counted) * rate >= self.new_burst
            if whole and address not in self._by_address:
                del self._allowance[address]

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Count a closed connection out (once; a connection never admitted is ignored)."""
        address = self._open.pop(id(transport), None)
        if address is None:
            return
        self._transports.pop(id(transport), None)
        self._active.pop(id(transport), None)
        self._by_address[address] -= 1
        if self._by_address[address] <= 0:
            del self._by_address[address]


class _GatedHttpProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol behind a gate, with a deadline for each request to arrive."""

    gate: ConnectionGate

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._admitted = False
        self._upgraded = False
        self._head_bytes = 0
        self._head_lines = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Admit the connection or close it at once; start the first request's deadline."""
        super().connection_made(transport)
        if not self.gate.admit(transport):
            transport.abort()
            return
        self._admitted = True
        self._start_request_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection out."""
        self._stop_request_timer()
        self._stop_body_timer()
        if self._admitted:
            self.gate.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Read; a request still incomplete keeps the deadline it got at its first byte, a body the one it got at its headers."""
        if not self._upgraded and self._head_too_large(data):
            self.gate.too_large += 1
            self.transport.write(_HEADERS_TOO_LARGE_RESPONSE)
            self.transport.close()
            return
        if self._admitted:
            self.gate.touch(self.transport)
        super().data_received(data)
        if self._upgraded or self.transport.is_closing():
            return
        if self._awaiting_request():
            self._start_request_timer()
            return
        self._stop_request_timer()
        if self._body_arriving():
            self._start_body_timer()
        else:
            self._stop_body_timer()

    def handle_websocket_upgrade(self, event: Any) -> None:
        """The connection becomes a WebSocket, which has its own keepalive: no deadline now."""
        self._stop_request_timer()
        self._stop_body_timer()
        self._upgraded = True
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        """Hand over to uvicorn's keep-alive timeout until the next request's first byte."""
        self._stop_request_timer()
        self._stop_body_timer()
        super().on_response_complete()

    def _head_too_large(self, data: bytes) -> bool:
        """Count a request head's bytes and lines as they arrive; whether it passed a cap.

        Counted before the parser sees the bytes: parsing 10,000 headers was
        the cost to avoid. A head ends at its blank line; the count starts
        again with the next request.
        """
        if not self._awaiting_request():
            return False
        end = data.find(b"\r\n\r\n")
        head = data if end < 0 else data[:end]
        self._head_bytes += len(head)
        self._head_lines += head.count(b"\n")
        too_large = self._head_bytes > MAX_HEAD_BYTES or self._head_lines > MAX_HEADER_LINES
        if end >= 0:
            self._head_bytes = self._head_lines = 0
        return too_large

    def _awaiting_request(self) -> bool:
        """Whether no request is being answered: the next one has not arrived whole yet."""
        return self.cycle is None or self.cycle.response_complete

    def _start_request_timer(self) -> None:
        if self._request_timer is None:
            self._request_timer = self.loop.call_later(
                self.gate.request_timeout, self._request_timed_out
            )

    def _stop_request_timer(self) -> None:
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _body_arriving(self) -> bool:
        """Whether a request's headers are in and its body is not, its answer not yet sent."""
        return (
            self.cycle is not None
            and not self.cycle.response_complete
            and self.conn.their_state is h11.SEND_BODY
        )

    def _start_body_timer(self) -> None:
        if self._body_timer is None:
            self._body_timer = self.loop.call_later(self.gate.body_timeout, self._body_timed_out)

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_timed_out(self) -> None:
        self._body_timer = None
        if not self._body_arriving() or self.transport.is_closing():
            return
        self.gate.timed_out += 1
        if self.cycle is not None and not self.cycle.response_started:
            self.transport.write(_BODY_TIMED_OUT_RESPONSE)
        # Closing (not aborting) sends the answer first; the application, still reading the
        # body, is told the client went away.
        self.transport.close()

    def _request_timed_out(self) -> None:
        self._request_timer = None
        if self._awaiting_request() and not self.transport.is_closing():
            self.gate.timed_out += 1
            self.transport.abort()


class _GatedWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, counted by the gate, aborting a connection stuck on writes."""

    gate: ConnectionGate

    def connection_lost(self, exc: Exception | None) -> None:
        """Count the connection out."""
        self.gate.release(self.transport)
        super().connection_lost(exc)

    def send_receive_event_to_app(self) -> None:
        """Hand a whole message to the application; the connection is not idle (pings are)."""
        self.gate.touch(self.transport)
        super().send_receive_event_to_app()

    async def run_asgi(self) -> None:
        """Run the application; if it ended while the client was not reading, abort."""
        await super().run_asgi()
        if not self.writable.is_set() and not self.disconnected:
            # A polite close waits for the unsent buffer to drain, which a client that
            # stopped reading never lets happen: drop the buffer and the socket now.
            self.transport.abort()


def uvicorn_config(
    app: ASGIApp, *, gate: ConnectionGate | None = None, **options: Any
) -> uvicorn.Config:
    """A uvicorn configuration for ``app`` with Miau's transport settings; ``options`` add to it.

    ``gate`` bounds the connections (default: a :class:`ConnectionGate` with
    the standard caps); the configuration's protocols count through it.
    """
    keep_pings_off_the_global_random()
    gate = gate if gate is not None else ConnectionGate()
    http = type("MiauHttpProtocol", (_GatedHttpProtocol,), {"gate": gate})
    ws = type("MiauWebSocketProtocol", (_GatedWebSocketProtocol,), {"gate": gate})
    return uvicorn.Config(
        app, log_level="warning", ws_max_size=MAX_WEBSOCKET_FRAME, http=http, ws=ws, **options
    )


def keep_pings_off_the_global_random() -> None:
    """Give uvicorn's WebSocket keepalive a random generator of its own.

    uvicorn draws each keepalive ping's 4-byte payload from the process's
    global ``random`` module, so every open WebSocket shifted the global
    random state of whatever shares the server's process once per ping
    interval: a test run's hypothesis strategies, drawing in the main thread
    while a test server pinged a browser in another, failed with "Do not use
    the random module inside strategies". The payload only tells pings
    apart, so any generator serves; none of the server's own code draws from
    the global one either.
    """
    if not isinstance(getattr(websockets_sansio_impl, "random", None), random.Random):
        websockets_sansio_impl.random = random.Random()  # type: ignore[attr-defined,assignment]
