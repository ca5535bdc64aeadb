"""Heavy but valid levels cost a bounded reply and a bounded share of the server.

Two bounds, no deltas (every reply still carries the whole state): a draft may
start with at most ``DRAFT_MAX_ENTITIES`` things and words, and on any level
of more than ``ENTITIES_PER_TOKEN`` entities each frame costs the rate limit
one token per started ``ENTITIES_PER_TOKEN``; every shipped level costs one.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from miau.packs import Pack
from miau.play import service as play_service
from miau.play import studio_levels
from miau.server.app import create_app
from miau.server.limits import DRAFT_MAX_ENTITIES, ENTITIES_PER_TOKEN, PLAY_LIMITS, TokenBucket
from tests.server.conftest import Player, TestClient

SIDE = 64


def crowded_draft(things: int) -> dict[str, Any]:
    """A 64 x 64 one-level pack: MIAU IS YOU and ``things`` MIAU things filling rows in order."""
    rows = [["."] * SIDE for _ in range(SIDE)]
    rows[0][0:3] = ["M", "=", "Y"]
    cells = [(x, y) for y in range(2, SIDE) for x in range(SIDE)]
    for x, y in cells[:things]:
        rows[y][x] = "c"
    return {
        "manifest": {"id": "draft", "name": "Crowded", "version": "1.0.0", "engine": 1},
        "levels": [
            {
                "id": "crowded",
                "title": "Crowded",
                "width": SIDE,
                "height": SIDE,
                "map": ["".join(row) for row in rows],
                "legend": {
                    "M": {"word": "MIAU"},
                    "=": {"word": "IS"},
                    "Y": {"word": "YOU"},
                    "c": "MIAU",
                },
            }
        ],
    }


def test_a_draft_over_the_entity_cap_is_refused_and_the_open_level_stays(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        refused = player.send({"type": "open", "draft": crowded_draft(DRAFT_MAX_ENTITIES)})
        assert refused["type"] == "error" and refused["code"] == "bad-message", refused
        assert f"at most {DRAFT_MAX_ENTITIES:,}" in refused["message"]
        assert f"{DRAFT_MAX_ENTITIES + 3:,} things and words" in refused["message"]
        assert player.intent("wait")["state"]["moveCount"] == 1


def test_a_draft_at_the_entity_cap_plays_and_its_replies_stay_bounded(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.send({"type": "open", "draft": crowded_draft(DRAFT_MAX_ENTITIES - 3)})
        assert opened["type"] == "opened", opened
        assert len(opened["state"]["entities"]) == DRAFT_MAX_ENTITIES
        reply = player.intent("step", direction="up")
        assert reply["event"]["accepted"]
        assert len(json.dumps(reply, separators=(",", ":"))) < 160 * 1024


def test_a_token_bucket_takes_a_frames_cost_up_to_its_burst() -> None:
    clock = iter([0.0] * 10).__next__
    bucket = TokenBucket(30, 5, clock)
    assert bucket.take(2) and bucket.take(2)
    assert not bucket.take(2)  # one token left
    assert bucket.take(0.5)  # a cost is at least one token
    assert not bucket.take(100)  # clamped to the burst: needs the bucket full


class FrozenClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def limited(db_path: Path) -> Iterator[TestClient]:
    clock = FrozenClock()
    # Turns measured as free: these tests pin the cost a level's size sets before any turn
    # (what turns are measured to cost is tests/server/test_costs.py's).
    limits = dataclasses.replace(PLAY_LIMITS, clock=clock, engine_clock=lambda: 0.0)
    app = create_app(db_path=db_path, limits=limits)
    with TestClient(app) as client:
        client.get("/api/worlds")
        yield client


def test_frames_on_a_crowded_level_cost_more_of_the_rate_limit(limited: TestClient) -> None:
    cost = -(-DRAFT_MAX_ENTITIES // ENTITIES_PER_TOKEN)
    assert cost > 1
    with limited.websocket_connect("/ws") as socket:
        player = Player(socket)
        # The open costs one token of twenty; then every frame costs ``cost``.
        assert (
            player.send({"type": "open", "draft": crowded_draft(DRAFT_MAX_ENTITIES - 3)})["type"]
            == "opened"
        )
        passed = 0
        while True:
            reply = player.send({"type": "intent", "seq": passed + 1, "intent": "wait"})
            if reply["type"] != "result":
                break
            passed += 1
        assert reply["code"] == "rate-limited"
        assert f"counts as {cost}" in reply["message"]
        assert passed == (PLAY_LIMITS.burst - 1) // cost


def test_frames_on_a_small_level_cost_one_token(limited: TestClient) -> None:
    with limited.websocket_connect("/ws") as socket:
        player = Player(socket)
        assert (
            player.send({"type": "open", "draft": crowded_draft(ENTITIES_PER_TOKEN - 3)})["type"]
            == "opened"
        )
        for _ in range(PLAY_LIMITS.burst - 1):
            player.intent("wait")


def test_every_shipped_level_costs_one_token_a_frame() -> None:
    from miau.engine import Game
    from miau.packs import load_pack
    from miau.worlds import shipped_packs_dir

    for path in sorted(shipped_packs_dir().glob("*.json")):
        for level in load_pack(path).levels:
            assert len(Game(level.data).state.to_json()["entities"]) <= ENTITIES_PER_TOKEN


def test_a_connection_that_keeps_flooding_past_its_rate_limit_is_closed_with_1008(
    limited: TestClient,
) -> None:
    with limited.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        for _ in range(PLAY_LIMITS.burst - 1):
            player.intent("wait")
        assert PLAY_LIMITS.flood_close is not None
        for seq in range(PLAY_LIMITS.flood_close - 1):
            reply = player.send({"type": "intent", "seq": seq, "intent": "wait"})
            assert reply["code"] == "rate-limited"
        socket.send_text(json.dumps({"type": "intent", "seq": 0, "intent": "wait"}))
        assert socket.receive_json()["code"] == "rate-limited"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert (closed.value.code, closed.value.reason) == (1008, "too many messages")


@pytest.fixture
def heavy_clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def heavy_limited(db_path: Path, heavy_clock: FrozenClock) -> Iterator[TestClient]:
    """A server whose connections' own rate limits are far off: only the heavy budget binds."""
    limits = dataclasses.replace(
        PLAY_LIMITS, frames_per_second=1000.0, burst=1000, flood_close=None, clock=heavy_clock
    )
    app = create_app(db_path=db_path, limits=limits)
    with TestClient(app) as client:
        client.get("/api/worlds")
        yield client


