"""Over-long stored logs (written before the cap) and the cost of resumes.

A log of ``COMPACT_AT`` entries or more is read and shortened once however
many pages open it, under ``miau play`` in a process of its own, and the
short log resumes exactly as the long one replays; each player's resumes
replay within a budget of entries a second (``docs/security.md``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine import Event, Game
from miau.packs import PackLevel
from miau.play import log as play_log
from miau.play.log import (
    COMPACT_AT,
    UNDO_KEPT,
    UnreplayableGameError,
    apply_entry,
    replay_log,
    shortened_log,
)
from miau.play.worlds import Worlds
from miau.server.app import create_app
from miau.server.limits import UNTHROTTLED, ConnectionLimits
from miau.server.long_logs import LogShortenerProcess, LongLogs, ReplayBudgets
from miau.server.replays import shorten_on_a_thread
from miau.server.session import UNREPLAYABLE_NOTICE, PlaySession
from miau.server.store import LogEntry, SqliteStore, StoreRunner
from tests.server.conftest import Player, TestClient
from tests.support.loops import run_alone

OWNER = "long-log-owner-000001"
OPEN = json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"})
UNDO = json.dumps({"type": "intent", "seq": 1, "intent": "undo"})
LONG = COMPACT_AT + 904
"""An over-long log: 5,000 entries, stored as a database from before the cap would hold it."""


def first_steps() -> PackLevel:
    level = Worlds.load(None).level("tutorial", "first-steps")
    assert level is not None
    return level


def shuffling_log(length: int, *, undo_every: int = 0) -> tuple[LogEntry, ...]:
    """``length`` accepted entries that shuffle right and left (with an undo every so often)."""
    game = Game(first_steps().data)
    entries = []
    for index in range(length):
        if undo_every and index % undo_every == undo_every - 1:
            assert game.undo().accepted
            entries.append(LogEntry("Z"))
            continue
        letter = "R" if game.state.move_count % 2 == 0 else "L"
        assert game.step("right" if letter == "R" else "left").accepted
        entries.append(LogEntry(letter))
    assert not game.won
    return tuple(entries)


def as_sent(game: Game) -> dict[str, Any]:
    sent: dict[str, Any] = json.loads(json.dumps(game.state.to_json()))
    return sent


def as_resumed(game: Game) -> dict[str, Any]:
    """The state a resume of ``game``'s stored log sends: its undo history capped at ``UNDO_KEPT``."""
    return {**as_sent(game), "historyLength": min(game.history_length, UNDO_KEPT)}


def store_game(db_path: Path, log: Sequence[LogEntry]) -> None:
    store = SqliteStore(db_path)
    store.ensure_player(OWNER)
    store.start_game(OWNER, "tutorial", "first-steps", tuple(log))
    store.close()


def stored_log(db_path: Path) -> tuple[LogEntry, ...]:
    store = SqliteStore(db_path)
    try:
        stored = store.current_game(OWNER, "tutorial", "first-steps")
    finally:
        store.close()
    assert stored is not None
    return stored.intents


def open_together(
    db_path: Path,
    pages: int,
    long_logs: LongLogs,
    limits: ConnectionLimits = UNTHROTTLED,
    then: str | None = None,
) -> list[list[dict[str, Any]]]:
    """``pages`` sessions of the owner open the level at once (then each sends ``then``); their replies."""
    store = SqliteStore(db_path)
    runner = StoreRunner(store)
    worlds = Worlds.load(None)

    async def page() -> list[dict[str, Any]]:
        session = PlaySession(OWNER, worlds, runner, limits, long_logs=long_logs)
        replies = [await session.handle(OPEN)]
        if then is not None:
            replies.append(await session.handle(then))
        return replies

    async def all_pages() -> list[list[dict[str, Any]]]:
        try:
            return list(await asyncio.gather(*(page() for _ in range(pages))))
        finally:
            await long_logs.close()

    try:
        return run_alone(all_pages())
    finally:
        store.close()


def count_applied(monkeypatch: Any) -> Callable[[], int]:
    """Count the log entries this process applies from now on."""
    applied = [0]

    def counting(game: Game, intent: LogEntry) -> Event:
        applied[0] += 1
        return apply_entry(game, intent)

    monkeypatch.setattr(play_log, "apply_entry", counting)
    return lambda: applied[0]


