"""Clients that stall, stop mid-frame, send huge frames or resume huge games never hold up others.

These run the real app on uvicorn over loopback sockets (``tests/server/wire.py``):
only real sockets have buffers that fill.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game
from miau.server.session import UNTHROTTLED, ConnectionLimits
from miau.server.store import SqliteStore, StoredIntent
from miau.server.worlds import Worlds
from tests.server.wire import MAX_WEBSOCKET_FRAME, RawSocket, masked_frame
from tests.support.local import LocalServer

SEND_TIMEOUT = 0.5
LIMITS = dataclasses.replace(UNTHROTTLED, send_timeout=SEND_TIMEOUT)
PROMPT = 0.25
"""Seconds: the slowest reply a bystander may see (typical replies take ~2 ms)."""

OPEN_ROCKS = {"type": "open", "pack": "tutorial", "level": "rocks"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with LocalServer(tmp_path / "miau.db", LIMITS) as running:
        yield running


def bystander_latencies(port: int, count: int = 20) -> list[float]:
    """Seconds per reply for a second player who opens a level and waits ``count`` times."""
    bystander = RawSocket(port)
    try:
        assert bystander.request({"type": "open", "pack": "tutorial", "level": "walls"})["state"]
        latencies = []
        for seq in range(1, count + 1):
            started = time.perf_counter()
            reply = bystander.request({"type": "intent", "seq": seq, "intent": "wait"})
            latencies.append(time.perf_counter() - started)
            assert reply["type"] == "result", reply
        return latencies
    finally:
        bystander.close()


def flood_without_reading(client: RawSocket, seconds: float = 3.0) -> int:
    """Send open frames (each answered with a ~5 KB state) until the socket blocks; how many."""
    frame = masked_frame(json.dumps(OPEN_ROCKS).encode())
    client.sock.settimeout(0.05)
    sent = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
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


def test_a_client_that_never_reads_is_closed_and_others_are_answered_promptly(
    server: LocalServer,
) -> None:
    with RawSocket(server.port, receive_buffer=4096) as stalled:
        sent = flood_without_reading(stalled)
        latencies = bystander_latencies(server.port)
        time.sleep(SEND_TIMEOUT * 3)
        received = replies_until_closed(stalled)

    assert max(latencies) < PROMPT, latencies
    # The server stopped at a full buffer and then hung up: the client never got the rest.
    assert sent > 1000
    assert 0 < received < sent


def test_a_client_that_stops_mid_frame_holds_up_no_one(server: LocalServer) -> None:
    halted = RawSocket(server.port)
    frame = masked_frame(json.dumps(OPEN_ROCKS).encode())
    halted.sock.sendall(frame[: len(frame) // 2])
    try:
        latencies = bystander_latencies(server.port)
        assert max(latencies) < PROMPT, latencies
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
    assert max(bystander_latencies(server.port)) < PROMPT


def long_log(level_data: dict[str, Any], length: int) -> tuple[StoredIntent, ...]:
    """``length`` accepted steps that shuffle right and left and never win."""
    game = Game(level_data)
    letters = []
    for index in range(length):
        letter = "R" if index % 2 == 0 else "L"
        event = game.step("right" if letter == "R" else "left")
        assert event.accepted and not game.won
        letters.append(StoredIntent(letter))
    return tuple(letters)


HUGE_LOG = 50_000


def test_resuming_a_50000_intent_game_does_not_stall_other_players(tmp_path: Path) -> None:
    db_path = tmp_path / "miau.db"
    level = Worlds.load(None).level("tutorial", "first-steps")
    assert level is not None
    store = SqliteStore(db_path)
    store.start_game(
        "huge-game-player-0001", "tutorial", "first-steps", long_log(dict(level.data), HUGE_LOG)
    )
    store.close()

    with LocalServer(db_path, LIMITS) as server:
        resumed: dict[str, float] = {}

        def open_huge_game() -> None:
            owner = RawSocket(server.port, cookie="huge-game-player-0001")
            started = time.perf_counter()
            reply = owner.request({"type": "open", "pack": "tutorial", "level": "first-steps"})
            resumed["seconds"] = time.perf_counter() - started
            resumed["finished"] = time.perf_counter()
            resumed["moves"] = reply["state"]["moveCount"]
            owner.close()

        opener = threading.Thread(target=open_huge_game)
        latencies: list[float] = []
        answered_at: list[float] = []
        bystander = RawSocket(server.port)
        bystander.request({"type": "open", "pack": "tutorial", "level": "walls"})
        opener.start()
        seq = 0
        while opener.is_alive() or seq < 10:
            seq += 1
            started = time.perf_counter()
            assert (
                bystander.request({"type": "intent", "seq": seq, "intent": "wait"})["type"]
                == "result"
            )
            latencies.append(time.perf_counter() - started)
            answered_at.append(time.perf_counter())
        opener.join()
        bystander.close()

    assert resumed["moves"] == HUGE_LOG
    # The bystander was answered during the replay, not only after it. (A single reply
    # can still wait out one of Python's full garbage collections, the resumed game's
    # 50,000 undo steps being many objects, so no bound is put on the slowest one.)
    assert len(latencies) >= 10
    assert statistics.median(latencies) < 0.15, latencies
    # One answer before the resume ends proves the replay yields; more would only measure
    # how the shared machine happened to split its cores between the two.
    during = [moment for moment in answered_at if moment < resumed["finished"]]
    assert during, (resumed, latencies)


def test_the_default_limits_chunk_replays_and_time_out_sends() -> None:
    limits = ConnectionLimits()
    assert limits.replay_chunk <= 1000  # ~10 ms of replay between two yields at most
    assert 0 < limits.send_timeout <= 30
