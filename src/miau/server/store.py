"""Where players, games in progress, progress and libraries live: the ``Store`` protocol and SQLite.

A game is (player, pack, level) plus its intent log, one row per accepted
intent. A player's library holds the packs they imported or made, each as
its JSON text. The game code speaks only to :class:`Store`, so a store for another
database (PostgreSQL, for several server processes) can replace
:class:`SqliteStore` without touching it.

Every method is synchronous and commits before it returns; the server calls
them from a worker thread so that a disk flush never stalls the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Protocol, TypeVar, TypeVarTuple

__all__ = [
    "SCHEMA_VERSION",
    "CallOutcome",
    "LevelProgress",
    "LibraryEntry",
    "LibraryPack",
    "LibraryPackExistsError",
    "SqliteStore",
    "StaleGameError",
    "Store",
    "StoreError",
    "StoreRunner",
    "StoredGame",
    "StoredIntent",
    "open_store",
    "text_digest",
]

Result = TypeVar("Result")
Arguments = TypeVarTuple("Arguments")

SCHEMA_VERSION = 2
"""The schema this code writes; a database with a higher version is refused.

Version 2 added the ``library`` table; a version 1 database gains it when opened.
"""


class StoreError(RuntimeError):
    """The database cannot be used (for example, a newer Miau made it)."""


class StaleGameError(StoreError):
    """The game was moved on elsewhere (another tab) or finished since it was loaded."""


class LibraryPackExistsError(StoreError):
    """A pack with that id is in the player's library already, and it was not to be replaced."""


@dataclass(frozen=True, slots=True)
class StoredIntent:
    """One accepted intent as stored: its letter, and the state JSON of a restore.

    Letters: ``U D L R`` steps, ``W`` wait, ``Z`` undo, ``X`` reset, ``S``
    restore (with ``payload``).
    """

    letter: str
    payload: str | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """An unfinished game: its id and its intent log, oldest first."""

    game_id: int
    intents: tuple[StoredIntent, ...]


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


@dataclass(frozen=True, slots=True)
class LibraryEntry:
    """One pack of a player's library, without its text: id, version, name and text digest."""

    pack: str
    version: str
    name: str
    digest: str


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


class Store(Protocol):
    """Storage of players, games in progress and progress; every call commits."""

    def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new."""
        ...

    def current_game(self, player: str, pack: str, level: str) -> StoredGame | None:
        """The player's unfinished game on this level, with its log, or None."""
        ...

    def start_game(
        self,
        player: str,
        pack: str,
        level: str,
        intents: Sequence[StoredIntent] = (),
        *,
        replace: bool = False,
    ) -> int:
        """Start a game on this level with the log ``intents``; its id.

        With ``replace``, an unfinished game on the level is finished first.

        :raises StaleGameError: without ``replace``, when there is an unfinished game.
        """
        ...

    def append_intent(self, game_id: int, seq: int, intent: StoredIntent) -> None:
        """Append ``intent`` as entry ``seq`` (0-based) of the game's log.

        :raises StaleGameError: when entry ``seq`` exists already or the game is finished.
        """
        ...

    def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win (the best move count and its moves); the new progress."""
        ...

    def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id."""
        ...

    def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id (code point order)."""
        ...

    def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        ...

    def save_library_pack(
        self,
        player: str,
        pack: str,
        version: str,
        name: str,
        text: str,
        *,
        replace: bool = True,
        stale_levels: Sequence[str] = (),
    ) -> bool:
        """Keep ``text`` as the pack ``pack`` of the player's library; whether it replaced one.

        The player's unfinished games on ``stale_levels`` of the pack (levels
        whose content changed) are finished in the same transaction: their
        logs belong to the old level.

        :raises LibraryPackExistsError: without ``replace``, when the pack is there already.
        """
        ...

    def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


_LIBRARY_SCHEMA = """
CREATE TABLE library (
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    version TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    digest TEXT NOT NULL,
    saved_at TEXT NOT NULL,
    PRIMARY KEY (player, pack)
);
"""
"""Schema version 2: each player's imported and saved packs."""

