"""The :class:`~miau.server.store.protocol.Store` on PostgreSQL, for several server processes on one database.

Selected by ``miau play --db postgresql://user@host:port/dbname``. The
semantics are SQLite's: every call commits before it returns, one row per
accepted intent. What SQLite gets from its single writer, PostgreSQL gets
from locks and constraints, so that processes sharing the database cannot
both move one game on:

- ``(game_id, seq)`` is the primary key of the log: two processes appending
  entry N to one game cannot both succeed; the second gets
  :class:`~miau.server.store.records.StaleGameError` and its session replays the
  stored game.
- An append locks its game's row (``FOR SHARE``) while it checks that the
  game is unfinished, and finishing a game updates that row, so an entry
  never lands in a game another process has just finished.
- Starting a game takes a transaction-scoped advisory lock on (player,
  pack, level), so two processes replacing the same game serialise instead
  of tripping over the "one unfinished game per level" index.
- Creating the schema takes an advisory lock too: several processes may
  start on an empty database at once.

Each store keeps a small pool of connections (``connections``, default 4)
and says so in ``concurrent_calls``, so the server's store runner lets that
many calls run at once: PostgreSQL then flushes their commits together.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import ClassVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import TupleRow

from miau.server.store.records import StoreError
from miau.server.store.sql import POSTGRES, Database, SqlStore, Statements

__all__ = ["DEFAULT_CONNECTIONS", "PostgresStore"]

DEFAULT_CONNECTIONS = 4
"""Connections per server process: enough for commits to be flushed in groups."""

_CONNECT_TIMEOUT_SECONDS = 10

_KEY_SEPARATOR = "\x1f"
"""Joins the parts of an advisory lock's key: no id or token holds it."""


class PostgresStore(SqlStore):
    """The store on a PostgreSQL database, safe across processes."""

    statements: ClassVar[Statements] = Statements(POSTGRES)
    duplicate_error: ClassVar[type[Exception]] = pg_errors.UniqueViolation

    def __init__(self, url: str, *, connections: int = DEFAULT_CONNECTIONS) -> None:
        """Connect to the database at ``url`` and create the schema on first use.

        :raises StoreError: when the database cannot be reached, or holds a
            schema newer than this Miau knows.
        """
        if connections < 1:
            raise ValueError(f"a store needs at least one connection, not {connections}")
        self.url = url
        self.concurrent_calls = connections
        self._idle: queue.LifoQueue[psycopg.Connection[TupleRow]] = queue.LifoQueue()
        self._all: list[psycopg.Connection[TupleRow]] = []
        self._all_lock = threading.Lock()
        self._closed = False
        try:
            for _ in range(connections):
                self._idle.put(self._connect())
            self._migrate()
        except BaseException:
            self.close()
            raise

    def _connect(self) -> psycopg.Connection[TupleRow]:
        try:
            connection = psycopg.connect(
                self.url, autocommit=True, connect_timeout=_CONNECT_TIMEOUT_SECONDS
            )
        except psycopg.Error as error:
            raise StoreError(f"cannot connect to PostgreSQL: {error}".strip()) from error
        with self._all_lock:
            self._all.append(connection)
        return connection

    @contextmanager
    def _reading(self) -> Iterator[psycopg.Connection[TupleRow]]:
        """A connection of the pool for one call; a broken one is replaced on the next call."""
        if self._closed:
            raise StoreError("the store is closed")
        connection = self._idle.get()
        try:
            if connection.broken or connection.closed:
                connection = self._connect()
            yield connection
        finally:
            self._idle.put(connection)

    def _statement(self) -> contextlib.AbstractContextManager[psycopg.Connection[TupleRow]]:
        # The pool's connections commit each statement by themselves: one round trip.
        return self._reading()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[TupleRow]]:
        with self._reading() as db, db.transaction():
            yield db

    def _serialise(self, db: Database, *key: str) -> None:
        """Take a transaction-scoped advisory lock on ``key``."""
        db.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_KEY_SEPARATOR.join(key),)
        )

    def _has_schema(self, db: Database) -> bool:
        row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL", ()).fetchone()
        return bool(row and row[0])

    def _name(self) -> str:
        return "the PostgreSQL database"

    def _tables(self, db: Database) -> set[str]:
        rows = db.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            (),
        ).fetchall()
        return {str(row[0]) for row in rows}

    def _columns(self, db: Database, table: str) -> set[str]:
        rows = db.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s",
            (table,),
        ).fetchall()
        return {str(row[0]) for row in rows}

    def _keys(self, db: Database, table: str) -> list[tuple[str, bool, bool, tuple[str, ...]]]:
        """Each index of ``table``: its name, whether primary, whether unique, its columns in order."""
        rows = db.execute(
            "SELECT i.relname, x.indisprimary, x.indisunique, "
            "array_agg(a.attname::text ORDER BY k.place) "
            "FROM pg_index x "
            "JOIN pg_class t ON t.oid = x.indrelid "
            "JOIN pg_class i ON i.oid = x.indexrelid "
            "JOIN pg_namespace n ON n.oid = t.relnamespace "
            "CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, place) "
            "JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum "
            "WHERE t.relname = %s AND n.nspname = current_schema() "
            "GROUP BY i.relname, x.indisprimary, x.indisunique",
            (table,),
        ).fetchall()
        return [
            (str(name), bool(primary), bool(unique), tuple(columns))
            for name, primary, unique, columns in rows
        ]

    def _primary_key(self, db: Database, table: str) -> tuple[str, ...]:
        for _, primary, _, columns in self._keys(db, table):
            if primary:
                return columns
        return ()

    def _unique_indexes(self, db: Database, table: str) -> dict[str, tuple[str, ...]]:
        return {
            name: columns
            for name, primary, unique, columns in self._keys(db, table)
            if unique and not primary
        }

    def _index_names(self, db: Database) -> set[str]:
        rows = db.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()", ()
        ).fetchall()
        return {str(row[0]) for row in rows}

    def close(self) -> None:
        """Close every connection."""
        self._closed = True
        with self._all_lock:
            for connection in self._all:
                connection.close()
            self._all.clear()
