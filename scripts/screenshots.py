"""Screenshots of every scene of the browser game, taken through the real page.

Run: ``.venv/bin/python scripts/screenshots.py OUTDIR [--db PATH]``.

Starts the game server (uvicorn in a thread on a free 127.0.0.1 port, on a
temporary SQLite database unless ``--db``), drives Debian's Chromium through
Playwright with real key presses (levels are won with their stored
solutions from ``packs/*.json``) and writes one PNG per scene into OUTDIR,
printing each path: title, world select, level select (after two wins),
play at the start of a level, play mid-push, win (matching the shortest,
then two moves over it), loss banner, Clockwork's
``mouse-keeps-time`` with its property tile and glossary, all at 1280x800,
then the play scene on a 390x844 touch screen, its side panels, a hint and
the win card over the shortest and matching it;
then, at both sizes, a locked level opened by its address, the
world-complete card, world select's overall progress and the sound switched
off; then, at both sizes, Double time, Stepping stone and Stop the clock with
their facing marks, TICK paths and property colours, and "Can I still win?"
after a fatal move; then, at both sizes, Deep End's level list and two of its
levels (``DEEP_END_LEVELS``); then, at both sizes, the library with an imported pack and a refused pack's problem
report, world select with the library, a shared level, its Share dialog and
a tampered link's message; then, at both sizes, the level editor (grid,
automaton form, check report, solve result, test-play), and the Depth panel
with the dead squares marked on the grid and suggested variations. A scene
is taken once the page is still: every reply drawn and no finite animation
running, except the mid-push scene, whose board animations are paused 50 ms
into the push so that the frame does not depend on timing.

Then a first hour's screens, at both sizes: the play scene while its level
opens with two moves held, and the editor's Save tab as a first save finds
it; on the phone also the title in touch words, the loss banner in the pad's
place and a dense board that pans (``firsthour``).

``--only GROUP`` (repeatable) takes only those groups of scenes (``desktop``,
``phone``, ``firsthour``, ``progress``, ``board``, ``deep``, ``library``, ``editor``, ``depth``,
``static``).

Console errors, page errors and requests to any host but the local server
are listed at the end; the exit status is 1 if there were any.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Request,
    Route,
    ViewportSize,
    sync_playwright,
)
from tests.support.local import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PACKS,
    UNLOCK_ALL,
    running_server,
    shipped_solution,
)
from tests.support.static_site import static_site

from miau.packs import load_pack
from miau.packs.share import share_code_for

SCENE_GROUPS = (
    "desktop",
    "phone",
    "firsthour",
    "progress",
    "board",
    "deep",
    "library",
    "editor",
    "depth",
    "static",
)
"""The groups of scenes ``--only`` chooses from, in the order they are taken."""

DESKTOP = ViewportSize(width=1280, height=800)
PHONE = ViewportSize(width=390, height=844)
MID_PUSH_MS = 50
"""How far into the push animation the mid-push scene is frozen."""

REFUSED_NOTE = "Failed to load resource: the server responded with a status of 4"
"""How Chromium's console notes a 4xx answer (a refused pack or link, as a scene means it)."""
REPO = Path(__file__).resolve().parents[1]
LIBRARY_PACK = REPO / "tests" / "packs" / "good" / "clockwork-proof.json"
BROKEN_PACK = REPO / "tests" / "packs" / "bad" / "out-of-grid-objects.json"
TAMPERED_LEVEL = ("tutorial", "walls")

KEY_FOR_MOVE = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight", "W": " "}

SETTLED = "document.querySelector('.play-scene')?.dataset.pending === '0'"
# Infinite animations (the title's glow, the cat's bob) never end; finite ones must.
STILL = """() => document.getAnimations().every(animation => {
    if (animation.playState !== 'running') return true;
    const timing = animation.effect ? animation.effect.getComputedTiming() : null;
    return timing !== null && timing.endTime === Infinity;
})"""
FREEZE_BOARD = """(at) => {
    const animations = document.querySelector('.board').getAnimations({subtree: true});
    for (const animation of animations) {
        animation.pause();
        animation.currentTime = at;
    }
    return animations.length;
}"""
RESUME_BOARD = """() => {
    for (const animation of document.querySelector('.board').getAnimations({subtree: true})) {
        animation.play();
    }
}"""


