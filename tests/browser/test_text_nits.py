"""Small words on screen: nothing said twice, no stray separators."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_editor import Editor, save_anyway
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser


def test_an_unknown_levels_page_says_it_could_not_be_opened_once_and_names_the_level(
    page: Page, live_server: LocalServer
) -> None:
    page.goto(f"{live_server.url}/#/play/tutorial/no-such-level")
    expect(page.locator(".play-scene[data-failed='true'] .message-heading")).to_be_visible()

    assert page.inner_text(".play-scene").count("could not be opened") == 1
    expect(page.locator(".play-title")).to_have_text("no-such-level")


def test_a_world_without_a_description_shows_its_count_without_a_leading_separator(
    page: Page, live_server: LocalServer
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "bare")
    page.fill("input[name='new-pack-name']", "Bare")
    page.click("[data-action='save-level']")
    save_anyway(page)
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved")

    page.goto(f"{live_server.url}/#/world/bare")
    summary = page.locator(".levels-scene .scene-summary")
    expect(summary).to_have_text("0 of 1 required level solved")
