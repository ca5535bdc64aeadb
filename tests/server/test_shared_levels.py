"""Shared levels: POST /api/shared and /api/shared/encode, and playing a share code over /ws.

Every bad code gets a 400 (or an error frame) with the codec's sentence,
never a 500, and nothing is stored by looking at a code.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from miau.packs import load_pack
from miau.packs.share import (
    MAX_CODE_LENGTH,
    decode_share_code,
    encode_share_code,
    share_code_for,
    share_content_key,
    single_level_pack,
)
from miau.server.shared import TOO_BIG_TO_SHARE
from tests.server.conftest import PACKS, Player, TestClient, count_rows, pack_json

TABLES = ("games", "intents", "progress", "library")


def shipped(pack_id: str) -> Any:
    """A shipped pack, loaded."""
    return load_pack(PACKS / f"{pack_id}.json")


def good_code() -> str:
    """The share code of the first level of the tutorial."""
    return share_code_for(shipped("tutorial"), "first-steps")


def tampered(code: str) -> str:
    """The code with one character in its middle changed."""
    middle = len(code) // 2
    return code[:middle] + ("A" if code[middle] != "A" else "B") + code[middle + 1 :]


def bomb() -> str:
    """A well-formed code whose stream inflates to a mebibyte (past the cap)."""
    stream = zlib.compress(b"0" * (1 << 20), 9)
    return "1" + base64.urlsafe_b64encode(stream).rstrip(b"=").decode("ascii")


def rows(db_path: Path) -> dict[str, int]:
    """How many rows each table of games, progress and libraries holds."""
    return {table: count_rows(db_path, table) for table in TABLES}


def solution(pack_id: str, level_id: str) -> str:
    """A shipped level's stored solution."""
    level = next(each for each in pack_json(pack_id)["levels"] if each["id"] == level_id)
    return str(level["solution"])


def test_a_good_code_gives_the_world_the_level_and_the_pack_and_stores_nothing(
    client: TestClient, db_path: Path
) -> None:
    before = rows(db_path)
    code = good_code()
    reply = client.post("/api/shared", json={"code": f"http://example.org/#/shared/{code}"})
    assert reply.status_code == 200, reply.text
    assert reply.headers["cache-control"] == "no-store"
    body = reply.json()
    pack = decode_share_code(code)
    key = share_content_key(pack)
    assert body["world"]["id"] == key and body["world"]["shared"] is True
    assert body["world"]["name"] == "First Steps"
    assert [level["id"] for level in body["world"]["levels"]] == ["first-steps"]
    assert body["level"]["pack"] == key and body["level"]["id"] == "first-steps"
    assert body["level"]["next"] is None
    assert body["level"]["objects"] == pack.levels[0].data["objects"]
    assert load_pack(body["pack"]) == pack
    assert rows(db_path) == before


@pytest.mark.parametrize(
    ("name", "code", "sentence"),
    [
        ("tampered", tampered(good_code()), "This link is damaged"),
        ("truncated", good_code()[:-5], "This link is"),
        ("bomb", bomb(), "too big"),
        ("oversized", "1" + "A" * (MAX_CODE_LENGTH + 10), "too long"),
        ("empty", "", "holds no level"),
        ("not base64url", "1abc$def", "damaged"),
        ("newer format", "2abcdef", "newer Miau"),
    ],
)
def test_a_bad_code_is_400_with_the_links_sentence_and_stores_nothing(
    client: TestClient, db_path: Path, name: str, code: str, sentence: str
) -> None:
    before = rows(db_path)
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 400, reply.text
    assert sentence in reply.json()["error"]
    assert reply.json()["problems"] == []
    assert rows(db_path) == before


def test_a_code_whose_level_the_loader_refuses_lists_its_problems(client: TestClient) -> None:
    document = single_level_pack(shipped("tutorial"), "first-steps")
    document["levels"][0]["objects"][0]["x"] = 40
    compact = json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    code = "1" + base64.urlsafe_b64encode(zlib.compress(compact, 9)).rstrip(b"=").decode()
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 400
    assert reply.json()["error"].startswith("This shared level cannot be played")
    assert reply.json()["problems"][0]["place"] == "levels[0].objects[0].x"


