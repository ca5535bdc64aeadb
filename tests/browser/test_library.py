"""The library scene through the real page: import by file and by paste, the
problem report of broken packs, replacing and removing, and library packs in
world select with progress."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.game_page import GamePage
from tests.browser.library_page import (
    BAD_PACKS,
    GARDEN_SOLUTION,
    ConsoleWatch,
    garden_pack,
    library_ids,
    open_library,
    pack_text,
    reported_lines,
    wait_for_report,
)
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser

BROKEN_SAMPLE = [
    "invalid-json",
    "out-of-grid-objects",
    "duplicate-level-ids",
    "bad-semver",
    "glossary-bad-accent",
    "level-missing-fields",
]
"""Broken packs of different kinds: not JSON, bad values, repeated ids, the manifest, the glossary, missing fields."""


def paste_and_import(page: Page, text: str) -> None:
    page.fill("#pack-text", text)
    page.click("[data-action='import']")


def test_a_pack_chosen_with_the_file_input_joins_the_library_and_world_select_with_progress(
    page: Page, game_url: str, console: ConsoleWatch, tmp_path: Path
) -> None:
    pack_file = tmp_path / "garden.json"
    pack_file.write_text(pack_text(garden_pack()), encoding="utf-8")
    open_library(page, game_url)

    page.set_input_files("#pack-file", str(pack_file))

    assert wait_for_report(page) == "imported"
    expect(page.locator(".report-heading")).to_have_text("Imported “Garden” version 1.0.0")
    card = page.locator(".pack-card[data-pack='garden']")
    expect(card.locator(".pack-name")).to_have_text("Garden")
    expect(card.locator(".pack-version")).to_have_text("v1.0.0")
    expect(card.locator(".pack-meta")).to_contain_text("2 levels")

    page.goto(f"{game_url}/#/worlds")
    world = page.locator(".world-card[data-world='garden']")
    expect(world.locator(".badge.imported")).to_have_text("Imported")
    expect(world.locator(".progress-text")).to_have_text("0 / 2 required")

    game = GamePage(page, game_url)
    game.open_level("garden", "flag")
    game.play(GARDEN_SOLUTION)
    page.wait_for_selector(".win-overlay")
    page.keyboard.press("Escape")
    page.wait_for_url("**/#/world/garden")
    expect(page.locator(".level-card[data-level='flag']")).to_have_attribute("data-won", "true")

    page.goto(f"{game_url}/#/worlds")
    expect(page.locator(".world-card[data-world='garden'] .progress-text")).to_have_text(
        "1 / 2 required"
    )
    # The library's packs come first, in a compact row in sight without scrolling; then
    # the shipped worlds; the ways into the library and the editor close the page.
    order = page.eval_on_selector_all(
        ".world-card, .tool-card", "cards => cards.map(c => c.dataset.world || c.dataset.tool)"
    )
    assert order[0] == "garden"
    assert order[1:7] == [
        "tutorial",
        "clockwork",
        "clockwork-pairs",
        "lexicon",
        "deep-end",
        "proofs",
    ]
    assert order[7:] == ["library", "editor"]


def test_a_pasted_pack_joins_the_library(page: Page, game_url: str, console: ConsoleWatch) -> None:
    open_library(page, game_url)
    expect(page.locator(".library-panel .scene-summary")).to_contain_text("Nothing imported yet")

    paste_and_import(page, pack_text(garden_pack()))

    assert wait_for_report(page) == "imported"
    # A report without problems lists none, and prints no stray "null".
    assert "null" not in page.inner_text(".import-report")
    expect(page.locator(".pack-card[data-pack='garden']")).to_be_visible()
    assert library_ids(page) == [("garden", "1.0.0")]
    expect(page.locator("#pack-text")).to_have_value("")


@pytest.mark.parametrize("name", BROKEN_SAMPLE)
def test_a_broken_pack_is_refused_with_every_problem_at_its_place(
    page: Page, live_server: LocalServer, console: ConsoleWatch, tmp_path: Path, name: str
) -> None:
    expected = (BAD_PACKS / f"{name}.expected.txt").read_text(encoding="utf-8").splitlines()
    open_library(page, live_server.url)

    page.set_input_files("#pack-file", str(BAD_PACKS / f"{name}.json"))

    assert wait_for_report(page) == "failed"
    assert reported_lines(page) == expected
    problems = "problem" if len(expected) == 1 else "problems"
    expect(page.locator(".report-heading")).to_contain_text(
        f"Not imported: {len(expected)} {problems}"
    )
    assert library_ids(page) == []


def test_the_noun_trap_imports_with_its_warnings_listed_as_warnings(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    expected = (BAD_PACKS / "noun-trap.expected.txt").read_text(encoding="utf-8").splitlines()
    open_library(page, live_server.url)

    page.set_input_files("#pack-file", str(BAD_PACKS / "noun-trap.json"))

    assert wait_for_report(page) == "warnings"
    assert reported_lines(page) == expected
    expect(page.locator(".report-heading")).to_contain_text(f"with {len(expected)} warnings")
    # Not by colour alone: each line says it is a warning.
    labels = page.locator(".import-report .problem-severity").all_text_contents()
    assert labels and all(label.strip() == "⚠ Warning" for label in labels)
    assert library_ids(page) == [("broken", "1.0.0")]


def test_a_newer_version_replaces_the_old_one_only_after_confirmation(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    open_library(page, live_server.url)
    paste_and_import(page, pack_text(garden_pack()))
    wait_for_report(page)

    paste_and_import(page, pack_text(garden_pack(version="1.1.0", name="Garden II")))
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("version 1.0.0")
    expect(dialog).to_contain_text("Version 1.1.0 is newer than yours.")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(page.locator(".report-heading")).to_have_text("Nothing changed")
    assert library_ids(page) == [("garden", "1.0.0")]

    paste_and_import(page, pack_text(garden_pack(version="1.1.0", name="Garden II")))
    page.click(".confirm-dialog [data-answer='confirm']")

    expect(page.locator(".report-heading")).to_have_text("Replaced “Garden II” version 1.1.0")
    expect(page.locator(".pack-card[data-pack='garden'] .pack-version")).to_have_text("v1.1.0")
    assert library_ids(page) == [("garden", "1.1.0")]


def test_an_older_version_is_offered_as_not_newer(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    open_library(page, live_server.url)
    paste_and_import(page, pack_text(garden_pack(version="2.0.0")))
    wait_for_report(page)

    paste_and_import(page, pack_text(garden_pack(version="1.0.0")))

    expect(page.locator(".confirm-dialog")).to_contain_text(
        "Version 1.0.0 is not newer than yours (2.0.0)."
    )
    page.click(".confirm-dialog [data-answer='cancel']")
    assert library_ids(page) == [("garden", "2.0.0")]


def test_a_shipped_world_id_is_refused(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    pack = garden_pack()
    pack["manifest"]["id"] = "tutorial"
    open_library(page, live_server.url)

    paste_and_import(page, pack_text(pack))

    assert wait_for_report(page) == "failed"
    assert library_ids(page) == []


def test_removing_a_pack_asks_first(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    open_library(page, live_server.url)
    paste_and_import(page, pack_text(garden_pack()))
    wait_for_report(page)

    page.click(".pack-card[data-pack='garden'] [data-action='remove']")
    expect(page.locator(".confirm-dialog")).to_contain_text("Remove “Garden”?")
    page.click(".confirm-dialog [data-answer='cancel']")
    assert library_ids(page) == [("garden", "1.0.0")]

    page.click(".pack-card[data-pack='garden'] [data-action='remove']")
    page.click(".confirm-dialog [data-answer='confirm']")

    expect(page.locator(".pack-card")).to_have_count(0)
    assert library_ids(page) == []
    page.goto(f"{live_server.url}/#/worlds")
    page.wait_for_selector(".tool-card[data-tool='library']")
    expect(page.locator(".world-card[data-world='garden']")).to_have_count(0)


def test_a_library_world_offers_edit_export_and_remove(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    open_library(page, live_server.url)
    paste_and_import(page, pack_text(garden_pack()))
    wait_for_report(page)
    page.goto(f"{live_server.url}/#/world/garden")

    expect(page.locator(".edit-level[data-level='flag']")).to_have_attribute(
        "href", "#/edit/garden/flag"
    )
    with page.expect_download() as download_info:
        page.click(".head-tools [data-action='export']")
    exported = json.loads(Path(download_info.value.path()).read_text(encoding="utf-8"))
    assert exported["manifest"]["id"] == "garden"
    assert [level["id"] for level in exported["levels"]] == ["flag", "far-flag"]

    page.click(".head-tools [data-action='remove']")
    page.click(".confirm-dialog [data-answer='confirm']")

    page.wait_for_url("**/#/worlds")
    page.wait_for_selector(".tool-card[data-tool='library']")
    expect(page.locator(".world-card[data-world='garden']")).to_have_count(0)
    assert library_ids(page) == []


def test_shipped_worlds_have_no_library_tools(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    page.goto(f"{live_server.url}/#/world/tutorial")
    page.wait_for_selector(".level-card")

    expect(page.locator(".edit-level")).to_have_count(0)
    expect(page.locator(".head-tools [data-action='remove']")).to_have_count(0)
