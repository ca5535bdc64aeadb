"""The play scene as the tests drive it: real key presses, and the board read back from the DOM."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.support.local import shipped_solution

KEY_FOR_MOVE = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight", "W": " "}

Positions = dict[int, tuple[int, int]]

SETTLED = "document.querySelector('.play-scene')?.dataset.pending === '0'"

NO_KEY_REPEAT = "localStorage.setItem('miau.keyRepeat', 'off')"
"""An init script: held keys do not repeat (input.js, ``KEY_REPEAT_SETTING``).

Playwright sends a press's key-up only once the page has answered its
key-down, so on a loaded machine the page can see a press held past the
hold-to-repeat delay (180 ms). The page now repeats a key only once the
system repeats it too (which a scripted press never does), so such a press
is one move either way; the tests keep repeat off as a second guard (one
``z`` once undid two moves), except those about repeat itself.
"""


KEY_REPEAT = "localStorage.removeItem('miau.keyRepeat')"
"""An init script: held keys repeat again, as they do for players (undoes ``NO_KEY_REPEAT``)."""


class GamePage:
    """One page of the game, at `base_url`.

    Every key press is one move: hold-to-repeat is off in the page (from its
    next load on), unless ``key_repeat`` asks for it (a test of holding a key).
    """

    def __init__(self, page: Page, base_url: str, *, key_repeat: bool = False) -> None:
        self.page = page
        self.base_url = base_url
        # Init scripts run in the order they were added: this one has the last word
        # over the ``page`` fixture's, which turns repeat off for every test page.
        page.add_init_script(KEY_REPEAT if key_repeat else NO_KEY_REPEAT)

    def open_level(self, pack: str, level: str) -> None:
        """Go to the play scene of a level and wait until its board is drawn."""
        self.page.goto(f"{self.base_url}/#/play/{pack}/{level}")
        self.wait_ready()

    def win_shipped_level(self, pack: str, level: str) -> None:
        """Open a shipped level, play its stored solution by key presses, wait for the win scene."""
        self.open_level(pack, level)
        self.play(shipped_solution(pack, level))
        self.page.wait_for_selector(".win-overlay")

    def wait_ready(self) -> None:
        """Wait until the play scene has opened its level."""
        self.page.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")

    def settle(self) -> None:
        """Wait until every intent sent has its reply drawn.

        A selector, not ``SETTLED``: a selector needs no script evaluated in the
        page, so it also waits under the real policy (no ``'unsafe-eval'``),
        which the installed server sends.
        """
        self.page.wait_for_selector(".play-scene[data-pending='0']", state="attached")

    def press(self, key: str) -> None:
        """Press one key and wait for the turn it starts to be drawn."""
        self.page.keyboard.press(key)
        self.settle()

    def play(self, moves: str) -> None:
        """Play a move string (U D L R W), one real key press a move."""
        for move in moves:
            self.press(KEY_FOR_MOVE[move])

    def move_count(self) -> int:
        """The move counter in the top bar."""
        return int(self.page.inner_text("#move-count"))

    def positions(self) -> Positions:
        """Every entity on the board, by id: its cell as the DOM shows it."""
        rows: list[list[str]] = self.page.eval_on_selector_all(
            ".board > .entity:not([data-dying])",
            "els => els.map(e => [e.dataset.id, e.dataset.x, e.dataset.y])",
        )
        return {int(id_): (int(x), int(y)) for id_, x, y in rows}

    def board_move_count(self) -> int:
        """The move count of the state the board last drew."""
        return int(self.page.get_attribute(".board", "data-move-count") or "-1")
