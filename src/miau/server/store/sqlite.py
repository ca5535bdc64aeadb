"""The :class:`~miau.server.store.protocol.Store` on one SQLite file."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

from miau.server.store.records import CallOutcome
from miau.server.store.sql import SQLITE, Database, SqlStore, Statements

__all__ = ["SqliteStore"]


class SqliteStore(SqlStore):
    """The store on one SQLite file, in WAL mode.

    ``synchronous=FULL`` (the default here) flushes the log on every commit,
    so an intent the player saw accepted survives a power cut; ``NORMAL``
    may lose the last few commits on power loss (never on a crash of the
    process) and is faster on slow disks. One connection serves every
    thread, one call at a time.

    Commits are grouped: :meth:`run_batch` makes several calls in one
    transaction, each in its own savepoint, and flushes once for all of
    them; :class:`~miau.server.store.runner.StoreRunner` hands it the calls
    that queue up while a flush is under way. Each caller still hears back
    only after the commit that holds its call.
    """

    statements: ClassVar[Statements] = Statements(SQLITE)
    duplicate_error: ClassVar[type[Exception]] = sqlite3.IntegrityError

    def __init__(self, path: str | Path, *, synchronous: str = "FULL") -> None:
        """Open (and on first use create) the database at ``path``.

        :raises StoreError: when the file holds a schema newer than this Miau knows.
        """
        if synchronous not in {"FULL", "NORMAL"}:
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = Path(path)
        self._lock = threading.RLock()
        self._batching = False
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        try:
            self._migrate()
        except BaseException:
            self._db.close()
            raise
        # After the schema is known to be Miau's: the journal mode is kept in the file, and
        # another application's database is left exactly as it was.
        self._db.execute("PRAGMA journal_mode=WAL")

    def _name(self) -> str:
        return str(self.path)

    def _has_schema(self, db: Database) -> bool:
        query = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        return db.execute(query, ()).fetchone() is not None

    def _tables(self, db: Database) -> set[str]:
        rows = db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", ()
        ).fetchall()
        return {str(row[0]) for row in rows}

    def _columns(self, db: Database, table: str) -> set[str]:
        # The table's name comes from Miau's own list (EXPECTED_COLUMNS), never from outside.
        rows = db.execute(f"PRAGMA table_info({table})", ()).fetchall()
        return {str(row[1]) for row in rows}

    def _primary_key(self, db: Database, table: str) -> tuple[str, ...]:
        # table_info's last field is the column's place in the primary key (0: not in it).
        rows = db.execute(f"PRAGMA table_info({table})", ()).fetchall()
        keyed = sorted((int(row[5]), str(row[1])) for row in rows if int(row[5]) > 0)
        return tuple(name for _, name in keyed)

    def _unique_indexes(self, db: Database, table: str) -> dict[str, tuple[str, ...]]:
        found: dict[str, tuple[str, ...]] = {}
        for row in db.execute(f"PRAGMA index_list({table})", ()).fetchall():
            name, unique, origin = str(row[1]), int(row[2]), str(row[3])
            if unique and origin != "pk":
                columns = db.execute(f"PRAGMA index_info({name})", ()).fetchall()
                found[name] = tuple(str(column[2]) for column in sorted(columns))
        return found

    def _index_names(self, db: Database) -> set[str]:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'index'", ()).fetchall()
        return {str(row[0]) for row in rows}

    def _serialise(self, db: Database, *key: str) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already makes writers take turns."""

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self._db

    def _statement(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        # A lone statement still takes the transaction's path: inside a batch it needs its
        # own savepoint.
        return self._transaction()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._batching:
                # Inside run_batch's transaction: a failed call undoes only its own writes.
                self._db.execute("SAVEPOINT call")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK TO call")
                    self._db.execute("RELEASE call")
                    raise
                self._db.execute("RELEASE call")
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def run_batch(self, calls: Sequence[Callable[[], object]]) -> list[CallOutcome]:
        """Make ``calls`` (methods of this store) in one transaction; each one's outcome.

        Every call's writes stand or fall with the single commit at the end:
        if that fails, every outcome is its error.
        """
        outcomes: list[CallOutcome] = []
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._batching = True
            try:
                for call in calls:
                    try:
                        outcomes.append(CallOutcome(call(), None))
                    except Exception as error:
                        outcomes.append(CallOutcome(None, error))
            except BaseException:
                self._batching = False
                self._db.execute("ROLLBACK")
                raise
            self._batching = False
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
                return [CallOutcome(None, error) for _ in calls]
        return outcomes

    def close(self) -> None:
        """Release the database."""
        with self._lock:
            self._db.close()
