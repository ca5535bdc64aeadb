"""The store suite, on SQLite and on a real PostgreSQL: the log's guards, progress, schema.

Every test taking ``store`` runs on both backends. The PostgreSQL-only tests
at the end open two stores on one database, as two server processes do,
and check that they cannot both move one game on.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

import psycopg
import pytest

from miau.server.store import (
    SCHEMA_VERSION,
    CallOutcome,
    LogEntry,
    SqliteStore,
    StaleGameError,
    Store,
    StoreError,
    StoreRunner,
    open_store,
)
from miau.server.store.postgres import PostgresStore
from tests.support.loops import run_alone

R, Z = LogEntry("R"), LogEntry("Z")

StoreFactory = Callable[[], Store]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """One fresh database of the backend: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "store.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


def count_rows(location: str | Path, table: str) -> int:
    """How many rows ``table`` holds, read straight from the database, not through a store."""
    query = f"SELECT count(*) FROM {table}"
    if isinstance(location, Path):
        with contextlib.closing(sqlite3.connect(location)) as db:
            (count,) = db.execute(query).fetchone()
    else:
        with psycopg.connect(location) as db:
            row = db.execute(query).fetchone()
            assert row is not None
            (count,) = row
    return int(count)


@pytest.fixture
def open_new_store(location: str | Path) -> Iterator[StoreFactory]:
    """Opens stores on one fresh database of the backend; closes them all at the end."""
    opened: list[Store] = []

    def open_one() -> Store:
        store = open_store(location)
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(open_new_store: StoreFactory) -> Store:
    return open_new_store()


@pytest.fixture
def postgres_store(postgres_url: str) -> Iterator[PostgresStore]:
    store = PostgresStore(postgres_url)
    yield store
    store.close()


