"""Idle and incomplete connections time out, connections are capped, stuck readers are dropped.

These run the real app on uvicorn over loopback sockets (``tests/support/local.py``),
with a :class:`ConnectionGate` of small caps and a short request timeout. Waits
poll the server's own counts under generous deadlines that bound a hang, never a speed.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from miau.server.app import create_app
from miau.server.limits import UNTHROTTLED
from miau.server.serving import MAX_HEAD_BYTES, MAX_HEADER_LINES, ConnectionGate
from tests.server.wire import RawSocket, masked_frame
from tests.support.local import LocalServer
from tests.support.loops import run_alone

REQUEST_TIMEOUT = 0.3
SEND_TIMEOUT = 0.5
LIMITS = dataclasses.replace(UNTHROTTLED, send_timeout=SEND_TIMEOUT)
OPEN_ROCKS = {"type": "open", "pack": "tutorial", "level": "walls"}
DEADLINE = 15.0
"""How long a wait for the server may last before the test fails: bounds a hang only."""


def wait_until(condition: Callable[[], bool]) -> bool:
    """Poll ``condition`` until it holds or the deadline passes; whether it held."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


class ErrorRecords(logging.Handler):
    """Every record at ERROR or above that reaches the loggers it is attached to."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def errors_logged() -> Iterator[ErrorRecords]:
    handler = ErrorRecords()
    loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "miau")]
    for each in loggers:
        each.addHandler(handler)
    try:
        yield handler
    finally:
        for each in loggers:
            each.removeHandler(handler)


def served(tmp_path: Path, **caps: Any) -> LocalServer:
    gate = ConnectionGate(request_timeout=REQUEST_TIMEOUT, **caps)
    return LocalServer(tmp_path / "miau.db", LIMITS, gate=gate)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (read up to the end; False on a timeout)."""
    sock.settimeout(DEADLINE)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except OSError:
        return True  # reset
    return True


def playing(port: int) -> RawSocket:
    """A player on tutorial/walls, its level open."""
    player = RawSocket(port)
    assert player.request({"type": "open", "pack": "tutorial", "level": "walls"})["type"] == (
        "opened"
    )
    return player


def still_served(player: RawSocket, count: int = 5) -> bool:
    """Whether ``count`` waits of an open player are each answered."""
    for seq in range(1, count + 1):
        reply = player.request({"type": "intent", "seq": seq, "intent": "wait"})
        if reply.get("type") != "result":
            return False
    return True


def test_a_socket_that_sends_nothing_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    with served(tmp_path) as server:
        idle = socket.create_connection(("127.0.0.1", server.port))
        try:
            assert closed_by_server(idle)
        finally:
            idle.close()
        assert server.gate is not None and server.gate.timed_out == 1


def test_half_a_request_line_is_closed_after_the_request_timeout(tmp_path: Path) -> None:
    with served(tmp_path) as server:
        half = socket.create_connection(("127.0.0.1", server.port))
        try:
            half.sendall(b"GET /api/wor")
            assert closed_by_server(half)
        finally:
            half.close()


