"""The editor draws words as the game does and lists the rules in force as they change.

Property words take their accent on the grid, in the palette (as chips with
readable text) and in test-play, exactly as the same level's share link
shows them; the rules in force are read from the engine after every edit.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_editor import Editor
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser

MIN_TEXT_PX = 11.0
FACE_COLOUR = "(tile) => getComputedStyle(tile.querySelector('.face')).backgroundColor"
FACE_TEXT_PX = "(tile) => parseFloat(getComputedStyle(tile.querySelector('.face')).fontSize)"


def test_property_words_take_their_colours_on_the_grid_in_the_palette_and_in_test_play(
    page: Page, live_server: LocalServer
) -> None:
    editor = Editor(page, live_server.url)
    editor.open("/edit/tutorial/first-steps")
    expect(page.locator(".editor-board-area .entity[data-text='YOU']")).to_have_attribute(
        "data-accent", "you"
    )

    palette_you = page.locator(".tool[data-tool='word:YOU'] .word-tile")
    palette_win = page.locator(".tool[data-tool='word:WIN'] .word-tile")
    palette_noun = page.locator(".tool[data-tool='word:MIAU'] .word-tile")
    expect(palette_you).to_have_attribute("data-class", "property")
    colours = {
        palette_you.evaluate(FACE_COLOUR),
        palette_win.evaluate(FACE_COLOUR),
        palette_noun.evaluate(FACE_COLOUR),
    }
    assert len(colours) == 3, f"YOU, WIN and a noun share a colour in the palette: {colours}"
    for tool in page.locator(".tool[data-kind='word'] .word-tile").all():
        assert tool.evaluate(FACE_TEXT_PX) >= MIN_TEXT_PX

    editor.test_play()
    board_you = page.locator(".editor-play .board .entity[data-text='YOU']")
    expect(board_you).to_have_attribute("data-accent", "you")
    assert board_you.evaluate(FACE_COLOUR) == palette_you.evaluate(FACE_COLOUR)
    ledger_you = page.locator(".editor-play .ledger .word-tile[data-accent='you']")
    expect(ledger_you.first).to_be_visible()


def test_the_rules_in_force_are_listed_and_follow_each_edit(
    page: Page, live_server: LocalServer
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    rules = page.locator(".draft-rules .ledger-rule")
    editor.paint("word:MIAU", (0, 0))
    editor.paint("word:IS", (1, 0))
    editor.paint("word:YOU", (2, 0))

    expect(rules).to_have_count(1)
    expect(rules.first).to_have_attribute("aria-label", "MIAU is YOU")

    editor.paint("word:IS", (0, 1))
    editor.paint("word:WIN", (0, 2))
    expect(rules).to_have_count(2)
    expect(rules.nth(1)).to_have_attribute("aria-label", "MIAU is WIN")

    editor.click_cell(1, 0, button="right")
    expect(rules).to_have_count(1)
    expect(rules.first).to_have_attribute("aria-label", "MIAU is WIN")

    editor.click_cell(0, 1, button="right")
    expect(page.locator(".draft-rules .ledger-empty")).to_have_text("No rules are active.")
