"""The editor's small things from an author's first hour (issue 53), on both hosts.

Opening a link to the very level the draft already is asks nothing; Escape
and the top bar's way back ask before leaving edits that are in no library
(and ask nothing when there are none, Escape still leaving a text field
first); undo and redo survive a reload and leaving the editor; and a new
pack's id follows its name until the pack is saved, after which renaming
the pack keeps its id and the Save tab says why.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.library_page import ConsoleWatch
from tests.browser.test_editor import EDITOR_READY, Editor, save_anyway

pytestmark = pytest.mark.browser

LINKED_LEVEL = "/edit/tutorial/first-steps"
LEVEL_SELECT = "**/#/world/tutorial"


def open_link(editor: Editor, route: str) -> None:
    """Follow a ``#/edit/PACK/LEVEL`` link and wait until it is settled: asked, or opened as ``#/edit``."""
    editor.open(route)
    editor.page.wait_for_function(
        "location.hash === '#/edit' || document.querySelector('.confirm-dialog[open]') !== null"
    )


def undo_and_redo_counts(page: Page) -> tuple[str | None, str | None]:
    """How many steps the editor can undo and redo, as its page shows them."""
    editor = page.locator(".editor")
    return editor.get_attribute("data-undo"), editor.get_attribute("data-redo")


