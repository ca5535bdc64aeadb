"""The static site on its own: every shipped world plays in the page, with no
request to another origin, and with the network cut once the page has loaded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from miau.cli import main
from tests.browser.game_page import GamePage
from tests.support.local import PACKS, LocalServer, shipped_solution
from tests.support.static_site import StaticSite

pytestmark = pytest.mark.browser


def first_levels() -> list[tuple[str, str]]:
    """The first level of every shipped world."""
    found = []
    for path in sorted(PACKS.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if "manifest" in document and document.get("levels"):
            found.append((document["manifest"]["id"], document["levels"][0]["id"]))
    return found


def test_every_shipped_world_plays_with_the_network_cut_and_no_request_leaves_the_site(
    page: Page, site: StaticSite
) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on("worker", lambda worker: requested.append(worker.url))
    game = GamePage(page, site.url)
    game.open_level("tutorial", "first-steps")

    page.context.set_offline(True)
    for pack, level in first_levels():
        # A new route in the same page: no page load, the engine stays in the page.
        page.goto(f"{site.url}/#/worlds")
        page.wait_for_selector(".world-card")
        game.open_level(pack, level)
        game.play(shipped_solution(pack, level))
        page.wait_for_selector(".win-overlay")

    assert len(first_levels()) >= 4
    assert requested, "the page made no request at all"
    outside = [url for url in requested if not url.startswith(f"{site.url}/")]
    assert outside == []


@pytest.mark.parametrize(("pack", "level"), first_levels())
def test_on_a_phone_sized_page_every_shipped_world_plays_to_a_win(
    page: Page, site: StaticSite, pack: str, level: str
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    game = GamePage(page, site.url)
    game.open_level(pack, level)
    game.play(shipped_solution(pack, level))
    page.wait_for_selector(".win-overlay")


def test_the_first_visit_shows_a_loading_bar_that_goes_away_once_the_engine_runs(
    page: Page, site: StaticSite
) -> None:
    page.goto(f"{site.url}/#/play/tutorial/first-steps")
    page.wait_for_selector("#site-loading[role='progressbar']", state="attached")
    GamePage(page, site.url).wait_ready()
    assert page.locator("#site-loading").count() == 0


def test_progress_exported_from_the_static_site_plays_on_in_miau_play_and_comes_back(
    page: Page, browser: Browser, site: StaticSite, live_server: LocalServer, tmp_path: Path
) -> None:
    game = GamePage(page, site.url)
    game.win_shipped_level("tutorial", "first-steps")
    game.open_level("tutorial", "walls")
    game.play("RR")
    in_progress = game.positions()
    page.goto(f"{site.url}/#/library")
    with page.expect_download() as download:
        page.click("[data-action='export-progress']")
    exported = tmp_path / "from-site.json"
    download.value.save_as(exported)

    # The same player on miau play: its cookie names it for `miau progress import`.
    server_page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    server_game = GamePage(server_page, live_server.url)
    server_page.goto(f"{live_server.url}/#/worlds")
    server_page.wait_for_selector(".world-card")
    token = next(c["value"] for c in server_page.context.cookies() if c["name"] == "miau_player")
    db = ["--db", str(live_server.db_path), "--player", token]
    assert main(["progress", "import", str(exported), *db]) == 0
    server_game.open_level("tutorial", "walls")
    assert server_game.move_count() == 2
    assert server_game.positions() == in_progress
    server_game.press("z")
    assert server_game.move_count() == 1
    server_page.goto(f"{live_server.url}/#/world/tutorial")
    card = server_page.locator(".level-card[data-level='first-steps']")
    card.wait_for()
    assert "best 6 moves" in card.inner_text()

    # And back, into a browser that never played: the game after the undo, and the score.
    back = tmp_path / "from-server.json"
    assert main(["progress", "export", *db, "-o", str(back)]) == 0
    fresh = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    fresh.goto(f"{site.url}/#/library")
    fresh.wait_for_selector(".progress-panel")
    fresh.set_input_files("#progress-file", str(back))
    fresh.wait_for_selector(".progress-status[data-state='imported']")
    fresh_game = GamePage(fresh, site.url)
    fresh_game.open_level("tutorial", "walls")
    assert fresh_game.move_count() == 1
    fresh.goto(f"{site.url}/#/world/tutorial")
    fresh_card = fresh.locator(".level-card[data-level='first-steps']")
    fresh_card.wait_for()
    assert "best 6 moves" in fresh_card.inner_text()


def test_a_second_tab_plays_on_from_the_moves_made_in_the_first(
    page: Page, site: StaticSite
) -> None:
    first = GamePage(page, site.url)
    first.open_level("tutorial", "walls")
    second = GamePage(page.context.new_page(), site.url)
    second.open_level("tutorial", "walls")

    first.play("RR")
    second.press("z")

    # As on the server: the undo applies to the game the other tab moved on.
    assert second.move_count() == 1
    second.page.reload()
    second.wait_ready()
    assert second.move_count() == 1
