"""Where the game names keys, a touch screen gets touch words instead, and a keyboard screen keeps its keys."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.game_page import NO_KEY_REPEAT, GamePage
from tests.support.local import UNLOCK_ALL, LocalServer, shipped_solution

pytestmark = pytest.mark.browser

PHONE: dict[str, object] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
DESKTOP: dict[str, object] = {"viewport": {"width": 1280, "height": 800}}

VISIBLE_KEY_CHIPS = """() => [...document.querySelectorAll('kbd')]
  .filter((chip) => chip.getClientRects().length > 0)
  .map((chip) => chip.textContent)"""
KEY_TITLES = r"""() => [...document.querySelectorAll('[title]')]
  .filter((element) => element.getClientRects().length > 0)
  .map((element) => element.title)
  .filter((title) => /\([A-Z]\)|\b(Ctrl|Esc|Enter|Space)\b/.test(title))"""
"""Tooltips that name a key (a long press shows a tooltip on some touch screens)."""


def new_page(browser: Browser, options: dict[str, object]) -> Page:
    context = browser.new_context(**options)  # type: ignore[arg-type]
    context.add_init_script(UNLOCK_ALL)
    context.add_init_script(NO_KEY_REPEAT)
    return context.new_page()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    page = new_page(browser, PHONE)
    yield page
    page.context.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    page = new_page(browser, DESKTOP)
    yield page
    page.context.close()


def win_first_steps(page: Page, base_url: str) -> None:
    game = GamePage(page, base_url)
    game.win_shipped_level("tutorial", "first-steps")


def test_a_touch_screen_names_no_keys_on_the_title_the_play_scene_or_the_win_card(
    phone: Page, game_url: str
) -> None:
    phone.goto(f"{game_url}/#/")
    phone.wait_for_selector(".title-touch")
    assert phone.locator(".title-keys").is_hidden()
    assert "Swipe" in phone.inner_text(".title-touch")
    assert phone.evaluate(VISIBLE_KEY_CHIPS) == []
    for scene, ready in (("/worlds", ".world-card"), ("/world/tutorial", ".level-card")):
        phone.goto(f"{game_url}/#{scene}")
        phone.wait_for_selector(ready)
        assert phone.evaluate(VISIBLE_KEY_CHIPS) == [], scene
        assert phone.evaluate(KEY_TITLES) == [], scene

    game = GamePage(phone, game_url)
    game.open_level("tutorial", "first-steps")
    phone.click(".hint-button")
    assert phone.evaluate(VISIBLE_KEY_CHIPS) == []
    assert phone.evaluate(KEY_TITLES) == []
    game.play(shipped_solution("tutorial", "first-steps")[:1])
    phone.reload()
    game.wait_ready()
    assert "Restart is in the top bar" in phone.inner_text(".scene-toasts")

    game.play(shipped_solution("tutorial", "first-steps")[1:])
    phone.wait_for_selector(".win-overlay")
    assert phone.evaluate(VISIBLE_KEY_CHIPS) == []


def test_a_keyboard_screen_names_its_keys(desktop: Page, live_server: LocalServer) -> None:
    desktop.goto(f"{live_server.url}/#/")
    desktop.wait_for_selector(".title-keys")
    assert desktop.locator(".title-touch").is_hidden()
    assert "Z" in desktop.evaluate(VISIBLE_KEY_CHIPS)

    win_first_steps(desktop, live_server.url)
    chips = desktop.eval_on_selector_all(
        ".win-overlay kbd",
        "chips => chips.filter((c) => c.getClientRects().length).map((c) => c.textContent)",
    )
    assert "Esc" in chips and "R" in chips
