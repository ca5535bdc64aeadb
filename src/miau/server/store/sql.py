"""The store's SQL, written once for SQLite and PostgreSQL, and the store built on it.

:class:`SqlStore` implements every :class:`~miau.server.store.protocol.Store`
method once. A backend gives it a :class:`Dialect` (the few words in which
the two databases' SQL differs) and says how it opens a connection, a
single committed statement and a transaction, and how it makes concurrent
writers to one key take turns.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, closing
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from miau.server.store.records import (
    SCHEMA_VERSION,
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
)

_log = logging.getLogger(__name__)

__all__ = [
    "EXPIRE_AFTER_SECONDS",
    "IDLE_AFTER_SECONDS",
    "MAX_GAMES",
    "MAX_PLAYERS",
    "MAX_PLAYER_GAMES",
    "Database",
    "Dialect",
    "Rows",
    "SqlStore",
    "Statements",
]

MAX_PLAYER_GAMES = 500
"""How many games in progress one player keeps (one per level played and not won)."""

MAX_GAMES = 200_000
"""How many games in progress the database keeps, all players together."""

MAX_PLAYERS = 1_000_000
"""How many players the database keeps. Past it, players who hold nothing (no game in progress,
no win, no library pack) make room; when none do, a new player's first save is refused."""

IDLE_AFTER_SECONDS = 30 * 24 * 3600
"""How long a player must have stored nothing (no move, no game, no pack) before their data may
be evicted to make room for others when a server-wide quota is reached (30 days)."""

EXPIRE_AFTER_SECONDS = 90 * 24 * 3600
"""How long a player may have stored nothing before their data expires for good, whether the
server is full or not (90 days): games in progress, wins, library packs and the player."""

_EVICTED_PER_CALL = 64
"""How many idle players' data one save evicts at most to make room (then it is refused)."""

_TOUCH_SECONDS = 3600
"""A move stores the player's activity time at most this often per game (a move is one row)."""

_TOUCHED_GAMES = 10_000
"""How many games' last activity writes the store remembers (then it forgets them all)."""

_IDLE_PLAYERS_PRUNED = 1000
"""How many idle players one new player past :data:`MAX_PLAYERS` prunes at most."""

_PLAYERS_FULL_SECONDS = 60.0
"""How long a full player table (nobody idle to prune) refuses new players without searching."""

_ALL_ROWS = 2**62
"""The ``LIMIT`` of a read that takes every row (one statement serves both reads)."""


class Rows(Protocol):
    """What the store uses of a DB-API cursor (``sqlite3`` and ``psycopg`` alike)."""

    @property
    def rowcount(self) -> int:
        """How many rows the last statement changed."""
        ...

    def fetchone(self) -> Any:
        """The next row, or None."""
        ...

    def fetchall(self) -> list[Any]:
        """Every row left."""
        ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]], /) -> object:
        """Run ``sql`` once for each parameter row."""
        ...

    def close(self) -> None:
        """Release the cursor."""
        ...


class Database(Protocol):
    """What the store uses of a DB-API connection (``sqlite3`` and ``psycopg`` alike)."""

    def execute(self, sql: str, parameters: Sequence[Any], /) -> Rows:
        """Run one statement with positional parameters."""
        ...

    def cursor(self) -> Rows:
        """A new cursor."""
        ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """The words in which SQLite's and PostgreSQL's SQL for the store differ."""

    placeholder: str
    """A positional parameter: ``?`` or ``%s``."""
    id_type: str
    """The type of a game id."""
    identity: str
    """What makes a game id be assigned by the database, after its type."""
    timestamp_type: str
    """The type of a point in time."""
    now: str
    """The current time, as a value of ``timestamp_type``."""
    table_options: str
    """After the closing parenthesis of the log's table."""
    share_lock: str
    """Ends the select that checks a game is unfinished: holds it until the append commits."""
    code_point_order: str
    """After a text column in ORDER BY: sort by code point, not by the locale."""
    row_lock: str
    """Ends a select whose rows stay locked until the transaction ends."""


SQLITE = Dialect(
    placeholder="?",
    id_type="INTEGER",  # exactly INTEGER PRIMARY KEY: the rowid, assigned on insert
    identity="",
    timestamp_type="TEXT",
    now="strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')",
    table_options=" WITHOUT ROWID",
    share_lock="",  # one writer at a time: nothing finishes a game under an append
    code_point_order="",  # BINARY on UTF-8 is code point order
    row_lock="",  # BEGIN IMMEDIATE: one writer at a time
)
"""SQLite's words."""

POSTGRES = Dialect(
    placeholder="%s",
    id_type="BIGINT",
    identity=" GENERATED ALWAYS AS IDENTITY",
    timestamp_type="TIMESTAMPTZ",
    now="now()",
    table_options="",
    share_lock=" FOR SHARE",
    code_point_order=' COLLATE "C"',
    row_lock=" FOR UPDATE",
)
"""PostgreSQL's words."""

_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE players (
    token TEXT PRIMARY KEY,
    created_at {timestamp_type} NOT NULL
);
CREATE TABLE games (
    id {id_type}{identity} PRIMARY KEY,
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    level TEXT NOT NULL,
    started_at {timestamp_type} NOT NULL,
    finished_at {timestamp_type}
);
CREATE UNIQUE INDEX games_unfinished ON games(player, pack, level) WHERE finished_at IS NULL;
CREATE TABLE intents (
    game_id {id_type} NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    letter TEXT NOT NULL,
    payload TEXT,
    PRIMARY KEY (game_id, seq)
){table_options};
CREATE TABLE progress (
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    level TEXT NOT NULL,
    wins INTEGER NOT NULL,
    best_moves INTEGER NOT NULL,
    best_solution TEXT,
    first_won_at {timestamp_type} NOT NULL,
    PRIMARY KEY (player, pack, level)
)
"""
"""Schema version 1: players, games and their logs, progress."""

_LIBRARY_SCHEMA = """
CREATE TABLE library (
    player TEXT NOT NULL REFERENCES players(token),
    pack TEXT NOT NULL,
    version TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    digest TEXT NOT NULL,
    saved_at {timestamp_type} NOT NULL,
    PRIMARY KEY (player, pack)
)
"""
"""Schema version 2: each player's imported and saved packs."""

