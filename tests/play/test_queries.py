"""A query about the open game is added in one place, the play service, and both hosts answer it.

The query here is a stand-in registered for the test (the move count of the
open game); a real one, such as "can I still win?", is added the same way:
an answer and a row in ``miau.play.service.QUERIES``.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from miau.play import service
from miau.play.protocol import Query
from miau.play.winnable import QueriedGame
from miau.server.app import create_app
from tests.play.test_same_conversation import ServerHost, SiteHost
from tests.server.conftest import TestClient


def moves_so_far(opened: QueriedGame, query: Query) -> dict[str, Any]:
    return {
        "type": "moves",
        "seq": query.seq,
        "level": opened.level.id,
        "moves": opened.game.state.move_count,
    }


ASKED = [
    json.dumps({"type": "moves", "seq": 1}),  # before any open: no-game
    json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"}),
    json.dumps({"type": "intent", "seq": 2, "intent": "wait"}),
    json.dumps({"type": "moves", "seq": 3}),
    json.dumps({"type": "dance", "seq": 4}),  # still no query of that type
]


def replies(host: ServerHost | SiteHost) -> list[dict[str, Any]]:
    host.http("GET", "/api/worlds")  # the server's player cookie, as a page gets it
    return [json.loads(host.frame(0, text)) for text in ASKED]


@pytest.fixture
def with_a_moves_query(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(service, "QUERIES", {"moves": moves_so_far})


@pytest.mark.usefixtures("with_a_moves_query")
def test_a_query_registered_in_the_play_service_is_answered_alike_by_both_hosts(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(db_path=tmp_path / "miau.db")) as client, ExitStack() as stack:
        on_the_server = replies(ServerHost(client, stack))
    on_the_site = replies(SiteHost())
    assert on_the_site == on_the_server
    assert on_the_server[0]["code"] == "no-game"
    assert on_the_server[3] == {"type": "moves", "seq": 3, "level": "first-steps", "moves": 1}
    assert on_the_server[4]["code"] == "unknown-type"
    assert '"moves"' in on_the_server[4]["message"]


def test_an_unknown_type_is_refused_naming_every_type_there_is() -> None:
    site = SiteHost()
    reply = json.loads(site.frame(0, json.dumps({"type": "dance", "seq": 3})))
    assert reply == {
        "type": "error",
        "seq": 3,
        "code": "unknown-type",
        "message": (
            'Unknown message type \'dance\'; the types are "open", "intent" and "winnable".'
        ),
    }