_SCHEMA = (
    """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (
    token TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    level TEXT NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT
);
CREATE UNIQUE INDEX games_unfinished ON games(player, pack, level) WHERE finished_at IS NULL;
CREATE TABLE intents (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    letter TEXT NOT NULL,
    payload TEXT,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    level TEXT NOT NULL,
    wins INTEGER NOT NULL,
    best_moves INTEGER NOT NULL,
    best_solution TEXT,
    first_won_at TEXT NOT NULL,
    PRIMARY KEY (player, pack, level)
);
"""
    + _LIBRARY_SCHEMA
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SqliteStore:
    """The :class:`Store` on one SQLite file, in WAL mode.

    ``synchronous=FULL`` (the default here) flushes the log on every commit,
    so an intent the player saw accepted survives a power cut; ``NORMAL``
    may lose the last few commits on power loss (never on a crash of the
    process) and is faster on slow disks. One connection serves every
    thread, one call at a time.

    Commits are grouped: :meth:`run_batch` makes several calls in one
    transaction, each in its own savepoint, and flushes once for all of
    them; :class:`StoreRunner` hands it the calls that queue up while a
    flush is under way. Each caller still hears back only after the commit
    that holds its call.
    """

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
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._migrate()

    def _migrate(self) -> None:
        with self._transaction() as db:
            exists = db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
            ).fetchone()
            if exists is None:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
                return
            row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
            version = row[0] if row else None
            if version == 1:
                db.execute(_LIBRARY_SCHEMA)
                db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
                return
            if version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path} has database schema version {version}; this Miau knows "
                    f"version {SCHEMA_VERSION} (a newer Miau made it?)"
                )

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

    def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new."""
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO players (token, created_at) VALUES (?, ?)", (token, _now())
            )

    def current_game(self, player: str, pack: str, level: str) -> StoredGame | None:
        """The player's unfinished game on this level, with its log, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id FROM games WHERE player = ? AND pack = ? AND level = ? "
                "AND finished_at IS NULL",
                (player, pack, level),
            ).fetchone()
            if row is None:
                return None
            game_id = int(row[0])
            intents = tuple(
                StoredIntent(letter, payload)
                for letter, payload in self._db.execute(
                    "SELECT letter, payload FROM intents WHERE game_id = ? ORDER BY seq",
                    (game_id,),
                )
            )
        return StoredGame(game_id, intents)

    def start_game(
        self,
        player: str,
        pack: str,
        level: str,
        intents: Sequence[StoredIntent] = (),
        *,
        replace: bool = False,
    ) -> int:
        """Start a game on this level with the log ``intents``; its id (see :class:`Store`)."""
        now = _now()
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO players (token, created_at) VALUES (?, ?)", (player, now)
            )
            if replace:
                db.execute(
                    "UPDATE games SET finished_at = ? WHERE player = ? AND pack = ? "
                    "AND level = ? AND finished_at IS NULL",
                    (now, player, pack, level),
                )
            try:
                cursor = db.execute(
                    "INSERT INTO games (player, pack, level, started_at) VALUES (?, ?, ?, ?)",
                    (player, pack, level, now),
                )
            except sqlite3.IntegrityError as error:
                raise StaleGameError(
                    f"{player} has an unfinished game on {pack}/{level}"
                ) from error
            game_id = cursor.lastrowid
            if game_id is None:
                raise StoreError("SQLite gave the new game no id")
            db.executemany(
                "INSERT INTO intents (game_id, seq, letter, payload) VALUES (?, ?, ?, ?)",
                [
                    (game_id, seq, intent.letter, intent.payload)
                    for seq, intent in enumerate(intents)
                ],
            )
        return game_id

    def append_intent(self, game_id: int, seq: int, intent: StoredIntent) -> None:
        """Append ``intent`` as entry ``seq`` (0-based) of the game's log (see :class:`Store`)."""
        with self._transaction() as db:
            try:
                cursor = db.execute(
                    "INSERT INTO intents (game_id, seq, letter, payload) "
                    "SELECT ?, ?, ?, ? WHERE EXISTS "
                    "(SELECT 1 FROM games WHERE id = ? AND finished_at IS NULL)",
                    (game_id, seq, intent.letter, intent.payload, game_id),
                )
            except sqlite3.IntegrityError as error:
                raise StaleGameError(f"game {game_id} already has entry {seq}") from error
            if cursor.rowcount != 1:
                raise StaleGameError(f"game {game_id} is finished")

    def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win (the best move count and its moves); the new progress."""
        now = _now()
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET finished_at = ? WHERE id = ? AND finished_at IS NULL",
                (now, game_id),
            )
            db.execute(
                "INSERT INTO progress "
                "(player, pack, level, wins, best_moves, best_solution, first_won_at) "
                "VALUES (?, ?, ?, 1, ?, ?, ?) "
                "ON CONFLICT (player, pack, level) DO UPDATE SET wins = wins + 1, "
                "best_solution = CASE WHEN excluded.best_moves < best_moves "
                "THEN excluded.best_solution ELSE best_solution END, "
                "best_moves = MIN(best_moves, excluded.best_moves)",
                (player, pack, level, moves, solution, now),
            )
            best_moves, best_solution = db.execute(
                "SELECT best_moves, best_solution FROM progress "
                "WHERE player = ? AND pack = ? AND level = ?",
                (player, pack, level),
            ).fetchone()
        return LevelProgress(pack, level, True, int(best_moves), best_solution)

    def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id."""
        with self._lock:
            rows = self._db.execute(
                "SELECT pack, level, best_moves, best_solution FROM progress "
                "WHERE player = ? ORDER BY pack, level",
                (player,),
            ).fetchall()
        return [
            LevelProgress(pack, level, True, int(moves), sol) for pack, level, moves, sol in rows
        ]

    def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id (code point order), without its text."""
        with self._lock:
            rows = self._db.execute(
                "SELECT pack, version, name, digest FROM library WHERE player = ? ORDER BY pack",
                (player,),
            ).fetchall()
        return [LibraryEntry(*row) for row in rows]

    def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT pack, version, name, digest, text FROM library WHERE player = ? AND pack = ?",
                (player, pack),
            ).fetchone()
        return None if row is None else LibraryPack(*row)

    def save_library_pack(
        self,
        player: str,
        pack: str,
        version: str,
        name: str,
        text: str,
        *,
        replace: bool = True,
        stale_levels: Sequence[str] = (),
    ) -> bool:
        """Keep ``text`` as the pack ``pack`` of the player's library; whether it replaced one (see :class:`Store`)."""
        now = _now()
        with self._transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO players (token, created_at) VALUES (?, ?)", (player, now)
            )
            exists = (
                db.execute(
                    "SELECT 1 FROM library WHERE player = ? AND pack = ?", (player, pack)
                ).fetchone()
                is not None
            )
            if exists and not replace:
                raise LibraryPackExistsError(f"{player} has {pack} in their library already")
            db.execute(
                "INSERT INTO library (player, pack, version, name, text, digest, saved_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, pack) DO UPDATE SET "
                "version = excluded.version, name = excluded.name, text = excluded.text, "
                "digest = excluded.digest, saved_at = excluded.saved_at",
                (player, pack, version, name, text, text_digest(text), now),
            )
            db.executemany(
                "UPDATE games SET finished_at = ? WHERE player = ? AND pack = ? AND level = ? "
                "AND finished_at IS NULL",
                [(now, player, pack, level) for level in stale_levels],
            )
        return exists

    def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        now = _now()
        with self._transaction() as db:
            cursor = db.execute("DELETE FROM library WHERE player = ? AND pack = ?", (player, pack))
            deleted = cursor.rowcount == 1
            if deleted:
                db.execute(
                    "UPDATE games SET finished_at = ? WHERE player = ? AND pack = ? "
                    "AND finished_at IS NULL",
                    (now, player, pack),
                )
        return deleted

    def close(self) -> None:
        """Release the database."""
        with self._lock:
            self._db.close()


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""A ``--db`` that starts with one of these is a PostgreSQL URL; anything else is a SQLite file."""


def open_store(location: str | Path) -> Store:
    """The store at ``location``: a PostgreSQL URL (``postgresql://...``) or a SQLite file.

    :raises StoreError: when the database cannot be used.
    """
    if isinstance(location, str) and location.startswith(POSTGRES_SCHEMES):
        # Imported here: psycopg is needed only by deployments on PostgreSQL.
        from miau.server.store_postgres import PostgresStore

        return PostgresStore(location)
    return SqliteStore(location)


class StoreRunner:
    """Runs store calls on its own worker threads so commits never block the event loop.

    One call at a time, unless the store serves several at once (a pool of
    connections) and says how many in a ``concurrent_calls`` attribute.

    The workers take calls from a queue back to back and hand each result to
    the caller's event loop; the loop is not a link in the chain from one
    call to the next. A store with a ``run_batch`` method (SQLite) gets the
    calls that queued up meanwhile in one batch, committed together. (With a thread hop per call gated by the loop, as
    ``anyio.to_thread`` with a capacity limiter does, a busy loop throttled
    a serial store to about 1000 calls a second whatever the disk did.)
    Workers start on demand and stop after a second without work.
    """

    IDLE_SECONDS = 1.0
    """How long a worker waits for a call before it stops."""

    MAX_BATCH = 64
    """The most calls handed to a store's ``run_batch`` at once."""

    def __init__(self, store: Store) -> None:
        """Serve calls to ``store``."""
        self.store = store
        self.concurrent_calls: int = max(1, int(getattr(store, "concurrent_calls", 1)))
        self._calls: queue.SimpleQueue[_PendingCall] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._workers = 0
        self._idle = 0

    async def __call__(self, call: Callable[[*Arguments], Result], *args: *Arguments) -> Result:
        """``call(*args)`` on a worker thread; its result (or its exception)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Result] = loop.create_future()
        self._calls.put(_PendingCall(partial(call, *args), loop, future))
        with self._lock:
            if self._idle == 0 and self._workers < self.concurrent_calls:
                self._workers += 1
                threading.Thread(target=self._work, name="miau-store", daemon=True).start()
        return await future

    def _work(self) -> None:
        while True:
            with self._lock:
                self._idle += 1
            try:
                pending = self._calls.get(timeout=self.IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    self._idle -= 1
                    # A call queued after the timeout but before this lock saw this worker
                    # idle and started none: serve it.
                    if self._calls.empty():
                        self._workers -= 1
                        return
                continue
            with self._lock:
                self._idle -= 1
            run_batch = getattr(self.store, "run_batch", None)
            if run_batch is None:
                pending.run()
                continue
            # Everything queued while the last commit was being flushed goes in the next one.
            batch = [pending]
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self._calls.get_nowait())
                except queue.Empty:
                    break
            try:
                outcomes: list[CallOutcome] = run_batch([queued.call for queued in batch])
            except Exception as error:
                outcomes = [CallOutcome(None, error)] * len(batch)
            for queued, outcome in zip(batch, outcomes, strict=True):
                queued.settle(outcome.result, outcome.error)


@dataclass(frozen=True, slots=True)
class _PendingCall:
    """A store call waiting for a worker, and where its result goes."""

    call: Callable[[], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]

    def run(self) -> None:
        """Make the call and settle the future with its outcome."""
        try:
            result, error = self.call(), None
        except Exception as raised:
            result, error = None, raised
        self.settle(result, error)

    def settle(self, result: Any, error: Exception | None) -> None:
        """Hand the outcome to the caller's loop (unless the caller gave up)."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
            self.loop.call_soon_threadsafe(_settle, self.future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: Exception | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
