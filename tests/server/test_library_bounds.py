"""What a library may cost: entities per pack, listings without parsing, the cache, quotas.

Through the real app on SQLite (listings, the entity bound) and through a
:class:`~miau.server.library.Library` on a real store (quotas), on SQLite
and on a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette

from miau.packs import load_pack_text
from miau.play.refusal import Refusal
from miau.play.worlds import PackSummary, Worlds
from miau.server import library as library_module
from miau.server.app import create_app
from miau.server.library import (
    MAX_PACK_ENTITIES,
    Library,
    LibraryQuota,
    _ParsedPacks,
    pack_entity_count,
)
from miau.server.store import LibraryUsage, StoreRunner, open_store, stored_size
from tests.server.conftest import TestClient
from tests.support.loops import run_alone

LEGEND = {
    "M": {"word": "MIAU"},
    "=": {"word": "IS"},
    "Y": {"word": "YOU"},
    "#": "WALL",
    "c": "MIAU",
}


def counted_size(text: str) -> int:
    """What the library quotas count for the pack ``text``: its row's texts, summary included."""
    pack = load_pack_text(text)
    summary = PackSummary.of(pack).to_text()
    return stored_size(pack.manifest.id, pack.manifest.version, pack.manifest.name, text, summary)


def walled_pack(pack_id: str, levels: int, side: int = 8, *, name: str = "Walls") -> str:
    """A valid pack of ``levels`` levels, each a ``side`` x ``side`` map with every cell filled."""
    rows = ["M=Y" + "#" * (side - 3)] + ["#" * side] * (side - 2) + ["c" + "#" * (side - 1)]
    document = {
        "manifest": {"id": pack_id, "name": name, "version": "1.0.0", "engine": 1},
        "palette": {"WALL": {"glyph": "#"}, "MIAU": {"glyph": "c"}},
        "levels": [
            {
                "id": f"level-{index}",
                "title": f"Level {index}",
                "tier": "required" if index % 2 == 0 else "optional",
                "width": side,
                "height": side,
                "map": rows,
                "legend": LEGEND,
            }
            for index in range(levels)
        ],
    }
    return json.dumps(document)


