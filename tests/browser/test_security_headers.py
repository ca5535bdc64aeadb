"""The game plays under the server's real Content-Security-Policy, and no page may frame it.

The other browser tests serve a policy with ``'unsafe-eval'`` (Playwright's
string predicates need it); this file runs ``miau play`` itself, as
deployed, and drives the page with selectors and key presses only.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.support.local import PlayProcess, start_miau_play
from tests.support.static_site import StaticSite


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
    # The editor's scene, its modules and the level copied into it: drawn on its grid.
    page.wait_for_selector(".editor[data-ready='true'] .entity")
    context.close()
    assert seen == []


def test_another_page_cannot_frame_the_game(browser: Browser, deployed: PlayProcess) -> None:
    context = browser.new_context()
    page = context.new_page()
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))
    base = f"http://127.0.0.1:{deployed.port}"
    # Wait for the browser's own word that it blocked the frame ("Framing ... violates ...
    # frame-ancestors"), not a fixed time: a server that let itself be framed fails here.
    with page.expect_console_message(lambda message: "frame-ancestors" in message.text):
        page.set_content(f'<iframe src="{base}/" width="400" height="300"></iframe>')
    frame = page.frames[-1]
    framed = frame.url.startswith(base) and frame.query_selector("body *") is not None
    context.close()
    assert not framed


class HeadersFileHost(http.server.SimpleHTTPRequestHandler):
    """A static host that reads the site's ``_headers`` as Netlify does (its ``/*`` block)."""

    extra: list[tuple[str, str]] = []

    def end_headers(self) -> None:
        for name, value in self.extra:
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def headers_of(folder: Path) -> list[tuple[str, str]]:
    lines = (folder / "_headers").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "/*"
    return [tuple(line.strip().split(": ", 1)) for line in lines[1:]]  # type: ignore[misc]


def test_the_static_site_plays_under_the_policy_its_build_writes(
    browser: Browser, site: StaticSite
) -> None:
    handler = type("Host", (HeadersFileHost,), {"extra": headers_of(site.folder)})
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(site.folder))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        seen = violations_on(page)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        page.goto(f"{base}/#/play/tutorial/first-steps")
        page.wait_for_selector(".play-scene[data-ready='true'] .board > .entity", timeout=120_000)
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#move-count:text('1')")
        context.close()
    finally:
        server.shutdown()
        server.server_close()
    assert seen == []