def test_concurrent_opens_of_one_over_long_game_replay_it_once(
    tmp_path: Path, monkeypatch: Any
) -> None:
    db_path = tmp_path / "miau.db"
    log = shuffling_log(LONG)
    store_game(db_path, log)
    whole = replay_log(first_steps(), log)
    applied = count_applied(monkeypatch)
    long_logs = LongLogs(shorten_on_a_thread)
    pages = open_together(db_path, 6, long_logs)
    assert long_logs.replays == 1
    for (opened,) in pages:
        assert opened["type"] == "opened" and opened["resumed"], opened
        assert opened["state"] == as_resumed(whole)
    # One replay of the long log, then each page replays the short one it was stored as.
    short = stored_log(db_path)
    assert len(short) == UNDO_KEPT + 1
    assert applied() == LONG + 6 * len(short)


def test_an_over_long_log_is_replayed_in_the_shortener_process_not_in_the_server(
    tmp_path: Path, monkeypatch: Any
) -> None:
    db_path = tmp_path / "miau.db"
    log = shuffling_log(LONG, undo_every=7)
    store_game(db_path, log)
    whole = replay_log(first_steps(), log)
    applied = count_applied(monkeypatch)
    shortener = LogShortenerProcess(shortened_log, UnreplayableGameError)
    pids: list[int | None] = []
    original = LogShortenerProcess.__call__

    async def noting_pid(
        self: LogShortenerProcess, level: PackLevel, intents: Sequence[LogEntry], kept: int
    ) -> list[LogEntry] | None:
        short = await original(self, level, intents, kept)
        pids.append(self.pid())
        return short

    monkeypatch.setattr(LogShortenerProcess, "__call__", noting_pid)
    long_logs = LongLogs(shortener)
    ((opened, undone),) = open_together(db_path, 1, long_logs, then=UNDO)
    assert opened["state"] == as_resumed(whole)
    whole.undo()
    assert undone["state"] == {**as_sent(whole), "historyLength": UNDO_KEPT - 1}
    assert long_logs.replays == 1 and pids and pids[0] not in (None, os.getpid())
    # This process applied the short log (a restore and 2,048 turns) and the undo, no more.
    assert applied() == UNDO_KEPT + 2 == len(stored_log(db_path))
    assert shortener.pid() is None  # closed with the server


def test_an_over_long_log_that_does_not_replay_is_set_aside_once_with_a_notice(
    tmp_path: Path,
) -> None:
    db_path = tmp_path / "miau.db"
    store_game(db_path, (*shuffling_log(LONG), LogEntry("Q")))
    long_logs = LongLogs(shorten_on_a_thread)
    pages = open_together(db_path, 3, long_logs)
    assert long_logs.replays == 1
    for (opened,) in pages:
        assert opened["notice"] == UNREPLAYABLE_NOTICE
        assert opened["state"]["moveCount"] == 0
    store = SqliteStore(db_path)
    try:
        assert store.current_game(OWNER, "tutorial", "first-steps") is None
    finally:
        store.close()


STEPS = st.sampled_from(["R", "L", "U", "D", "W", "Z", "Z", "X"])


@settings(max_examples=60, deadline=None)
@given(letters=st.lists(STEPS, min_size=1, max_size=90), undo_kept=st.integers(1, 40))
def test_a_shortened_log_resumes_equal_to_a_replay_of_the_whole_log(
    letters: list[str], undo_kept: int
) -> None:
    level = first_steps()
    game = Game(level.data)
    log = []
    for letter in letters:  # the entries the engine accepts, as the server stores them
        entry = LogEntry(letter)
        if apply_entry(game, entry).accepted:
            log.append(entry)
        if game.won:
            break
    whole = replay_log(level, log)
    short = shortened_log(level, log, undo_kept)
    if short is None:
        return  # no shorter form: the whole log is what is replayed
    assert len(short) < len(log) and len(short) <= undo_kept + 1
    resumed = replay_log(level, short)
    # State, move count and won flag are exact; undo is exact as far back as the cap keeps.
    assert as_sent(resumed) == {
        **as_sent(whole),
        "historyLength": min(whole.history_length, undo_kept),
    }
    assert resumed.won == whole.won
    assert resumed.history_length == min(whole.history_length, undo_kept)
    while resumed.undo().accepted:
        assert whole.undo().accepted
        assert as_sent(resumed)["entities"] == as_sent(whole)["entities"]
        assert resumed.state.move_count == whole.state.move_count


