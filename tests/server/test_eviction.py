"""A full server evicts the least recently active idle players' data instead of refusing everyone.

Past a server-wide quota (games in progress in all, library bytes or
players, players) the data of players who have stored nothing for longer
than the store's ``idle_after`` goes, least recently active first: never
the requesting player's own, never a player active within ``idle_after``.
The quotas read a row of totals kept in the same transaction as each
write, not counts of the rows. On SQLite and on a real PostgreSQL; the
store's clock is a test's.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from miau.play.refusal import Refusal
from miau.play.worlds import Worlds
from miau.server.app import create_app
from miau.server.expiry import Expiry
from miau.server.library import Library, LibraryQuota
from miau.server.store import (
    SCHEMA_VERSION,
    LogEntry,
    SqliteStore,
    StaleGameError,
    StoreQuotaError,
    StoreRunner,
    open_store,
    stored_size,
)
from miau.server.store.postgres import PostgresStore
from miau.server.store.sql import SqlStore
from tests.server.conftest import UNDO_VERSION_4, TestClient
from tests.server.test_library_bounds import counted_size, walled_pack
from tests.support.loops import run_alone

R = LogEntry("R")
DAY = 86_400.0
START = 1_800_000_000.0
MINE = stored_size("mine", "1.0.0", "Mine", "{}", "")
"""What the quotas count for the pack ``{}`` saved below as mine, 1.0.0, Mine, with no summary."""


class Clock:
    """The store's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def days_later(self, days: float) -> None:
        self.now += days * DAY


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """One fresh database of the backend: a SQLite file or a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "store.db"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(location: str | Path, clock: Clock) -> Iterator[SqlStore]:
    opened = open_store(location, idle_after=30 * DAY)
    assert isinstance(opened, SqlStore)
    opened.clock = clock
    yield opened
    opened.close()


def query(location: str | Path, sql: str) -> list[tuple[object, ...]]:
    """The rows of ``sql``, read straight from the database."""
    if isinstance(location, Path):
        with contextlib.closing(sqlite3.connect(location)) as db:
            return [tuple(row) for row in db.execute(sql).fetchall()]
    with psycopg.connect(location) as db:
        return [tuple(row) for row in db.execute(sql).fetchall()]


def counted(location: str | Path) -> tuple[int, ...]:
    """The totals as counting the rows gives them: games in progress, players, library bytes, library players."""
    ((games, players, size, holders),) = query(
        location,
        "SELECT (SELECT COUNT(*) FROM games WHERE finished_at IS NULL), "
        "(SELECT COUNT(*) FROM players), (SELECT COALESCE(SUM(size), 0) FROM library), "
        "(SELECT COUNT(DISTINCT player) FROM library)",
    )
    return (int(str(games)), int(str(players)), int(str(size)), int(str(holders)))


def kept(location: str | Path) -> tuple[int, ...]:
    """The totals row the quotas read."""
    ((games, players, size, holders),) = query(
        location, "SELECT games, players, library_bytes, library_players FROM totals"
    )
    return (int(str(games)), int(str(players)), int(str(size)), int(str(holders)))


def refusal_of(library: Library, player: str, text: str) -> Refusal | None:
    """The refusal of importing ``text`` (replacing), or None if it was taken."""

    async def attempt() -> Refusal | None:
        try:
            await library.import_text(player, text, replace=True)
        except Refusal as refusal:
            return refusal
        return None

    return run_alone(attempt())


def runner_of(store: SqlStore) -> StoreRunner:
    assert isinstance(store, (SqliteStore, PostgresStore))
    return StoreRunner(store)


def packs_of(store: SqlStore, player: str) -> list[str]:
    return [entry.pack for entry in store.library_packs(player)]


# --- libraries ---------------------------------------------------------------------------------


def test_past_the_library_byte_quota_an_idle_players_packs_make_room_and_the_newcomers_save_succeeds(
    store: SqlStore, clock: Clock
) -> None:
    small = walled_pack("pack-a", 1)
    library = Library(
        Worlds.load(None), runner_of(store), LibraryQuota(all_bytes=counted_size(small) * 2 + 100)
    )
    assert refusal_of(library, "ann", small) is None
    clock.days_later(1)
    assert refusal_of(library, "bob", small) is None
    clock.days_later(40)  # both idle now; ann the longer
    assert refusal_of(library, "cid", small) is None
    assert packs_of(store, "ann") == []
    assert packs_of(store, "bob") == ["pack-a"]
    assert packs_of(store, "cid") == ["pack-a"]


def test_past_the_library_player_quota_an_idle_players_library_makes_room(
    store: SqlStore, clock: Clock
) -> None:
    library = Library(Worlds.load(None), runner_of(store), LibraryQuota(players=2))
    assert refusal_of(library, "ann", walled_pack("pack-a", 1)) is None
    assert refusal_of(library, "ann", walled_pack("pack-b", 1)) is None
    clock.days_later(1)
    assert refusal_of(library, "bob", walled_pack("pack-a", 1)) is None
    clock.days_later(31)  # ann idle 32 days, bob 31
    assert refusal_of(library, "cid", walled_pack("pack-c", 1)) is None
    assert packs_of(store, "ann") == []
    assert packs_of(store, "bob") == ["pack-a"]


def test_an_active_players_packs_are_never_evicted_past_the_quota_with_nobody_idle_the_save_is_refused(
    store: SqlStore, clock: Clock
) -> None:
    small = walled_pack("pack-a", 1)
    library = Library(
        Worlds.load(None), runner_of(store), LibraryQuota(all_bytes=counted_size(small) * 2 + 100)
    )
    assert refusal_of(library, "ann", small) is None
    assert refusal_of(library, "bob", small) is None
    clock.days_later(29)  # within the 30 days: nobody is idle enough to go
    refused = refusal_of(library, "cid", small)
    assert refused is not None and refused.status == 409
    assert refused.body["code"] == "server-full"
    assert packs_of(store, "ann") == packs_of(store, "bob") == ["pack-a"]
    assert packs_of(store, "cid") == []


def test_a_players_own_packs_never_make_room_for_their_next_one(
    store: SqlStore, clock: Clock
) -> None:
    small = walled_pack("pack-a", 1)
    library = Library(
        Worlds.load(None), runner_of(store), LibraryQuota(all_bytes=counted_size(small) + 100)
    )
    assert refusal_of(library, "ann", small) is None
    clock.days_later(60)  # ann comes back after two months, the only one with a library
    refused = refusal_of(library, "ann", walled_pack("pack-b", 1))
    assert refused is not None and refused.body["code"] == "server-full"
    assert packs_of(store, "ann") == ["pack-a"]


# --- games in progress -------------------------------------------------------------------------


def test_past_the_games_quota_an_idle_players_games_make_room_and_an_active_ones_never_do(
    store: SqlStore, clock: Clock
) -> None:
    store.max_games = 2
    store.start_game("ann", "pack", "a", (R,))
    clock.days_later(1)
    store.start_game("bob", "pack", "a", (R,))
    clock.days_later(40)
    store.start_game("cid", "pack", "a", (R, R))  # ann's game, the least recently active, goes
    assert store.current_game("ann", "pack", "a") is None
    assert store.current_game("bob", "pack", "a") is not None
    store.start_game("dan", "pack", "a", (R,))  # then bob's, idle 40 days
    assert store.current_game("bob", "pack", "a") is None
    clock.days_later(29)  # cid and dan played within the 30 days: nobody goes
    with pytest.raises(StoreQuotaError):
        store.start_game("eve", "pack", "a", (R,))
    assert store.current_game("eve", "pack", "a") is None
    assert store.current_game("cid", "pack", "a") is not None
    assert store.current_game("dan", "pack", "a") is not None


def test_a_players_own_games_never_make_room_for_their_next_one(
    store: SqlStore, clock: Clock
) -> None:
    store.max_games = 1
    store.start_game("ann", "pack", "a", (R,))
    clock.days_later(60)
    with pytest.raises(StoreQuotaError):
        store.start_game("ann", "pack", "b", (R,))
    assert store.current_game("ann", "pack", "a") is not None


def test_a_move_keeps_its_player_active(store: SqlStore, clock: Clock) -> None:
    store.max_games = 2
    game = store.start_game("ann", "pack", "a")
    store.start_game("bob", "pack", "a", (R,))
    clock.days_later(29)
    store.append_intent(game, 0, R)  # ann plays on: only bob is idle 31 days later
    clock.days_later(2)
    store.start_game("cid", "pack", "a", (R,))
    assert store.current_game("ann", "pack", "a") is not None
    assert store.current_game("bob", "pack", "a") is None


# --- players -----------------------------------------------------------------------------------


def test_past_the_player_quota_the_least_recently_active_idle_player_goes_with_all_they_hold(
    store: SqlStore, clock: Clock, location: str | Path
) -> None:
    store.max_players = 2
    won = store.start_game("ann", "pack", "a", (R,))
    store.record_win(won, "ann", "pack", "a", 1, "R")
    store.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    store.start_game("ann", "pack", "b", (R,))
    clock.days_later(1)
    store.start_game("bob", "pack", "a", (R,))
    clock.days_later(10)
    with pytest.raises(StoreQuotaError):  # both hold something and played within 30 days
        store.start_game("cid", "pack", "a", (R,))
    store.players_full_until = 0.0  # (the minute in which a full table is not searched again)
    clock.days_later(25)  # ann idle 36 days, bob 35
    store.start_game("cid", "pack", "a", (R,))
    assert sorted(store.players()) == ["bob", "cid"]
    assert store.progress("ann") == [] and packs_of(store, "ann") == []
    assert store.current_game("bob", "pack", "a") is not None
    assert kept(location) == counted(location)


# --- expiry by age ------------------------------------------------------------------------------


def test_players_idle_past_the_expiry_age_go_with_all_they_hold_and_active_ones_stay(
    store: SqlStore, clock: Clock, location: str | Path
) -> None:
    """No quota is reached here: data nobody came back for goes by age alone."""
    won = store.start_game("ann", "pack", "a", (R,))
    store.record_win(won, "ann", "pack", "a", 1, "R")
    store.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    store.start_game("ann", "pack", "b", (R,))
    store.start_game("bob", "pack", "a", (R,))
    clock.days_later(80)
    dan = store.start_game("dan", "pack", "a", (R,))
    store.start_game("cid", "pack", "a", (R,))
    clock.days_later(9.5)
    store.append_intent(dan, 1, R)  # dan plays on
    clock.days_later(1)  # ann and bob idle 90.5 days, cid 10.5, dan 1
    assert store.expire_idle(90 * DAY) == (2, 2)
    assert sorted(store.players()) == ["cid", "dan"]
    assert store.progress("ann") == [] and packs_of(store, "ann") == []
    assert store.current_game("ann", "pack", "b") is None
    assert store.current_game("bob", "pack", "a") is None
    assert store.current_game("cid", "pack", "a") is not None
    assert store.current_game("dan", "pack", "a") is not None
    assert kept(location) == counted(location)
    assert store.expire_idle(90 * DAY) == (0, 0)


def test_a_player_active_one_second_within_the_expiry_age_is_never_touched(
    store: SqlStore, clock: Clock
) -> None:
    store.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    store.start_game("ann", "pack", "a", (R,))
    clock.days_later(90)
    clock.now -= 1
    assert store.expire_idle(90 * DAY) == (0, 0)
    assert packs_of(store, "ann") == ["mine"]
    assert store.current_game("ann", "pack", "a") is not None


def test_a_sweep_takes_every_expired_player_in_small_transactions(
    location: str | Path, clock: Clock
) -> None:
    store = open_store(location)
    assert isinstance(store, SqlStore)
    store.clock = clock
    try:
        for index in range(150):
            store.start_game(f"p{index:03}", "pack", "a", (R,))
        clock.days_later(91)
        store.start_game("new", "pack", "a", (R,))
        calls: list[int] = []
        runner = runner_of(store)
        original = runner.expire_idle

        async def counted_call(idle_for: float, at_most: int = 64) -> tuple[int, int]:
            calls.append(at_most)
            return await original(idle_for, at_most)

        runner.expire_idle = counted_call  # type: ignore[method-assign]
        expiry = Expiry(runner, 90 * DAY, batch=64)
        assert run_alone(expiry.sweep()) == 150
        assert calls == [64, 64, 64]
        assert store.players() == ["new"]
        assert kept(location) == counted(location)
        assert run_alone(Expiry(runner, None).sweep()) == 0
    finally:
        store.close()


def test_the_server_expires_idle_players_when_it_starts_and_keeps_them_when_told_to(
    tmp_path: Path,
) -> None:
    db = tmp_path / "store.db"
    made = open_store(db)
    assert isinstance(made, SqlStore)
    made.clock = lambda: time.time() - 100 * DAY
    made.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    made.start_game("ann", "pack", "a", (R,))
    made.clock = time.time
    made.start_game("bob", "pack", "a", (R,))
    made.close()
    with TestClient(create_app(db_path=db, expire_after=None)):
        pass
    assert sorted(str(row[0]) for row in query(db, "SELECT token FROM players")) == ["ann", "bob"]
    app = create_app(db_path=db, expire_after=90 * DAY)
    with TestClient(app):
        deadline = time.monotonic() + 10
        while app.state.expiry.expired < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
    assert query(db, "SELECT token FROM players") == [("bob",)]
    assert query(db, "SELECT player FROM library") == []
    assert query(db, "SELECT player FROM games WHERE finished_at IS NULL") == [("bob",)]


def test_a_negative_expiry_age_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="expire_after must be zero or more seconds"):
        create_app(db_path=tmp_path / "store.db", expire_after=-1.0)


# --- the totals --------------------------------------------------------------------------------


def test_the_totals_the_quotas_read_match_the_rows_after_every_kind_of_write(
    store: SqlStore, location: str | Path, clock: Clock
) -> None:
    store.ensure_player("visitor")
    won = store.start_game("ann", "pack", "a", (R,))
    store.record_win(won, "ann", "pack", "a", 1, "R")
    game = store.start_game("ann", "pack", "b", (R,))
    store.append_intent(game, 1, R)
    store.start_game("ann", "pack", "b", (R, R), replace=True)
    compacted = store.start_game("bob", "pack", "c", (R,))
    assert store.compact_game("bob", "pack", "c", compacted, 1, (R, R)) is not None
    store.start_game("bob", "mine", "x", (R,))
    store.save_library_pack("bob", "mine", "1.0.0", "Mine", "{}")
    store.save_library_pack("bob", "mine", "1.0.1", "Mine", '{"a": "\u00e9"}', stale_levels=["x"])
    store.save_library_pack("bob", "other", "1.0.0", "Other", "{ }")
    store.save_library_pack("cid", "mine", "1.0.0", "Mine", "{}")
    assert kept(location) == counted(location)
    abandoned = store.start_game("cid", "pack", "a", (R,))
    store.abandon_game(abandoned, "cid")
    assert store.delete_library_pack("bob", "mine")
    assert store.delete_library_pack("cid", "mine")
    assert not store.delete_library_pack("cid", "mine")
    store.max_player_games = 1
    store.start_game("bob", "pack", "d", (R,))  # finishes bob's oldest
    assert kept(location) == counted(location)
    assert kept(location)[3] == 1  # bob alone has a library left


def test_the_games_quota_reads_the_totals_row_not_a_count_of_the_games(
    store: SqlStore, location: str | Path
) -> None:
    store.max_games = 5
    store.start_game("ann", "pack", "a", (R,))
    # The row says the database is full although one game is stored: the quota believes it.
    if isinstance(location, Path):
        with contextlib.closing(sqlite3.connect(location)) as db:
            db.execute("UPDATE totals SET games = 5")
            db.commit()
    else:
        with psycopg.connect(location) as db:
            db.execute("UPDATE totals SET games = 5")
    with pytest.raises(StoreQuotaError):
        store.start_game("bob", "pack", "a", (R,))


def test_new_games_moves_wins_and_packs_scan_no_table(tmp_path: Path) -> None:
    """Every statement a write runs finds its rows through a key or an index (SQLite's plans)."""
    store = SqliteStore(tmp_path / "store.db")
    for player in ("ann", "bob"):  # some rows, so that the plans are those of a used database
        store.save_library_pack(player, "mine", "1.0.0", "Mine", "{}")
        store.start_game(player, "pack", "a", (R,))
    ran: list[str] = []
    store._db.set_trace_callback(ran.append)
    try:
        game = store.start_game("cid", "pack", "a", (R,))
        store.append_intent(game, 1, R)
        store.start_game("cid", "pack", "a", (R,), replace=True)
        won = store.start_game("cid", "pack", "b", (R,))
        store.record_win(won, "cid", "pack", "b", 1, "R")
        store.save_library_pack("cid", "mine", "1.0.0", "Mine", "{}")
        store.save_library_pack("cid", "mine", "1.0.1", "Mine", "{ }", stale_levels=["a"])
        store.delete_library_pack("cid", "mine")
        store.library_usage("cid")
    finally:
        store._db.set_trace_callback(None)
    with contextlib.closing(sqlite3.connect(tmp_path / "store.db")) as db:
        scans = []
        for statement in ran:
            if not statement.lstrip().upper().startswith(("SELECT", "INSERT", "UPDATE", "DELETE")):
                continue
            for row in db.execute(f"EXPLAIN QUERY PLAN {statement}"):
                detail = str(row[-1])
                if detail.startswith("SCAN") and "totals" not in detail:
                    scans.append(f"{detail}: {statement}")
    assert ran and not scans, "\n".join(scans)
    store.close()


# --- the schema --------------------------------------------------------------------------------


def test_a_version_3_database_gains_activity_and_totals_and_nobody_in_it_is_idle_yet(
    location: str | Path,
) -> None:
    made = open_store(location)
    made.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    made.start_game("ann", "pack", "a", (R,))
    made.start_game("bob", "pack", "a", (R,))
    made.close()
    statements = (*UNDO_VERSION_4, "UPDATE schema_version SET version = 3")
    if isinstance(location, Path):
        with contextlib.closing(sqlite3.connect(location)) as db:
            for statement in statements:
                db.execute(statement)
            db.commit()
    else:
        with psycopg.connect(location) as db:
            for statement in statements:
                db.execute(statement)
    store = open_store(location, idle_after=30 * DAY)
    assert isinstance(store, SqlStore)
    try:
        assert query(location, "SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        assert kept(location) == counted(location) == (2, 2, MINE, 1)
        # Their activity is unknown: they count as active at the upgrade, so idle 30 days later.
        upgraded = time.time()
        store.max_games = 2
        store.clock = lambda: upgraded + 29 * DAY
        with pytest.raises(StoreQuotaError):
            store.start_game("cid", "pack", "a", (R,))
        store.clock = lambda: upgraded + 31 * DAY
        store.start_game("cid", "pack", "a", (R,))
        assert store.current_game("ann", "pack", "a") is None
    finally:
        store.close()


def test_the_search_for_players_who_hold_nothing_reads_no_table_whole(tmp_path: Path) -> None:
    """Games, wins and libraries are looked up per player by key; players are walked by activity."""
    store = SqliteStore(tmp_path / "store.db")
    for player in ("ann", "bob"):
        store.save_library_pack(player, "mine", "1.0.0", "Mine", "{}")
        won = store.start_game(player, "pack", "a", (R,))
        store.record_win(won, player, "pack", "a", 1, "R")
    store.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "store.db")) as db:
        plan = [
            str(row[-1])
            for row in db.execute(
                f"EXPLAIN QUERY PLAN {SqliteStore.statements.prune_idle_players}", (10,)
            )
        ]
    scans = [step for step in plan if step.startswith("SCAN")]
    assert scans == ["SCAN players USING INDEX players_active"], plan
    for table in ("games", "progress", "library"):
        assert any(step.startswith(f"SEARCH {table} USING") for step in plan), plan


