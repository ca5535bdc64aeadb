"""Suggest's answer time on both hosts, for docs/performance.md; not part of the suite.

Run by path (pytest collects only ``test_*.py`` files by itself)::

    pytest -s -p no:cacheprovider tests/browser/measure_suggest.py

Prints each press's seconds (the editor's own 5 s budget) with ``uptime``,
and the median of three; with ``MIAU_SUGGEST_SHOTS=FOLDER`` it also saves
the panel at 1280x800 with cards (asking for 20 s when 5 s found nothing).
"""

from __future__ import annotations

import os
import statistics
import subprocess

from playwright.sync_api import Page

from tests.browser.library_page import ConsoleWatch
from tests.browser.test_editor_depth import SUGGEST_LEVEL, ask, ask_until_a_card, open_draft


def test_measure(page: Page, game_url: str, console: ConsoleWatch) -> None:
    editor, _ = open_draft(page, game_url, *SUGGEST_LEVEL)
    editor.tab("depth")
    host = (
        "static"
        if ":" in game_url and "static" in os.environ.get("PYTEST_CURRENT_TEST", "")
        else "server"
    )
    ask(page)  # warm-up: the static site's first job starts the page's Python
    times = []
    for _ in range(int(os.environ.get("MIAU_SUGGEST_PRESSES", "3"))):
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        answer, seconds = ask(page)
        times.append(seconds)
        print("MEASURE", host, answer, round(seconds, 2), "|", load)
    print("MEDIAN", host, round(statistics.median(times), 2))
    shots = os.environ.get("MIAU_SUGGEST_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/suggest-{host}-none.png")
        ask_until_a_card(page)
        page.locator(".variation-card").first.scroll_into_view_if_needed()
        page.screenshot(path=f"{shots}/suggest-{host}.png")
