"""A throwaway PostgreSQL cluster for the tests and the load benchmark.

:class:`TemporaryPostgres` runs Debian's ``postgresql`` binaries
(``/usr/lib/postgresql/*/bin/``): ``initdb`` in a temporary folder, then
``pg_ctl start`` on a free port of 127.0.0.1 with its unix socket in that
folder, as the ``postgres`` user when we are root (PostgreSQL refuses to run
as root, and CI runs as root). The session fixture ``postgres_cluster``
starts one for the whole test run; ``postgres_url`` gives each test a fresh
database on it. Without the binaries the PostgreSQL tests skip, except under
CI (``CI=true``), where they fail and say what to install.
"""

from __future__ import annotations

import contextlib
import getpass
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import psycopg
import pytest

__all__ = ["PostgresMissing", "TemporaryPostgres", "find_postgres_bin", "postgres_cluster"]

INSTALL_HINT = "apt-get install -y postgresql"

SERVICE_USER = "postgres"
"""Whom the cluster runs as when we are root (Debian's package creates this user)."""

FAST_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""For tests: durability is not what they check, speed on 2 shared cores is."""


class PostgresMissing(RuntimeError):
    """PostgreSQL's server binaries are not installed."""


def find_postgres_bin() -> Path:
    """The folder of the newest installed PostgreSQL's ``initdb`` and ``pg_ctl``.

    :raises PostgresMissing: when there is none.
    """

    def version(folder: Path) -> tuple[int, ...]:
        return tuple(int(part) for part in folder.parent.name.split(".") if part.isdigit())

    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    initdb = shutil.which("initdb")
    if initdb is not None:
        return Path(initdb).resolve().parent
    raise PostgresMissing(f"PostgreSQL's server (initdb, pg_ctl) is not installed: {INSTALL_HINT}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class TemporaryPostgres:
    """A PostgreSQL cluster in a temporary folder, on 127.0.0.1, removed when stopped."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        """Prepare a cluster with these server ``settings`` (``-c name=value``).

        :raises PostgresMissing: when PostgreSQL is not installed.
        """
        self.bin = find_postgres_bin()
        self.settings = dict(settings or {})
        self.port = 0
        self.user = "miau"
        self.folder: Path | None = None
        self._names = itertools.count(1)

    @property
    def data(self) -> Path:
        """The cluster's data folder."""
        if self.folder is None:
            raise RuntimeError("the cluster is not started")
        return self.folder / "data"

    def _run(self, arguments: Sequence[str]) -> None:
        """Run a PostgreSQL program, as the service user when we are root."""
        command = list(arguments)
        if os.geteuid() == 0:
            command = ["runuser", "-u", SERVICE_USER, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(arguments)} failed ({result.returncode}):\n"
                f"{result.stdout}{result.stderr}{self._log_tail()}"
            )

    def _log_tail(self) -> str:
        if self.folder is None:
            return ""
        with contextlib.suppress(OSError):
            return "\n".join((self.folder / "server.log").read_text().splitlines()[-20:])
        return ""

    def start(self) -> None:
        """``initdb`` and ``pg_ctl start``; waits until the server accepts connections."""
        self.folder = Path(tempfile.mkdtemp(prefix="miau-pg-"))
        if os.geteuid() == 0:
            service = pwd.getpwnam(SERVICE_USER)
            os.chown(self.folder, service.pw_uid, service.pw_gid)
        else:
            self.user = getpass.getuser()
        self._run(
            [
                str(self.bin / "initdb"),
                "--pgdata",
                str(self.data),
                "--username",
                self.user,
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--no-instructions",
                "--no-sync",
            ]
        )
        self.port = free_port()
        options = [
            f"-p {self.port}",
            f"-k {self.folder}",
            "-c listen_addresses=127.0.0.1",
            "-c max_connections=200",
            *(f"-c {name}={value}" for name, value in self.settings.items()),
        ]
        self._run(
            [
                str(self.bin / "pg_ctl"),
                "start",
                "--pgdata",
                str(self.data),
                "--log",
                str(self.folder / "server.log"),
                "--wait",
                "--timeout",
                "60",
                "-o",
                " ".join(options),
            ]
        )

    def url(self, database: str = "postgres") -> str:
        """The ``postgresql://`` URL of a database of this cluster."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database (named ``name``, or ``miau_N``); its URL."""
        name = name or f"miau_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (fast shutdown) and remove its folder."""
        if self.folder is None:
            return
        with contextlib.suppress(RuntimeError):
            self._run(
                [str(self.bin / "pg_ctl"), "stop", "--pgdata", str(self.data), "-m", "fast", "-w"]
            )
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> TemporaryPostgres:
        """Start the cluster."""
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        """Stop the cluster and remove it."""
        self.stop()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[TemporaryPostgres]:
    """One throwaway PostgreSQL for the test session."""
    # tests/conftest.py has already stopped the run (or skipped these tests by
    # MIAU_SKIP) when PostgreSQL is missing, so a failure here is a real one.
    with TemporaryPostgres(FAST_SETTINGS) as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_cluster: TemporaryPostgres) -> str:
    """The URL of a fresh, empty database on the session's PostgreSQL."""
    return postgres_cluster.create_database()
