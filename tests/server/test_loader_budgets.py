"""Loader work over HTTP has a budget: share codes, encodes and level saves are counted first.

Issue 50, item 1: a 943-character share code of 4,096 bad objects took the
loader half a second and was answered with a 940 KB list of problems;
``POST /api/shared/encode`` and ``PUT /api/library/.../levels/...`` loaded a
283 KB body of 64 levels of 64 x 64 before counting its levels; and all of
it ran on the default worker threads, with no parse budget. Each test here
failed before its fix. The loader is counted where each route calls it
(``miau.packs.share`` for links, ``miau.server.library`` for the rest), and
each call records whether it ran on the server's pack-parsing thread and
after the parse budget was drawn.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest

from miau.packs import Pack, load_pack
from miau.packs import share as share_module
from miau.packs.share import MAX_SHARED_ENTITIES, encode_share_code, share_code_for
from miau.play.problems import PROBLEMS_LISTED
from miau.play.worlds import Worlds
from miau.server import library as library_module
from miau.server.library import (
    MAX_PACK_ENTITIES,
    PARSE_ADDRESS_BURST,
    PARSE_ADDRESS_PER_SECOND,
    Library,
)
from miau.server.replays import pack_parse_limiter
from miau.server.shared import TOO_BIG_TO_SHARE
from miau.server.store import StoreRunner, open_store
from tests.server.conftest import PACKS, TestClient
from tests.support.loops import run_alone

SMALL_REPLY = 4096
"""Bytes a refusal's reply stays under, whatever the request held."""


@dataclass
class Loads:
    """What the loader was handed over HTTP, in order, among the parse budget's draws."""

    events: list[str] = field(default_factory=list)
    """``wait <cost>`` for each draw of the parse budget, ``load`` for each loader call."""
    off_the_parse_thread: int = 0
    """Loader calls that did not run on the server's pack-parsing thread."""

    @property
    def loads(self) -> int:
        return self.events.count("load")


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Loads]:
    """Count the loader's calls where the routes make them, and the parse budget's draws."""
    seen = Loads()

    def counted_load(document: Any) -> Pack:
        seen.events.append("load")
        # The parse thread's limiter has one place: taken while its thread runs.
        taken = anyio.from_thread.run_sync(lambda: pack_parse_limiter().borrowed_tokens)
        seen.off_the_parse_thread += taken != 1
        return load_pack(document)

    original_wait = Library.wait_to_parse

    async def counted_wait(self: Library, cost: int, address: str | None = None) -> None:
        seen.events.append(f"wait {cost}")
        await original_wait(self, cost, address)

    monkeypatch.setattr(share_module, "load_pack", counted_load)
    monkeypatch.setattr(library_module, "load_pack", counted_load)
    monkeypatch.setattr(Library, "wait_to_parse", counted_wait, raising=False)
    yield seen


def one_level_pack(objects: list[Any], *, levels: int = 1) -> dict[str, Any]:
    """A one-level pack (or ``levels`` copies of its level) of an 8 x 8 level holding ``objects``."""
    level = {"id": "l", "title": "L", "width": 8, "height": 8, "objects": objects}
    return {
        "manifest": {"id": "hostile", "name": "Hostile", "version": "1.0.0", "engine": 1},
        "levels": [{**level, "id": f"l{index}"} for index in range(levels)]
        if levels > 1
        else [level],
    }


BAD_OBJECT = {"kind": "object", "noun": "MIAU", "x": 99, "y": 99}
"""A thing off its 8 x 8 board: two problems for the loader, a few bytes for deflate."""


def walled_levels(levels: int, side: int = 64) -> dict[str, Any]:
    """The attack's body: ``levels`` levels of ``side`` x ``side``, every cell a wall (283 KB)."""
    rows = ["M=Y" + "#" * (side - 3)] + ["#" * side] * (side - 2) + ["c" + "#" * (side - 1)]
    legend = {"M": {"word": "MIAU"}, "=": {"word": "IS"}, "Y": {"word": "YOU"}}
    return {
        "manifest": {"id": "walls", "name": "Walls", "version": "1.0.0", "engine": 1},
        "levels": [
            {
                "id": f"level-{index}",
                "title": f"Level {index}",
                "width": side,
                "height": side,
                "map": rows,
                "legend": {**legend, "#": "WALL", "c": "MIAU"},
            }
            for index in range(levels)
        ],
    }


