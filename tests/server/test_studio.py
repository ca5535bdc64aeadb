"""The /studio WebSocket: solve and check jobs in worker processes, progress, cancel and limits.

These run the real app on uvicorn over loopback sockets (a thread of this
process, so the workers are this process's children and
``StudioJobs.worker_pids`` sees them), and ``miau play`` as a process of its
own for the shutdown tests.
"""

from __future__ import annotations

import copy
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from miau.packs import load_pack
from miau.play.studio_levels import REPORT_MESSAGE_CHARS, REPORT_PROBLEMS
from miau.server.studio import (
    STUDIO_FLOOD_CLOSE,
    STUDIO_MAX_EXPANSIONS,
    STUDIO_MAX_FRAME_BYTES,
    StudioJobs,
    level_spec,
)
from miau.solver import check_level, solve
from tests.server.conftest import pack_json
from tests.support.local import LocalServer, start_miau_play

TUTORIAL = pack_json("tutorial")

OPEN_ROOM = {
    "id": "open-room",
    "title": "Open Room",
    "width": 10,
    "height": 8,
    "map": [
        "M=Y.R=P...",
        "..........",
        "..o...o...",
        "....c.....",
        "..o...o...",
        "..........",
        "...o..o...",
        "..........",
    ],
    "legend": {
        "M": {"word": "MIAU"},
        "=": {"word": "IS"},
        "Y": {"word": "YOU"},
        "R": {"word": "ROCK"},
        "P": {"word": "PUSH"},
        "c": "MIAU",
        "o": "ROCK",
    },
    "objects": [],
}
"""No WIN anywhere and six rocks to push about: far more states than any budget, never solved."""

SMALL_ROOM = {
    "id": "small-room",
    "title": "Small Room",
    "width": 4,
    "height": 2,
    "map": ["M=Y.", "...c"],
    "legend": {"M": {"word": "MIAU"}, "=": {"word": "IS"}, "Y": {"word": "YOU"}, "c": "MIAU"},
    "objects": [],
}
"""No WIN either, and few enough states to try them all at once: UNSOLVABLE."""

QUICK = 10.0
"""Seconds before a reply that needs no search counts as hung: a guard, not a speed bound."""


def one_level_pack(level: dict[str, Any] | str) -> dict[str, Any]:
    """A one-level pack: the tutorial's manifest and palette with one level (by id, or given)."""
    document = copy.deepcopy(TUTORIAL)
    if isinstance(level, str):
        document["levels"] = [entry for entry in document["levels"] if entry["id"] == level]
    else:
        document["levels"] = [copy.deepcopy(level)]
    return document


class StudioServer(LocalServer):
    """The app on uvicorn in a thread on a free port, with the given studio."""

    def __init__(self, db_path: Path, studio: StudioJobs) -> None:
        super().__init__(db_path, studio=studio)
        self.studio: StudioJobs = studio
        self.start()

    def connect(self, **options: Any) -> Studio:
        """A new studio connection."""
        return Studio(connect(f"ws://127.0.0.1:{self.port}/studio", legacy=True, **options))


