"""The engine port's two ways to hold its socket, in the real page.

On a cross-origin isolated page (the server sends COOP and COEP on every
file) the port's socket lives in a worker that also copies each reply into
a shared mailbox, read from the next frame's callback; elsewhere, or when
the worker cannot run, the page holds a plain socket. Both must play a
level to its win.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import GamePage
from tests.browser.library_page import ConsoleWatch
from tests.support.local import LocalServer, shipped_solution

pytestmark = pytest.mark.browser

PACK = "clockwork"
LEVEL = "mouse-keeps-time"
WORKER_SCRIPT = "engine-port-worker.js"

REPLY_LANES = """
(() => {
  window.__lanes = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === "miau:reply") window.__lanes.push(entry.detail.lane);
    }
  }).observe({ type: "mark" });
})();
"""


def play_to_the_win(page: Page, base_url: str) -> None:
    game = GamePage(page, base_url)
    game.open_level(PACK, LEVEL)
    moves = shipped_solution(PACK, LEVEL)
    game.play(moves)
    page.wait_for_selector(".win-overlay")
    assert page.inner_text(".win-overlay [data-stat='moves']") == str(len(moves))


# As on a page served without the isolation headers (over plain HTTP to
# another machine, say). Stripping the headers with a route would not do:
# Chromium then blocks the page's socket to 127.0.0.1 (local network access).
NOT_ISOLATED = "Object.defineProperty(window, 'crossOriginIsolated', { value: false });"


def test_on_an_isolated_page_the_socket_lives_in_a_worker_and_replies_are_taken_in_frames(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    page.add_init_script(REPLY_LANES)
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))

    play_to_the_win(page, live_server.url)

    assert page.evaluate("crossOriginIsolated") is True
    assert [url.rsplit("/", 1)[-1] for url in workers] == [WORKER_SCRIPT]
    lanes: list[str] = page.evaluate("window.__lanes")
    assert len(lanes) == len(shipped_solution(PACK, LEVEL))
    assert set(lanes) <= {"frame", "task"}
    # Each reply is taken once; the frame's lane takes it when it came in time.
    assert "frame" in lanes


def test_without_isolation_the_page_holds_a_plain_socket_and_plays_the_same(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    page.add_init_script(NOT_ISOLATED)
    page.add_init_script(REPLY_LANES)
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))

    play_to_the_win(page, live_server.url)

    assert page.evaluate("crossOriginIsolated") is False
    assert workers == []
    assert set(page.evaluate("window.__lanes")) == {"task"}


def test_a_socket_worker_that_cannot_load_hands_over_to_the_plain_socket(
    page: Page, live_server: LocalServer
) -> None:
    page.route(f"**/{WORKER_SCRIPT}", lambda route: route.fulfill(status=404, body="gone"))
    page.add_init_script(REPLY_LANES)

    play_to_the_win(page, live_server.url)

    assert page.evaluate("crossOriginIsolated") is True
    assert set(page.evaluate("window.__lanes")) == {"task"}