# --- share codes --------------------------------------------------------------------------


def test_a_short_share_code_of_thousands_of_bad_objects_is_refused_unloaded_in_a_small_reply(
    client: TestClient, loads: Loads
) -> None:
    code = encode_share_code(one_level_pack([BAD_OBJECT] * 4096))
    assert len(code) < 1000
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 400, reply.text
    assert "4,096 things and words" in reply.json()["error"]
    assert f"at most {MAX_SHARED_ENTITIES:,}" in reply.json()["error"]
    assert reply.json()["problems"] == []
    # It was a 940 KB list of 8,193 problems, after half a second of loading.
    assert len(reply.content) < SMALL_REPLY
    assert loads.loads == 0


def test_a_share_code_of_thousands_of_bad_values_is_refused_unloaded(
    client: TestClient, loads: Loads
) -> None:
    # No entity at all, 20,000 values and 30,000 problems: 400 ms of loading once.
    document = one_level_pack([])
    document["levels"][0]["automata"] = [{"id": 5}] * 10_000
    code = encode_share_code(document)
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 400, reply.text
    assert "16,384 values" in reply.json()["error"]
    assert len(reply.content) < SMALL_REPLY
    assert loads.loads == 0


def test_a_share_code_within_the_bounds_lists_its_first_problems_and_counts_the_rest(
    client: TestClient, loads: Loads
) -> None:
    code = encode_share_code(one_level_pack([BAD_OBJECT] * MAX_SHARED_ENTITIES))
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 400, reply.text
    body = reply.json()
    assert body["error"] == "This shared level cannot be played: it has 2,048 problems."
    assert len(body["problems"]) == PROBLEMS_LISTED
    assert body["problems"][0]["place"] == "levels[0].objects[0].x"
    assert body["moreProblems"] == 2 * MAX_SHARED_ENTITIES - PROBLEMS_LISTED
    assert len(reply.content) < SMALL_REPLY
    assert loads.loads == 1


def test_a_share_code_is_read_and_loaded_on_the_parse_thread_after_the_parse_budget(
    client: TestClient, loads: Loads
) -> None:
    code = share_code_for(load_pack(PACKS / "tutorial.json"), "first-steps")
    reply = client.post("/api/shared", json={"code": code})
    assert reply.status_code == 200, reply.text
    # Two draws: the JSON's reading (by its bytes), then the load (by its values).
    assert [event.split()[0] for event in loads.events] == ["wait", "wait", "load"]
    assert loads.off_the_parse_thread == 0


