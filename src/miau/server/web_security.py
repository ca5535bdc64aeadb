"""What a browser is told to enforce, and which HTTP writes the server takes.

Two ASGI middlewares, outermost first in :func:`miau.server.app.create_app`:

- :class:`SecurityHeaders` puts :data:`SECURITY_HEADERS` on every HTTP
  response: a Content-Security-Policy without inline script or style
  (the client has none), ``frame-ancestors 'none'`` (no page may frame the
  game: clickjacking), ``X-Content-Type-Options: nosniff`` and
  ``Referrer-Policy: no-referrer``.
- :class:`WriteGuard` takes a write (any method but GET, HEAD and OPTIONS)
  only from this server's own pages: an ``Origin`` that is not this
  server's, or a ``Sec-Fetch-Site`` other than ``same-origin`` or ``none``,
  is 403; a write with a body under ``/api/`` must say
  ``Content-Type: application/json`` (415 otherwise). A page on another
  port of the same host (same site, so the Lax cookie goes along) could
  otherwise replace a player's library pack with a ``no-cors`` ``text/plain``
  POST, which needs no preflight. Clients that are no browser page send
  neither header and are served.

The policies themselves are :mod:`miau.play.web_policy`'s, shared with the
static site, which cannot set headers itself: its build writes them as
``_headers`` (Netlify, Cloudflare Pages), and ``docs/static-site.md`` says
how to set them elsewhere.
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from miau.play.web_policy import (
    CONTENT_SECURITY_POLICY,
    SECURITY_HEADERS,
    STATIC_SITE_CONTENT_SECURITY_POLICY,
    STATIC_SITE_HEADERS,
    static_site_headers_file,
)
from miau.server.addresses import refuse_http, same_origin

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "STATIC_SITE_CONTENT_SECURITY_POLICY",
    "STATIC_SITE_HEADERS",
    "SecurityHeaders",
    "WriteGuard",
    "static_site_headers_file",
]

_READS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
_SAME_SITE_FETCHES: Final = frozenset({b"same-origin", b"none"})


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (a header the app set stays)."""

    def __init__(self, app: ASGIApp, policy: str = CONTENT_SECURITY_POLICY) -> None:
        """Wrap ``app``, sending ``policy`` as the Content-Security-Policy.

        Only a test harness that drives the page with string predicates
        changes it (it needs ``'unsafe-eval'``).
        """
        self.app = app
        self.headers = [
            (name.encode(), (policy if name == "content-security-policy" else value).encode())
            for name, value in SECURITY_HEADERS
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to its response's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(each for each in self.headers if each[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class WriteGuard:
    """Refuses HTTP writes from other sites' pages, and API writes whose body is not JSON."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, or refuse it here (before the cookie is read or set)."""
        if scope["type"] != "http" or scope.get("method", "GET") in _READS:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        fetch_site = headers.get(b"sec-fetch-site", b"").strip().lower()
        if not same_origin(scope) or (fetch_site and fetch_site not in _SAME_SITE_FETCHES):
            await refuse_http(
                send,
                403,
                "This change came from another site's page; Miau takes changes only from its "
                "own pages.",
            )
            return
        if str(scope.get("path", "")).startswith("/api/") and _has_body(headers):
            content_type = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
            if content_type != b"application/json":
                await refuse_http(
                    send, 415, "Send the body as JSON (Content-Type: application/json)."
                )
                return
        await self.app(scope, receive, send)


def _has_body(headers: dict[bytes, bytes]) -> bool:
    """Whether a request says it carries a body (a length other than 0, or chunks)."""
    length = headers.get(b"content-length")
    if length is not None:
        return length.strip() != b"0"
    return b"transfer-encoding" in headers
