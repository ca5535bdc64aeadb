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
from typing import Final

from miau.packs.issues import IssueLog, Location, PackError, PackIssue
from miau.packs.model import Pack
from miau.packs.validate import check_pack

__all__ = ["load_pack", "load_pack_text"]


def load_pack(source: str | os.PathLike[str] | Mapping[str, object]) -> Pack:
    """Load a pack from a JSON file path, or check and load an already parsed mapping.

    Every problem is collected before anything is decided. A mapping is
    never changed, and the pack shares no mutable data with it.

    :raises PackError: listing every issue (errors and warnings) when there
        is at least one error; nothing of such a pack is loaded.
    :raises OSError: when the file cannot be read.
    """
    if isinstance(source, Mapping):
        issues, pack = check_pack(source)
    else:
        issues, pack = _check_bytes(Path(source).read_bytes())
    if pack is None:
        raise PackError(issues)
    return pack


def load_pack_text(text: str) -> Pack:
    """Load a pack from its JSON text (a browser upload, say).

    :raises PackError: as :func:`load_pack` does, including for text that
        is not JSON (with its line and column).
    """
    issues, pack = _check_text(text)
    if pack is None:
        raise PackError(issues)
    return pack


def _check_bytes(raw: bytes) -> tuple[list[PackIssue], Pack | None]:
    try:
        # utf-8-sig: editors on Windows like to start a file with a byte order mark.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        message = f"the file is not UTF-8 text: byte {error.start} cannot be read"
        return [PackIssue("", message)], None
    return _check_text(text)


def _check_text(text: str) -> tuple[list[PackIssue], Pack | None]:
    try:
        data = json.loads(text, object_pairs_hook=_JsonObject.from_pairs, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        message = f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        return [PackIssue("", message)], None
    except _HugeNumberError:
        return [PackIssue("", f"invalid JSON: {_HugeNumberError.message}")], None
    except RecursionError:
        return [PackIssue("", "invalid JSON: it is nested too deeply to read")], None
    log = IssueLog()
    for location, key in _duplicate_keys(data):
        log.error(
            (*location, key),
            "appears more than once in this object; JSON keeps only the last one, so write it once",
        )
    return check_pack(data, log)


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
