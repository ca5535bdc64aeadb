"""``miau play``: where it keeps the database, a taken port, and a real start."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from miau.cli import main
from miau.cli.play import default_db_path
from miau.server.store import LogEntry, SqliteStore
from miau.server.store.check import check_sqlite_file
from tests.server.conftest import ROOT
from tests.support.local import start_miau_play


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


# --- a damaged database is named in one sentence, kept, and replaced only when asked --------


def _stored_database(path: Path) -> None:
    """A real database of 40 players with a 200-step game each (about 36 pages)."""
    store = SqliteStore(path)
    for index in range(40):
        player = f"player-{index:04d}-checked-db"
        store.ensure_player(player)
        moves = tuple(LogEntry("R" if step % 2 else "L") for step in range(200))
        store.start_game(player, "tutorial", "first-steps", moves)
    store.close()


def _page_size(data: bytes | bytearray) -> int:
    size = int.from_bytes(data[16:18], "big")
    return 65536 if size == 1 else size


def _truncated(data: bytearray) -> bytearray:
    return data[: len(data) // 2]


def _overwritten(data: bytearray) -> bytearray:
    return bytearray(b"these are notes, saved over the database by mistake\n" * 800)


def _flipped(data: bytearray) -> bytearray:
    # Inside the cells of a page in the middle: the bytes change, the file's size does not.
    start = len(data) // 2 + _page_size(data) // 2
    for offset in range(start, start + 64):
        data[offset] ^= 0xFF
    return data


def _last_page_zeroed(data: bytearray) -> bytearray:
    size = _page_size(data)
    data[-size:] = bytes(size)
    return data


DAMAGE = {
    "truncated": (_truncated, "is damaged: it is cut short"),
    "overwritten": (_overwritten, "is not a SQLite database"),
    "flipped bytes": (_flipped, "is damaged"),
    "last page zeroed": (_last_page_zeroed, "is damaged"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_database_stops_miau_play_with_one_sentence_and_is_left_as_it_is(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db_path = tmp_path / "miau.db"
    _stored_database(db_path)
    spoil, said = DAMAGE[damage]
    db_path.write_bytes(bytes(spoil(bytearray(db_path.read_bytes()))))
    before = db_path.read_bytes()
    status = main(["play", "--no-browser", "--port", "0", "--db", str(db_path)])
    err = capsys.readouterr().err
    assert status == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"miau play: {db_path} {said}")
    assert "Traceback" not in err
    assert "--replace-damaged-db" in lines[0]
    assert db_path.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["miau.db"]


def test_a_sound_database_passes_the_check_at_start(tmp_path: Path) -> None:
    db_path = tmp_path / "miau.db"
    _stored_database(db_path)
    check_sqlite_file(db_path)
    check_sqlite_file(tmp_path / "not-yet.db")


def test_replace_damaged_db_keeps_the_damaged_file_and_starts_a_fresh_one(tmp_path: Path) -> None:
    db_path = tmp_path / "miau.db"
    _stored_database(db_path)
    damaged = _truncated(bytearray(db_path.read_bytes()))
    db_path.write_bytes(bytes(damaged))
    server = start_miau_play(db_path, options=("--replace-damaged-db",))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/progress") as reply:
            assert reply.status == 200
    finally:
        assert server.stop() == 0
    kept = [path for path in tmp_path.iterdir() if path.name.startswith("miau.db.damaged-")]
    assert [path.read_bytes() for path in kept] == [bytes(damaged)]
    check_sqlite_file(db_path)


def test_miau_play_caps_connections_per_address_as_told(tmp_path: Path) -> None:
    server = start_miau_play(tmp_path / "miau.db", options=("--connections-per-address", "2"))
    held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(2)]
    try:
        with socket.create_connection(("127.0.0.1", server.port)) as third:
            third.settimeout(10)
            # Closed as soon as it was accepted: the end of the stream, or a reset.
            with contextlib.suppress(ConnectionResetError):
                assert third.recv(1) == b""
    finally:
        for each in held:
            each.close()
        assert server.stop() == 0


def test_miau_play_answers_only_the_hosts_it_serves(tmp_path: Path) -> None:
    server = start_miau_play(tmp_path / "miau.db", options=("--allow-host", "miau.example.org"))
    try:
        base = f"http://127.0.0.1:{server.port}/api/progress"
        for host, status in (
            (f"127.0.0.1:{server.port}", 200),
            (f"localhost:{server.port}", 200),
            ("miau.example.org", 200),
            (f"rebound.attacker.example:{server.port}", 421),
        ):
            request = urllib.request.Request(base, headers={"Host": host})
            try:
                with urllib.request.urlopen(request) as reply:
                    answered = reply.status
            except urllib.error.HTTPError as error:
                answered = error.code
            assert answered == status, host
    finally:
        assert server.stop() == 0


def test_miau_play_gives_the_server_the_idle_days_it_is_told_and_refuses_a_negative_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from miau.server import app as app_module
    from miau.server.store import IDLE_AFTER_SECONDS, StoreError

    given: list[float] = []

    def create_app(**options: object) -> object:
        idle_after = options["idle_after"]
        assert isinstance(idle_after, float | int)
        given.append(float(idle_after))
        raise StoreError("stopped here")

    monkeypatch.setattr(app_module, "create_app", create_app)
    db = str(tmp_path / "m.db")
    for extra in ([], ["--idle-days", "7"], ["--idle-days", "0"]):
        assert main(["play", "--no-browser", "--port", "0", "--db", db, *extra]) == 2
    assert given == [IDLE_AFTER_SECONDS, 7 * 86_400.0, 0.0]
    capsys.readouterr()
    assert main(["play", "--no-browser", "--port", "0", "--db", db, "--idle-days", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "miau play: --idle-days must be 0 or more, not -1.0"


def test_miau_play_gives_the_server_the_expiry_age_it_is_told_and_refuses_a_negative_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from miau.server import app as app_module
    from miau.server.store import EXPIRE_AFTER_SECONDS, StoreError

    given: list[float] = []

    def create_app(**options: object) -> object:
        expire_after = options["expire_after"]
        assert isinstance(expire_after, float | int)
        given.append(float(expire_after))
        raise StoreError("stopped here")

    monkeypatch.setattr(app_module, "create_app", create_app)
    db = str(tmp_path / "m.db")
    for extra in ([], ["--expire-days", "120"], ["--expire-days", "0"]):
        assert main(["play", "--no-browser", "--port", "0", "--db", db, *extra]) == 2
    assert given == [EXPIRE_AFTER_SECONDS, 120 * 86_400.0, 0.0]
    capsys.readouterr()
    assert main(["play", "--no-browser", "--port", "0", "--db", db, "--expire-days", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "miau play: --expire-days must be 0 or more, not -1.0"


def test_miau_play_gives_each_address_the_share_of_new_players_it_is_told_and_none_for_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from miau.server import app as app_module
    from miau.server.shares import ADDRESS_SHARE, AddressShare
    from miau.server.store import StoreError

    given: list[AddressShare | None] = []

    def create_app(**options: object) -> object:
        share = options["address_share"]
        assert share is None or isinstance(share, AddressShare)
        given.append(share)
        raise StoreError("stopped here")

    monkeypatch.setattr(app_module, "create_app", create_app)
    db = str(tmp_path / "m.db")
    for extra in ([], ["--players-per-address", "500"], ["--players-per-address", "0"]):
        assert main(["play", "--no-browser", "--port", "0", "--db", db, *extra]) == 2
    default, behind_a_proxy, off = given
    assert default == ADDRESS_SHARE
    assert behind_a_proxy is not None and behind_a_proxy != ADDRESS_SHARE
    assert behind_a_proxy.new_players_per_hour == 500.0
    assert behind_a_proxy.new_players_burst == 500
    assert off is None
    capsys.readouterr()
    assert (
        main(["play", "--no-browser", "--port", "0", "--db", db, "--players-per-address", "-2"])
        == 2
    )
    err = capsys.readouterr().err
    assert err.strip() == "miau play: --players-per-address must be 0 or more, not -2"


def test_miau_play_gives_the_server_the_request_rate_it_is_told_and_none_for_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from miau.server import app as app_module
    from miau.server.limits import PLAY_LIMITS, ConnectionLimits
    from miau.server.store import StoreError

    given: list[ConnectionLimits] = []

    def create_app(**options: object) -> object:
        limits = options["limits"]
        assert isinstance(limits, ConnectionLimits)
        given.append(limits)
        raise StoreError("stopped here")

    monkeypatch.setattr(app_module, "create_app", create_app)
    db = str(tmp_path / "m.db")
    for extra in ([], ["--requests-per-second", "1500"], ["--requests-per-second", "0"]):
        assert main(["play", "--no-browser", "--port", "0", "--db", db, *extra]) == 2
    default, larger, off = given
    assert default == PLAY_LIMITS and default.server_requests_per_second == 400.0
    assert larger.server_requests_per_second == 1500.0
    assert larger.server_requests_burst == 4500
    assert larger.server_sockets_per_second == 375.0 and larger.server_sockets_burst == 750
    assert off.server_requests_per_second is None and off.server_sockets_per_second is None
    assert off.server_frames_per_second == PLAY_LIMITS.server_frames_per_second
    capsys.readouterr()
    assert (
        main(["play", "--no-browser", "--port", "0", "--db", db, "--requests-per-second", "-1"])
        == 2
    )
    err = capsys.readouterr().err
    assert err.strip() == "miau play: --requests-per-second must be 0 or more, not -1"
