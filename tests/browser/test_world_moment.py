"""The world's moment on the win that completes a world's required levels, on both hosts."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.game_page import GamePage
from tests.support.local import shipped_solution

pytestmark = pytest.mark.browser


def test_winning_the_last_required_level_still_to_win_says_the_world_is_complete_and_names_what_it_opened(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    win = page.locator(".win-overlay")

    # Clockwork's required levels out of order: the third first, then the first.
    game.win_shipped_level("clockwork", "ring-for-service")
    expect(win.locator(".world-complete")).to_have_count(0)
    game.win_shipped_level("clockwork", "mouse-keeps-time")
    expect(win.locator(".world-complete")).to_have_count(0)

    # The second is the last one still to win, though the world goes on past it.
    game.win_shipped_level("clockwork", "double-time")
    expect(win).to_have_attribute("data-world-complete", "true")
    moment = win.locator(".world-complete")
    expect(moment).to_contain_text("World complete")
    expect(moment.locator(".world-complete-opened")).to_have_text("Opened: Clockwork pairs.")
    expect(win).to_contain_text("Next level")

    # Played again and won, it is no new moment: the world was complete already.
    page.keyboard.press("r")
    expect(win).to_have_count(0)
    game.wait_ready()
    game.play(shipped_solution("clockwork", "double-time"))
    expect(win).to_be_visible()
    expect(win.locator(".world-complete")).to_have_count(0)
