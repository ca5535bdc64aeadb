"""Settings for the whole suite: what runs the browser or PostgreSQL, and how to leave it out.

Tests that drive Chromium carry the ``browser`` mark; tests that use the
session's PostgreSQL (the ``postgres_cluster`` fixture) get the ``postgres``
mark here. When what a selected suite needs is missing, the run stops and
names it: a suite is skipped only when asked for by name, with
``MIAU_SKIP=browser,postgres`` (or deselected with ``-m``).
"""

from __future__ import annotations

import os
import shutil

import pytest

SUITES = ("browser", "postgres")
NOT_PYTEST_SUITES = ("compiled",)
"""Also taken by ``MIAU_SKIP``: ``scripts/test.sh`` then leaves out its compiled pass."""


def skipped_suites() -> set[str]:
    """The suites named in ``MIAU_SKIP`` (comma-separated).

    :raises pytest.UsageError: for a name that is not a suite.
    """
    named = {name.strip() for name in os.environ.get("MIAU_SKIP", "").split(",") if name.strip()}
    unknown = named - set(SUITES) - set(NOT_PYTEST_SUITES)
    if unknown:
        raise pytest.UsageError(
            f"MIAU_SKIP names {', '.join(sorted(unknown))}; "
            f"it takes {', '.join(SUITES + NOT_PYTEST_SUITES)}"
        )
    return named


def missing_for(suite: str) -> str | None:
    """What this machine lacks to run ``suite``, in words, or None when it has everything.

    The helpers are imported here, not at the top: they import the server and
    PostgreSQL extras, which the engine, pack and solver tests must not need.
    """
    if suite == "browser":
        from tests.support.local import CHROMIUM

        return (
            None if shutil.which(CHROMIUM) else f"Chromium ({CHROMIUM}): apt-get install chromium"
        )
    from tests.server.postgres import PostgresMissing, find_postgres_bin

    try:
        find_postgres_bin()
    except PostgresMissing as missing:
        return str(missing)
    return None


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark a test that uses the session's PostgreSQL, so ``-m "not postgres"`` leaves it out."""
    if "postgres_cluster" in getattr(item, "fixturenames", ()):
        item.add_marker(pytest.mark.postgres)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the suites named in ``MIAU_SKIP``; stop when a selected suite cannot run.

    It runs last, after ``-m`` and ``-k`` have deselected, so only what will
    run is checked.
    """
    skipped = skipped_suites()
    lacking = []
    for suite in SUITES:
        selected = [item for item in items if item.get_closest_marker(suite) is not None]
        if not selected:
            continue
        if suite in skipped:
            skip = pytest.mark.skip(reason=f"left out by MIAU_SKIP={os.environ['MIAU_SKIP']}")
            for item in selected:
                item.add_marker(skip)
            continue
        missing = missing_for(suite)
        if missing is not None:
            lacking.append(f"{suite} ({len(selected)} tests): {missing}")
    if lacking:
        raise pytest.UsageError(
            "the selected tests need what this machine lacks:\n  "
            + "\n  ".join(lacking)
            + "\ninstall it, or leave those suites out by name: MIAU_SKIP=browser,postgres"
        )
