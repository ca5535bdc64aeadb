"""Shared levels over HTTP: open a share code for its world and level, and make a code.

``POST /api/shared`` decodes a code (through ``miau.packs.share``, bounded
and total) and answers what the page needs to show the level, stored
nothing; the play socket's ``{"type": "open", "share": CODE}`` then plays it.
``POST /api/shared/encode`` turns the editor's one-level pack into a code
and a link, since the page cannot deflate and validate on its own.
``docs/protocol.md`` gives the exact replies.

Both draw from the library's parse budget before each costly step and run
every step on its one pack-parsing thread (``miau.server.library``), never on
the event loop nor on the default worker threads: a code is inflated (its
length capped, inflation stopped at 256 KiB), then its JSON read and counted
(:data:`~miau.server.library.DECODE_BYTES_PER_ENTITY`), and a level past
a shared level's bounds is refused there, before the loader sees it; only a
level within them is loaded, its cost taken first.
"""

from __future__ import annotations

from typing import Final

import anyio
from starlette.requests import Request
from starlette.responses import Response

from miau.packs import Pack
from miau.packs.share import MAX_CODE_LENGTH, TOO_BIG_TO_SHARE, share_content_key, share_link
from miau.play.library_documents import ENCODE_TOO_MANY
from miau.play.refusal import Refusal
from miau.play.share_requests import (
    code_of_shared_level,
    inflated_share_request,
    load_shared_request,
    read_share_request,
    share_request_code,
    shareable_level_cost,
    shared_level_json,
)
from miau.server.library import (
    DECODE_BYTES_PER_ENTITY,
    Library,
    client_address,
    declared_length,
    json_response,
    parse_off_the_loop,
    read_json_body,
    refusal_response,
)
from miau.server.store import StoreRunner

__all__ = ["SHARE_BODY_BYTES", "TOO_BIG_TO_SHARE", "SharedEndpoints", "shared_level_json"]

SHARE_BODY_BYTES: Final = 64 * 1024
"""The largest ``POST /api/shared`` body read: room for a whole link at the longest a link
may be (a code of 8,192 characters and its origin) many times over, so a link too long to
open still gets its sentence; past it, 413 unread."""


def _too_long_for_a_link() -> Refusal:
    """413: a ``POST /api/shared`` body past :data:`SHARE_BODY_BYTES`, unread."""
    return Refusal(
        413,
        {
            "error": f"This request is too large to hold a level link (at most "
            f"{MAX_CODE_LENGTH:,} characters); nothing was read.",
            "problems": [],
        },
    )


class SharedEndpoints:
    """The ``/api/shared`` routes of one app."""

    def __init__(self, store: StoreRunner, library: Library) -> None:
        """Read the players' progress through ``store`` (these routes store nothing).

        ``library`` lends its parse budget and its pack-parsing thread.
        """
        self.store = store
        self.library = library

    async def open_shared(self, request: Request) -> Response:
        """``POST /api/shared`` with ``{"code": CODE}`` (a bare code or a whole link)."""
        try:
            body = await read_json_body(request, SHARE_BODY_BYTES, _too_long_for_a_link)
            pack = await self._decode(share_request_code(body), client_address(request))
        except Refusal as refusal:
            return refusal_response(refusal)
        progress = await self.store.progress(request.scope["miau.player"])
        key = share_content_key(pack)
        best = {
            (entry.pack, entry.level): entry.best_moves
            for entry in progress
            if entry.pack == key and entry.best_moves is not None
        }
        # On a worker thread: a level with no stored solution runs the solver for its shortest.
        return json_response(await anyio.to_thread.run_sync(shared_level_json, pack, best))

    async def _decode(self, code: str, address: str | None) -> Pack:
        """The pack ``code`` carries, each step paid for before it starts (``address``'s share first).

        :raises Refusal: 400 with the codec's sentence (and the loader's first problems).
        """
        inflated = await parse_off_the_loop(inflated_share_request, code)
        await self.library.wait_to_parse(len(inflated.raw) // DECODE_BYTES_PER_ENTITY, address)
        shared = await parse_off_the_loop(read_share_request, inflated)
        await self.library.wait_to_parse(shared.cost, address)
        pack: Pack = await parse_off_the_loop(load_shared_request, shared.document)
        return pack

    async def encode(self, request: Request) -> Response:
        """``POST /api/shared/encode`` with ``{"pack": <one-level pack>}``: its code and link."""
        try:
            await self.library.wait_to_read(declared_length(request))
            body = await read_json_body(request)
            # Checked as the link will be read: the code is made from the document itself.
            document, _ = await self.library.load_one_level(
                body.get("pack"), ENCODE_TOO_MANY, shareable_level_cost, client_address(request)
            )
            code = await parse_off_the_loop(code_of_shared_level, document)
        except Refusal as refusal:
            return refusal_response(refusal)
        origin = f"{request.url.scheme}://{request.headers.get('host', '127.0.0.1')}"
        return json_response({"code": code, "link": share_link(code, origin)})