def test_a_request_to_open_a_link_is_capped_far_below_a_packs_body(client: TestClient) -> None:
    body = json.dumps({"code": "1" + "A" * 100_000})
    reply = client.post("/api/shared", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == 413, reply.text
    assert reply.json()["error"].startswith("This request is too large to hold a level link")


# --- encodes and level saves ------------------------------------------------------------------


def test_encoding_a_body_of_64_big_levels_is_refused_before_the_loader_runs(
    client: TestClient, loads: Loads
) -> None:
    document = walled_levels(64)
    assert len(json.dumps(document)) > 256 * 1024
    reply = client.post("/api/shared/encode", json={"pack": document})
    assert reply.status_code == 400, reply.text
    assert reply.json() == {
        "error": "A link carries exactly one level; this pack has 64.",
        "problems": [],
    }
    assert loads.loads == 0


def test_encoding_one_level_past_a_links_entity_bound_is_413_before_the_loader_runs(
    client: TestClient, loads: Loads
) -> None:
    # A level no link could open (4,096 walls) once loaded, then got a code that never opens.
    reply = client.post("/api/shared/encode", json={"pack": walled_levels(1)})
    assert reply.status_code == 413, reply.text
    assert reply.json() == {"error": TOO_BIG_TO_SHARE}
    assert loads.loads == 0


def test_encoding_a_level_is_loaded_on_the_parse_thread_after_the_parse_budget(
    client: TestClient, loads: Loads
) -> None:
    document = walled_levels(1, side=8)
    reply = client.post("/api/shared/encode", json={"pack": document})
    assert reply.status_code == 200, reply.text
    assert loads.events == ["wait 64", "load"]
    assert loads.off_the_parse_thread == 0


def test_saving_a_body_of_64_big_levels_as_a_level_is_refused_before_the_loader_runs(
    client: TestClient, loads: Loads, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    original_read = Library.wait_to_read

    async def counted_read(self: Library, declared: int) -> None:
        reads.append(declared)
        await original_read(self, declared)

    monkeypatch.setattr(Library, "wait_to_read", counted_read)
    body = json.dumps({"pack": walled_levels(64)})
    reply = client.put(
        "/api/library/mine/levels/level-0",
        content=body,
        headers={"content-type": "application/json"},
    )
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"] == (
        "A level is saved as a pack of exactly one level; this one has 64."
    )
    assert loads.loads == 0
    # The body took its turn for the upload budget before it was read, as an upload's does.
    assert reads == [len(body)]


def test_saving_a_level_loads_it_on_the_parse_thread_after_the_parse_budget(
    client: TestClient, loads: Loads
) -> None:
    document = walled_levels(1, side=8)
    reply = client.put("/api/library/mine/levels/level-0", json={"pack": document})
    assert reply.status_code == 200, reply.text
    # The level alone, then the pack it was merged into (loaded from its text).
    assert loads.events == ["wait 64", "load", "wait 64"]
    assert loads.off_the_parse_thread == 0


def test_a_level_saved_with_thousands_of_problems_lists_its_first_ones(
    client: TestClient, loads: Loads
) -> None:
    document = one_level_pack([BAD_OBJECT] * 4000)
    reply = client.put("/api/library/mine/levels/l", json={"pack": document})
    assert reply.status_code == 400, reply.text
    body = reply.json()
    assert body["error"] == "This level has 8000 problems."
    assert len(body["problems"]) == PROBLEMS_LISTED
    assert body["moreProblems"] == 8000 - PROBLEMS_LISTED
    assert len(reply.content) < SMALL_REPLY


# --- shares of the parse budget -----------------------------------------------------------------


def test_an_address_flooding_the_parse_budget_waits_behind_itself_and_anothers_small_work_passes(
    tmp_path: Path,
) -> None:
    # Issue 50: 2 addresses with 4 codes in flight each took an honest page's link from 0.24 s
    # to 5.6 s. All in flight at once: the clock stands still while they wait.
    now = [1000.0]
    waits: list[tuple[str, float]] = []
    current = ["flood"]

    async def recorded_sleep(seconds: float) -> None:
        waits.append((current[0], seconds))

    store = open_store(tmp_path / "budget.db")
    library = Library(
        Worlds.load(None), StoreRunner(store), clock=lambda: now[0], sleep=recorded_sleep
    )

    async def flood_and_link() -> None:
        for _ in range(8):
            await library.wait_to_parse(MAX_PACK_ENTITIES, "203.0.113.7")
        current[0] = "link"
        # An honest link: its JSON read, then its level loaded.
        await library.wait_to_parse(640, "198.51.100.2")
        await library.wait_to_parse(700, "198.51.100.2")
        current[0] = "unaddressed"
        await library.wait_to_parse(640)

    try:
        run_alone(flood_and_link())
    finally:
        store.close()
    flood = [seconds for who, seconds in waits if who == "flood"]
    # The flooder waits its own address's turn (a quarter of the budget), growing each time.
    own_share = PARSE_ADDRESS_BURST / PARSE_ADDRESS_PER_SECOND
    for turn in range(1, 8):
        assert any(seconds == pytest.approx(turn * own_share) for seconds in flood), flood
    assert len(flood) >= 8
    # The other address's small work is answered at once...
    assert [who for who, _ in waits].count("link") == 0
    # ...though the server's queue is long: work of no address waits it.
    unaddressed = [seconds for who, seconds in waits if who == "unaddressed"]
    assert unaddressed and unaddressed[0] > 5
