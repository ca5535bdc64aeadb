"""Limits that follow cost: share links bounded like drafts, turns timed and charged, heavy work off the loop.

An attack found a 468-character share link of 4,000 word tiles under
``TEXT IS MOVE`` whose every turn took about 200 ms of the event loop: the
entity-count estimate charged it like a plain crowded board. These tests
pin each part of the answer (``miau.server.costs``).
"""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from benchmarks.adversary import word_flood

from miau.packs import load_pack
from miau.packs.share import (
    MAX_SHARED_ENTITIES,
    ShareLinkError,
    decode_share_code,
    encode_share_code,
)
from miau.play.log import LogEntry
from miau.server import costs
from miau.server.app import create_app
from miau.server.costs import ReplayTooCostlyError, timed_replay
from miau.server.limits import DRAFT_MAX_ENTITIES, PLAY_LIMITS, UNTHROTTLED
from tests.server.conftest import Player, TestClient


def entities_of(document: dict[str, Any]) -> int:
    return len(load_pack(document).levels[0].data["objects"])


class SteppingClock:
    """An engine clock on which every reading is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.threads: list[int] = []

    def __call__(self) -> float:
        self.threads.append(threading.get_ident())
        self.now += self.step
        return self.now


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def client_with(db_path: Path, **limits: Any) -> TestClient:
    return TestClient(
        create_app(db_path=db_path, limits=dataclasses.replace(PLAY_LIMITS, **limits))
    )


@pytest.fixture
def flood_code() -> str:
    document = word_flood(MAX_SHARED_ENTITIES)
    assert entities_of(document) > MAX_SHARED_ENTITIES
    return encode_share_code(document)


def test_share_links_are_bounded_like_drafts() -> None:
    assert MAX_SHARED_ENTITIES == DRAFT_MAX_ENTITIES


def test_a_share_link_past_the_entity_bound_is_refused_stating_the_bound(flood_code: str) -> None:
    assert len(flood_code) < 1000  # small as a link: the bound is on what it holds
    with pytest.raises(ShareLinkError) as refused:
        decode_share_code(flood_code)
    assert f"{MAX_SHARED_ENTITIES + 7:,} things and words" in str(refused.value)
    assert f"at most {MAX_SHARED_ENTITIES:,}" in str(refused.value)


def test_a_share_link_at_the_entity_bound_opens() -> None:
    document = word_flood(MAX_SHARED_ENTITIES - 7)
    assert entities_of(document) == MAX_SHARED_ENTITIES
    assert len(decode_share_code(encode_share_code(document)).levels) == 1


def test_the_server_refuses_a_share_link_past_the_bound_on_both_routes(
    client: TestClient, flood_code: str
) -> None:
    reply = client.post("/api/shared", json={"code": flood_code})
    assert reply.status_code == 400
    assert f"at most {MAX_SHARED_ENTITIES:,}" in reply.json()["error"]
    with client.websocket_connect("/ws") as socket:
        refused = Player(socket).send({"type": "open", "share": flood_code})
        assert refused["type"] == "error" and refused["code"] == "bad-message"
        assert f"at most {MAX_SHARED_ENTITIES:,}" in refused["message"]


def test_a_turn_is_charged_the_engine_time_it_took_not_its_entity_count(db_path: Path) -> None:
    # A shipped level (one token a frame by its size) whose turns take 50 ms each.
    engine = SteppingClock(0.05)
    with client_with(db_path, clock=FrozenClock(), engine_clock=engine) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.intent("wait")
            refused = player.send({"type": "intent", "seq": 2, "intent": "wait"})
            assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
            assert "counts as 167" in refused["message"]


def test_cheap_turns_on_a_shipped_level_are_never_charged_past_one_token(db_path: Path) -> None:
    with client_with(db_path, clock=FrozenClock(), engine_clock=SteppingClock(0.0001)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            for _ in range(PLAY_LIMITS.burst - 1):
                player.intent("wait")


def test_turns_on_a_big_level_run_off_the_event_loop_and_small_ones_on_it(db_path: Path) -> None:
    engine = SteppingClock(0.0001)
    limits = dataclasses.replace(UNTHROTTLED, engine_clock=engine)
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.intent("wait")
            loop_threads = set(engine.threads)
            engine.threads.clear()
            big = word_flood(200)
            assert player.send({"type": "open", "draft": big})["type"] == "opened"
            player.intent("wait")
            assert engine.threads and not set(engine.threads) & loop_threads


def test_a_level_measured_heavy_plays_its_next_turns_off_the_event_loop(db_path: Path) -> None:
    engine = SteppingClock(0.02)  # 20 ms a turn on a small level
    limits = dataclasses.replace(UNTHROTTLED, engine_clock=engine)
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.intent("wait")
            first = set(engine.threads)
            engine.threads.clear()
            player.intent("wait")
            assert not set(engine.threads) & first


def test_a_move_that_makes_the_board_too_big_to_send_is_taken_back_and_refused(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(costs, "MAX_REPLY_BYTES", 512)
    monkeypatch.setattr(costs, "REPLY_CHECKED_PAST", 0)
    with TestClient(create_app(db_path=db_path)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            refused = player.send({"type": "intent", "seq": 1, "intent": "wait"})
            assert refused["type"] == "error" and refused["code"] == "bad-message", refused
            assert "too big to send" in refused["message"] and "taken back" in refused["message"]
            monkeypatch.setattr(costs, "MAX_REPLY_BYTES", 1 << 30)
            assert player.intent("wait")["state"]["moveCount"] == 1
    with sqlite3.connect(db_path) as db:
        (stored,) = db.execute("SELECT COUNT(*) FROM intents").fetchone()
    assert stored == 1  # only the wait that was sent


def test_a_heavy_levels_costly_log_is_stored_as_one_restore_of_the_board(db_path: Path) -> None:
    engine = SteppingClock(0.3)  # 300 ms a turn: four turns pass a second of replay
    limits = dataclasses.replace(UNTHROTTLED, engine_clock=engine)
    with TestClient(create_app(db_path=db_path, limits=limits)) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            for direction in ("right", "left", "right", "left"):
                player.step(direction)
        with sqlite3.connect(db_path) as db:
            letters = [row[0] for row in db.execute("SELECT letter FROM intents")]
        assert letters == ["S"], letters
        with client.websocket_connect("/ws") as socket:
            opened = Player(socket).open("tutorial", "first-steps")
            assert opened["resumed"] and opened["state"]["moveCount"] == 4


def test_a_replay_past_its_engine_time_cap_is_refused() -> None:
    level = load_pack(word_flood(10)).levels[0]
    entries = [LogEntry("W")] * 50
    game, seconds = timed_replay(level, entries, SteppingClock(0.001), cap=1.0)
    assert game.state.move_count == 50 and seconds == pytest.approx(0.051)
    with pytest.raises(ReplayTooCostlyError):
        timed_replay(level, entries, SteppingClock(0.1), cap=1.0)


def test_share_link_opens_draw_the_heavy_budget_before_they_are_decoded(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A link at the entity bound takes about 5 ms to decode: a flood of them once kept four
    # threads decoding at once, each contending with the event loop for the interpreter.
    from miau.play import service as play_service

    decoded: list[int] = []
    real_decode = decode_share_code

    def counted_decode(code: str) -> Any:
        decoded.append(len(code))
        return real_decode(code)

    monkeypatch.setattr(play_service, "decode_share_code", counted_decode)
    at_bound = encode_share_code(word_flood(MAX_SHARED_ENTITIES - 7))
    clock = FrozenClock()
    client = client_with(
        db_path, frames_per_second=1000.0, burst=1000, flood_close=None, clock=clock
    )
    with client:
        client.get("/api/worlds")
        answers = []
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            for _ in range(12):
                answers.append(player.send({"type": "open", "share": at_bound}).get("code"))
        with client.websocket_connect("/ws") as socket:
            # The budget binds heavy work only: a shipped level still opens.
            assert Player(socket).open("tutorial", "first-steps")["type"] == "opened"
    assert answers[0] is None  # the first opened
    assert "rate-limited" in answers
    # Past the budget, opens are refused before their link is decoded (a decode the board's
    # own heavy work then refuses may be one more than the opens).
    assert answers.count(None) <= len(decoded) <= len(answers) // 2


def test_one_slow_turn_does_not_price_a_small_levels_frames_for_good(db_path: Path) -> None:
    # An honest player on First Steps: one turn hits a 50 ms pause (a garbage collection),
    # the turns around it take 0.1 ms. The slow turn is paid for; the frames after it are
    # not priced as if every turn were that slow (they were: 167 tokens each, for good).
    clock, engine = FrozenClock(), SteppingClock(0.0001)
    with client_with(db_path, clock=clock, engine_clock=engine) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.intent("wait")
            player.intent("wait")
            engine.step = 0.05
            player.intent("wait")
            engine.step = 0.0001
            rate = PLAY_LIMITS.frames_per_second
            assert rate is not None
            clock.now += 200 / rate  # long enough to pay back the slow turn's debt
            for _ in range(PLAY_LIMITS.burst // 2):
                player.intent("wait")


def test_a_level_whose_turns_are_all_slow_stays_priced_by_them(db_path: Path) -> None:
    clock, engine = FrozenClock(), SteppingClock(0.05)
    rate = PLAY_LIMITS.frames_per_second
    assert rate is not None
    with client_with(db_path, clock=clock, engine_clock=engine) as client:
        client.get("/api/worlds")
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            for turn in range(3):
                if turn:
                    clock.now += 200 / rate  # each slow turn's debt paid back
                player.intent("wait")
            refused = player.send({"type": "intent", "seq": 9, "intent": "wait"})
            assert refused["type"] == "error" and refused["code"] == "rate-limited", refused
            assert "counts as 167" in refused["message"]
