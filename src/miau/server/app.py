"""The ASGI application: the HTTP JSON API, the play WebSocket and the web client's files.

Routes (``docs/protocol.md`` describes each exactly):

- ``/api/...``: the HTTP API, one route for each of :data:`miau.play.routes.ROUTES`
  the server answers, to the handler of that name: the worlds and progress
  (``_Api`` here), the player's library (``miau.server.library``) and share
  links (``miau.server.shared``);
- ``/ws``: one play session per connection (``miau.server.session``);
- ``/studio``: the editor's solve and check jobs (``miau.server.studio``);
- everything else: the files of ``src/miau/web/`` (``/`` is ``index.html``).

Every player is a random token in the ``miau_player`` cookie (``__Host-miau_player``,
``Secure``, when the page is served over HTTPS), set on the first response
to a browser that lacks it, unless the request comes from another site (a
browser holding the cookie may not have sent it then). A cookie sent twice
counts by its first value (the browser sends the older one first).

Every HTTP response carries the security headers, and writes are taken only
from the server's own pages, as JSON (``miau.server.web_security``).

Each play connection is kept in bounds (``ConnectionLimits``): frames over
64 KiB are refused, a rate limit drops frames past it (when the limits set
one: ``PLAY_LIMITS``), and a client that does not read its replies within
the send timeout is disconnected, so it holds at most one transport buffer
of the server's memory and never delays anyone else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
from collections.abc import AsyncIterator
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from miau.packs.share import single_level_pack
from miau.play.log import UnreplayableGameError, shortened_log
from miau.play.refusal import no_level, no_world
from miau.play.routes import ROUTES
from miau.play.worlds import (
    Worlds,
    vocabularies_json,
    world_json,
)
from miau.server.addresses import AddressGuard, ServedAddresses
from miau.server.expiry import Expiry
from miau.server.library import (
    Library,
    LibraryEndpoints,
    UnicodeSafeJSONResponse,
    refusal_response,
)
from miau.server.limits import UNTHROTTLED, ConnectionLimits, HeavyWork, ServerFrames
from miau.server.long_logs import LogShortenerProcess, LongLogs
from miau.server.request_budget import RequestBudget
from miau.server.session import GameLocks, PlaySession
from miau.server.shared import SharedEndpoints
from miau.server.shares import AddressShare, AddressShares
from miau.server.store import (
    EXPIRE_AFTER_SECONDS,
    IDLE_AFTER_SECONDS,
    StoreRunner,
    open_store,
)
from miau.server.studio import StudioJobs
from miau.server.web_security import CONTENT_SECURITY_POLICY, SecurityHeaders, WriteGuard

__all__ = [
    "COOKIE_NAME",
    "DEFAULT_WEB_DIR",
    "SECURE_COOKIE_NAME",
    "PlayerCookieMiddleware",
    "create_app",
]

COOKIE_NAME = "miau_player"
SECURE_COOKIE_NAME = "__Host-miau_player"
"""The cookie's name over HTTPS: the ``__Host-`` prefix makes the browser refuse it unless it
is ``Secure``, for ``/`` and set by this host itself, so no sibling host can plant one."""
COOKIE_MAX_AGE = 10 * 365 * 24 * 3600
"""Ten years: progress should outlive any browser session."""

DEFAULT_WEB_DIR = Path(str(resources.files("miau").joinpath("web")))
"""The web client's files (package data: ``miau/web/``)."""

PLAYER_KEY = "miau.player"
"""Where the middleware leaves the player's token in the ASGI scope."""

_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")

logger = logging.getLogger(__name__)


