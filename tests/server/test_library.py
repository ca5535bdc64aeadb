"""The pack library: import, replace, delete, export, saving levels, per player, and its store.

The store tests at the top run on SQLite and on a real PostgreSQL (as the
store suite in ``test_store.py`` does); the HTTP tests go through the real
app on SQLite.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from starlette.applications import Starlette

from miau.packs import load_pack, load_pack_text
from miau.packs.share import single_level_pack
from miau.play.library_documents import merge_level
from miau.play.refusal import MAX_PACK_BYTES
from miau.server.library import MAX_BODY_BYTES
from miau.server.shared import SHARE_BODY_BYTES
from miau.server.store import (
    SCHEMA_VERSION,
    LibraryPackExistsError,
    LogEntry,
    SqliteStore,
    Store,
    open_store,
)
from miau.server.store.postgres import PostgresStore
from tests.server.conftest import PACKS, UNDO_VERSION_4, Player, TestClient, pack_json
from tests.support.loops import run_alone

BAD = Path(__file__).resolve().parents[1] / "packs" / "bad"
BAD_PACKS = sorted(BAD.glob("*.json"))
WARNINGS_ONLY = {"missing-feature-flags", "noun-trap"}
"""Broken-pack fixtures whose issues are all warnings: they import, with those warnings."""


# --- helpers -------------------------------------------------------------------------------


def renamed_pack(source: str, pack_id: str, version: str = "1.0.0", **manifest: Any) -> str:
    """A shipped pack's text under another id and version (a pack a player might import)."""
    data = pack_json(source)
    data["manifest"].update(id=pack_id, name=f"My {pack_id}", version=version, **manifest)
    return json.dumps(data, indent=2, ensure_ascii=False)


def issue_lines(problems: list[dict[str, str]]) -> list[str]:
    """Problems as the loader's ``str(issue)`` lines (the ``.expected.txt`` format)."""
    lines = []
    for problem in problems:
        label = "warning: " if problem["severity"] == "warning" else ""
        prefix = f"{problem['place']}: " if problem["place"] else ""
        lines.append(f"{prefix}{label}{problem['message']}")
    return lines


def library_ids(client: TestClient) -> list[str]:
    """The ids in the player's library."""
    return [pack["id"] for pack in client.get("/api/library").json()["packs"]]


def imported_worlds(client: TestClient) -> list[str]:
    """The ids of the imported worlds in ``GET /api/worlds``."""
    worlds = client.get("/api/worlds").json()["worlds"]
    return [world["id"] for world in worlds if world["imported"]]


def library_state(client: TestClient) -> list[tuple[str, str]]:
    """Each library pack's id and exported text: equal before and after means nothing changed."""
    return [
        (pack_id, client.get(f"/api/library/{pack_id}/export").text)
        for pack_id in library_ids(client)
    ]


def one_level(source: str, level_id: str) -> dict[str, Any]:
    """A shipped level as a one-level pack (the editor's working document)."""
    return single_level_pack(load_pack(PACKS / f"{source}.json"), level_id)


# --- the store, on SQLite and PostgreSQL ---------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    location: str | Path = (
        tmp_path / "store.db"
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    opened = open_store(location)
    yield opened
    opened.close()


def test_the_store_keeps_library_packs_per_player_by_id(store: Store) -> None:
    assert store.save_library_pack("ann", "zeta", "1.0.0", "Zeta", "{}") is False
    assert store.save_library_pack("ann", "alpha", "0.1.0", "Alpha", '{"a": "ü"}') is False
    store.save_library_pack("bob", "mine", "2.0.0", "Mine", "[]")
    assert [entry.pack for entry in store.library_packs("ann")] == ["alpha", "zeta"]
    alpha = store.library_pack("ann", "alpha")
    assert alpha is not None
    assert (alpha.version, alpha.name, alpha.text) == ("0.1.0", "Alpha", '{"a": "ü"}')
    assert store.library_pack("ann", "mine") is None
    assert [entry.pack for entry in store.library_packs("bob")] == ["mine"]