@dataclass
class Problems:
    """What went wrong in the page while the scenes were taken."""

    local_prefix: str
    lines: list[str] = field(default_factory=list)

    def watch(self, page: Page, *, refusals_expected: bool = False) -> None:
        """Record the console errors, page errors and outside requests of ``page``.

        With ``refusals_expected`` the browser's own note on a 4xx answer is
        not a problem: the scenes then show a pack or a link being refused.
        """
        page.on(
            "console",
            lambda message: (
                self.lines.append(f"console {message.type}: {message.text}")
                if message.type == "error"
                and not (refusals_expected and message.text.startswith(REFUSED_NOTE))
                else None
            ),
        )
        page.on("pageerror", lambda error: self.lines.append(f"page error: {error}"))
        page.on("request", self._check_request)

    def _check_request(self, request: Request) -> None:
        url = request.url
        if urlsplit(url).scheme in ("data", "blob"):
            return
        local = urlsplit(self.local_prefix)
        if urlsplit(url).netloc != local.netloc:
            self.lines.append(f"request to another host: {url}")


class Shooter:
    """Takes the scenes of one page and writes them into ``outdir``."""

    def __init__(self, page: Page, base_url: str, outdir: Path) -> None:
        """Drive ``page`` against the server at ``base_url``."""
        self.page = page
        self.base_url = base_url
        self.outdir = outdir

    def shoot(self, name: str, *, full_page: bool = False) -> Path:
        """Write the page as ``OUTDIR/name.png`` and print the path."""
        path = self.outdir / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        print(path, flush=True)
        return path

    def wait_still(self) -> None:
        """Wait until every sent intent is drawn and no finite animation runs."""
        self.page.wait_for_function(f"() => !document.querySelector('.play-scene') || {SETTLED}")
        self.page.wait_for_function(STILL)

    def wait_play_ready(self, level_title: str | None = None) -> None:
        """Wait until the play scene has drawn its level's board."""
        self.page.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
        if level_title is not None:
            self.page.wait_for_function(
                "(title) => document.querySelector('.play-title')?.textContent === title",
                arg=level_title,
            )

    def goto(self, route: str) -> None:
        """Open a scene by its address (for levels the map keeps locked)."""
        self.page.goto(f"{self.base_url}/#{route}")

    def press(self, key: str) -> None:
        """Press one key and wait until the turn it starts is drawn."""
        self.page.keyboard.press(key)
        self.page.wait_for_function(SETTLED)

    def play(self, moves: str) -> None:
        """Play a move string (U D L R W), one real key press a move."""
        for move in moves:
            self.press(KEY_FOR_MOVE[move])

    def win(self, pack: str, level: str) -> None:
        """Play the level's stored solution and wait for the win scene."""
        self.play(shipped_solution(pack, level))
        self.page.wait_for_selector(".win-overlay")
        self.wait_still()

    def tab_to(self, selector: str, *, most: int = 20) -> None:
        """Press Tab until the focused element matches ``selector``."""
        for _ in range(most):
            if self.page.evaluate(
                "(selector) => Boolean(document.activeElement?.matches(selector))", selector
            ):
                return
            self.page.keyboard.press("Tab")
        raise RuntimeError(f"Tab never reached {selector}")

    def focus_and_enter(self, selector: str) -> None:
        """Wait until the element the scene focuses matches ``selector``; press Enter on it."""
        self.page.wait_for_function(
            "(selector) => document.activeElement?.matches(selector)", arg=selector
        )
        self.page.keyboard.press("Enter")


