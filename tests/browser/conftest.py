"""Browser tests: the real page in Debian's Chromium against the real server.

One server per session (uvicorn in a thread, on a real SQLite file in a
temporary folder); each test gets a fresh browser context, so a fresh
player cookie. Select these tests with ``-m browser`` or leave them out with
``-m "not browser"``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.live_server import LiveServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1280, "height": 800}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the web client in Chromium (needs /usr/bin/chromium)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if shutil.which(CHROMIUM) is None:
        skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed")
        for item in items:
            if item.get_closest_marker("browser") is not None:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("miau-browser") / "miau.db")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # pytest-playwright's `page` fixture then launches Debian's Chromium.
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": DESKTOP}


@pytest.fixture(scope="session")
def base_url(live_server: LiveServer) -> str:
    # Replaces pytest-base-url's fixture (whose form pytest 9 warns about) with the live server.
    return live_server.url
