"""Who may reach the server: Host names (DNS rebinding), exact origins, JSON errors, bad text.

Through the real app (Starlette's test client), plus the checks' own rules.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from miau.packs import load_pack
from miau.packs.share import single_level_pack
from miau.server.addresses import ServedAddresses, same_origin
from miau.server.app import COOKIE_NAME, create_app
from miau.server.library import UnicodeSafeJSONResponse
from tests.server.conftest import PACKS, Player, TestClient, count_rows
from tests.support.local import LocalServer

# --- the Origin of a WebSocket handshake: scheme, host and port, exactly ----------------------


def handshake(origin: str | None, host: str = "127.0.0.1:8765", scheme: str = "ws") -> bool:
    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return same_origin({"type": "websocket", "scheme": scheme, "headers": headers})


@pytest.mark.parametrize(
    "origin",
    [
        "https://127.0.0.1:8765",
        "ws://127.0.0.1:8765",
        "wss://127.0.0.1:8765",
        "chrome-extension://127.0.0.1:8765",
        "file://127.0.0.1:8765",
        "http://127.0.0.1:8766",
        "http://127.0.0.1",
        "http://localhost:8765",
        "http://127.0.0.1:8765.evil.example",
        "http://user@127.0.0.1:8765",
        "http://127.0.0.1:8765/path",
        "null",
        "",
    ],
)
def test_an_origin_is_refused_unless_its_scheme_host_and_port_are_the_servers(
    origin: str,
) -> None:
    assert not handshake(origin)


def test_the_servers_own_origin_and_no_origin_are_accepted() -> None:
    assert handshake("http://127.0.0.1:8765")
    assert handshake("HTTP://127.0.0.1:8765")
    assert handshake(None)
    assert handshake("http://[::1]:8765", host="[::1]:8765")
    assert handshake("http://miau.example", host="miau.example:80")
    assert handshake("https://miau.example", host="miau.example", scheme="wss")
    assert not handshake("http://miau.example", host="miau.example", scheme="wss")


@pytest.mark.parametrize("path", ["/ws", "/studio"])
@pytest.mark.parametrize("origin", ["https://testserver", "chrome-extension://testserver"])
def test_a_cross_site_handshake_is_closed_with_1008_and_sets_no_cookie(
    tmp_path: Path, path: str, origin: str
) -> None:
    with TestClient(create_app(db_path=tmp_path / "miau.db")) as client:
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(path, headers={"origin": origin}) as socket,
        ):
            socket.receive_json()
        assert refused.value.code == 1008
        assert refused.value.reason == "cross-origin"
        assert COOKIE_NAME not in client.cookies
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as socket:
            assert Player(socket).open("tutorial", "walls")["type"] == "opened"


# --- the Host header: only the addresses the server serves ------------------------------------


def test_a_loopback_server_answers_its_loopback_addresses_and_localhost_at_its_port() -> None:
    served = ServedAddresses.of("127.0.0.1", 8765)
    for good in ("127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"):
        assert served.allows(good), good
    refused: tuple[str | None, ...] = (
        "attacker.example:8765",
        "127.0.0.1:8766",
        "127.0.0.1",
        "localhost",
        "10.0.0.5:8765",
        "127.0.0.1:8765@evil",
        "",
        None,
    )
    for host in refused:
        assert not served.allows(host), host


def test_a_server_on_every_address_answers_address_literals_and_named_hosts_only() -> None:
    served = ServedAddresses.of("0.0.0.0", 8765, ["miau.example.org"])
    assert served.allows("192.168.1.20:8765")
    assert served.allows("miau.example.org")
    assert served.allows("miau.example.org:443")
    assert not served.allows("rebound.attacker.example:8765")
    assert not served.allows("192.168.1.20:9999")


def test_a_request_for_another_host_is_421_json_and_a_socket_for_it_is_closed_with_1008(
    tmp_path: Path,
) -> None:
    app = create_app(db_path=tmp_path / "miau.db", served=ServedAddresses.of("127.0.0.1", 8765))
    with TestClient(app, base_url="http://rebound.attacker.example:8765") as client:
        reply = client.get("/api/progress")
        assert reply.status_code == 421
        assert "rebound.attacker.example" in reply.json()["error"]
        assert COOKIE_NAME not in client.cookies
        page = client.get("/")
        assert page.status_code == 421
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect("/ws") as socket,
        ):
            socket.receive_json()
        assert refused.value.code == 1008
        assert client.get("/api/progress", headers={"host": "127.0.0.1:8765"}).status_code == 200


# --- every /api/ answer is JSON ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api", 404),
        ("GET", "/api/", 404),
        ("GET", "/api/library/", 404),
        ("DELETE", "/api/library/", 405),
        ("DELETE", "/api/library", 405),
        ("POST", "/api/worlds", 405),
        ("GET", "/api/nothing/here", 404),
    ],
)
def test_every_api_refusal_is_a_json_error(
    client: TestClient, method: str, path: str, status: int
) -> None:
    reply = client.request(method, path)
    assert reply.status_code == status
    assert reply.headers["content-type"] == "application/json"
    assert isinstance(reply.json()["error"], str)


# --- a lone surrogate in a JSON body is 400 with the problem ----------------------------------

LONE = "\\ud800"
"""A JSON escape for half a surrogate pair: it parses, but it is no character."""


def _walls_pack_text() -> str:
    return json.dumps(single_level_pack(load_pack(PACKS / "tutorial.json"), "walls"))


def _renamed(text: str, pack_id: str) -> str:
    data = json.loads(text)
    data["manifest"]["id"] = pack_id
    return json.dumps(data)


def _with_lone_surrogate_title(text: str) -> str:
    return text.replace('"title": "', f'"title": "{LONE}', 1)


def test_a_lone_surrogate_is_400_with_the_problem_on_every_json_endpoint(
    client: TestClient, db_path: Path
) -> None:
    pack_text = _walls_pack_text()
    imported = client.post("/api/library", json={"text": _renamed(pack_text, "mine")})
    assert imported.status_code == 200, imported.text
    spoiled_pack = _with_lone_surrogate_title(_renamed(pack_text, "mine"))
    spoiled_new_pack = _with_lone_surrogate_title(_renamed(pack_text, "other"))
    assert LONE in spoiled_pack
    bodies = {
        ("POST", "/api/library"): '{"text": ' + json.dumps(spoiled_new_pack) + "}",
        ("POST", "/api/library#object"): '{"text": "' + LONE + '"}',
        ("PUT", "/api/library/mine/levels/walls"): '{"pack": ' + spoiled_pack + "}",
        ("POST", "/api/shared/encode"): '{"pack": ' + spoiled_pack + "}",
        ("POST", "/api/shared"): '{"code": "' + LONE + '"}',
        ("POST", "/api/shared#key"): '{"' + LONE + '": 1}',
    }
    library_before = client.get("/api/library").json()
    for (method, path), body in bodies.items():
        reply = client.request(
            method,
            path.partition("#")[0],
            content=body.encode(),
            headers={"content-type": "application/json"},
        )
        assert reply.status_code == 400, (path, reply.status_code, reply.text)
        assert "lone surrogate (\\ud800)" in reply.json()["error"], reply.json()
    assert client.get("/api/library").json() == library_before
    assert count_rows(db_path, "games") == 0


def test_a_lone_surrogate_a_stored_pack_holds_is_written_as_its_escape_never_a_500() -> None:
    body = bytes(UnicodeSafeJSONResponse({"title": "\ud800 and \U0001f431"}).body)
    assert body == '{"title":"\\ud800 and \U0001f431"}'.encode()
    assert json.loads(body) == {"title": "\ud800 and \U0001f431"}


def test_a_real_cross_site_handshake_is_answered_with_a_close_frame_of_1008_not_http_403(
    tmp_path: Path,
) -> None:
    with LocalServer(tmp_path / "miau.db") as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        try:
            key = base64.b64encode(os.urandom(16)).decode()
            request = (
                "GET /ws HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{server.port}\r\n"
                f"Origin: https://127.0.0.1:{server.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            sock.sendall(request.encode())
            received = b""
            # Up to the close frame's code; the server then waits for the client's close.
            while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < 4:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                received += chunk
        finally:
            sock.close()
    head, _, frames = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    assert b"set-cookie" not in head.lower()
    # A close frame (opcode 8) whose payload starts with the code 1008.
    assert frames[0] & 0x0F == 0x8
    assert struct.unpack("!H", frames[2:4]) == (1008,)