def test_the_least_recently_active_players_are_found_through_an_index(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    store = SqliteStore(path)
    store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP INDEX players_active")  # a database made before the index
    SqliteStore(path).close()
    with contextlib.closing(sqlite3.connect(path)) as db:
        plan = " ".join(
            str(row[-1])
            for row in db.execute(
                f"EXPLAIN QUERY PLAN {SqliteStore.statements.idle_players}", (0, "x", 1)
            )
        )
    assert "players_active" in plan, plan


def test_totals_set_wrong_or_lost_by_hand_are_counted_afresh_when_the_database_opens(
    location: str | Path,
) -> None:
    made = open_store(location)
    made.start_game("ann", "pack", "a", (R,))
    made.save_library_pack("ann", "mine", "1.0.0", "Mine", "{}")
    made.close()
    for statement in ("UPDATE totals SET games = 7, library_bytes = 0", "DELETE FROM totals"):
        if isinstance(location, Path):
            with contextlib.closing(sqlite3.connect(location)) as db:
                db.execute(statement)
                db.commit()
        else:
            with psycopg.connect(location) as db:
                db.execute(statement)
        open_store(location).close()
        assert kept(location) == counted(location) == (1, 1, MINE, 1)


@pytest.mark.postgres
def test_processes_writing_at_once_keep_the_totals_right_and_never_deadlock(
    postgres_url: str,
) -> None:
    stores = [open_store(postgres_url) for _ in range(3)]
    for opened in stores:
        assert isinstance(opened, SqlStore)
        opened.max_player_games = 3
        opened.clock = Clock()  # each store's own, moved on two hours a move below

    def work(index: int) -> None:
        store = stores[index]
        assert isinstance(store, SqlStore)
        clock = store.clock
        assert isinstance(clock, Clock)
        for round_ in range(15):
            player = f"p{round_ % 4}"
            level = f"l{(round_ + index) % 5}"
            game = store.start_game(player, "pack", level, (R,), replace=True)
            clock.days_later(1 / 12)  # so that every move writes its player's activity
            with contextlib.suppress(StaleGameError):  # another store restarted the level
                store.append_intent(game, 1, R)
            if round_ % 3 == 0:
                store.record_win(game, player, "pack", level, 1, "R")
            elif round_ % 3 == 1:
                store.save_library_pack(player, f"mine{index}", "1.0.0", "Mine", "{}" * round_)
            else:
                store.delete_library_pack(player, f"mine{(index + 1) % 3}")

    try:
        with ThreadPoolExecutor(len(stores)) as pool:
            for done in [pool.submit(work, index) for index in range(len(stores))]:
                done.result(timeout=120)
    finally:
        for opened in stores:
            opened.close()
    assert kept(postgres_url) == counted(postgres_url)