def test_the_shortener_process_gives_the_log_shortened_log_gives(tmp_path: Path) -> None:
    level = first_steps()
    log = shuffling_log(LONG, undo_every=5)
    shortener = LogShortenerProcess(shortened_log, UnreplayableGameError)

    async def shorten() -> list[LogEntry] | None:
        try:
            return await shortener(level, log, UNDO_KEPT)
        finally:
            shortener.close()

    assert run_alone(shorten()) == shortened_log(level, log, UNDO_KEPT)


def test_a_players_resumes_past_their_replay_budget_wait_their_turn_and_others_do_not() -> None:
    budgets = ReplayBudgets()
    # A whole burst at once, then each resume waits for the entries it takes to come back.
    assert budgets.reserve("a", 300, per_second=100.0, burst=300.0, now=0.0) == 0.0
    assert budgets.reserve("a", 100, per_second=100.0, burst=300.0, now=0.0) == 1.0
    assert budgets.reserve("a", 100, per_second=100.0, burst=300.0, now=0.0) == 2.0
    assert budgets.reserve("b", 300, per_second=100.0, burst=300.0, now=0.0) == 0.0
    # Time refills the bucket; a resume longer than the burst costs the burst.
    assert budgets.reserve("a", 100, per_second=100.0, burst=300.0, now=5.0) == 0.0
    assert budgets.reserve("c", 10_000, per_second=100.0, burst=300.0, now=0.0) == 0.0


def test_resumes_of_long_games_wait_for_the_players_replay_budget(tmp_path: Path) -> None:
    db_path = tmp_path / "miau.db"
    log = shuffling_log(600)
    store_game(db_path, log)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    limits = dataclasses.replace(
        UNTHROTTLED,
        replay_entries_per_second=300.0,
        replay_burst=600,
        clock=lambda: 0.0,
        sleep=sleep,
    )
    pages = open_together(db_path, 3, LongLogs(shorten_on_a_thread), limits)
    assert all(opened["state"]["moveCount"] == 600 for (opened,) in pages)
    # The first resume took the burst; the next two waited 2 s and 4 s of replay budget.
    assert sorted(waits) == [2.0, 4.0]


def test_a_capped_read_gives_the_first_entries_and_tail_reads_go_in_parts(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "miau.db")
    try:
        log = shuffling_log(10)
        game_id = store.start_game(OWNER, "tutorial", "first-steps", log)
        capped = store.current_game(OWNER, "tutorial", "first-steps", 4)
        assert capped is not None and capped.intents == log[:4] and capped.game_id == game_id
        assert store.game_tail(OWNER, "tutorial", "first-steps", game_id, 4, 3) == log[4:7]
        assert store.game_tail(OWNER, "tutorial", "first-steps", game_id, 8, 3) == log[8:]
        assert store.game_tail(OWNER, "tutorial", "first-steps", game_id, 10, 3) == ()
    finally:
        store.close()


def test_the_app_shortens_over_long_logs_in_its_own_process_and_ends_it_with_the_server(
    tmp_path: Path, monkeypatch: Any
) -> None:
    db_path = tmp_path / "miau.db"
    log = shuffling_log(LONG)
    store_game(db_path, log)
    whole = replay_log(first_steps(), log)
    applied = count_applied(monkeypatch)
    app = create_app(db_path=db_path)
    shortener = app.state.long_logs.shorten
    assert isinstance(shortener, LogShortenerProcess) and shortener.pid() is None
    with TestClient(app) as client:
        client.cookies.set("miau_player", OWNER)
        with client.websocket_connect("/ws") as socket:
            opened = Player(socket).open("tutorial", "first-steps")
        assert opened["state"] == as_resumed(whole)
        assert shortener.pid() not in (None, os.getpid())
    assert applied() == UNDO_KEPT + 1  # the short log only: the long one was replayed there
    assert shortener.pid() is None  # the server took its shortener down with it
