"""The editor's save flow as a new author meets it.

The Save tab offers a real pack id and name (not grey examples), a saved
level keeps its id when it is renamed (the next save renames it in its
pack instead of adding a second level), and the packs an author saves into
are theirs: none of their levels is locked for them, and world select
says "Yours" instead of "Imported".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_editor import EDITOR_READY, Editor, save_anyway
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


@pytest.fixture
def author(browser: Browser) -> Iterator[Page]:
    """A fresh author's page, with the game's locks as a player meets them (nothing unlocked by hand)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context.new_page()
    context.close()


def library_levels(page: Page, server: LocalServer, pack: str) -> list[dict[str, Any]]:
    response = page.request.get(f"{server.url}/api/library/{pack}/export")
    assert response.ok
    levels: list[dict[str, Any]] = response.json()["levels"]
    return levels


def save(page: Page, *, winnable: bool = False) -> None:
    """Press Save; a level that cannot be won (most here are a lone cat) is saved anyway."""
    page.click("[data-action='save-level']")
    if not winnable:
        save_anyway(page)
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved")


def test_the_save_tab_offers_a_real_pack_id_and_name_and_saves_with_them(
    author: Page, live_server: LocalServer
) -> None:
    editor = Editor(author, live_server.url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.tab("save")
    expect(author.locator("[data-field='library-pack']")).to_have_value("__new__")
    pack_id = author.locator("input[name='new-pack-id']")
    expect(pack_id).to_have_value("my-levels")
    expect(author.locator("input[name='new-pack-name']")).to_have_value("My levels")
    assert pack_id.get_attribute("placeholder") is None

    save(author)

    assert [level["id"] for level in library_levels(author, live_server, "my-levels")] == [
        "my-level"
    ]


def test_a_saved_level_renamed_and_saved_again_is_still_one_level(
    author: Page, live_server: LocalServer
) -> None:
    editor = Editor(author, live_server.url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.set_field("title", "First room")
    editor.tab("save")
    author.select_option("[data-field='library-pack']", "__new__")
    author.fill("input[name='new-pack-id']", "renames")
    author.fill("input[name='new-pack-name']", "Renames")
    save(author)

    editor.tab("level")
    editor.set_field("title", "The better room")
    assert editor.level()["id"] == "first-room", "a saved level keeps its id"
    author.reload()  # the note of where it was saved survives a reload
    author.wait_for_selector(EDITOR_READY)
    editor.tab("save")
    author.click("[data-action='save-level']")
    save_anyway(author)
    dialog = author.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Replace “First room”?")
    dialog.locator("[data-answer='confirm']").click()
    expect(author.locator(".save-status")).to_have_attribute("data-state", "saved")

    levels = library_levels(author, live_server, "renames")
    assert [(level["id"], level["title"]) for level in levels] == [
        ("first-room", "The better room")
    ]

    # A new level's id follows its title again.
    author.click(".editor-topbar [data-action='new']")
    editor.tab("level")
    editor.set_field("title", "Second room")
    assert editor.level()["id"] == "second-room"


def test_the_authors_own_pack_locks_none_of_its_levels_and_is_called_theirs(
    author: Page, live_server: LocalServer
) -> None:
    editor = Editor(author, live_server.url)
    editor.open()
    for title in ("Room one", "Room two", "Room three"):
        editor.paint("object:MIAU", (0, 0))
        editor.set_field("title", title)
        editor.tab("save")
        if title == "Room one":
            author.select_option("[data-field='library-pack']", "__new__")
            author.fill("input[name='new-pack-id']", "own-rooms")
            author.fill("input[name='new-pack-name']", "Own rooms")
        save(author)
        author.click(".editor-topbar [data-action='new']")
        editor.tab("level")

    # The pack's own rules would lock the third required level until one before it is won…
    world = author.request.get(f"{live_server.url}/api/worlds/own-rooms").json()
    assert [level["locked"] for level in world["levels"]] == [False, False, True]
    # …but not for its author.
    author.goto(f"{live_server.url}/#/world/own-rooms")
    expect(author.locator(".level-card[data-level='room-three']")).to_have_attribute(
        "data-locked", "false"
    )
    author.goto(f"{live_server.url}/#/play/own-rooms/room-three")
    author.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    assert author.locator(".locked-panel").count() == 0

    author.goto(f"{live_server.url}/#/worlds")
    card = author.locator(".world-card[data-world='own-rooms']")
    expect(card.locator(".badge.imported")).to_have_text("Yours")


def test_a_test_play_win_of_a_saved_level_counts_and_an_edited_one_does_not(
    author: Page, live_server: LocalServer
) -> None:
    editor = Editor(author, live_server.url)
    editor.open()
    for tool, cell in [
        ("word:MIAU", (0, 0)),
        ("word:IS", (1, 0)),
        ("word:YOU", (2, 0)),
        ("word:FLAG", (0, 1)),
        ("word:IS", (1, 1)),
        ("word:WIN", (2, 1)),
        ("object:MIAU", (0, 3)),
        ("object:FLAG", (1, 3)),
    ]:
        editor.paint(tool, cell)
    editor.set_field("title", "One step")

    # Before any save a win is the draft's alone.
    editor.test_play()
    expect(author.locator(".editor-play")).to_have_attribute("data-counts", "false")
    editor.back_to_editing()

    editor.tab("save")
    author.select_option("[data-field='library-pack']", "__new__")
    author.fill("input[name='new-pack-id']", "counted")
    author.fill("input[name='new-pack-name']", "Counted")
    save(author, winnable=True)

    editor.test_play()
    expect(author.locator(".editor-play")).to_have_attribute("data-counts", "true")
    editor.play("R")
    expect(author.locator(".editor-play")).to_have_attribute("data-won", "true")
    worlds = author.request.get(f"{live_server.url}/api/worlds").json()["worlds"]
    counted = next(world for world in worlds if world["id"] == "counted")
    assert counted["won"] == 1

    # Edited since the save: test-play plays the draft, which is not the saved level.
    editor.back_to_editing()
    editor.paint("object:ROCK", (4, 4))
    editor.test_play()
    expect(author.locator(".editor-play")).to_have_attribute("data-counts", "false")


def test_a_level_of_the_authors_own_pack_opened_in_the_editor_keeps_its_id_when_retitled(
    author: Page, live_server: LocalServer
) -> None:
    editor = Editor(author, live_server.url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.set_field("title", "Room one")
    editor.tab("save")
    author.select_option("[data-field='library-pack']", "__new__")
    author.fill("input[name='new-pack-id']", "own-edit")
    author.fill("input[name='new-pack-name']", "Own edit")
    save(author)
    author.click(".editor-topbar [data-action='new']")

    editor.open("/edit/own-edit/room-one")
    author.wait_for_function("location.hash === '#/edit'")
    expect(author.locator("[data-field='title']")).to_have_value("Room one")
    editor.set_field("title", "Room renamed")

    assert editor.level()["id"] == "room-one"
