from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.game_page import GamePage
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


@pytest.fixture
def phone_page(browser: Browser, live_server: LocalServer) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    yield context.new_page()
    context.close()


def test_a_swipe_on_a_touch_screen_moves(phone_page: Page, live_server: LocalServer) -> None:
    game = GamePage(phone_page, live_server.url)
    game.open_level("tutorial", "first-steps")
    cat = ".board > .entity[data-noun='MIAU']"
    assert phone_page.get_attribute(cat, "data-x") == "1"
    box = phone_page.locator(".board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    # Real touches through the browser's input pipeline: they arrive as pointer events.
    touch = phone_page.context.new_cdp_session(phone_page)
    touch.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    for step in range(1, 7):
        point = {"x": x + step * 15, "y": y + step}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    game.settle()

    assert game.move_count() == 1
    assert phone_page.get_attribute(cat, "data-x") == "2"


def test_the_on_screen_pad_moves_on_a_touch_screen(
    phone_page: Page, live_server: LocalServer
) -> None:
    game = GamePage(phone_page, live_server.url)
    game.open_level("tutorial", "first-steps")

    phone_page.tap(".dpad [data-pad='right']")
    game.settle()

    assert game.move_count() == 1


def test_holding_a_key_repeats_the_move(page: Page, live_server: LocalServer) -> None:
    game = GamePage(page, live_server.url, key_repeat=True)
    game.open_level("clockwork", "mouse-keeps-time")
    cat = ".board > .entity[data-noun='MIAU']"
    start_x = int(page.get_attribute(cat, "data-x") or "0")

    page.keyboard.down("ArrowRight")
    # Held: the system's own auto-repeat (a second key-down, repeat=true) says so (input.js).
    page.keyboard.down("ArrowRight")
    # One press and two repeats, however long a loaded machine takes to show them.
    page.wait_for_function("Number(document.querySelector('#move-count').textContent) >= 3")
    page.keyboard.up("ArrowRight")
    game.settle()
    moves = game.move_count()
    page.wait_for_timeout(300)

    assert game.move_count() == moves, "nothing moves once the key is up"
    assert int(page.get_attribute(cat, "data-x") or "0") == start_x + moves
