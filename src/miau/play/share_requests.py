"""What ``POST /api/shared`` and ``POST /api/shared/encode`` do, whoever serves them.

``miau play`` (``miau.server.shared``) and the static site's in-page backend
(``miau.site.backend``) answer the same two requests with the same replies
and the same refusals; this module is that answer, standard library and
pack code only, so that it runs in the page too. A request turned down
raises :class:`~miau.play.refusal.Refusal`, which each host answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from miau.packs import Pack
from miau.packs.share import (
    MAX_SHARED_ENTITIES,
    MAX_SHARED_VALUES,
    TOO_BIG_TO_SHARE,
    InflatedCode,
    SharedDocument,
    ShareLinkError,
    ShareTooBigError,
    decode_share_code,
    inflate_share_code,
    link_code,
    load_shared_document,
    read_shared_json,
    share_content_key,
)
from miau.packs.sizes import document_size
from miau.play.library_documents import ENCODE_TOO_MANY, refuse_many_levels
from miau.play.problems import refused_problems
from miau.play.refusal import Refusal
from miau.play.worlds import level_json, world_json

__all__ = [
    "code_of_shared_level",
    "inflated_share_request",
    "load_shared_request",
    "pack_of_share_request",
    "read_share_request",
    "share_link_refusal",
    "share_request_code",
    "shareable_level_cost",
    "shared_level_json",
]


def share_request_code(body: Mapping[str, Any]) -> str:
    """The code (or link) of ``{"code": CODE}``.

    :raises Refusal: 400 without a code.
    """
    code = body.get("code")
    if not isinstance(code, str):
        raise Refusal(400, {"error": 'Send {"code": <a share code or link>}.'})
    return code


def share_link_refusal(error: ShareLinkError) -> Refusal:
    """400 with the codec's sentence and the loader's problems, if it got that far."""
    return Refusal(400, {"error": str(error), **refused_problems(error.issues)})


def pack_of_share_request(body: Mapping[str, Any]) -> Pack:
    """The one-level pack that ``{"code": CODE}`` (a bare code or a whole link) carries.

    All three steps of decoding at once; a server paces them apart
    (:func:`inflated_share_request`, :func:`read_share_request`,
    :func:`load_shared_request`).

    :raises Refusal: 400 without a code, or for a code that does
        not read (with the loader's problems).
    """
    code = share_request_code(body)
    try:
        return decode_share_code(code)
    except ShareLinkError as error:
        raise share_link_refusal(error) from None


def inflated_share_request(code: str) -> InflatedCode:
    """:func:`~miau.packs.share.inflate_share_code`, refusing as ``POST /api/shared`` does.

    :raises Refusal: 400 with the codec's sentence.
    """
    try:
        return inflate_share_code(code)
    except ShareLinkError as error:
        raise share_link_refusal(error) from None


def read_share_request(inflated: InflatedCode) -> SharedDocument:
    """:func:`~miau.packs.share.read_shared_json`, refusing as ``POST /api/shared`` does.

    :raises Refusal: 400 with the codec's sentence (and no problems: nothing was loaded).
    """
    try:
        return read_shared_json(inflated)
    except ShareLinkError as error:
        raise share_link_refusal(error) from None


def load_shared_request(document: dict[str, Any]) -> Pack:
    """:func:`~miau.packs.share.load_shared_document`, refusing as ``POST /api/shared`` does.

    :raises Refusal: 400 with the codec's sentence and the loader's problems.
    """
    try:
        return load_shared_document(document)
    except ShareLinkError as error:
        raise share_link_refusal(error) from None


def shareable_level_cost(document: dict[str, Any]) -> int:
    """What loading the one-level pack ``document`` of ``POST /api/shared/encode`` costs.

    Counted on the JSON before the loader runs, as a link's level is when it
    is opened (:func:`~miau.packs.share.shared_level_size`): a level no link
    could open is refused unloaded.

    :raises Refusal: 400 for more than one level; 413 ``TOO_BIG_TO_SHARE``
        for more things and words than :data:`MAX_SHARED_ENTITIES` or more
        values than :data:`MAX_SHARED_VALUES` (the JSON's length is
        checked with the code, :func:`code_of_shared_level`).
    """
    size = document_size(document, MAX_SHARED_VALUES)
    refuse_many_levels(size.levels, ENCODE_TOO_MANY)
    if size.entities > MAX_SHARED_ENTITIES or size.values > MAX_SHARED_VALUES:
        raise Refusal(413, {"error": TOO_BIG_TO_SHARE})
    return size.cost


def shared_level_json(pack: Pack, best_moves: dict[tuple[str, str], int]) -> dict[str, Any]:
    """``POST /api/shared``'s reply for a decoded one-level pack, with the player's progress on it."""
    key = share_content_key(pack)
    world = world_json(key, pack, best_moves, imported=False)
    world["shared"] = True
    return {
        "world": world,
        "level": level_json(key, pack.levels[0], None),
        "pack": pack.to_json(),
    }


def code_of_shared_level(document: Mapping[str, Any]) -> str:
    """The share code of a checked one-level pack ``document``.

    :raises Refusal: 413 when the link would be too long, 400
        when the level holds values JSON cannot carry.
    """
    try:
        return link_code(document)
    except ShareTooBigError:
        raise Refusal(413, {"error": TOO_BIG_TO_SHARE}) from None
    except (ValueError, TypeError):
        raise Refusal(
            400, {"error": "This level holds values JSON cannot carry.", "problems": []}
        ) from None
