"""Clients that stall, stop mid-frame, send huge frames or resume huge games never hold up others.

These run the real app on uvicorn over loopback sockets (``tests/server/wire.py``):
only real sockets have buffers that fill.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Event, Game
from miau.play import log as play_log
from miau.play.worlds import Worlds
from miau.server.limits import UNTHROTTLED, ConnectionLimits
from miau.server.session import PlaySession
from miau.server.store import LogEntry, SqliteStore, StoreRunner
from tests.server.wire import MAX_WEBSOCKET_FRAME, RawSocket, masked_frame
from tests.support.local import LocalServer
from tests.support.loops import run_alone

SEND_TIMEOUT = 0.5
LIMITS = dataclasses.replace(UNTHROTTLED, send_timeout=SEND_TIMEOUT)
PATIENT = dataclasses.replace(UNTHROTTLED, send_timeout=600.0)
"""A send timeout no test outlasts: a stalled client stays connected (and stalled) throughout."""

OPEN_ROCKS = {"type": "open", "pack": "tutorial", "level": "walls"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with LocalServer(tmp_path / "miau.db", LIMITS) as running:
        yield running


def bystander_answers(port: int, count: int = 20) -> int:
    """How many of ``count`` waits a second player has answered, one after another.

    Each reply must come within the socket's 10 s timeout: that bounds a hang,
    not a speed (replies take milliseconds).
    """
    bystander = RawSocket(port)
    try:
        assert bystander.request({"type": "open", "pack": "tutorial", "level": "walls"})["state"]
        answered = 0
        for seq in range(1, count + 1):
            reply = bystander.request({"type": "intent", "seq": seq, "intent": "wait"})
            assert reply == {**reply, "type": "result", "seq": seq}, reply
            answered += 1
        return answered
    finally:
        bystander.close()


FLOOD = 4000
"""Open frames a stalled client sends: their ~5 KB replies (20 MB) overfill any socket buffer."""


def flood_without_reading(client: RawSocket) -> int:
    """Send up to ``FLOOD`` open frames without reading, until the socket blocks; how many."""
    frame = masked_frame(json.dumps(OPEN_ROCKS).encode())
    client.sock.settimeout(0.05)
    sent = 0
    while sent < FLOOD:
        try:
            client.sock.sendall(frame)
        except TimeoutError:
            break
        sent += 1
    return sent


def replies_until_closed(client: RawSocket) -> int:
    """Read replies until the server's side is gone; how many arrived."""
    client.sock.settimeout(5)
    count = 0
    try:
        while True:
            client.receive_json()
            count += 1
    except (ConnectionError, OSError):
        return count


@pytest.fixture
def patient_server(tmp_path: Path) -> Iterator[LocalServer]:
    with LocalServer(tmp_path / "miau.db", PATIENT) as running:
        yield running


def test_others_are_answered_while_a_client_never_reads(patient_server: LocalServer) -> None:
    with RawSocket(patient_server.port, receive_buffer=4096) as stalled:
        sent = flood_without_reading(stalled)
        # The stalled client's replies are stuck in the server's send (its timeout is
        # longer than the test), so every answer below is given while it is stuck.
        assert bystander_answers(patient_server.port) == 20
    assert sent > 1000


@pytest.mark.slow
def test_a_client_that_never_reads_is_closed_after_the_send_timeout(server: LocalServer) -> None:
    with RawSocket(server.port, receive_buffer=4096) as stalled:
        sent = flood_without_reading(stalled)
        # Stay stalled well past the send timeout (how far past bounds nothing measured),
        # then read what the server sent before it hung up.
        time.sleep(SEND_TIMEOUT * 6)
        received = replies_until_closed(stalled)
    # The server stopped at a full buffer and then hung up: the client never got the rest.
    assert sent > 1000
    assert 0 < received < sent


