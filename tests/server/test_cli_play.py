"""``miau play``: where it keeps the database, a taken port, and a real start."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from miau.cli import main
from miau.cli.play import default_db_path
from tests.server.conftest import ROOT


def test_the_database_lives_in_the_users_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/data/home")
    assert default_db_path() == Path("/data/home/miau/miau.db")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", "/home/someone")
    assert default_db_path() == Path("/home/someone/.local/share/miau/miau.db")


def test_a_taken_port_is_said_plainly_with_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["play", "--no-browser", "--port", str(port), "--db", str(tmp_path / "m.db")])
    assert status == 1
    err = capsys.readouterr().err
    assert f"port {port} is already in use" in err
    assert "--port" in err


def test_the_other_commands_do_not_load_the_server() -> None:
    code = "import sys, miau.cli; miau.cli.build_parser(); print('starlette' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "False"


def test_miau_play_serves_the_game_and_creates_its_database(tmp_path: Path) -> None:
    db_path = tmp_path / "deep" / "folder" / "miau.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "miau", "play", "--no-browser", "--port", "0", "--db", str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.fullmatch(r"Miau is running at (http://127\.0\.0\.1:(\d+)/)\n", line)
        assert match, line
        with urllib.request.urlopen(match.group(1) + "api/worlds", timeout=5) as response:
            assert response.status == 200
            assert b'"tutorial"' in response.read()
        assert db_path.exists()
    finally:
        process.send_signal(signal.SIGINT)  # what Ctrl+C sends
        deadline = time.monotonic() + 10
        while process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
        _, err = process.communicate()
    assert process.returncode == 0
    assert "Traceback" not in err