def desktop_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """Title, world and level select, play, mid-push, win, loss, Clockwork, in one session."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(UNLOCK_ALL)  # Skulls and Clockwork by address, before they open
    page = context.new_page()
    problems.watch(page)
    shots = Shooter(page, base_url, outdir)

    page.goto(f"{base_url}/")
    page.wait_for_selector(".title-scene .title-rule .word-tile")
    shots.wait_still()
    shots.shoot("01-title")

    # Into the tutorial by keyboard: Enter on the title, then on the focused cards.
    page.keyboard.press("Enter")
    page.wait_for_selector(".world-card")
    shots.focus_and_enter(".world-card[data-world='tutorial']")
    page.wait_for_selector(".level-card")
    shots.focus_and_enter(".level-card[data-level='first-steps']")
    shots.wait_play_ready("First Steps")
    shots.wait_still()
    shots.shoot("04-play-start")

    shots.win("tutorial", "first-steps")
    shots.shoot("06-win")

    page.keyboard.press("Enter")  # the next level, Walls and Rocks
    shots.wait_play_ready("Walls and Rocks")
    shots.win("tutorial", "walls")
    page.keyboard.press("Escape")  # back to the map
    page.wait_for_selector(".level-card[data-level='walls'][data-won='true']")
    shots.wait_still()
    shots.shoot("03-level-select")

    page.keyboard.press("Escape")
    page.wait_for_selector(".world-card .bar-fill")
    shots.wait_still()
    shots.shoot("02-world-select")

    # Break the Wall (the next unsolved level), whose third move pushes WALL
    # out of WALL IS STOP.
    shots.focus_and_enter(".world-card[data-world='tutorial']")
    page.wait_for_selector(".level-card")
    shots.focus_and_enter(".level-card[data-level='break-the-wall']")
    shots.wait_play_ready("Break the Wall")
    shots.play("UR")
    shots.wait_still()
    shots.press("ArrowUp")
    frozen = page.evaluate(FREEZE_BOARD, MID_PUSH_MS)
    if not frozen:
        problems.lines.append("mid-push: no animation was running on the board")
    shots.shoot("05-play-mid-push")
    page.evaluate(RESUME_BOARD)
    shots.wait_still()

    # Be the Rock is locked on the map: reached by address (miau.unlockAll).
    # Its third move up pushes MIAU out of MIAU IS YOU: nothing is YOU.
    shots.goto("/play/tutorial/be-the-rock")
    shots.wait_play_ready("Be the Rock")
    shots.play("UUU")
    page.wait_for_selector(".loss-banner:not([hidden])")
    shots.wait_still()
    shots.shoot("07-loss-banner")

    # Hints come only when asked: both of Sink the Rock's, by the key and the button.
    shots.goto("/play/tutorial/sink-the-rock")
    shots.wait_play_ready("Sink the Rock")
    page.keyboard.press("h")
    page.click(".hint-button")
    page.wait_for_selector(".hint-panel[data-shown='2']")
    shots.wait_still()
    shots.shoot("16-hints")

    # The win card two moves over the shortest: it says so and offers to play again for it.
    shots.goto("/play/tutorial/first-steps")
    shots.wait_play_ready("First Steps")
    shots.play("UD")
    shots.win("tutorial", "first-steps")
    shots.shoot("06-win-over-the-shortest")

    shots.goto("/play/clockwork/mouse-keeps-time")
    shots.wait_play_ready("The mouse keeps time")
    # The glossary card beside the board marks TICK as new (a toast only on narrow screens).
    page.wait_for_selector(".words-panel .glossary-entry[data-word='TICK']")
    shots.wait_still()
    shots.shoot("08-clockwork-glossary")
    context.close()


def phone_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """The play scene on a narrow touch screen (a fresh player), then its side panels."""
    context: BrowserContext = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(UNLOCK_ALL)
    page = context.new_page()
    problems.watch(page)
    shots = Shooter(page, base_url, outdir)
    shots.goto("/play/clockwork/mouse-keeps-time")
    shots.wait_play_ready("The mouse keeps time")
    shots.wait_still()
    shots.shoot("09-phone-play")

    # The side panels (rules, words, hint) scroll below the board: tap the
    # new-word toast away and scroll to the glossary card.
    for toast in page.locator(".toast").all():
        toast.tap()
    page.wait_for_function("!document.querySelector('.toast')")
    page.locator(".words-panel").scroll_into_view_if_needed()
    shots.wait_still()
    shots.shoot("10-phone-play-panels")

    # The Hint button sits first under the pad on a phone; one tap shows the nudge.
    shots.goto("/play/tutorial/first-steps")
    shots.wait_play_ready("First Steps")
    page.locator(".hint-button").tap()
    page.wait_for_selector(".hint-panel[data-shown='1']")
    page.locator(".hint-panel").scroll_into_view_if_needed()
    shots.wait_still()
    shots.shoot("11-phone-hint")

    # Both hints of a level that turns a lesson around, on the phone.
    shots.goto("/play/tutorial/rock-in-the-way")
    shots.wait_play_ready("Rock in the Way")
    page.locator(".hint-button").tap()
    page.locator(".hint-button").tap()
    page.wait_for_selector(".hint-panel[data-shown='2']")
    page.locator(".hint-panel").scroll_into_view_if_needed()
    shots.wait_still()
    shots.shoot("16-phone-hints")

    # The win card on the phone, over the shortest, then matching it after "Play again for the shortest".
    shots.goto("/play/tutorial/first-steps")
    shots.wait_play_ready("First Steps")
    shots.play("UD")
    shots.win("tutorial", "first-steps")
    shots.shoot("17-phone-win-over-the-shortest")
    page.locator(".win-overlay [data-action='replay']").tap()
    page.wait_for_selector(".win-overlay", state="detached")
    shots.wait_play_ready("First Steps")
    shots.win("tutorial", "first-steps")
    shots.shoot("17-phone-win-shortest-matched")
    context.close()


class HeldRoutes:
    """A route handler that holds every request it gets (a slow network) until the scene lets it go."""

    def __init__(self) -> None:
        """Hold nothing yet."""
        self.routes: list[Route] = []

    def __call__(self, route: Route) -> None:
        """Hold ``route``."""
        self.routes.append(route)


def first_hour_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """What a new player and author meet first, at 1280x800 and on a 390x844 touch screen."""
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        context.add_init_script(UNLOCK_ALL)
        context.add_init_script("localStorage.setItem('miau.keyRepeat', 'off')")
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)

        # The level's details held back (a slow network): two moves pressed meanwhile wait.
        held = HeldRoutes()
        level_path = "**/api/worlds/clockwork/levels/mouse-keeps-time"
        page.route(level_path, held)
        shots.goto("/play/clockwork/mouse-keeps-time")
        page.wait_for_selector(".play-scene .board-starting")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.querySelector('.play-scene')?.dataset.held === '2'")
        shots.shoot(f"16-{prefix}starting")
        for route in held.routes:
            route.continue_()
        page.unroute(level_path)
        shots.wait_play_ready("The mouse keeps time")
        shots.wait_still()

        if touch:
            shots.goto("/")
            page.wait_for_selector(".title-touch")
            shots.wait_still()
            shots.shoot("17-phone-title")

            shots.goto("/play/tutorial/skulls-and-water")
            shots.wait_play_ready("Skulls and Water")
            shots.play("UURUL")
            page.wait_for_selector(".loss-banner:not([hidden])")
            shots.wait_still()
            shots.shoot("18-phone-loss-banner")

            # Denser than the screen at readable sizes: it pans under a finger.
            shots.goto("/play/clockwork/stop-the-clock")
            shots.wait_play_ready()
            page.wait_for_selector(".board-area[data-pans='true']")
            shots.wait_still()
            shots.shoot("19-phone-dense-board")

        # The editor's Save tab as a first save finds it: a real pack id and name, the rules in force.
        shots.goto("/edit")
        page.wait_for_selector(".editor[data-ready='true'] .editor-overlay")
        page.click(".tab[data-tab='save']")
        page.wait_for_selector("input[name='new-pack-id']")
        shots.wait_still()
        shots.shoot(f"38-{prefix}editor-save", full_page=touch)
        context.close()


def progress_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """A locked level by its address, the world-complete card, world select's progress, sound off.

    Each at 1280x800, then on a 390x844 touch screen (a fresh player each).
    """
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)

        shots.goto("/play/proofs/proof-05")
        page.wait_for_selector(".play-scene[data-locked='true'] .locked-panel")
        shots.wait_still()
        shots.shoot(f"12-{prefix}locked-level")

        page.evaluate(UNLOCK_ALL)
        for level in ("key-and-door", "let-the-mouse-in"):
            shots.goto(f"/play/clockwork-pairs/{level}")
            shots.wait_play_ready()
            shots.win("clockwork-pairs", level)
        page.wait_for_selector(".win-overlay[data-world-complete='true']")
        shots.shoot(f"13-{prefix}world-complete")

        shots.goto("/worlds")
        page.wait_for_selector(".overall-progress")
        shots.wait_still()
        shots.shoot(f"14-{prefix}world-progress")

        shots.goto("/play/tutorial/first-steps")
        shots.wait_play_ready("First Steps")
        page.keyboard.press("m")
        page.wait_for_selector("html[data-sound='muted']")
        shots.wait_still()
        shots.shoot(f"15-{prefix}sound-off")
        context.close()


BOARD_SCENES = (
    # name, world, level, title, moves: facing marks, TICK paths and beats, property colours.
    ("16", "double-time", "clockwork", "double-time", "Double time", "RRUURDD"),
    ("17", "stepping-stone", "lexicon", "stepping-stone", "Stepping stone", "LLLL"),
    ("18", "stop-the-clock", "clockwork", "stop-the-clock", "Stop the clock", ""),
)
"""The levels a board you can reason from is shown on, and the moves played before each shot."""


def board_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """Double time, Stepping stone, Stop the clock, then "Can I still win?" after a fatal move.

    Double time has two TICK things, Stepping stone a MOVE rock's facing,
    Stop the clock a word under a thing. Each at 1280x800, then on a 390x844 touch screen (a fresh player each).
    """
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        context.add_init_script(UNLOCK_ALL)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)
        for number, name, pack, level, title, moves in BOARD_SCENES:
            shots.goto(f"/play/{pack}/{level}")
            shots.wait_play_ready(title)
            shots.play(moves)
            for toast in page.locator(".toast").all():
                toast.click() if not touch else toast.tap()
            page.wait_for_function("!document.querySelector('.toast')")
            shots.wait_still()
            shots.shoot(f"{number}-{prefix}{name}")
        context.close()
        # "Can I still win?" after a fatal move and two turns more (Double time, a fresh game).
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        context.add_init_script(UNLOCK_ALL)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)
        shots.goto("/play/clockwork/double-time")
        shots.wait_play_ready("Double time")
        shots.play("RRUURDDRRWW")
        page.keyboard.press("c")
        page.wait_for_selector(".winnable-panel[data-verdict='not-winnable']")
        page.locator(".winnable-panel").scroll_into_view_if_needed()
        shots.wait_still()
        shots.shoot(f"19-{prefix}can-i-still-win")
        context.close()


def import_pack(page: Page, pack_file: Path) -> None:
    """Import ``pack_file`` through the library scene's file input; wait for its report."""
    page.set_input_files("#pack-file", str(pack_file))
    page.wait_for_selector(".library-scene[data-importing='false'] .import-report:not([hidden])")


