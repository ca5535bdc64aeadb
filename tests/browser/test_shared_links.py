"""Shared links through the real page: a shipped level's link plays and wins in
a fresh browser context, damaged links show a clear message and change
nothing, and the play scene's Share button gives a link to the same level."""

from __future__ import annotations

import base64
import zlib

import pytest
from playwright.sync_api import Browser, Page, expect

from miau.packs import load_pack
from miau.packs.share import encode_share_code, share_code_for
from tests.browser.game_page import GamePage
from tests.browser.library_page import ConsoleWatch, garden_pack, library_ids, pack_text
from tests.support.local import PACKS, LocalServer, shipped_solution

pytestmark = pytest.mark.browser


def shipped_code(pack: str, level: str) -> str:
    return share_code_for(load_pack(PACKS / f"{pack}.json"), level)


def code_of_bytes(raw: bytes) -> str:
    """A well-formed code (format 1, canonical base64url of a zlib stream) of any bytes."""
    return "1" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).rstrip(b"=").decode("ascii")


def changed_character(code: str) -> str:
    middle = len(code) // 2
    replacement = "A" if code[middle] != "A" else "B"
    return code[:middle] + replacement + code[middle + 1 :]


def broken_pack_code() -> str:
    pack = garden_pack()
    del pack["levels"][1]
    pack["levels"][0]["objects"][0]["x"] = 99
    return encode_share_code(pack)


DAMAGED = {
    "one-changed-character": lambda: changed_character(shipped_code("tutorial", "walls")),
    "truncated": lambda: shipped_code("tutorial", "walls")[:-12],
    "zlib-bomb": lambda: code_of_bytes(b"[" + b" " * 2_000_000 + b"]"),
    "fails-the-loader": broken_pack_code,
}


def test_a_shipped_levels_link_plays_and_wins_in_a_fresh_context(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    code = shipped_code("tutorial", "first-steps")

    page.goto(f"{game_url}/#/shared/{code}")
    game = GamePage(page, game_url)
    game.wait_ready()
    expect(page.locator(".play-world")).to_have_text("Shared level")
    expect(page.locator(".play-title")).to_have_text("First Steps")
    game.play(shipped_solution("tutorial", "first-steps"))

    page.wait_for_selector(".win-overlay")
    expect(page.locator(".win-overlay h2")).to_have_text("First Steps")
    page.keyboard.press("Enter")  # no next level: back to worlds
    page.wait_for_url("**/#/worlds")


def test_a_shared_level_resumes_after_a_reload(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    code = shipped_code("tutorial", "walls")
    page.goto(f"{game_url}/#/shared/{code}")
    game = GamePage(page, game_url)
    game.wait_ready()
    game.play("RR")
    moved = game.positions()

    page.reload()
    game.wait_ready()

    assert game.move_count() == 2
    assert game.positions() == moved


def test_a_shared_level_is_reopened_as_shared_after_a_server_restart(
    page: Page, live_server: LocalServer
) -> None:
    # No console watch: the browser logs the refused reconnection attempts.
    code = shipped_code("tutorial", "walls")
    page.goto(f"{live_server.url}/#/shared/{code}")
    game = GamePage(page, live_server.url)
    game.wait_ready()
    game.play("R")
    after_one_move = game.positions()
    game.play("R")
    in_progress = game.positions()

    live_server.restart()

    page.wait_for_selector(".play-scene[data-reopened='1']")
    assert game.positions() == in_progress
    game.press("z")
    assert game.positions() == after_one_move
    assert game.move_count() == 1


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_link_shows_a_clear_message_and_changes_nothing(
    page: Page, game_url: str, console: ConsoleWatch, damage: str
) -> None:
    page.goto(f"{game_url}/#/library")
    page.wait_for_selector(".library-scene[data-ready='true']")
    page.fill("#pack-text", pack_text(garden_pack()))
    page.click("[data-action='import']")
    page.wait_for_selector(".pack-card[data-pack='garden']")
    before = library_ids(page)

    page.goto(f"{game_url}/#/shared/{DAMAGED[damage]()}")

    panel = page.locator(".message-panel[data-failure='link']")
    expect(panel).to_be_visible()
    expect(panel.locator(".message-heading")).to_have_text("This link does not open a level")
    sentence = panel.locator(".message-text").inner_text()
    assert sentence.endswith(".") and len(sentence) > 20
    if damage == "fails-the-loader":
        expect(panel.locator(".problem-place").first).to_have_text("levels[0].objects[0].x")
    assert library_ids(page) == before
    page.keyboard.press("Escape")
    page.wait_for_url("**/#/worlds")


def test_a_link_with_characters_outside_the_code_alphabet_shows_the_message(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    page.goto(f"{live_server.url}/#/shared/not%20a%20code!")

    expect(page.locator(".message-panel[data-failure='link']")).to_be_visible()


def test_the_share_button_gives_a_link_that_opens_the_same_level(
    page: Page, browser: Browser, game_url: str, console: ConsoleWatch
) -> None:
    game = GamePage(page, game_url)
    game.open_level("clockwork", "mouse-keeps-time")
    start = game.positions()

    page.keyboard.press("l")

    dialog = page.locator(".share-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".share-status")).not_to_be_empty()
    link = dialog.locator(".share-link").input_value()
    assert link.startswith(f"{game_url}/#/shared/1")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    game.play("W")  # the keys are the board's again
    assert game.move_count() == 1

    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        fresh = other.new_page()
        fresh_watch = ConsoleWatch(fresh)
        fresh.goto(link)
        fresh_game = GamePage(fresh, game_url)
        fresh_game.wait_ready()
        expect(fresh.locator(".play-title")).to_have_text("The mouse keeps time")
        assert fresh_game.positions() == start
        fresh_game.play(shipped_solution("clockwork", "mouse-keeps-time"))
        fresh.wait_for_selector(".win-overlay")
        assert fresh_watch.errors == []
    finally:
        other.close()


def test_a_shared_levels_share_button_gives_its_own_link(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    code = shipped_code("tutorial", "walls")
    page.goto(f"{live_server.url}/#/shared/{code}")
    GamePage(page, live_server.url).wait_ready()

    page.click(".share-button")

    expect(page.locator(".share-dialog .share-link")).to_have_value(
        f"{live_server.url}/#/shared/{code}"
    )


OTHER_SITE = "http://elsewhere.example/"
"""A page on another site (answered by the test itself), as a forum or a chat would be."""


def test_a_share_link_clicked_on_another_site_keeps_the_players_progress(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.win_shipped_level("tutorial", "first-steps")
    (cookie_before,) = [c for c in page.context.cookies() if c["name"] == "miau_player"]

    link = f"{live_server.url}/#/shared/{shipped_code('tutorial', 'walls')}"
    page.route(
        OTHER_SITE,
        lambda route: route.fulfill(
            content_type="text/html", body=f'<a id="miau" href="{link}">a level for you</a>'
        ),
    )
    page.goto(OTHER_SITE)
    page.click("#miau")
    game.wait_ready()
    expect(page.locator(".play-title")).to_have_text("Walls and Rocks")

    (cookie_after,) = [c for c in page.context.cookies() if c["name"] == "miau_player"]
    assert cookie_after["value"] == cookie_before["value"]
    progress = page.evaluate("fetch('/api/progress').then(response => response.json())")
    assert {"pack": "tutorial", "level": "first-steps"}.items() <= progress["levels"][0].items()
