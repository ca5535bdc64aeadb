"""Check and Save never say "fine" when it is not (issue 53, items 1 and 2), on both hosts.

Check ends in one of three verdicts said in words (passed, problems,
undecided), and a search stopped by its cap is never "passed": a 30x30
room without its WIN word, checked under the Solve tab's lowest Cap, is
undecided and says which control raises the cap and what that costs. A
re-run clears the old result at once. Save checks the level first: a stored
solution that no longer wins (the flag moved) is said, and dropped or
replaced by the author's test-play win; a level that cannot be won is saved
only when the author says so, and is marked on its level card.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.library_page import ConsoleWatch
from tests.browser.test_editor import Editor, thing, word

pytestmark = pytest.mark.browser

CHECK_STATUS = "[data-panel='check'] .studio-status"
SETTLED_STATUSES = ("passed", "problems", "undecided", "error", "cancelled")


def draft_pack(level: dict[str, Any]) -> dict[str, Any]:
    """A draft as the editor keeps it: a one-level pack with the stock palette."""
    return {
        "manifest": {"id": "draft", "name": "Draft", "version": "1.0.0", "engine": 1},
        "palette": {
            "MIAU": {"glyph": "🐈", "faces": "left"},
            "WALL": "🧱",
            "FLAG": "🚩",
            "ROCK": "🪨",
        },
        "properties": {},
        "levels": [level],
    }


def big_room_without_win() -> dict[str, Any]:
    """30x30, walled, MIAU IS YOU and rocks to push, FLAG IS with its WIN word removed."""
    size = 30
    walls = [thing("WALL", x, y) for x in range(size) for y in (0, size - 1)]
    walls += [thing("WALL", x, y) for x in (0, size - 1) for y in range(1, size - 1)]
    words = [
        *(word(text, 2 + i, 2) for i, text in enumerate(("MIAU", "IS", "YOU"))),
        *(word(text, 2 + i, 4) for i, text in enumerate(("WALL", "IS", "STOP"))),
        *(word(text, 2 + i, 6) for i, text in enumerate(("FLAG", "IS"))),
        *(word(text, 2 + i, 8) for i, text in enumerate(("ROCK", "IS", "PUSH"))),
    ]
    things = [thing("MIAU", 10, 10), thing("FLAG", 20, 20)]
    things += [thing("ROCK", x, y) for x, y in ((12, 12), (15, 15), (18, 8))]
    return draft_pack(
        {
            "id": "big-room",
            "title": "Big room",
            "width": size,
            "height": size,
            "objects": walls + words + things,
        }
    )


def flag_walk() -> dict[str, Any]:
    """6x4: Miau walks four cells right to the flag; RRRR is stored as its solution."""
    return draft_pack(
        {
            "id": "flag-walk",
            "title": "Flag walk",
            "width": 6,
            "height": 4,
            "objects": [
                word("MIAU", 0, 0),
                word("IS", 1, 0),
                word("YOU", 2, 0),
                word("FLAG", 3, 0),
                word("IS", 4, 0),
                word("WIN", 5, 0),
                thing("MIAU", 0, 3),
                thing("FLAG", 4, 3),
            ],
            "solution": "RRRR",
        }
    )


def open_draft(page: Page, url: str, pack: dict[str, Any]) -> Editor:
    """The editor, opened on ``pack`` as its draft."""
    editor = Editor(page, url)
    editor.open_draft(pack)
    return editor


def wait_for_check(page: Page) -> str:
    """Wait until the check has a verdict (or stopped); return its status."""
    page.wait_for_function(
        "(done) => done.includes(document.querySelector(\"[data-panel='check'] .studio-status\")"
        "?.dataset.status)",
        arg=list(SETTLED_STATUSES),
        timeout=90_000,
    )
    return page.get_attribute(CHECK_STATUS, "data-status") or ""


def test_a_check_that_hits_the_cap_on_an_unwinnable_30x30_level_is_undecided_not_passed(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    open_draft(page, game_url, big_room_without_win())
    # The lowest cap, in the Solve tab: the check runs under it too.
    page.click(".tab[data-tab='solve']")
    page.select_option("select[name='solve-cap']", "10000")
    page.click(".editor-topbar [data-action='check']")

    assert wait_for_check(page) == "undecided"
    status = page.locator(CHECK_STATUS)
    expect(status).not_to_contain_text("passed")
    expect(status).to_contain_text("Undecided")
    expect(status).to_contain_text("may or may not be winnable")
    expect(status).to_contain_text("stopped at its cap of 10,000 states")
    advice = page.locator(".check-advice")
    # The control that raises the cap, by its name in the editor, and what raising it costs.
    expect(advice).to_contain_text("raise Cap in the Solve tab (now 10,000)")
    expect(advice).to_contain_text("100,000 states: about")
    expect(advice).not_to_contain_text("solverMax")
    expect(page.locator(".check-line[data-check='solver']")).to_have_attribute(
        "data-status", "undecided"
    )
    # Nothing failed, and nothing under the verdict carries a ✗.
    expect(page.locator(".check-report .check-line[data-status='fail']")).to_have_count(0)

    # A re-run clears the old result the moment it starts.
    page.click("[data-panel='check'] [data-action='check']")
    expect(page.locator(".check-report")).to_be_hidden()
    expect(page.locator(".check-advice")).to_have_count(0)
    expect(status).to_contain_text("Checking")
    assert wait_for_check(page) == "undecided"


def test_a_passed_check_shows_only_ticks_and_a_missing_solution_is_a_note(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    pack = flag_walk()
    del pack["levels"][0]["solution"]
    open_draft(page, game_url, pack)
    page.click(".editor-topbar [data-action='check']")

    assert wait_for_check(page) == "passed"
    expect(page.locator(CHECK_STATUS)).to_contain_text("Passed: every check is ✓")
    checks = page.locator(".check-report .check-lines:not(.check-notes) .check-line")
    assert set(checks.evaluate_all("lines => lines.map(line => line.dataset.status)")) == {"ok"}
    expect(page.locator(".check-notes .check-line[data-check='solution']")).to_contain_text(
        "No solution is stored yet"
    )


def test_save_after_moving_the_flag_says_the_stored_solution_no_longer_wins(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    editor = open_draft(page, game_url, flag_walk())
    # Move the flag one cell further: RRRR now stops a cell short of it.
    editor.drag((4, 3), (5, 3), shift=True)
    assert ("object", "FLAG", 5, 3) in editor.entities()
    assert editor.level()["solution"] == "RRRR"

    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "stale-check")
    page.fill("input[name='new-pack-name']", "Stale check")
    page.click("[data-action='save-level']")
    dialog = page.locator(".choice-dialog")
    expect(dialog).to_contain_text("The stored solution no longer wins", timeout=60_000)
    expect(dialog).to_contain_text("does not win")
    # No test-play win yet: dropping the stale solution is what is offered.
    expect(dialog.locator("[data-answer='store-win']")).to_have_count(0)
    dialog.locator("[data-answer='cancel']").click()
    status = page.locator(".save-status")
    expect(status).to_have_attribute("data-state", "cancelled")
    expect(status).to_contain_text("stored solution no longer wins")
    assert editor.level()["solution"] == "RRRR"

    # Won in test-play on the level as it is now: Save offers that win instead.
    editor.test_play()
    editor.play("RRRRR")
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    editor.back_to_editing()
    editor.tab("save")
    page.click("[data-action='save-level']")
    expect(dialog).to_contain_text("Your last test-play win of this level took 5 moves")
    dialog.locator("[data-answer='store-win']").click()
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_contain_text("Your test-play win (5 moves) is its stored solution now.")
    assert editor.level()["solution"] == "RRRRR"
    expect(status).to_have_attribute("data-mark", "none")


def test_saving_a_level_that_cannot_be_won_asks_first_and_marks_it_in_the_library(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    pack = flag_walk()
    level = pack["levels"][0]
    del level["solution"]
    level["objects"] = [entry for entry in level["objects"] if entry.get("text") != "WIN"]
    editor = open_draft(page, game_url, pack)
    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "no-win")
    page.fill("input[name='new-pack-name']", "No win")
    page.click("[data-action='save-level']")
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Save a level that cannot be won?", timeout=60_000)
    expect(dialog).to_contain_text("Cannot be won")
    dialog.locator("[data-answer='confirm']").click()
    status = page.locator(".save-status")
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_have_attribute("data-mark", "unsolvable")

    page.goto(f"{game_url}/#/world/no-win")
    card = page.locator(".level-card[data-level='flag-walk']")
    expect(card).to_have_attribute("data-mark", "unsolvable")
    expect(card.locator(".level-mark")).to_have_text("⚠ Cannot be won")


def test_saving_a_level_no_win_is_known_for_asks_first_and_marks_it_not_shown_winnable(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    open_draft(page, game_url, big_room_without_win())
    page.click(".tab[data-tab='save']")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "big-rooms")
    page.fill("input[name='new-pack-name']", "Big rooms")
    page.click("[data-action='save-level']")
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Save a level nobody has won yet?", timeout=60_000)
    expect(dialog).to_contain_text("stopped at its cap of 10,000 states")
    dialog.locator("[data-answer='cancel']").click()
    status = page.locator(".save-status")
    expect(status).to_have_attribute("data-state", "cancelled")
    expect(status).to_contain_text("Not saved: no win is known for the level yet.")

    page.click("[data-action='save-level']")
    dialog.locator("[data-answer='confirm']").click()
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_have_attribute("data-mark", "undecided")
    page.goto(f"{game_url}/#/world/big-rooms")
    card = page.locator(".level-card[data-level='big-room']")
    expect(card.locator(".level-mark")).to_have_text("? Not shown winnable")
