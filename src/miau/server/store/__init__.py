"""Where players, games in progress, progress and libraries live.

The game code speaks only to the :class:`Store` protocol (``protocol``),
through a :class:`StoreRunner` (``runner``) that makes each call on a
worker thread. Two stores implement it, both on the SQL written once in
``sql``: :class:`SqliteStore` (``sqlite``, the default, one file) and
``PostgresStore`` (``postgres``, for several server processes on one
database; imported only when asked for, since only such deployments need
psycopg).
"""

from __future__ import annotations

from pathlib import Path

from miau.server.store.protocol import Store
from miau.server.store.records import (
    SCHEMA_VERSION,
    CallOutcome,
    LevelProgress,
    LibraryEntry,
    LibraryPack,
    LibraryPackExistsError,
    LibraryUsage,
    LogEntry,
    RoomCheck,
    StaleGameError,
    StoredGame,
    StoreError,
    StoreQuotaError,
    text_digest,
    text_size,
)
from miau.server.store.runner import StoreRunner
from miau.server.store.sqlite import SqliteStore

__all__ = [
    "POSTGRES_SCHEMES",
    "SCHEMA_VERSION",
    "CallOutcome",
    "LevelProgress",
    "LibraryEntry",
    "LibraryPack",
    "LibraryPackExistsError",
    "LibraryUsage",
    "LogEntry",
    "RoomCheck",
    "SqliteStore",
    "StaleGameError",
    "Store",
    "StoreError",
    "StoreQuotaError",
    "StoreRunner",
    "StoredGame",
    "open_store",
    "text_digest",
    "text_size",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A ``--db`` that starts with one of these is a PostgreSQL URL; anything else is a SQLite file."""


def open_store(location: str | Path) -> Store:
    """The store at ``location``: a PostgreSQL URL (``postgresql://...``) or a SQLite file.

    :raises StoreError: when the database cannot be used.
    """
    if isinstance(location, str) and location.startswith(POSTGRES_SCHEMES):
        from miau.server.store.postgres import PostgresStore

        return PostgresStore(location)
    return SqliteStore(location)
