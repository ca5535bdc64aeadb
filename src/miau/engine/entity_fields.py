"""The one checker of an entity's fields, and the field reader it stands on.

An entity arrives as an untrusted JSON object in three places: a level's
``objects`` (``Level.from_dict``), a snapshot handed to ``Game.restore``, and
a pack document (``miau.packs``). All three read it with :func:`read_entity`,
so a field means the same everywhere and each problem has one message.

Problems are reported, not raised: a :data:`Report` callback receives the
field a problem is in (None for the entity as a whole) and the message. The
pack loader logs every problem at its place; the engine keeps the first
(:func:`check_entity` collects them for it).

The message helpers (:func:`describe`, :func:`quote`, ...) live here because
the engine's messages need them too; ``miau.packs.values`` re-exports them.
Standard library only.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Literal, NamedTuple, TypeGuard, TypeVar

from miau.engine.vocabulary import (
    CORE_PROPERTIES,
    FACINGS,
    OPERATORS,
    RESERVED_WORDS,
    TOKEN_PATTERN,
    Facing,
)

__all__ = [
    "MISSING",
    "TOKEN_RULE",
    "EntityFields",
    "FieldReader",
    "Problem",
    "Report",
    "Role",
    "check_entity",
    "describe",
    "integer_text",
    "is_integer",
    "is_record",
    "normal_token",
    "problem_text",
    "quote",
    "read_entity",
    "token_problem",
    "token_role_problem",
]

# --- Naming a JSON value in a message ---------------------------------------

_SHOWN_CHARACTERS: Final = 40
_SHOWN_JSON: Final = 60
_LONGEST_SHOWN_BITS: Final = 64


def is_integer(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a JSON integer; ``true`` and ``1.0`` are not."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_record(value: object) -> TypeGuard[Mapping[object, object]]:
    """Whether ``value`` is a JSON object."""
    return isinstance(value, Mapping)


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
    if is_record(value) or isinstance(value, list | tuple):
        return _compact_json(value) or ("an object" if is_record(value) else "an array")
    return f"a {type(value).__name__}, which JSON cannot hold"


def _compact_json(value: object) -> str | None:
    """Write a small object or array as JSON; None when it is long or odd."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None
    return text if len(text) <= _SHOWN_JSON else None


# --- Word tokens ---------------------------------------------------------------

Role = Literal["text", "noun", "property"]
"""What a token is for: a word tile's text, an object's noun, or a declared property."""

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


def token_problem(value: object, *, role: Role, what: str) -> tuple[str | None, str | None]:
    """Read ``value`` as an uppercase token fit for ``role``: ``(token, None)`` or ``(None, why)``."""
    token = normal_token(value)
    if token is None:
        return None, f"must be {what} ({TOKEN_RULE}); found {describe(value)}"
    problem = token_role_problem(token, role)
    if problem is not None:
        return None, problem
    return token, None


# --- Reading the fields of one JSON object -----------------------------------

Report = Callable[[str | None, str], None]
"""Called with the field a problem is in (None: the object itself) and the message."""

MISSING: Final = object()
"""What :meth:`FieldReader.get` returns for a field that is not there."""

Choice = TypeVar("Choice", bound=str)


class FieldReader:
    """Reads typed fields out of one untrusted JSON object.

    Each method returns the value when it is good and None otherwise,
    having reported exactly one problem for a bad or a missing required
    value, so the caller can go on checking everything else.
    """

    __slots__ = ("raw", "report")

    def __init__(self, raw: Mapping[object, object], report: Report) -> None:
        """Read fields of ``raw``, passing each problem to ``report``."""
        self.raw = raw
        self.report = report

    def get(self, key: str, *, required: bool, what: str) -> object:
        """The raw value, or ``MISSING`` (reported when it is required)."""
        if key in self.raw:
            return self.raw[key]
        if required:
            self.report(key, f"is missing; expected {what}")
        return MISSING

    def choice(
        self, key: str, choices: Sequence[Choice], *, required: bool = False
    ) -> Choice | None:
        """A field that must be one of a few strings."""
        # The expectation is written only for a message: levels are read often.
        value = self.raw.get(key, MISSING)
        for choice in choices:
            if value == choice:
                return choice
        if value is MISSING:
            if required:
                self.report(key, f"is missing; expected {_one_of(choices)}")
            return None
        self.report(key, f"must be {_one_of(choices)}; found {describe(value)}")
        return None

    def integer(
        self,
        key: str,
        *,
        low: int | None,
        high: int | None = None,
        required: bool = False,
        what: str | None = None,
    ) -> int | None:
        """An integer field within ``low`` to ``high`` (inclusive; None is unbounded)."""
        value = self.raw.get(key, MISSING)
        if type(value) is int and (low is None or value >= low) and (high is None or value <= high):
            return value
        what = _integer_range(low, high) if what is None else what
        if value is MISSING:
            if required:
                self.report(key, f"is missing; expected {what}")
        elif not is_integer(value):
            self.report(key, f"must be {what}; found {describe(value)}")
        elif (low is not None and value < low) or (high is not None and value > high):
            self.report(key, f"is {integer_text(value)}; expected {what}")
        else:
            return value  # an int subclass other than bool
        return None

    def token(self, key: str, *, role: Role, what: str, required: bool = False) -> str | None:
        """A word-token field; lowercase is accepted and raised."""
        value = self.get(key, required=required, what=what)
        if value is MISSING:
            return None
        token, problem = token_problem(value, role=role, what=what)
        if problem is not None:
            self.report(key, problem)
        return token


def _one_of(choices: Sequence[str]) -> str:
    if len(choices) == 1:
        return quote(choices[0])
    return "one of " + ", ".join(quote(choice) for choice in choices)