def test_the_store_replaces_a_library_pack_only_when_asked(store: Store) -> None:
    store.save_library_pack("ann", "alpha", "1.0.0", "Alpha", "one")
    with pytest.raises(LibraryPackExistsError):
        store.save_library_pack("ann", "alpha", "1.1.0", "Alpha", "two", replace=False)
    before = store.library_pack("ann", "alpha")
    assert before is not None and before.text == "one"
    assert store.save_library_pack("ann", "alpha", "1.1.0", "Alpha 2", "two") is True
    after = store.library_pack("ann", "alpha")
    assert after is not None
    assert (after.version, after.name, after.text) == ("1.1.0", "Alpha 2", "two")
    assert after.digest != before.digest
    assert [entry.digest for entry in store.library_packs("ann")] == [after.digest]


def test_saving_a_changed_level_or_deleting_the_pack_finishes_its_games(store: Store) -> None:
    store.save_library_pack("ann", "alpha", "1.0.0", "Alpha", "one")
    store.start_game("ann", "alpha", "kept", [LogEntry("R")])
    store.start_game("ann", "alpha", "changed", [LogEntry("R")])
    store.save_library_pack("ann", "alpha", "1.0.0", "Alpha", "two", stale_levels=["changed"])
    assert store.current_game("ann", "alpha", "changed") is None
    assert store.current_game("ann", "alpha", "kept") is not None
    assert store.delete_library_pack("ann", "alpha") is True
    assert store.current_game("ann", "alpha", "kept") is None
    assert store.library_pack("ann", "alpha") is None
    assert store.delete_library_pack("ann", "alpha") is False


def _version_1_sqlite(path: Path) -> None:
    """Turn a new database into what a version 1 Miau left: no library table."""
    SqliteStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE library")
        db.execute("UPDATE schema_version SET version = 1")
        for statement in UNDO_VERSION_4:
            db.execute(statement)


def test_a_version_1_sqlite_database_gains_the_library_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    _version_1_sqlite(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO players VALUES ('ann', 'then')")
        db.execute(
            "INSERT INTO games (player, pack, level, started_at) VALUES ('ann', 'p', 'l', 't')"
        )
    store = SqliteStore(path)
    try:
        assert store.current_game("ann", "p", "l") is not None
        store.save_library_pack("ann", "alpha", "1.0.0", "Alpha", "{}")
        assert [entry.pack for entry in store.library_packs("ann")] == ["alpha"]
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]


def test_a_version_1_postgres_database_gains_the_library(postgres_url: str) -> None:
    PostgresStore(postgres_url).close()
    with psycopg.connect(postgres_url) as db:
        db.execute("DROP TABLE library")
        db.execute("UPDATE schema_version SET version = 1")
        for statement in UNDO_VERSION_4:
            db.execute(statement)
    store = PostgresStore(postgres_url)
    try:
        store.save_library_pack("ann", "alpha", "1.0.0", "Alpha", "{}")
        assert [entry.pack for entry in store.library_packs("ann")] == ["alpha"]
    finally:
        store.close()
    with psycopg.connect(postgres_url) as db:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]


# --- import ---------------------------------------------------------------------------------


def test_an_imported_pack_is_listed_shown_as_an_imported_world_and_playable_with_progress(
    client: TestClient,
) -> None:
    reply = client.post("/api/library", json={"text": renamed_pack("tutorial", "my-tutorial")})
    assert reply.status_code == 200, reply.text
    assert reply.headers["cache-control"] == "no-store"
    body = reply.json()
    assert body["replaced"] is False and body["warnings"] == []
    tutorial = load_pack(PACKS / "tutorial.json")
    assert body["pack"] == {
        "id": "my-tutorial",
        "name": "My my-tutorial",
        "version": "1.0.0",
        "description": tutorial.manifest.description,
        "levels": len(tutorial.levels),
        "author": "Miau",
    }
    assert client.get("/api/library").json() == {"packs": [body["pack"]]}
    worlds = client.get("/api/worlds").json()["worlds"]
    assert [(world["id"], world["imported"]) for world in worlds] == [
        ("tutorial", False),
        ("clockwork", False),
        ("clockwork-pairs", False),
        ("lexicon", False),
        ("deep-end", False),
        ("proofs", False),
        ("my-tutorial", True),
    ]
    assert worlds[-1]["unlocked"] is True

    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        opened = player.open("my-tutorial", "first-steps")
        assert opened["pack"] == "my-tutorial"
        replies = player.moves(pack_json("tutorial")["levels"][0]["solution"])
    assert replies[-1]["progress"] == {"won": True, "bestMoves": 6}

    world = client.get("/api/worlds/my-tutorial").json()
    assert world["imported"] is True
    assert world["levels"][0]["won"] is True and world["levels"][0]["bestMoves"] == 6
    assert client.get("/api/worlds").json()["worlds"][-1]["won"] == 1
    level = client.get("/api/worlds/my-tutorial/levels/first-steps").json()
    assert level["pack"] == "my-tutorial"
    assert level["next"] == {"pack": "my-tutorial", "level": "walls"}
    last = client.get("/api/worlds/my-tutorial").json()["levels"][-1]["id"]
    assert client.get(f"/api/worlds/my-tutorial/levels/{last}").json()["next"] is None
    assert {"pack": "my-tutorial", "level": "first-steps", "won": True, "bestMoves": 6,
            "bestSolution": "RRRRRR"} in client.get("/api/progress").json()["levels"]  # fmt: skip


