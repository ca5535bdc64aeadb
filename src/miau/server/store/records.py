"""What the store keeps and says: its schema version, its errors and its records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from miau.play.log import LogEntry

__all__ = [
    "SCHEMA_VERSION",
    "CallOutcome",
    "LevelProgress",
    "LibraryBounds",
    "LibraryEntry",
    "LibraryPack",
    "LibraryPackExistsError",
    "LibraryUsage",
    "LogEntry",
    "RoomCheck",
    "StaleGameError",
    "StoreError",
    "StoreQuotaError",
    "StoredGame",
    "stored_size",
    "text_digest",
    "text_size",
]

SCHEMA_VERSION = 4
"""The schema this code writes; a database with a higher version is refused.

Version 2 added the ``library`` table; version 3 a library pack's size and
listing summary, and keeps no finished game; version 4 each player's last
activity and the ``totals`` the server-wide quotas read. An older database
is upgraded when opened.
"""


class StoreError(RuntimeError):
    """The database cannot be used (for example, a newer Miau made it)."""


class StaleGameError(StoreError):
    """The game was moved on elsewhere (another tab) or finished since it was loaded."""


class StoreQuotaError(StoreError):
    """The database holds as much as it may (games in progress, in all)."""


class LibraryPackExistsError(StoreError):
    """A pack with that id is in the player's library already, and it was not to be replaced."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """An unfinished game: its id and its intent log, oldest first."""

    game_id: int
    intents: tuple[LogEntry, ...]


@dataclass(frozen=True, slots=True)
class LevelProgress:
    """What a player has achieved on one level."""

    pack: str
    level: str
    won: bool
    best_moves: int | None
    best_solution: str | None


def text_digest(text: str) -> str:
    """The SHA-256 of a pack's text (hex): tells two stored texts apart without reading them."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def text_size(text: str) -> int:
    """A text's size in bytes of UTF-8."""
    return len(text.encode("utf-8", "surrogatepass"))


DIGEST_SIZE = 64
"""The bytes of a stored pack's digest (:func:`text_digest`, hex)."""


def stored_size(pack: str, version: str, name: str, text: str, summary: str) -> int:
    """A library pack's size as the quotas count it: the bytes of every text stored in its row.

    Its id, version, name, text, digest and the listing summary (which
    copies the pack's description): so a pack whose summary is as big as
    its text counts twice, as it takes twice the room.
    """
    return sum(text_size(each) for each in (pack, version, name, text, summary)) + DIGEST_SIZE


@dataclass(frozen=True, slots=True)
class LibraryEntry:
    """One pack of a player's library, without its text.

    Its id, version, name, text digest, text size in bytes and the listing
    summary kept when it was saved (JSON; empty for a pack saved before
    summaries were kept).
    """

    pack: str
    version: str
    name: str
    digest: str
    size: int = 0
    summary: str = ""


@dataclass(frozen=True, slots=True)
class LibraryUsage:
    """What libraries hold: the player's packs and bytes, all players' bytes and players."""

    packs: int
    bytes: int
    all_bytes: int
    players: int


@dataclass(frozen=True, slots=True)
class LibraryBounds:
    """The server-wide library quotas a save makes room under by evicting idle players' packs."""

    all_bytes: int
    """Bytes of pack text in all libraries together."""
    players: int
    """Players with at least one pack."""


RoomCheck = Callable[[LibraryUsage, int | None], None]
"""A quota check run inside a library save's transaction: given what the libraries hold and
the size of the pack the save replaces (None for a new one), it raises to refuse the save."""


@dataclass(frozen=True, slots=True)
class LibraryPack:
    """One pack of a player's library as stored: id, version, name, text digest and JSON text."""

    pack: str
    version: str
    name: str
    digest: str
    text: str


@dataclass(frozen=True, slots=True)
class CallOutcome:
    """What one call of a batch gave: its result, or the exception it raised."""

    result: Any
    error: Exception | None