DEEP_END_LEVELS = ("anyone-but-me", "catch-the-mouse")
"""The two Deep End levels whose start the ``deep`` group shows (a NOT level and a TICK one)."""


def deep_end_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """Deep End's level list and two of its levels at their start, at 1280x800 and 390x844."""
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        context.add_init_script(UNLOCK_ALL)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)
        shots.goto("/world/deep-end")
        page.wait_for_selector(".level-card[data-level]")
        shots.wait_still()
        shots.shoot(f"16-{prefix}deep-end-levels")
        for number, level in enumerate(DEEP_END_LEVELS, start=17):
            shots.goto(f"/play/deep-end/{level}")
            shots.wait_play_ready()
            for toast in page.locator(".toast").all():
                if touch:
                    toast.tap()
                else:
                    toast.click()
            page.wait_for_function("!document.querySelector('.toast')")
            shots.wait_still()
            shots.shoot(f"{number}-{prefix}deep-end-{level}")
        context.close()


def library_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """Library, import report, world select, shared level, Share dialog, tampered link.

    Each at 1280x800, then on a 390x844 touch screen (a fresh player each).
    """
    code = share_code_for(load_pack(PACKS / f"{TAMPERED_LEVEL[0]}.json"), TAMPERED_LEVEL[1])
    middle = len(code) // 2
    tampered = code[:middle] + ("A" if code[middle] != "A" else "B") + code[middle + 1 :]
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        problems.watch(page, refusals_expected=True)
        shots = Shooter(page, base_url, outdir)

        shots.goto("/library")
        page.wait_for_selector(".library-scene[data-ready='true']")
        import_pack(page, LIBRARY_PACK)
        import_pack(page, BROKEN_PACK)
        page.locator(".import-report").scroll_into_view_if_needed()
        shots.wait_still()
        shots.shoot(f"21-{prefix}library-import-report")

        shots.goto("/worlds")
        page.wait_for_selector(".tool-card[data-tool='editor']")
        page.locator(".library-grid").scroll_into_view_if_needed()
        shots.wait_still()
        shots.shoot(f"22-{prefix}world-select-library")

        shots.goto(f"/shared/{code}")
        shots.wait_play_ready("Walls and Rocks")
        shots.play("RR")
        shots.wait_still()
        shots.shoot(f"23-{prefix}shared-level")

        page.click(".share-button")
        page.wait_for_selector(".share-dialog .share-status:not(:empty)")
        shots.wait_still()
        shots.shoot(f"24-{prefix}share-dialog")
        page.keyboard.press("Escape")

        shots.goto(f"/shared/{tampered}")
        page.wait_for_selector(".message-panel[data-failure='link']")
        shots.wait_still()
        shots.shoot(f"25-{prefix}shared-link-refused")
        context.close()


