"""The Dask recipe in docs/generate.md binds every port it opens to the loopback address."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

DOCS = Path(__file__).parents[2] / "docs" / "generate.md"
DASK = Path(sys.executable).parent / "dask"


def recipe(program: str) -> list[str]:
    """The docs' command line for ``dask scheduler`` or ``dask worker``, its ports moved."""
    (line,) = [line for line in DOCS.read_text().splitlines() if line.startswith(program)]
    # Other runs of the suite may hold the documented ports: the same flags, other ports.
    line = line.replace(":8786", ":18796").replace(":8787", ":18797")
    words = shlex.split(line)
    if words[1] == "scheduler":
        words += ["--port", "18796"]
    return [str(DASK), *words[1:]]


def listening(process: psutil.Process) -> set[str]:
    """The addresses every process of ``process``'s tree listens on."""
    found: set[str] = set()
    for each in [process, *process.children(recursive=True)]:
        try:
            sockets = each.net_connections(kind="inet")
        except psutil.Error:
            continue
        found.update(s.laddr.ip for s in sockets if s.status == psutil.CONN_LISTEN)
    return found


@pytest.mark.slow
def test_the_documented_scheduler_and_worker_listen_on_the_loopback_address_only(
    tmp_path: Path,
) -> None:
    if not DASK.exists():
        pytest.skip("dask's command is not installed (the generate extra)")
    ready = re.compile(r"Scheduler at|Start worker at")
    started: list[subprocess.Popen[bytes]] = []
    try:
        for number, program in enumerate(("dask scheduler", "dask worker")):
            # The log goes to a file: a pipe nobody reads would fill and stall the program.
            log = tmp_path / f"{number}.log"
            with log.open("wb") as sink:
                started.append(subprocess.Popen(recipe(program), stdout=sink, stderr=sink))
            # Wait for what the program says once its ports are open, not a fixed time.
            deadline = time.monotonic() + 60
            while not ready.search(log.read_text()) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert ready.search(log.read_text()), log.read_text()
        addresses: set[str] = set()
        for process in started:
            addresses |= listening(psutil.Process(process.pid))
        assert addresses, "the recipe opened no port"
        assert addresses == {"127.0.0.1"}
    finally:
        for process in reversed(started):
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