def test_encoding_a_one_level_pack_gives_a_code_and_link_that_decode_back_to_it(
    client: TestClient,
) -> None:
    document = single_level_pack(shipped("clockwork"), "mouse-keeps-time")
    reply = client.post(
        "/api/shared/encode", json={"pack": document}, headers={"host": "miau.test:9000"}
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["link"] == f"http://miau.test:9000/#/shared/{body['code']}"
    assert decode_share_code(body["code"]) == load_pack(document)
    assert decode_share_code(body["link"]) == load_pack(document)
    opened = client.post("/api/shared", json={"code": body["link"]}).json()
    assert load_pack(opened["pack"]) == load_pack(document)


def test_encoding_a_broken_pack_is_400_with_its_problems(client: TestClient) -> None:
    document = single_level_pack(shipped("tutorial"), "first-steps")
    document["levels"][0]["width"] = "wide"
    reply = client.post("/api/shared/encode", json={"pack": document})
    assert reply.status_code == 400
    assert reply.json()["error"].startswith("This level has")
    assert reply.json()["problems"][0]["place"] == "levels[0].width"
    two = pack_json("tutorial")
    reply = client.post("/api/shared/encode", json={"pack": two})
    assert reply.status_code == 400
    assert "exactly one level" in reply.json()["error"]


def test_encoding_a_level_too_big_for_a_link_is_413(client: TestClient) -> None:
    document = single_level_pack(shipped("tutorial"), "first-steps")
    level = document["levels"][0]
    nouns = sorted({each["noun"] for each in level["objects"] if each["kind"] == "object"})
    scatter = random.Random(8)
    level.update(width=64, height=64)
    level["objects"] += [
        {
            "kind": "object",
            "noun": scatter.choice(nouns),
            "x": scatter.randrange(64),
            "y": scatter.randrange(64),
        }
        for _ in range(3500)
    ]
    assert len(encode_share_code(document)) > MAX_CODE_LENGTH
    reply = client.post("/api/shared/encode", json={"pack": document})
    assert reply.status_code == 413, reply.text[:300]
    assert reply.json() == {"error": TOO_BIG_TO_SHARE}


def test_a_shared_level_is_played_stored_under_its_share_key_and_resumed_with_its_moves(
    client: TestClient, db_path: Path
) -> None:
    code = good_code()
    key = share_content_key(decode_share_code(code))
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.send({"type": "open", "share": code, "seq": 3})
        assert opened["type"] == "opened", opened
        assert (opened["pack"], opened["level"], opened["resumed"], opened["seq"]) == (
            key,
            "first-steps",
            False,
            3,
        )
        player.moves("RR")
    assert count_rows(db_path, "intents") == 2
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        # A whole link opens the same game.
        opened = player.send({"type": "open", "share": f"http://x/#/shared/{code}"})
        assert opened["resumed"] is True
        assert opened["state"]["moveCount"] == 2
        assert opened["state"]["historyLength"] == 2
        replies = player.moves(solution("tutorial", "first-steps")[2:])
    assert replies[-1]["progress"] == {"won": True, "bestMoves": 6}
    progress = client.get("/api/progress").json()["levels"]
    assert [(entry["pack"], entry["level"]) for entry in progress] == [(key, "first-steps")]
    # The shipped level is a different game: its progress is untouched.
    world = client.post("/api/shared", json={"code": code}).json()["world"]
    assert world["levels"][0]["won"] is True and world["levels"][0]["bestMoves"] == 6
    assert client.get("/api/worlds/tutorial").json()["levels"][0]["won"] is False


def test_a_bad_share_code_is_an_error_frame_and_the_connection_keeps_working(
    client: TestClient, db_path: Path
) -> None:
    before = rows(db_path)
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("tutorial", "first-steps")
        for code in (tampered(good_code()), bomb(), "1" + "A" * (MAX_CODE_LENGTH + 1)):
            reply = player.send({"type": "open", "share": code, "seq": 9})
            assert reply["type"] == "error" and reply["code"] == "bad-message", reply
            assert reply["seq"] == 9
            assert reply["message"].startswith("This link")
        reply = player.send({"type": "open", "share": 5})
        assert reply["code"] == "bad-message"
        # The level open before the bad opens is still the one played.
        assert player.step("right")["state"]["moveCount"] == 1
    after = rows(db_path)
    assert after["intents"] == before["intents"] + 1
    assert after["progress"] == before["progress"]