_SUMMARY_SCHEMA = (
    "ALTER TABLE library ADD COLUMN size INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE library ADD COLUMN summary TEXT NOT NULL DEFAULT ''",
)
"""Schema version 3: a library pack's size in bytes and the summary its listings show."""

_ACTIVITY_SCHEMA = (
    "ALTER TABLE players ADD COLUMN active_at BIGINT NOT NULL DEFAULT 0",
    "CREATE TABLE totals (games BIGINT NOT NULL, players BIGINT NOT NULL, "
    "library_bytes BIGINT NOT NULL, library_players BIGINT NOT NULL)",
)
"""Schema version 4: when each player last stored something (seconds since 1970, the store's
clock), and the one row of totals the server-wide quotas read instead of counting rows."""

_INDEXES = {
    "games_player": "CREATE INDEX IF NOT EXISTS games_player ON games(player)",
    "players_active": "CREATE INDEX IF NOT EXISTS players_active ON players(active_at)",
}
"""Indexes made on every open if missing (no schema version needed): a player's games, which
every new game counts and prunes, were found by scanning all games (33 ms at 85,000); the
least recently active players, whom a full server evicts first."""


EXPECTED_COLUMNS: dict[str, frozenset[str]] = {
    "schema_version": frozenset({"version"}),
    "players": frozenset({"token", "created_at", "active_at"}),
    "games": frozenset({"id", "player", "pack", "level", "started_at", "finished_at"}),
    "intents": frozenset({"game_id", "seq", "letter", "payload"}),
    "progress": frozenset(
        {"player", "pack", "level", "wins", "best_moves", "best_solution", "first_won_at"}
    ),
    "library": frozenset(
        {"player", "pack", "version", "name", "text", "digest", "saved_at", "size", "summary"}
    ),
    "totals": frozenset({"games", "players", "library_bytes", "library_players"}),
}
"""Every table of the current schema and the columns Miau reads and writes in it."""

EXPECTED_PRIMARY_KEYS: dict[str, tuple[str, ...]] = {
    "players": ("token",),
    "games": ("id",),
    "intents": ("game_id", "seq"),
    "progress": ("player", "pack", "level"),
    "library": ("player", "pack"),
}
"""Each keyed table's primary key, in order: without it, a retried write stores a row twice."""

EXPECTED_UNIQUE_INDEXES: dict[str, tuple[str, tuple[str, ...]]] = {
    "games_unfinished": ("games", ("player", "pack", "level")),
}
"""Unique indexes by name, with their table and columns: at most one unfinished game a level."""


