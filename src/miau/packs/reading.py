"""Read typed fields out of an untrusted JSON object, logging what is wrong.

A :class:`FieldReader` stands for one JSON object of the pack and its place
in the document; each of its methods reads one field and returns the value
when it is good and None otherwise, having logged exactly one issue for a
bad or missing required value, so callers can go on checking everything
else. The ``check_*`` functions do the same for a value that is not a
field (an array item, a mapping key).

The readers for choices, integers and word tokens are the engine's
(:class:`miau.engine.entity_fields.FieldReader`), so an entity's fields read
the same in a pack and in a level handed to the engine.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TypeGuard, TypeVar

from miau.engine import entity_fields
from miau.engine.entity_fields import (
    MISSING,
    TOKEN_RULE,
    Role,
    token_problem,
    token_role_problem,
)
from miau.packs.issues import IssueLog, Location
from miau.packs.values import describe, is_array, is_record, normal_token, quote

__all__ = [
    "TOKEN_RULE",
    "FieldReader",
    "Role",
    "check_key_token",
    "check_string",
    "check_token",
    "string_keys",
    "token_role_problem",
]

_Shape = TypeVar("_Shape")


class FieldReader(entity_fields.FieldReader):
    """Reads the fields of one JSON object of a pack, logging each problem at its place.

    ``loc`` is where the object is in the document; a problem in field
    ``key`` is logged at ``(*loc, key)``.
    """

    __slots__ = ("loc", "log")

    def __init__(self, log: IssueLog, loc: Location, raw: Mapping[object, object]) -> None:
        """Read fields of ``raw``, which sits at ``loc``, logging into ``log``."""
        super().__init__(raw, log.reporter(loc))
        self.log = log
        self.loc = loc

    def string(
        self,
        key: str,
        *,
        what: str,
        required: bool = False,
        max_length: int | None = None,
        non_blank: bool = True,
        one_line: bool = False,
    ) -> str | None:
        """A string field; ``what`` names what is expected, for messages."""
        value = self.get(key, required=required, what=what)
        if value is MISSING:
            return None
        return check_string(
            self.log,
            (*self.loc, key),
            value,
            what=what,
            max_length=max_length,
            non_blank=non_blank,
            one_line=one_line,
        )

    def matching(
        self, key: str, pattern: re.Pattern[str], *, what: str, required: bool = False
    ) -> str | None:
        """A string field that must match ``pattern`` in full."""
        value = self.string(key, what=what, required=required)
        if value is not None and not pattern.fullmatch(value):
            self.report(key, f"must be {what}; found {quote(value)}")
            return None
        return value

    def array(self, key: str, *, what: str, required: bool = False) -> Sequence[object] | None:
        """A field that must be a JSON array (its items are checked by the caller)."""
        return self._shaped(key, is_array, what=what, required=required)

    def record(
        self, key: str, *, what: str, required: bool = False
    ) -> Mapping[object, object] | None:
        """A field that must be a JSON object."""
        return self._shaped(key, is_record, what=what, required=required)

    def _shaped(
        self,
        key: str,
        shape: Callable[[object], TypeGuard[_Shape]],
        *,
        what: str,
        required: bool,
    ) -> _Shape | None:
        """A field whose JSON type ``shape`` tells apart (an array or an object)."""
        value = self.get(key, required=required, what=what)
        if value is MISSING:
            return None
        if not shape(value):
            self.report(key, f"must be {what}; found {describe(value)}")
            return None
        return value

    def unsupported(self, allowed: Collection[str]) -> None:
        """Log every key that is not an allowed field, suggesting the likely one."""
        lowered = {name.lower(): name for name in allowed}
        for key, _ in string_keys(self.log, self.loc, self.raw):
            if key in allowed:
                continue
            guess = lowered.get(key.lower()) or next(
                iter(difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.7)), None
            )
            if guess is not None:
                hint = f"did you mean {quote(guess)}?"
            else:
                hint = "the fields here are " + ", ".join(allowed)
            self.report(key, f"unsupported field; {hint}")


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


def check_token(
    log: IssueLog, place: Location, value: object, *, role: Role, what: str
) -> str | None:
    """Return ``value`` as an uppercase token fit for ``role``, or log why not."""
    token, problem = token_problem(value, role=role, what=what)
    if problem is not None:
        log.error(place, problem)
    return token


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
