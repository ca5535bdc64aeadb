"""The static site beside the server: size, start-up, the first seconds, key press to settled frame, solver rate.

Run: ``.venv/bin/python benchmarks/static_site.py [--presses N] [--starts N] [--first N] [--only first]``
(a few minutes; the site is built first, the Pyodide download cached;
``--only first`` runs the first seconds alone).

Builds the site with ``miau build-site`` into a temporary folder, serves it
with ``python -m http.server`` and starts the game server beside it (uvicorn
in a thread, a temporary SQLite database), then drives headless Chromium
(``/usr/bin/chromium``) against both:

- **site size**: the bytes ``miau build-site`` wrote, and what a first visit
  downloads (the runtime, the engine zip and the snapshot among them);
- **cold start**: a fresh browser context (empty cache, empty IndexedDB)
  opening a level; the time from navigation to the first board drawn (the
  first ``.board > .entity`` in the DOM, seen by a MutationObserver);
- **warm start**: a reload of that page (files from the browser's cache),
  to the first board drawn again;
- **the first seconds** (``--first`` runs, median of each): a fresh
  browser context opens Clockwork's ``mouse-keeps-time`` (cold) and one
  arrow key is pressed the moment the board's first tiles are in the page;
  then the page is reloaded (warm, the game saved at move 1) and a key is
  pressed again the same way. Printed: the time to the board (from
  navigation), from the board to that key's move shown in the top bar, and
  after the reload the time until the saved move count is shown (and
  whether any lower count showed first); with the load average before and
  after, and on the static site where the engine's start went (the
  worker's stages, ``miau:engine-ready``'s detail);
- **key press to settled frame** with reduced motion, Clockwork's
  ``mouse-keeps-time`` (the cat walks the open corridor, the mouse ticks
  each turn): the key's ``keydown`` time stamp, the port's ``miau:reply``
  mark (the engine's answer taken by the page: the engine's own time for
  the move, plus the trip), and the first animation frame after the board
  shows the reply's move count. ``frame - reply`` is what the page adds;
- **solver rate**: the editor's solve in the page (the studio worker under
  Pyodide) on ``tests/browser/levels/open-room.json`` with a cap, beside the
  same search on CPython, as the server's studio workers run it.

Figures are printed, not asserted. Targets (loopback): warm start at most
1.5 s, cold start at most 5 s, key press to settled frame p95 at most 16 ms
plus the engine's own time for the move. Machine load changes all of them:
compare the two ports of one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import Browser, Page, sync_playwright
from tests.support.first_seconds import (
    WATCH,
    FirstSeconds,
    press_as_the_board_appears,
    read_watch,
    wait_for_count,
)
from tests.support.local import CHROMIUM, CHROMIUM_ARGS, UNLOCK_ALL, running_server
from tests.support.static_site import served_folder

from miau.site.build import build_site
from miau.solver.search import solve

LEVEL_ROUTE = "#/play/clockwork/mouse-keeps-time"
CORRIDOR = 11
SOLVE_LEVEL = (
    Path(__file__).resolve().parent.parent / "tests" / "browser" / "levels" / "open-room.json"
)
SOLVE_CAP = 100_000

FIRST_BOARD = r"""
(() => {
  window.__firstBoard = null;
  new MutationObserver((_, observer) => {
    if (document.querySelector(".board > .entity")) {
      window.__firstBoard = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""

PRESS_PROBE = r"""
(() => {
  const probe = { keyAt: null, replyAt: null, frameAt: null, want: null };
  window.__press = probe;
  window.addEventListener("keydown", (event) => {
    probe.keyAt = event.timeStamp;
    probe.replyAt = probe.frameAt = null;
  }, { capture: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === "miau:reply") probe.replyAt = entry.startTime;
  }).observe({ type: "mark" });
  const watch = () => {
    const board = document.querySelector(".board");
    if (!board) return setTimeout(watch, 50);
    new MutationObserver(() => {
      if (probe.want !== null && board.dataset.moveCount === String(probe.want) && probe.frameAt === null) {
        requestAnimationFrame(() => { if (probe.frameAt === null) probe.frameAt = performance.now(); });
      }
    }).observe(board, { attributes: true, attributeFilter: ["data-move-count"] });
  };
  watch();
})();
"""


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def first_board(page: Page) -> float:
    page.wait_for_function("window.__firstBoard !== null", timeout=120_000)
    return float(page.evaluate("window.__firstBoard"))


def starts(browser: Browser, url: str, count: int) -> tuple[list[float], list[float]]:
    """Cold and warm starts to the first board drawn, ms."""
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(count):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(UNLOCK_ALL)  # the benchmark level is locked for a fresh player
        page = context.new_page()
        page.add_init_script(FIRST_BOARD)
        page.goto(f"{url}/{LEVEL_ROUTE}")
        cold.append(first_board(page))
        page.reload()
        warm.append(first_board(page))
        context.close()
    return cold, warm


ENGINE_READY = """
new Promise((resolve) => {
  const found = performance.getEntriesByName("miau:engine-ready")[0];
  if (found) return resolve({ at: found.startTime, ...found.detail });
  new PerformanceObserver((list, observer) => {
    for (const entry of list.getEntries()) if (entry.name === "miau:engine-ready") {
      observer.disconnect();
      resolve({ at: entry.startTime, ...entry.detail });
    }
  }).observe({ type: "mark" });
})
"""


def first_seconds(browser: Browser, url: str, count: int, static: bool) -> dict[str, list[float]]:
    """The first seconds of `count` cold starts and the reload after each (ms; see the module's docstring)."""
    figures: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        figures.setdefault(name, []).append(value)

    def one_start(page: Page, start: str, saved: int) -> FirstSeconds:
        press_as_the_board_appears(page)
        wait_for_count(page, saved + 1)
        seen = read_watch(page)
        moved = seen.shown(saved + 1)
        assert moved is not None
        note(f"{start} board", seen.board)
        note(f"{start} move", moved - seen.board)
        if static:
            ready = page.evaluate(ENGINE_READY)
            note(f"{start} engine ready", ready["at"])
            for stage in ("downloaded", "runtime", "imported", "restored"):
                note(f"{start} worker {stage}", ready[stage])
        return seen

    for _ in range(count):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(UNLOCK_ALL)
        context.add_init_script(WATCH)
        page = context.new_page()
        page.goto(f"{url}/{LEVEL_ROUTE}")
        one_start(page, "cold", 0)
        page.wait_for_selector(".play-scene[data-pending='0']", state="attached")
        page.reload()
        seen = one_start(page, "warm", 1)
        saved = seen.shown(1)
        note("saved count", saved if saved is not None else float("nan"))
        lower = [count for at, count in seen.counts if count < 1 and (saved is None or at <= saved)]
        note("lower count shown", float(len(lower)))
        context.close()
    return figures


def print_first_seconds(name: str, figures: dict[str, list[float]]) -> None:
    def median(key: str) -> str:
        values = figures[key]
        return f"{statistics.median(values):6.0f} ms (of {len(values)}: {', '.join(f'{v:.0f}' for v in values)})"

    for start in ("cold", "warm"):
        print(f"{name:6}  {start} start to board:          {median(f'{start} board')}")
        print(f"{name:6}  {start} board to first move shown: {median(f'{start} move')}")
    print(f"{name:6}  reload to saved count shown:  {median('saved count')}")
    print(
        f"{name:6}  reloads showing a lower count: {sum(1 for v in figures['lower count shown'] if v)}"
    )
    for start in ("cold", "warm"):
        if f"{start} engine ready" not in figures:
            continue
        stages = ", ".join(
            f"{stage} {statistics.median(figures[f'{start} worker {stage}']):.0f}"
            for stage in ("downloaded", "runtime", "imported", "restored")
        )
        print(
            f"{name:6}  {start} engine ready in the page at {statistics.median(figures[f'{start} engine ready']):.0f} ms "
            f"(the worker's clock: {stages})"
        )


def presses(browser: Browser, url: str, count: int) -> dict[str, list[float]]:
    """Key press to reply taken and to settled frame, ms, one per accepted move."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce")
    context.add_init_script(UNLOCK_ALL)
    page = context.new_page()
    page.add_init_script(PRESS_PROBE)
    page.goto(f"{url}/{LEVEL_ROUTE}")
    page.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    figures: dict[str, list[float]] = {"reply": [], "frame": [], "page": []}
    for index in range(count):
        key = "ArrowRight" if (index // (CORRIDOR - 1)) % 2 == 0 else "ArrowLeft"
        page.evaluate(f"window.__press.want = {index + 1}")
        page.keyboard.press(key)
        page.wait_for_function("window.__press.frameAt !== null && window.__press.replyAt !== null")
        probe: dict[str, Any] = page.evaluate("window.__press")
        reply, frame = probe["replyAt"] - probe["keyAt"], probe["frameAt"] - probe["keyAt"]
        if index >= 3:  # the first presses warm the engine up
            figures["reply"].append(reply)
            figures["frame"].append(frame)
            figures["page"].append(frame - reply)
        time.sleep(0.03)
    context.close()
    return figures


def page_solver_rate(browser: Browser, url: str) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/")
    level = json.loads(SOLVE_LEVEL.read_text(encoding="utf-8"))
    result: dict[str, Any] = page.evaluate(
        """async ([pack, cap]) => {
             const studio = await import(new URL('js/studio-port.js', location.href).href);
             await studio.solve(pack, { max: 1000 });  // the first job starts the worker's runtime
             return studio.solve(pack, { max: cap });
           }""",
        [level, SOLVE_CAP],
    )
    context.close()
    return result


def cpython_solver_rate() -> dict[str, Any]:
    from miau.packs import load_pack

    pack = load_pack(json.loads(SOLVE_LEVEL.read_text(encoding="utf-8")))
    start = time.perf_counter()
    result = solve(pack.levels[0].data, max_expansions=SOLVE_CAP)
    return {"expanded": result.expanded, "seconds": time.perf_counter() - start}


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " / ".join(f"{value:.1f}" for value in os.getloadavg())


def summary(values: list[float]) -> str:
    return f"p50 {statistics.median(values):6.1f} ms  p95 {percentile(values, 0.95):6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=60, help="key presses per port")
    parser.add_argument("--starts", type=int, default=3, help="cold and warm starts per port")
    parser.add_argument("--first", type=int, default=5, help="first-seconds runs per port")
    parser.add_argument(
        "--only", choices=["all", "first"], default="all", help="run only the first seconds"
    )
    args = parser.parse_args()
    print(f"load average {load()} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="miau-site-") as scratch:
        folder = Path(scratch) / "site"
        record = build_site(folder)
        print(
            f"site: {record['bytes'] / 1e6:.1f} MB in {sum(1 for p in folder.rglob('*') if p.is_file())} files "
            f"(Pyodide {record['pyodide']} runtime {sum(record['runtime'].values()) / 1e6:.1f} MB, "
            f"engine zip {record['engineZip']['bytes'] / 1e3:.0f} kB, "
            f"snapshot {(record['snapshot'] or 0) / 1e6:.1f} MB gzipped)"
        )
        with (
            served_folder(folder) as site_url,
            running_server() as server,
            sync_playwright() as driver,
        ):
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
            ports = {"server": server.url, "static": site_url}
            for name, url in ports.items():
                print(f"{name:6}  first seconds: load average {load()} before")
                print_first_seconds(name, first_seconds(browser, url, args.first, name == "static"))
                print(f"{name:6}  first seconds: load average {load()} after")
            if args.only == "first":
                browser.close()
                return
            for name, url in ports.items():
                cold, warm = starts(browser, url, args.starts)
                print(
                    f"{name:6}  cold start to first board: median {statistics.median(cold):7.0f} ms "
                    f"(of {len(cold)}: {', '.join(f'{v:.0f}' for v in cold)})"
                )
                print(
                    f"{name:6}  warm start to first board: median {statistics.median(warm):7.0f} ms "
                    f"(of {len(warm)}: {', '.join(f'{v:.0f}' for v in warm)})"
                )
            for name, url in ports.items():
                figures = presses(browser, url, args.presses)
                print(
                    f"{name:6}  key to reply taken:   {summary(figures['reply'])}  ({len(figures['reply'])} presses)"
                )
                print(f"{name:6}  key to settled frame: {summary(figures['frame'])}")
                print(f"{name:6}  frame - reply:        {summary(figures['page'])}")
            in_page = page_solver_rate(browser, site_url)
            browser.close()
        native = cpython_solver_rate()
        print(
            f"solver  in the page: {in_page['expanded'] / in_page['seconds']:9,.0f} expansions/s "
            f"({in_page['expanded']:,} in {in_page['seconds']:.2f} s, outcome {in_page['outcome']})"
        )
        print(
            f"solver  server (CPython): {native['expanded'] / native['seconds']:9,.0f} expansions/s "
            f"({native['expanded']:,} in {native['seconds']:.2f} s)"
        )


if __name__ == "__main__":
    main()
