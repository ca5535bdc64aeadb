"""Read typed fields out of an untrusted JSON object, logging what is wrong.

Each reader returns the value when it is good and None otherwise, having
logged exactly one issue for a bad or missing required value, so callers
can go on checking everything else.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final, Literal, TypeGuard, TypeVar

from miau.engine.vocabulary import CORE_PROPERTIES, OPERATORS
from miau.packs.issues import IssueLog, Location
from miau.packs.values import (
    describe,
    integer_text,
    is_array,
    is_integer,
    is_record,
    normal_token,
    quote,
)

_Shape = TypeVar("_Shape")

__all__ = [
    "TOKEN_RULE",
    "Role",
    "check_key_token",
    "check_string",
    "check_token",
    "read_array",
    "read_choice",
    "read_integer",
    "read_matching",
    "read_record",
    "read_string",
    "read_token",
    "string_keys",
    "token_role_problem",
    "unsupported_fields",
]

Choice = TypeVar("Choice", bound=str)

Role = Literal["text", "noun", "property"]
"""What a token is for: a word tile's text, an object's noun, or a declared property."""

_MISSING: Final = object()


def _get(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    required: bool,
    what: str,
) -> object:
    """Return the raw value, or ``_MISSING`` (logged as an error when required)."""
    if key in record:
        return record[key]
    if required:
        log.error((*loc, key), f"is missing; expected {what}")
    return _MISSING


def check_string(
    log: IssueLog,
    place: Location,
    value: object,
    *,
    what: str,
    max_length: int | None = None,
    non_blank: bool = True,
    one_line: bool = False,
) -> str | None:
    """Return ``value`` if it is a fitting string; otherwise log why and return None."""
    if not isinstance(value, str):
        log.error(place, f"must be {what}; found {describe(value)}")
        return None
    if non_blank and not value.strip():
        log.error(place, f"must not be blank; expected {what}")
        return None
    if max_length is not None and len(value) > max_length:
        log.error(place, f"is {len(value)} characters long; the most is {max_length}")
        return None
    if one_line and ("\n" in value or "\r" in value):
        log.error(place, f"must be one line; expected {what}")
        return None
    return value


def read_string(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    *,
    what: str,
    required: bool = False,
    max_length: int | None = None,
    non_blank: bool = True,
    one_line: bool = False,
) -> str | None:
    """Read a string field; ``what`` names what is expected, for messages."""
    value = _get(log, loc, record, key, required, what)
    if value is _MISSING:
        return None
    return check_string(
        log,
        (*loc, key),
        value,
        what=what,
        max_length=max_length,
        non_blank=non_blank,
        one_line=one_line,
    )


def read_matching(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    pattern: re.Pattern[str],
    *,
    what: str,
    required: bool = False,
) -> str | None:
    """Read a string field that must match ``pattern`` in full."""
    value = read_string(log, loc, record, key, what=what, required=required)
    if value is not None and not pattern.fullmatch(value):
        log.error((*loc, key), f"must be {what}; found {quote(value)}")
        return None
    return value


def read_integer(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    *,
    low: int | None,
    high: int | None = None,
    required: bool = False,
    what: str | None = None,
) -> int | None:
    """Read an integer field within ``low`` to ``high`` (inclusive; None is unbounded)."""
    if what is None:
        what = _integer_range(low, high)
    value = _get(log, loc, record, key, required, what)
    if value is _MISSING:
        return None
    if not is_integer(value):
        log.error((*loc, key), f"must be {what}; found {describe(value)}")
        return None
    if (low is not None and value < low) or (high is not None and value > high):
        log.error((*loc, key), f"is {integer_text(value)}; expected {what}")
        return None
    return value


def _integer_range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer of {low} or more"
    if high is not None:
        return f"an integer of {high} or less"
    return "an integer"


def read_choice(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    choices: Sequence[Choice],
    *,
    required: bool = False,
) -> Choice | None:
    """Read a field that must be one of a few strings."""
    if len(choices) == 1:
        what = quote(choices[0])
    else:
        what = "one of " + ", ".join(quote(choice) for choice in choices)
    value = _get(log, loc, record, key, required, what)
    if value is _MISSING:
        return None
    for choice in choices:
        if value == choice:
            return choice
    log.error((*loc, key), f"must be {what}; found {describe(value)}")
    return None


def read_array(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    *,
    what: str,
    required: bool = False,
) -> Sequence[object] | None:
    """Read a field that must be a JSON array (its items are checked by the caller)."""
    return _read_shaped(log, loc, record, key, is_array, what=what, required=required)


def read_record(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    *,
    what: str,
    required: bool = False,
) -> Mapping[object, object] | None:
    """Read a field that must be a JSON object."""
    return _read_shaped(log, loc, record, key, is_record, what=what, required=required)


def _read_shaped(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    shape: Callable[[object], TypeGuard[_Shape]],
    *,
    what: str,
    required: bool,
) -> _Shape | None:
    """Read a field whose JSON type ``shape`` tells apart (an array or an object)."""
    value = _get(log, loc, record, key, required, what)
    if value is _MISSING:
        return None
    if not shape(value):
        log.error((*loc, key), f"must be {what}; found {describe(value)}")
        return None
    return value


def string_keys(
    log: IssueLog, loc: Location, record: Mapping[object, object]
) -> list[tuple[str, object]]:
    """Return the items whose keys are strings, logging any that are not."""
    items: list[tuple[str, object]] = []
    for key, value in record.items():
        if isinstance(key, str):
            items.append((key, value))
        else:
            log.error(loc, f"has the key {key!r}; keys must be strings")
    return items


def unsupported_fields(
    log: IssueLog, loc: Location, record: Mapping[object, object], allowed: Collection[str]
) -> None:
    """Log every key that is not an allowed field, suggesting the likely one."""
    for key, _ in string_keys(log, loc, record):
        if key in allowed:
            continue
        lowered = {name.lower(): name for name in allowed}
        guess = lowered.get(key.lower()) or next(
            iter(difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.7)), None
        )
        if guess is not None:
            hint = f"did you mean {quote(guess)}?"
        else:
            hint = "the fields here are " + ", ".join(allowed)
        log.error((*loc, key), f"unsupported field; {hint}")


TOKEN_RULE: Final = 'a letter A to Z, then up to 31 letters, digits, "_" or "-"'
"""What a word token looks like, for messages."""


def token_role_problem(token: str, role: Role) -> str | None:
    """Say why ``token`` cannot play ``role`` ("noun" or "property"), or None.

    Any token can be a word tile's text; nouns and declared properties may
    not reuse the operators or core properties.
    """
    if role == "text":
        return None
    if token in OPERATORS:
        kind = "an operator"
    elif token in CORE_PROPERTIES:
        kind = "a core property"
    else:
        return None
    if role == "noun":
        return f"{token} is {kind}, not a noun"
    return f'{token} is {kind}; a declared property needs a new word such as "TICK"'


def check_token(
    log: IssueLog, place: Location, value: object, *, role: Role, what: str
) -> str | None:
    """Return ``value`` as an uppercase token fit for ``role``, or log why not."""
    token = normal_token(value)
    if token is None:
        log.error(place, f"must be {what} ({TOKEN_RULE}); found {describe(value)}")
        return None
    problem = token_role_problem(token, role)
    if problem is not None:
        log.error(place, problem)
        return None
    return token


def read_token(
    log: IssueLog,
    loc: Location,
    record: Mapping[object, object],
    key: str,
    *,
    role: Role,
    what: str,
    required: bool = False,
) -> str | None:
    """Read a word-token field; lowercase is accepted and raised."""
    value = _get(log, loc, record, key, required, what)
    if value is _MISSING:
        return None
    return check_token(log, (*loc, key), value, role=role, what=what)


def check_key_token(log: IssueLog, place: Location, key: str, *, role: Role, what: str) -> bool:
    """Check a mapping key that must be an uppercase token fit for ``role``.

    Keys are not raised to uppercase: two keys differing only in case would
    silently collide.
    """
    token = normal_token(key)
    if token is None:
        log.error(place, f"must be {what} ({TOKEN_RULE})")
        return False
    if token != key:
        log.error(place, f"must be uppercase: write {quote(token)}")
        return False
    problem = token_role_problem(token, role)
    if problem is not None:
        log.error(place, problem)
        return False
    return True
