"""The HTTP side: the JSON API, the player cookie and the web client's files."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette

from miau.packs import load_pack, share_code_for, single_level_pack
from miau.play.worlds import DEFAULT_PACKS_DIR as SHIPPED
from miau.server.app import COOKIE_NAME, create_app
from tests.server.conftest import Player, TestClient


def test_worlds_come_in_the_shipped_order_with_their_counts(client: TestClient) -> None:
    response = client.get("/api/worlds")
    assert response.status_code == 200
    worlds = response.json()["worlds"]
    assert [world["id"] for world in worlds] == [
        "tutorial",
        "clockwork",
        "clockwork-pairs",
        "lexicon",
        "deep-end",
        "proofs",
    ]
    tutorial = worlds[0]
    assert tutorial["name"] == "First Steps"
    assert tutorial["description"]
    shipped = load_pack(SHIPPED / "tutorial.json").levels
    required = [level for level in shipped if level.tier == "required"]
    assert (tutorial["levels"], tutorial["required"], tutorial["won"]) == (
        len(shipped),
        len(required),
        0,
    )
    assert tutorial["unlocked"] is True
    assert [world["unlocked"] for world in worlds[1:]] == [False, False, False, False, False]


def test_a_world_lists_palette_glossary_and_every_level_with_its_lock(client: TestClient) -> None:
    world = client.get("/api/worlds/clockwork-pairs").json()
    assert world["id"] == "clockwork-pairs"
    assert set(world["glossary"]) == {"OPEN", "SHUT", "TICK"}
    assert set(world["glossary"]["TICK"]) == {"accent", "describe"}
    for entry in world["palette"].values():
        assert set(entry) == {"glyph", "faces"}
    first = world["levels"][0]
    assert first == {
        "id": "key-and-door",
        "title": "Every door has a key",
        "hint": first["hint"],
        "tier": "required",
        "width": first["width"],
        "height": first["height"],
        "won": False,
        "bestMoves": None,
        "locked": False,
        "unlockedBy": None,
    }


def test_a_level_gives_what_the_board_needs_and_the_next_level(client: TestClient) -> None:
    level = client.get("/api/worlds/clockwork/levels/mouse-keeps-time").json()
    assert (level["pack"], level["id"], level["tier"]) == (
        "clockwork",
        "mouse-keeps-time",
        "required",
    )
    assert level["objects"] and level["automata"]
    assert level["pairs"] == []
    assert level["properties"] == ["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "TICK"]
    assert level["next"] == {"pack": "clockwork", "level": "double-time"}
    assert "solution" not in level


def test_the_last_level_of_a_world_leads_to_the_next_world_and_the_very_last_to_none(
    client: TestClient,
) -> None:
    last_tutorial = client.get("/api/worlds/tutorial/levels/through-the-wall").json()
    assert last_tutorial["next"] == {"pack": "clockwork", "level": "mouse-keeps-time"}
    assert client.get("/api/worlds/proofs/levels/proof-10").json()["next"] is None


def test_pair_words_are_properties_of_their_level(client: TestClient) -> None:
    level = client.get("/api/worlds/clockwork-pairs/levels/key-and-door").json()
    assert {"OPEN", "SHUT"} <= set(level["properties"])


def test_unknown_worlds_levels_and_api_paths_are_json_404s(client: TestClient) -> None:
    for path in (
        "/api/worlds/nowhere",
        "/api/worlds/nowhere/levels/first-steps",
        "/api/worlds/tutorial/levels/nowhere",
        "/api/nothing-here",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert isinstance(response.json()["error"], str)


def test_progress_starts_empty(client: TestClient) -> None:
    assert client.get("/api/progress").json() == {"levels": []}


def test_a_new_browser_gets_a_long_lived_lax_cookie_and_keeps_it(app: Starlette) -> None:
    client = TestClient(app)
    response = client.get("/api/worlds")
    header = response.headers["set-cookie"]
    assert header.startswith(f"{COOKIE_NAME}=")
    assert "SameSite=Lax" in header
    assert "Max-Age=315360000" in header
    assert "HttpOnly" in header
    again = client.get("/api/progress")
    assert "set-cookie" not in again.headers


def test_a_malformed_cookie_is_replaced(client: TestClient) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE_NAME, "x")
    response = client.get("/api/progress")
    assert response.headers["set-cookie"].startswith(f"{COOKIE_NAME}=")


def test_players_are_told_apart_by_their_cookie(db_path: Path) -> None:
    with (
        TestClient(create_app(db_path=db_path)) as winner,
        TestClient(create_app(db_path=db_path)) as other,
    ):
        winner.get("/api/worlds")
        with winner.websocket_connect("/ws") as socket:
            player = Player(socket)
            player.open("tutorial", "first-steps")
            player.moves("RRRRRR")
        assert len(winner.get("/api/progress").json()["levels"]) == 1
        assert other.get("/api/progress").json() == {"levels": []}


def test_the_client_files_are_served_fresh_with_javascript_typed_as_such(
    tmp_path: Path, db_path: Path
) -> None:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>Miau</title>", encoding="utf-8")
    (web / "js" / "main.js").write_text("export const ok = true;\n", encoding="utf-8")
    (web / "miau.css").write_text("body { margin: 0 }\n", encoding="utf-8")
    with TestClient(create_app(db_path=db_path, web_dir=web)) as client:
        index = client.get("/")
        assert index.status_code == 200
        assert index.text.startswith("<!doctype html>")
        assert index.headers["content-type"].startswith("text/html")
        assert index.headers["cache-control"] == "no-cache"
        assert index.headers["set-cookie"].startswith(f"{COOKIE_NAME}=")
        script = client.get("/js/main.js")
        assert script.headers["content-type"].startswith("text/javascript")
        assert script.headers["cache-control"] == "no-cache"
        assert client.get("/miau.css").headers["content-type"].startswith("text/css")
        assert client.get("/nothing.js").status_code == 404
        assert client.get("/api/worlds").status_code == 200


def test_without_client_files_the_api_still_answers(tmp_path: Path, db_path: Path) -> None:
    with TestClient(create_app(db_path=db_path, web_dir=tmp_path / "absent")) as client:
        assert client.get("/").status_code == 404
        assert client.get("/api/worlds").status_code == 200


def test_another_packs_folder_offers_its_packs_and_skips_broken_files(
    tmp_path: Path, db_path: Path
) -> None:
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "proofs.json").write_bytes(
        (Path(__file__).parents[2] / "packs/proofs.json").read_bytes()
    )
    (packs / "broken.json").write_text("{not json", encoding="utf-8")
    with TestClient(create_app(db_path=db_path, packs_dir=packs)) as client:
        worlds = client.get("/api/worlds").json()["worlds"]
    assert [world["id"] for world in worlds] == ["proofs"]
    assert worlds[0]["unlocked"] is True


def test_a_levels_pack_is_the_one_level_pack_miau_share_encodes(client: TestClient) -> None:
    answer = client.get("/api/worlds/clockwork/levels/mouse-keeps-time/pack")
    assert answer.status_code == 200
    shipped = load_pack(SHIPPED / "clockwork.json")
    assert answer.json()["pack"] == single_level_pack(shipped, "mouse-keeps-time")
    code = client.post("/api/shared/encode", json={"pack": answer.json()["pack"]}).json()["code"]
    assert code == share_code_for(shipped, "mouse-keeps-time")


def test_a_levels_pack_of_an_unknown_level_or_world_is_a_404_in_words(client: TestClient) -> None:
    for path in (
        "/api/worlds/clockwork/levels/no-such-level/pack",
        "/api/worlds/no-such-world/levels/mouse-keeps-time/pack",
    ):
        answer = client.get(path)
        assert answer.status_code == 404
        assert "no" in answer.json()["error"]


def test_a_wrong_method_on_an_api_route_is_refused_in_json(client: TestClient) -> None:
    answer = client.put("/api/library")
    assert answer.status_code == 405
    assert answer.json() == {"error": "This address does not take that method."}
    assert "GET" in answer.headers["allow"]


def test_a_vocabulary_1_level_names_its_operators_and_properties_and_its_world_explains_them(
    client: TestClient,
) -> None:
    level = client.get("/api/worlds/lexicon/levels/not-stop").json()
    assert level["operators"] == ["IS", "AND", "NOT", "HAS", "LONELY", "ON", "NEAR", "FACING"]
    assert {"MOVE", "PULL", "SHIFT", "FLOAT", "HOT", "MELT", "OPEN", "SHUT", "WEAK"} <= set(
        level["properties"]
    )
    glossary = client.get("/api/worlds/lexicon").json()["glossary"]
    assert glossary["MOVE"]["describe"]
    assert glossary["MOVE"]["accent"] == "move"  # a colour of its own, not STOP's
    core = client.get("/api/worlds/clockwork/levels/mouse-keeps-time").json()
    assert core["operators"] == ["IS", "AND"]
    assert "MOVE" not in core["properties"]


def test_the_vocabularies_list_the_words_each_feature_brings(client: TestClient) -> None:
    words = client.get("/api/vocabularies").json()["vocabulary-1"]
    assert words["operators"] == ["NOT", "HAS", "LONELY", "ON", "NEAR", "FACING"]
    assert words["nouns"] == ["ALL", "EMPTY", "LEVEL", "TEXT"]
    assert set(words["properties"]) == set(words["glossary"])


@pytest.mark.parametrize("path", ["/", "/api/progress", "/api/worlds"])
def test_a_request_from_another_site_never_sets_a_new_player_cookie(
    app: Starlette, path: str
) -> None:
    client = TestClient(app)
    response = client.get(path, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 200
    assert "set-cookie" not in response.headers
    same_site = client.get(path, headers={"Sec-Fetch-Site": "same-origin"})
    assert same_site.headers["set-cookie"].startswith(f"{COOKIE_NAME}=")
