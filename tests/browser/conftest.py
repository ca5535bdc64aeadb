"""Browser tests: the real page in Debian's Chromium against the real server.

One server per session (uvicorn in a thread, on a real SQLite file in a
temporary folder); each test gets a fresh browser context, so a fresh
player cookie. Select these tests with ``-m browser`` or leave them out with
``-m "not browser"``.

Tests that take ``game_url`` run twice: against the server (``server``)
and against the static site that ``miau build-site`` writes, served by
``python -m http.server`` with the engine in the page (``static``). The
site is built once per session.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.game_page import NO_KEY_REPEAT
from tests.browser.library_page import ConsoleWatch
from tests.support.local import CHROMIUM, CHROMIUM_ARGS, UNLOCK_ALL, LocalServer
from tests.support.static_site import StaticSite, static_site

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    server = LocalServer(tmp_path_factory.mktemp("miau-browser") / "miau.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticSite]:
    """The static site, built once per session and served by a plain static file server."""
    with static_site(tmp_path_factory.mktemp("miau-site") / "site") as served:
        yield served


@pytest.fixture(params=["server", "static"])
def game_url(request: pytest.FixtureRequest) -> str:
    """Where the game is: the server, or the static site with the engine in the page."""
    if request.param == "server":
        server: LocalServer = request.getfixturevalue("live_server")
        return server.url
    built: StaticSite = request.getfixturevalue("site")
    return built.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # pytest-playwright's `page` fixture then launches Debian's Chromium.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": list(CHROMIUM_ARGS)}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture(scope="session")
def base_url(live_server: LocalServer) -> str:
    # Replaces pytest-base-url's fixture (whose form pytest 9 warns about) with the live server.
    return live_server.url


@pytest.fixture
def page(page: Page) -> Page:
    """pytest-playwright's page, with every level open by address (test_locks.py checks the locks).

    Held keys do not repeat in it (see ``NO_KEY_REPEAT``), so that a scripted
    press is one move however late its key-up arrives; ``GamePage(...,
    key_repeat=True)`` turns repeat back on for a test of holding a key.
    """
    page.add_init_script(UNLOCK_ALL)
    page.add_init_script(NO_KEY_REPEAT)
    return page


@pytest.fixture
def console(page: Page) -> Iterator[ConsoleWatch]:
    """Fails the test if the page logged an error (an HTTP 4xx the test asked for is none)."""
    watch = ConsoleWatch(page)
    yield watch
    assert watch.errors == []
