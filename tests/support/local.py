"""The game on this machine, for tests, scripts and benchmarks (never imported by Miau itself).

A :class:`LocalServer` runs the real app in a thread on a free port of
127.0.0.1 (and can restart on the same port and database, as a new server
process would); :func:`miau_play` runs the real ``miau play`` command as a
process of its own, for tests that kill it or run several; ``CHROMIUM`` and
``CHROMIUM_ARGS`` launch Chromium the way it works on a closed network (no
browser download, no background traffic); :func:`shipped_solution` reads a
shipped level's stored solution. The browser, server and crash tests,
``scripts/screenshots.py`` and the browser and load benchmarks share these.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

import uvicorn

from miau.server.app import create_app
from miau.server.limits import ConnectionLimits
from miau.server.serving import ConnectionGate, uvicorn_config
from miau.server.studio import StudioJobs
from miau.server.web_security import CONTENT_SECURITY_POLICY
from miau.worlds import shipped_packs_dir

PACKS: Final = shipped_packs_dir()

CHROMIUM: Final = os.environ.get("MIAU_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive: Debian's Chromium, or the one ``MIAU_CHROMIUM`` names."""
CHROMIUM_ARGS: Final = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Chromium as root in a container, with no traffic of its own."""


UNLOCK_ALL = "localStorage.setItem('miau.unlockAll', '1')"
"""An init script for a browser context: the page then opens every level by its
address, locked or not (the browser tests and the screenshots jump straight to levels)."""


def shipped_solution(pack: str, level: str) -> str:
    """The stored ``solution`` of a shipped level.

    :raises KeyError: when the pack has no such level or it has no solution.
    """
    data: dict[str, Any] = json.loads((PACKS / f"{pack}.json").read_text(encoding="utf-8"))
    for entry in data["levels"]:
        if entry["id"] == level and "solution" in entry:
            return str(entry["solution"])
    raise KeyError(f"{pack} has no level {level!r} with a stored solution")


HARNESS_POLICY = CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'", "script-src 'self' 'unsafe-eval'"
)
"""The server's policy with ``'unsafe-eval'``: Playwright's ``wait_for_function`` evaluates its
string predicates in the page. ``tests/browser/test_security_headers.py`` serves the real one."""


class LocalServer:
    """The game server in a thread on one port and one database; it can be restarted."""

    def __init__(
        self,
        db_path: Path,
        limits: ConnectionLimits | None = None,
        studio: StudioJobs | None = None,
        gate: ConnectionGate | None = None,
    ) -> None:
        """Serve the shipped worlds on the SQLite database ``db_path``, on a free port.

        ``limits`` bound each play connection and ``studio`` runs the editor's
        jobs, as ``create_app`` takes them; ``gate`` bounds the connections, as
        ``uvicorn_config`` takes it (each start gets a fresh copy of it).
        """
        self.db_path = db_path
        self.limits = limits
        self.studio = studio
        self.gate = gate
        self.server: uvicorn.Server | None = None
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port: int = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start a new app on the database and port; return once it accepts connections."""
        config = uvicorn_config(
            create_app(
                db_path=self.db_path,
                limits=self.limits,
                studio=self.studio,
                content_security_policy=HARNESS_POLICY,
            ),
            host="127.0.0.1",
            port=self.port,
            gate=self.gate,
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
        self.server = server

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

    def __enter__(self) -> LocalServer:
        """Start; stop on leaving the block."""
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop the server."""
        self.stop()


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


@dataclass(frozen=True, slots=True)
class PlayProcess:
    """One ``miau play --no-browser`` process and the port it listens on."""

    process: subprocess.Popen[str]
    port: int

    def stop(self, timeout: float = 15) -> int:
        """Ask it to stop as Ctrl+C does (killing it after ``timeout``); its return code.

        A process already killed or ended is only waited for.
        """
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        return code


def start_miau_play(
    database: str | Path,
    errors: IO[str] | int = subprocess.DEVNULL,
    timeout: float = 30,
    *,
    python: str | Path = sys.executable,
    cwd: Path | None = None,
    options: tuple[str, ...] = (),
) -> PlayProcess:
    """Start ``miau play`` on ``database`` (a file or a PostgreSQL URL), on a free port.

    Its standard error goes to ``errors`` (a file, or DEVNULL: a pipe nobody
    reads would stall a busy server). It runs on ``python`` (another
    environment's interpreter runs the Miau installed there) in ``cwd``,
    with further command-line ``options``.
    Returns once it has printed its address.

    :raises RuntimeError: when it prints no address within ``timeout`` seconds.
    """
    command = ["miau", "play", "--no-browser", "--port", "0", "--db", str(database), *options]
    process = subprocess.Popen(
        [str(python), "-m", *command],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
        cwd=cwd,
    )
    assert process.stdout is not None  # stdout=PIPE gives one
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    line = process.stdout.readline() if ready else ""
    match = re.fullmatch(r"Miau is running at http://127\.0\.0\.1:(\d+)/\n", line)
    if match is None:
        PlayProcess(process, 0).stop(timeout=5)
        raise RuntimeError(f"miau play did not start: {line!r}")
    return PlayProcess(process, int(match.group(1)))


@contextmanager
def miau_play(
    database: str | Path,
    errors: IO[str] | int = subprocess.DEVNULL,
    options: tuple[str, ...] = (),
) -> Iterator[PlayProcess]:
    """A started :func:`start_miau_play` process, stopped as Ctrl+C does on leaving the block."""
    server = start_miau_play(database, errors, options=options)
    try:
        yield server
    finally:
        server.stop()
