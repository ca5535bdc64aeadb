"""Plain questions about JSON values, and how to name one in a message.

A pack arrives as parsed JSON or as a caller's mapping, so nothing here
trusts a type: every helper accepts any object.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Final, TypeGuard

from miau.engine.vocabulary import TOKEN_PATTERN

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

_SHOWN_CHARACTERS: Final = 40
_SHOWN_JSON: Final = 60
_LONGEST_SHOWN_BITS: Final = 64


def is_integer(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer; ``true`` and ``1.0`` are not."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_record(value: object) -> TypeGuard[Mapping[object, object]]:
    """Whether ``value`` is a JSON object."""
    return isinstance(value, Mapping)


def is_array(value: object) -> TypeGuard[Sequence[object]]:
    """Whether ``value`` is a JSON array (a list or tuple, never a string)."""
    return isinstance(value, list | tuple)


def normal_token(value: object) -> str | None:
    """Return ``value`` as an uppercase word token, or None if it cannot be one.

    Lowercase is accepted and raised. Only ASCII counts, so that no Unicode
    case rule can turn a stray letter into a reserved word (a Turkish
    dotless i followed by ``s`` would otherwise become ``IS``).
    """
    if not isinstance(value, str) or not value.isascii():
        return None
    upper = value.upper()
    return upper if TOKEN_PATTERN.fullmatch(upper) else None


def integer_text(value: int) -> str:
    """Write an integer, or say it is huge (Python refuses to print the longest ones)."""
    if value.bit_length() > _LONGEST_SHOWN_BITS:
        return "a huge integer"
    return str(value)


def plural(count: int, noun: str) -> str:
    """Write ``3 rows`` or ``1 row``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def listing(items: Sequence[str]) -> str:
    """Write ``U, D, L and R``: items joined by commas, the last by "and"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def quote(text: str) -> str:
    """Quote a string as JSON would, shortened if it is long."""
    if len(text) > _SHOWN_CHARACTERS:
        text = text[: _SHOWN_CHARACTERS - 1] + "…"
    return json.dumps(text, ensure_ascii=False)


def describe(value: object) -> str:
    """Name a value for a message: ``the string "7"``, ``3.5``, ``an array``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "an empty string" if value == "" else f"the string {quote(value)}"
    if isinstance(value, int):
        return f"the integer {integer_text(value)}"
    if isinstance(value, float):
        return f"the number {value}" if math.isfinite(value) else "a number that is not finite"
    if is_record(value) or is_array(value):
        return _compact_json(value) or ("an object" if is_record(value) else "an array")
    return f"a {type(value).__name__}, which JSON cannot hold"


def _compact_json(value: object) -> str | None:
    """Write a small object or array as JSON; None when it is long or odd."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= _SHOWN_JSON else None