def test_a_link_to_the_level_the_draft_already_is_opens_it_without_asking(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    dialog = page.locator(".confirm-dialog")
    open_link(editor, LINKED_LEVEL)
    expect(dialog).to_have_count(0)
    title = editor.level()["title"]

    # The level select's Edit link again: the draft is that level, untouched.
    page.goto(f"{game_url}/#/worlds")
    open_link(editor, LINKED_LEVEL)
    expect(dialog).to_have_count(0)
    assert editor.level()["title"] == title

    # A stored draft of the very level without the editor's note of where it came
    # from (kept by an older editor): the levels compare equal, so nothing is asked.
    page.goto(f"{game_url}/#/worlds")
    page.evaluate(
        """() => {
            const draft = JSON.parse(localStorage.getItem('miau.draft'));
            delete draft.openedFrom;
            localStorage.setItem('miau.draft', JSON.stringify(draft));
        }"""
    )
    open_link(editor, LINKED_LEVEL)
    expect(dialog).to_have_count(0)

    # A change makes it work of the author's: the link asks again.
    editor.paint("object:FLAG", (0, 0))
    page.goto(f"{game_url}/#/worlds")
    open_link(editor, LINKED_LEVEL)
    expect(dialog).to_contain_text("Replace your draft?")
    dialog.locator("[data-answer='cancel']").click()


def test_escape_and_the_back_link_ask_before_leaving_unsaved_edits(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    editor.paint("object:MIAU", (1, 1))
    dialog = page.locator(".confirm-dialog")

    # Escape in a text field goes to the grid first, and asks nothing yet.
    page.focus(".editor [data-field='title']")
    page.keyboard.press("Escape")
    expect(page.locator(".editor-overlay")).to_be_focused()
    expect(dialog).to_have_count(0)

    # Escape on the grid asks; Keep editing stays, with the edit.
    page.keyboard.press("Escape")
    expect(dialog).to_contain_text("Leave with unsaved changes?")
    expect(dialog).to_contain_text("“My level” is not saved to your library yet.")
    dialog.locator("[data-answer='cancel']").click()
    expect(dialog).to_have_count(0)
    assert page.evaluate("location.hash") == "#/edit"
    assert len(editor.entities()) == 1

    # The top bar's way back asks too; Leave leaves.
    page.click(".editor-topbar [data-action='back']")
    expect(dialog).to_contain_text("Leave with unsaved changes?")
    dialog.locator("[data-answer='confirm']").click()
    page.wait_for_url("**/#/worlds")


def test_leaving_asks_nothing_when_nothing_is_unsaved(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    dialog = page.locator(".confirm-dialog")

    # An untouched copy of a level: Escape goes straight back to its level select.
    open_link(editor, LINKED_LEVEL)
    page.locator(".editor-overlay").focus()
    page.keyboard.press("Escape")
    page.wait_for_url(LEVEL_SELECT)

    # A level saved to the library and unchanged since: the way back asks nothing either.
    editor.open()
    page.click(".editor-topbar [data-action='new']")
    editor.paint("object:MIAU", (2, 2))
    editor.tab("save")
    page.click("[data-action='save-level']")
    save_anyway(page)
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved")
    page.click(".editor-topbar [data-action='back']")
    page.wait_for_url(LEVEL_SELECT)
    expect(dialog).to_have_count(0)


def test_undo_and_redo_survive_a_reload_and_leaving_the_editor(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    editor.paint("object:MIAU", (0, 0), (1, 0), (2, 0))
    page.click(".editor-topbar [data-action='undo']")
    assert undo_and_redo_counts(page) == ("2", "1")

    page.reload()
    page.wait_for_selector(EDITOR_READY)
    assert undo_and_redo_counts(page) == ("2", "1")
    stored = json.loads(page.evaluate("localStorage.getItem('miau.draft.history')"))
    assert (len(stored["undo"]), len(stored["redo"])) == (2, 1), "kept under a key of its own"
    page.locator(".editor-overlay").focus()
    page.keyboard.press("Control+z")
    assert [entity[2] for entity in editor.entities()] == [0]
    page.keyboard.press("Control+y")
    page.keyboard.press("Control+y")
    assert [entity[2] for entity in editor.entities()] == [0, 1, 2]

    # Out of the editor (it asks: the level is saved nowhere) and back in: the history is still there.
    page.keyboard.press("Escape")
    page.locator(".confirm-dialog [data-answer='confirm']").click()
    page.wait_for_url("**/#/worlds")
    editor.open()
    assert undo_and_redo_counts(page) == ("3", "0")
    page.click(".editor-topbar [data-action='undo']")
    assert [entity[2] for entity in editor.entities()] == [0, 1]


def test_a_new_packs_id_follows_its_name_until_it_is_saved_and_then_stays(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.tab("save")
    expect(page.locator("[data-field='library-pack']")).to_have_value("__new__")
    name = page.locator("input[name='new-pack-name']")
    pack_id = page.locator("input[name='new-pack-id']")

    # The id follows the name; one typed by hand stays as typed.
    name.fill("Cat tricks")
    expect(pack_id).to_have_value("cat-tricks")
    pack_id.fill("tricks")
    name.fill("Cat tricks, vol. 1")
    expect(pack_id).to_have_value("tricks")
    pack_id.fill("cat-tricks-vol-1")
    name.fill("Cat tricks")
    expect(pack_id).to_have_value("cat-tricks")

    page.click("[data-action='save-level']")
    save_anyway(page)
    status = page.locator(".save-status")
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_contain_text("in Cat tricks (1 level)")
    expect(page.locator(".save-status [data-action='export']")).to_have_attribute(
        "download", "cat-tricks.json"
    )

    # Saved: the pack is in the library. A new name keeps its id, and the tab says why.
    expect(page.locator("[data-field='library-pack']")).to_have_value("cat-tricks")
    note = page.locator(".pack-id-note")
    expect(note).to_be_hidden()
    page.locator("input[name='pack-name']").fill("Clever cats")
    expect(note).to_have_text("Its id stays “cat-tricks”: links to the pack use it.")
    page.click("[data-action='save-level']")
    save_anyway(page)
    replace = page.locator(".confirm-dialog")
    expect(replace).to_contain_text("Replace “My level”?")  # the level is in the pack already
    replace.locator("[data-answer='confirm']").click()
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_contain_text("The pack is called Clever cats now; its id stays “cat-tricks”.")
    expect(page.locator("[data-field='library-pack'] option[value='cat-tricks']")).to_have_text(
        "Clever cats (cat-tricks)"
    )
    expect(note).to_be_hidden()
    page.goto(f"{game_url}/#/worlds")
    expect(page.locator(".world-card[data-world='cat-tricks']")).to_contain_text("Clever cats")
