"""Malformed frames: each gets its error reply, changes nothing, and play goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect

from miau.play.protocol import MAX_FRAME_BYTES
from tests.server.conftest import Player, TestClient, count_rows

WAIT = {"type": "intent", "seq": 41, "intent": "wait"}

MALFORMED: list[tuple[str, str, str, int | None]] = [
    ("not JSON", "{", "bad-json", None),
    ("nested past the parser's depth", "[" * 60_000, "bad-json", None),
    ("an array", "[1, 2]", "bad-message", None),
    ("a bare string", '"wait"', "bad-message", None),
    ("null", "null", "bad-message", None),
    ("no type", json.dumps({"seq": 3}), "bad-message", 3),
    ("a type that is not a string", json.dumps({"type": 5, "seq": 3}), "bad-message", 3),
    ("an unknown type", json.dumps({"type": "dance", "seq": 3}), "unknown-type", 3),
    ("seq a string", json.dumps({**WAIT, "seq": "41"}), "bad-message", None),
    ("seq a boolean", json.dumps({**WAIT, "seq": True}), "bad-message", None),
    ("seq a float", json.dumps({**WAIT, "seq": 41.5}), "bad-message", None),
    ("no seq", json.dumps({"type": "intent", "intent": "wait"}), "bad-message", None),
    ("an unknown intent", json.dumps({**WAIT, "intent": "fly"}), "bad-message", 41),
    ("an intent that is a list", json.dumps({**WAIT, "intent": ["wait"]}), "bad-message", 41),
    ("a step without direction", json.dumps({**WAIT, "intent": "step"}), "bad-message", 41),
    (
        "a direction that is not a string",
        json.dumps({**WAIT, "intent": "step", "direction": 1}),
        "bad-message",
        41,
    ),
    (
        "a restore state that is not an object",
        json.dumps({**WAIT, "intent": "restore", "state": [1]}),
        "bad-message",
        41,
    ),
    ("a restore without state", json.dumps({**WAIT, "intent": "restore"}), "bad-message", 41),
    (
        "an open with a pack that is not a string",
        json.dumps({"type": "open", "pack": 1, "level": "walls"}),
        "bad-message",
        None,
    ),
    (
        "an open with a seq that is not an integer",
        json.dumps({"type": "open", "pack": "tutorial", "level": "walls", "seq": "x"}),
        "bad-message",
        None,
    ),
    (
        "an unknown world",
        json.dumps({"type": "open", "pack": "nowhere", "level": "walls"}),
        "not-found",
        None,
    ),
    (
        "an unknown level",
        json.dumps({"type": "open", "pack": "tutorial", "level": "nowhere", "seq": 9}),
        "not-found",
        9,
    ),
    (
        "a frame over 64 KiB",
        json.dumps({**WAIT, "pad": "x" * MAX_FRAME_BYTES}),
        "too-large",
        None,
    ),
    (
        "a frame under 64 Ki characters but over 64 KiB of UTF-8",
        json.dumps({**WAIT, "pad": "\u20ac" * 30_000}, ensure_ascii=False),
        "too-large",
        None,
    ),
]


@pytest.mark.parametrize(
    ("frame", "code", "seq"),
    [pytest.param(frame, code, seq, id=name) for name, frame, code, seq in MALFORMED],
)
def test_a_malformed_frame_gets_its_error_and_changes_nothing_while_another_page_plays(
    client: TestClient, db_path: Path, frame: str, code: str, seq: int | None
) -> None:
    with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
        sender, bystander = Player(first), Player(second)
        sender.open("tutorial", "first-steps")
        before = sender.step("right")["state"]
        bystander.open("tutorial", "walls")
        bystander.step("right")
        rows = count_rows(db_path, "intents")

        reply = sender.raw(frame)

        assert reply["type"] == "error"
        assert reply["code"] == code
        assert reply["seq"] == seq
        assert isinstance(reply["message"], str) and reply["message"]
        assert count_rows(db_path, "intents") == rows
        assert bystander.step("right")["state"]["moveCount"] == 2
        undone = sender.intent("undo")
        assert undone["event"]["accepted"] is True
        assert undone["state"]["moveCount"] == before["moveCount"] - 1


def test_a_binary_frame_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        socket.send_bytes(b'{"type": "open"}')
        reply = socket.receive_json()
        assert (reply["type"], reply["code"]) == ("error", "bad-message")
        assert Player(socket).open("tutorial", "walls")["type"] == "opened"


def test_an_intent_before_open_is_a_no_game_error(client: TestClient, db_path: Path) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        reply = player.send({"type": "intent", "seq": 1, "intent": "step", "direction": "up"})
        assert (reply["type"], reply["code"], reply["seq"]) == ("error", "no-game", 1)
        assert player.open("tutorial", "walls")["state"]["moveCount"] == 0
    assert count_rows(db_path, "intents") == 0


def test_a_failed_open_keeps_the_level_that_was_open(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.step("right")
        failed = player.send({"type": "open", "pack": "tutorial", "level": "nowhere"})
        assert failed["code"] == "not-found"
        assert player.step("right")["state"]["moveCount"] == 2


def test_a_storage_failure_is_reported_and_the_unstored_move_is_not_kept(
    app: Starlette, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        player.step("right")

        def broken_disk(*args: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(app.state.store, "append_intent", broken_disk)
        failed = player.send({"type": "intent", "seq": 99, "intent": "step", "direction": "down"})
        assert (failed["type"], failed["code"], failed["seq"]) == ("error", "server-error", 99)
        monkeypatch.undo()
        again = player.send({"type": "intent", "seq": 100, "intent": "wait"})
        assert again["code"] == "no-game"
        reopened = player.open("tutorial", "first-steps")
        assert reopened["state"]["moveCount"] == 1


def test_a_handshake_from_another_sites_page_is_refused(client: TestClient) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws", headers={"origin": "http://elsewhere.example"}) as socket,
    ):
        socket.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as socket:
        assert Player(socket).open("tutorial", "walls")["type"] == "opened"
