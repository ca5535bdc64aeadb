"""The editor's Depth panel through the real page, on the server and on the static site.

A draft with known dead squares (Sunken Word: the corners and edges no word
pushed there can leave) is measured: the panel shows the tier the solver's
depth profile gives, and exactly the profile's dead squares carry a mark on
the grid, none in test-play, and none once the draft changes. "Suggest a
variation" offers at least one level, and "Use this" puts it in the draft
as one undoable edit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from miau.packs import load_pack
from miau.packs.share import single_level_pack
from miau.solver.depth import depth_profile
from tests.browser.library_page import ConsoleWatch
from tests.browser.test_editor import Editor
from tests.support.local import PACKS

pytestmark = pytest.mark.browser

MEASURED = 60_000
"""Milliseconds a depth run or a suggestion may take in the page (Pyodide starts first)."""


def open_draft(page: Page, game_url: str, pack: str, level: str) -> tuple[Editor, dict[str, Any]]:
    """Open a shipped level as the editor's draft; the editor and the draft."""
    draft = single_level_pack(load_pack(PACKS / f"{pack}.json"), level)
    page.goto(f"{game_url}/")
    page.evaluate("(draft) => localStorage.setItem('miau.draft', draft)", json.dumps(draft))
    editor = Editor(page, game_url)
    editor.open()
    return editor, draft


def marked_cells(page: Page) -> set[tuple[int, int]]:
    """The cells whose dead-square mark the editor's grid shows."""
    cells = page.eval_on_selector_all(
        ".editor-overlay .dead-square", "marks => marks.map(m => [m.dataset.x, m.dataset.y])"
    )
    return {(int(x), int(y)) for x, y in cells}


def test_depth_shows_the_tier_and_marks_exactly_the_dead_squares_until_the_draft_changes(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor, draft = open_draft(page, game_url, "tutorial", "sunken-word")
    expected = depth_profile(load_pack(draft).levels[0].data)
    assert expected.dead_squares, "the level has dead squares to mark"

    editor.tab("depth")
    page.click("[data-action='depth']")
    result = page.locator(".depth-result:not([hidden])")
    expect(result).to_have_attribute("data-tier", str(expected.tier), timeout=MEASURED)
    expect(result.locator(".depth-tier")).to_have_text(expected.tier_name)
    expect(result.locator(".tier-line")).not_to_be_empty()
    expect(result.locator("[data-fact='length'] dd")).to_have_text(f"{expected.length} moves")
    expect(result.locator("[data-fact='baselines'] dd")).to_have_text("not measured here")

    marks = page.locator(".editor-overlay .dead-square")
    expect(marks).to_have_count(len(expected.dead_squares))
    assert marked_cells(page) == {(square.x, square.y) for square in expected.dead_squares}
    label = marks.first.get_attribute("aria-label") or ""
    assert label.startswith("Dead square") and "can never reach" in label

    # Test-play draws the level on its own board: no mark there.
    editor.test_play()
    expect(page.locator(".editor-play .dead-square")).to_have_count(0)
    editor.back_to_editing()
    expect(marks).to_have_count(len(expected.dead_squares))

    # Any change makes the marks stale: they go, and the panel says to measure again.
    editor.tab("level")
    editor.set_field("title", "Sunken Word, changed")
    expect(marks).to_have_count(0)
    expect(page.locator("[data-panel='depth'] > .studio-status")).to_have_attribute(
        "data-status", "stale"
    )


def test_suggest_offers_a_variation_and_using_it_is_one_undoable_edit(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor, _ = open_draft(page, game_url, "tutorial", "first-steps")
    editor.tab("depth")
    page.click("[data-action='suggest']")
    cards = page.locator(".variation-card")
    expect(cards.first).to_be_visible(timeout=MEASURED)
    assert 1 <= cards.count() <= 3
    expect(cards.first.locator(".depth-tier")).to_contain_text("tier")

    before = editor.level()
    cards.first.locator("[data-action='use-variation']").click()
    after = editor.level()
    assert after["objects"] != before["objects"]
    assert after["id"] == before["id"] and after.get("solution")
    page.click(".editor-topbar [data-action='undo']")
    assert editor.level() == before
