"""The :class:`~miau.server.store.Store` on PostgreSQL, for several server processes on one database.

Selected by ``miau play --db postgresql://user@host:port/dbname``. The
semantics are SQLite's: every call commits before it returns, one row per
accepted intent. What SQLite gets from its single writer, PostgreSQL gets
from locks and constraints, so that processes sharing the database cannot
both move one game on:

- ``(game_id, seq)`` is the primary key of the log: two processes appending
  entry N to one game cannot both succeed; the second gets
  :class:`~miau.server.store.StaleGameError` and its session replays the
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

import queue
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import TupleRow

from miau.server.store import (
    SCHEMA_VERSION,
    LevelProgress,
    LibraryEntry,
    LibraryPack,
    LibraryPackExistsError,
    StaleGameError,
    StoredGame,
    StoredIntent,
    StoreError,
    text_digest,
)

__all__ = ["DEFAULT_CONNECTIONS", "PostgresStore"]

DEFAULT_CONNECTIONS = 4
"""Connections per server process: enough for commits to be flushed in groups."""

_SCHEMA_LOCK = 0x6D696175
"""The advisory lock key held while the schema is checked or created ("miau")."""

_CONNECT_TIMEOUT_SECONDS = 10

_SCHEMA = [
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    """CREATE TABLE players (
        token TEXT PRIMARY KEY,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE games (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        player TEXT NOT NULL REFERENCES players(token),
        pack TEXT NOT NULL,
        level TEXT NOT NULL,
        started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        finished_at TIMESTAMPTZ
    )""",
    """CREATE UNIQUE INDEX games_unfinished ON games(player, pack, level)
        WHERE finished_at IS NULL""",
    """CREATE TABLE intents (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        letter TEXT NOT NULL,
        payload TEXT,
        PRIMARY KEY (game_id, seq)
    )""",
    """CREATE TABLE progress (
        player TEXT NOT NULL REFERENCES players(token),
        pack TEXT NOT NULL,
        level TEXT NOT NULL,
        wins INTEGER NOT NULL,
        best_moves INTEGER NOT NULL,
        best_solution TEXT,
        first_won_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (player, pack, level)
    )""",
]

_LIBRARY_SCHEMA = """CREATE TABLE library (
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    version TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    digest TEXT NOT NULL,
    saved_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (player, pack)
)"""
"""Schema version 2: each player's imported and saved packs."""

_ENSURE_PLAYER = "INSERT INTO players (token) VALUES (%s) ON CONFLICT (token) DO NOTHING"

_APPEND = """
    WITH open_game AS (
        SELECT id FROM games WHERE id = %(game)s AND finished_at IS NULL FOR SHARE
    )
    INSERT INTO intents (game_id, seq, letter, payload)
    SELECT id, %(seq)s, %(letter)s, %(payload)s FROM open_game
"""
"""One statement, so one round trip and one implicit transaction per accepted intent."""

_CURRENT_GAME = """
    SELECT games.id, intents.letter, intents.payload
    FROM games LEFT JOIN intents ON intents.game_id = games.id
    WHERE games.player = %s AND games.pack = %s AND games.level = %s
        AND games.finished_at IS NULL
    ORDER BY intents.seq
"""
"""The game and its log in one statement, so both come from one snapshot."""

_RECORD_WIN = """
    INSERT INTO progress AS old (player, pack, level, wins, best_moves, best_solution)
    VALUES (%(player)s, %(pack)s, %(level)s, 1, %(moves)s, %(solution)s)
    ON CONFLICT (player, pack, level) DO UPDATE SET
        wins = old.wins + 1,
        best_solution = CASE WHEN excluded.best_moves < old.best_moves
            THEN excluded.best_solution ELSE old.best_solution END,
        best_moves = LEAST(old.best_moves, excluded.best_moves)
    RETURNING best_moves, best_solution
"""


class PostgresStore:
    """The :class:`~miau.server.store.Store` on a PostgreSQL database, safe across processes."""

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
            with self._connection() as db, db.transaction():
                self._migrate(db)
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
    def _connection(self) -> Iterator[psycopg.Connection[TupleRow]]:
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

    def _migrate(self, db: psycopg.Connection[TupleRow]) -> None:
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
        exists = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
        if exists is None or not exists[0]:
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute(_LIBRARY_SCHEMA)
            db.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION,))
            return
        row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
        version = row[0] if row else None
        if version == 1:
            db.execute(_LIBRARY_SCHEMA)
            db.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))
            return
        if version != SCHEMA_VERSION:
            raise StoreError(
                f"the PostgreSQL database has schema version {version}; this Miau knows "
                f"version {SCHEMA_VERSION} (a newer Miau made it?)"
            )

    def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new."""
        with self._connection() as db:
            db.execute(_ENSURE_PLAYER, (token,))

    def current_game(self, player: str, pack: str, level: str) -> StoredGame | None:
        """The player's unfinished game on this level, with its log, or None."""
        with self._connection() as db:
            rows = db.execute(_CURRENT_GAME, (player, pack, level)).fetchall()
        if not rows:
            return None
        game_id = int(rows[0][0])
        intents = tuple(
            StoredIntent(letter, payload)
            for _, letter, payload in rows
            if letter is not None  # a game with no entries yet joins to one empty row
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
        with self._connection() as db, db.transaction():
            db.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                ("\x1f".join((player, pack, level)),),
            )
            db.execute(_ENSURE_PLAYER, (player,))
            if replace:
                db.execute(
                    "UPDATE games SET finished_at = now() WHERE player = %s AND pack = %s "
                    "AND level = %s AND finished_at IS NULL",
                    (player, pack, level),
                )
            try:
                row = db.execute(
                    "INSERT INTO games (player, pack, level) VALUES (%s, %s, %s) RETURNING id",
                    (player, pack, level),
                ).fetchone()
            except pg_errors.UniqueViolation as error:
                raise StaleGameError(
                    f"{player} has an unfinished game on {pack}/{level}"
                ) from error
            if row is None:
                raise StoreError("PostgreSQL gave the new game no id")
            game_id = int(row[0])
            if intents:
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO intents (game_id, seq, letter, payload) "
                        "VALUES (%s, %s, %s, %s)",
                        [
                            (game_id, seq, intent.letter, intent.payload)
                            for seq, intent in enumerate(intents)
                        ],
                    )
        return game_id

    def append_intent(self, game_id: int, seq: int, intent: StoredIntent) -> None:
        """Append ``intent`` as entry ``seq`` (0-based) of the game's log (see :class:`Store`)."""
        parameters = {
            "game": game_id,
            "seq": seq,
            "letter": intent.letter,
            "payload": intent.payload,
        }
        with self._connection() as db:
            try:
                cursor = db.execute(_APPEND, parameters)
            except pg_errors.UniqueViolation as error:
                raise StaleGameError(f"game {game_id} already has entry {seq}") from error
            if cursor.rowcount != 1:
                raise StaleGameError(f"game {game_id} is finished")

    def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win (the best move count and its moves); the new progress."""
        with self._connection() as db, db.transaction():
            db.execute(
                "UPDATE games SET finished_at = now() WHERE id = %s AND finished_at IS NULL",
                (game_id,),
            )
            row = db.execute(
                _RECORD_WIN,
                {
                    "player": player,
                    "pack": pack,
                    "level": level,
                    "moves": moves,
                    "solution": solution,
                },
            ).fetchone()
        if row is None:
            raise StoreError("PostgreSQL returned no progress for the win")
        best_moves, best_solution = row
        return LevelProgress(pack, level, True, int(best_moves), best_solution)

    def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT pack, level, best_moves, best_solution FROM progress "
                'WHERE player = %s ORDER BY pack COLLATE "C", level COLLATE "C"',
                (player,),
            ).fetchall()
        return [
            LevelProgress(pack, level, True, int(moves), sol) for pack, level, moves, sol in rows
        ]

    def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id (code point order), without its text."""
        with self._connection() as db:
            rows = db.execute(
                "SELECT pack, version, name, digest FROM library WHERE player = %s "
                'ORDER BY pack COLLATE "C"',
                (player,),
            ).fetchall()
        return [LibraryEntry(*row) for row in rows]

    def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        with self._connection() as db:
            row = db.execute(
                "SELECT pack, version, name, digest, text FROM library WHERE player = %s AND pack = %s",
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
        with self._connection() as db, db.transaction():
            # Two processes saving one pack at once take turns, so "replaced" is told right.
            db.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                ("\x1f".join(("library", player, pack)),),
            )
            db.execute(_ENSURE_PLAYER, (player,))
            exists = (
                db.execute(
                    "SELECT 1 FROM library WHERE player = %s AND pack = %s", (player, pack)
                ).fetchone()
                is not None
            )
            if exists and not replace:
                raise LibraryPackExistsError(f"{player} has {pack} in their library already")
            db.execute(
                "INSERT INTO library (player, pack, version, name, text, digest) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (player, pack) DO UPDATE SET "
                "version = excluded.version, name = excluded.name, text = excluded.text, "
                "digest = excluded.digest, saved_at = now()",
                (player, pack, version, name, text, text_digest(text)),
            )
            if stale_levels:
                with db.cursor() as cursor:
                    cursor.executemany(
                        "UPDATE games SET finished_at = now() WHERE player = %s AND pack = %s "
                        "AND level = %s AND finished_at IS NULL",
                        [(player, pack, level) for level in stale_levels],
                    )
        return exists

    def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        with self._connection() as db, db.transaction():
            cursor = db.execute(
                "DELETE FROM library WHERE player = %s AND pack = %s", (player, pack)
            )
            deleted = cursor.rowcount == 1
            if deleted:
                db.execute(
                    "UPDATE games SET finished_at = now() WHERE player = %s AND pack = %s "
                    "AND finished_at IS NULL",
                    (player, pack),
                )
        return deleted

    def close(self) -> None:
        """Close every connection."""
        self._closed = True
        with self._all_lock:
            for connection in self._all:
                connection.close()
            self._all.clear()