class Statements:
    """Every statement of the store, in one dialect."""

    def __init__(self, dialect: Dialect) -> None:
        """Write each statement in ``dialect``."""

        def sql(template: str) -> str:
            words = {field: getattr(dialect, field) for field in Dialect.__dataclass_fields__}
            return " ".join(template.format_map(words).split()).replace("?", dialect.placeholder)

        self.schema = [sql(statement) for statement in _SCHEMA.split(";") if statement.strip()]
        """The tables of version 1, one statement each."""
        self.library_schema = sql(_LIBRARY_SCHEMA)
        """The table that version 2 added."""
        self.summary_schema = [sql(statement) for statement in _SUMMARY_SCHEMA]
        """The columns that version 3 added."""
        self.activity_schema = [sql(statement) for statement in _ACTIVITY_SCHEMA]
        """The column and table that version 4 added."""
        self.activity_since_upgrade = sql("UPDATE players SET active_at = ?")
        self.count_totals = sql(
            "INSERT INTO totals (games, players, library_bytes, library_players) SELECT "
            "(SELECT COUNT(*) FROM games WHERE finished_at IS NULL), "
            "(SELECT COUNT(*) FROM players), "
            "(SELECT COALESCE(SUM(size), 0) FROM library), "
            "(SELECT COUNT(DISTINCT player) FROM library)"
        )
        self.recount_totals = sql(
            "UPDATE totals SET "
            "games = (SELECT COUNT(*) FROM games WHERE finished_at IS NULL), "
            "players = (SELECT COUNT(*) FROM players), "
            "library_bytes = (SELECT COALESCE(SUM(size), 0) FROM library), "
            "library_players = (SELECT COUNT(DISTINCT player) FROM library)"
        )
        self.lock_totals = sql(
            "SELECT games, players, library_bytes, library_players FROM totals{row_lock}"
        )
        self.add_totals = sql(
            "UPDATE totals SET games = games + ?, players = players + ?, "
            "library_bytes = library_bytes + ?, library_players = library_players + ?"
        )
        # Version 3 keeps no finished game: the ones older versions kept go.
        self.prune_old_intents = sql(
            "DELETE FROM intents WHERE game_id IN "
            "(SELECT id FROM games WHERE finished_at IS NOT NULL)"
        )
        self.prune_old_games = sql(
            "DELETE FROM games WHERE finished_at IS NOT NULL AND id < (SELECT MAX(id) FROM games)"
        )
        self.size_old_packs = sql("UPDATE library SET size = length(text)")
        self.schema_version = "SELECT MAX(version) FROM schema_version"
        self.insert_version = sql("INSERT INTO schema_version (version) VALUES (?)")
        self.update_version = sql("UPDATE schema_version SET version = ?")
        self.players = "SELECT token FROM players ORDER BY created_at, token"
        self.unfinished_levels = sql(
            "SELECT pack, level FROM games WHERE player = ? AND finished_at IS NULL "
            "ORDER BY pack, level"
        )
        self.ensure_player = sql(
            "INSERT INTO players (token, created_at, active_at) VALUES (?, {now}, ?) "
            "ON CONFLICT (token) DO NOTHING"
        )
        self.touch_player = sql("UPDATE players SET active_at = ? WHERE token = ?")
        self.touch_game_player = sql(
            "UPDATE players SET active_at = ? WHERE token = (SELECT player FROM games WHERE id = ?)"
        )
        # The least recently active players idle since a time, through players_active: the
        # walk stops at the first ones who hold what is to be evicted.
        self.idle_game_holders = sql(
            "SELECT token FROM players WHERE active_at < ? AND token <> ? AND EXISTS "
            "(SELECT 1 FROM games WHERE games.player = players.token "
            "AND games.finished_at IS NULL) ORDER BY active_at, token LIMIT ?"
        )
        self.idle_library_holders = sql(
            "SELECT token FROM players WHERE active_at < ? AND token <> ? AND EXISTS "
            "(SELECT 1 FROM library WHERE library.player = players.token) "
            "ORDER BY active_at, token LIMIT ?"
        )
        self.idle_players = sql(
            "SELECT token FROM players WHERE active_at < ? AND token <> ? "
            "ORDER BY active_at, token LIMIT ?"
        )
        self.finish_player_games = sql(
            "UPDATE games SET finished_at = {now} WHERE player = ? AND finished_at IS NULL"
        )
        self.finish_library_games = sql(
            "UPDATE games SET finished_at = {now} WHERE player = ? AND finished_at IS NULL "
            "AND pack IN (SELECT pack FROM library WHERE player = ?)"
        )
        self.player_library = sql(
            "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM library WHERE player = ?"
        )
        self.delete_player_library = sql("DELETE FROM library WHERE player = ?")
        self.delete_player_progress = sql("DELETE FROM progress WHERE player = ?")
        self.delete_gone_player = sql(
            "DELETE FROM players WHERE token = ? AND NOT EXISTS "
            "(SELECT 1 FROM games WHERE games.player = ?)"
        )
        # The game and its log in one statement, so both come from one snapshot; a game
        # with no entries yet joins to one row of NULLs.
        self.current_game = sql(
            "SELECT games.id, intents.letter, intents.payload "
            "FROM games LEFT JOIN intents ON intents.game_id = games.id "
            "WHERE games.player = ? AND games.pack = ? AND games.level = ? "
            "AND games.finished_at IS NULL ORDER BY intents.seq LIMIT ?"
        )
        self.game_tail = sql(
            "SELECT games.id, intents.letter, intents.payload "
            "FROM games LEFT JOIN intents ON intents.game_id = games.id AND intents.seq >= ? "
            "WHERE games.player = ? AND games.pack = ? AND games.level = ? "
            "AND games.finished_at IS NULL ORDER BY intents.seq LIMIT ?"
        )
        self.insert_game = sql(
            "INSERT INTO games (player, pack, level, started_at) VALUES (?, ?, ?, {now}) "
            "RETURNING id"
        )
        self.insert_intent = sql(
            "INSERT INTO intents (game_id, seq, letter, payload) VALUES (?, ?, ?, ?)"
        )
        # One statement, so one round trip per accepted intent.
        self.append_intent = sql(
            "INSERT INTO intents (game_id, seq, letter, payload) "
            "SELECT id, ?, ?, ? FROM games WHERE id = ? AND finished_at IS NULL{share_lock}"
        )
        self.finish_game = sql(
            "UPDATE games SET finished_at = {now} WHERE id = ? AND finished_at IS NULL"
        )
        # A finished game is deleted with its log in the transaction that finishes it: it
        # is marked finished first, which takes its row lock, so no append can slip in between.
        self.prune_intents = sql(
            "DELETE FROM intents WHERE game_id IN "
            "(SELECT id FROM games WHERE player = ? AND finished_at IS NOT NULL)"
        )
        # The game with the highest id stays (its log goes): SQLite gives a new game the
        # highest id plus one, and an id must never come back while a page may hold it.
        self.prune_games = sql(
            "DELETE FROM games WHERE player = ? AND finished_at IS NOT NULL "
            "AND id < (SELECT MAX(id) FROM games)"
        )
        self.log_length = sql("SELECT COUNT(*) FROM intents WHERE game_id = ?")
        self.player_games = sql("SELECT COUNT(*) FROM games WHERE player = ?")
        self.all_games = sql("SELECT games FROM totals")
        self.has_player = sql("SELECT 1 FROM players WHERE token = ?")
        self.all_players = "SELECT players FROM totals"
        # A player who holds nothing: no game in progress, no win, no library pack. At most
        # a batch at a time, so that one new player never pays for pruning them all. The
        # least recently active first, through players_active; each player's games, wins and
        # packs are looked up by key (games_player and the primary keys), never read whole
        # (no game row at all may name the player, finished or not, for the foreign key).
        self.prune_idle_players = sql(
            "DELETE FROM players WHERE token IN (SELECT token FROM players WHERE "
            "NOT EXISTS (SELECT 1 FROM games WHERE games.player = players.token) "
            "AND NOT EXISTS (SELECT 1 FROM progress WHERE progress.player = players.token) "
            "AND NOT EXISTS (SELECT 1 FROM library WHERE library.player = players.token) "
            "ORDER BY active_at, token LIMIT ?)"
        )
        self.finish_oldest_games = sql(
            "UPDATE games SET finished_at = {now} WHERE id IN (SELECT id FROM games "
            "WHERE player = ? AND finished_at IS NULL ORDER BY id LIMIT ?)"
        )
        self.finish_level_games = sql(
            "UPDATE games SET finished_at = {now} WHERE player = ? AND pack = ? AND level = ? "
            "AND finished_at IS NULL"
        )
        self.finish_pack_games = sql(
            "UPDATE games SET finished_at = {now} WHERE player = ? AND pack = ? "
            "AND finished_at IS NULL"
        )
        # A tie keeps the solution first won with that count, so a later win whose moves are
        # unknown does not erase it.
        self.record_win = sql(
            "INSERT INTO progress AS old "
            "(player, pack, level, wins, best_moves, best_solution, first_won_at) "
            "VALUES (?, ?, ?, 1, ?, ?, {now}) "
            "ON CONFLICT (player, pack, level) DO UPDATE SET wins = old.wins + 1, "
            "best_solution = CASE WHEN excluded.best_moves < old.best_moves "
            "THEN excluded.best_solution ELSE old.best_solution END, "
            "best_moves = CASE WHEN excluded.best_moves < old.best_moves "
            "THEN excluded.best_moves ELSE old.best_moves END "
            "RETURNING best_moves, best_solution"
        )
        self.progress = sql(
            "SELECT pack, level, best_moves, best_solution FROM progress WHERE player = ? "
            "ORDER BY pack{code_point_order}, level{code_point_order}"
        )
        self.library_packs = sql(
            "SELECT pack, version, name, digest, size, summary FROM library WHERE player = ? "
            "ORDER BY pack{code_point_order}"
        )
        self.library_usage = sql(
            "SELECT (SELECT COUNT(*) FROM library WHERE player = ?), "
            "(SELECT COALESCE(SUM(size), 0) FROM library WHERE player = ?), "
            "library_bytes, library_players FROM totals"
        )
        self.library_totals = "SELECT library_bytes, library_players FROM totals"
        self.set_library_summary = sql(
            "UPDATE library SET summary = ?, size = ? WHERE player = ? AND pack = ? AND digest = ?"
        )
        self.library_pack = sql(
            "SELECT pack, version, name, digest, text FROM library WHERE player = ? AND pack = ?"
        )
        self.has_library_pack = sql("SELECT size FROM library WHERE player = ? AND pack = ?")
        self.summarised_size = sql(
            "SELECT size FROM library WHERE player = ? AND pack = ? AND digest = ?"
        )
        self.has_library = sql("SELECT 1 FROM library WHERE player = ? LIMIT 1")
        self.save_library_pack = sql(
            "INSERT INTO library "
            "(player, pack, version, name, text, digest, saved_at, size, summary) "
            "VALUES (?, ?, ?, ?, ?, ?, {now}, ?, ?) ON CONFLICT (player, pack) DO UPDATE SET "
            "version = excluded.version, name = excluded.name, text = excluded.text, "
            "digest = excluded.digest, saved_at = excluded.saved_at, size = excluded.size, "
            "summary = excluded.summary"
        )
        self.delete_library_pack = sql("DELETE FROM library WHERE player = ? AND pack = ?")


