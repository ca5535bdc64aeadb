"""Fair shares of the server's global pools: frames, idle sockets.

The third outside attack held every connection slot with idle WebSockets
kept alive by pings, and slowed every player with garbage from eight
addresses at once. Connection slots are shared by address in
``tests/server/test_connections.py``; here the play socket's side.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from miau.server.app import create_app
from miau.server.limits import PLAY_LIMITS, UNTHROTTLED, ServerFrames
from tests.server.conftest import Player, TestClient


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_websocket_that_sends_nothing_is_closed_at_the_idle_timeout(db_path: Path) -> None:
    limits = dataclasses.replace(UNTHROTTLED, idle_timeout=0.3)
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 1001


def test_a_player_who_keeps_playing_is_never_idle(db_path: Path) -> None:
    limits = dataclasses.replace(UNTHROTTLED, idle_timeout=1.0)
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            for _ in range(20):
                player.intent("wait")  # well inside a second each


def test_the_servers_frame_budget_keeps_its_reserve_for_players_in_good_standing() -> None:
    clock = FrozenClock()
    limits = dataclasses.replace(
        PLAY_LIMITS, clock=clock, server_frames_per_second=1.0, server_frames_burst=8
    )
    frames = ServerFrames(limits)
    assert [frames.take(in_good_standing=False) for _ in range(7)] == [True] * 6 + [False]
    assert [frames.take(in_good_standing=True) for _ in range(3)] == [True, True, False]
    clock.now += 1.0
    assert frames.take(in_good_standing=True)


def test_a_flood_from_other_sockets_spends_only_the_unreserved_frames(db_path: Path) -> None:
    clock = FrozenClock()
    limits = dataclasses.replace(
        PLAY_LIMITS,
        clock=clock,
        frames_per_second=None,
        flood_close=None,
        server_frames_per_second=1.0,
        server_frames_burst=40,
    )
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as playing, client.websocket_connect("/ws") as flood:
            player, flooder = Player(playing), Player(flood)
            player.open("tutorial", "first-steps")
            replies = [flooder.raw("{garbage") for _ in range(40)]
            codes = [each["code"] for each in replies]
            assert codes[:29] == ["bad-json"] * 29
            assert set(codes[29:]) == {"rate-limited"}
            assert "as many messages as it can" in replies[-1]["message"]
            for _ in range(10):
                player.intent("wait")
