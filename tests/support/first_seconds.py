"""The first seconds of a level's page, as a player sees them: when the board is drawn, when a move shows.

Shared by the browser test ``tests/browser/test_first_move.py`` and
``benchmarks/static_site.py``. ``WATCH`` is an init script: from the page's
first frame it notes, in the page's own clock (ms since navigation), when
the board's first tiles are in the page and every move count the top bar
shows (``#move-count``; a dash, shown before the game's state is known, is
no count). A MutationObserver sees each change before the frame that paints
it.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import Page

WATCH = r"""
(() => {
  const watch = { board: null, counts: [] };
  window.__firstSeconds = watch;
  const look = () => {
    const now = performance.now();
    if (watch.board === null && document.querySelector(".board > .entity")) watch.board = now;
    const text = document.getElementById("move-count")?.textContent ?? "";
    if (!/^\d+$/.test(text)) return;
    const count = Number(text);
    const last = watch.counts[watch.counts.length - 1];
    if (!last || last[1] !== count) watch.counts.push([now, count]);
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""

FIRST_TILES = ".play-scene .board > .entity"
"""The board's first drawing: its tiles (on the static site, maybe the stored board, before the engine is ready)."""


@dataclass(frozen=True, slots=True)
class FirstSeconds:
    """What one page load showed, in ms since its navigation."""

    board: float
    """When the board's first tiles were in the page."""
    counts: list[tuple[float, int]]
    """Every move count the top bar showed, with when, in order."""

    def shown(self, count: int) -> float | None:
        """When the top bar first showed `count`, or None."""
        return next((at for at, seen in self.counts if seen == count), None)


def read_watch(page: Page) -> FirstSeconds:
    """What ``WATCH`` saw so far on `page`."""
    seen = page.evaluate("window.__firstSeconds")
    return FirstSeconds(
        float(seen["board"]), [(float(at), int(count)) for at, count in seen["counts"]]
    )


def press_as_the_board_appears(page: Page, key: str = "ArrowRight") -> None:
    """Press `key` the moment the board's first tiles are in the page."""
    page.wait_for_selector(FIRST_TILES, state="attached", timeout=120_000)
    page.keyboard.press(key)


def wait_for_count(page: Page, count: int, timeout_ms: float = 120_000) -> None:
    """Wait until the top bar shows `count` moves."""
    page.wait_for_function(
        f"document.getElementById('move-count')?.textContent === '{count}'", timeout=timeout_ms
    )
