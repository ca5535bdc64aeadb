"""Read a pack from a file, a JSON text or a mapping, all or nothing.

Reading is strict where ``json`` is lenient: a key written twice in one
object is an error (JSON would silently keep the last one), and a file
that is not UTF-8 or not JSON is reported with where it went wrong.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from miau.packs.issues import IssueLog, Location, PackError, PackIssue
from miau.packs.model import Pack
from miau.packs.validate import check_pack

__all__ = ["load_pack", "load_pack_or_level", "load_pack_text"]


def load_pack(source: str | os.PathLike[str] | Mapping[str, object]) -> Pack:
    """Load a pack from a JSON file path, or check and load an already parsed mapping.

    Every problem is collected before anything is decided. A mapping is
    never changed, and the pack shares no mutable data with it.

    :raises PackError: listing every issue (errors and warnings) when there
        is at least one error; nothing of such a pack is loaded.
    :raises OSError: when the file cannot be read.

    >>> from miau.worlds import shipped_pack_path
    >>> pack = load_pack(shipped_pack_path("tutorial"))
    >>> pack.manifest.id, len(pack.levels), pack.levels[0].title
    ('tutorial', 18, 'First Steps')
    >>> load_pack({"format": 1})
    Traceback (most recent call last):
    ...
    miau.packs.issues.PackError: manifest: is missing; expected an object with id, name, version and engine
    levels: is missing; expected an array of 1 to 64 levels
    format: unsupported field; the fields here are manifest, palette, vocabulary, properties, levels
    """
    if isinstance(source, Mapping):
        return _checked(source, IssueLog())
    return _checked(*_parse(_decode(Path(source).read_bytes())))


def load_pack_text(text: str) -> Pack:
    """Load a pack from its JSON text (a browser upload, say).

    :raises PackError: as :func:`load_pack` does, including for text that
        is not JSON (with its line and column).
    """
    return _checked(*_parse(text))


def load_pack_or_level(path: str | os.PathLike[str]) -> Pack | dict[str, Any]:
    """Read a file once and say what it holds: a pack, or a single engine-level dict.

    A JSON object with ``levels`` is a pack, checked as :func:`load_pack`
    checks one. Any other JSON object is returned as it is: an engine-level
    dict (the shape ``Game`` accepts and checks), handy for fixtures and
    experiments.

    :raises PackError: when the file is not UTF-8 text or not JSON, or when
        it is a pack with errors.
    :raises ValueError: when the JSON is not an object.
    :raises OSError: when the file cannot be read.
    """
    document, log = _parse(_decode(Path(path).read_bytes()))
    if not isinstance(document, dict):
        raise ValueError(f"{path}: a pack or level file must hold a JSON object")
    if "levels" not in document:
        return document
    return _checked(document, log)


def _checked(document: object, log: IssueLog) -> Pack:
    issues, pack = check_pack(document, log)
    if pack is None:
        raise PackError(issues)
    return pack


def _decode(raw: bytes) -> str:
    try:
        # utf-8-sig: editors on Windows like to start a file with a byte order mark.
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        message = f"the file is not UTF-8 text: byte {error.start} cannot be read"
        raise PackError([PackIssue("", message)]) from None


_CLOSERS = {"]": ("Expecting value", "array"), "}": ("Expecting property name", "object")}
"""What Python before 3.13 says at the bracket after a trailing comma, and what it closes."""


def _json_error_message(error: json.JSONDecodeError) -> str:
    """The decoder's complaint with its place, the same on every Python Miau runs on.

    Python 3.13 names a trailing comma and points at it; older versions
    point past it at the closing bracket, saying a value or a name was
    expected. Authors get the newer, plainer words everywhere.
    """
    document, position, message = error.doc, error.pos, error.msg
    closer = document[position : position + 1]
    if closer in _CLOSERS and message.startswith(_CLOSERS[closer][0]):
        comma = len(document[:position].rstrip()) - 1
        if comma >= 0 and document[comma] == ",":
            position, message = comma, f"Illegal trailing comma before end of {_CLOSERS[closer][1]}"
    line = document.count("\n", 0, position) + 1
    column = position - document.rfind("\n", 0, position)
    return f"invalid JSON at line {line}, column {column}: {message}"


def _parse(text: str) -> tuple[object, IssueLog]:
    """The JSON document, and a log holding its repeated keys.

    :raises PackError: when the text is not JSON.
    """
    try:
        data = json.loads(text, object_pairs_hook=_JsonObject.from_pairs, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        raise PackError([PackIssue("", _json_error_message(error))]) from None
    except _HugeNumberError:
        raise PackError([PackIssue("", f"invalid JSON: {_HugeNumberError.message}")]) from None
    except RecursionError:
        message = "invalid JSON: it is nested too deeply to read"
        raise PackError([PackIssue("", message)]) from None
    log = IssueLog()
    for location, key in _duplicate_keys(data):
        log.error(
            (*location, key),
            "appears more than once in this object; JSON keeps only the last one, so write it once",
        )
    return data, log


_LONGEST_INTEGER: Final = 100
"""Digits in the longest integer read; no field needs more, and Python caps conversion."""


class _HugeNumberError(ValueError):
    message: Final = f"a number has more than {_LONGEST_INTEGER} digits"


def _parse_int(text: str) -> int:
    if len(text) > _LONGEST_INTEGER:
        raise _HugeNumberError(_HugeNumberError.message)
    return int(text)


class _JsonObject(dict[str, object]):
    """A parsed JSON object that remembers the keys it saw more than once."""

    duplicates: tuple[str, ...] = ()

    @classmethod
    def from_pairs(cls, pairs: list[tuple[str, object]]) -> _JsonObject:
        obj = cls(pairs)
        if len(obj) != len(pairs):
            seen: set[str] = set()
            repeated: dict[str, None] = {}
            for key, _ in pairs:
                if key in seen:
                    repeated[key] = None
                seen.add(key)
            obj.duplicates = tuple(repeated)
        return obj


def _duplicate_keys(data: object) -> list[tuple[Location, str]]:
    """Find every repeated key, walking without recursion so depth cannot hurt."""
    found: list[tuple[Location, str]] = []
    stack: list[tuple[object, Location]] = [(data, ())]
    while stack:
        node, location = stack.pop()
        if isinstance(node, _JsonObject):
            found.extend((location, key) for key in node.duplicates)
            stack.extend((value, (*location, key)) for key, value in node.items())
        elif isinstance(node, list):
            stack.extend((value, (*location, index)) for index, value in enumerate(node))
    return found
