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
    TOO_BIG_TO_SHARE,
    ShareLinkError,
    ShareTooBigError,
    decode_share_code,
    link_code,
    share_content_key,
)
from miau.play.problems import problems_json
from miau.play.refusal import Refusal
from miau.play.worlds import level_json, world_json

__all__ = [
    "code_of_shared_level",
    "pack_of_share_request",
    "shared_level_json",
]


def pack_of_share_request(body: Mapping[str, Any]) -> Pack:
    """The one-level pack that ``{"code": CODE}`` (a bare code or a whole link) carries.

    :raises Refusal: 400 without a code, or for a code that does
        not read (with the loader's problems).
    """
    code = body.get("code")
    if not isinstance(code, str):
        raise Refusal(400, {"error": 'Send {"code": <a share code or link>}.'})
    try:
        return decode_share_code(code)
    except ShareLinkError as error:
        raise Refusal(400, {"error": str(error), "problems": problems_json(error.issues)}) from None


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
