from __future__ import annotations

import contextlib
import sqlite3

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import GamePage
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


def test_a_reload_in_the_middle_of_a_level_resumes_the_same_board_and_undo_works(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    game.open_level("tutorial", "walls")
    game.play("R")
    after_one_move = game.positions()
    game.play("R")
    game.press("z")
    game.play("RD")
    before_reload = game.positions()

    page.reload()
    game.wait_ready()

    assert page.get_attribute(".play-scene", "data-resumed") == "true"
    assert game.positions() == before_reload
    assert game.move_count() == 3
    game.press("z")
    game.press("z")
    assert game.positions() == after_one_move
    assert game.move_count() == 1


def test_a_server_restart_keeps_progress_and_the_game_in_progress(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.win_shipped_level("tutorial", "first-steps")
    game.open_level("tutorial", "walls")
    game.play("R")
    after_one_move = game.positions()
    game.play("R")
    in_progress = game.positions()

    live_server.restart()

    # The open page notices the drop, reconnects to the new server and
    # re-opens the level, which the new server replays from its stored log.
    page.wait_for_selector(".play-scene[data-reopened='1']")
    assert game.positions() == in_progress
    game.press("z")
    assert game.positions() == after_one_move
    assert game.move_count() == 1
    page.reload()
    game.wait_ready()
    assert game.positions() == after_one_move
    game.press("ArrowRight")
    assert game.positions() == in_progress

    page.goto(f"{live_server.url}/#/world/tutorial")
    card = page.locator(".level-card[data-level='first-steps']")
    card.wait_for()
    assert card.get_attribute("data-won") == "true"
    assert "best 6 moves" in card.inner_text()
    assert page.locator(".level-card[data-level='walls']").get_attribute("data-locked") == "false"


def test_a_saved_game_that_cannot_be_resumed_starts_fresh_and_the_page_says_why(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")
    game.play("RR")
    token = next(
        cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "miau_player"
    )
    # The stored log as a damaged row (or an older Miau's out-of-bounds restore) leaves it.
    with contextlib.closing(sqlite3.connect(live_server.db_path)) as db:
        db.execute(
            "UPDATE intents SET letter = 'S', payload = '{not json' WHERE seq = 0 AND game_id IN "
            "(SELECT id FROM games WHERE player = ? AND level = 'first-steps' "
            "AND finished_at IS NULL)",
            (token,),
        )
        db.commit()

    page.reload()
    game.wait_ready()

    assert page.get_attribute(".play-scene", "data-resumed") == "false"
    assert game.move_count() == 0
    page.locator(".toast", has_text="could not be resumed").wait_for()
    game.play("R")
    assert game.move_count() == 1
