"""The SQLite store: schema and version, the intent log's guards, progress."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from miau.server.store import (
    SCHEMA_VERSION,
    SqliteStore,
    StaleGameError,
    Store,
    StoredIntent,
    StoreError,
)

R, Z = StoredIntent("R"), StoredIntent("Z")


@pytest.fixture
def store(tmp_path: Path) -> SqliteStore:
    return SqliteStore(tmp_path / "store.db")


def test_a_new_database_gets_the_schema_its_version_and_write_ahead_logging(
    tmp_path: Path,
) -> None:
    path = tmp_path / "new.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    SqliteStore(path).close()  # opening it again changes nothing
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)


def test_a_database_from_a_newer_miau_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer Miau"):
        SqliteStore(path)


def test_the_sqlite_store_is_a_store(store: SqliteStore) -> None:
    typed: Store = store
    assert typed is store


def test_a_game_keeps_its_log_in_order_until_it_is_won(store: SqliteStore) -> None:
    assert store.current_game("p", "tutorial", "walls") is None
    game_id = store.start_game("p", "tutorial", "walls", (R,))
    store.append_intent(game_id, 1, Z)
    store.append_intent(game_id, 2, StoredIntent("S", '{"entities": []}'))
    game = store.current_game("p", "tutorial", "walls")
    assert game is not None
    assert game.game_id == game_id
    assert game.intents == (R, Z, StoredIntent("S", '{"entities": []}'))
    store.record_win(game_id, "p", "tutorial", "walls", 1, "R")
    assert store.current_game("p", "tutorial", "walls") is None


def test_an_entry_written_twice_or_to_a_finished_game_is_stale(store: SqliteStore) -> None:
    game_id = store.start_game("p", "tutorial", "walls", (R,))
    with pytest.raises(StaleGameError):
        store.append_intent(game_id, 0, Z)
    store.record_win(game_id, "p", "tutorial", "walls", 1, "R")
    with pytest.raises(StaleGameError):
        store.append_intent(game_id, 1, Z)


def test_a_second_game_on_a_level_is_stale_unless_it_replaces_the_first(
    store: SqliteStore,
) -> None:
    first = store.start_game("p", "tutorial", "walls", (R,))
    with pytest.raises(StaleGameError):
        store.start_game("p", "tutorial", "walls", (R,))
    second = store.start_game("p", "tutorial", "walls", (Z,), replace=True)
    assert second != first
    game = store.current_game("p", "tutorial", "walls")
    assert game is not None and game.intents == (Z,)
    with pytest.raises(StaleGameError):
        store.append_intent(first, 1, R)
    other_player = store.start_game("q", "tutorial", "walls")
    assert other_player not in (first, second)


def test_progress_keeps_the_fewest_moves_and_their_solution_per_player(
    store: SqliteStore,
) -> None:
    assert store.progress("p") == []
    for moves, solution in ((8, "RRRRRRLR"), (6, "RRRRRR"), (7, "RRRRRRW")):
        game_id = store.start_game("p", "tutorial", "first-steps")
        best = store.record_win(game_id, "p", "tutorial", "first-steps", moves, solution)
    assert (best.best_moves, best.best_solution) == (6, "RRRRRR")
    (entry,) = store.progress("p")
    assert (entry.pack, entry.level, entry.won) == ("tutorial", "first-steps", True)
    assert (entry.best_moves, entry.best_solution) == (6, "RRRRRR")
    assert store.progress("q") == []


def test_a_win_whose_moves_are_unknown_keeps_an_earlier_known_solution_of_the_same_length(
    store: SqliteStore,
) -> None:
    first = store.start_game("p", "tutorial", "first-steps")
    store.record_win(first, "p", "tutorial", "first-steps", 6, "RRRRRR")
    second = store.start_game("p", "tutorial", "first-steps")
    best = store.record_win(second, "p", "tutorial", "first-steps", 6, None)
    assert best.best_solution == "RRRRRR"
