"""Two real ``miau play`` processes on one PostgreSQL database serve one player interchangeably."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.conftest import ROOT
from tests.support.local import miau_play


@contextmanager
def serving(database: str, errors: Path) -> Iterator[int]:
    """``miau play`` on ``database``; its port. Its standard error must show no traceback."""
    with errors.open("a") as log, miau_play(database, log) as server:
        yield server.port
    text = errors.read_text()
    assert "Traceback" not in text, text


class Page:
    """One play WebSocket of the player with this cookie, as a browser page holds it."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.seq = 0

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        self.socket.send(json.dumps(message))
        reply: dict[str, Any] = json.loads(self.socket.recv(timeout=10))
        return reply

    def open(self, pack: str, level: str) -> dict[str, Any]:
        reply = self.send({"type": "open", "pack": pack, "level": level})
        assert reply["type"] == "opened", reply
        return reply

    def intent(self, intent: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        reply = self.send({"type": "intent", "seq": self.seq, "intent": intent, **fields})
        assert reply["type"] == "result" and reply["event"]["accepted"], reply
        return reply


@contextmanager
def page(port: int, token: str) -> Iterator[Page]:
    with connect(
        f"ws://127.0.0.1:{port}/ws", additional_headers={"Cookie": f"miau_player={token}"}
    ) as socket:
        yield Page(socket)


def progress(port: int, token: str) -> list[dict[str, Any]]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/progress", headers={"Cookie": f"miau_player={token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        levels: list[dict[str, Any]] = json.load(response)["levels"]
    return levels


def test_a_game_moves_between_two_server_processes_on_one_postgres(
    postgres_url: str, tmp_path: Path
) -> None:
    token = secrets.token_urlsafe(24)
    with (
        serving(postgres_url, tmp_path / "a.log") as port_a,
        serving(postgres_url, tmp_path / "b.log") as port_b,
    ):
        with page(port_a, token) as on_a:
            assert on_a.open("tutorial", "walls")["resumed"] is False
            on_a.intent("step", direction="right")
            before_last = on_a.intent("step", direction="right")["state"]
            last_on_a = on_a.intent("step", direction="down")["state"]

        with page(port_b, token) as on_b:
            resumed = on_b.open("tutorial", "walls")
            assert resumed["resumed"] is True
            assert resumed["state"] == last_on_a
            undone = on_b.intent("undo")["state"]
            assert undone["entities"] == before_last["entities"]
            assert undone["historyLength"] == before_last["historyLength"]
            last_on_b = on_b.intent("step", direction="down")["state"]

        with page(port_a, token) as back_on_a:
            resumed = back_on_a.open("tutorial", "walls")
            assert resumed["resumed"] is True
            assert resumed["state"] == last_on_b
            back_on_a.intent("undo")
            back_on_a.intent("undo")
            assert back_on_a.intent("undo")["state"]["historyLength"] == 0

        # A win on one process is the player's progress on the other.
        with page(port_b, token) as on_b:
            on_b.open("tutorial", "first-steps")
            replies = [on_b.intent("step", direction="right") for _ in "RRRRRR"]
            assert replies[-1]["progress"] == {"won": True, "bestMoves": 6}
        assert [(entry["level"], entry["bestMoves"]) for entry in progress(port_a, token)] == [
            ("first-steps", 6)
        ]


def test_two_pages_on_two_processes_cannot_fork_one_game(postgres_url: str, tmp_path: Path) -> None:
    """Both pages play the same stored game; each accepted turn is stored exactly once, in order."""
    token = secrets.token_urlsafe(24)
    with (
        serving(postgres_url, tmp_path / "a.log") as port_a,
        serving(postgres_url, tmp_path / "b.log") as port_b,
    ):
        with page(port_a, token) as on_a, page(port_b, token) as on_b:
            on_a.open("tutorial", "first-steps")
            on_b.open("tutorial", "first-steps")
            for turn in range(1, 4):
                on_a.intent("step", direction="right")
                # B's board is behind: the store says so, and B plays on the stored game.
                state = on_b.intent("wait")["state"]
                assert state["historyLength"] == 2 * turn
        with page(port_a, token) as again:
            assert again.open("tutorial", "first-steps")["state"] == state
    with psycopg.connect(postgres_url) as db:
        rows = db.execute(
            "SELECT string_agg(letter, '' ORDER BY seq) FROM intents JOIN games ON id = game_id "
            "WHERE player = %s AND finished_at IS NULL",
            (token,),
        ).fetchall()
    assert rows == [("RWRWRW",)]


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://nobody@127.0.0.1:1/miau", "postgresql://nobody@127.0.0.1:1/miau"),
        ("postgresql://nobody:s3cret@127.0.0.1:1/miau", "postgresql://nobody:***@127.0.0.1:1/miau"),
    ],
)
def test_miau_play_says_plainly_when_postgres_cannot_be_reached_and_hides_the_password(
    url: str, shown: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "miau", "play", "--no-browser", "--port", "0", "--db", url],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
        check=False,
    )
    assert result.returncode == 2
    assert f"cannot open the database {shown}:" in result.stderr
    assert "s3cret" not in result.stderr
    assert "cannot connect to PostgreSQL" in result.stderr
    assert "Traceback" not in result.stderr
