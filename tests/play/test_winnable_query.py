""" "Can I still win?" on both hosts: the play protocol's ``winnable`` query.

On First Steps' *Careful* two steps up lose the level for good (found by
``first_fatal_move``); one undo brings the game back to where it can be
won. Both hosts give the same replies, and none carries a move.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from miau.packs import load_pack
from miau.server.app import create_app
from miau.solver.winnable import first_fatal_move
from miau.worlds import shipped_pack_path
from tests.play.test_same_conversation import ServerHost, SiteHost
from tests.server.conftest import TestClient

LEVEL = "be-the-rock"


def conversation(fatal: str) -> list[str]:
    frames = [json.dumps({"type": "open", "pack": "tutorial", "level": LEVEL})]
    seq = 0

    def frame(message: dict[str, Any]) -> str:
        nonlocal seq
        seq += 1
        return json.dumps({**message, "seq": seq})

    frames.append(frame({"type": "winnable"}))
    letters = {"U": "up", "D": "down", "L": "left", "R": "right"}
    for letter in fatal:
        frames.append(frame({"type": "intent", "intent": "step", "direction": letters[letter]}))
    frames.append(frame({"type": "winnable"}))
    frames.append(frame({"type": "intent", "intent": "undo"}))
    frames.append(frame({"type": "winnable"}))
    return frames


def winnable_replies(host: ServerHost | SiteHost, frames: list[str]) -> list[dict[str, Any]]:
    host.http("GET", "/api/worlds")
    replies = [json.loads(host.frame(0, text)) for text in frames]
    return [reply for reply in replies if reply.get("type") == "winnable"]


def test_after_a_fatal_move_both_hosts_say_not_winnable_and_the_undos_back(
    tmp_path: Path,
) -> None:
    level = load_pack(shipped_pack_path("tutorial")).level(LEVEL)
    assert level.solution is not None
    fatal = first_fatal_move(level.data, level.solution)
    assert fatal is not None and set(fatal) <= set("UDLR")
    frames = conversation(fatal)
    with TestClient(create_app(db_path=tmp_path / "miau.db")) as client, ExitStack() as stack:
        on_the_server = winnable_replies(ServerHost(client, stack), frames)
    on_the_site = winnable_replies(SiteHost(), frames)
    assert on_the_site == on_the_server
    before, after_the_fatal_move, after_one_undo = on_the_server
    assert before["verdict"] == "winnable"
    assert before["message"] == "Still winnable."
    assert after_the_fatal_move["verdict"] == "not-winnable"
    assert after_the_fatal_move["undosBack"] == 1
    assert after_the_fatal_move["message"] == "Not winnable any more: undo 1 move to get back."
    assert after_one_undo["verdict"] == "winnable"
    for reply in on_the_server:
        assert set(reply) == {"type", "seq", "verdict", "undosBack", "won", "message"}


def test_asking_before_any_level_is_open_is_refused_as_no_game() -> None:
    reply = json.loads(SiteHost().frame(0, json.dumps({"type": "winnable", "seq": 1})))
    assert reply["type"] == "error"
    assert reply["code"] == "no-game"


def test_a_search_past_its_budget_answers_too_large_to_tell(monkeypatch: Any) -> None:
    import miau.play.winnable as winnable

    monkeypatch.setattr(winnable, "WINNABLE_EXPANSIONS", 1)
    site = SiteHost()
    site.frame(0, json.dumps({"type": "open", "pack": "tutorial", "level": "spell-it"}))
    # Two steps off the stored solution's line (it starts up), so no state one
    # move away is on it and the witness cannot answer within one expansion.
    for seq, direction in enumerate(("left", "down"), start=1):
        step = {"type": "intent", "seq": seq, "intent": "step", "direction": direction}
        site.frame(0, json.dumps(step))
    reply = json.loads(site.frame(0, json.dumps({"type": "winnable", "seq": 3})))
    assert reply["verdict"] == "unknown"
    assert reply["undosBack"] is None
    assert reply["message"] == "Too large to tell: the search ran out of time."


def test_the_server_answers_queries_one_at_a_time_however_many_sockets_ask(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import threading
    import time

    from miau.play import service

    running = 0
    most = 0
    guard = threading.Lock()

    def slow_answer(game: Any, query: Any) -> dict[str, Any]:
        nonlocal running, most
        with guard:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with guard:
            running -= 1
        return {"type": "winnable", "seq": query.seq}

    monkeypatch.setattr(service, "QUERIES", {"winnable": slow_answer})
    opening = json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"})
    with TestClient(create_app(db_path=tmp_path / "miau.db")) as client, ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(4)]
        for socket in sockets:
            socket.send_text(opening)
            socket.receive_json()
        for socket in sockets:
            socket.send_text(json.dumps({"type": "winnable", "seq": 1}))
        replies = [socket.receive_json() for socket in sockets]
    assert replies == [{"type": "winnable", "seq": 1}] * 4
    assert most == 1
