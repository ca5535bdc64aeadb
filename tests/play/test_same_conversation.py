"""One scripted conversation, held with both hosts of the play service: the replies are the same.

The server (``miau play``'s app, through Starlette's test client, on a fresh
SQLite file) and the static site's in-page host (:class:`SiteBackend`, on
CPython) are sent the same play frames and HTTP requests, in the same order:
opening a level, moves, an undo, a restart, a restore (with a field the
engine does not read, which both drop), bad messages, a second page that
catches up with the first, a win, share links encoded, decoded and opened,
and a library pack saved, listed, opened and deleted.

Each reply is compared byte for byte, encoded as the server sends it
(compact JSON). Nothing is normalised: the site is given the server's
address as its base, so share links agree; the only host-specific parts
are the transport (a WebSocket and HTTP responses on one side, the
``{"reply"|"body", "writes"}`` wrapper on the other, unwrapped here) and
what the site writes to IndexedDB, which the server has no counterpart of.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from miau.server.app import create_app
from miau.site.backend import SiteBackend
from tests.server.conftest import TestClient
from tests.support.local import shipped_solution

SERVER_ORIGIN = "http://testserver"
"""Where Starlette's test client sends its requests (share links lead there)."""

PACK, LEVEL = "tutorial", "first-steps"

Step = tuple[str, ...]


def wire(reply: Any) -> str:
    """A reply as the server puts it on the wire: compact JSON."""
    return json.dumps(reply, separators=(",", ":"))


class ServerHost:
    """The server, through the test client: two play sockets (two pages) and the HTTP API."""

    def __init__(self, client: TestClient, stack: ExitStack) -> None:
        self.client = client
        self.stack = stack
        self.pages: dict[int, Any] = {}

    def frame(self, page: int, text: str) -> str:
        if page not in self.pages:
            # Connected after the first HTTP request: both pages carry its player cookie.
            self.pages[page] = self.stack.enter_context(self.client.websocket_connect("/ws"))
        self.pages[page].send_text(text)
        answer: str = self.pages[page].receive_text()
        return answer

    def http(self, method: str, path: str, body: Any = None) -> tuple[int, str]:
        response = self.client.request(method, path, json=body)
        return response.status_code, wire(response.json())


class SiteHost:
    """The static site's host: two backends (two tabs) sharing their writes, as the worker does."""

    def __init__(self) -> None:
        self.tabs = [SiteBackend(base=SERVER_ORIGIN) for _ in range(2)]

    def _share_writes(self, writer: int, writes: list[Any]) -> None:
        # The worker tells the browser's other tabs what it stored (a BroadcastChannel).
        for index, tab in enumerate(self.tabs):
            if index != writer and writes:
                tab.apply_records(json.dumps(writes))

    def frame(self, page: int, text: str) -> str:
        answer = json.loads(self.tabs[page].frame(text))
        self._share_writes(page, answer["writes"])
        return wire(answer["reply"])

    def http(self, method: str, path: str, body: Any = None) -> tuple[int, str]:
        answer = json.loads(
            self.tabs[0].http(method, path, None if body is None else json.dumps(body))
        )
        self._share_writes(0, answer["writes"])
        return answer["status"], wire(answer["body"])


Host = ServerHost | SiteHost


def intent(seq: int, kind: str, **fields: Any) -> str:
    return json.dumps({"type": "intent", "seq": seq, "intent": kind, **fields})


LETTERS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def moves(first_seq: int, letters: str) -> list[str]:
    """The intent frames of a move string."""
    return [
        intent(first_seq + index, "wait")
        if letter == "W"
        else intent(first_seq + index, "step", direction=LETTERS[letter])
        for index, letter in enumerate(letters)
    ]


