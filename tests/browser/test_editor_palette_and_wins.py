"""The whole palette and wins that count (issue 53, items 3 and 4), on both hosts.

A level reopened in the editor offers every stock thing beside its own, in
the order a new draft has (so the number keys stay put), and a new thing
typed without a glyph gets the default glyph the form showed. A test-play
win offers "Store as solution" for its moves; a test-play win of a saved,
unchanged library level counts for it; and the author's own level opened
through its share link, in the browser that owns the library, is played as
that library level, so its win counts there and its best shows on the
level's card.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.game_page import KEY_FOR_MOVE
from tests.browser.library_page import ConsoleWatch
from tests.browser.test_editor import Editor, thing, word
from tests.browser.test_editor_honesty import draft_pack, flag_walk, open_draft

pytestmark = pytest.mark.browser

STOCK_THINGS = ["MIAU", "WALL", "FLAG", "ROCK", "WATER", "SKULL", "KEY", "DOOR"]
PLAY_SCENE_READY = ".play-scene[data-ready='true'] .board > .entity"


def thing_tools(page: Page) -> list[str]:
    """The palette's thing tools, in order."""
    tools: list[str] = page.locator(".tool[data-kind='object']").evaluate_all(
        "buttons => buttons.map(button => button.dataset.tool)"
    )
    return tools


def a_saved_level_with_its_own_palette() -> dict[str, Any]:
    """A level as a library pack keeps it: only MIAU, WALL and FLAG in its palette, MIAU its own glyph."""
    pack = draft_pack(
        {
            "id": "three-things",
            "title": "Three things",
            "width": 5,
            "height": 3,
            "objects": [
                word("MIAU", 0, 0),
                word("IS", 1, 0),
                word("YOU", 2, 0),
                thing("MIAU", 0, 2),
                thing("WALL", 2, 2),
                thing("FLAG", 4, 2),
            ],
        }
    )
    pack["palette"] = {"MIAU": "😺", "WALL": "🧱", "FLAG": "🚩"}
    return pack


def test_a_reopened_level_offers_every_stock_thing_with_the_number_keys_of_a_new_draft(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    new_draft_tools = thing_tools(page)
    assert new_draft_tools == [f"object:{noun}" for noun in STOCK_THINGS]

    open_draft(page, game_url, a_saved_level_with_its_own_palette())
    assert thing_tools(page) == new_draft_tools
    # The level's own glyph for a stock thing is kept.
    expect(page.locator(".tool[data-tool='object:MIAU'] .tool-glyph")).to_have_text("😺")
    # ROCK keeps its number key (the sixth tool: Move, Erase, MIAU, WALL, FLAG, ROCK).
    page.locator(".editor-overlay").focus()
    page.keyboard.press("6")
    expect(page.locator(".editor")).to_have_attribute("data-tool", "object:ROCK")
    editor.click_cell(1, 1)
    assert ("object", "ROCK", 1, 1) in editor.entities()
    # A stock thing the level does not use is offered, never saved.
    assert "WATER" not in json.dumps(editor.draft()["levels"])


def test_a_new_thing_with_no_glyph_typed_gets_the_default_glyph_the_form_shows(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = open_draft(page, game_url, a_saved_level_with_its_own_palette())
    glyph_field = page.locator("input[data-field='new-glyph']")
    shown = glyph_field.get_attribute("placeholder")
    assert shown
    page.fill("input[data-field='new-noun']", "tree")
    page.click(".new-noun button[type='submit']")
    expect(page.locator(".new-noun .field-error")).to_be_hidden()
    expect(page.locator(".editor")).to_have_attribute("data-tool", "object:TREE")
    expect(page.locator(".tool[data-tool='object:TREE'] .tool-glyph")).to_have_text(shown)
    assert editor.draft()["palette"]["TREE"] == shown
    # The next new thing is offered a glyph no thing shows yet.
    expect(glyph_field).not_to_have_attribute("placeholder", shown)


def test_a_test_play_win_offers_store_as_solution_for_its_moves(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    pack = flag_walk()
    del pack["levels"][0]["solution"]
    editor = open_draft(page, game_url, pack)
    editor.test_play()
    editor.play("RRRR")
    play = page.locator(".editor-play")
    expect(play).to_have_attribute("data-won", "true")
    store = play.locator("[data-action='store-win']")
    expect(store).to_have_text("Store these 4 moves as the solution")
    store.click()
    expect(store).to_have_text("Stored as the solution")
    expect(store).to_be_disabled()
    assert editor.level()["solution"] == "RRRR"
    # Won again with the same moves: the banner says they are stored already.
    page.keyboard.press("r")
    expect(play).to_have_attribute("data-won", "false")
    editor.play("RRRR")
    expect(play.locator("[data-action='store-win']")).to_have_text("Stored as the solution")


def save_into_new_pack(page: Page, editor: Editor, pack_id: str, name: str) -> None:
    """Save the draft into a new library pack and wait for the saved status."""
    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", pack_id)
    page.fill("input[name='new-pack-name']", name)
    page.click("[data-action='save-level']")
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved", timeout=60_000)


def level_card_status(page: Page, url: str, pack: str, level: str) -> str:
    """The status line of a level's card on its world's page."""
    page.goto(f"{url}/#/world/{pack}")
    status = page.locator(f".level-card[data-level='{level}'] .level-status")
    status.wait_for()
    return status.inner_text()


def test_a_test_play_win_of_a_saved_level_counts_for_it_in_the_library(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = open_draft(page, game_url, flag_walk())
    save_into_new_pack(page, editor, "counted", "Counted")
    assert "Not solved yet" in level_card_status(page, game_url, "counted", "flag-walk")

    editor.open()
    editor.test_play()
    expect(page.locator(".editor-play .test-status")).to_contain_text("wins count")
    editor.play("RRRR")
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    assert level_card_status(page, game_url, "counted", "flag-walk") == "✓ Solved · best 4 moves"


def test_the_authors_own_level_opened_by_its_share_link_counts_for_the_library_level(
    page: Page, game_url: str, browser: Browser, console: ConsoleWatch
) -> None:
    editor = open_draft(page, game_url, flag_walk())
    save_into_new_pack(page, editor, "shared-own", "Shared own")
    page.click("[data-action='share']")
    link_input = page.locator(".share-status input.share-link")
    link_input.wait_for()
    link = link_input.input_value()

    page.goto(link)
    page.wait_for_url("**/#/play/shared-own/flag-walk")
    page.wait_for_selector(PLAY_SCENE_READY)
    expect(page.locator(".toast").first).to_contain_text(
        "your level “Flag walk” of your pack “Shared own”"
    )
    for move in "RRRR":
        page.keyboard.press(KEY_FOR_MOVE[move])
        page.wait_for_function("document.querySelector('.play-scene').dataset.pending === '0'")
    page.wait_for_selector(".win-overlay")
    assert level_card_status(page, game_url, "shared-own", "flag-walk") == "✓ Solved · best 4 moves"

    # Anyone else's browser plays the link as a shared level.
    fresh = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        other = fresh.new_page()
        other.goto(link)
        other.wait_for_selector(PLAY_SCENE_READY)
        assert "#/shared/" in other.url
        expect(other.locator(".play-title")).to_have_text("Flag walk")
    finally:
        fresh.close()