@pytest.mark.parametrize("path", BAD_PACKS, ids=lambda path: path.stem)
def test_a_broken_pack_is_refused_with_every_problem_at_its_place(
    client: TestClient, path: Path
) -> None:
    expected = path.with_name(f"{path.stem}.expected.txt").read_text(encoding="utf-8").splitlines()
    reply = client.post("/api/library", json={"text": path.read_text(encoding="utf-8")})
    if path.stem in WARNINGS_ONLY:
        assert reply.status_code == 200, reply.text
        assert issue_lines(reply.json()["warnings"]) == expected
        assert {problem["severity"] for problem in reply.json()["warnings"]} == {"warning"}
        return
    assert reply.status_code == 400, reply.text
    body = reply.json()
    assert issue_lines(body["problems"]) == expected
    count = len(expected)
    assert body["error"] == f"This pack has {count} problem{'' if count == 1 else 's'}."
    assert library_ids(client) == []


def test_the_noun_trap_comes_back_as_warnings_with_a_successful_import(
    client: TestClient,
) -> None:
    reply = client.post(
        "/api/library", json={"text": (BAD / "noun-trap.json").read_text(encoding="utf-8")}
    )
    assert reply.status_code == 200
    warnings = reply.json()["warnings"]
    assert warnings and all(warning["severity"] == "warning" for warning in warnings)
    assert any("KEY things" in warning["message"] for warning in warnings)
    assert warnings[0]["place"] == "levels[0].map[1][3]"
    assert library_ids(client) == ["broken"]


# --- replace, delete, export -------------------------------------------------------------------


def test_the_same_id_asks_before_replacing_and_says_whether_the_incoming_version_is_newer(
    client: TestClient,
) -> None:
    assert client.post("/api/library", json={"text": renamed_pack("tutorial", "mine", "1.2.0")})
    before = library_state(client)
    for version, newer in (("1.10.0", True), ("1.2.0", False), ("0.9.9", False)):
        reply = client.post(
            "/api/library", json={"text": renamed_pack("tutorial", "mine", version)}
        )
        assert reply.status_code == 409
        assert reply.json() == {
            "error": f"You already have \u201cMy mine\u201d version 1.2.0. "
            f"Replace it with version {version}?",
            "code": "exists",
            "existing": {"version": "1.2.0"},
            "incoming": {"version": version},
            "newer": newer,
        }
        assert library_state(client) == before
    reply = client.post(
        "/api/library",
        json={"text": renamed_pack("clockwork", "mine", "1.10.0"), "replace": True},
    )
    assert reply.status_code == 200
    assert reply.json()["replaced"] is True
    assert reply.json()["pack"]["version"] == "1.10.0"
    assert reply.json()["pack"]["levels"] == 6
    assert [pack["version"] for pack in client.get("/api/library").json()["packs"]] == ["1.10.0"]
    assert client.get("/api/worlds/mine").json()["levels"][0]["id"] == "mouse-keeps-time"