@pytest.fixture
def counted_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every pack text the library hands the loader, by its length."""
    parsed: list[int] = []

    def counting(text: str) -> Any:
        parsed.append(len(text))
        return load_pack_text(text)

    monkeypatch.setattr(library_module, "load_pack_text", counting)
    return parsed


def import_pack(client: TestClient, text: str, *, replace: bool = False) -> Any:
    return client.post("/api/library", json={"text": text, "replace": replace})


# --- the entity bound ------------------------------------------------------------------------


def test_the_entity_count_of_a_document_is_the_loaders_count_of_map_cells_and_objects() -> None:
    text = walled_pack("walls", 3, side=8)
    assert pack_entity_count(json.loads(text)) == 3 * 64
    pack = load_pack_text(text)
    assert sum(len(level.data["objects"]) for level in pack.levels) == 3 * 64
    assert pack_entity_count({"levels": [{"map": [" . #", 7], "objects": [{}, {}]}, 3]}) == 3
    assert pack_entity_count([1, 2]) == 0


def test_a_pack_past_the_entity_bound_is_413_before_the_loader_runs_and_stores_nothing(
    client: TestClient, counted_parses: list[int]
) -> None:
    # The attack: 64 levels of 64 x 64 cells, every cell filled (262,144 entities, 283 KiB).
    reply = import_pack(client, walled_pack("heavy", 64, side=64))
    assert reply.status_code == 413, reply.text
    assert reply.json()["code"] == "too-costly"
    assert f"{64 * 64 * 64:,} entities" in reply.json()["error"]
    assert counted_parses == []
    assert client.get("/api/library").json() == {"packs": []}


def test_a_pack_at_the_entity_bound_is_taken_and_one_past_it_is_not(client: TestClient) -> None:
    at_bound = walled_pack("full", MAX_PACK_ENTITIES // 4096, side=64)
    assert pack_entity_count(json.loads(at_bound)) == MAX_PACK_ENTITIES
    assert import_pack(client, at_bound).status_code == 200
    document = json.loads(walled_pack("over", MAX_PACK_ENTITIES // 4096, side=64))
    document["levels"][0]["objects"] = [{"kind": "object", "noun": "WALL", "x": 5, "y": 5}]
    assert import_pack(client, json.dumps(document)).status_code == 413


def test_a_level_saved_into_a_pack_is_refused_when_the_merged_pack_passes_the_bound(
    client: TestClient,
) -> None:
    assert (
        import_pack(client, walled_pack("full", MAX_PACK_ENTITIES // 4096, side=64)).status_code
        == 200
    )
    one_level = json.loads(walled_pack("draft", 1, side=8))
    one_level["levels"][0]["id"] = "one-more"
    reply = client.put("/api/library/full/levels/one-more", json={"pack": one_level})
    assert reply.status_code == 413 and reply.json()["code"] == "too-costly", reply.text
    assert len(client.get("/api/library").json()["packs"]) == 1


# --- listings read summaries -------------------------------------------------------------------


def test_listings_read_the_summaries_kept_at_save_time_and_parse_no_pack(
    db_path: Path, counted_parses: list[int]
) -> None:
    app = create_app(db_path=db_path)
    with TestClient(app) as client:
        client.get("/api/worlds")
        for index in range(3):
            assert import_pack(client, walled_pack(f"mine-{index}", index + 1)).status_code == 200
        cookie = client.cookies["miau_player"]
    # A new server on the same database: nothing is cached.
    counted_parses.clear()
    with TestClient(create_app(db_path=db_path), cookies={"miau_player": cookie}) as client:
        worlds = client.get("/api/worlds").json()["worlds"]
        library = client.get("/api/library").json()["packs"]
    assert counted_parses == []
    imported = [world for world in worlds if world["imported"]]
    assert [(world["id"], world["levels"], world["required"]) for world in imported] == [
        ("mine-0", 1, 1),
        ("mine-1", 2, 1),
        ("mine-2", 3, 2),
    ]
    assert [(pack["id"], pack["levels"], pack["name"]) for pack in library] == [
        ("mine-0", 1, "Walls"),
        ("mine-1", 2, "Walls"),
        ("mine-2", 3, "Walls"),
    ]


def test_a_pack_saved_before_summaries_is_parsed_once_and_its_summary_kept(
    db_path: Path, counted_parses: list[int]
) -> None:
    with TestClient(create_app(db_path=db_path)) as client:
        client.get("/api/worlds")
        assert import_pack(client, walled_pack("old", 2)).status_code == 200
        cookie = client.cookies["miau_player"]
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        db.execute("UPDATE library SET summary = '', size = 0")  # as schema 2 left it
        db.commit()
    counted_parses.clear()
    for _ in range(2):
        with TestClient(create_app(db_path=db_path), cookies={"miau_player": cookie}) as client:
            packs = client.get("/api/library").json()["packs"]
        assert [(pack["id"], pack["levels"]) for pack in packs] == [("old", 2)]
    assert len(counted_parses) == 1
    with contextlib.closing(sqlite3.connect(db_path)) as db:
        (size,) = db.execute("SELECT size FROM library").fetchone()
    assert size == counted_size(walled_pack("old", 2))


def test_a_packs_summary_counts_against_the_quotas_as_it_is_stored(runner: StoreRunner) -> None:
    """A pack's description is stored twice (in its text and in its listing summary): both count."""
    document = json.loads(walled_pack("wordy", 1))
    document["manifest"]["description"] = "é" * 2000
    wordy = json.dumps(document, ensure_ascii=False)
    library = Library(Worlds.load(None), runner, LibraryQuota(bytes=len(wordy.encode()) + 2000))
    refused = refusal_of(library, "ann", wordy)
    assert refused is not None and refused.body["code"] == "full", refused
    roomy = Library(Worlds.load(None), runner, LibraryQuota(bytes=counted_size(wordy)))
    assert refusal_of(roomy, "ann", wordy) is None
    usage = run_alone(runner.library_usage("ann"))
    assert usage.bytes == usage.all_bytes == counted_size(wordy) > 2 * 4000