def test_trickled_headers_do_not_extend_the_request_timeout(tmp_path: Path) -> None:
    with served(tmp_path) as server:
        slow = socket.create_connection(("127.0.0.1", server.port))
        try:
            slow.sendall(b"GET /api/worlds HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            # One header line a tenth of the timeout apart: each byte arrives in time, the
            # request never does.
            for index in range(40):
                try:
                    slow.sendall(f"X-Trickle-{index}: 1\r\n".encode())
                except OSError:
                    break
                time.sleep(REQUEST_TIMEOUT / 10)
            assert closed_by_server(slow)
        finally:
            slow.close()


BODY_TIMEOUT = 0.6


@pytest.mark.parametrize("path", ["/api/shared/encode", "/api/library", "/api/worlds"])
def test_a_body_trickled_a_byte_at_a_time_is_answered_408_at_the_body_timeout(
    tmp_path: Path, errors_logged: ErrorRecords, path: str
) -> None:
    with served(tmp_path, body_timeout=BODY_TIMEOUT) as server:
        gate = server.gate
        assert gate is not None
        slow = socket.create_connection(("127.0.0.1", server.port))
        try:
            slow.sendall(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{".encode()
            )
            # A byte each tenth of the request timeout: every byte is in time, the body never.
            answer = b""
            slow.settimeout(REQUEST_TIMEOUT / 10)
            for _ in range(int(DEADLINE / (REQUEST_TIMEOUT / 10))):
                try:
                    slow.sendall(b" ")
                    answer += slow.recv(65536)
                except TimeoutError:
                    continue
                except OSError:
                    break
                if answer.startswith(b"HTTP/") and answer.endswith(b"}"):
                    break
            if path != "/api/worlds":  # a GET route takes no POST: 405 before any body is read
                assert answer.startswith(b"HTTP/1.1 408 "), answer
                assert b"did not arrive in time" in answer
                assert closed_by_server(slow)
            else:
                assert answer.startswith(b"HTTP/1.1 405 "), answer
                # Answered, its body still coming: the request timeout then closes it.
                assert closed_by_server(slow)
            assert wait_until(lambda: gate.open_connections == 0)
        finally:
            slow.close()
        bystander = playing(server.port)
        try:
            assert still_served(bystander)
        finally:
            bystander.close()
    assert errors_logged.records == []


def test_a_player_is_not_timed_out_between_moves(tmp_path: Path) -> None:
    with served(tmp_path) as server:
        player = playing(server.port)
        try:
            time.sleep(REQUEST_TIMEOUT * 3)
            assert still_served(player)
        finally:
            player.close()


def test_connections_past_the_per_address_cap_are_closed_and_players_keep_playing(
    tmp_path: Path,
) -> None:
    with served(tmp_path, per_address=4) as server:
        player = playing(server.port)
        others = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(10)]
        try:
            # The player holds one place, three idle sockets the rest: the other seven are
            # closed as soon as they are accepted, long before any request timeout.
            closed = sum(closed_by_server(each) for each in others[3:])
            assert closed == 7
            assert server.gate is not None and server.gate.refused == 7
            assert still_served(player)
        finally:
            for each in others:
                each.close()
            player.close()


def test_a_full_server_is_shared_by_address_and_players_keep_playing(
    tmp_path: Path,
) -> None:
    with served(tmp_path, per_address=2, total=4) as server:
        player = playing(server.port)
        sockets = []
        try:
            # Loopback answers every 127.x.y.z: four addresses, two sockets each. The first
            # three fill the server (with the player); a newcomer from an address holding at
            # least two fewer than the biggest holder takes the place of that holder's idle
            # socket, any other is refused: .4 takes one of .2's places, and then every address
            # holds one, so the rest are refused (no place moves between equal holders).
            for host in ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"):
                for _ in range(2):
                    sockets.append(
                        socket.create_connection(
                            ("127.0.0.1", server.port), source_address=(host, 0)
                        )
                    )
            gate = server.gate
            assert gate is not None
            assert wait_until(lambda: gate.refused == 4 and gate.evicted == 1)
            assert gate.open_connections == 4
            assert still_served(player)
        finally:
            for each in sockets:
                each.close()
            player.close()


def test_a_closed_connection_frees_its_place(tmp_path: Path) -> None:
    with served(tmp_path, per_address=1) as server:
        first = playing(server.port)
        first.close()
        gate = server.gate
        assert gate is not None
        assert wait_until(lambda: gate.open_connections == 0)
        second = playing(server.port)
        try:
            assert still_served(second)
        finally:
            second.close()


FLOOD = 4000


def test_a_client_that_stops_reading_is_disconnected_at_the_send_timeout_without_a_traceback(
    tmp_path: Path, errors_logged: ErrorRecords
) -> None:
    with served(tmp_path) as server:
        gate = server.gate
        assert gate is not None
        stalled = RawSocket(server.port, receive_buffer=4096)
        try:
            frame = masked_frame(json.dumps(OPEN_ROCKS).encode())
            stalled.sock.settimeout(0.05)
            sent = 0
            while sent < FLOOD:
                try:
                    stalled.sock.sendall(frame)
                except TimeoutError:
                    break
                sent += 1
            assert sent > 1000
            # The client never reads again: its connection must be gone from the server
            # (socket and buffers), not left waiting for the buffer to drain.
            assert wait_until(lambda: gate.open_connections == 0)
        finally:
            stalled.close()
        bystander = playing(server.port)
        try:
            assert still_served(bystander)
        finally:
            bystander.close()
    assert errors_logged.records == []


class _SocketClosedUnderIt:
    """A play WebSocket whose server closed it (an unanswered keepalive) before a reply."""

    def __init__(self) -> None:
        self.headers: dict[str, str] = {"host": "testserver"}
        self.scope: dict[str, Any] = {"type": "websocket", "miau.player": "p" * 20}
        self.frames = [json.dumps(OPEN_ROCKS)]

    async def accept(self) -> None:
        return None

    async def receive(self) -> dict[str, Any]:
        return {"type": "websocket.receive", "text": self.frames.pop()}

    async def send_text(self, text: str) -> None:
        raise RuntimeError(
            "Unexpected ASGI message 'websocket.send', after sending 'websocket.close'."
        )


def test_a_reply_to_a_socket_the_server_already_closed_ends_the_session_quietly(
    tmp_path: Path, errors_logged: ErrorRecords
) -> None:
    app = create_app(db_path=tmp_path / "miau.db")
    play = next(route for route in app.routes if getattr(route, "path", None) == "/ws")
    endpoint: Any = play.endpoint  # type: ignore[attr-defined]

    async def run() -> None:
        await endpoint(_SocketClosedUnderIt())

    run_alone(run())
    assert errors_logged.records == []


class FakeTransport:
    """Just enough of a transport for the gate: its peer's address.

    The gate knows a connection by the transport's id: a test keeps each one
    it admits alive, so that a new one never takes a freed one's id.
    """

    def __init__(self, address: str) -> None:
        self.address = address
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 40000) if name == "peername" else None