def test_a_shipped_world_id_or_a_shared_level_id_cannot_be_imported(client: TestClient) -> None:
    reply = client.post("/api/library", json={"text": renamed_pack("tutorial", "clockwork")})
    assert reply.status_code == 409
    assert reply.json()["code"] == "shipped"
    assert "Clockwork" in reply.json()["error"]
    reply = client.post(
        "/api/library",
        json={"text": renamed_pack("tutorial", "share-0123456789abcdef"), "replace": True},
    )
    assert reply.status_code == 409
    assert reply.json()["code"] == "reserved"
    assert library_ids(client) == []
    assert client.get("/api/worlds/clockwork").json()["imported"] is False


def test_a_deleted_pack_is_gone_from_the_library_and_the_worlds(client: TestClient) -> None:
    client.post("/api/library", json={"text": renamed_pack("clockwork", "ticks")})
    assert imported_worlds(client) == ["ticks"]
    reply = client.delete("/api/library/ticks")
    assert (reply.status_code, reply.json()) == (200, {"deleted": "ticks"})
    assert imported_worlds(client) == [] and library_ids(client) == []
    assert client.get("/api/worlds/ticks").status_code == 404
    assert client.delete("/api/library/ticks").status_code == 404
    assert client.delete("/api/library/tutorial").status_code == 404


def test_an_exported_pack_is_a_file_that_imports_again_to_an_equal_pack(
    client: TestClient,
) -> None:
    text = renamed_pack("clockwork-pairs", "doors")
    client.post("/api/library", json={"text": text})
    reply = client.get("/api/library/doors/export")
    assert reply.status_code == 200
    assert reply.headers["content-disposition"] == 'attachment; filename="doors.json"'
    assert reply.headers["content-type"].startswith("application/json")
    exported = reply.text
    assert exported.startswith('{\n  "manifest": {\n    "id": "doors"')
    assert load_pack_text(exported) == load_pack_text(text)
    client.delete("/api/library/doors")
    assert client.post("/api/library", json={"text": exported}).status_code == 200
    assert load_pack_text(client.get("/api/library/doors/export").text) == load_pack_text(text)
    assert client.get("/api/library/nothing/export").status_code == 404


def test_replacing_a_pack_restarts_a_game_only_on_the_levels_that_changed(
    client: TestClient,
) -> None:
    original = json.loads(renamed_pack("tutorial", "mine"))
    client.post("/api/library", json={"text": json.dumps(original)})
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        player.open("mine", "first-steps")
        player.step("right")
        player.open("mine", "walls")
        player.step("right")
    changed = json.loads(json.dumps(original))
    changed["levels"][1]["title"] = "Walls, again"
    changed["manifest"]["version"] = "1.0.1"
    reply = client.post("/api/library", json={"text": json.dumps(changed), "replace": True})
    assert reply.status_code == 200
    with client.websocket_connect("/ws") as socket:
        player = Player(socket)
        assert player.open("mine", "first-steps")["resumed"] is True
        assert player.open("mine", "walls")["resumed"] is False


# --- saving a level into a library pack ------------------------------------------------------


def test_a_level_put_into_a_new_library_pack_creates_it_from_the_levels_manifest(
    client: TestClient,
) -> None:
    document = one_level("clockwork", "mouse-keeps-time")
    reply = client.put("/api/library/my-levels/levels/mouse-keeps-time", json={"pack": document})
    assert reply.status_code == 200, reply.text
    assert reply.json() == {
        "pack": {
            "id": "my-levels",
            "name": "Clockwork",
            "version": "1.0.0",
            "description": reply.json()["pack"]["description"],
            "levels": 1,
            "author": "Miau",
        },
        "level": "mouse-keeps-time",
    }
    saved = load_pack_text(client.get("/api/library/my-levels/export").text)
    assert saved.manifest.id == "my-levels"
    assert saved.manifest.features == ("automata",)
    assert saved.levels == load_pack(document).levels
    assert set(saved.glossary) == {"TICK"}