def _integer_range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer of {low} or more"
    if high is not None:
        return f"an integer of {high} or less"
    return "an integer"


# --- The entity checker -------------------------------------------------------

Problem = tuple[str | None, str]
"""A field of the entity (None: the entity as a whole) and what is wrong with it."""


class EntityFields(NamedTuple):
    """An entity's fields, checked: tokens uppercase, the kind explicit."""

    kind: Literal["object", "word"]
    token: str
    """An object's noun or a word tile's text."""
    x: int
    y: int
    facing: Facing | None
    """None when the entity does not say (it then faces right)."""

    @property
    def is_word(self) -> bool:
        """Whether this is a word tile."""
        return self.kind == "word"

    @property
    def facing_index(self) -> int:
        """The facing as an index into ``FACINGS``."""
        return 0 if self.facing is None else FACINGS.index(self.facing)


def read_entity(
    raw: object, width: int | None, height: int | None, report: Report
) -> EntityFields | None:
    """Check one entity; report every problem and return it only when it is sound.

    An entity is ``{"kind"?, "noun" | "text", "x", "y", "facing"?}``: without
    ``kind``, a ``text`` makes it a word tile and a ``noun`` an object. A
    noun may not be an operator or a core property; checks that need the
    level's own property words are the caller's. ``width`` or ``height`` is
    None when the grid size is itself unknown (then a coordinate needs only
    to be 0 or more). Other fields are not looked at: the pack loader flags
    them, the engine ignores them (a snapshot's ``id``, say).
    """
    if not is_record(raw):
        report(
            None,
            'must be an object such as {"noun": "ROCK", "x": 0, "y": 0} or a word tile such as '
            f'{{"text": "ROCK", "x": 0, "y": 0}}; found {describe(raw)}',
        )
        return None
    fields = FieldReader(raw, report)
    kind: Literal["object", "word"] | None
    if "kind" in raw:
        kind = fields.choice("kind", ("object", "word"))
    else:
        kind = "word" if "text" in raw else "object"
        if "noun" in raw and "text" in raw:
            report(None, "has both noun and text; an object has a noun, a word tile has a text")
            kind = None
    token: str | None = None
    if kind == "word":
        if "noun" in raw and "kind" in raw:
            report("noun", "a word tile has a text, not a noun")
        what = 'the word on the tile, such as "ROCK" or "IS"'
        token = fields.token("text", role="text", what=what, required=True)
    elif kind == "object":
        if "text" in raw:
            report("text", "an object has a noun, not a text")
        token = fields.token(
            "noun", role="noun", what='the object\'s noun, such as "ROCK"', required=True
        )
    x = _coordinate(fields, "x", width)
    y = _coordinate(fields, "y", height)
    facing = fields.choice("facing", FACINGS)
    if kind is None or token is None or x is None or y is None:
        return None
    return EntityFields(kind, token, x, y, facing)


def _coordinate(fields: FieldReader, key: str, side: int | None) -> int | None:
    value = fields.integer(key, low=None, required=True, what="an integer")
    if value is None:
        return None
    axis = "wide" if key == "x" else "high"
    if side is not None and not 0 <= value < side:
        fields.report(
            key, f"is {integer_text(value)}, outside the {side}-{axis} grid (0 to {side - 1})"
        )
        return None
    if side is None and value < 0:
        fields.report(key, f"is {integer_text(value)}; coordinates start at 0")
        return None
    return value


def check_entity(raw: object, width: int, height: int) -> EntityFields | list[Problem]:
    """Check one entity on a ``width`` x ``height`` grid: its fields, or every problem.

    The engine's entry point (``Level.from_dict``, ``Game.restore``); a
    caller that raises on the first problem writes it as
    ``f"{place}.{field}: {message}"``, or ``f"{place}: {message}"`` when the
    field is None (see :func:`problem_text`).
    """
    plain = _plain_entity(raw, width, height)
    if plain is not None:
        return plain
    problems: list[Problem] = []
    entity = read_entity(
        raw, width, height, lambda field, message: problems.append((field, message))
    )
    if problems or entity is None:
        return problems
    return entity


def _plain_entity(raw: object, width: int, height: int) -> EntityFields | None:
    """The entity when it is in the normal form, which ``read_entity`` accepts as it is.

    The normal form is what the pack loader hands the engine: ``kind``
    given, the token already uppercase, no stray ``noun``/``text``. Levels
    are built far more often than they are wrong (every ``Game``, every
    reset of a tool), so this path skips the reader's reporting machinery;
    anything else, sound or not, goes through ``read_entity``. A test holds
    the two to the same answers.
    """
    if type(raw) is not dict:
        return None
    kind, x, y = raw.get("kind"), raw.get("x"), raw.get("y")
    if type(x) is not int or type(y) is not int or not (0 <= x < width and 0 <= y < height):
        return None
    facing = raw.get("facing", MISSING)
    if facing is MISSING:
        facing = None
    elif type(facing) is not str or facing not in FACINGS:
        return None
    if kind == "object" and "text" not in raw:
        token = raw.get("noun")
        if type(token) is not str or not TOKEN_PATTERN.fullmatch(token) or token in RESERVED_WORDS:
            return None
        return EntityFields("object", token, x, y, facing)
    if kind == "word" and "noun" not in raw:
        token = raw.get("text")
        if type(token) is not str or not TOKEN_PATTERN.fullmatch(token):
            return None
        return EntityFields("word", token, x, y, facing)
    return None


def problem_text(place: str, problem: Problem) -> str:
    """A problem as one line, the way the pack loader prints its issues: ``objects[3].x: ...``."""
    field, message = problem
    return f"{place}: {message}" if field is None else f"{place}.{field}: {message}"