class Studio:
    """One studio socket, with a timeout on every read."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message as JSON text, or a frame as it is."""
        self.socket.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def receive(self, timeout: float = QUICK) -> dict[str, Any]:
        """The next frame, as JSON."""
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        return frame

    def request(self, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
        """Send one message and read one frame."""
        self.send(message)
        return self.receive()

    def until(
        self, types: set[str], timeout: float = 60.0
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Frames up to the first of one of ``types``: those before it, and it."""
        before: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while True:
            frame = self.receive(max(0.01, deadline - time.monotonic()))
            if frame["type"] in types:
                return before, frame
            before.append(frame)

    def close(self) -> None:
        """Close the socket."""
        self.socket.close()

    def __enter__(self) -> Studio:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., StudioServer]]:
    servers: list[StudioServer] = []

    def start(**settings: Any) -> StudioServer:
        server = StudioServer(tmp_path / f"miau-{len(servers)}.db", StudioJobs(**settings))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(start_server: Callable[..., StudioServer]) -> StudioServer:
    return start_server(workers=1)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie left for its parent to reap counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")


def wait_until(condition: Callable[[], bool], timeout: float) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def start_open_room(studio: Studio, job: str = "long") -> None:
    """Start the long search and wait for the worker to run."""
    studio.send({"type": "solve", "job": job, "pack": one_level_pack(OPEN_ROOM), "max": None})
    assert studio.receive(timeout=30) == {"type": "started", "job": job}


# Answers


@pytest.mark.slow
def test_solve_streams_progress_then_the_same_shortest_moves_as_the_solver(
    server: StudioServer,
) -> None:
    pack = one_level_pack("crossword")
    with server.connect() as studio:
        studio.send({"type": "solve", "job": "j1", "pack": pack, "max": None})
        frames, solved = studio.until({"solved", "error"})
    assert frames[0] == {"type": "started", "job": "j1"}
    progress = frames[1:]
    assert progress, "a search of about a second reports progress"
    assert all(frame["type"] == "progress" and frame["job"] == "j1" for frame in progress)
    assert {"expanded", "depth", "seen", "rate", "seconds"} <= set(progress[0])
    assert [frame["expanded"] for frame in progress] == sorted(f["expanded"] for f in progress)
    assert all(frame["seen"] >= frame["expanded"] > 0 and frame["depth"] > 0 for frame in progress)
    expected = solve(load_pack(pack).levels[0].data)
    assert solved["type"] == "solved" and solved["job"] == "j1"
    result = solved["result"]
    assert result["outcome"] == "solved"
    assert (result["moves"], result["length"]) == (expected.moves, expected.length)
    assert (result["expanded"], result["seen"], result["limit"]) == (
        expected.expanded,
        expected.seen,
        300_000,
    )


def test_a_level_with_no_win_is_unsolvable(server: StudioServer) -> None:
    with server.connect() as studio:
        studio.send({"type": "solve", "job": "u", "pack": one_level_pack(SMALL_ROOM)})
        _, solved = studio.until({"solved", "error"})
    assert solved["result"]["outcome"] == "unsolvable"
    assert solved["result"]["moves"] is None


def test_a_small_max_ends_in_limit_and_a_huge_one_is_clamped(server: StudioServer) -> None:
    with server.connect() as studio:
        studio.send({"type": "solve", "job": "a", "pack": one_level_pack("crossword"), "max": 50})
        _, limited = studio.until({"solved", "error"})
        studio.send(
            {"type": "solve", "job": "b", "pack": one_level_pack(SMALL_ROOM), "max": 10**30}
        )
        _, clamped = studio.until({"solved", "error"})
    assert limited["result"]["outcome"] == "limit"
    assert (limited["result"]["expanded"], limited["result"]["limit"]) == (50, 50)
    assert clamped["result"]["limit"] == STUDIO_MAX_EXPANSIONS


def test_the_levels_solver_max_is_the_default_budget(server: StudioServer) -> None:
    level = copy.deepcopy(OPEN_ROOM)
    level["solverMax"] = 2000
    with server.connect() as studio:
        studio.send({"type": "solve", "job": "m", "pack": one_level_pack(level), "max": None})
        _, solved = studio.until({"solved", "error"})
    assert solved["result"]["outcome"] == "limit"
    assert solved["result"]["limit"] == 2000


def _without_timings(report: Any) -> Any:
    if isinstance(report, dict):
        return {key: _without_timings(value) for key, value in report.items() if key != "seconds"}
    return report


def test_check_answers_with_miau_checks_level_report(server: StudioServer) -> None:
    pack = one_level_pack("walls")
    pack["levels"][0]["solution"] = "RRDDRRRURRRDUU"  # wins, with refused letters after
    with server.connect() as studio:
        studio.send({"type": "check", "job": "c", "pack": pack})
        _, checked = studio.until({"checked", "error"})
    expected = check_level(level_spec(load_pack(pack))).to_json()
    assert checked["type"] == "checked" and checked["job"] == "c"
    assert checked["report"]["problems"] == []
    assert _without_timings(checked["report"]["level"]) == _without_timings(expected)
    assert checked["report"]["level"]["handsOff"] is True
    assert any("refused" in warning for warning in checked["report"]["level"]["warnings"])


def test_a_check_takes_the_cap_it_is_sent_and_its_limit_is_undecided(server: StudioServer) -> None:
    with server.connect() as studio:
        studio.send(
            {"type": "check", "job": "capped", "pack": one_level_pack(OPEN_ROOM), "max": 500}
        )
        _, checked = studio.until({"checked", "error"})
    level = checked["report"]["level"]
    assert level["solver"]["outcome"] == "limit" and level["solver"]["limit"] == 500
    assert level["verdict"] == "undecided"
    with server.connect() as studio:
        refused = studio.request({"type": "check", "job": "bad", "pack": {}, "max": "lots"})
    assert (refused["type"], refused["code"]) == ("error", "bad-message")


def test_check_of_a_broken_pack_lists_its_problems_with_places_and_starts_no_worker(
    server: StudioServer,
) -> None:
    pack = one_level_pack("walls")
    pack["levels"][0]["objects"] = [{"noun": "MIAU", "x": 99, "y": 0}]
    pack["manifest"]["version"] = "one"
    with server.connect() as studio:
        checked = studio.request({"type": "check", "job": "bad", "pack": pack})
    assert checked["type"] == "checked"
    assert checked["report"]["level"] is None
    places = [problem["place"] for problem in checked["report"]["problems"]]
    assert "manifest.version" in places
    assert "levels[0].objects[0].x" in places
    assert all(set(p) == {"place", "message", "severity"} for p in checked["report"]["problems"])
    assert server.studio.worker_pids() == []


def test_check_reports_loader_warnings_with_the_level(server: StudioServer) -> None:
    pack = one_level_pack("walls")
    pack["levels"][0]["legend"]["z"] = "ROCK"  # never used in the map: a warning
    with server.connect() as studio:
        studio.send({"type": "check", "job": "w", "pack": pack})
        _, checked = studio.until({"checked", "error"})
    assert checked["report"]["problems"] == [
        {
            "place": "levels[0].legend.z",
            "message": "is never used in the map",
            "severity": "warning",
        }
    ]
    level = checked["report"]["level"]
    assert level["failed"] is False
    assert level["warnings"] == ["levels[0].legend.z: warning: is never used in the map"]


def test_solve_of_a_broken_pack_is_a_bad_message_naming_the_first_problems(
    server: StudioServer,
) -> None:
    pack = one_level_pack("walls")
    pack["levels"][0]["width"] = 0
    with server.connect() as studio:
        error = studio.request({"type": "solve", "job": "s", "pack": pack})
    assert (error["type"], error["job"], error["code"]) == ("error", "s", "bad-message")
    assert "levels[0].width" in error["message"]


def test_a_pack_of_two_levels_is_refused(server: StudioServer) -> None:
    pack = copy.deepcopy(TUTORIAL)
    pack["levels"] = pack["levels"][:2]
    with server.connect() as studio:
        solve_error = studio.request({"type": "solve", "job": "two", "pack": pack})
        checked = studio.request({"type": "check", "job": "two", "pack": pack})
    assert solve_error["code"] == "bad-message" and "one-level" in solve_error["message"]
    assert checked["report"]["level"] is None
    assert checked["report"]["problems"][-1]["place"] == "levels"


# Cancel, close, limits


@pytest.mark.slow
def test_a_long_search_streams_progress_and_a_cancel_kills_its_worker_before_the_answer(
    server: StudioServer,
) -> None:
    with server.connect() as studio:
        start_open_room(studio)
        (pid,) = server.studio.worker_pids()
        progress = [studio.receive(timeout=QUICK) for _ in range(4)]
        assert [frame["type"] for frame in progress] == ["progress"] * 4
        assert progress[-1]["seconds"] >= 0.6
        asked = time.monotonic()
        studio.send({"type": "cancel", "job": "long"})
        # The timeout only guards against a hang; the latency is printed, not judged.
        frames, cancelled = studio.until({"cancelled"}, timeout=QUICK)
        latency = time.monotonic() - asked
        assert cancelled == {"type": "cancelled", "job": "long"}
        assert all(frame["type"] == "progress" for frame in frames)
        # Killed and reaped before the answer, and the slot free: a new job starts at once.
        assert gone(pid)
        assert server.studio.worker_pids() == []
        start_open_room(studio, "again")
        studio.send({"type": "cancel", "job": "again"})
        studio.until({"cancelled"}, timeout=QUICK)
    print(f"cancel latency {latency * 1000:.0f} ms")


def test_closing_the_socket_mid_job_kills_the_worker(server: StudioServer) -> None:
    studio = server.connect()
    start_open_room(studio)
    (pid,) = server.studio.worker_pids()
    studio.close()
    assert wait_until(lambda: gone(pid), timeout=QUICK)
    assert wait_until(lambda: server.studio.worker_pids() == [], timeout=QUICK)


def test_a_second_job_on_one_connection_is_busy_and_the_first_goes_on(
    server: StudioServer,
) -> None:
    with server.connect() as studio:
        start_open_room(studio)
        studio.send({"type": "check", "job": "second", "pack": one_level_pack("walls")})
        frames, busy = studio.until({"error"}, timeout=QUICK)
        assert (busy["job"], busy["code"]) == ("second", "busy")
        assert all(frame["type"] == "progress" for frame in frames)
        assert "'long'" in busy["message"]
        wrong = studio.request({"type": "cancel", "job": "second"})
        while wrong["type"] == "progress":
            wrong = studio.receive()
        assert (wrong["type"], wrong["code"], wrong["job"]) == ("error", "bad-message", "second")
        assert studio.receive(timeout=QUICK)["type"] == "progress"
        studio.send({"type": "cancel", "job": "long"})
        studio.until({"cancelled"}, timeout=QUICK)


@pytest.mark.slow
def test_jobs_past_the_worker_cap_wait_unstarted_until_a_slot_frees(
    start_server: Callable[..., StudioServer],
) -> None:
    # Both sockets come from one address: the share of one job per address is lifted here.
    server = start_server(workers=1, jobs_per_owner=None)
    with server.connect() as first, server.connect() as second:
        start_open_room(first, "first")
        second.send({"type": "solve", "job": "second", "pack": one_level_pack("walls")})
        with pytest.raises(TimeoutError):
            second.receive(timeout=1.0)  # queued: not even started
        assert len(server.studio.worker_pids()) == 1
        first.send({"type": "cancel", "job": "first"})
        first.until({"cancelled"}, timeout=QUICK)
        frames, solved = second.until({"solved"}, timeout=30)
        assert frames[0] == {"type": "started", "job": "second"}
        assert solved["result"]["outcome"] == "solved"


def test_a_queued_job_can_be_cancelled_before_it_starts(
    start_server: Callable[..., StudioServer],
) -> None:
    server = start_server(workers=1, jobs_per_owner=None)
    with server.connect() as first, server.connect() as second:
        start_open_room(first, "first")
        second.send({"type": "solve", "job": "queued", "pack": one_level_pack("walls")})
        assert second.request({"type": "cancel", "job": "queued"}) == {
            "type": "cancelled",
            "job": "queued",
        }
        assert len(server.studio.worker_pids()) == 1
        first.send({"type": "cancel", "job": "first"})
        first.until({"cancelled"}, timeout=QUICK)


@pytest.mark.slow
def test_a_job_past_its_time_limit_is_killed_and_answered_failed(
    start_server: Callable[..., StudioServer],
) -> None:
    server = start_server(workers=1, job_seconds=1.0)
    with server.connect() as studio:
        start_open_room(studio)
        (pid,) = server.studio.worker_pids()
        _, failed = studio.until({"error", "solved"}, timeout=QUICK)
    assert (failed["code"], failed["job"]) == ("failed", "long")
    assert "more than 1 seconds" in failed["message"]
    assert gone(pid)


@pytest.mark.slow
def test_a_job_past_its_memory_cap_is_answered_failed_and_its_slot_freed(
    start_server: Callable[..., StudioServer],
) -> None:
    # A spawned interpreter maps about 30 MB; the open room's states fill the rest in seconds.
    server = start_server(workers=1, memory_bytes=64 * 1024 * 1024)
    with server.connect() as studio:
        pack = one_level_pack(OPEN_ROOM)
        studio.send({"type": "solve", "job": "big", "pack": pack, "max": 2_000_000})
        _, failed = studio.until({"error", "solved"}, timeout=90)
        assert (failed["code"], failed["job"]) == ("failed", "big")
        assert "memory" in failed["message"]
        assert server.studio.worker_pids() == []


def test_a_worker_that_dies_without_an_answer_is_answered_failed_and_its_slot_freed(
    server: StudioServer,
) -> None:
    with server.connect() as studio:
        start_open_room(studio)
        (pid,) = server.studio.worker_pids()
        os.kill(pid, signal.SIGKILL)  # as the kernel's out-of-memory killer would
        _, failed = studio.until({"error", "solved"}, timeout=QUICK)
        assert (failed["code"], failed["job"]) == ("failed", "long")
        assert "without an answer" in failed["message"]
        assert gone(pid)
        studio.send({"type": "solve", "job": "next", "pack": one_level_pack("walls")})
        _, solved = studio.until({"solved", "error"}, timeout=30)
        assert solved["result"]["outcome"] == "solved"


# Garbage


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "bad-json"),
        ("[1, 2]", "bad-message"),
        (b"\x00\x01", "bad-message"),
        ('{"type": "dance", "job": "x"}', "bad-message"),
        ('{"job": "x"}', "bad-message"),
        ('{"type": "solve", "pack": {}}', "bad-message"),
        ('{"type": "solve", "job": "", "pack": {}}', "bad-message"),
        ('{"type": "check", "job": "' + "j" * 41 + '", "pack": {}}', "bad-message"),
        ('{"type": "check", "job": "x", "pack": "walls"}', "bad-message"),
        ('{"type": "solve", "job": "x", "pack": {}, "max": 0}', "bad-message"),
        ('{"type": "solve", "job": "x", "pack": {}, "max": true}', "bad-message"),
        ('{"type": "solve", "job": "x", "pack": {}, "max": 1.5}', "bad-message"),
        ('{"type": "cancel", "job": "nothing-running"}', "bad-message"),
        ('{"type": "cancel", "job": 7}', "bad-message"),
    ],
)
def test_garbage_frames_get_an_error_and_the_socket_lives(
    server: StudioServer, frame: str | bytes, code: str
) -> None:
    with server.connect() as studio:
        error = studio.request(frame)
        assert error["type"] == "error"
        assert error["code"] == code
        assert isinstance(error["message"], str) and error["message"]
        checked = studio.request({"type": "check", "job": "after", "pack": {}})
        assert checked["type"] == "checked"


def test_a_frame_over_256_kib_is_too_large_and_the_socket_lives(server: StudioServer) -> None:
    pack = one_level_pack("walls")
    pack["manifest"]["description"] = "x" * STUDIO_MAX_FRAME_BYTES
    with server.connect(max_size=None) as studio:
        error = studio.request({"type": "check", "job": "big", "pack": pack})
        assert (error["code"], error["job"]) == ("too-large", None)
        assert studio.request({"type": "check", "job": "after", "pack": {}})["type"] == "checked"


def test_a_page_of_another_site_is_refused(server: StudioServer) -> None:
    # As docs/protocol.md says: the handshake completes and the socket is closed with 1008
    # (policy violation), which a page can read, rather than an HTTP 403 it cannot.
    studio = server.connect(origin="http://elsewhere.example")
    with pytest.raises(ConnectionClosed) as closed:
        studio.socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "cross-origin")


# Shutdown


def children_of(pid: int) -> list[int]:
    """The ids of the live processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def studio_workers_of(pid: int) -> list[int]:
    """The spawned worker processes of server ``pid`` (not multiprocessing's resource tracker)."""
    return [
        child
        for child in children_of(pid)
        if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def test_stopping_the_server_kills_its_workers(
    start_server: Callable[..., StudioServer],
) -> None:
    server = start_server(workers=1)
    studio = server.connect()
    start_open_room(studio)
    (pid,) = server.studio.worker_pids()
    server.stop()
    with pytest.raises(ConnectionClosed):
        while True:
            studio.receive(timeout=QUICK)
    assert gone(pid)


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["ctrl-c", "sigkill"])
def test_miau_play_leaves_no_worker_behind(tmp_path: Path, stop: str) -> None:
    play = start_miau_play(tmp_path / "miau.db")
    try:
        with Studio(connect(f"ws://127.0.0.1:{play.port}/studio", legacy=True)) as studio:
            start_open_room(studio)
            # The job's worker and the loader process that read its pack.
            pids = studio_workers_of(play.process.pid)
            assert len(pids) == 2
            if stop == "ctrl-c":
                assert play.stop() == 0
            else:
                os.kill(play.process.pid, signal.SIGKILL)
                play.process.wait()
            # A killed server cannot kill its worker: the worker sees the pipe break at its
            # next progress report (every 0.2 s) and ends; the loader sees its queue close.
            assert wait_until(lambda: all(gone(pid) for pid in pids), timeout=QUICK)
    finally:
        play.stop()


# Floods, huge reports, loader work


class FrozenClock:
    """A clock that moves only when told: a token bucket then refills only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_studio_frames_past_the_rate_are_answered_rate_limited_and_dropped(
    start_server: Callable[..., StudioServer],
) -> None:
    clock = FrozenClock()
    server = start_server(workers=1, frames_per_second=2.0, burst=3, clock=clock)
    with server.connect() as studio:
        # Three frames pass (each a refused solve, answered at once), the fourth is dropped.
        for index in range(3):
            reply = studio.request({"type": "solve", "job": f"j{index}", "pack": {}})
            assert (reply["type"], reply["code"]) == ("error", "bad-message"), reply
        dropped = studio.request({"type": "solve", "job": "j3", "pack": {}})
        assert (dropped["type"], dropped["code"]) == ("error", "rate-limited")
        clock.now += 0.5  # one token back
        again = studio.request({"type": "check", "job": "j4", "pack": {}})
        assert again["type"] == "checked"


def test_the_default_studio_is_rate_limited() -> None:
    studio = StudioJobs()
    assert studio.frames_per_second is not None
    assert studio.frames_per_second <= 5


def pack_with_problems(count: int) -> dict[str, Any]:
    """A one-level pack whose every one of ``count`` objects is broken (a long bad noun each)."""
    document = one_level_pack(SMALL_ROOM)
    document["levels"][0]["objects"] = [
        {"kind": "object", "noun": "N" * 250 + str(index), "x": 0, "y": 0} for index in range(count)
    ]
    return document


def test_a_check_report_lists_at_most_its_cap_of_problems_and_counts_the_rest(
    server: StudioServer,
) -> None:
    with server.connect(max_size=None) as studio:
        studio.send({"type": "check", "job": "many", "pack": pack_with_problems(800)})
        _, checked = studio.until({"checked", "error"})
    assert checked is not None and checked["type"] == "checked", checked
    report = checked["report"]
    assert len(report["problems"]) == REPORT_PROBLEMS
    assert report["moreProblems"] >= 800 - REPORT_PROBLEMS
    assert all(len(problem["message"]) <= REPORT_MESSAGE_CHARS for problem in report["problems"])
    assert len(json.dumps(checked)) < 200 * 1024


def test_job_packs_are_read_by_the_loader_process_not_in_the_server(
    server: StudioServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    def in_the_server(document: object) -> None:
        raise AssertionError("the loader ran in the server's own process")

    # Patched here, in the server's process: the loader process has its own, unpatched.
    monkeypatch.setattr("miau.play.studio_levels.load_pack", in_the_server)
    with server.connect() as studio:
        studio.send({"type": "check", "job": "c", "pack": one_level_pack(SMALL_ROOM)})
        _, checked = studio.until({"checked", "error"})
    assert checked["type"] == "checked", checked
    assert checked["report"]["level"] is not None


def test_a_studio_socket_that_keeps_flooding_is_closed_with_1008(
    start_server: Callable[..., StudioServer],
) -> None:
    server = start_server(workers=1, frames_per_second=2.0, burst=1, clock=FrozenClock())
    with server.connect() as studio:
        assert studio.request({"type": "check", "job": "c", "pack": {}})["type"] == "checked"
        for _ in range(STUDIO_FLOOD_CLOSE - 1):
            assert studio.request({"type": "check", "job": "c", "pack": {}})["code"] == (
                "rate-limited"
            )
        studio.send({"type": "check", "job": "c", "pack": {}})
        with pytest.raises(ConnectionClosed) as closed:
            studio.receive()
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many messages")


def test_one_client_gets_one_job_at_a_time_however_many_pages_it_opens(
    server: StudioServer,
) -> None:
    # Three sockets of one address (each a new player: no cookie) used to queue three jobs
    # before anyone else's; now the second and third are busy while the first runs.
    with server.connect() as first, server.connect() as second, server.connect() as third:
        start_open_room(first, "first")
        for socket, job in ((second, "second"), (third, "third")):
            refused = socket.request({"type": "solve", "job": job, "pack": one_level_pack("walls")})
            assert refused["type"] == "error" and refused["code"] == "busy", refused
            assert "one job at a time for each player and each address" in refused["message"]
        assert first.request({"type": "cancel", "job": "first"})["type"] == "cancelled"
        second.send({"type": "solve", "job": "second", "pack": one_level_pack("walls")})
        _, answer = second.until({"solved", "unsolvable", "limit", "error"})
        assert answer["type"] == "solved", answer


def test_a_long_job_gives_its_worker_up_after_its_slice_to_a_job_that_waits(
    start_server: Callable[..., StudioServer],
) -> None:
    # One worker; the long search would hold it for its whole time cap. Past the slice,
    # with another job waiting, it is stopped with a sentence and the waiting job runs.
    server = start_server(workers=1, jobs_per_owner=None, shared_slice=1.0)
    with server.connect() as first, server.connect() as second:
        start_open_room(first, "long")
        second.send({"type": "solve", "job": "tiny", "pack": one_level_pack("walls")})
        _, stopped = first.until({"failed", "solved", "unsolvable", "limit", "error"}, 60)
        assert stopped["type"] == "error" and stopped["code"] == "failed", stopped
        assert "so that another author's job could run" in stopped["message"]
        _, answer = second.until({"solved", "unsolvable", "limit", "error"}, 60)
        assert answer["type"] == "solved", answer


def test_a_long_job_alone_is_not_stopped_at_its_slice(
    start_server: Callable[..., StudioServer],
) -> None:
    server = start_server(workers=1, shared_slice=0.5)
    with server.connect() as first:
        start_open_room(first, "long")
        with pytest.raises(TimeoutError):
            first.until({"error"}, 2.0)
        assert first.request({"type": "cancel", "job": "long"})["type"] == "cancelled"