def test_a_level_put_into_an_existing_pack_merges_palette_and_glossary_and_keeps_its_place(
    client: TestClient,
) -> None:
    client.post("/api/library", json={"text": renamed_pack("tutorial", "mine", "3.1.4")})
    before = load_pack_text(client.get("/api/library/mine/export").text)
    # A new level: appended, with the palette nouns and the glossary word it brings.
    mouse = one_level("clockwork", "mouse-keeps-time")
    mouse["palette"]["MIAU"] = "😺"  # the incoming entry wins
    reply = client.put("/api/library/mine/levels/mouse-keeps-time", json={"pack": mouse})
    assert reply.status_code == 200, reply.text
    assert reply.json()["pack"]["levels"] == len(before.levels) + 1
    merged = load_pack_text(client.get("/api/library/mine/export").text)
    assert merged.manifest.version == "3.1.4"  # nothing is bumped
    assert merged.manifest.name == "My mine"
    assert merged.levels[-1].id == "mouse-keeps-time"
    assert merged.palette["MIAU"].glyph == "😺"
    assert "MOUSE" in merged.palette and "TICK" in merged.glossary
    assert set(before.palette) < set(merged.palette)
    # An existing level: replaced where it stands.
    walls = one_level("tutorial", "walls")
    walls["levels"][0]["title"] = "Walls, rebuilt"
    reply = client.put("/api/library/mine/levels/walls", json={"pack": walls})
    assert reply.status_code == 200, reply.text
    after = load_pack_text(client.get("/api/library/mine/export").text)
    assert [level.id for level in after.levels] == [level.id for level in merged.levels]
    assert after.levels[1].title == "Walls, rebuilt"
    assert after.levels[0] == merged.levels[0]


def test_a_level_that_does_not_fit_is_refused_and_the_library_is_unchanged(
    client: TestClient,
) -> None:
    client.post("/api/library", json={"text": renamed_pack("tutorial", "mine")})
    before = library_state(client)
    good = one_level("tutorial", "walls")
    broken = json.loads(json.dumps(good))
    broken["levels"][0]["objects"][0]["x"] = 99
    two_levels = json.loads(json.dumps(good))
    two_levels["levels"].append({**good["levels"][0], "id": "walls-two"})
    cases: list[tuple[str, object, int]] = [
        ("/api/library/mine/levels/walls", broken, 400),
        ("/api/library/mine/levels/other-id", good, 400),
        ("/api/library/mine/levels/walls", two_levels, 400),
        ("/api/library/mine/levels/walls", "not a pack", 400),
        ("/api/library/Bad%20Id/levels/walls", good, 400),
        ("/api/library/tutorial/levels/walls", good, 409),
        ("/api/library/share-0123456789abcdef/levels/walls", good, 409),
    ]
    for path, document, status in cases:
        reply = client.put(path, json={"pack": document})
        assert reply.status_code == status, (path, reply.text)
        assert reply.json()["error"]
    reply = client.put("/api/library/mine/levels/walls", json={"pack": broken})
    assert reply.json()["problems"][0]["place"] == "levels[0].objects[0].x"
    assert library_state(client) == before


def test_merge_level_leaves_both_documents_as_they_were() -> None:
    base = pack_json("tutorial")
    incoming = one_level("clockwork", "mouse-keeps-time")
    frozen = json.dumps([base, incoming])
    merged = merge_level(base, incoming)
    assert json.dumps([base, incoming]) == frozen
    assert list(merged) == ["manifest", "palette", "vocabulary", "properties", "levels"]
    assert merged["manifest"]["features"] == ["automata"]


# --- per player -----------------------------------------------------------------------------


def test_one_players_library_is_invisible_to_another(app: Starlette, client: TestClient) -> None:
    client.post("/api/library", json={"text": renamed_pack("tutorial", "secret")})
    stranger = TestClient(app)
    stranger.get("/api/worlds")
    assert stranger.cookies.get("miau_player") != client.cookies.get("miau_player")
    assert library_ids(stranger) == []
    assert imported_worlds(stranger) == []
    assert stranger.get("/api/worlds/secret").status_code == 404
    assert stranger.get("/api/worlds/secret/levels/first-steps").status_code == 404
    assert stranger.get("/api/library/secret/export").status_code == 404
    assert stranger.delete("/api/library/secret").status_code == 404
    with stranger.websocket_connect("/ws") as socket:
        reply = Player(socket).send({"type": "open", "pack": "secret", "level": "first-steps"})
    assert reply["code"] == "not-found"
    # The stranger may use the same id for a pack of their own.
    assert (
        stranger.post("/api/library", json={"text": renamed_pack("clockwork", "secret")}).json()[
            "pack"
        ]["levels"]
        == 6
    )
    assert client.get("/api/library").json()["packs"][0]["levels"] == len(
        load_pack(PACKS / "tutorial.json").levels
    )


