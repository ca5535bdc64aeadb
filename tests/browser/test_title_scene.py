from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Page

from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


def test_title_scene_renders_with_no_console_error_and_no_request_beyond_the_local_server(
    page: Page, live_server: LocalServer
) -> None:
    requested: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    def record(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    page.on("console", record)
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".title-rule .word-tile")
    page.wait_for_load_state("networkidle")

    words = page.eval_on_selector_all(
        ".title-rule .word-tile", "els => els.map(e => e.textContent)"
    )
    assert words == ["MIAU", "IS", "YOU"]
    assert page.eval_on_selector_all(
        ".title-rule .word-tile", "els => els.every(e => e.dataset.lit === 'true')"
    )
    assert errors == []
    local = urlsplit(live_server.url).netloc
    outside = [url for url in requested if urlsplit(url).netloc != local]
    assert outside == []
    assert any(url.endswith("/js/main.js") for url in requested)


def test_enter_on_the_title_goes_to_the_worlds_with_their_progress(
    page: Page, live_server: LocalServer
) -> None:
    page.goto(f"{live_server.url}/")
    page.wait_for_selector(".title-rule")
    page.keyboard.press("Enter")
    page.wait_for_selector(".world-card[data-world='tutorial']")
    assert page.url.endswith("#/worlds")
    names = page.eval_on_selector_all(
        ".world-card .world-name", "els => els.map(e => e.textContent)"
    )
    assert names[0] == "First Steps"
    assert page.inner_text(".world-card[data-world='tutorial'] .progress-text") == "0 / 14 required"