def create_app(
    *,
    db_path: str | Path,
    packs_dir: Path | None = None,
    web_dir: Path | None = None,
    limits: ConnectionLimits | None = None,
    studio: StudioJobs | None = None,
    served: ServedAddresses | None = None,
    long_logs: LongLogs | None = None,
    content_security_policy: str = CONTENT_SECURITY_POLICY,
    idle_after: float = IDLE_AFTER_SECONDS,
    expire_after: float | None = EXPIRE_AFTER_SECONDS,
    address_share: AddressShare | None = None,
) -> Starlette:
    """The Miau game server on the database ``db_path`` (created on first use).

    ``db_path`` is a SQLite file, or a ``postgresql://`` URL (``open_store``).

    ``packs_dir`` holds the worlds (default: the shipped ones, ``miau/worlds/``);
    ``web_dir`` the client's files (default: ``miau/web/``; it may be
    missing, and then only the API and the WebSocket answer). ``limits``
    bound each play connection (default :data:`UNTHROTTLED`: no rate limit;
    a server for strangers passes ``PLAY_LIMITS``). ``studio`` runs the
    ``/studio`` jobs (default: a :class:`StudioJobs` with the standard limits).
    ``served`` are the addresses a request's ``Host`` may name (default None:
    any; ``miau play`` passes the address it listens on), against DNS rebinding;
    WebSocket handshakes from another origin are closed with 1008 either way
    (``miau.server.addresses``). ``long_logs`` shortens stored logs written
    before the cap (default: in a :class:`LogShortenerProcess`, started with
    the first such log; ``miau.server.long_logs``). ``content_security_policy``
    is the policy every response carries (``miau.server.web_security``).
    ``idle_after`` is how many seconds a player must have stored nothing
    before a full server evicts their data (games, then library packs, then
    the player) to make room, instead of refusing everyone (default 30 days).
    ``expire_after`` is how many seconds a player may have stored nothing
    before they expire with all they hold, full server or not (default 90
    days; None or 0: never), swept when the server starts and every 15
    minutes (``miau.server.expiry``). ``address_share`` is what one address
    may add to the server-wide quotas, new players and library bytes an
    hour (default None: no bound; ``miau play`` passes
    :data:`~miau.server.shares.ADDRESS_SHARE`; ``miau.server.shares``).

    :raises ValueError: when ``idle_after`` or ``expire_after`` is negative.
    """
    worlds = Worlds.load(packs_dir)
    store = open_store(db_path, idle_after=idle_after)
    runner = StoreRunner(store)
    try:
        expiry = Expiry(runner, expire_after)
    except ValueError:
        store.close()
        raise
    shares = None if address_share is None else AddressShares(address_share, runner)
    library = Library(worlds, runner, shares=shares)
    shortening = long_logs or LongLogs(LogShortenerProcess(shortened_log, UnreplayableGameError))
    api = _Api(worlds, runner, limits or UNTHROTTLED, library, shortening, shares)
    library_api = LibraryEndpoints(library)
    shared_api = SharedEndpoints(runner, library)
    studio_jobs = studio or StudioJobs()

    async def studio_socket(websocket: WebSocket) -> None:
        """``/studio``: the editor's solve and check jobs (only this server's pages get here)."""
        await studio_jobs.serve(websocket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeping = asyncio.create_task(expiry.run()) if expiry.enabled else None
        try:
            yield
        finally:
            if sweeping is not None:
                sweeping.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeping
        # No solver worker may outlive the server.
        await studio_jobs.close()
        await shortening.close()
        store.close()

    routes = [
        *(
            Route(
                route.path,
                _handler(route.name, api, library_api, shared_api),
                methods=[route.method],
            )
            for route in ROUTES
            if route.server
        ),
        Route("/api", api.not_found),
        Route("/api/{rest:path}", api.not_found),
        WebSocketRoute("/ws", api.play),
        WebSocketRoute("/studio", studio_socket),
        Mount(
            "/",
            app=ClientFiles(directory=web_dir or DEFAULT_WEB_DIR, html=True, check_dir=False),
            name="web",
        ),
    ]
    app = Starlette(
        routes=routes,
        # The guard answers before the cookie middleware: a refusal never sets a cookie.
        middleware=[
            Middleware(SecurityHeaders, policy=content_security_policy),
            Middleware(RequestBudget, limits=limits or UNTHROTTLED),
            Middleware(AddressGuard, served=served),
            Middleware(WriteGuard),
            Middleware(PlayerCookieMiddleware),
        ],
        exception_handlers={HTTPException: _http_error},
        lifespan=lifespan,
    )
    app.state.worlds = worlds
    app.state.store = store
    app.state.studio = studio_jobs
    app.state.long_logs = shortening
    app.state.expiry = expiry
    app.state.shares = shares
    return app


class ClientFiles(StaticFiles):
    """The web client's files, always revalidated, JavaScript as ``text/javascript``."""

    async def check_config(self) -> None:
        """Accept a missing folder: then every file is a 404 and the API still answers."""
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file's response: revalidated on each load, and cross-origin isolated.

        ``Cache-Control: no-cache`` makes a reload get fresh files. The
        isolation headers let the page share memory with its socket worker
        (``engine-port-worker.js``), which gets a reply drawn a frame sooner
        after a key press; the client loads nothing from other origins.
        """
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        response.headers["Cross-Origin-Embedder-Policy"] = "require-corp"
        if os.fspath(full_path).endswith((".js", ".mjs")):
            # ES modules need a JavaScript type; some systems' MIME tables say otherwise.
            response.headers["Content-Type"] = "text/javascript; charset=utf-8"
        return response


class PlayerCookieMiddleware:
    """Gives every browser a player token: reads ``miau_player``, or makes one and sets it."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Put the player's token in the scope; set the cookie on the response if it was new."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        token = _cookie_token(scope)
        if token is not None:
            scope[PLAYER_KEY] = token
            await self.app(scope, receive, send)
            return
        token = secrets.token_urlsafe(24)
        scope[PLAYER_KEY] = token
        if _from_another_site(scope):
            # The browser may hold a cookie it did not send here (a subresource or form from
            # another site's page): a new one would replace the player for good. This request
            # is answered for a passer-by; the next one from Miau's own page sets the cookie.
            await self.app(scope, receive, send)
            return
        secure = _over_https(scope)
        name = SECURE_COOKIE_NAME if secure else COOKIE_NAME
        cookie = (
            f"{name}={token}; Path=/; Max-Age={COOKIE_MAX_AGE}; SameSite=Lax; HttpOnly"
            + ("; Secure" if secure else "")
        ).encode("latin-1")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = [*message.get("headers", []), (b"set-cookie", cookie)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


def _handler(name: str, *endpoints: object) -> Any:
    """The handler called ``name`` on the first of ``endpoints`` that has one.

    :raises LookupError: when none has: a route of the table the server does not answer.
    """
    for each in endpoints:
        handler = getattr(each, name, None)
        if handler is not None:
            return handler
    raise LookupError(f"no handler for the API route {name!r}")


def _from_another_site(scope: Scope) -> bool:
    """Whether the browser says the request comes from another site's page (``Sec-Fetch-Site``)."""
    return any(
        name == b"sec-fetch-site" and value.strip().lower() == b"cross-site"
        for name, value in scope.get("headers", [])
    )


def _over_https(scope: Scope) -> bool:
    """Whether the page is served over HTTPS (directly, or by a proxy uvicorn trusts)."""
    return scope.get("scheme") in ("https", "wss")


def _cookie_token(scope: Scope) -> str | None:
    """The well-formed player token the request carries, or None.

    Over HTTPS the ``__Host-`` cookie comes first. Of a name sent twice the
    first well-formed value counts: a browser sends the cookie it has held longest first,
    and a cookie planted later (by a sibling host) must not replace it.
    """
    names = (SECURE_COOKIE_NAME, COOKIE_NAME) if _over_https(scope) else (COOKIE_NAME,)
    found: dict[str, str] = {}
    for header, value in scope.get("headers", []):
        if header != b"cookie":
            continue
        for pair in value.decode("latin-1").split(";"):
            name, _, cookie = pair.strip().partition("=")
            token = cookie.strip().strip('"')
            if name in names and name not in found and _TOKEN.fullmatch(token):
                found[name] = token
    return next((found[name] for name in names if name in found), None)


def _client_host(scope: Scope) -> str | None:
    """The client's address, as the server sees it (a proxy's, unless uvicorn trusts it)."""
    client = scope.get("client")
    return str(client[0]) if client else None


def player_of(scope: Scope) -> str:
    """The player's token, as the middleware left it."""
    token: str = scope[PLAYER_KEY]
    return token


async def _http_error(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (a wrong method, say): JSON under ``/api/``, as every answer there."""
    assert isinstance(error, HTTPException)
    headers = dict(error.headers or {})
    if not request.url.path.startswith("/api/"):
        return Response(error.detail, error.status_code, headers=headers)
    response = _error(error.status_code, _REFUSALS.get(error.status_code, error.detail))
    response.headers.update(headers)
    return response


_REFUSALS = {405: "This address does not take that method."}


def _error(status: int, message: str) -> JSONResponse:
    return _json({"error": message}, status)


def _json(body: dict[str, Any], status: int = 200) -> JSONResponse:
    # Progress changes as the player wins: never let a browser keep an old answer.
    return UnicodeSafeJSONResponse(body, status, headers={"Cache-Control": "no-store"})


class _Api:
    """The HTTP and WebSocket endpoints, sharing the worlds and the store."""

    def __init__(
        self,
        worlds: Worlds,
        store: StoreRunner,
        limits: ConnectionLimits,
        library: Library,
        long_logs: LongLogs,
        shares: AddressShares | None = None,
    ) -> None:
        self.worlds = worlds
        self.shares = shares
        self.store = store
        self.limits = limits
        self.library = library
        self.long_logs = long_logs
        self.heavy = HeavyWork(limits)
        self.locks = GameLocks()
        self.server_frames = ServerFrames(limits)

    async def _best_moves(self, player: str) -> dict[tuple[str, str], int]:
        progress = await self.store.progress(player)
        return {
            (entry.pack, entry.level): entry.best_moves
            for entry in progress
            if entry.won and entry.best_moves is not None
        }

    async def list_worlds(self, request: Request) -> Response:
        """``GET /api/worlds``."""
        player = player_of(request.scope)
        best = await self._best_moves(player)
        library = await self.library.summaries(player)
        return _json(self.worlds.world_list(best.keys(), library))

    async def show_world(self, request: Request) -> Response:
        """``GET /api/worlds/{pack}``: a shipped world or one of the player's library."""
        player = player_of(request.scope)
        found = await self.library.find(player, request.path_params["pack"])
        if found is None:
            return refusal_response(no_world(request.path_params["pack"]))
        pack, imported = found
        best = await self._best_moves(player)
        return _json(world_json(pack.manifest.id, pack, best, imported=imported))

    async def show_level(self, request: Request) -> Response:
        """``GET /api/worlds/{pack}/levels/{level}``: in a shipped world or the player's library."""
        pack_id, level_id = request.path_params["pack"], request.path_params["level"]
        found = await self.library.find(player_of(request.scope), pack_id)
        if found is None:
            return refusal_response(no_world(pack_id))
        pack, imported = found
        level = next((each for each in pack.levels if each.id == level_id), None)
        if level is None:
            return refusal_response(no_level(pack_id, level_id))
        won = (await self._best_moves(player_of(request.scope))).keys()
        # On a worker thread: a library level with no stored solution runs the solver for its
        # shortest length (miau.play.shortest), which must not hold up other players' turns.
        detail = await anyio.to_thread.run_sync(
            partial(self.worlds.any_level_detail, pack, level, won, imported=imported)
        )
        return _json(detail)

    async def show_level_pack(self, request: Request) -> Response:
        """``GET /api/worlds/{pack}/levels/{level}/pack``: the level as a one-level pack.

        The pack the share link and the editor's copy start from, with the
        level's stored solution and its pack's version, so a link made in the
        page is the link ``miau share`` prints for the same level.
        """
        pack_id, level_id = request.path_params["pack"], request.path_params["level"]
        found = await self.library.find(player_of(request.scope), pack_id)
        if found is None:
            return refusal_response(no_world(pack_id))
        pack = found[0]
        if all(each.id != level_id for each in pack.levels):
            return refusal_response(no_level(pack_id, level_id))
        return _json({"pack": single_level_pack(pack, level_id)})

    async def show_vocabularies(self, request: Request) -> Response:
        """``GET /api/vocabularies``: the words each vocabulary feature brings."""
        return _json(vocabularies_json())

    async def show_progress(self, request: Request) -> Response:
        """``GET /api/progress``."""
        progress = await self.store.progress(player_of(request.scope))
        return _json(
            {
                "levels": [
                    {
                        "pack": entry.pack,
                        "level": entry.level,
                        "won": entry.won,
                        "bestMoves": entry.best_moves,
                        "bestSolution": entry.best_solution,
                    }
                    for entry in progress
                ]
            }
        )

    async def not_found(self, request: Request) -> Response:
        """Any other ``/api/`` path."""
        return _error(404, f"There is nothing at {request.url.path}.")

    async def play(self, websocket: WebSocket) -> None:
        """``/ws``: one play session, a reply frame for every client frame."""
        player = player_of(websocket.scope)
        await websocket.accept()
        # No player row yet: it is made with the player's first stored move (or pack), so a
        # visitor who stores nothing costs the database nothing (docs/security.md).
        session = PlaySession(
            player,
            self.worlds,
            self.store,
            self.limits,
            self.library,
            self.long_logs,
            self.heavy,
            self.locks,
            self.server_frames,
            self.shares,
            _client_host(websocket.scope),
        )
        await session.serve(websocket)
