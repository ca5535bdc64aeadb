"""Test-play of the editor's draft over /ws: played in memory, never stored.

``{"type": "open", "draft": <one-level pack>}`` plays the draft through the
same engine as any level; no game, intent or progress row is written, and a
broken draft is an error frame on a connection that keeps working.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from miau.packs import load_pack
from miau.packs.share import single_level_pack
from tests.server.conftest import PACKS, Player, TestClient, count_rows, pack_json

TABLES = ("games", "intents", "progress", "library")


def draft(pack_id: str, level_id: str) -> dict[str, Any]:
    """A shipped level as the editor holds it: a one-level pack."""
    return single_level_pack(load_pack(PACKS / f"{pack_id}.json"), level_id)


def solution(pack_id: str, level_id: str) -> str:
    """A shipped level's stored solution."""
    level = next(each for each in pack_json(pack_id)["levels"] if each["id"] == level_id)
    return str(level["solution"])


def rows(db_path: Path) -> dict[str, int]:
    """How many rows each table of games, progress and libraries holds."""
    return {table: count_rows(db_path, table) for table in TABLES}


def test_a_draft_plays_to_a_win_from_its_solution_and_nothing_is_stored(
    client: TestClient, db_path: Path
) -> None:
    before = rows(db_path)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.send(
            {"type": "open", "draft": draft("clockwork", "mouse-keeps-time"), "seq": 1}
        )
        assert opened["type"] == "opened", opened
        assert opened["pack"] is None and opened["draft"] is True
        assert (opened["level"], opened["resumed"], opened["seq"]) == ("mouse-keeps-time", False, 1)
        assert opened["state"]["automata"]
        replies = player.moves(solution("clockwork", "mouse-keeps-time"))
        assert replies[-1]["event"]["won"] is True
        assert replies[-1]["state"]["won"] is True
        assert all(reply["progress"] is None for reply in replies)
        # Undo and reset work on a draft as on any level.
        assert player.intent("undo")["event"]["accepted"] is True
        assert player.intent("reset")["state"]["moveCount"] == 0
        # Opening it again starts afresh: nothing was kept.
        again = player.send({"type": "open", "draft": draft("clockwork", "mouse-keeps-time")})
        assert again["resumed"] is False and again["state"]["moveCount"] == 0
    assert rows(db_path) == before
    assert client.get("/api/progress").json() == {"levels": []}


def test_a_broken_draft_is_an_error_frame_listing_its_first_problems_and_play_goes_on(
    client: TestClient, db_path: Path
) -> None:
    broken = draft("tutorial", "first-steps")
    for index in range(5):
        broken["levels"][0]["objects"][index]["x"] = 99
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.send({"type": "open", "draft": draft("tutorial", "first-steps")})
        player.step("right")
        reply = player.send({"type": "open", "draft": broken, "seq": 4})
        assert reply["type"] == "error" and reply["code"] == "bad-message", reply
        assert reply["seq"] == 4
        message = reply["message"]
        assert message.startswith("This draft cannot be played: it has 5 problems: ")
        assert "levels[0].objects[0].x: " in message and message.endswith("and 2 more.")
        # The draft open before is still being played.
        assert player.step("right")["state"]["moveCount"] == 2
    assert rows(db_path)["games"] == 0


def test_a_draft_of_several_levels_or_not_an_object_is_refused(client: TestClient) -> None:
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        reply = player.send({"type": "open", "draft": pack_json("tutorial")})
        assert reply["code"] == "bad-message"
        assert "exactly one level" in reply["message"]
        not_objects: list[object] = ["pack", 5, None, []]
        for value in not_objects:
            reply = player.send({"type": "open", "draft": value})
            assert reply["code"] == "bad-message"
        reply = player.raw(json.dumps({"type": "open", "draft": {}, "seq": "x"}))
        assert reply["code"] == "bad-message"
        assert player.send({"type": "intent", "seq": 1, "intent": "wait"})["code"] == "no-game"


def test_a_draft_bigger_than_a_frame_is_too_large(client: TestClient) -> None:
    big = draft("tutorial", "first-steps")
    big["levels"][0]["hint"] = "x" * 70_000
    with client.websocket_connect("/ws") as socket:
        reply = Player(socket).send({"type": "open", "draft": big})
    assert reply["code"] == "too-large"
