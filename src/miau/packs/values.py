"""Plain questions about JSON values, and how to name one in a message.

A pack arrives as parsed JSON or as a caller's mapping, so nothing here
trusts a type: every helper accepts any object. The helpers the engine's
entity checker needs too live in :mod:`miau.engine.entity_fields` and are
re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeGuard

from miau.engine.entity_fields import (
    describe,
    integer_text,
    is_integer,
    is_record,
    normal_token,
    quote,
)

__all__ = [
    "describe",
    "integer_text",
    "is_array",
    "is_integer",
    "is_record",
    "listing",
    "normal_token",
    "plural",
    "quote",
]


def is_array(value: object) -> TypeGuard[Sequence[object]]:
    """Whether ``value`` is a JSON array (a list or tuple, never a string)."""
    return isinstance(value, list | tuple)


def plural(count: int, noun: str) -> str:
    """Write ``3 rows`` or ``1 row``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def listing(items: Sequence[str]) -> str:
    """Write ``U, D, L and R``: items joined by commas, the last by "and"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
