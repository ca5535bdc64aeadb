"""An author's first hour (issue 53's small things), through the real page on both hosts.

World select shows the player's library without scrolling; the editor's
board label names the rules in force, as the play scene's does; test-play of
a level with nothing YOU says what the level needs instead of offering undo;
a grid past twenty cells says what it costs before it grows, scrolls in the
editor with scrollbars of its own and fits whole in test-play; and the
test-play banners leave the board where it was.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import BrowserType, Page, ViewportSize, expect

from tests.browser.game_page import GamePage
from tests.browser.library_page import (
    ConsoleWatch,
    garden_pack,
    open_library,
    pack_text,
    wait_for_report,
)
from tests.browser.test_editor import Editor, thing, word
from tests.support.local import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}

Object = dict[str, Any]


def draft(width: int, height: int, objects: list[Object]) -> dict[str, Any]:
    """A one-level draft pack, as the editor keeps it in localStorage."""
    return {
        "manifest": {"id": "draft", "name": "Draft", "version": "1.0.0", "engine": 1},
        "palette": {
            "MIAU": {"glyph": "🐈", "faces": "left"},
            "ROCK": "🪨",
            "FLAG": "🚩",
            "WALL": "🧱",
        },
        "properties": {},
        "levels": [
            {
                "id": "room",
                "title": "Room",
                "width": width,
                "height": height,
                "objects": objects,
            }
        ],
    }


def three_rules(width: int, height: int) -> dict[str, Any]:
    """MIAU IS YOU, FLAG IS WIN and ROCK IS PUSH in the top left corner, the things at the bottom."""
    return draft(
        width,
        height,
        [
            *(word(text, x, 0) for x, text in enumerate(("MIAU", "IS", "YOU"))),
            *(word(text, x, 1) for x, text in enumerate(("FLAG", "IS", "WIN"))),
            *(word(text, x, 2) for x, text in enumerate(("ROCK", "IS", "PUSH"))),
            thing("MIAU", 3, height - 1),
            thing("ROCK", 4, height - 3),
            thing("FLAG", 7, height - 1),
        ],
    )


def open_draft(editor: Editor, pack: dict[str, Any]) -> None:
    """Store ``pack`` as the editor's draft and open the editor on it."""
    editor.open_draft(pack)


def two_frames(page: Page) -> None:
    """Wait until the page has drawn two more frames (a resize observer's redraw comes in the first)."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def test_world_select_shows_the_library_without_scrolling_on_a_laptop_and_a_phone(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    open_library(page, game_url)
    page.fill("#pack-text", pack_text(garden_pack()))
    page.click("[data-action='import']")
    assert wait_for_report(page) == "imported"

    for viewport in (LAPTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(f"{game_url}/#/worlds")
        garden = page.locator(".world-card[data-world='garden']")
        expect(garden).to_contain_text("Garden")
        # The first world takes the focus when the list is drawn; the page is still at its top.
        expect(page.locator(".world-card[data-world='tutorial']")).to_be_focused()
        assert page.evaluate("window.scrollY") == 0
        expect(garden).to_be_in_viewport(ratio=1)
        expect(garden.locator(".progress-text")).to_have_text("0 / 2 required")


def test_the_editor_board_label_names_the_rules_in_force_like_the_play_scene(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    pack = three_rules(9, 7)
    objects = pack["levels"][0]["objects"]
    objects.remove(word("PUSH", 2, 2))
    open_draft(editor, pack)
    board = page.locator(".editor-board-area > .board")
    expect(board).to_have_attribute("aria-label", "Board, 9 by 7. Rules: MIAU is YOU, FLAG is WIN.")

    # A word painted in: the label follows the engine's answer about the new draft.
    editor.paint("word:PUSH", (2, 2))
    expect(board).to_have_attribute(
        "aria-label", "Board, 9 by 7. Rules: MIAU is YOU, FLAG is WIN, ROCK is PUSH."
    )
    editor.set_field("width", "30")
    editor.set_field("height", "30")
    expect(board).to_have_attribute(
        "aria-label", "Board, 30 by 30. Rules: MIAU is YOU, FLAG is WIN, ROCK is PUSH."
    )

    editor.test_play()
    expect(page.locator(".editor-play .board")).to_have_attribute(
        "aria-label", "Board, 30 by 30. Rules: MIAU is YOU, FLAG is WIN, ROCK is PUSH."
    )

    game = GamePage(page, game_url)
    game.open_level("tutorial", "first-steps")
    expect(page.locator(".play-scene .board")).to_have_attribute(
        "aria-label", re.compile(r"^Board, 9 by 5\. Rules: .*MIAU is YOU")
    )


def test_test_play_without_you_says_what_the_level_needs_and_a_lost_you_offers_undo(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    # MIAU IS ... with no YOU: nothing is YOU from the start.
    editor = Editor(page, game_url)
    open_draft(
        editor,
        draft(
            6,
            4,
            [
                word("MIAU", 0, 1),
                word("IS", 1, 1),
                thing("MIAU", 2, 2),
                *(word(text, 3 + x, 3) for x, text in enumerate(("FLAG", "IS", "WIN"))),
                thing("FLAG", 5, 1),
            ],
        ),
    )
    editor.test_play()
    banner = page.locator(".editor-play .test-banner")
    expect(banner).to_have_attribute("data-cause", "none-at-start")
    expect(banner).to_contain_text("Nothing is YOU from the start")
    expect(banner).to_contain_text("This level needs a sentence like MIAU IS YOU.")
    expect(banner).to_contain_text("Press T to go back to editing.")
    expect(banner).not_to_contain_text("Undo")

    # After a turn waited, undo or restart could still only come back to a start without YOU.
    page.keyboard.press(" ")
    expect(page.locator(".editor-play")).to_have_attribute("data-moves", "1")
    expect(banner).to_have_attribute("data-cause", "none-at-start")
    expect(banner).not_to_contain_text("Undo")

    # The missing word painted in, a move that pushes YOU out of the sentence can be undone.
    editor.back_to_editing()
    editor.paint("word:YOU", (2, 1))
    editor.test_play()
    expect(banner).to_be_hidden()
    board = page.locator(".editor-play .board")
    before = board.bounding_box()
    editor.play("U")
    expect(banner).to_have_attribute("data-cause", "lost")
    expect(banner).to_contain_text("Nothing is YOU")
    expect(banner).to_contain_text("Undo (Z) or restart (R).")
    two_frames(page)
    assert board.bounding_box() == before, "the loss banner moved the board"
    page.keyboard.press("z")
    expect(banner).to_be_hidden()


def test_a_grid_past_twenty_cells_says_what_it_costs_before_it_grows(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    cost = page.locator(".editor [data-role='size-cost']")
    expect(cost).to_be_hidden()

    # Typed, not yet kept: the note is there before the grid changes.
    page.fill(".editor [data-field='width']", "30")
    expect(cost).to_be_visible()
    expect(cost).to_contain_text("Over 20 cells across or down")
    expect(cost).to_contain_text("cells are small")
    expect(cost).to_contain_text("the grid scrolls while you edit")
    expect(cost).to_contain_text("solving and checking it take longer")
    assert editor.level()["width"] == 9

    page.press(".editor [data-field='width']", "Enter")
    expect(page.locator(".editor-overlay")).to_have_attribute("data-width", "30")
    expect(cost).to_be_visible()
    editor.set_field("width", "20")
    expect(page.locator(".editor-overlay")).to_have_attribute("data-width", "20")
    expect(cost).to_be_hidden()
    page.fill(".editor [data-field='height']", "21")
    expect(cost).to_be_visible()


SCROLLBARS = """(area) => {
  const style = getComputedStyle(area);
  const borders = (a, b) => parseFloat(style[a]) + parseFloat(style[b]);
  return {
    overflows: area.scrollWidth > area.clientWidth && area.scrollHeight > area.clientHeight,
    vertical: area.offsetWidth - area.clientWidth - borders('borderLeftWidth', 'borderRightWidth'),
    horizontal: area.offsetHeight - area.clientHeight - borders('borderTopWidth', 'borderBottomWidth'),
  };
}"""
"""Whether the area's content overflows it both ways, and the room its scrollbars take (px)."""