def conversation(host: Host) -> Iterator[tuple[str, str]]:
    """Hold the scripted conversation with ``host``: (what was asked, the reply) in order."""

    def frame(page: int, text: str) -> tuple[str, str]:
        return f"page {page}: {text[:120]}", host.frame(page, text)

    def http(method: str, path: str, body: Any = None) -> tuple[str, str]:
        status, answer = host.http(method, path, body)
        return f"{method} {path}", f"{status} {answer}"

    opening = json.dumps({"type": "open", "pack": PACK, "level": LEVEL, "seq": 0})
    yield http("GET", "/api/worlds")
    yield http("GET", f"/api/worlds/{PACK}")
    yield http("GET", f"/api/worlds/{PACK}/levels/{LEVEL}")
    yield http("GET", "/api/vocabularies")
    yield http("GET", "/api/worlds/no-such-world")
    yield http("GET", "/api/nothing-here")
    yield frame(0, intent(1, "wait"))  # before any open: no-game
    yield frame(0, opening)
    opened_state = json.loads(host.frame(0, opening))["state"]
    yield frame(0, intent(1, "step", direction="right"))
    yield frame(0, intent(2, "step", direction="right"))
    yield frame(0, intent(3, "wait"))
    yield frame(0, intent(4, "undo"))
    yield frame(0, intent(5, "step", direction="sideways"))  # no engine knows it: refused
    yield frame(0, intent(6, "reset"))
    yield frame(0, intent(7, "step", direction="down"))
    # A restore of the opening board, with a field the engine does not read: dropped.
    yield frame(0, intent(8, "restore", state={**opened_state, "extra": "x" * 64}))
    yield frame(0, intent(9, "restore", state={**opened_state, "moveCount": 10**12}))
    yield frame(0, intent(10, "restore", state=[]))
    yield frame(0, "this is not JSON")
    yield frame(0, json.dumps({"type": "intent", "seq": 11, "intent": "fly"}))
    yield frame(0, json.dumps({"type": "open", "pack": PACK, "level": "no-such-level"}))
    yield frame(0, opening)  # resumes the game just played
    # A second page opens the same level and moves on; the first catches up before its move.
    yield frame(1, opening)
    yield frame(1, intent(1, "step", direction="left"))
    yield frame(1, intent(2, "wait"))
    yield frame(0, intent(12, "wait"))
    # The first page wins from the start; the level's best score is kept.
    yield frame(0, intent(13, "reset"))
    for text in moves(14, shipped_solution(PACK, LEVEL)):
        yield frame(0, text)
    yield http("GET", "/api/progress")
    yield frame(0, opening)  # a won game is finished: the level starts afresh
    # Share links: the level as a one-level pack, encoded, decoded and opened.
    status, level_pack = host.http("GET", f"/api/worlds/{PACK}/levels/{LEVEL}/pack")
    yield f"GET {LEVEL} pack", f"{status} {level_pack}"
    one_level = json.loads(level_pack)["pack"]
    status, encoded = host.http("POST", "/api/shared/encode", {"pack": one_level})
    yield "POST /api/shared/encode", f"{status} {encoded}"
    code = json.loads(encoded)["code"]
    yield http("POST", "/api/shared", {"code": code})
    yield http("POST", "/api/shared", {"code": "not a code"})
    yield http("POST", "/api/shared", {})
    yield frame(0, json.dumps({"type": "open", "share": code, "seq": 30}))
    yield frame(0, intent(31, "step", direction="right"))
    yield frame(0, json.dumps({"type": "open", "share": "garbage!", "seq": 32}))
    yield frame(0, json.dumps({"type": "open", "draft": one_level, "seq": 33}))
    yield frame(0, intent(34, "step", direction="right"))
    yield frame(0, json.dumps({"type": "open", "draft": {"levels": []}, "seq": 35}))
    # A library pack: saved from the editor, listed, opened as a world, played, deleted.
    yield http("PUT", f"/api/library/my-pack/levels/{LEVEL}", {"pack": one_level})
    yield http("PUT", f"/api/library/my-pack/levels/{LEVEL}", {"pack": []})
    yield http("PUT", "/api/library/my-pack/levels/another-id", {"pack": one_level})
    yield http("PUT", f"/api/library/{PACK}/levels/{LEVEL}", {"pack": one_level})
    yield http("PUT", f"/api/library/share-x/levels/{LEVEL}", {"pack": one_level})
    yield http("GET", "/api/library")
    yield http("GET", "/api/worlds/my-pack")
    yield http("GET", f"/api/worlds/my-pack/levels/{LEVEL}")
    yield frame(0, json.dumps({"type": "open", "pack": "my-pack", "level": LEVEL, "seq": 40}))
    yield frame(0, intent(41, "step", direction="right"))
    text = json.dumps({**one_level, "manifest": {**one_level["manifest"], "id": "my-pack"}})
    yield http("POST", "/api/library", {"text": text})  # there already: asks to replace
    yield http("POST", "/api/library", {"text": 5})
    yield http("POST", "/api/library", {"text": "{}"})
    yield http("DELETE", "/api/library/my-pack")
    yield http("DELETE", "/api/library/my-pack")
    yield http("GET", "/api/library")


@pytest.fixture
def server_transcript(tmp_path: Path) -> list[tuple[str, str]]:
    with TestClient(create_app(db_path=tmp_path / "miau.db")) as client, ExitStack() as stack:
        return list(conversation(ServerHost(client, stack)))


def test_the_server_and_the_static_site_answer_one_conversation_byte_for_byte(
    server_transcript: list[tuple[str, str]],
) -> None:
    site_transcript = list(conversation(SiteHost()))
    assert len(site_transcript) == len(server_transcript) > 60
    for (asked, server_reply), (_, site_reply) in zip(
        server_transcript, site_transcript, strict=True
    ):
        assert site_reply == server_reply, asked


def test_the_conversation_reaches_every_kind_of_reply(
    server_transcript: list[tuple[str, str]],
) -> None:
    frames = [json.loads(reply) for _, reply in server_transcript if reply.startswith("{")]
    statuses = {reply.split(" ", 1)[0] for _, reply in server_transcript if reply[:1].isdigit()}
    assert {frame["type"] for frame in frames} == {"opened", "result", "error"}
    assert {"no-game", "bad-message", "not-found"} <= {frame.get("code") for frame in frames}
    assert {"200", "400", "404", "409"} <= statuses
    assert any((frame.get("progress") or {}).get("won") for frame in frames)
    assert any(frame.get("resumed") for frame in frames)
    assert any(frame.get("draft") for frame in frames)
