"""An HTTP API request turned down, the same on both hosts.

A :class:`Refusal` carries the HTTP status and the JSON body that says why;
the server answers it as a response, the static site as ``{"status",
"body"}``. The refusals both hosts make are built here, so that their
words and codes cannot drift apart.
"""

from __future__ import annotations

from typing import Any, Final

from miau.packs import PackError
from miau.play.problems import refused_problems

__all__ = [
    "MAX_PACK_BYTES",
    "Refusal",
    "no_level",
    "no_world",
    "nothing_at",
    "problems_refusal",
    "request_object",
    "too_large",
]

MAX_PACK_BYTES: Final = 1024 * 1024
"""The largest pack text a library keeps (1 MiB)."""


class Refusal(Exception):
    """A request turned down: the HTTP status and the JSON body that says why."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        """A refusal with ``status`` and ``body`` (which has at least ``"error"``)."""
        super().__init__(body.get("error", ""))
        self.status = status
        self.body = body


def problems_refusal(error: PackError, what: str = "This pack") -> Refusal:
    """400 with the issues of a pack the loader refused (warnings included).

    The sentence counts them all; ``problems`` lists the first few and
    ``moreProblems`` counts the rest (:func:`~miau.play.problems.refused_problems`).
    """
    count = len(error.issues)
    return Refusal(
        400,
        {
            "error": f"{what} has {count} problem{'' if count == 1 else 's'}.",
            **refused_problems(error.issues),
        },
    )


def too_large(what: str = "A pack") -> Refusal:
    """413: a pack (or a request) past :data:`MAX_PACK_BYTES`."""
    if what == "A request":
        return Refusal(413, {"error": "This request is too large: a pack may be at most 1 MiB."})
    return Refusal(413, {"error": f"{what} may be at most 1 MiB; this one is larger."})


def no_world(pack_id: str) -> Refusal:
    """404: no shipped world and no library pack has this id."""
    return Refusal(404, {"error": f"There is no world {pack_id!r}."})


def no_level(pack_id: str, level_id: str) -> Refusal:
    """404: the world has no such level."""
    return Refusal(404, {"error": f"The world {pack_id!r} has no level {level_id!r}."})


def nothing_at(path: str) -> Refusal:
    """404 for an address the API has nothing at."""
    return Refusal(404, {"error": f"There is nothing at {path}."})


def request_object(body: object) -> dict[str, Any]:
    """The request's JSON body, which must be an object.

    :raises Refusal: 400 for any other JSON value.
    """
    if not isinstance(body, dict):
        raise Refusal(400, {"error": "The request must be a JSON object."})
    return body