class SqlStore:
    """Every :class:`~miau.server.store.protocol.Store` method, once, over a backend's hooks.

    A backend sets ``statements`` and ``duplicate_error`` (what its driver
    raises when a unique key is taken) and implements the hooks below.
    """

    statements: ClassVar[Statements]
    duplicate_error: ClassVar[type[Exception]]

    max_player_games: int = MAX_PLAYER_GAMES
    """Games in progress one player keeps; starting one more finishes their oldest."""
    max_games: int = MAX_GAMES
    """Games in progress the database keeps in all; past it a new game is refused."""
    max_players: int = MAX_PLAYERS
    """Players the database keeps (see :data:`MAX_PLAYERS`)."""
    players_full_until: float = 0.0
    """Until when (monotonic) the player table is known full of players who hold something:
    a new player is refused without another search for idle ones."""
    idle_after: float = IDLE_AFTER_SECONDS
    """How long a player must have stored nothing before a full server may evict their data."""
    clock: Callable[[], float] = time.time
    """The store's time in seconds since 1970, for players' activity (injectable for tests)."""
    _touched: dict[int, float] | None = None
    """When this store last wrote the activity of each game's player, by game id."""

    # --- the backend's hooks ----------------------------------------------------------------

    def _reading(self) -> AbstractContextManager[Database]:
        """A connection for reads; each statement sees the committed data."""
        raise NotImplementedError

    def _statement(self) -> AbstractContextManager[Database]:
        """A connection for one write statement, committed when the block ends."""
        raise NotImplementedError

    def _transaction(self) -> AbstractContextManager[Database]:
        """A connection in a transaction, committed when the block ends, undone if it raises."""
        raise NotImplementedError

    def _serialise(self, db: Database, *key: str) -> None:
        """Make other transactions writing under ``key`` wait until this one ends."""
        raise NotImplementedError

    def _has_schema(self, db: Database) -> bool:
        """Whether the database has the ``schema_version`` table."""
        raise NotImplementedError

    def _name(self) -> str:
        """The database, as an error message names it."""
        raise NotImplementedError

    def _tables(self, db: Database) -> set[str]:
        """The names of the tables in the database (the schema Miau uses), but SQLite's own."""
        raise NotImplementedError

    def _columns(self, db: Database, table: str) -> set[str]:
        """The names of a table's columns."""
        raise NotImplementedError

    def _primary_key(self, db: Database, table: str) -> tuple[str, ...]:
        """The columns of a table's primary key, in key order (empty when it has none)."""
        raise NotImplementedError

    def _unique_indexes(self, db: Database, table: str) -> dict[str, tuple[str, ...]]:
        """A table's unique indexes other than its primary key, by name, with their columns."""
        raise NotImplementedError

    def _index_names(self, db: Database) -> set[str]:
        """The names of every index in the database (the schema Miau uses)."""
        raise NotImplementedError

    def _check_schema(self, db: Database) -> None:
        """Refuse a database whose tables, columns or keys are not Miau's current schema.

        Tables and columns first, then each table's primary key and the
        unique indexes: a key dropped or rebuilt without them lets the
        store keep duplicate rows (two unfinished games of one level, a
        move logged twice), which it never wrote and cannot read back.

        :raises StoreError: naming what is missing, in one sentence.
        """
        tables = self._tables(db)
        missing = sorted(set(EXPECTED_COLUMNS) - tables)
        if missing:
            raise StoreError(
                f"{self._name()} lacks the table{'s' if len(missing) > 1 else ''} "
                f"{', '.join(missing)} of Miau's schema version {SCHEMA_VERSION}: it is damaged, "
                "or was changed by hand; restore a backup or start a new database"
            )
        for table, wanted in EXPECTED_COLUMNS.items():
            lacking = sorted(wanted - self._columns(db, table))
            if lacking:
                raise StoreError(
                    f"{self._name()} has a table {table} without the "
                    f"column{'s' if len(lacking) > 1 else ''} {', '.join(lacking)} of Miau's "
                    f"schema version {SCHEMA_VERSION}: it is damaged, or was changed by hand; "
                    "restore a backup or start a new database"
                )
        for table, key in EXPECTED_PRIMARY_KEYS.items():
            found = self._primary_key(db, table)
            if found != key:
                had = f"({', '.join(found)})" if found else "none"
                raise StoreError(
                    f"{self._name()} has a table {table} whose primary key is {had}, not "
                    f"({', '.join(key)}) as Miau's schema version {SCHEMA_VERSION} makes it: "
                    "it may hold duplicate rows; it is damaged, or was changed by hand; "
                    "restore a backup or start a new database"
                )
        for name, (table, columns) in EXPECTED_UNIQUE_INDEXES.items():
            if self._unique_indexes(db, table).get(name) != columns:
                raise StoreError(
                    f"{self._name()} lacks the unique index {name} on {table}"
                    f"({', '.join(columns)}) of Miau's schema version {SCHEMA_VERSION}: it may "
                    "hold duplicate rows; it is damaged, or was changed by hand; restore a "
                    "backup or start a new database"
                )

    # --- the schema -------------------------------------------------------------------------

    def _migrate(self) -> None:
        """Create the schema on first use, upgrade an older one, refuse a newer one.

        :raises StoreError: when the database holds a schema newer than this Miau knows.
        """
        statements = self.statements
        with self._transaction() as db:
            self._serialise(db, "schema")  # several processes may start on one new database
            if not self._has_schema(db):
                others = sorted(self._tables(db))
                if others:
                    shown = ", ".join(others[:5]) + (", ..." if len(others) > 5 else "")
                    raise StoreError(
                        f"{self._name()} is not a Miau database: it holds other tables "
                        f"({shown}) and no schema_version; Miau adds nothing to another "
                        "application's database: give it a file or database of its own"
                    )
                for statement in statements.schema:
                    db.execute(statement, ())
                db.execute(statements.library_schema, ())
                for statement in statements.summary_schema:
                    db.execute(statement, ())
                self._add_activity(db)
                db.execute(statements.insert_version, (SCHEMA_VERSION,))
                self._ensure_indexes(db)
                return
            row = db.execute(statements.schema_version, ()).fetchone()
            version = row[0] if row else None
            if version in (1, 2, 3):
                if version == 1:
                    db.execute(statements.library_schema, ())
                if version in (1, 2):
                    for statement in statements.summary_schema:
                        db.execute(statement, ())
                    db.execute(statements.size_old_packs, ())
                    db.execute(statements.prune_old_intents, ())
                    db.execute(statements.prune_old_games, ())
                self._add_activity(db)
                db.execute(statements.update_version, (SCHEMA_VERSION,))
                self._check_schema(db)
                self._ensure_indexes(db)
                return
            if version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self._name()} has database schema version {version}; this Miau knows "
                    f"version {SCHEMA_VERSION} (a newer Miau made it?)"
                )
            self._check_schema(db)
            self._ensure_indexes(db, repair=True)
            self._recount(db)

    def _add_activity(self, db: Database) -> None:
        """Add version 4's activity column and totals; every player counts as active now.

        (Their activity is unknown: none becomes idle, to be evicted, before
        :attr:`idle_after` has passed since the upgrade.)
        """
        for statement in self.statements.activity_schema:
            db.execute(statement, ())
        db.execute(self.statements.activity_since_upgrade, (self._now(),))
        db.execute(self.statements.count_totals, ())

    def _recount(self, db: Database) -> None:
        """Count the totals afresh, once at each start: a row changed by hand is set right.

        The row is locked first, in a statement of its own: every write that
        changes a total takes it before it changes a row, so the counts,
        read by the next statement, see none of them half done.
        """
        if db.execute(self.statements.lock_totals, ()).fetchall():
            db.execute(self.statements.recount_totals, ())
        else:
            db.execute(self.statements.count_totals, ())

    def _ensure_indexes(self, db: Database, *, repair: bool = False) -> None:
        """Make the plain indexes that are missing; with ``repair`` (a current schema), log each one.

        A plain index only speeds reads, so one found missing is a repair
        to make and say, not a reason to refuse the database.
        """
        before = self._index_names(db) if repair else set(_INDEXES)
        for name, statement in _INDEXES.items():
            db.execute(statement, ())
            if name not in before:
                _log.warning("%s lacked the index %s; it was made again", self._name(), name)

    @staticmethod
    def _execute_many(db: Database, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with closing(db.cursor()) as cursor:
                cursor.executemany(sql, rows)

    # --- players and games ------------------------------------------------------------------

    def ensure_player(self, token: str) -> None:
        """Record the player ``token`` if it is new (within :attr:`max_players`, see :class:`Store`)."""
        with self._transaction() as db:
            self._lock_totals(db)
            self._admit_player(db, token)
            self._touch(db, token)

    def is_player(self, token: str) -> bool:
        """Whether the player ``token`` is stored (see :class:`Store`)."""
        with self._reading() as db:
            return db.execute(self.statements.has_player, (token,)).fetchone() is not None

    def players(self) -> list[str]:
        """Every player's token, oldest first (``miau progress`` picks the one to read or write)."""
        with self._reading() as db:
            rows = db.execute(self.statements.players, ()).fetchall()
        return [str(token) for (token,) in rows]

    def unfinished_levels(self, player: str) -> list[tuple[str, str]]:
        """The (pack, level) of every unfinished game of the player, in order."""
        with self._reading() as db:
            rows = db.execute(self.statements.unfinished_levels, (player,)).fetchall()
        return [(str(pack), str(level)) for pack, level in rows]

    def current_game(
        self, player: str, pack: str, level: str, at_most: int | None = None
    ) -> StoredGame | None:
        """The player's unfinished game on this level, with its log (its first ``at_most`` entries), or None."""
        limit = _ALL_ROWS if at_most is None else max(1, at_most)
        with self._reading() as db:
            rows = db.execute(self.statements.current_game, (player, pack, level, limit)).fetchall()
        if not rows:
            return None
        intents = tuple(
            LogEntry(letter, payload) for _, letter, payload in rows if letter is not None
        )
        return StoredGame(int(rows[0][0]), intents)

    def game_tail(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        since: int,
        at_most: int | None = None,
    ) -> tuple[LogEntry, ...] | None:
        """Entries ``since`` on of the game (at most ``at_most``), if it is still the player's unfinished one on the level."""
        limit = _ALL_ROWS if at_most is None else max(1, at_most)
        with self._reading() as db:
            rows = db.execute(
                self.statements.game_tail, (since, player, pack, level, limit)
            ).fetchall()
        if not rows or int(rows[0][0]) != game_id:
            return None
        return tuple(LogEntry(letter, payload) for _, letter, payload in rows if letter is not None)

    def start_game(
        self,
        player: str,
        pack: str,
        level: str,
        intents: Sequence[LogEntry] = (),
        *,
        replace: bool = False,
    ) -> int:
        """Start a game on this level with the log ``intents``; its id (see :class:`Store`)."""
        statements = self.statements
        with self._transaction() as db:
            # Two processes replacing one game take turns instead of both tripping over the
            # "one unfinished game per level" index.
            self._serialise(db, "game", player, pack, level)
            self._lock_totals(db)
            self._admit_player(db, player)
            replaced = 0
            if replace:
                replaced = db.execute(statements.finish_level_games, (player, pack, level)).rowcount
                self._add(db, games=-replaced)
            # A game that replaces one adds none: only a new one is counted against the total.
            self._make_room(db, player, count_all=replaced < 1)
            try:
                rows = db.execute(statements.insert_game, (player, pack, level)).fetchall()
            except self.duplicate_error as error:
                raise StaleGameError(
                    f"{player} has an unfinished game on {pack}/{level}"
                ) from error
            if not rows:
                raise StoreError(f"{self._name()} gave the new game no id")
            game_id = int(rows[0][0])
            self._add(db, games=1)
            self._touch(db, player)
            self._execute_many(
                db,
                statements.insert_intent,
                [
                    (game_id, seq, intent.letter, intent.payload)
                    for seq, intent in enumerate(intents)
                ],
            )
        self._touched_now(game_id)
        return game_id

    def compact_game(
        self,
        player: str,
        pack: str,
        level: str,
        game_id: int,
        length: int,
        intents: Sequence[LogEntry],
    ) -> int | None:
        """Replace game ``game_id`` by a new game with the log ``intents``, if it still has ``length`` entries (see :class:`Store`)."""
        statements = self.statements
        try:
            with self._transaction() as db:
                self._serialise(db, "game", player, pack, level)
                # Finishing first takes the game's row lock: an append in flight commits
                # before it, and none can follow it.
                if db.execute(statements.finish_game, (game_id,)).rowcount != 1:
                    raise StaleGameError(f"game {game_id} is finished")
                (stored,) = db.execute(statements.log_length, (game_id,)).fetchone()
                if int(stored) != length:
                    raise StaleGameError(f"game {game_id} has {stored} entries, not {length}")
                # After the game's row, before the new game names the player: a transaction
                # that evicts a player's data locks their games before their player row.
                self._touch(db, player)
                self._prune(db, player)
                rows = db.execute(statements.insert_game, (player, pack, level)).fetchall()
                new_id = int(rows[0][0])
                self._execute_many(
                    db,
                    statements.insert_intent,
                    [
                        (new_id, seq, intent.letter, intent.payload)
                        for seq, intent in enumerate(intents)
                    ],
                )
        except StaleGameError:
            return None
        self._touched_now(new_id)
        return new_id

    def _make_room(self, db: Database, player: str, *, count_all: bool = True) -> None:
        """Prune the player's finished games, and their oldest past the quota, before a new one.

        :raises StoreQuotaError: with ``count_all``, when the database holds
            its most games in progress.
        """
        statements = self.statements
        self._prune(db, player)
        (held,) = db.execute(statements.player_games, (player,)).fetchone()
        excess = int(held) - self.max_player_games + 1
        if excess > 0:
            finished = db.execute(statements.finish_oldest_games, (player, excess)).rowcount
            self._add(db, games=-finished)
            self._prune(db, player)
        if not count_all:
            return
        (total,) = db.execute(statements.all_games, ()).fetchone()
        total = int(total)
        if total < self.max_games:
            return
        # Full: the games of the least recently active players idle long enough go, never
        # the player's own.
        idle = db.execute(
            statements.idle_game_holders,
            (self._idle_since(), player, min(_EVICTED_PER_CALL, total - self.max_games + 1)),
        ).fetchall()
        for (token,) in idle:
            total -= self._evict_games(db, str(token))
            if total < self.max_games:
                return
        raise StoreQuotaError(f"{self._name()} holds {total} games in progress, its most")

    # --- activity, totals and eviction --------------------------------------------------------

    def _now(self) -> int:
        """The store's time, in whole seconds since 1970."""
        return int(self.clock())

    def _idle_since(self) -> int:
        """A player active last before this time (the store's) is idle: their data may go."""
        return int(self.clock() - self.idle_after)

    def _touched_now(self, game_id: int) -> None:
        """Remember that the player of ``game_id`` was just recorded active."""
        if self._touched is None or len(self._touched) >= _TOUCHED_GAMES:
            self._touched = {}
        self._touched[game_id] = self.clock()

    def _touch(self, db: Database, player: str) -> None:
        """Record ``player`` active now, in the caller's transaction.

        Always after the transaction has changed the player's games: every
        transaction takes a player's game rows before their player row, so
        two of them never wait for each other in a circle (PostgreSQL).
        """
        db.execute(self.statements.touch_player, (self._now(), player))

    def _lock_totals(self, db: Database) -> None:
        """Hold the totals row until the transaction ends.

        Every transaction that changes a total takes it first, before any
        row of games or players: so they take turns on it and never wait
        for each other in a circle.
        """
        db.execute(self.statements.lock_totals, ()).fetchall()

    def _add(
        self,
        db: Database,
        *,
        games: int = 0,
        players: int = 0,
        library_bytes: int = 0,
        library_players: int = 0,
    ) -> None:
        """Change the totals the server-wide quotas read, in the caller's transaction."""
        if games or players or library_bytes or library_players:
            db.execute(self.statements.add_totals, (games, players, library_bytes, library_players))

    def _evict_games(self, db: Database, player: str) -> int:
        """Finish and delete every game the idle ``player`` has in progress; how many."""
        finished = int(db.execute(self.statements.finish_player_games, (player,)).rowcount)
        self._add(db, games=-finished)
        self._prune(db, player)
        return finished

    def _evict_library(self, db: Database, player: str) -> int:
        """Delete the idle ``player``'s library (and finish its games); the bytes it held."""
        statements = self.statements
        finished = db.execute(statements.finish_library_games, (player, player)).rowcount
        self._add(db, games=-finished)
        self._prune(db, player)
        packs, size = db.execute(statements.player_library, (player,)).fetchone()
        db.execute(statements.delete_player_library, (player,))
        self._add(db, library_bytes=-int(size), library_players=-1 if int(packs) else 0)
        return int(size)

    def _evict_player(self, db: Database, player: str) -> bool:
        """Delete the idle ``player`` and all they hold (games, wins, library); whether they went.

        The game with the highest id stays even finished (see ``prune_games``):
        a player who holds it stays too, holding nothing else.
        """
        statements = self.statements
        self._evict_games(db, player)
        self._evict_library(db, player)
        db.execute(statements.delete_player_progress, (player,))
        gone = db.execute(statements.delete_gone_player, (player, player)).rowcount == 1
        if gone:
            self._add(db, players=-1)
        return gone

    def _make_library_room(
        self, db: Database, player: str, bounds: LibraryBounds, growth: int, new_library: bool
    ) -> None:
        """Evict the least recently active idle players' libraries until the save fits ``bounds``.

        Never the player's own, nor a player active within :attr:`idle_after`;
        when nobody idle is left the save's own check refuses it.
        """
        statements = self.statements
        for _ in range(_EVICTED_PER_CALL):
            (all_bytes, players) = db.execute(statements.library_totals, ()).fetchone()
            over_bytes = growth > 0 and int(all_bytes) + growth > bounds.all_bytes
            over_players = new_library and int(players) >= bounds.players
            if not (over_bytes or over_players):
                return
            idle = db.execute(
                statements.idle_library_holders, (self._idle_since(), player, 1)
            ).fetchone()
            if idle is None:
                return
            self._evict_library(db, str(idle[0]))

    def expire_idle(self, idle_for: float, at_most: int = _EVICTED_PER_CALL) -> tuple[int, int]:
        """Delete the least recently active players idle ``idle_for`` seconds, with all they hold (see :class:`Store`)."""
        with self._transaction() as db:
            self._lock_totals(db)
            idle = db.execute(
                self.statements.idle_players, (int(self.clock() - idle_for), "", max(1, at_most))
            ).fetchall()
            gone = sum(self._evict_player(db, str(token)) for (token,) in idle)
        return len(idle), gone

    def _admit_player(self, db: Database, player: str) -> None:
        """Record ``player`` at their first save, within :attr:`max_players`.

        Past the bound, up to :data:`_IDLE_PLAYERS_PRUNED` players who hold
        nothing are deleted, least recently active first, to make room: a player with a
        game in progress, a win or a library pack is never dropped. When none
        can go, the save is refused, and for a minute new players are refused
        without searching again.

        :raises StoreQuotaError: when the database holds its most players.
        """
        statements = self.statements
        if db.execute(statements.has_player, (player,)).fetchone() is not None:
            return
        (held,) = db.execute(statements.all_players, ()).fetchone()
        if int(held) >= self.max_players:
            if time.monotonic() < self.players_full_until:
                raise StoreQuotaError(f"{self._name()} holds {int(held)} players, its most")
            excess = int(held) - self.max_players + 1
            pruned = db.execute(
                statements.prune_idle_players, (max(excess, _IDLE_PLAYERS_PRUNED),)
            ).rowcount
            self._add(db, players=-pruned)
            if pruned < excess:
                # Nobody who holds nothing is left: the least recently active players idle
                # long enough go with all they hold.
                idle = db.execute(
                    statements.idle_players,
                    (self._idle_since(), player, min(_EVICTED_PER_CALL, excess - pruned)),
                ).fetchall()
                pruned += sum(self._evict_player(db, str(token)) for (token,) in idle)
            if pruned < excess:
                self.players_full_until = time.monotonic() + _PLAYERS_FULL_SECONDS
                raise StoreQuotaError(f"{self._name()} holds {int(held)} players, its most")
        added = db.execute(statements.ensure_player, (player, self._now())).rowcount
        self._add(db, players=added)

    def _prune(self, db: Database, player: str) -> None:
        """Delete the player's finished games and their logs (after marking them finished)."""
        db.execute(self.statements.prune_intents, (player,))
        db.execute(self.statements.prune_games, (player,))

    def abandon_game(self, game_id: int, player: str) -> None:
        """Finish and delete the player's game ``game_id`` without a win (see :class:`Store`)."""
        with self._transaction() as db:
            self._lock_totals(db)
            finished = db.execute(self.statements.finish_game, (game_id,)).rowcount
            self._add(db, games=-finished)
            self._prune(db, player)

    def append_intent(self, game_id: int, seq: int, intent: LogEntry) -> None:
        """Append ``intent`` as entry ``seq`` (0-based) of the game's log (see :class:`Store`)."""
        # The player's activity, at most once an hour per game, so a move stays one row; when
        # it is written, in the append's transaction: the append's success is all a caller hears.
        now = self.clock()
        touch = self._touched is None or now - self._touched.get(game_id, -_TOUCH_SECONDS) >= (
            _TOUCH_SECONDS
        )
        with self._transaction() if touch else self._statement() as db:
            try:
                cursor = db.execute(
                    self.statements.append_intent, (seq, intent.letter, intent.payload, game_id)
                )
            except self.duplicate_error as error:
                raise StaleGameError(f"game {game_id} already has entry {seq}") from error
            if cursor.rowcount != 1:
                raise StaleGameError(f"game {game_id} is finished")
            if touch:
                # After the game's row, as every transaction takes a player's rows.
                db.execute(self.statements.touch_game_player, (int(now), game_id))
        if touch:
            self._touched_now(game_id)

    def record_win(
        self, game_id: int, player: str, pack: str, level: str, moves: int, solution: str | None
    ) -> LevelProgress:
        """Finish the game and keep the win (the best move count and its moves); the new progress."""
        with self._transaction() as db:
            self._lock_totals(db)
            finished = db.execute(self.statements.finish_game, (game_id,)).rowcount
            self._add(db, games=-finished)
            self._prune(db, player)
            rows = db.execute(
                self.statements.record_win, (player, pack, level, moves, solution)
            ).fetchall()
            self._touch(db, player)
        if not rows:
            raise StoreError(f"{self._name()} returned no progress for the win")
        best_moves, best_solution = rows[0]
        return LevelProgress(pack, level, True, int(best_moves), best_solution)

    def progress(self, player: str) -> list[LevelProgress]:
        """Every level the player has won, by pack and level id (code point order)."""
        with self._reading() as db:
            rows = db.execute(self.statements.progress, (player,)).fetchall()
        return [
            LevelProgress(pack, level, True, int(moves), sol) for pack, level, moves, sol in rows
        ]

    # --- the library ------------------------------------------------------------------------

    def library_packs(self, player: str) -> list[LibraryEntry]:
        """Every pack in the player's library, by id (code point order), without its text."""
        with self._reading() as db:
            rows = db.execute(self.statements.library_packs, (player,)).fetchall()
        return [LibraryEntry(*row) for row in rows]

    def library_pack(self, player: str, pack: str) -> LibraryPack | None:
        """The pack ``pack`` of the player's library, or None."""
        with self._reading() as db:
            row = db.execute(self.statements.library_pack, (player, pack)).fetchone()
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
        summary: str = "",
        check_room: RoomCheck | None = None,
        bounds: LibraryBounds | None = None,
    ) -> bool:
        """Keep ``text`` as the pack ``pack`` of the player's library; whether it replaced one (see :class:`Store`)."""
        statements = self.statements
        size = stored_size(pack, version, name, text, summary)
        with self._transaction() as db:
            # Library saves take turns (SQLite's writers do anyway), so "replaced" is told
            # right and the quotas are read and kept in one step: racing saves cannot pass one.
            self._serialise(db, "library")
            self._lock_totals(db)
            self._admit_player(db, player)
            row = db.execute(statements.has_library_pack, (player, pack)).fetchone()
            exists = row is not None
            if exists and not replace:
                raise LibraryPackExistsError(f"{player} has {pack} in their library already")
            replacing = None if row is None else int(row[0] or 0)
            growth = size - (replacing or 0)
            new_library = db.execute(statements.has_library, (player,)).fetchone() is None
            if bounds is not None:
                self._make_library_room(db, player, bounds, growth, new_library)
            if check_room is not None:
                usage = db.execute(statements.library_usage, (player, player)).fetchone()
                check_room(LibraryUsage(*(int(value) for value in usage)), replacing)
            db.execute(
                statements.save_library_pack,
                (player, pack, version, name, text, text_digest(text), size, summary),
            )
            self._add(db, library_bytes=growth, library_players=1 if new_library else 0)
            finished = 0
            for level in stale_levels:
                finished += db.execute(
                    statements.finish_level_games, (player, pack, level)
                ).rowcount
            self._add(db, games=-finished)
            self._prune(db, player)
            self._touch(db, player)
        return exists

    def set_library_summary(
        self, player: str, pack: str, digest: str, summary: str, size: int
    ) -> None:
        """Keep the listing summary of a pack saved before summaries were (see :class:`Store`)."""
        with self._transaction() as db:
            self._lock_totals(db)
            row = db.execute(self.statements.summarised_size, (player, pack, digest)).fetchone()
            if row is None:
                return
            db.execute(self.statements.set_library_summary, (summary, size, player, pack, digest))
            self._add(db, library_bytes=size - int(row[0]))

    def library_usage(self, player: str) -> LibraryUsage:
        """What the player's library and all libraries hold (see :class:`Store`)."""
        with self._reading() as db:
            row = db.execute(self.statements.library_usage, (player, player)).fetchone()
        return LibraryUsage(*(int(value) for value in row))

    def delete_library_pack(self, player: str, pack: str) -> bool:
        """Remove the pack from the player's library (and finish its games); whether it was there."""
        statements = self.statements
        with self._transaction() as db:
            self._lock_totals(db)
            row = db.execute(statements.has_library_pack, (player, pack)).fetchone()
            if row is None:
                return False
            db.execute(statements.delete_library_pack, (player, pack))
            emptied = db.execute(statements.has_library, (player,)).fetchone() is None
            self._add(db, library_bytes=-int(row[0]), library_players=-1 if emptied else 0)
            finished = db.execute(statements.finish_pack_games, (player, pack)).rowcount
            self._add(db, games=-finished)
            self._prune(db, player)
        return True
