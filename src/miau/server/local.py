"""The game on this machine, for tests, scripts and benchmarks.

A :class:`LocalServer` runs the real app in a thread on a free port of
127.0.0.1 (and can restart on the same port and database, as a new server
process would); ``CHROMIUM`` and ``CHROMIUM_ARGS`` launch Debian's Chromium
the way it works here (no browser download, no background traffic on a
closed network); :func:`shipped_solution` reads a shipped level's stored
solution. The browser tests, ``scripts/screenshots.py`` and
``benchmarks/browser_latency.py`` share these.
"""

from __future__ import annotations

import json
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import uvicorn

from miau.server.app import create_app

PACKS: Final = Path(__file__).resolve().parents[3] / "packs"

CHROMIUM: Final = "/usr/bin/chromium"
CHROMIUM_ARGS: Final = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Debian's Chromium as root in a container, with no traffic of its own."""


def shipped_solution(pack: str, level: str) -> str:
    """The stored ``solution`` of a shipped level.

    :raises KeyError: when the pack has no such level or it has no solution.
    """
    data: dict[str, Any] = json.loads((PACKS / f"{pack}.json").read_text(encoding="utf-8"))
    for entry in data["levels"]:
        if entry["id"] == level and "solution" in entry:
            return str(entry["solution"])
    raise KeyError(f"{pack} has no level {level!r} with a stored solution")


class LocalServer:
    """The game server in a thread on one port and one database; it can be restarted."""

    def __init__(self, db_path: Path) -> None:
        """Serve the shipped worlds on the SQLite database ``db_path``, on a free port."""
        self.db_path = db_path
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start a new app on the database and port; return once it accepts connections."""
        config = uvicorn.Config(
            create_app(db_path=self.db_path), host="127.0.0.1", port=self.port, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 15
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the game server did not start")
            time.sleep(0.02)
        self._server, self._thread = server, thread

    def stop(self) -> None:
        """Stop the server and wait for its thread to end."""
        if self._server is None or self._thread is None:
            return
        self._server.should_exit = True
        self._thread.join(timeout=10)
        self._server = self._thread = None

    def restart(self) -> None:
        """A new server process in all but name: a new app on the same database and port."""
        self.stop()
        self.start()


@contextmanager
def running_server(db_path: Path | None = None) -> Iterator[LocalServer]:
    """A started :class:`LocalServer` on ``db_path``, or on a database in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="miau-") as scratch:
        server = LocalServer(db_path if db_path is not None else Path(scratch) / "miau.db")
        server.start()
        try:
            yield server
        finally:
            server.stop()
