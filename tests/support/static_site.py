"""The static site on this machine: built once by ``miau build-site``, served by ``python -m http.server``.

For the browser tests that run against both engine ports, the static
site's benchmark and ``scripts/screenshots.py``. The Pyodide download is
kept in the build's own cache (``~/.cache/miau/pyodide``), so only the first
build on a machine needs the npm registry.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from miau.site.build import build_site


@dataclass(frozen=True, slots=True)
class StaticSite:
    """A built site (``folder``) served at ``url`` (no trailing slash)."""

    folder: Path
    url: str


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the static file server stopped at start")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the static file server did not listen on {port}")


@contextmanager
def served_folder(folder: Path) -> Iterator[str]:
    """Serve ``folder`` with ``python -m http.server`` on a free port; yields its URL."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "http.server",
            str(port),
            "--bind",
            "127.0.0.1",
            "--directory",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def static_site(folder: Path) -> Iterator[StaticSite]:
    """Build the site into ``folder`` and serve it while the block runs."""
    build_site(folder)
    with served_folder(folder) as url:
        yield StaticSite(folder, url)
