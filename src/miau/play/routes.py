"""The HTTP API's one route table: every request either host answers, and who answers it.

The server (``miau.server.app``) makes its Starlette routes from
:data:`ROUTES`, each to the handler of the same :attr:`Route.name` on its
endpoint objects; the static site (``miau.site.backend``) matches a request
with :func:`find_route` and calls its method ``api_<name>``. So an endpoint
is added here once, and a host that lacks its handler fails at start
(``tests/play/test_routes.py`` checks both). ``docs/protocol.md`` describes
each request and reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote

__all__ = ["API_PREFIX", "ROUTES", "Route", "find_route"]

API_PREFIX: Final = "/api"
"""Where the API's addresses start; anything else under it is a 404."""


@dataclass(frozen=True, slots=True)
class Route:
    """One request of the API: its method, its address template and its handler's name.

    ``path`` is a template such as ``/api/worlds/{pack}``: a ``{name}`` part
    matches one address segment (no ``/``), passed to the handler by that
    name. ``server`` and ``site`` say which host answers it (the progress
    file requests are the static site's own: ``miau progress`` does that
    job for the server).
    """

    method: str
    path: str
    name: str
    server: bool = True
    site: bool = True

    @property
    def parts(self) -> tuple[str, ...]:
        """The template's segments (``{name}`` for a parameter)."""
        return tuple(self.path.strip("/").split("/"))

    def match(self, method: str, segments: tuple[str, ...]) -> dict[str, str] | None:
        """The parameters of an address (its segments, unquoted) this route takes; None if not it."""
        if method != self.method or len(segments) != len(self.parts):
            return None
        params: dict[str, str] = {}
        for part, segment in zip(self.parts, segments, strict=True):
            if part.startswith("{") and part.endswith("}"):
                params[part[1:-1]] = segment
            elif part != segment:
                return None
        return params


ROUTES: Final[tuple[Route, ...]] = (
    Route("GET", "/api/worlds", "list_worlds"),
    Route("GET", "/api/worlds/{pack}", "show_world"),
    Route("GET", "/api/worlds/{pack}/levels/{level}", "show_level"),
    Route("GET", "/api/worlds/{pack}/levels/{level}/pack", "show_level_pack"),
    Route("GET", "/api/progress", "show_progress"),
    Route("GET", "/api/progress/export", "export_progress", server=False),
    Route("POST", "/api/progress/import", "import_progress", server=False),
    Route("GET", "/api/vocabularies", "show_vocabularies"),
    Route("GET", "/api/library", "list_packs"),
    Route("POST", "/api/library", "import_pack"),
    Route("DELETE", "/api/library/{pack}", "delete_pack"),
    Route("GET", "/api/library/{pack}/export", "export_pack"),
    Route("PUT", "/api/library/{pack}/levels/{level}", "put_level"),
    Route("POST", "/api/shared", "open_shared"),
    Route("POST", "/api/shared/encode", "encode"),
)
"""Every request of the HTTP API (``docs/protocol.md``), in the order the server matches them."""


def find_route(method: str, path: str, *, host: str) -> tuple[Route, dict[str, str]] | None:
    """The route of ``host`` (``"server"`` or ``"site"``) a request takes, and its parameters.

    ``path`` may carry a query (ignored); its segments are unquoted.
    """
    address = path.split("?", 1)[0]
    segments = tuple(unquote(part) for part in address.strip("/").split("/"))
    for route in ROUTES:
        if not getattr(route, host):
            continue
        params = route.match(method, segments)
        if params is not None:
            return route, params
    return None
