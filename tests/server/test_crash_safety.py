"""SIGKILL the real server again and again mid-play: no acknowledged turn is ever lost.

A client plays random valid intents against ``miau play`` (a subprocess on a
SQLite file) and keeps its own record of the log the server must hold: every
intent the server acknowledged with an accepted ``result``. The server is
killed with SIGKILL at seeded random moments, restarted on the same file,
and the client reconnects. After every kill the stored log, read straight
from SQLite, must be the record, or the record plus the one intent that was
in flight (committed, its reply lost with the process: a turn the player
never saw acknowledged). Every reopened board must be the record replayed.
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game
from miau.play.log import apply_entry, restore_state
from miau.play.worlds import Worlds
from miau.server.store import LogEntry
from tests.server.wire import RawSocket
from tests.support.local import PlayProcess, start_miau_play

SEED = 20261203
KILLS = 40
PLAYER = "crash-test-player-0123456789"
PACK, LEVEL = "tutorial", "walls"
DIRECTIONS = {"up": "U", "down": "D", "left": "L", "right": "R"}


def start_server(db_path: Path, log: Path) -> PlayProcess:
    """Start ``miau play`` on the database, its errors appended to ``log``."""
    with log.open("a") as errors:
        return start_miau_play(db_path, errors)


def stored_log(db_path: Path) -> list[LogEntry]:
    """The unfinished game's log on the level, read straight from SQLite (no server)."""
    with sqlite3.connect(db_path) as db:
        row = db.execute(
            "SELECT id FROM games WHERE player = ? AND pack = ? AND level = ? "
            "AND finished_at IS NULL",
            (PLAYER, PACK, LEVEL),
        ).fetchone()
        if row is None:
            return []
        rows = db.execute(
            "SELECT letter, payload FROM intents WHERE game_id = ? ORDER BY seq", (row[0],)
        ).fetchall()
    return [LogEntry(letter, payload) for letter, payload in rows]


def same_log(one: list[LogEntry], other: list[LogEntry]) -> bool:
    """Equal letters, and restore payloads equal as JSON (the server re-serialises them)."""

    def key(entry: LogEntry) -> tuple[str, object]:
        return entry.letter, None if entry.payload is None else json.loads(entry.payload)

    return [key(entry) for entry in one] == [key(entry) for entry in other]


def extended(log: list[LogEntry], entry: LogEntry) -> list[LogEntry]:
    """The stored log after one more accepted intent: a reset or restore starts a new game."""
    return [entry] if entry.letter in ("X", "S") else [*log, entry]


def replayed(level_data: dict[str, Any], log: list[LogEntry]) -> Game:
    """A fresh game with the log applied."""
    game = Game(level_data)
    for entry in log:
        apply_entry(game, entry)
    return game


class Client:
    """Random valid play, with the record of what the server acknowledged."""

    def __init__(self, level_data: dict[str, Any]) -> None:
        self.level_data = level_data
        self.random = random.Random(SEED)
        self.record: list[LogEntry] = []
        self.in_flight: LogEntry | None = None
        self.seen_states: list[dict[str, Any]] = []
        self.seq = 0
        self.acknowledged = 0

    def next_intent(self) -> tuple[dict[str, Any], LogEntry]:
        """A random intent message, and the log entry it becomes if accepted."""
        self.seq += 1
        roll = self.random.random()
        message: dict[str, Any] = {"type": "intent", "seq": self.seq}
        if roll < 0.7:
            direction = self.random.choice(list(DIRECTIONS))
            return {**message, "intent": "step", "direction": direction}, LogEntry(
                DIRECTIONS[direction]
            )
        if roll < 0.8:
            return {**message, "intent": "wait"}, LogEntry("W")
        if roll < 0.92:
            return {**message, "intent": "undo"}, LogEntry("Z")
        if roll < 0.95 or not self.seen_states:
            return {**message, "intent": "reset"}, LogEntry("X")
        state = self.random.choice(self.seen_states)
        # Only the fields a restore reads are stored.
        return {**message, "intent": "restore", "state": state}, LogEntry(
            "S", json.dumps(restore_state(state))
        )

    def play_until_the_connection_drops(self, socket: RawSocket) -> None:
        """Send intents one at a time, recording every acknowledged one, until the server dies."""
        while True:
            message, entry = self.next_intent()
            self.in_flight = entry
            reply = socket.request(message)
            self.in_flight = None
            if reply.get("code") == "rate-limited":
                time.sleep(0.05)  # dropped, not stored: a server with a rate limit said so
                continue
            assert reply["type"] == "result", reply
            if not reply["event"]["accepted"]:
                continue
            self.record = extended(self.record, entry)
            self.acknowledged += 1
            if reply["progress"] is not None:
                # Won: the stored game is finished; the next open starts afresh.
                self.record = []
                self.open(socket)
            elif len(self.seen_states) < 50:
                self.seen_states.append(reply["state"])

    def open(self, socket: RawSocket) -> dict[str, Any]:
        """Open the level; check the board is the record replayed."""
        reply = socket.request({"type": "open", "pack": PACK, "level": LEVEL})
        while reply.get("code") == "rate-limited":  # miau play limits every message
            time.sleep(0.05)
            reply = socket.request({"type": "open", "pack": PACK, "level": LEVEL})
        assert reply["type"] == "opened", reply
        assert reply["resumed"] is bool(self.record)
        assert reply["state"] == replayed(self.level_data, self.record).state.to_json()
        return reply

    def reconcile_after_kill(self, db_path: Path) -> None:
        """Check the stored log against the record; adopt a committed in-flight intent."""
        stored = stored_log(db_path)
        if same_log(stored, self.record):
            return
        assert self.in_flight is not None, (stored, self.record)
        with_in_flight = extended(self.record, self.in_flight)
        if replayed(self.level_data, with_in_flight).won:
            # A winning step committed, its reply lost: the game is finished, or will be
            # on the next open (which records a stored win first).
            assert stored == [] or same_log(stored, with_in_flight), (stored, with_in_flight)
            self.record = []
            return
        assert same_log(stored, with_in_flight), (stored, self.record, self.in_flight)
        self.record = with_in_flight


@pytest.mark.slow
def test_sigkill_at_random_moments_never_loses_an_acknowledged_turn(tmp_path: Path) -> None:
    db_path, log = tmp_path / "miau.db", tmp_path / "server.log"
    level = Worlds.load(None).level(PACK, LEVEL)
    assert level is not None
    client = Client(dict(level.data))
    timing = random.Random(SEED + 1)
    for _ in range(KILLS):
        server = start_server(db_path, log)
        with RawSocket(server.port, cookie=PLAYER) as socket:
            client.open(socket)
            killer = threading.Timer(timing.uniform(0.02, 0.5), server.process.kill)
            killer.start()
            with contextlib.suppress(ConnectionError, OSError):
                client.play_until_the_connection_drops(socket)
            killer.join()
        assert server.stop() == -signal.SIGKILL
        client.reconcile_after_kill(db_path)

    server = start_server(db_path, log)
    try:
        with RawSocket(server.port, cookie=PLAYER) as socket:
            opened = client.open(socket)
    finally:
        server.stop()

    assert same_log(stored_log(db_path), client.record)
    assert opened["state"] == replayed(dict(level.data), client.record).state.to_json()
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert client.acknowledged > 10 * KILLS
    assert "Traceback" not in log.read_text()
