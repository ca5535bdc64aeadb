"""The world-complete card after a world's last level, and the overall progress on world select."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from miau.packs import load_pack
from tests.browser.game_page import GamePage
from tests.support.local import PACKS, LocalServer

pytestmark = pytest.mark.browser

TOTAL = sum(len(load_pack(path).levels) for path in sorted(PACKS.glob("*.json")))
WORLDS = len(list(PACKS.glob("*.json")))
"""Every shipped level: what the overall progress counts."""
TUTORIAL_REQUIRED = sum(
    level.tier == "required" for level in load_pack(PACKS / "tutorial.json").levels
)


def test_a_worlds_last_level_shows_the_world_complete_card_and_world_select_the_overall_progress(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    win = page.locator(".win-overlay")

    # The tutorial's last level, its required ones not won: what is left, and no way into the next world.
    game.win_shipped_level("tutorial", "through-the-wall")
    expect(win).to_have_attribute("data-world-complete", "false")
    expect(win.locator(".world-complete")).to_contain_text(
        f"{TUTORIAL_REQUIRED} required levels still to win"
    )
    expect(win).not_to_contain_text("Next world")

    # The world's only required level, with a next one in its own world: the world's moment, on to that level.
    game.win_shipped_level("clockwork-pairs", "key-and-door")
    expect(win).to_have_attribute("data-world-complete", "true")
    expect(win.locator(".world-complete-opened")).to_have_text("Opened: Lexicon.")
    expect(win).to_contain_text("Next level")

    # The last level of a world whose required level is won: complete, on into the next world.
    game.win_shipped_level("clockwork-pairs", "let-the-mouse-in")
    expect(win).to_have_attribute("data-world-complete", "true")
    expect(win.locator(".world-complete")).to_contain_text("World complete")
    expect(win.locator(".world-complete")).to_contain_text(f"3 of {TOTAL} in all")
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/play/lexicon/*")

    page.goto(f"{live_server.url}/#/worlds")
    overall = page.locator(".overall-progress")
    expect(overall).to_have_attribute("data-won", "3")
    expect(overall).to_contain_text(f"3 of {TOTAL} levels won")
    expect(overall).to_contain_text(f"1 of {WORLDS} worlds complete")
