"""A link to ``#/edit/PACK/LEVEL`` never replaces the stored editor draft without asking.

The third outside attack found that any such link overwrote the draft kept
in ``localStorage`` (a reload then lost it): a link is anyone's to make.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.support.local import LocalServer

WORKED = {
    "manifest": {"id": "draft", "name": "Draft", "version": "1.0.0", "engine": 1},
    "levels": [
        {
            "id": "my-own",
            "title": "My own level",
            "width": 5,
            "height": 3,
            "objects": [{"kind": "word", "text": "MIAU", "x": 0, "y": 0}],
        }
    ],
}


def stored_title(page: Page) -> str:
    text = page.evaluate("localStorage.getItem('miau.draft')")
    return str(json.loads(text)["levels"][0]["title"])


def with_a_worked_draft(page: Page, base: str) -> None:
    page.goto(f"{base}/#/")
    page.evaluate(f"localStorage.setItem('miau.draft', {json.dumps(json.dumps(WORKED))})")


def test_a_link_to_a_level_asks_before_replacing_a_worked_draft_and_keeps_it_if_told(
    page: Page, live_server: LocalServer
) -> None:
    with_a_worked_draft(page, live_server.url)
    page.goto(f"{live_server.url}/#/edit/tutorial/first-steps")
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Replace your draft?")
    dialog.locator("[data-answer='cancel']").click()
    page.wait_for_function("location.hash === '#/edit'")
    assert stored_title(page) == "My own level"
    page.reload()
    expect(page.locator(".editor")).to_be_visible()
    assert stored_title(page) == "My own level"


def test_a_link_to_a_level_replaces_the_draft_when_the_player_agrees(
    page: Page, live_server: LocalServer
) -> None:
    with_a_worked_draft(page, live_server.url)
    page.goto(f"{live_server.url}/#/edit/tutorial/first-steps")
    page.locator(".confirm-dialog [data-answer='confirm']").click()
    page.wait_for_function("location.hash === '#/edit'")
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('miau.draft')).levels[0].title !== 'My own level'"
    )
