"""Helpers for the library and shared-level browser tests: a small pack to import, and page hooks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import ConsoleMessage, Page

BAD_PACKS = Path(__file__).resolve().parents[1] / "packs" / "bad"

GARDEN_SOLUTION = "RR"
"""Wins the first level of :func:`garden_pack`: Miau walks right onto the flag."""


def garden_pack(*, version: str = "1.0.0", name: str = "Garden") -> dict[str, Any]:
    """A two-level pack no shipped world uses the id of; its first level is won by ``RR``."""

    def words(row: int, *texts: str) -> list[dict[str, Any]]:
        return [{"kind": "word", "text": text, "x": x, "y": row} for x, text in enumerate(texts)]

    return {
        "manifest": {
            "id": "garden",
            "name": name,
            "version": version,
            "engine": 1,
            "author": "Tests",
            "description": "A flag in the grass.",
        },
        "palette": {"MIAU": {"glyph": "🐈", "faces": "left"}, "FLAG": "🚩"},
        "levels": [
            {
                "id": "flag",
                "title": "The flag",
                "width": 5,
                "height": 3,
                "objects": [
                    *words(0, "MIAU", "IS", "YOU"),
                    *words(1, "FLAG", "IS", "WIN"),
                    {"kind": "object", "noun": "MIAU", "x": 0, "y": 2},
                    {"kind": "object", "noun": "FLAG", "x": 2, "y": 2},
                ],
                "solution": GARDEN_SOLUTION,
            },
            {
                "id": "far-flag",
                "title": "The far flag",
                "width": 6,
                "height": 3,
                "objects": [
                    *words(0, "MIAU", "IS", "YOU"),
                    *words(1, "FLAG", "IS", "WIN"),
                    {"kind": "object", "noun": "MIAU", "x": 0, "y": 2},
                    {"kind": "object", "noun": "FLAG", "x": 5, "y": 2},
                ],
                "solution": "RRRRR",
            },
        ],
    }


def pack_text(pack: dict[str, Any]) -> str:
    """The pack as a file would hold it."""
    return json.dumps(pack, indent=2, ensure_ascii=False)


def open_library(page: Page, base_url: str) -> None:
    """Go to the library scene and wait until its list is drawn."""
    page.goto(f"{base_url}/#/library")
    page.wait_for_selector(".library-scene[data-ready='true']")


def wait_for_report(page: Page) -> str:
    """Wait for the import report of the latest import; its outcome."""
    page.wait_for_selector(".library-scene[data-importing='false'] .import-report:not([hidden])")
    return page.get_attribute(".import-report", "data-outcome") or ""


def reported_lines(page: Page) -> list[str]:
    """The report's problems written as the loader's ``str(issue)``: ``place: [warning: ]message``."""
    rows: list[list[str]] = page.eval_on_selector_all(
        ".import-report .problem",
        "items => items.map(item => [item.dataset.place, item.dataset.severity,"
        " item.querySelector('.problem-place').textContent,"
        " item.querySelector('.problem-message').textContent])",
    )
    lines = []
    for place, severity, shown_place, message in rows:
        assert shown_place == (place or "the whole file")
        label = "warning: " if severity == "warning" else ""
        lines.append(f"{place}: {label}{message}" if place else f"{label}{message}")
    return lines


def library_ids(page: Page) -> list[tuple[str, str]]:
    """This page's player's library, asked through the page's own API module (so the
    server's ``GET /api/library``, or the static site's in-page answer): (id, version)."""
    packs: list[dict[str, str]] = page.evaluate(
        "async () => (await import(new URL('js/api.js', location.href).href)).listLibrary()"
    )
    return [(pack["id"], pack["version"]) for pack in packs]


class ConsoleWatch:
    """Collects a page's console errors and page errors, except the browser's own
    note on an HTTP error status the test asked for (a refused import is a 400)."""

    def __init__(self, page: Page) -> None:
        """Start watching ``page``."""
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if message.text.startswith(
            "Failed to load resource: the server responded with a status of 4"
        ):
            return
        self.errors.append(f"console: {message.text}")
