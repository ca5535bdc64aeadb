"""Shared levels over HTTP: open a share code for its world and level, and make a code.

``POST /api/shared`` decodes a code (through ``miau.packs.share``, bounded
and total) and answers what the page needs to show the level, stored
nothing; the play socket's ``{"type": "open", "share": CODE}`` then plays it.
``POST /api/shared/encode`` turns the editor's one-level pack into a code
and a link, since the page cannot deflate and validate on its own.
``docs/protocol.md`` gives the exact replies.
"""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import Response

from miau.packs import Pack
from miau.packs.share import TOO_BIG_TO_SHARE, share_content_key, share_link
from miau.play.library_documents import ENCODE_TOO_MANY
from miau.play.refusal import Refusal
from miau.play.share_requests import (
    code_of_shared_level,
    pack_of_share_request,
    shared_level_json,
)
from miau.server.library import (
    json_response,
    load_one_level_pack,
    read_json_body,
    refusal_response,
)
from miau.server.store import StoreRunner

__all__ = ["TOO_BIG_TO_SHARE", "SharedEndpoints", "shared_level_json"]


class SharedEndpoints:
    """The ``/api/shared`` routes of one app."""

    def __init__(self, store: StoreRunner) -> None:
        """Read the players' progress through ``store`` (these routes store nothing)."""
        self.store = store

    async def open_shared(self, request: Request) -> Response:
        """``POST /api/shared`` with ``{"code": CODE}`` (a bare code or a whole link)."""
        try:
            body = await read_json_body(request)
            pack: Pack = await anyio.to_thread.run_sync(pack_of_share_request, body)
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

    async def encode(self, request: Request) -> Response:
        """``POST /api/shared/encode`` with ``{"pack": <one-level pack>}``: its code and link."""
        try:
            body = await read_json_body(request)
            # Checked as the link will be read: the code is made from the document itself.
            document, _ = await load_one_level_pack(body.get("pack"), ENCODE_TOO_MANY)
            code = code_of_shared_level(document)
        except Refusal as refusal:
            return refusal_response(refusal)
        origin = f"{request.url.scheme}://{request.headers.get('host', '127.0.0.1')}"
        return json_response({"code": code, "link": share_link(code, origin)})
