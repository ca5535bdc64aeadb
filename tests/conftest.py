"""Settings for the whole suite: browser tests skip where Chromium is missing, except in CI."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.support.local import CHROMIUM


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip ``browser`` tests on a machine without Chromium; in CI they must run, so never there."""
    if shutil.which(CHROMIUM) is not None or os.environ.get("CI"):
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is not installed (apt-get install chromium)")
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(skip)