def test_a_client_that_stops_mid_frame_holds_up_no_one(patient_server: LocalServer) -> None:
    halted = RawSocket(patient_server.port)
    frame = masked_frame(json.dumps(OPEN_ROCKS).encode())
    halted.sock.sendall(frame[: len(frame) // 2])
    try:
        assert bystander_answers(patient_server.port) == 20
    finally:
        halted.close()


def test_a_frame_over_the_transport_cap_closes_only_its_connection(
    server: LocalServer,
) -> None:
    huge = json.dumps(
        {"type": "intent", "seq": 1, "intent": "wait", "pad": "x" * MAX_WEBSOCKET_FRAME}
    )
    with RawSocket(server.port) as sender, pytest.raises((ConnectionError, OSError)):
        sender.request(OPEN_ROCKS)
        sender.sock.sendall(masked_frame(huge.encode()))
        sender.receive_json()
    assert bystander_answers(server.port) == 20


def long_log(level_data: dict[str, Any], length: int) -> tuple[LogEntry, ...]:
    """``length`` accepted steps that shuffle right and left and never win."""
    game = Game(level_data)
    letters = []
    for index in range(length):
        letter = "R" if index % 2 == 0 else "L"
        event = game.step("right" if letter == "R" else "left")
        assert event.accepted and not game.won
        letters.append(LogEntry(letter))
    return tuple(letters)


HUGE_LOG = 50_000


def store_huge_game(db_path: Path) -> None:
    """A stored game of ``HUGE_LOG`` steps on tutorial/first-steps for the player ``HUGE_OWNER``."""
    level = Worlds.load(None).level("tutorial", "first-steps")
    assert level is not None
    store = SqliteStore(db_path)
    store.start_game(HUGE_OWNER, "tutorial", "first-steps", long_log(dict(level.data), HUGE_LOG))
    store.close()


HUGE_OWNER = "huge-game-player-0001"


@pytest.mark.slow
def test_resuming_a_50000_intent_game_does_not_stall_other_players(tmp_path: Path) -> None:
    db_path = tmp_path / "miau.db"
    store_huge_game(db_path)

    with LocalServer(db_path, LIMITS) as server:
        resumed: dict[str, Any] = {}
        replay_over = threading.Event()

        def open_huge_game() -> None:
            owner = RawSocket(server.port, cookie=HUGE_OWNER)
            reply = owner.request({"type": "open", "pack": "tutorial", "level": "first-steps"})
            replay_over.set()
            resumed["moves"] = reply["state"]["moveCount"]
            owner.close()

        opener = threading.Thread(target=open_huge_game)
        bystander = RawSocket(server.port)
        bystander.request({"type": "open", "pack": "tutorial", "level": "walls"})
        opener.start()
        seq = 0
        # Every reply comes within the socket's timeout, replay or not; that the replay runs
        # off the event loop is proved without a clock by the next test.
        while not replay_over.is_set() or seq < 10:
            seq += 1
            reply = bystander.request({"type": "intent", "seq": seq, "intent": "wait"})
            assert reply == {**reply, "type": "result", "seq": seq}, reply
        opener.join()
        bystander.close()

    assert resumed["moves"] == HUGE_LOG


@pytest.mark.slow
def test_a_long_replay_runs_off_the_event_loop_while_other_tasks_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db_path = tmp_path / "miau.db"
    store_huge_game(db_path)
    replayed = 0
    replay_threads: set[int] = set()
    original_apply = play_log.apply_entry

    def counting_apply(game: Game, intent: LogEntry) -> Event:
        nonlocal replayed
        replayed += 1
        replay_threads.add(threading.get_ident())
        return original_apply(game, intent)

    monkeypatch.setattr(play_log, "apply_entry", counting_apply)
    store = SqliteStore(db_path)
    session = PlaySession(HUGE_OWNER, Worlds.load(None), StoreRunner(store), LIMITS)
    seen_mid_replay: set[int] = set()
    loop_thread = threading.get_ident()

    async def resume_while_another_task_watches() -> dict[str, Any]:
        opening = asyncio.ensure_future(
            session.handle(json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"}))
        )
        while not opening.done():
            if 0 < replayed < HUGE_LOG:
                seen_mid_replay.add(replayed)
            await asyncio.sleep(0)
        return opening.result()

    try:
        reply = run_alone(resume_while_another_task_watches())
    finally:
        store.close()
    assert reply["state"]["moveCount"] == HUGE_LOG
    # The whole replay ran on one worker thread, and the loop kept turning meanwhile.
    assert len(replay_threads) == 1 and loop_thread not in replay_threads
    assert len(seen_mid_replay) > 1


def test_the_default_limits_chunk_replays_and_time_out_sends() -> None:
    limits = ConnectionLimits()
    assert limits.replay_chunk <= 1000  # at most ~15 ms of replay on the event loop
    assert 0 < limits.send_timeout <= 30
