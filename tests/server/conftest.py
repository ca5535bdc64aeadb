"""Fixtures for the server tests: a real app on a real SQLite file, and a play-socket helper."""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.exceptions import StarletteDeprecationWarning

from miau.server.app import create_app
from tests.server.postgres import postgres_cluster, postgres_url

with warnings.catch_warnings():
    # Starlette prefers httpx2 for its test client; httpx (the one installed) works the same.
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient, WebSocketTestSession

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "packs"

__all__ = [
    "PACKS",
    "ROOT",
    "UNDO_VERSION_4",
    "Player",
    "TestClient",
    "count_rows",
    "pack_json",
    "postgres_cluster",
    "postgres_url",
]


UNDO_VERSION_4 = (
    "DROP INDEX players_active",
    "ALTER TABLE players DROP COLUMN active_at",
    "DROP TABLE totals",
)
"""What turns a new database (SQLite or PostgreSQL) back into a version 3 one: no activity, no totals."""


def pack_json(pack_id: str) -> dict[str, Any]:
    """A shipped pack file as JSON (for its levels' stored solutions)."""
    data: dict[str, Any] = json.loads((PACKS / f"{pack_id}.json").read_text(encoding="utf-8"))
    return data


def count_rows(db_path: Path, table: str) -> int:
    """The number of rows in a table of the database, read on a separate connection."""
    with sqlite3.connect(db_path) as db:
        (count,) = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
    return int(count)


class Player:
    """One play WebSocket, with numbered intents."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.seq = 0

    def raw(self, frame: str) -> dict[str, Any]:
        """Send a text frame as it is; the reply."""
        self.socket.send_text(frame)
        reply: dict[str, Any] = self.socket.receive_json()
        return reply

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message; the reply."""
        return self.raw(json.dumps(message))

    def open(self, pack: str, level: str) -> dict[str, Any]:
        """Open a level; the ``opened`` reply (checked)."""
        reply = self.send({"type": "open", "pack": pack, "level": level})
        assert reply["type"] == "opened", reply
        return reply

    def intent(self, intent: str, **fields: Any) -> dict[str, Any]:
        """Send one intent with the next seq; the ``result`` reply (checked)."""
        self.seq += 1
        reply = self.send({"type": "intent", "seq": self.seq, "intent": intent, **fields})
        assert reply["type"] == "result", reply
        assert reply["seq"] == self.seq
        return reply

    def step(self, direction: str) -> dict[str, Any]:
        """One step; the ``result`` reply."""
        return self.intent("step", direction=direction)

    def moves(self, letters: str) -> list[dict[str, Any]]:
        """Steps and waits for a move string (``U D L R W``); every reply."""
        names = {"U": "up", "D": "down", "L": "left", "R": "right"}
        return [
            self.intent("wait") if letter == "W" else self.step(names[letter]) for letter in letters
        ]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "miau.db"


@pytest.fixture
def app(db_path: Path) -> Starlette:
    return create_app(db_path=db_path)


@pytest.fixture
def client(app: Starlette) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        # As a browser does: the page load gives the player cookie the WebSocket then carries.
        test_client.get("/api/worlds")
        yield test_client
