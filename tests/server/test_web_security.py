"""Browser-side defences and identity: security headers, CSRF, the cookie, tokens kept out of logs.

Each test answers one finding of the third outside attack (issue 39): a
page on another port replaced a player's pack with a ``no-cors``
``text/plain`` POST; the game rendered inside a foreign frame; no
Content-Security-Policy or ``nosniff``; a cookie sent twice took its last
value; the player's token was written to the log; four pages of one player
on one level were answered ``server-error``.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from miau.server import session as session_module
from miau.server.app import COOKIE_NAME, SECURE_COOKIE_NAME, create_app
from miau.server.session import player_tag
from miau.server.web_security import (
    CONTENT_SECURITY_POLICY,
    STATIC_SITE_HEADERS,
    static_site_headers_file,
)
from tests.server.conftest import Player, TestClient, pack_json


def my_pack_text() -> str:
    """The tutorial under the id ``mine``: a pack a player might import."""
    data = pack_json("tutorial")
    data["manifest"].update(id="mine", name="Mine")
    return json.dumps(data)


def upload(client: TestClient, **headers: str) -> Any:
    return client.post(
        "/api/library",
        content=json.dumps({"text": my_pack_text()}),
        headers={"content-type": "application/json", **headers},
    )


@pytest.mark.parametrize("path", ["/", "/index.html", "/js/main.js", "/api/worlds", "/api/nothing"])
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"


def test_the_client_page_has_no_inline_script_or_style(client: TestClient) -> None:
    page = client.get("/").text
    assert "<style" not in page and " style=" not in page
    for script in page.split("<script")[1:]:
        assert "src=" in script.split(">", 1)[0] and script.split(">", 1)[1].startswith("</script")


def test_the_static_sites_headers_file_sends_the_same_defences() -> None:
    text = static_site_headers_file()
    assert text.startswith("/*\n")
    for name, value in STATIC_SITE_HEADERS:
        assert f"  {name}: {value}\n" in text
    assert "frame-ancestors 'none'" in text and "'unsafe-inline'" not in text


def test_a_same_site_page_on_another_port_cannot_write(client: TestClient) -> None:
    origin = "http://testserver:9999"
    refused = client.post(
        "/api/library",
        content=json.dumps({"text": my_pack_text()}),
        headers={"content-type": "text/plain", "origin": origin, "sec-fetch-site": "same-site"},
    )
    assert refused.status_code == 403 and "another site" in refused.json()["error"]
    assert upload(client, origin=origin).status_code == 403
    assert upload(client, **{"sec-fetch-site": "cross-site"}).status_code == 403
    assert client.delete("/api/library/mine", headers={"origin": origin}).status_code == 403
    assert client.get("/api/library").json()["packs"] == []


def test_a_write_whose_body_is_not_json_is_415_and_stores_nothing(client: TestClient) -> None:
    refused = client.post(
        "/api/library",
        content=json.dumps({"text": my_pack_text()}),
        headers={"content-type": "text/plain"},
    )
    assert refused.status_code == 415 and "application/json" in refused.json()["error"]
    assert client.get("/api/library").json()["packs"] == []


def test_writes_from_the_servers_own_pages_and_from_scripts_are_taken(client: TestClient) -> None:
    own = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
    assert upload(client, **own).status_code in (200, 201)
    assert client.delete("/api/library/mine", headers=own).status_code in (200, 204)
    assert upload(client).status_code in (200, 201)  # no browser headers: a script


def test_over_https_the_cookie_is_host_prefixed_and_secure(app: Starlette) -> None:
    with TestClient(app, base_url="https://testserver") as client:
        response = client.get("/api/worlds")
        header = response.headers["set-cookie"]
        assert header.startswith(f"{SECURE_COOKIE_NAME}=")
        assert "; Secure" in header and "Path=/" in header and "Domain" not in header
        assert "set-cookie" not in client.get("/api/worlds").headers


def test_over_http_the_cookie_keeps_its_plain_name(client: TestClient) -> None:
    assert COOKIE_NAME in client.cookies


def test_a_cookie_sent_twice_counts_by_its_first_value(app: Starlette) -> None:
    with TestClient(app) as client:
        mine, planted = "a" * 32, "b" * 32
        client.cookies.set(COOKIE_NAME, mine)
        upload(client)
        both = {"cookie": f"{COOKIE_NAME}={mine}; {COOKIE_NAME}={planted}"}
        client.cookies.clear()
        listed = client.get("/api/library", headers=both).json()["packs"]
        assert [each["id"] for each in listed] == ["mine"]
        planted_first = {"cookie": f"{COOKIE_NAME}={planted}; {COOKIE_NAME}={mine}"}
        assert client.get("/api/library", headers=planted_first).json()["packs"] == []


def test_no_log_line_carries_the_players_token(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(self: Any, message: Any) -> Any:
        raise RuntimeError("the store went away")

    monkeypatch.setattr(session_module.PlaySession, "_play", broken)
    token = client.cookies[COOKIE_NAME]
    with caplog.at_level(logging.INFO), client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        reply = player.send({"type": "intent", "seq": 1, "intent": "wait"})
    assert reply["code"] == "server-error"
    assert "play session of" in caplog.text and player_tag(token) in caplog.text
    assert token not in caplog.text


def test_four_pages_of_one_player_on_one_level_never_get_server_error(
    db_path: Path,
) -> None:
    with TestClient(create_app(db_path=db_path)) as client:
        client.get("/api/worlds")
        replies: list[dict[str, Any]] = []
        sockets = [client.websocket_connect("/ws") for _ in range(4)]
        pages = [Player(each.__enter__()) for each in sockets]
        for page in pages:
            page.open("tutorial", "first-steps")

        def play(page: Player) -> None:
            for index in range(30):
                direction = "right" if index % 2 == 0 else "left"
                replies.append(
                    page.send(
                        {
                            "type": "intent",
                            "seq": index + 1,
                            "intent": "step",
                            "direction": direction,
                        }
                    )
                )

        threads = [threading.Thread(target=play, args=(page,)) for page in pages]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for each in sockets:
            each.__exit__(None, None, None)
        assert [each for each in replies if each["type"] != "result"] == []
        with client.websocket_connect("/ws") as socket:
            opened = Player(socket).open("tutorial", "first-steps")
        assert opened["state"]["moveCount"] == 120
