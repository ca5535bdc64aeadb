"""Which addresses the server answers for, and which pages may open its WebSockets.

Two checks run before anything else sees a request (``AddressGuard``):

- **Host** (DNS rebinding): a page of ``attacker.example`` whose name is made
  to resolve to 127.0.0.1 reaches the server with ``Host: attacker.example``;
  only the addresses the server serves (:class:`ServedAddresses`) are
  answered. Anything else gets 421 (HTTP) or a WebSocket closed with 1008.
- **Origin** (cross-site WebSockets): a handshake whose ``Origin`` is not
  exactly this server's, scheme, host and port, is accepted and closed at
  once with code 1008 (policy violation), as ``docs/protocol.md`` says;
  a handshake without ``Origin`` comes from no browser page and is served.

Neither check sets the player cookie: the guard answers before the cookie
middleware runs.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["AddressGuard", "ServedAddresses", "same_origin", "split_host"]

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
_LOOPBACK_NAMES = ("localhost",)


def split_host(value: str, default_port: int | None) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (lowercase; IPv6 in brackets) and port; None when malformed."""
    try:
        parts = urlsplit(f"//{value.strip()}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query:
        return None
    if ":" in name:
        name = f"[{name}]"
    return name.lower(), port if port is not None else default_port


def _ip_literal(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class ServedAddresses:
    """The addresses a ``Host`` header may name.

    ``bound`` is the address the server listens on: a loopback address
    serves the loopback addresses and ``localhost``; a wildcard (``0.0.0.0``,
    ``::``) any address literal; another address that address. ``names``
    are further host names to answer for (a TLS proxy's name), at any port.
    ``port`` is the port the server listens on: an address literal or
    ``localhost`` must name it.
    """

    bound: str
    port: int
    names: frozenset[str] = frozenset()

    @classmethod
    def of(cls, bound: str, port: int, names: Iterable[str] = ()) -> ServedAddresses:
        """The addresses of a server listening on ``bound``:``port``, also answering ``names``."""
        return cls(bound, port, frozenset(name.strip().lower() for name in names if name.strip()))

    def allows(self, host: str | None) -> bool:
        """Whether a request whose ``Host`` header is ``host`` is for this server."""
        if host is None:
            return False
        split = split_host(host, None)
        if split is None:
            return False
        name, port = split
        if name in self.names:
            return True
        if port != self.port:
            return False
        bound = _ip_literal(self.bound)
        address = _ip_literal(name)
        if bound is None or bound.is_unspecified:
            # Bound to every address (or to a name): any address literal reaches it.
            return address is not None or (name in _LOOPBACK_NAMES)
        if bound.is_loopback:
            return name in _LOOPBACK_NAMES or (address is not None and address.is_loopback)
        return address == bound


def same_origin(scope: Scope) -> bool:
    """Whether a WebSocket handshake comes from a page of this server, or from no page at all.

    The ``Origin`` must be this server's exactly: the page's scheme for the
    socket's (``http`` for ``ws``, ``https`` for ``wss``), the ``Host``'s name
    and port (default ports filled in on both sides).
    """
    headers = dict(scope.get("headers", []))
    origin = headers.get(b"origin")
    if origin is None:
        return True
    host = headers.get(b"host")
    if host is None:
        return False
    page_scheme = _PAGE_SCHEMES.get(str(scope.get("scheme", "ws")), "http")
    try:
        parts = urlsplit(origin.decode("latin-1"))
    except ValueError:
        return False
    if parts.scheme != page_scheme or parts.path or parts.username is not None:
        return False
    ours = split_host(host.decode("latin-1"), _DEFAULT_PORTS[page_scheme])
    theirs = split_host(parts.netloc, _DEFAULT_PORTS[page_scheme])
    return ours is not None and theirs is not None and ours == theirs


class AddressGuard:
    """Refuses requests for other hosts and WebSocket handshakes from other origins."""

    def __init__(self, app: ASGIApp, served: ServedAddresses | None = None) -> None:
        """Guard ``app``; ``served`` None answers any ``Host`` (tests, embedding).

        The Origin check stands either way.
        """
        self.app = app
        self.served = served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it here."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = dict(scope.get("headers", [])).get(b"host")
        if self.served is not None and not self.served.allows(
            None if host is None else host.decode("latin-1")
        ):
            shown = "none" if host is None else repr(host.decode("latin-1")[:80])
            sentence = f"This server does not answer for the host {shown}."
            if kind == "http":
                await refuse_http(send, 421, sentence)
            else:
                await _refuse_socket(receive, send, "unknown host")
            return
        if kind == "websocket" and not same_origin(scope):
            # Another site's page must not drive this player's games.
            await _refuse_socket(receive, send, "cross-origin")
            return
        await self.app(scope, receive, send)


async def refuse_http(
    send: Send, status: int, sentence: str, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Answer an HTTP request here with ``status`` and ``{"error": sentence}``, never cached."""
    body = json.dumps({"error": sentence}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _refuse_socket(receive: Receive, send: Send, reason: str) -> None:
    """Complete the handshake and close at once with 1008, so the page sees why.

    A handshake refused outright (HTTP 403) reaches a page as code 1006 with
    no reason; the close frame carries both.
    """
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": 1008, "reason": reason})