def editor_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """The level editor on a copy of ``mouse-keeps-time``: grid, automata, check, solve, test-play.

    Each at 1280x800, then on a 390x844 touch screen (a fresh player each).
    """
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)
        full = touch  # the phone's panels sit below the board: the whole page shows them

        shots.goto("/edit/clockwork/mouse-keeps-time")
        page.wait_for_function("location.hash === '#/edit'")
        page.wait_for_selector(".editor[data-ready='true'] .board > .entity")
        for toast in page.locator(".toast").all():
            toast.click()
        page.wait_for_function("!document.querySelector('.toast')")
        shots.wait_still()
        shots.shoot(f"31-{prefix}editor", full_page=full)

        page.click(".tab[data-tab='parts']")
        shots.wait_still()
        shots.shoot(f"32-{prefix}editor-automata", full_page=full)

        page.click(".editor-topbar [data-action='check']")
        page.wait_for_selector(".check-report:not([hidden])", timeout=60_000)
        shots.wait_still()
        shots.shoot(f"33-{prefix}editor-check", full_page=full)

        page.click(".editor-topbar [data-action='solve']")
        page.wait_for_selector(".solve-result:not([hidden])", timeout=60_000)
        shots.wait_still()
        shots.shoot(f"34-{prefix}editor-solve", full_page=full)

        page.click(".editor-topbar [data-action='test-play']")
        page.wait_for_selector(".editor-play[data-ready='true'] .board > .entity")
        if touch:
            # The pad under the board, in the viewport as it is (a full-page shot
            # stretches the dvh-sized board and misplaces the panels below it).
            page.locator(".editor-play .dpad").scroll_into_view_if_needed()
        shots.wait_still()
        shots.shoot(f"35-{prefix}editor-test-play")
        context.close()