# --- bodies ---------------------------------------------------------------------------------


def test_garbage_bodies_are_400_with_a_sentence_and_change_nothing(client: TestClient) -> None:
    client.post("/api/library", json={"text": renamed_pack("tutorial", "mine")})
    before = library_state(client)
    bodies: list[bytes] = [
        b"",
        b"{not json",
        b"[1, 2]",
        b'"text"',
        b"\xff\xfe",
        b"[" * 100_000,
        b'{"text": 5}',
        b'{"text": "{}", "replace": "yes"}',
        b'{"pack": 5}',
    ]
    for path, method in (
        ("/api/library", "POST"),
        ("/api/library/mine/levels/walls", "PUT"),
        ("/api/shared", "POST"),
        ("/api/shared/encode", "POST"),
    ):
        for body in bodies:
            reply = client.request(
                method, path, content=body, headers={"content-type": "application/json"}
            )
            # A link's request is small: a body past its cap is 413 unread, with a sentence.
            too_big = path == "/api/shared" and len(body) > SHARE_BODY_BYTES
            assert reply.status_code == (413 if too_big else 400), (path, body[:20], reply.text)
            error = reply.json()["error"]
            assert error.endswith((".", "}.")) and error[0].isupper(), error
    assert library_state(client) == before


def test_a_pack_text_over_a_mebibyte_is_413_and_stores_nothing(client: TestClient) -> None:
    text = renamed_pack("tutorial", "huge")
    padding = MAX_PACK_BYTES - len(text.encode("utf-8")) + 1
    text = text[:-2] + " " * padding + text[-2:]
    assert len(text.encode("utf-8")) == MAX_PACK_BYTES + 1
    reply = client.post("/api/library", json={"text": text})
    assert reply.status_code == 413
    assert reply.json()["error"] == "A pack may be at most 1 MiB; this one is larger."
    assert library_ids(client) == []


async def _post_streamed(
    app: Starlette, path: str, total: int, *, declare: bool
) -> tuple[int, int]:
    """POST ``total`` bytes to ``path`` in 64 KiB chunks; the status and the bytes the app read."""
    chunk = b" " * 65536
    sent = 0
    status = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent >= total:
            return {"type": "http.disconnect"}
        sent += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": sent < total}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    headers = [(b"content-type", b"application/json")]
    if declare:
        headers.append((b"content-length", str(total).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8765),
    }
    await app(scope, receive, send)  # type: ignore[arg-type]
    return status, sent


@pytest.mark.parametrize("declare", [True, False], ids=["content-length", "chunked"])
@pytest.mark.parametrize("path", ["/api/library", "/api/shared", "/api/shared/encode"])
def test_a_two_mebibyte_body_is_413_without_being_read_to_its_end(
    app: Starlette, path: str, declare: bool
) -> None:
    total = 2 * 1024 * 1024
    status, read = run_alone(_post_streamed(app, path, total, declare=declare))
    assert status == 413
    if declare:
        assert read == 0  # the declared length alone refuses it
    else:
        assert read <= MAX_BODY_BYTES + 65536 < total


def test_levels_saved_into_one_pack_at_the_same_moment_all_land(app: Starlette) -> None:
    levels = [level.id for level in load_pack(PACKS / "tutorial.json").levels][:8]

    async def save_all() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        cookies = {"miau_player": "concurrent-author-0001"}
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", cookies=cookies
        ) as author:
            replies = await asyncio.gather(
                *(
                    author.put(
                        f"/api/library/mine/levels/{level}",
                        json={"pack": one_level("tutorial", level)},
                    )
                    for level in levels
                )
            )
            exported = await author.get("/api/library/mine/export")
        saved = load_pack_text(exported.text)
        assert sorted(level.id for level in saved.levels) == sorted(levels)
        return [reply.status_code for reply in replies]

    statuses = run_alone(save_all())
    assert statuses == [200] * len(levels)
