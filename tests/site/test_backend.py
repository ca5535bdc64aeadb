"""The static site's in-page backend, run here on CPython: the same answers as the server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from miau.site.backend import PROGRESS_FORMAT, SiteBackend
from tests.support.local import shipped_solution

DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def frame(backend: SiteBackend, message: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    answer = json.loads(backend.frame(json.dumps(message)))
    return answer["reply"], answer["writes"]


def intent(letter: str, seq: int) -> dict[str, Any]:
    if letter == "W":
        return {"type": "intent", "seq": seq, "intent": "wait"}
    if letter == "Z":
        return {"type": "intent", "seq": seq, "intent": "undo"}
    return {"type": "intent", "seq": seq, "intent": "step", "direction": DIRECTIONS[letter]}


def http(backend: SiteBackend, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    answer = json.loads(backend.http(method, path, None if body is None else json.dumps(body)))
    return answer["status"], answer["body"]


def stored(records: list[Any]) -> str:
    """The records as the worker passes them back on the next page load."""
    kept: dict[str, Any] = {}
    for key, value in records:
        kept[json.dumps(key)] = value
    return json.dumps(
        [[json.loads(key), value] for key, value in kept.items() if value is not None]
    )


def test_every_intent_is_written_before_its_reply_and_a_reload_resumes_with_undo() -> None:
    backend = SiteBackend()
    frame(backend, {"type": "open", "seq": 1, "pack": "tutorial", "level": "walls"})
    records: list[Any] = []
    states = []
    for seq, letter in enumerate("RRZRD", start=2):
        reply, writes = frame(backend, intent(letter, seq))
        assert reply["event"]["accepted"]
        assert writes, f"intent {letter} carried no record to store"
        records.extend(writes)
        states.append(reply["state"])

    reloaded = SiteBackend()
    reloaded.restore(stored(records))
    opened, _ = frame(reloaded, {"type": "open", "seq": 1, "pack": "tutorial", "level": "walls"})
    assert opened["resumed"] is True
    assert opened["state"] == states[-1]
    undone, _ = frame(reloaded, intent("Z", 2))
    assert undone["state"]["entities"] == states[-2]["entities"]


@pytest.mark.parametrize("pack", ["tutorial", "clockwork"])
def test_playing_each_stored_solution_wins_and_records_the_best_moves(pack: str) -> None:
    backend = SiteBackend()
    _, world = http(backend, "GET", f"/api/worlds/{pack}")
    for level in world["levels"]:
        solution = shipped_solution(pack, level["id"])
        frame(backend, {"type": "open", "seq": 1, "pack": pack, "level": level["id"]})
        reply: dict[str, Any] = {}
        for seq, letter in enumerate(solution, start=2):
            reply, _ = frame(backend, intent(letter, seq))
        assert reply["progress"] == {"won": True, "bestMoves": len(solution)}, level["id"]
    _, progress = http(backend, "GET", "/api/progress")
    assert len(progress["levels"]) == len(world["levels"])


def test_a_refused_import_stores_nothing_and_a_good_one_lists_the_pack() -> None:
    backend = SiteBackend()
    answer = json.loads(backend.http("POST", "/api/library", json.dumps({"text": "{"})))
    assert answer["status"] == 400
    assert answer["writes"] == [] and "problems" in answer["body"]
    _, one = http(backend, "GET", "/api/worlds/tutorial/levels/first-steps/pack")
    pack = one["pack"]
    pack["manifest"]["id"] = "mine"
    status, body = http(backend, "POST", "/api/library", {"text": json.dumps(pack)})
    assert status == 200 and body["pack"]["id"] == "mine"
    status, body = http(backend, "POST", "/api/library", {"text": json.dumps(pack)})
    assert status == 409 and body["code"] == "exists"
    _, listed = http(backend, "GET", "/api/library")
    assert [each["id"] for each in listed["packs"]] == ["mine"]


def test_a_share_code_made_in_the_page_opens_in_the_page_under_the_given_address() -> None:
    backend = SiteBackend()
    _, one = http(backend, "GET", "/api/worlds/tutorial/levels/walls/pack")
    status, encoded = http(
        backend,
        "POST",
        "/api/shared/encode",
        {"pack": one["pack"], "base": "https://h.example/miau/"},
    )
    assert status == 200
    assert encoded["link"] == f"https://h.example/miau/#/shared/{encoded['code']}"
    status, shared = http(backend, "POST", "/api/shared", {"code": encoded["link"]})
    assert status == 200 and shared["level"]["id"] == "walls"
    opened, _ = frame(backend, {"type": "open", "seq": 1, "share": encoded["code"]})
    assert opened["pack"].startswith("share-")


def test_progress_exported_imports_into_a_fresh_browser_with_the_same_games_and_scores() -> None:
    backend = SiteBackend()
    frame(backend, {"type": "open", "seq": 1, "pack": "tutorial", "level": "first-steps"})
    for seq, letter in enumerate("RRRRRR", start=2):
        frame(backend, intent(letter, seq))
    frame(backend, {"type": "open", "seq": 9, "pack": "tutorial", "level": "walls"})
    frame(backend, intent("R", 10))
    _, exported = http(backend, "GET", "/api/progress/export")
    assert exported["format"] == PROGRESS_FORMAT

    other = SiteBackend()
    status, counts = http(other, "POST", "/api/progress/import", exported)
    assert status == 200 and counts == {"games": 1, "progress": 1, "library": 0}
    assert http(other, "GET", "/api/progress") == http(backend, "GET", "/api/progress")
    assert http(other, "GET", "/api/progress/export")[1] == exported


def test_a_progress_file_that_is_not_one_is_refused_and_changes_nothing() -> None:
    backend = SiteBackend()
    for bad in (
        {"format": "nope"},
        {"format": PROGRESS_FORMAT, "version": 1, "games": [{"pack": 1}]},
    ):
        answer = json.loads(backend.http("POST", "/api/progress/import", json.dumps(bad)))
        assert answer["status"] == 400 and answer["writes"] == []
    assert http(backend, "GET", "/api/progress")[1] == {"levels": []}


def test_a_move_made_in_another_tab_is_where_this_tab_plays_on() -> None:
    first, second = SiteBackend(), SiteBackend()
    for tab in (first, second):
        frame(tab, {"type": "open", "seq": 1, "pack": "tutorial", "level": "walls"})
    _, writes = frame(first, intent("R", 2))
    reply_first, writes_more = frame(first, intent("R", 3))

    second.apply_records(json.dumps(writes + writes_more))
    reply, written = frame(second, intent("Z", 2))

    # The undo applies to the two moves the other tab made, as the server replays a stored game.
    assert reply["state"]["moveCount"] == 1
    assert written == [[["game", "tutorial", "walls"], ["R", "R", "Z"]]]
    assert reply_first["state"]["moveCount"] == 2
