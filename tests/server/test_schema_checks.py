"""Start-up checks the database's schema: Miau's tables and columns, its version, no one else's.

The third outside attack found a dropped ``intents`` table or a missing
``games`` column passing the start, then every open failing with a
traceback; another application's SQLite file silently gaining Miau's
tables; a missing ``schema_version`` answered "table players already
exists"; a zero-length file starting fresh without a word.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import psycopg
import pytest

from miau.cli import main
from miau.server.store import SqliteStore, StoreError
from miau.server.store.check import DatabaseDamage, check_sqlite_file
from miau.server.store.postgres import PostgresStore


def miau_database(path: Path) -> None:
    store = SqliteStore(path)
    store.ensure_player("player-0123456789abcdef")
    store.close()


def changed(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)


def test_a_sound_database_opens(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    SqliteStore(path).close()


def test_a_missing_table_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "DROP TABLE intents")
    with pytest.raises(StoreError, match="lacks the table intents of Miau's schema"):
        SqliteStore(path)


def test_a_missing_column_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "ALTER TABLE games DROP COLUMN started_at")
    with pytest.raises(StoreError, match="table games without the column started_at"):
        SqliteStore(path)


def test_another_applications_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "shop.db"
    changed(path, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    before = path.read_bytes()
    with pytest.raises(
        StoreError, match=r"is not a Miau database: it holds other tables \(customers\)"
    ):
        SqliteStore(path)
    assert path.read_bytes() == before


def test_miaus_tables_without_a_schema_version_are_refused_in_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "DROP TABLE schema_version")
    with pytest.raises(StoreError, match="no schema_version") as refused:
        SqliteStore(path)
    assert "already exists" not in str(refused.value)


def test_a_zero_length_file_is_reported_not_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    path.write_bytes(b"")
    with pytest.raises(DatabaseDamage, match="is empty"):
        check_sqlite_file(path)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("DROP TABLE intents", "lacks the table intents"),
        ("DROP INDEX games_unfinished", "games_unfinished"),
    ],
    ids=["a-table", "a-key"],
)
def test_miau_play_refuses_a_broken_schema_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, said: str
) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, damage)
    status = main(["play", "--no-browser", "--port", "0", "--db", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert said in err and "Traceback" not in err


def test_a_players_games_are_counted_through_an_index_not_a_scan(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    with sqlite3.connect(path) as db:
        plan = " ".join(
            str(row[-1])
            for row in db.execute(
                "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM games WHERE player = ?", ("someone",)
            )
        )
    assert "USING COVERING INDEX games_player" in plan, plan


def test_a_database_made_before_the_index_gains_it_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "DROP INDEX games_player")
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        names = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
        }
    assert "games_player" in names


def test_a_dropped_unique_index_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "DROP INDEX games_unfinished")
    with pytest.raises(StoreError, match=r"lacks the unique index games_unfinished on games"):
        SqliteStore(path)


def test_intents_rebuilt_without_its_primary_key_and_holding_duplicates_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(
        path,
        "CREATE TABLE intents_copy AS SELECT * FROM intents",
        "DROP TABLE intents",
        "ALTER TABLE intents_copy RENAME TO intents",
        "INSERT INTO intents VALUES (1, 0, 'R', NULL), (1, 0, 'R', NULL), (1, 0, 'R', NULL)",
    )
    with pytest.raises(
        StoreError, match=r"table intents whose primary key is none, not \(game_id, seq\)"
    ):
        SqliteStore(path)


def test_a_missing_plain_index_is_made_again_and_the_repair_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "miau.db"
    miau_database(path)
    changed(path, "DROP INDEX players_active")
    with caplog.at_level(logging.WARNING, logger="miau.server.store.sql"):
        SqliteStore(path).close()
    assert "lacked the index players_active; it was made again" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="miau.server.store.sql"):
        SqliteStore(path).close()
    assert caplog.text == ""


def test_a_new_database_logs_no_repair(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="miau.server.store.sql"):
        SqliteStore(tmp_path / "miau.db").close()
    assert caplog.text == ""


@pytest.mark.postgres
def test_postgres_refuses_a_dropped_unique_index_and_a_dropped_primary_key(
    postgres_url: str,
) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url) as db:
        db.execute("DROP INDEX games_unfinished")
    with pytest.raises(StoreError, match=r"lacks the unique index games_unfinished on games"):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url) as db:
        db.execute(
            "CREATE UNIQUE INDEX games_unfinished ON games(player, pack, level) "
            "WHERE finished_at IS NULL"
        )
        db.execute("ALTER TABLE intents DROP CONSTRAINT intents_pkey")
    with pytest.raises(
        StoreError, match=r"table intents whose primary key is none, not \(game_id, seq\)"
    ):
        PostgresStore(postgres_url)
    with psycopg.connect(postgres_url) as db:
        db.execute("ALTER TABLE intents ADD PRIMARY KEY (game_id, seq)")
    PostgresStore(postgres_url).close()