def depth_scenes(browser: Browser, base_url: str, outdir: Path, problems: Problems) -> None:
    """The editor's Depth panel on ``sunken-word``: the profile, dead squares, variations.

    The profile with the dead squares marked on the grid, then the
    variations "Suggest a variation" offers.

    Each at 1280x800, then on a 390x844 touch screen (a fresh player each).
    """
    for size, prefix, touch in ((DESKTOP, "", False), (PHONE, "phone-", True)):
        context = browser.new_context(viewport=size, is_mobile=touch, has_touch=touch)
        page = context.new_page()
        problems.watch(page)
        shots = Shooter(page, base_url, outdir)
        full = touch

        shots.goto("/edit/tutorial/sunken-word")
        page.wait_for_function("location.hash === '#/edit'")
        page.wait_for_selector(".editor[data-ready='true'] .board > .entity")
        for toast in page.locator(".toast").all():
            toast.click()
        page.wait_for_function("!document.querySelector('.toast')")
        page.click(".tab[data-tab='depth']")
        page.click("[data-action='depth']")
        page.wait_for_selector(".depth-result:not([hidden])", timeout=60_000)
        page.wait_for_selector(".editor-overlay .dead-square")
        shots.wait_still()
        shots.shoot(f"36-{prefix}editor-depth", full_page=full)

        # Five seconds on a loaded machine may find nothing new: the shot asks for 20 (the
        # longest an author may set) and presses again, each press another seed.
        page.evaluate("localStorage.setItem('miau.suggestSeconds', '20')")
        for _ in range(3):
            page.click("[data-action='suggest']")
            page.wait_for_selector(
                ".suggest-section > .studio-status:is([data-status='suggested'], [data-status='none'])",
                timeout=60_000,
            )
            if page.locator(".variation-card").count():
                break
        page.locator(".variation-cards").scroll_into_view_if_needed()
        shots.wait_still()
        shots.shoot(f"37-{prefix}editor-suggest", full_page=full)
        context.close()


