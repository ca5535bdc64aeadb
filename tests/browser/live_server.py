"""The game server for the browser tests: a real app on a real SQLite file, restartable."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn

from miau.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "packs"


def solution(pack: str, level: str) -> str:
    """The stored solution of a shipped level."""
    data: dict[str, Any] = json.loads((PACKS / f"{pack}.json").read_text(encoding="utf-8"))
    for entry in data["levels"]:
        if entry["id"] == level:
            return str(entry["solution"])
    raise KeyError(f"{pack} has no level {level!r}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """The game server on one port and one database file; it can be restarted."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start a new app on the same database and port; wait until it listens."""
        app = create_app(db_path=self.db_path)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the game server did not start")
            time.sleep(0.02)
        self._server = server
        self._thread = thread

    def stop(self) -> None:
        """Stop the server and wait for its thread to end."""
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._server = None
        self._thread = None

    def restart(self) -> None:
        """A new server process in all but name: a new app on the same database."""
        self.stop()
        self.start()
