"""The screenshot script and the browser latency benchmark, run as their users run them.

Both drive Debian's Chromium, so these tests carry the ``browser`` mark and
are skipped where ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "browser: drives the web client in Chromium (needs /usr/bin/chromium)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if shutil.which(CHROMIUM) is not None:
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)
