"""Locks that hold: a new player's locked level, opened by its address, says what opens it and starts no game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.conftest import DESKTOP
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


def test_a_locked_level_opened_by_its_address_says_why_and_a_locked_world_answers_a_click(
    browser: Browser, live_server: LocalServer
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/#/play/lexicon/walk-out")
        panel = page.locator(".play-scene[data-locked='true'] .locked-panel")
        expect(panel).to_contain_text("This level is locked")
        # A lock names the levels that open it (at most three; this world has one to win).
        expect(panel).to_contain_text(
            "Win \u201cEvery door has a key\u201d in Clockwork pairs first"
        )
        assert page.locator(".board > .entity").count() == 0

        page.goto(f"{live_server.url}/#/play/tutorial/break-the-wall")
        expect(page.locator(".locked-panel")).to_contain_text(
            "Win \u201cWalls and Rocks\u201d or \u201cFirst Steps\u201d first"
        )
        page.keyboard.press("Escape")
        page.wait_for_url("**/#/world/tutorial")

        page.goto(f"{live_server.url}/#/worlds")
        page.click(".world-card.is-locked[data-world='clockwork']")
        expect(page.locator(".toast")).to_contain_text(
            "Locked: Win every required level of First Steps first"
        )
        # Proofs, the plainest levels, open with First Steps, not behind Lexicon.
        expect(page.locator(".world-card[data-world='proofs'] .lock-note")).to_contain_text(
            "First Steps"
        )
    finally:
        context.close()
