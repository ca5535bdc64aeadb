"""Fair shares of the server's global pools: frames, idle sockets, new players and library bytes.

The third outside attack held every connection slot with idle WebSockets
kept alive by pings, and slowed every player with garbage from eight
addresses at once. Connection slots are shared by address in
``tests/server/test_connections.py``; here the play socket's side.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from miau.packs import load_pack_text
from miau.server.app import create_app
from miau.server.limits import PLAY_LIMITS, UNTHROTTLED, ConnectionLimits, ServerFrames
from miau.server.request_budget import STANDING_AFTER, RequestBudget
from miau.server.shares import AddressShare, address_key
from tests.server.conftest import Player, TestClient, count_rows
from tests.server.test_library_bounds import walled_pack


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def frozen_play_limits(**changes: Any) -> tuple[ConnectionLimits, FrozenClock]:
    """The play limits with ``changes``, on a clock that moves only when the test moves it."""
    clock = FrozenClock()
    return dataclasses.replace(PLAY_LIMITS, clock=clock, **changes), clock


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
    limits, clock = frozen_play_limits(server_frames_per_second=1.0, server_frames_burst=8)
    frames = ServerFrames(limits)
    assert [frames.take(in_good_standing=False) for _ in range(7)] == [True] * 6 + [False]
    assert [frames.take(in_good_standing=True) for _ in range(3)] == [True, True, False]
    clock.now += 1.0
    assert frames.take(in_good_standing=True)


def test_a_flood_from_other_sockets_spends_only_the_unreserved_frames(db_path: Path) -> None:
    limits, _ = frozen_play_limits(
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


def test_the_servers_request_budget_keeps_its_reserve_for_addresses_within_their_share() -> None:
    limits, clock = frozen_play_limits(
        server_requests_per_second=1.0,
        server_requests_burst=8,
        address_requests_per_second=1.0,
        address_requests_burst=4,
    )
    budget = RequestBudget(_not_reached, limits).requests
    assert budget is not None
    # Four within the flooder's own share, then two more down to the reserve of 2.
    assert [budget.take("10.0.0.1") for _ in range(7)] == [True] * 6 + [False]
    # A visitor within its share gets the reserve; the flooder does not.
    assert budget.take("10.0.0.2") and not budget.take("10.0.0.1")
    assert budget.take("10.0.0.2") and not budget.take("10.0.0.2")
    assert budget.refused == 3
    clock.now += 1.0
    # A second later the flooder's own share has a request again, but it went past its
    # share lately: it stays out of the reserve, which a newcomer still gets.
    assert not budget.take("10.0.0.1")
    assert budget.take("10.0.0.3")
    clock.now += STANDING_AFTER + 1.0
    assert budget.take("10.0.0.1")


async def _not_reached(scope: object, receive: object, send: object) -> None:
    raise AssertionError("the budget was asked directly")


def test_a_request_flood_from_one_address_is_answered_503_and_a_new_visitor_still_loads_the_game(
    db_path: Path,
) -> None:
    limits, _ = frozen_play_limits(
        server_requests_per_second=1.0,
        server_requests_burst=40,
        address_requests_per_second=1.0,
        address_requests_burst=10,
    )
    app = create_app(db_path=db_path, limits=limits)
    with TestClient(app, client=("10.0.0.1", 4000)) as flood:
        statuses = [flood.get("/api/worlds").status_code for _ in range(40)]
        assert statuses[:30] == [200] * 30  # the unreserved 30 of the burst of 40
        assert set(statuses[30:]) == {503}
        refused = flood.get("/")
        assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert "too many requests" in refused.json()["error"]
        assert refused.headers["x-content-type-options"] == "nosniff"
        visitor = TestClient(app, client=("10.0.0.2", 4000))
        assert visitor.get("/").status_code == 200
        assert visitor.get("/api/worlds").status_code == 200
        assert flood.get("/api/worlds").status_code == 503


def test_a_storm_of_new_websockets_from_one_address_is_refused_1013_and_a_newcomer_still_connects(
    db_path: Path,
) -> None:
    limits, _ = frozen_play_limits(
        server_sockets_per_second=1.0,
        server_sockets_burst=8,
        address_sockets_per_second=1.0,
        address_sockets_burst=2,
    )
    app = create_app(db_path=db_path, limits=limits)
    with TestClient(app, client=("10.0.0.1", 4000)) as storm:
        storm.get("/api/worlds")
        codes: list[tuple[int, str] | None] = []
        for _ in range(8):
            try:
                with storm.websocket_connect("/ws") as socket:
                    Player(socket).open("tutorial", "first-steps")
                    codes.append(None)
            except WebSocketDisconnect as closed:
                codes.append((closed.code, closed.reason))
        # Two within the address's share, four more down to the reserve of 2, then closed.
        assert codes[:6] == [None] * 6
        assert set(codes[6:]) == {(1013, "server busy: try again")}
        newcomer = TestClient(app, client=("10.0.0.2", 4000))
        newcomer.get("/api/worlds")
        with newcomer.websocket_connect("/ws") as socket:
            assert Player(socket).open("tutorial", "first-steps")["type"] == "opened"


def test_without_limits_no_request_is_ever_refused(db_path: Path) -> None:
    with TestClient(create_app(db_path=db_path)) as client:
        assert {client.get("/api/worlds").status_code for _ in range(1000)} == {200}


# --- each address's share of the server-wide quotas ------------------------------------------------


def _first_move(client: TestClient) -> dict[str, object]:
    """A new browser's first stored move from ``client``'s address: the reply."""
    client.cookies.clear()
    client.get("/api/worlds")  # a fresh cookie: a new player
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        return player.send({"type": "intent", "seq": 1, "intent": "wait"})


def test_fresh_cookies_from_one_address_past_its_share_of_new_players_are_refused_and_others_are_served(
    db_path: Path,
) -> None:
    clock = FrozenClock()
    share = AddressShare(
        new_players_per_hour=1.0, new_players_burst=2, library_bytes_per_hour=None, clock=clock
    )
    app = create_app(db_path=db_path, address_share=share)
    with (
        TestClient(app, client=("203.0.113.9", 4000)) as flood,
        TestClient(app, client=("198.51.100.7", 4000)) as neighbour,
    ):
        assert [_first_move(flood)["type"] for _ in range(2)] == ["result", "result"]
        refused = _first_move(flood)
        assert refused["type"] == "error" and refused["code"] == "quota", refused
        assert "Your network has started as many new players" in str(refused["message"])
        assert count_rows(db_path, "players") == 2
        # Another address is served; a player already stored from the flooding one plays on.
        assert _first_move(neighbour)["type"] == "result"
        with neighbour.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "walls")
            player.intent("wait")
        clock.now += 3600.0  # an hour later the address may start one more
        assert _first_move(flood)["type"] == "result"
        assert _first_move(flood)["code"] == "quota"
    assert count_rows(db_path, "players") == 4


def test_library_bytes_from_one_address_past_its_share_are_refused_429_and_others_are_served(
    db_path: Path,
) -> None:
    clock = FrozenClock()
    pack = walled_pack("pack-a", 1)
    share = AddressShare(
        new_players_per_hour=None,
        library_bytes_per_hour=float(len(pack)),
        library_bytes_burst=len(pack) * 2,
        clock=clock,
    )
    app = create_app(db_path=db_path, address_share=share)
    with (
        TestClient(app, client=("203.0.113.9", 4000)) as flood,
        TestClient(app, client=("198.51.100.7", 4000)) as neighbour,
    ):
        for _ in range(2):
            flood.cookies.clear()
            assert flood.post("/api/library", json={"text": pack}).status_code == 200
        flood.cookies.clear()
        refused = flood.post("/api/library", json={"text": pack})
        assert refused.status_code == 429
        assert refused.json()["code"] == "address-share"
        assert "this pack was not saved" in refused.json()["error"]
        assert neighbour.post("/api/library", json={"text": pack}).status_code == 200
        # Replacing a pack with one of the same size adds nothing: it is not counted.
        neighbour_pack = walled_pack("pack-a", 1, name="Sllaw")
        assert (
            neighbour.post("/api/library", json={"text": neighbour_pack, "replace": True})
        ).status_code == 200
    assert count_rows(db_path, "library") == 3


def test_a_save_past_its_addresses_byte_share_is_refused_before_its_body_is_read(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from miau.server import library as library_module

    parsed: list[int] = []
    real_parse = load_pack_text

    def counting_parse(text: str) -> Any:
        parsed.append(len(text))
        return real_parse(text)

    read: list[int] = []
    real_read = library_module.read_json_body

    async def counting_read(request: Any, limit: int = library_module.MAX_BODY_BYTES) -> Any:
        read.append(1)
        return await real_read(request, limit)

    monkeypatch.setattr(library_module, "load_pack_text", counting_parse)
    monkeypatch.setattr(library_module, "read_json_body", counting_read)
    pack = walled_pack("pack-a", 1)
    share = AddressShare(
        new_players_per_hour=None,
        library_bytes_per_hour=float(len(pack)),
        library_bytes_burst=len(pack),
        clock=FrozenClock(),
    )
    with TestClient(create_app(db_path=db_path, address_share=share)) as flood:
        assert flood.post("/api/library", json={"text": pack}).status_code == 200
        assert len(parsed) == 1
        for _ in range(5):
            flood.cookies.clear()
            refused = flood.post("/api/library", json={"text": pack})
            assert refused.status_code == 429 and refused.json()["code"] == "address-share"
        # Refused from the body's declared length, before its bytes were read.
        assert len(parsed) == 1 and len(read) == 1
    assert count_rows(db_path, "library") == 1


def test_addresses_are_counted_by_ipv4_address_and_ipv6_prefix() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::7")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key(None) == "?"
    assert address_key("testclient") == "testclient"