def heavy_tokens_taken_by_reconnecting(client: TestClient, connections: int) -> tuple[int, str]:
    """Open a draft at the cap and step on it until refused, on ``connections`` sockets in turn.

    Returns the heavy tokens the server granted (each draft opened and each
    step, at their cost) and the last refusal's message.
    """
    cost = -(-DRAFT_MAX_ENTITIES // ENTITIES_PER_TOKEN)
    granted, refusal = 0, ""
    for _ in range(connections):
        with client.websocket_connect("/ws") as socket:
            player = Player(socket)
            opened = player.send({"type": "open", "draft": crowded_draft(DRAFT_MAX_ENTITIES - 3)})
            if opened["type"] != "opened":
                refusal = opened["message"]
                continue
            granted += cost
            for seq in range(1, 200):
                reply = player.send({"type": "intent", "seq": seq, "intent": "wait"})
                if reply["type"] != "result":
                    refusal = reply["message"]
                    break
                granted += cost
    return granted, refusal


def test_heavy_draft_frames_of_all_connections_together_stay_within_the_servers_budget(
    heavy_limited: TestClient,
) -> None:
    # A client cut off (or simply opening one socket after another) starts each connection
    # with a full bucket of its own; the server's heavy budget is one for all of them.
    assert PLAY_LIMITS.heavy_tokens_per_second is not None
    granted, refusal = heavy_tokens_taken_by_reconnecting(heavy_limited, connections=6)
    assert granted <= PLAY_LIMITS.heavy_burst
    assert granted >= PLAY_LIMITS.heavy_burst - 2 * ENTITIES_PER_TOKEN
    assert "busy with big levels" in refusal


def test_the_heavy_budget_refills_at_its_rate(
    heavy_limited: TestClient, heavy_clock: FrozenClock
) -> None:
    assert PLAY_LIMITS.heavy_tokens_per_second is not None
    first, _ = heavy_tokens_taken_by_reconnecting(heavy_limited, connections=3)
    assert heavy_tokens_taken_by_reconnecting(heavy_limited, connections=3)[0] == 0
    heavy_clock.now += PLAY_LIMITS.heavy_burst / PLAY_LIMITS.heavy_tokens_per_second
    refilled, _ = heavy_tokens_taken_by_reconnecting(heavy_limited, connections=3)
    # A whole burst again, give or take what a slow turn on a loaded machine was charged
    # over its fixed cost (test_costs pins that charge), in either of the two rounds.
    assert first - 2 * ENTITIES_PER_TOKEN <= refilled <= PLAY_LIMITS.heavy_burst


def test_shipped_levels_play_on_while_the_heavy_budget_is_spent(
    heavy_limited: TestClient,
) -> None:
    heavy_tokens_taken_by_reconnecting(heavy_limited, connections=3)
    assert heavy_tokens_taken_by_reconnecting(heavy_limited, connections=1)[0] == 0
    with heavy_limited.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        for _ in range(50):
            assert player.intent("wait")["event"]["accepted"]


def test_draft_opens_draw_the_heavy_budget_before_the_draft_is_loaded(
    heavy_limited: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A draft past the cap is refused only once loaded (about 5 ms of work each): past the
    # budget, further opens are refused before their draft is even read.
    loads: list[Any] = []
    load_draft = studio_levels.load_draft

    def counted_load(document: Any) -> Pack:
        loads.append(document)
        return load_draft(document)

    monkeypatch.setattr(play_service, "load_draft", counted_load)
    answers = []
    for _ in range(8):
        with heavy_limited.websocket_connect("/ws") as socket:
            reply = Player(socket).send({"type": "open", "draft": crowded_draft(4093)})
            answers.append(reply["code"])
    oversized_cost = -(-(4093 + 3) // ENTITIES_PER_TOKEN)
    assert 1 <= len(loads) <= -(-PLAY_LIMITS.heavy_burst // oversized_cost)
    assert answers.count("bad-message") == len(loads)
    assert answers.count("rate-limited") == len(answers) - len(loads)
