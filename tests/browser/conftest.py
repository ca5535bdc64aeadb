"""Browser tests: the real page in Debian's Chromium against the real server.

One server per session (uvicorn in a thread, on a real SQLite file in a
temporary folder); each test gets a fresh browser context, so a fresh
player cookie. Select these tests with ``-m browser`` or leave them out with
``-m "not browser"``.
"""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from miau.server.app import create_app

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "packs"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 800}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the web client in Chromium (needs /usr/bin/chromium)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if shutil.which(CHROMIUM) is None:
        skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed")
        for item in items:
            if item.get_closest_marker("browser") is not None:
                item.add_marker(skip)


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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("miau-browser") / "miau.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # pytest-playwright's `page` fixture then launches Debian's Chromium.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    # Replaces pytest-base-url's fixture (whose form pytest 9 warns about) with the live server.
    return live_server.url
