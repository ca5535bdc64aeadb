"""The security headers both hosts ask browsers for: the server sends them, the static site's build writes them.

``miau.server.web_security`` puts :data:`SECURITY_HEADERS` on every
response of ``miau play``; ``miau build-site`` writes
:func:`static_site_headers_file` as ``_headers`` for the static hosts that
read one (Netlify, Cloudflare Pages; ``docs/static-site.md`` for the rest).
Standard library only, like the rest of the play layer.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "SECURITY_HEADERS",
    "STATIC_SITE_CONTENT_SECURITY_POLICY",
    "STATIC_SITE_HEADERS",
    "static_site_headers_file",
]

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The server's policy: everything from the page's own origin, no inline script or style,
no plugin, no frame around it."""

STATIC_SITE_CONTENT_SECURITY_POLICY: Final = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'"
)
"""The static site's policy: the same, and WebAssembly compiled (the Pyodide runtime)."""

SECURITY_HEADERS: Final = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
)
"""The headers every HTTP response of the server carries (``X-Frame-Options`` for browsers
that predate ``frame-ancestors``)."""

STATIC_SITE_HEADERS: Final = (
    ("Content-Security-Policy", STATIC_SITE_CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
)
"""The headers a static host should send with every file of the site."""


def static_site_headers_file() -> str:
    """The ``_headers`` file (Netlify, Cloudflare Pages) that sends :data:`STATIC_SITE_HEADERS`."""
    lines = ["/*", *(f"  {name}: {value}" for name, value in STATIC_SITE_HEADERS)]
    return "\n".join(lines) + "\n"
