"""Sound: silent until the first key press, an effect per turn after it, and a mute switch kept per browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.game_page import GamePage
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser

PLAYED = "Number(document.documentElement.dataset.soundsPlayed || '0')"


def test_no_sound_before_the_first_key_press_then_one_per_turn_and_mute_is_remembered(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")
    root = page.locator("html")
    expect(root).to_have_attribute("data-sound", "waiting")
    assert page.evaluate(PLAYED) == 0

    game.press("ArrowRight")
    expect(root).to_have_attribute("data-sound", "on")
    page.wait_for_function(f"{PLAYED} === 1")
    game.press("ArrowLeft")
    page.wait_for_function(f"{PLAYED} === 2")

    page.click(".sound-toggle")
    expect(root).to_have_attribute("data-sound", "muted")
    expect(page.locator(".sound-toggle")).to_have_attribute("aria-pressed", "false")
    game.press("ArrowRight")
    assert page.evaluate(PLAYED) == 2

    page.reload()
    game.wait_ready()
    expect(root).to_have_attribute("data-sound", "muted")
    # M switches it back on (a key press, so the audio may start now).
    page.keyboard.press("m")
    expect(root).to_have_attribute("data-sound", "on")
    expect(page.locator(".sound-toggle")).to_have_attribute("aria-pressed", "true")
