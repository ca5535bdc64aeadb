"""The /studio WebSocket's depth and suggest jobs: real server, real worker processes.

A ``depth`` job answers with the depth profile ``miau.solver.depth`` computes
in this process (the same figures, the timing aside); a ``suggest`` job
streams progress and each variation as it is found, then answers within its
budget with those variations: they load, their stored solutions win and
are proven shortest, and each has a new idea and the draft's title. Their options are checked like the
other studio messages'.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from miau.engine import Game
from miau.engine.vocabulary import MOVE_LETTERS
from miau.packs import load_pack
from miau.play.studio_suggest import (
    MAX_SEED,
    SUGGEST_MAX_COUNT,
    SUGGEST_MAX_SECONDS,
    suggest_options,
)
from miau.server.studio import StudioJobs
from miau.solver import Outcome, solve
from miau.solver.depth import depth_profile
from tests.server.test_studio import StudioServer, one_level_pack

SUGGEST_SECONDS = 5.0
"""The editor's own budget."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[StudioServer]:
    started = StudioServer(tmp_path / "miau.db", StudioJobs(workers=1))
    yield started
    started.stop()


def profile_here(pack: dict[str, Any]) -> dict[str, Any]:
    """The depth profile of the pack's one level, computed in this process, without its timing."""
    # The studio leaves the ideas out (they cost held searches): so does the reference.
    figures = depth_profile(load_pack(pack).levels[0].data, ideas=False).to_json()
    del figures["seconds"]
    return figures


@pytest.mark.parametrize("level", ["walls", "sunken-word"])
def test_depth_answers_with_the_profile_the_solver_computes(
    server: StudioServer, level: str
) -> None:
    pack = one_level_pack(level)
    with server.connect() as studio:
        studio.send({"type": "depth", "job": "d1", "pack": pack})
        frames, answer = studio.until({"profiled", "error"})
    assert frames[0] == {"type": "started", "job": "d1"}
    assert (answer["type"], answer["job"]) == ("profiled", "d1"), answer
    profile = answer["profile"]
    assert profile.pop("seconds") >= 0
    assert profile == profile_here(pack)
    assert profile["deadSquares"], "both levels have cells no word can leave"


def test_depth_of_a_broken_pack_is_a_bad_message(server: StudioServer) -> None:
    pack = one_level_pack("walls")
    pack["levels"][0]["width"] = "wide"
    with server.connect() as studio:
        error = studio.request({"type": "depth", "job": "d", "pack": pack})
    assert (error["type"], error["job"], error["code"]) == ("error", "d", "bad-message")


def wins_in(level: dict[str, Any], moves: str) -> bool:
    """Whether playing ``moves`` on ``level`` (engine data) wins."""
    game = Game(level)
    return any(game.step(MOVE_LETTERS[letter]).won for letter in moves)


@pytest.mark.slow
def test_suggest_streams_progress_and_each_variation_then_answers_within_its_budget(
    server: StudioServer,
) -> None:
    pack = one_level_pack("sunken-word")
    request = {"type": "suggest", "job": "v", "pack": pack, "seconds": SUGGEST_SECONDS}
    with server.connect() as studio:
        began = time.monotonic()
        studio.send({**request, "count": 3, "seed": 7})
        frames, answer = studio.until({"suggested", "error"})
        took = time.monotonic() - began
    assert frames[0] == {"type": "started", "job": "v"}
    assert (answer["type"], answer["job"]) == ("suggested", "v"), answer
    # The budget counts from the worker's start and caps the whole job.
    assert took <= SUGGEST_SECONDS + 1.0, f"{took:.2f} s"
    assert answer["seconds"] <= SUGGEST_SECONDS + 0.5
    progress = [frame for frame in frames[1:] if frame["type"] == "progress"]
    assert progress and {"candidates", "solved", "bestDepth", "seconds"} <= set(progress[0])
    streamed = [frame["variation"] for frame in frames[1:] if frame["type"] == "variation"]
    variations = answer["variations"]
    assert streamed == variations, "each variation was sent as soon as it was found"
    assert answer["draftIdea"] == "-[hazard] IS SINK; contact: sink"
    assert set(answer["dropped"]) >= {"sameIdeaAsDraft", "nearCopy", "walk", "shallower"}
    draft = load_pack(pack).levels[0].data
    ideas = [variation["idea"] for variation in variations]
    assert len(set(ideas)) == len(ideas)
    for variation in variations:
        entry = variation["level"]
        assert entry["title"] == pack["levels"][0]["title"]
        assert variation["signature"] and variation["idea"] != answer["draftIdea"]
        assert variation["depth"] >= answer["draftDepth"]
        assert variation["changes"]
        level = load_pack({**pack, "levels": [entry]}).levels[0].data
        assert level != draft, "never the draft itself"
        shortest = solve(level)
        assert shortest.outcome is Outcome.SOLVED
        assert len(entry["solution"]) == shortest.length
        assert wins_in(dict(level), entry["solution"])


BAD_OPTIONS = [
    ("seconds", 0),
    ("seconds", SUGGEST_MAX_SECONDS + 1),
    ("seconds", "5"),
    ("seconds", True),
    ("count", 0),
    ("count", SUGGEST_MAX_COUNT + 1),
    ("count", 2.5),
    ("seed", -1),
    ("seed", MAX_SEED + 1),
    ("seed", False),
]


@pytest.mark.parametrize(("field", "value"), BAD_OPTIONS)
def test_each_bad_suggest_option_is_refused_naming_its_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f'"{field}"'):
        suggest_options({"type": "suggest", field: value})


def test_a_suggest_with_a_bad_option_is_a_bad_message_naming_it(server: StudioServer) -> None:
    # Every bad value is refused by suggest_options (above); here, that the server answers
    # its refusal as a bad-message and the socket lives on.
    field, value = "count", SUGGEST_MAX_COUNT + 1
    message = {"type": "suggest", "job": "s", "pack": one_level_pack("walls"), field: value}
    with server.connect() as studio:
        error = studio.request(json.dumps(message))
        # The socket lives on: the next job runs.
        studio.send({"type": "depth", "job": "after", "pack": one_level_pack("first-steps")})
        _, after = studio.until({"profiled", "error"})
    assert (error["type"], error["job"], error["code"]) == ("error", "s", "bad-message")
    assert f'"{field}"' in error["message"]
    assert after["type"] == "profiled"


def test_a_running_suggest_can_be_cancelled_and_its_worker_is_gone(server: StudioServer) -> None:
    pack = one_level_pack("first-steps")
    with server.connect() as studio:
        studio.send({"type": "suggest", "job": "long", "pack": pack, "seconds": 15})
        assert studio.receive(timeout=30) == {"type": "started", "job": "long"}
        studio.send({"type": "cancel", "job": "long"})
        _, cancelled = studio.until({"cancelled", "suggested", "error"}, timeout=10)
        assert cancelled == {"type": "cancelled", "job": "long"}
        assert server.studio.worker_pids() == []