# --- the cache ---------------------------------------------------------------------------------


def test_the_parsed_pack_cache_is_bounded_by_the_entities_it_holds() -> None:
    cache = _ParsedPacks(max_packs=100, max_cost=1_000)
    packs = [load_pack_text(walled_pack(f"p{index}", 2, side=16)) for index in range(6)]  # 512 each
    for index, pack in enumerate(packs):
        cache.put(("player", f"p{index}", "1.0.0", "digest"), pack)
        assert cache.cost <= 1_000
    assert cache.get(("player", "p5", "1.0.0", "digest")) is packs[5]
    assert cache.get(("player", "p0", "1.0.0", "digest")) is None


# --- quotas --------------------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def runner(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[StoreRunner]:
    location = (
        tmp_path / "quota.db"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    store = open_store(location)
    yield StoreRunner(store)
    store.close()


def refusal_of(library: Library, player: str, text: str) -> Refusal | None:
    """The refusal of importing ``text`` (replacing), or None if it was taken."""

    async def attempt() -> Refusal | None:
        try:
            await library.import_text(player, text, replace=True)
        except Refusal as refusal:
            return refusal
        return None

    return run_alone(attempt())


def test_a_players_library_is_refused_past_its_pack_and_byte_quotas_with_409_full(
    runner: StoreRunner,
) -> None:
    small, big = walled_pack("pack-a", 1), walled_pack("pack-b", 8)
    quota = LibraryQuota(packs=2, bytes=counted_size(small) * 2 + 100)
    library = Library(Worlds.load(None), runner, quota)
    assert refusal_of(library, "ann", small) is None
    too_big = refusal_of(library, "ann", big)
    assert too_big is not None and too_big.status == 409 and too_big.body["code"] == "full"
    assert "MiB" in too_big.body["error"]
    assert refusal_of(library, "ann", walled_pack("pack-c", 1)) is None
    third = refusal_of(library, "ann", walled_pack("pack-d", 1))
    assert third is not None and third.body["code"] == "full" and "2 packs" in third.body["error"]
    # Replacing a pack counts its new size only once, and another player has their own quota.
    assert refusal_of(library, "ann", walled_pack("pack-a", 1, name="Walls again")) is None
    assert refusal_of(library, "bob", small) is None
    assert [entry.pack for entry in run_alone(runner.library_packs("ann"))] == ["pack-a", "pack-c"]


class UsageReadTogether(StoreRunner):
    """A runner whose quota reads wait for each other: racing saves both pass the first look."""

    def __init__(self, runner: StoreRunner, racers: int) -> None:
        super().__init__(runner.store)
        self.racers = racers
        self.waiting = 0
        self.all_read = asyncio.Event()

    async def library_usage(self, player: str) -> LibraryUsage:
        usage = await super().library_usage(player)
        self.waiting += 1
        if self.waiting >= self.racers:
            self.all_read.set()
        await self.all_read.wait()
        return usage


@pytest.mark.parametrize(
    ("quota", "players"),
    [
        (LibraryQuota(packs=1), ["ann", "ann"]),
        (LibraryQuota(players=1), ["ann", "bob"]),
    ],
)
def test_racing_saves_never_pass_a_quota_by_a_pack(
    runner: StoreRunner, quota: LibraryQuota, players: list[str]
) -> None:
    racing = UsageReadTogether(runner, len(players))
    library = Library(Worlds.load(None), racing, quota)
    packs = [walled_pack(f"pack-{index}", 1) for index in range(len(players))]

    async def race() -> list[Refusal | None]:
        async def one(player: str, text: str) -> Refusal | None:
            try:
                await library.import_text(player, text, replace=True)
            except Refusal as refusal:
                return refusal
            return None

        return list(await asyncio.gather(*map(one, players, packs)))

    outcomes = run_alone(race())
    # Both read a library with room; the save checked again in its transaction, so one is in.
    assert racing.all_read.is_set()
    assert sum(outcome is None for outcome in outcomes) == 1
    refused = [outcome for outcome in outcomes if outcome is not None]
    assert refused[0].status == 409
    stored = [
        entry.pack for player in set(players) for entry in run_alone(runner.library_packs(player))
    ]
    assert len(stored) == 1


def test_past_the_servers_byte_or_player_quota_a_new_pack_is_409_server_full(
    runner: StoreRunner,
) -> None:
    small = walled_pack("pack-a", 1)
    by_bytes = Library(
        Worlds.load(None), runner, LibraryQuota(all_bytes=counted_size(small) * 2 + 100)
    )
    assert refusal_of(by_bytes, "ann", small) is None
    assert refusal_of(by_bytes, "bob", small) is None
    full = refusal_of(by_bytes, "cid", small)
    assert full is not None and full.status == 409 and full.body["code"] == "server-full"
    by_players = Library(Worlds.load(None), runner, LibraryQuota(players=2))
    refused = refusal_of(by_players, "dan", walled_pack("pack-d", 1))
    assert refused is not None and refused.body["code"] == "server-full"
    assert "2 players" in refused.body["error"]
    # A player who has a library already may still add to it.
    assert refusal_of(by_players, "ann", walled_pack("pack-e", 1)) is None


def test_the_app_serves_the_default_quota(app: Starlette) -> None:
    routes = {getattr(route, "path", "") for route in app.routes}
    assert "/api/library" in routes
    assert library_module.LIBRARY_QUOTA.packs == library_module.MAX_LIBRARY_PACKS


def test_library_parses_of_all_players_together_wait_past_the_servers_parse_budget(
    runner: StoreRunner,
) -> None:
    # New players each time get no fresh budget: the pace is the server's, and a parse past
    # it waits (it is never refused), so uploads cannot crowd the event loop's lock.
    now = [1000.0]
    waits: list[float] = []

    async def recorded_sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    library = Library(Worlds.load(None), runner, clock=lambda: now[0], sleep=recorded_sleep)
    at_bound = walled_pack("full", MAX_PACK_ENTITIES // 4096, side=64)
    packs_in_burst = library_module.PARSE_BURST // MAX_PACK_ENTITIES
    for index in range(packs_in_burst + 2):
        assert refusal_of(library, f"player-{index}", at_bound) is None
    assert waits == [
        MAX_PACK_ENTITIES / library_module.PARSE_ENTITIES_PER_SECOND,
        MAX_PACK_ENTITIES / library_module.PARSE_ENTITIES_PER_SECOND,
    ]


def test_big_uploads_of_all_players_wait_for_the_servers_upload_budget_and_small_ones_never_do(
    runner: StoreRunner,
) -> None:
    # Eight addresses uploading 1 MiB bodies at once once held the player's p99 at 165 ms:
    # reading, decoding and sizing a body happen on the event loop before any parse.
    now = [1000.0]
    waits: list[float] = []

    async def recorded_sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    library = Library(Worlds.load(None), runner, clock=lambda: now[0], sleep=recorded_sleep)
    big = library_module.MAX_BODY_BYTES
    in_burst = library_module.UPLOAD_BURST // big
    for _ in range(in_burst + 2):
        run_alone(library.wait_to_read(big))
    assert len(waits) == 2 and waits[-1] == pytest.approx(
        big / library_module.UPLOAD_BYTES_PER_SECOND
    )
    for _ in range(100):
        run_alone(library.wait_to_read(library_module.UPLOAD_UNMETERED_BYTES))
    assert len(waits) == 2