def test_a_new_sqlite_database_gets_the_schema_its_version_and_write_ahead_logging(
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


def test_a_sqlite_database_from_a_newer_miau_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer Miau"):
        SqliteStore(path)


def test_a_new_postgres_database_gets_the_schema_and_its_version_once(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    PostgresStore(postgres_url).close()  # opening it again changes nothing
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]


def test_a_postgres_database_from_a_newer_miau_is_refused(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url) as db:
        db.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer Miau"):
        PostgresStore(postgres_url)


def test_an_unreachable_postgres_is_a_store_error_that_names_it() -> None:
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL"):
        open_store("postgresql://nobody@127.0.0.1:1/miau?connect_timeout=2")


def test_open_store_takes_postgres_urls_and_anything_else_as_a_sqlite_file(
    tmp_path: Path, postgres_url: str
) -> None:
    sqlite_store = open_store(str(tmp_path / "postgresql.db"))
    postgres_store = open_store(postgres_url)
    try:
        assert isinstance(sqlite_store, SqliteStore)
        assert isinstance(postgres_store, PostgresStore)
    finally:
        sqlite_store.close()
        postgres_store.close()


def test_each_store_is_a_store(store: Store) -> None:
    assert isinstance(store, SqliteStore | PostgresStore)


def test_a_game_keeps_its_log_in_order_until_it_is_won(store: Store) -> None:
    assert store.current_game("p", "tutorial", "walls") is None
    game_id = store.start_game("p", "tutorial", "walls", (R,))
    store.append_intent(game_id, 1, Z)
    store.append_intent(game_id, 2, LogEntry("S", '{"entities": []}'))
    game = store.current_game("p", "tutorial", "walls")
    assert game is not None
    assert game.game_id == game_id
    assert game.intents == (R, Z, LogEntry("S", '{"entities": []}'))
    store.record_win(game_id, "p", "tutorial", "walls", 1, "R")
    assert store.current_game("p", "tutorial", "walls") is None


def test_a_game_started_without_entries_is_resumed_with_an_empty_log(store: Store) -> None:
    game_id = store.start_game("p", "tutorial", "walls")
    game = store.current_game("p", "tutorial", "walls")
    assert game is not None
    assert (game.game_id, game.intents) == (game_id, ())


def test_an_entry_written_twice_or_to_a_finished_game_is_stale(store: Store) -> None:
    game_id = store.start_game("p", "tutorial", "walls", (R,))
    with pytest.raises(StaleGameError):
        store.append_intent(game_id, 0, Z)
    store.record_win(game_id, "p", "tutorial", "walls", 1, "R")
    with pytest.raises(StaleGameError):
        store.append_intent(game_id, 1, Z)


def test_a_second_game_on_a_level_is_stale_unless_it_replaces_the_first(store: Store) -> None:
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


def test_progress_keeps_the_fewest_moves_and_their_solution_per_player(store: Store) -> None:
    assert store.progress("p") == []
    for moves, solution in ((8, "RRRRRRLR"), (6, "RRRRRR"), (7, "RRRRRRW")):
        game_id = store.start_game("p", "tutorial", "first-steps")
        best = store.record_win(game_id, "p", "tutorial", "first-steps", moves, solution)
    assert (best.best_moves, best.best_solution) == (6, "RRRRRR")
    (entry,) = store.progress("p")
    assert (entry.pack, entry.level, entry.won) == ("tutorial", "first-steps", True)
    assert (entry.best_moves, entry.best_solution) == (6, "RRRRRR")
    assert store.progress("q") == []


def test_progress_is_listed_by_pack_then_level_in_code_point_order(store: Store) -> None:
    for pack, level in (("tutorial", "b"), ("clockwork", "z"), ("tutorial", "B"), ("Proofs", "a")):
        store.record_win(store.start_game("p", pack, level), "p", pack, level, 1, "R")
    listed = [(entry.pack, entry.level) for entry in store.progress("p")]
    assert listed == [("Proofs", "a"), ("clockwork", "z"), ("tutorial", "B"), ("tutorial", "b")]


def test_a_win_whose_moves_are_unknown_keeps_an_earlier_known_solution_of_the_same_length(
    store: Store,
) -> None:
    first = store.start_game("p", "tutorial", "first-steps")
    store.record_win(first, "p", "tutorial", "first-steps", 6, "RRRRRR")
    second = store.start_game("p", "tutorial", "first-steps")
    best = store.record_win(second, "p", "tutorial", "first-steps", 6, None)
    assert best.best_solution == "RRRRRR"


def test_players_are_recorded_once(store: Store, location: str | Path) -> None:
    store.ensure_player("p")
    store.ensure_player("p")
    store.start_game("p", "tutorial", "walls")  # the player exists already: no conflict
    store.ensure_player("q")
    assert count_rows(location, "players") == 2
    assert count_rows(location, "games") == 1


def test_restore_payloads_keep_every_character(store: Store) -> None:
    payload = '{"text": "Ünïcödé ✓ \\u0000 \'quotes\' and \\"more\\"", "n": 1e308}'
    game_id = store.start_game("p", "tutorial", "walls", (LogEntry("S", payload),))
    game = store.current_game("p", "tutorial", "walls")
    assert game is not None and game.game_id == game_id
    assert game.intents == (LogEntry("S", payload),)


def test_a_second_store_on_the_same_database_sees_every_commit(
    open_new_store: StoreFactory,
) -> None:
    here, there = open_new_store(), open_new_store()
    game_id = here.start_game("p", "tutorial", "walls", (R,))
    there.append_intent(game_id, 1, Z)
    game = here.current_game("p", "tutorial", "walls")
    assert game is not None and game.intents == (R, Z)
    with pytest.raises(StaleGameError):
        here.append_intent(game_id, 1, R)
    there.record_win(game_id, "p", "tutorial", "walls", 1, "R")
    with pytest.raises(StaleGameError):
        here.append_intent(game_id, 2, R)
    assert [entry.level for entry in here.progress("p")] == ["walls"]


def _race(calls: list[Callable[[], object]]) -> list[object]:
    """Run the calls on threads released at once; each one's result or exception."""
    outcomes: list[object] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(index: int) -> None:
        start.wait()
        try:
            outcomes[index] = calls[index]()
        except Exception as error:
            outcomes[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_processes_appending_the_same_entry_at_once_store_exactly_one(
    postgres_url: str,
) -> None:
    stores = [PostgresStore(postgres_url, connections=2) for _ in range(4)]
    try:
        game_id = stores[0].start_game("p", "tutorial", "walls", (R,))
        for seq in range(1, 11):
            outcomes = _race(
                [partial(store.append_intent, game_id, seq, LogEntry("U")) for store in stores]
            )
            assert sum(outcome is None for outcome in outcomes) == 1, outcomes
            assert all(
                isinstance(outcome, StaleGameError) for outcome in outcomes if outcome is not None
            )
        game = stores[1].current_game("p", "tutorial", "walls")
        assert game is not None and len(game.intents) == 11
    finally:
        for store in stores:
            store.close()


def test_appends_racing_a_win_never_land_in_the_finished_game(postgres_url: str) -> None:
    here, there = PostgresStore(postgres_url), PostgresStore(postgres_url)
    try:
        for round_number in range(10):
            level = f"level-{round_number}"
            game_id = here.start_game("p", "tutorial", level, (R,))
            outcomes = _race(
                [
                    partial(there.record_win, game_id, "p", "tutorial", level, 1, "R"),
                    partial(here.append_intent, game_id, 1, Z),
                ]
            )
            with psycopg.connect(postgres_url) as db:
                stored = db.execute(
                    "SELECT COUNT(*) FROM intents WHERE game_id = %s", (game_id,)
                ).fetchone()
            appended = outcomes[1] is None
            # A won game is deleted with its log: an append that landed before the win went
            # with it, and one after it was refused; none is left behind.
            assert stored == (0,)
            assert appended or isinstance(outcomes[1], StaleGameError)
    finally:
        here.close()
        there.close()


def test_processes_restarting_one_level_at_once_leave_one_unfinished_game(
    postgres_url: str,
) -> None:
    stores = [PostgresStore(postgres_url, connections=1) for _ in range(4)]
    try:
        stores[0].start_game("p", "tutorial", "walls", (R,))
        outcomes = _race(
            [
                partial(store.start_game, "p", "tutorial", "walls", (LogEntry("X"),), replace=True)
                for store in stores
            ]
        )
        assert all(isinstance(outcome, int) for outcome in outcomes), outcomes
        game = stores[0].current_game("p", "tutorial", "walls")
        assert game is not None and game.intents == (LogEntry("X"),)
        with psycopg.connect(postgres_url) as db:
            unfinished = db.execute(
                "SELECT COUNT(*) FROM games WHERE finished_at IS NULL"
            ).fetchone()
        assert unfinished == (1,)
    finally:
        for store in stores:
            store.close()


def test_processes_starting_on_an_empty_database_at_once_create_the_schema_once(
    postgres_url: str,
) -> None:
    outcomes = _race([lambda: PostgresStore(postgres_url, connections=1) for _ in range(4)])
    try:
        assert all(isinstance(outcome, PostgresStore) for outcome in outcomes), outcomes
        with psycopg.connect(postgres_url) as db:
            assert db.execute("SELECT COUNT(*) FROM schema_version").fetchone() == (1,)
    finally:
        for outcome in outcomes:
            if isinstance(outcome, PostgresStore):
                outcome.close()


def test_a_dropped_connection_is_replaced_on_the_next_call(
    postgres_store: PostgresStore, postgres_url: str
) -> None:
    game_id = postgres_store.start_game("p", "tutorial", "walls", (R,))
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    failures = 0
    for seq in range(1, 1 + 2 * postgres_store.concurrent_calls):
        try:
            postgres_store.append_intent(game_id, seq - failures, Z)
        except psycopg.OperationalError:
            failures += 1  # each dead connection fails once, then is replaced
    assert failures <= postgres_store.concurrent_calls
    game = postgres_store.current_game("p", "tutorial", "walls")
    assert game is not None
    assert len(game.intents) == 1 + 2 * postgres_store.concurrent_calls - failures


class _SlowStore:
    """Counts how many of its calls overlap."""

    def __init__(self, concurrent_calls: int | None) -> None:
        if concurrent_calls is not None:
            self.concurrent_calls = concurrent_calls
        self.running = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def call(self, value: int) -> int:
        with self.lock:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        time.sleep(0.02)
        with self.lock:
            self.running -= 1
        if value < 0:
            raise StaleGameError("negative")
        return value * 2


@pytest.mark.parametrize(("declared", "expected"), [(None, 1), (3, 3)])
def test_the_store_runner_makes_as_many_calls_at_once_as_the_store_serves(
    declared: int | None, expected: int
) -> None:
    slow = _SlowStore(declared)
    runner = StoreRunner(slow)  # type: ignore[arg-type]  # only the call is used

    async def many() -> list[int]:
        return list(await asyncio.gather(*(runner.run(slow.call, value) for value in range(8))))

    assert run_alone(many()) == [value * 2 for value in range(8)]
    assert slow.most_at_once == expected


def test_the_store_runner_passes_errors_back_and_its_workers_stop_when_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(StoreRunner, "IDLE_SECONDS", 0.05)
    slow = _SlowStore(2)
    runner = StoreRunner(slow)  # type: ignore[arg-type]

    async def failing() -> None:
        with pytest.raises(StaleGameError, match="negative"):
            await runner.run(slow.call, -1)
        assert await runner.run(slow.call, 4) == 8

    run_alone(failing())
    deadline = time.monotonic() + 5
    while runner._workers and time.monotonic() < deadline:
        time.sleep(0.01)
    assert runner._workers == 0
    run_alone(failing())  # a new worker starts for the next call


def test_a_sqlite_batch_commits_every_call_once_and_a_failed_call_undoes_only_itself(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "batch.db")
    try:
        game_id = store.start_game("p", "tutorial", "walls", (R,))
        outcomes = store.run_batch(
            [
                partial(store.append_intent, game_id, 1, Z),
                partial(store.append_intent, game_id, 1, R),  # entry 1 is taken: stale
                partial(store.start_game, "q", "tutorial", "walls", (R, Z)),
                partial(store.start_game, "q", "tutorial", "walls", (R,)),  # a second: stale
                partial(store.current_game, "p", "tutorial", "walls"),
            ]
        )
        errors = [type(outcome.error) if outcome.error else None for outcome in outcomes]
        assert errors == [None, StaleGameError, None, StaleGameError, None]
        assert outcomes[4].result.intents == (R, Z)
        with sqlite3.connect(tmp_path / "batch.db") as db:
            assert db.execute("SELECT COUNT(*) FROM intents").fetchone() == (4,)
            assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
        store.append_intent(game_id, 2, R)  # the connection is out of the batch's transaction
    finally:
        store.close()


def test_the_store_runner_groups_calls_queued_during_a_commit_into_one_batch(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "grouped.db")
    batch_sizes: list[int] = []
    run_batch = store.run_batch

    def counted(calls: Sequence[Callable[[], object]]) -> list[CallOutcome]:
        batch_sizes.append(len(calls))
        time.sleep(0.05)  # a slow flush: the other calls queue up meanwhile
        return run_batch(calls)

    store.run_batch = counted  # type: ignore[method-assign]
    runner = StoreRunner(store)

    async def players() -> list[int]:
        return list(
            await asyncio.gather(
                *(
                    runner.run(store.start_game, f"p{index}", "tutorial", "walls")
                    for index in range(20)
                )
            )
        )

    try:
        game_ids = run_alone(players())
        assert len(set(game_ids)) == 20
        assert sum(batch_sizes) == 20
        assert len(batch_sizes) <= 3
    finally:
        store.close()
