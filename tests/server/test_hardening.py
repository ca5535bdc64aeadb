"""Per-connection rate limits, and players who cannot reach each other's games."""

from __future__ import annotations

import contextlib
import dataclasses
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from miau.server.app import COOKIE_NAME, create_app
from miau.server.limits import PLAY_LIMITS, TokenBucket
from tests.server.conftest import Player, count_rows, pack_json

with warnings.catch_warnings():
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def frames_dropped(rate_per_second: float, seconds: float) -> int:
    """How many of evenly paced frames the play limits drop."""
    clock = FakeClock()
    bucket = TokenBucket(PLAY_LIMITS.frames_per_second or 0.0, PLAY_LIMITS.burst, clock)
    dropped = 0
    for _ in range(int(rate_per_second * seconds)):
        clock.now += 1 / rate_per_second
        dropped += not bucket.take()
    return dropped


def test_a_held_key_at_eleven_moves_a_second_never_hits_the_rate_limit() -> None:
    assert frames_dropped(11, seconds=600) == 0


def test_thirty_frames_a_second_sustained_pass_and_a_flood_is_cut_to_that_rate() -> None:
    assert frames_dropped(30, seconds=600) == 0
    assert frames_dropped(60, seconds=100) == pytest.approx(3000, abs=25)


def test_a_burst_of_twenty_passes_at_once_and_the_next_frame_waits_for_a_token() -> None:
    clock = FakeClock()
    bucket = TokenBucket(30, 20, clock)
    assert all(bucket.take() for _ in range(20))
    assert not bucket.take()
    clock.now += 0.04  # a token and a bit
    assert bucket.take()
    assert not bucket.take()
    clock.now += 3600
    assert sum(bucket.take() for _ in range(100)) == 20  # idling never banks more than a burst


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def limited_client(db_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    # Turns measured as free: a slow turn on a loaded machine would cost more than one token.
    limits = dataclasses.replace(PLAY_LIMITS, clock=clock, engine_clock=lambda: 0.0)
    app = create_app(db_path=db_path, limits=limits)
    with TestClient(app) as client:
        client.get("/api/worlds")
        yield client


def test_frames_past_the_rate_get_rate_limited_are_dropped_and_the_connection_stays(
    limited_client: TestClient, db_path: Path, clock: FakeClock
) -> None:
    with limited_client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")  # one token of twenty
        for _ in range(19):
            player.intent("wait")
        rows = count_rows(db_path, "intents")

        dropped = player.send({"type": "intent", "seq": 77, "intent": "wait"})
        garbage = player.raw("{")

        assert (dropped["type"], dropped["code"], dropped["seq"]) == ("error", "rate-limited", 77)
        assert garbage["code"] == "rate-limited"  # every frame costs a token, even a bad one
        assert count_rows(db_path, "intents") == rows
        clock.now += 0.1  # three tokens
        assert player.intent("wait")["state"]["moveCount"] == 20


def test_each_connection_has_its_own_bucket(limited_client: TestClient) -> None:
    with (
        limited_client.websocket_connect("/ws") as first,
        limited_client.websocket_connect("/ws") as second,
    ):
        flooder, other = Player(first), Player(second)
        flooder.open("tutorial", "first-steps")
        for _ in range(25):
            flooder.send({"type": "intent", "seq": 1, "intent": "wait"})
        other.open("tutorial", "walls")
        assert other.step("right")["event"]["accepted"] is True


@contextlib.contextmanager
def websocket_as(client: TestClient, token: str) -> Iterator[Player]:
    with client.websocket_connect("/ws", headers={"cookie": f"{COOKIE_NAME}={token}"}) as socket:
        yield Player(socket)


@pytest.fixture
def bare_client(db_path: Path) -> Iterator[TestClient]:
    """A client that carries no cookie of its own: each test says who it is."""
    with TestClient(create_app(db_path=db_path)) as client:
        yield client


ALICE = "alice-token-0123456789abcdef"
MALLORY = "mallory-token-0123456789abcd"


def test_a_second_player_can_neither_see_nor_move_the_first_players_game(
    bare_client: TestClient, db_path: Path
) -> None:
    with websocket_as(bare_client, ALICE) as alice:
        alice.open("tutorial", "first-steps")
        moved = alice.moves("RR")[-1]["state"]
    alice_rows = count_rows(db_path, "intents")

    with websocket_as(bare_client, MALLORY) as mallory:
        # Messages name no player and no game: extra fields naming Alice's are ignored.
        opened = mallory.send(
            {"type": "open", "pack": "tutorial", "level": "first-steps", "player": ALICE, "game": 1}
        )
        assert opened["resumed"] is False
        assert opened["state"]["moveCount"] == 0
        mallory.send({"type": "intent", "seq": 1, "intent": "reset", "player": ALICE, "game": 1})
        mallory.send({"type": "intent", "seq": 2, "intent": "step", "direction": "up", "game": 1})

    with websocket_as(bare_client, ALICE) as alice:
        again = alice.open("tutorial", "first-steps")
        assert again["resumed"] is True
        assert again["state"] == moved
    with_mallory = count_rows(db_path, "intents")
    assert with_mallory > alice_rows  # Mallory's own moves are stored, in Mallory's game
    assert count_rows(db_path, "games") == 2  # Alice's, and Mallory's own


def test_progress_is_private_to_its_player(bare_client: TestClient) -> None:
    solution = next(
        level["solution"]
        for level in pack_json("tutorial")["levels"]
        if level["id"] == "first-steps"
    )
    with websocket_as(bare_client, ALICE) as alice:
        alice.open("tutorial", "first-steps")
        assert alice.moves(solution)[-1]["progress"]["won"] is True

    def progress(cookie: str | None) -> list[object]:
        headers = {} if cookie is None else {"cookie": cookie}
        levels: list[object] = bare_client.get("/api/progress", headers=headers).json()["levels"]
        return levels

    assert len(progress(f"{COOKIE_NAME}={ALICE}")) == 1
    assert progress(f"{COOKIE_NAME}={MALLORY}") == []
    assert progress(None) == []


@pytest.mark.parametrize(
    "cookie",
    [
        None,
        f"{COOKIE_NAME}=short",
        f"{COOKIE_NAME}=../../etc/passwd-0123456789",
        f"{COOKIE_NAME}=x; {COOKIE_NAME}=../../etc/passwd-0123456789",
        f"{COOKIE_NAME}=\u0430lice-token-0123456789abcdef",
        f"{COOKIE_NAME}=" + "a" * 65,
        "other=1",
    ],
    ids=["missing", "too-short", "path", "doubled", "confusable", "too-long", "another-cookie"],
)
def test_a_missing_or_malformed_cookie_gets_a_fresh_player(
    bare_client: TestClient, cookie: str | None
) -> None:
    with websocket_as(bare_client, ALICE) as alice:
        alice.open("tutorial", "first-steps")
        alice.step("right")

    headers = {} if cookie is None else {"cookie": cookie.encode("utf-8")}
    issued = bare_client.get("/api/worlds", headers=headers).headers.get("set-cookie", "")
    assert issued.startswith(f"{COOKIE_NAME}=")
    assert ALICE not in issued
    with bare_client.websocket_connect("/ws", headers=headers) as socket:
        opened = Player(socket).open("tutorial", "first-steps")
        assert opened["resumed"] is False
        assert opened["state"]["moveCount"] == 0
