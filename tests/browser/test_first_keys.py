"""No key press is lost while the engine starts: moves pressed the instant the page shows the board all play.

The play scene draws its page (top bar, the board's place) before the
engine port has opened the game; on the static site the engine in the page
may still be starting for seconds. Keys pressed then are held and played in
order once the game is open, on both ports, on a first visit and after a
reload in the middle of a level.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route

from tests.browser.game_page import KEY_FOR_MOVE, SETTLED, GamePage
from tests.support.local import LocalServer, shipped_solution

pytestmark = pytest.mark.browser

PACK = "clockwork"
LEVEL = "mouse-keeps-time"
BOARD_PLACE = ".play-scene .board-area"
"""The board's place: on screen from the scene's first frame, before the game is open."""


FIRST_TILES = ".play-scene .board > .entity"
"""The board's first drawing: its tiles, the moment the game is open."""


def press_at_once(page: Page, moves: str, moment: str = BOARD_PLACE) -> None:
    """Press `moves` the moment `moment` appears, without waiting for any reply."""
    page.wait_for_selector(moment, state="attached", timeout=60_000)
    for move in moves:
        page.keyboard.press(KEY_FOR_MOVE[move])


def wait_for_moves(page: Page, count: int) -> None:
    page.wait_for_selector(".play-scene[data-ready='true']", timeout=60_000)
    page.wait_for_function(SETTLED)
    page.wait_for_function(
        f"document.querySelector('.board')?.dataset.moveCount === '{count}'", timeout=10_000
    )


@pytest.mark.parametrize("moment", [BOARD_PLACE, FIRST_TILES], ids=["board-place", "first-tiles"])
def test_four_moves_pressed_as_the_board_appears_are_four_moves(
    page: Page, game_url: str, moment: str
) -> None:
    moves = shipped_solution(PACK, LEVEL)[:4]
    page.goto(f"{game_url}/#/play/{PACK}/{LEVEL}")

    press_at_once(page, moves, moment)

    wait_for_moves(page, 4)
    game = GamePage(page, game_url)
    assert game.move_count() == 4
    assert page.get_attribute(".play-scene", "data-held") in (None, "0")


def test_four_moves_pressed_as_the_board_reappears_after_a_reload_are_four_more(
    page: Page, game_url: str
) -> None:
    solution = shipped_solution(PACK, LEVEL)
    game = GamePage(page, game_url)
    game.open_level(PACK, LEVEL)
    game.play(solution[:2])
    assert game.move_count() == 2

    page.reload()
    press_at_once(page, solution[2:6])

    wait_for_moves(page, 6)
    assert game.move_count() == 6


def test_while_the_level_loads_the_board_place_says_so_and_counts_the_moves_held(
    page: Page, live_server: LocalServer
) -> None:
    # The level's details are held back, as over a slow network, until the moves are pressed.
    held_back: list[Route] = []
    page.route(f"**/api/worlds/{PACK}/levels/{LEVEL}", lambda route: held_back.append(route))
    page.goto(f"{live_server.url}/#/play/{PACK}/{LEVEL}")
    press_at_once(page, shipped_solution(PACK, LEVEL)[:2])

    page.wait_for_function("document.querySelector('.play-scene')?.dataset.held === '2'")
    assert page.get_attribute(".play-scene", "data-ready") == "false"
    assert page.inner_text(".board-starting") == "Starting the game… 2 moves wait for it."
    assert len(held_back) == 1
    held_back[0].continue_()
    wait_for_moves(page, 2)
    assert page.locator(".board-starting").count() == 0


PRESS_HELD_MS = 250
"""How long each key of a deliberate press is held: past the page's own repeat delay
(180 ms), short of any system's key-repeat delay (Playwright sends no repeat), as a
player's key-up reaches a page busy opening a level."""


def press_held(page: Page, moves: str) -> None:
    """Press `moves`, each key held PRESS_HELD_MS, without waiting for any reply."""
    for move in moves:
        key = KEY_FOR_MOVE[move]
        page.keyboard.down(key)
        page.wait_for_timeout(PRESS_HELD_MS)
        page.keyboard.up(key)


def open_at(page: Page, game: GamePage, game_url: str, moment: str) -> str:
    """Bring the page to `moment` (a level just opening); the level the moves then play on."""
    if moment == "opened":
        page.goto(f"{game_url}/#/play/{PACK}/{LEVEL}")
        page.wait_for_selector(BOARD_PLACE, state="attached", timeout=60_000)
        return LEVEL
    if moment == "next-level":
        game.win_shipped_level("tutorial", "first-steps")
        page.keyboard.press("Enter")
        page.wait_for_url("**/#/play/tutorial/walls")
        return "walls"
    game.open_level(PACK, LEVEL)
    game.play(shipped_solution(PACK, LEVEL)[:2])
    page.keyboard.press("r")
    return LEVEL


@pytest.mark.parametrize("key_repeat", [True, False], ids=["repeat-on", "repeat-off"])
@pytest.mark.parametrize("moment", ["opened", "next-level", "restart"])
def test_four_presses_right_after_a_level_opens_are_four_moves(
    page: Page, game_url: str, moment: str, key_repeat: bool
) -> None:
    game = GamePage(page, game_url, key_repeat=key_repeat)
    level = open_at(page, game, game_url, moment)
    pack = "tutorial" if level == "walls" else PACK

    press_held(page, shipped_solution(pack, level)[:4])

    page.wait_for_selector(".play-scene[data-ready='true']", timeout=60_000)
    game.settle()
    page.wait_for_timeout(PRESS_HELD_MS)  # a repeat would have come by now
    game.settle()
    assert game.move_count() == 4
    assert game.board_move_count() == 4