def static_site_scenes(browser: Browser, site_url: str, outdir: Path, problems: Problems) -> None:
    """The static site (``miau build-site``, served by a plain file server).

    Its loading bar on a first visit, a level played with the engine in the
    page, the library's progress panel, and a phone.
    """
    context: BrowserContext = browser.new_context(viewport=DESKTOP)
    context.add_init_script(UNLOCK_ALL)  # Clockwork by address, before the tutorial is won
    page = context.new_page()
    problems.watch(page)
    shots = Shooter(page, site_url, outdir)
    shots.goto("/play/clockwork/mouse-keeps-time")
    page.wait_for_selector("#site-loading")
    shots.shoot("40-static-loading")
    shots.wait_play_ready("The mouse keeps time")
    shots.play("RRR")
    shots.wait_still()
    shots.shoot("41-static-play")
    shots.goto("/library")
    page.wait_for_selector(".progress-panel")
    shots.wait_still()
    shots.shoot("42-static-library-progress", full_page=True)
    context.close()
    phone: BrowserContext = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone_page = phone.new_page()
    problems.watch(phone_page)
    phone_shots = Shooter(phone_page, site_url, outdir)
    phone_shots.goto("/play/tutorial/first-steps")
    phone_shots.wait_play_ready()
    phone_shots.wait_still()
    phone_shots.shoot("43-static-phone-play")
    phone.close()


def main(argv: list[str] | None = None) -> int:
    """Write every scene into OUTDIR; 1 if the page reported a problem."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path, help="folder for the PNG files (created if missing)")
    parser.add_argument(
        "--db", type=Path, default=None, help="SQLite database to use (default: a temporary one)"
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=SCENE_GROUPS,
        help="take only this group of scenes (repeatable; default: every group)",
    )
    args = parser.parse_args(argv)
    wanted = set(args.only or SCENE_GROUPS)
    outdir: Path = args.outdir
    outdir.mkdir(parents=True, exist_ok=True)
    with running_server(args.db) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        problems = Problems(server.url)
        try:
            groups = {
                "desktop": desktop_scenes,
                "phone": phone_scenes,
                "firsthour": first_hour_scenes,
                "progress": progress_scenes,
                "board": board_scenes,
                "deep": deep_end_scenes,
                "library": library_scenes,
                "editor": editor_scenes,
                "depth": depth_scenes,
            }
            for name, scenes in groups.items():
                if name in wanted:
                    scenes(browser, server.url, outdir, problems)
            if "static" in wanted:
                with (
                    tempfile.TemporaryDirectory(prefix="miau-site-") as scratch,
                    static_site(Path(scratch) / "site") as site,
                ):
                    on_the_site = Problems(site.url)
                    static_site_scenes(browser, site.url, outdir, on_the_site)
                    problems.lines.extend(on_the_site.lines)
        finally:
            browser.close()
    for line in problems.lines:
        print(f"problem: {line}", file=sys.stderr)
    return 1 if problems.lines else 0


if __name__ == "__main__":
    sys.exit(main())