def test_an_editor_grid_larger_than_its_view_has_scrollbars_of_its_own(
    browser_type: BrowserType, game_url: str
) -> None:
    # The test browser hides scrollbars (Playwright's default): this one draws them.
    browser = browser_type.launch(
        executable_path=CHROMIUM,
        args=list(CHROMIUM_ARGS),
        ignore_default_args=["--hide-scrollbars"],
    )
    try:
        page = browser.new_context(viewport=LAPTOP).new_page()
        console = ConsoleWatch(page)
        editor = Editor(page, game_url)
        editor.open()
        area = page.locator(".editor-board-area")
        assert area.evaluate(SCROLLBARS) == {"overflows": False, "vertical": 0, "horizontal": 0}

        open_draft(editor, three_rules(30, 30))
        page.wait_for_function(
            "document.querySelector('.editor-board-area').scrollHeight >"
            " document.querySelector('.editor-board-area').clientHeight"
        )
        # The page's own scrollbars, 12 px and in its colours (the thin default is 10 px here
        # and an overlay scrollbar, as macOS draws one, none until a scroll).
        assert area.evaluate(SCROLLBARS) == {"overflows": True, "vertical": 12, "horizontal": 12}
        assert console.errors == []
    finally:
        browser.close()


def test_test_play_fits_a_thirty_by_thirty_board_whole_in_a_laptop_window(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    open_draft(editor, three_rules(30, 30))
    editor.test_play()
    board = page.locator(".editor-play .board")
    expect(board).to_have_attribute("aria-label", re.compile(r"^Board, 30 by 30\."))
    two_frames(page)
    box = board.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= LAPTOP["width"]
    assert box["y"] + box["height"] <= LAPTOP["height"]
    # Nothing to pan: the whole board is inside its area.
    area = page.locator(".editor-play .board-area")
    assert area.evaluate("(area) => area.scrollHeight <= area.clientHeight + 1")
    assert area.evaluate("(area) => area.scrollWidth <= area.clientWidth + 1")


def test_the_win_banner_leaves_the_test_play_board_where_it_was(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    open_draft(
        editor,
        draft(
            6,
            4,
            [
                *(word(text, x, 0) for x, text in enumerate(("MIAU", "IS", "YOU"))),
                *(word(text, x, 1) for x, text in enumerate(("FLAG", "IS", "WIN"))),
                thing("MIAU", 0, 3),
                thing("FLAG", 4, 3),
            ],
        ),
    )
    editor.test_play()
    editor.play("RRR")
    board = page.locator(".editor-play .board")
    before = board.bounding_box()
    editor.play("R")
    expect(page.locator(".editor-play .test-banner")).to_contain_text("Won in 4 moves")
    two_frames(page)
    assert board.bounding_box() == before, "the win banner moved the board"
