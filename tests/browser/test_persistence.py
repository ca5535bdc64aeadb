from __future__ import annotations

import contextlib
import sqlite3

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import GamePage, Positions
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser

KEY_LOG = """
window.__miauKeys = [];
for (const kind of ['keydown', 'keyup']) {
  window.addEventListener(kind, (event) => {
    window.__miauKeys.push(`${kind} ${event.key} at ${performance.now().toFixed(1)} ms`);
  }, true);
}
"""
"""An init script: every key-down and key-up the page sees, with when it saw it."""


def stored_log(live_server: LocalServer, page: Page, level: str) -> list[str]:
    """The letters of the player's unfinished stored game on a tutorial ``level``, in order."""
    token = next(
        cookie["value"] for cookie in page.context.cookies() if cookie["name"] == "miau_player"
    )
    with contextlib.closing(sqlite3.connect(live_server.db_path)) as db:
        rows = db.execute(
            "SELECT letter FROM intents WHERE game_id IN (SELECT id FROM games WHERE player = ? "
            "AND pack = 'tutorial' AND level = ? AND finished_at IS NULL) ORDER BY seq",
            (token, level),
        ).fetchall()
    return [letter for (letter,) in rows]


def what_happened(
    game: GamePage, live_server: LocalServer, console: list[str], expected: Positions
) -> str:
    """Everything a failure after the restart needs said: board, keys, page log, stored log."""
    shown = game.positions()
    moved = {
        id_: (expected.get(id_), cell) for id_, cell in shown.items() if expected.get(id_) != cell
    }
    keys = game.page.evaluate("window.__miauKeys ?? []")
    return "\n".join(
        [
            f"move count {game.move_count()} (board's {game.board_move_count()}); "
            f"expected cell, shown cell of each entity that differs: {moved}",
            f"the server's stored log of the game: {stored_log(live_server, game.page, 'walls')}",
            "keys the page saw:",
            *keys,
            "the page's console:",
            *console,
        ]
    )


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
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.add_init_script(KEY_LOG)
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
    assert game.positions() == in_progress, what_happened(game, live_server, console, in_progress)
    game.press("z")
    assert game.positions() == after_one_move, what_happened(
        game, live_server, console, after_one_move
    )
    assert game.move_count() == 1, what_happened(game, live_server, console, after_one_move)
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
    assert (
        page.locator(".level-card[data-level='break-the-wall']").get_attribute("data-locked")
        == "false"
    )


LATE_KEY_UP_MS = 600
"""How late a loaded machine may deliver a press's key-up: well past the page's 180 ms
hold-to-repeat delay (input.js ``REPEAT_DELAY_MS``)."""


def test_a_press_whose_key_up_comes_late_still_undoes_one_move_after_a_restart(
    page: Page, live_server: LocalServer
) -> None:
    # The likely cause of the test above's rare failure (one Z undid two moves), made
    # certain: Playwright sends a press's key-up only once the page has answered the
    # key-down, so a loaded machine can deliver it after the hold-to-repeat delay, and a
    # page that repeats held keys then undoes twice (its stored log: R R Z Z).
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "walls")
    game.play("R")
    after_one_move = game.positions()
    game.play("R")
    live_server.restart()
    page.wait_for_selector(".play-scene[data-reopened='1']")

    page.keyboard.down("z")
    page.wait_for_timeout(LATE_KEY_UP_MS)
    page.keyboard.up("z")
    game.settle()

    assert game.move_count() == 1
    assert game.positions() == after_one_move


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
