"""The static site on its own: every shipped world plays in the page, with no
request to another origin, and with the network cut once the page has loaded."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import GamePage
from tests.support.local import PACKS, shipped_solution
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


def test_on_a_phone_sized_page_a_level_plays_to_its_win(page: Page, site: StaticSite) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    game = GamePage(page, site.url)
    game.open_level("clockwork", "mouse-keeps-time")
    game.play(shipped_solution("clockwork", "mouse-keeps-time"))
    page.wait_for_selector(".win-overlay")


def test_the_first_visit_shows_a_loading_bar_that_goes_away_once_the_engine_runs(
    page: Page, site: StaticSite
) -> None:
    page.goto(f"{site.url}/#/play/tutorial/first-steps")
    page.wait_for_selector("#site-loading[role='progressbar']", state="attached")
    GamePage(page, site.url).wait_ready()
    assert page.locator("#site-loading").count() == 0
