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
    LibraryBounds,
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
    stored_size,
    text_digest,
    text_size,
)
from miau.server.store.runner import StoreRunner
from miau.server.store.sql import EXPIRE_AFTER_SECONDS, IDLE_AFTER_SECONDS, SqlStore
from miau.server.store.sqlite import SqliteStore

__all__ = [
    "EXPIRE_AFTER_SECONDS",
    "IDLE_AFTER_SECONDS",
    "POSTGRES_SCHEMES",
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
    "SqliteStore",
    "StaleGameError",
    "Store",
    "StoreError",
    "StoreQuotaError",
    "StoreRunner",
    "StoredGame",
    "open_store",
    "stored_size",
    "text_digest",
    "text_size",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A ``--db`` that starts with one of these is a PostgreSQL URL; anything else is a SQLite file."""


def open_store(location: str | Path, *, idle_after: float = IDLE_AFTER_SECONDS) -> Store:
    """The store at ``location``: a PostgreSQL URL (``postgresql://...``) or a SQLite file.

    ``idle_after`` is how many seconds a player must have stored nothing
    before a full server may evict their data to make room for others.

    :raises StoreError: when the database cannot be used.
    :raises ValueError: when ``idle_after`` is negative.
    """
    if not idle_after >= 0:  # also refuses nan
        raise ValueError(f"idle_after must be zero or more seconds, not {idle_after!r}")
    store: SqlStore
    if isinstance(location, str) and location.startswith(POSTGRES_SCHEMES):
        from miau.server.store.postgres import PostgresStore

        store = PostgresStore(location)
    else:
        store = SqliteStore(location)
    store.idle_after = idle_after
    return store