def test_an_address_that_keeps_reconnecting_is_refused_past_its_new_connection_allowance() -> None:
    # Closing a connection frees its place, but not the allowance it took: a client cut off
    # for flooding cannot come back at once, again and again, each time with a fresh limit.
    now = [1000.0]
    gate = ConnectionGate(per_address=4, new_burst=8, total=100, clock=lambda: now[0])
    admitted = 0
    for _ in range(20):
        transport = FakeTransport("203.0.113.7")
        if gate.admit(transport):  # type: ignore[arg-type]
            admitted += 1
            gate.release(transport)  # type: ignore[arg-type]
    assert admitted == 8
    assert gate.refused == 12
    assert gate.open_connections == 0


def test_the_new_connection_allowance_is_per_address_and_refills() -> None:
    now = [1000.0]
    gate = ConnectionGate(per_address=4, new_burst=8, total=100, clock=lambda: now[0])
    for _ in range(8):
        flooder = FakeTransport("203.0.113.7")
        assert gate.admit(flooder)  # type: ignore[arg-type]
        gate.release(flooder)  # type: ignore[arg-type]
    refused, neighbour = FakeTransport("203.0.113.7"), FakeTransport("198.51.100.2")
    assert not gate.admit(refused)  # type: ignore[arg-type]
    assert gate.admit(neighbour)  # type: ignore[arg-type]
    now[0] += 1.0  # a quarter of the allowance comes back each second
    returning = [FakeTransport("203.0.113.7") for _ in range(3)]
    assert [gate.admit(each) for each in returning] == [True, True, False]  # type: ignore[arg-type]


def test_a_websocket_upgrade_takes_no_second_new_connection() -> None:
    gate = ConnectionGate(per_address=2, new_burst=2, total=100, clock=lambda: 1000.0)
    first = FakeTransport("203.0.113.7")
    assert gate.admit(first) and gate.admit(first)  # type: ignore[arg-type]
    assert gate.admit(FakeTransport("203.0.113.7"))  # type: ignore[arg-type]


def test_on_a_full_server_a_newcomer_takes_the_longest_idle_place_of_the_biggest_holder() -> None:
    now = [1000.0]
    gate = ConnectionGate(per_address=64, total=8, clock=lambda: now[0])
    hoarded = [FakeTransport("203.0.113.7") for _ in range(7)]
    for each in hoarded:
        assert gate.admit(each)  # type: ignore[arg-type]
        now[0] += 1.0
    player = FakeTransport("198.51.100.2")
    assert gate.admit(player)  # type: ignore[arg-type]
    gate.touch(hoarded[0])  # type: ignore[arg-type]  # the oldest one just sent a message
    visitors = [FakeTransport(f"192.0.2.{index}") for index in range(1, 7)]
    assert all(gate.admit(each) for each in visitors)  # type: ignore[arg-type]
    assert gate.evicted == 6 and gate.open_connections == 8
    # The hoarder lost its idle sockets, the one that spoke last was kept; nobody else lost one.
    assert [each.aborted for each in hoarded] == [False, True, True, True, True, True, True]
    assert not player.aborted and not any(each.aborted for each in visitors)
    # Now every address holds one place: the next newcomer is refused, nobody is evicted.
    assert not gate.admit(FakeTransport("192.0.2.99"))  # type: ignore[arg-type]
    assert gate.evicted == 6


def test_a_request_head_past_its_caps_is_431_before_it_is_parsed(tmp_path: Path) -> None:
    with served(tmp_path) as server:
        many = b"".join(b"x-%d: 1\r\n" % index for index in range(MAX_HEADER_LINES + 1))
        big = b"x-big: " + b"a" * (MAX_HEAD_BYTES + 1) + b"\r\n"
        for headers in (many, big):
            with socket.create_connection(("127.0.0.1", server.port)) as sock:
                sock.sendall(b"GET /api/worlds HTTP/1.1\r\nhost: 127.0.0.1\r\n" + headers + b"\r\n")
                sock.settimeout(DEADLINE)
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
            assert b"at most 100 lines" in answer
        assert server.gate is not None and server.gate.too_large == 2
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            fine = b"".join(b"x-%d: 1\r\n" % index for index in range(MAX_HEADER_LINES - 5))
            sock.sendall(
                b"GET /api/worlds HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n"
                + fine
                + b"\r\n"
            )
            sock.settimeout(DEADLINE)
            assert sock.recv(65536).startswith(b"HTTP/1.1 200 ")
