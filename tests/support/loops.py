"""Running a coroutine from a synchronous test, whatever else the session runs."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

Result = TypeVar("Result")


def run_alone(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """Run ``coroutine`` on its own event loop in its own thread.

    The browser tests' Playwright keeps an event loop running in the main
    thread for the whole session, where ``asyncio.run`` refuses to start; a
    test that calls it directly passes alone and fails after a browser test.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
