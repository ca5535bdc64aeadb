"""The game plays under the server's real Content-Security-Policy, and no page may frame it.

The other browser tests serve a policy with ``'unsafe-eval'`` (Playwright's
string predicates need it); this file runs ``miau play`` itself, as
deployed, and drives the page with selectors and key presses only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.support.local import PlayProcess, start_miau_play


@pytest.fixture
def deployed(tmp_path: Path) -> Iterator[PlayProcess]:
    play = start_miau_play(tmp_path / "miau.db")
    try:
        yield play
    finally:
        play.stop()


def violations_on(page: Page) -> list[str]:
    """The Content-Security-Policy violations the page reports from now on."""
    seen: list[str] = []
    page.on(
        "console",
        lambda message: (
            seen.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return seen


def test_a_level_plays_under_the_real_policy_without_a_violation(
    browser: Browser, deployed: PlayProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    seen = violations_on(page)
    base = f"http://127.0.0.1:{deployed.port}"
    page.goto(f"{base}/#/play/tutorial/first-steps")
    page.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#move-count:text('1')")
    page.goto(f"{base}/#/edit/tutorial/first-steps")
    page.wait_for_timeout(1500)  # the editor's scene and its modules load
    context.close()
    assert seen == []


def test_another_page_cannot_frame_the_game(browser: Browser, deployed: PlayProcess) -> None:
    context = browser.new_context()
    page = context.new_page()
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))
    base = f"http://127.0.0.1:{deployed.port}"
    page.set_content(f'<iframe src="{base}/" width="400" height="300"></iframe>')
    page.wait_for_timeout(1500)
    frame = page.frames[-1]
    framed = frame.url.startswith(base) and frame.query_selector("body *") is not None
    context.close()
    assert not framed
