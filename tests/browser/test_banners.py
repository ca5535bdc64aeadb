"""The loss banner and the notices (toasts) never cover the board or the top bar, on a desktop or a phone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.game_page import NO_KEY_REPEAT, GamePage
from tests.support.local import UNLOCK_ALL, LocalServer

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

BOX = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return null;
  const box = element.getBoundingClientRect();
  return [box.left, box.top, box.right, box.bottom];
}"""

Box = list[float]


def overlap(one: Box, other: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


@pytest.fixture(params=sorted(SIZES))
def screen(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**SIZES[request.param])  # type: ignore[arg-type]
    context.add_init_script(UNLOCK_ALL)
    context.add_init_script(NO_KEY_REPEAT)
    yield context.new_page()
    context.close()


def box(page: Page, selector: str) -> Box:
    found: Box | None = page.evaluate(BOX, selector)
    assert found is not None, f"{selector} is not on the page"
    return found


def assert_clear_of_the_game(page: Page, selector: str) -> None:
    covering = box(page, selector)
    assert not overlap(covering, box(page, ".board-area")), f"{selector} covers the board"
    assert not overlap(covering, box(page, ".topbar")), f"{selector} covers the top bar"


def test_the_loss_banner_covers_neither_the_board_nor_the_top_bar(
    screen: Page, live_server: LocalServer
) -> None:
    game = GamePage(screen, live_server.url)
    game.open_level("tutorial", "skulls-and-water")
    board_before = box(screen, ".board-area")

    game.play("UURUL")  # onto a skull

    screen.locator(".loss-banner").wait_for(state="visible")
    assert_clear_of_the_game(screen, ".loss-banner")
    assert box(screen, ".board-area") == board_before, "the board moved when the banner came"
    # Its buttons are reachable where it is.
    screen.locator(".loss-banner [data-intent='undo']").click()
    screen.locator(".loss-banner").wait_for(state="hidden")
    assert game.move_count() == 4


def assert_notices_clear_of_the_game(page: Page) -> list[str]:
    """Every notice on screen is clear of the board and the top bar; returns their texts."""
    page.locator(".toast").first.wait_for(state="visible")
    notices: list[tuple[str, Box]] = page.eval_on_selector_all(
        ".toast",
        "els => els.map((e) => { const b = e.getBoundingClientRect(); return [e.innerText, [b.left, b.top, b.right, b.bottom]]; })",
    )
    board, bar = box(page, ".board-area"), box(page, ".topbar")
    for text, covering in notices:
        assert not overlap(covering, board), f"{text!r} covers the board"
        assert not overlap(covering, bar), f"{text!r} covers the top bar"
    return [text for text, _ in notices]


def test_a_notice_covers_neither_the_board_nor_the_top_bar(
    screen: Page, live_server: LocalServer
) -> None:
    game = GamePage(screen, live_server.url)
    narrow = bool(screen.viewport_size and screen.viewport_size["width"] < 500)
    game.open_level("clockwork", "mouse-keeps-time")
    if narrow:
        # A phone says the level's new word (TICK) in a notice: the side panels are below the fold.
        texts = assert_notices_clear_of_the_game(screen)
        assert any("new word" in text.lower() for text in texts), texts
    game.play("R")

    # Every screen says where a resumed game stands.
    screen.reload()
    game.wait_ready()

    assert any("Resumed at move 1" in text for text in assert_notices_clear_of_the_game(screen))
