"""The level editor through the real page: real clicks, drags and key presses on the real server.

The first test is issue 8's authoring story end to end: a level built from an
empty grid, test-played to a win, solved and its solution stored, saved to the
library, found again after a reload, exported and re-imported, and shared as
a link that plays the same level in a fresh browser context. The others cover
the editor's parts: keyboard painting, erasing and dragging, undo and redo,
the forms that only take valid values, resizing, the check report's links,
and a slow solve that shows progress and is cancelled.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.library_page import ConsoleWatch
from tests.support.local import LocalServer, shipped_solution

pytestmark = pytest.mark.browser

LEVELS = Path(__file__).resolve().parent / "levels"
SLOW_LEVEL = LEVELS / "open-room.json"
"""No WIN and six rocks to push: the solver runs far past a second."""

EDITOR_READY = ".editor[data-ready='true'] .editor-overlay"
PLAY_SETTLED = "document.querySelector('.editor-play')?.dataset.pending === '0'"
NO_FIGURE = "\u2013"
"""What a solve figure shows before the server has reported it (an en dash)."""
KEY_FOR_MOVE = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight", "W": " "}

Entity = tuple[str, str, int, int]


def word(text: str, x: int, y: int) -> dict[str, Any]:
    """A word tile of a draft level."""
    return {"kind": "word", "text": text, "x": x, "y": y}


def thing(noun: str, x: int, y: int) -> dict[str, Any]:
    """A thing of a draft level."""
    return {"kind": "object", "noun": noun, "x": x, "y": y}


"""(kind, noun or text, x, y) of one object of the draft."""


class Editor:
    """The editor scene of one page, driven with real input."""

    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url

    def open(self, route: str = "/edit") -> None:
        """Go to the editor and wait until its grid is drawn."""
        self.page.goto(f"{self.base_url}/#{route}")
        self.page.wait_for_selector(EDITOR_READY)

    def open_draft(self, pack: dict[str, Any]) -> None:
        """Store ``pack`` (one level) as the editor's draft, then open the editor on it."""
        self.page.goto(f"{self.base_url}/")
        self.page.evaluate("(draft) => localStorage.setItem('miau.draft', draft)", json.dumps(pack))
        self.open()

    def draft(self) -> dict[str, Any]:
        """The draft (a one-level pack) as the page holds it."""
        text = self.page.eval_on_selector(".editor output.draft-json", "output => output.value")
        result: dict[str, Any] = json.loads(text)
        return result

    def level(self) -> dict[str, Any]:
        """The draft's one level."""
        level: dict[str, Any] = self.draft()["levels"][0]
        return level

    def entities(self) -> list[Entity]:
        """The draft's objects, in order."""
        return [
            (entry["kind"], entry.get("noun") or entry.get("text"), entry["x"], entry["y"])
            for entry in self.level()["objects"]
        ]

    def cell_point(self, x: int, y: int) -> tuple[float, float]:
        """The middle of cell (x, y) on screen."""
        box = self.page.locator(".editor-overlay").bounding_box()
        assert box is not None
        level = self.level()
        width = box["width"] / level["width"]
        height = box["height"] / level["height"]
        return box["x"] + (x + 0.5) * width, box["y"] + (y + 0.5) * height

    def pick(self, tool: str) -> None:
        """Click a palette tool: ``object:MIAU``, ``word:IS``, ``move``, ``erase``."""
        self.page.click(f".tool[data-tool='{tool}']")
        expect(self.page.locator(".editor")).to_have_attribute("data-tool", tool)

    def click_cell(self, x: int, y: int, *, button: str = "left") -> None:
        """Click cell (x, y) with the mouse."""
        px, py = self.cell_point(x, y)
        self.page.mouse.click(px, py, button=button)  # type: ignore[arg-type]

    def paint(self, tool: str, *cells: tuple[int, int]) -> None:
        """Pick ``tool`` and click each cell."""
        self.pick(tool)
        for x, y in cells:
            self.click_cell(x, y)

    def drag(self, start: tuple[int, int], end: tuple[int, int], *, shift: bool = False) -> None:
        """Press on one cell, move through the cells between, release on the other."""
        self.page.mouse.move(*self.cell_point(*start))
        if shift:
            self.page.keyboard.down("Shift")
        self.page.mouse.down()
        steps = max(abs(end[0] - start[0]), abs(end[1] - start[1]))
        for step in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * step // steps
            y = start[1] + (end[1] - start[1]) * step // steps
            self.page.mouse.move(*self.cell_point(x, y))
        self.page.mouse.up()
        if shift:
            self.page.keyboard.up("Shift")

    def set_field(self, name: str, value: str) -> None:
        """Type into a form field and commit it (Enter)."""
        field = self.page.locator(f".editor [data-field='{name}']")
        field.fill(value)
        field.press("Enter")

    def tab(self, name: str) -> None:
        """Show a side panel: level, parts, check, solve, save."""
        self.page.click(f".tab[data-tab='{name}']")

    def test_play(self) -> None:
        """Press T on the grid and wait for the draft game to open."""
        self.page.locator(".editor-overlay").focus()
        self.page.keyboard.press("t")
        self.page.wait_for_selector(".editor[data-mode='play'] .editor-play[data-ready='true']")

    def play(self, moves: str) -> None:
        """Play a move string in test-play, one key press a move, each reply drawn."""
        for move in moves:
            self.page.keyboard.press(KEY_FOR_MOVE[move])
            self.page.wait_for_function(PLAY_SETTLED)

    def back_to_editing(self) -> None:
        """Press T again: back to the grid."""
        self.page.keyboard.press("t")
        self.page.wait_for_selector(".editor[data-mode='edit'] .editor-overlay")

    def solve(self) -> dict[str, str]:
        """Press Solve and wait for the result: its outcome and moves."""
        self.page.click(".editor-topbar [data-action='solve']")
        result = self.page.locator(".solve-result:not([hidden])")
        result.wait_for(timeout=60_000)
        moves = self.page.locator(".solve-result .moves")
        return {
            "outcome": result.get_attribute("data-outcome") or "",
            "moves": (moves.get_attribute("data-moves") or "") if moves.count() else "",
        }


def save_anyway(page: Page) -> None:
    """Answer Save's question about a level that cannot be won (a lone cat, say): save it anyway."""
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Save a level that cannot be won?", timeout=60_000)
    dialog.locator("[data-answer='confirm']").click()


def build_flag_run(editor: Editor) -> None:
    """From an empty 9x7 grid: a 6x4 level 'Flag run' where Miau walks four cells right to the flag.

    Mouse clicks paint MIAU IS YOU and the things, the keyboard paints FLAG IS WIN,
    a drag paints a row of walls (no rule makes them STOP, so they are scenery).
    """
    page = editor.page
    assert editor.entities() == []
    editor.set_field("width", "6")
    editor.set_field("height", "4")
    expect(page.locator(".editor-overlay")).to_have_attribute("data-width", "6")
    editor.set_field("title", "Flag run")
    editor.set_field("id", "flag-run")

    editor.paint("word:MIAU", (0, 0))
    editor.paint("word:IS", (1, 0))
    editor.paint("word:YOU", (2, 0))
    editor.paint("object:MIAU", (0, 3))
    editor.paint("object:FLAG", (4, 3))
    editor.pick("object:WALL")
    editor.drag((3, 2), (5, 2))

    # FLAG IS WIN from the keyboard: the cursor to (0, 1), tools by their palette place.
    overlay = page.locator(".editor-overlay")
    overlay.focus()
    page.keyboard.press("ArrowLeft")
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    expect(overlay).to_have_attribute("data-cursor", "0,1")
    for text, move in (("FLAG", True), ("IS", True), ("WIN", False)):
        editor.pick(f"word:{text}")
        overlay.focus()
        page.keyboard.press("Enter")
        if move:
            page.keyboard.press("ArrowRight")

    assert editor.entities() == [
        ("word", "MIAU", 0, 0),
        ("word", "IS", 1, 0),
        ("word", "YOU", 2, 0),
        ("object", "MIAU", 0, 3),
        ("object", "FLAG", 4, 3),
        ("object", "WALL", 3, 2),
        ("object", "WALL", 4, 2),
        ("object", "WALL", 5, 2),
        ("word", "FLAG", 0, 1),
        ("word", "IS", 1, 1),
        ("word", "WIN", 2, 1),
    ]
    level = editor.level()
    assert (level["id"], level["title"], level["width"], level["height"]) == (
        "flag-run",
        "Flag run",
        6,
        4,
    )
    # The game's board draws the draft: one tile per object, words as word tiles.
    expect(page.locator(".editor .board > .entity")).to_have_count(11)
    expect(
        page.locator(".editor .board > .entity[data-kind='word'][data-text='WIN']")
    ).to_have_attribute("data-x", "2")


def test_a_level_built_in_the_editor_is_played_solved_saved_exported_reimported_and_shared(
    page: Page, browser: Browser, game_url: str, console: ConsoleWatch, tmp_path: Path
) -> None:
    editor = Editor(page, game_url)
    editor.open()
    build_flag_run(editor)
    built = editor.draft()

    # Test-play on the game's engine to a win, then back to the same draft.
    editor.test_play()
    expect(page.locator(".editor-play .ledger-rule")).to_have_count(2)
    editor.play("RRRR")
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    expect(page.locator(".editor-play .test-banner")).to_contain_text("Won in 4 moves")
    editor.back_to_editing()
    assert editor.draft() == built

    # Solve on the server, store the shortest solution, replay it on the board.
    assert editor.solve() == {"outcome": "solved", "moves": "RRRR"}
    page.click("[data-action='store-solution']")
    assert editor.level()["solution"] == "RRRR"
    stored = page.locator("[data-action='store-solution']")
    expect(stored).to_have_attribute("data-stored", "true")
    page.click(".editor-topbar [data-action='undo']")
    expect(stored).to_have_attribute("data-stored", "false")
    assert "solution" not in editor.level()
    page.click(".editor-topbar [data-action='redo']")
    expect(stored).to_have_attribute("data-stored", "true")
    assert editor.level()["solution"] == "RRRR"
    page.click("[data-action='replay']")
    expect(page.locator(".editor-play")).to_have_attribute("data-replay", "done", timeout=10_000)
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    editor.back_to_editing()

    # Save into a new library pack.
    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "my-levels")
    page.fill("input[name='new-pack-name']", "My levels")
    page.click("[data-action='save-level']")
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved")

    # A reload keeps the draft, and world select lists the library pack.
    page.reload()
    page.wait_for_selector(EDITOR_READY)
    assert editor.level()["solution"] == "RRRR"
    assert editor.entities() == [
        (entry["kind"], entry.get("noun") or entry.get("text"), entry["x"], entry["y"])
        for entry in built["levels"][0]["objects"]
    ]
    page.goto(f"{game_url}/#/worlds")
    expect(page.locator(".world-card[data-world='my-levels']")).to_contain_text("My levels")

    # Export the library pack from the editor's save panel: saving the same
    # level again asks before it replaces the stored one.
    editor.open()
    editor.tab("save")
    expect(page.locator("[data-field='library-pack']")).to_have_value("my-levels")
    page.click("[data-action='save-level']")
    page.click(".confirm-dialog [data-answer='confirm']")
    expect(page.locator(".save-status")).to_have_attribute("data-state", "saved")
    with page.expect_download() as download_info:
        page.click("[data-action='export']")
    exported = tmp_path / "my-levels.json"
    download_info.value.save_as(exported)
    exported_pack = json.loads(exported.read_text(encoding="utf-8"))
    assert exported_pack["manifest"]["id"] == "my-levels"
    assert [level["id"] for level in exported_pack["levels"]] == ["flag-run"]
    assert exported_pack["levels"][0]["solution"] == "RRRR"

    # Share: the link opens the same level in a fresh browser context (a new player).
    page.click("[data-action='share']")
    link_input = page.locator(".share-status input.share-link")
    link_input.wait_for()
    link = link_input.input_value()
    assert "/#/shared/" in link

    fresh = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        other = fresh.new_page()
        other_problems = ConsoleWatch(other)
        other.goto(link)
        other.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
        expect(other.locator(".play-title")).to_have_text("Flag run")
        for move in "RRRR":
            other.keyboard.press(KEY_FOR_MOVE[move])
            other.wait_for_function("document.querySelector('.play-scene').dataset.pending === '0'")
        other.wait_for_selector(".win-overlay")

        # Re-import the exported file in that player's library (library scene, file input).
        other.goto(f"{game_url}/#/library")
        other.wait_for_selector(".library-scene[data-ready='true']")
        other.set_input_files("#pack-file", str(exported))
        other.wait_for_selector(
            ".library-scene[data-importing='false'] .import-report:not([hidden])"
        )
        assert other.get_attribute(".import-report", "data-outcome") == "imported"
        other.goto(f"{game_url}/#/worlds")
        expect(other.locator(".world-card[data-world='my-levels']")).to_be_visible()
        other.goto(f"{game_url}/#/play/my-levels/flag-run")
        other.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
        expect(other.locator(".play-title")).to_have_text("Flag run")
        assert other_problems.errors == []
    finally:
        fresh.close()


def test_two_new_levels_saved_into_one_pack_are_both_kept_and_a_second_save_of_an_id_asks(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.paint("object:MIAU", (0, 0))
    editor.set_field("title", "First room")
    # The id follows the title while nobody typed one.
    assert editor.level()["id"] == "first-room"
    expect(page.locator("[data-field='id']")).to_have_value("first-room")

    editor.tab("save")
    page.select_option("[data-field='library-pack']", "__new__")
    page.fill("input[name='new-pack-id']", "rooms")
    page.fill("input[name='new-pack-name']", "Rooms")
    page.click("[data-action='save-level']")
    save_anyway(page)
    status = page.locator(".save-status")
    expect(status).to_have_attribute("data-state", "saved")

    # A second level: New, a title; the Save tab still points at the pack just used.
    page.click(".editor-topbar [data-action='new']")
    editor.tab("level")
    editor.paint("object:FLAG", (1, 1))
    editor.set_field("title", "Second room")
    assert editor.level()["id"] == "second-room"
    editor.tab("save")
    expect(page.locator("[data-field='library-pack']")).to_have_value("rooms")
    page.click("[data-action='save-level']")
    save_anyway(page)
    expect(status).to_have_attribute("data-state", "saved")
    expect(status).to_contain_text("(2 levels)")
    assert library_level_ids(page, live_server, "rooms") == ["first-room", "second-room"]

    # The same id again: the page asks, and Cancel saves nothing.
    editor.tab("level")
    editor.paint("object:ROCK", (2, 2))
    editor.tab("save")
    page.click("[data-action='save-level']")
    save_anyway(page)
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Replace “Second room”?")
    dialog.locator("[data-answer='cancel']").click()
    expect(status).to_have_attribute("data-state", "cancelled")
    assert len(library_level(page, live_server, "rooms", "second-room")["objects"]) == 1

    # Replace, then undo that save: the stored level is the one before.
    page.click("[data-action='save-level']")
    save_anyway(page)
    dialog.locator("[data-answer='confirm']").click()
    expect(status).to_have_attribute("data-state", "saved")
    assert len(library_level(page, live_server, "rooms", "second-room")["objects"]) == 2
    page.click("[data-action='undo-save']")
    expect(status).to_have_attribute("data-state", "undone")
    assert len(library_level(page, live_server, "rooms", "second-room")["objects"]) == 1
    assert library_level_ids(page, live_server, "rooms") == ["first-room", "second-room"]

    # A reload keeps the pack chosen.
    page.reload()
    page.wait_for_selector(EDITOR_READY)
    editor.tab("save")
    expect(page.locator("[data-field='library-pack']")).to_have_value("rooms")


def library_pack(page: Page, live_server: LocalServer, pack: str) -> dict[str, Any]:
    """The library pack as the server exports it to this page's player."""
    response = page.request.get(f"{live_server.url}/api/library/{pack}/export")
    assert response.ok
    result: dict[str, Any] = response.json()
    return result


def library_level_ids(page: Page, live_server: LocalServer, pack: str) -> list[str]:
    """The ids of a library pack's levels, in order."""
    return [level["id"] for level in library_pack(page, live_server, pack)["levels"]]


def library_level(page: Page, live_server: LocalServer, pack: str, level: str) -> dict[str, Any]:
    """One level of a library pack."""
    found: dict[str, Any] = next(
        entry for entry in library_pack(page, live_server, pack)["levels"] if entry["id"] == level
    )
    return found


def test_keyboard_paints_erases_and_carries_tiles_and_number_keys_pick_tools(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    overlay = page.locator(".editor-overlay")
    overlay.focus()

    page.keyboard.press("3")  # the first thing of the palette: MIAU
    expect(page.locator(".editor")).to_have_attribute("data-tool", "object:MIAU")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.keyboard.press("]")  # the next tool: WALL
    expect(page.locator(".editor")).to_have_attribute("data-tool", "object:WALL")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    assert editor.entities() == [("object", "MIAU", 1, 1), ("object", "WALL", 2, 1)]

    # Shift and an arrow carry the top tile along with the cursor.
    page.keyboard.press("Shift+ArrowDown")
    page.keyboard.press("Shift+ArrowDown")
    assert editor.entities() == [("object", "MIAU", 1, 1), ("object", "WALL", 2, 3)]
    expect(overlay).to_have_attribute("data-cursor", "2,3")

    page.keyboard.press("Delete")
    assert editor.entities() == [("object", "MIAU", 1, 1)]
    page.keyboard.press("[")
    page.keyboard.press("[")
    expect(page.locator(".editor")).to_have_attribute("data-tool", "erase")


def test_stacked_tiles_right_click_erases_the_top_one_and_a_drag_moves_a_tile(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.paint("object:FLAG", (2, 2))
    editor.paint("object:ROCK", (2, 2))
    editor.paint("word:WIN", (2, 2))
    editor.paint("word:WIN", (2, 2))  # the same tile twice in a cell is not stacked again
    assert editor.entities() == [
        ("object", "FLAG", 2, 2),
        ("object", "ROCK", 2, 2),
        ("word", "WIN", 2, 2),
    ]
    # Stacked like the game: three tiles in one cell, the top one badged with the count.
    expect(page.locator(".editor .board > .entity[data-x='2'][data-y='2']")).to_have_count(3)
    expect(page.locator(".editor .board > .entity[data-stack='3']")).to_have_attribute(
        "data-kind", "word"
    )

    editor.click_cell(2, 2, button="right")
    assert editor.entities() == [("object", "FLAG", 2, 2), ("object", "ROCK", 2, 2)]

    editor.pick("move")
    editor.drag((2, 2), (5, 4))
    assert editor.entities() == [("object", "FLAG", 2, 2), ("object", "ROCK", 5, 4)]

    # Shift-drag moves with a painting tool selected too; a whole drag is one undo.
    editor.pick("object:WALL")
    editor.drag((5, 4), (7, 4), shift=True)
    assert editor.entities() == [("object", "FLAG", 2, 2), ("object", "ROCK", 7, 4)]
    page.keyboard.press("Control+z")
    assert editor.entities() == [("object", "FLAG", 2, 2), ("object", "ROCK", 5, 4)]

    editor.pick("erase")
    editor.drag((2, 2), (5, 4))
    assert editor.entities() == []


def test_undo_and_redo_cover_painting_strokes_and_form_edits(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.pick("object:WALL")
    editor.drag((0, 0), (4, 0))  # one stroke, five walls
    editor.set_field("title", "Walls")
    editor.paint("object:MIAU", (2, 3))
    after = editor.draft()
    assert len(after["levels"][0]["objects"]) == 6

    page.locator(".editor-overlay").focus()
    page.keyboard.press("Control+z")
    assert len(editor.entities()) == 5
    page.keyboard.press("Control+z")
    assert editor.level()["title"] == "My level"
    expect(page.locator("[data-field='title']")).to_have_value("My level")
    page.keyboard.press("Control+z")
    assert editor.entities() == []
    expect(page.locator(".editor [data-action='undo']")).to_be_disabled()

    page.keyboard.press("Control+Shift+z")
    assert len(editor.entities()) == 5
    page.keyboard.press("Control+y")
    assert editor.level()["title"] == "Walls"
    page.click(".editor [data-action='redo']")
    assert editor.level()["objects"] == after["levels"][0]["objects"]
    assert editor.draft() == after
    expect(page.locator(".editor [data-action='redo']")).to_be_disabled()

    # An edit after an undo drops the redo branch.
    page.click(".editor [data-action='undo']")
    editor.paint("object:FLAG", (8, 6))
    expect(page.locator(".editor [data-action='redo']")).to_be_disabled()

    # The draft outlives a reload.
    page.reload()
    page.wait_for_selector(EDITOR_READY)
    assert ("object", "FLAG", 8, 6) in editor.entities()


def test_shrinking_the_grid_asks_before_it_drops_tiles(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.paint("object:ROCK", (8, 6), (1, 1))
    # The page asks in its own dialog (a native confirm would stop the page).
    dialog = page.locator(".confirm-dialog")
    editor.set_field("width", "5")
    expect(dialog).to_contain_text("A 5 by 7 grid leaves out 1 tile. Resize anyway?")
    dialog.locator("[data-answer='cancel']").click()
    expect(page.locator("[data-field='width']")).to_have_value("9")
    assert editor.level()["width"] == 9
    editor.set_field("width", "5")
    dialog.locator("[data-answer='confirm']").click()
    expect(page.locator("[data-field='width']")).to_have_value("5")
    assert editor.level()["width"] == 5
    assert editor.entities() == [("object", "ROCK", 1, 1)]

    editor.set_field("height", "99")  # the loader's limit is 64
    assert editor.level()["height"] == 64


def test_automata_pairs_and_glossary_forms_only_keep_valid_values(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open()
    editor.paint("object:ROCK", (1, 1))
    editor.tab("parts")
    page.click("[data-action='add-automaton']")
    record = editor.level()["automata"][0]
    assert record == {
        "id": "a01",
        "property": "TICK",
        "phase": 0,
        "pattern": ["L", "R"],
        "subject": "WALL",
    }

    page.select_option("[data-field='automata[0].subject']", "ROCK")
    page.click("[data-field='automata[0].add-U']")
    page.click("[data-field='automata[0].add-W']")
    page.click("[data-field='automata[0].pattern[0]']")  # removes the first step
    page.select_option("[data-field='automata[0].phase']", "2")
    record = editor.level()["automata"][0]
    assert (record["subject"], record["pattern"], record["phase"]) == ("ROCK", ["R", "U", "W"], 2)

    # A word the loader would refuse is shown as an error and not kept.
    editor.set_field("automata[0].property", "ROCK")
    expect(page.locator("[data-field='automata[0].property']")).to_have_attribute(
        "aria-invalid", "true"
    )
    assert editor.level()["automata"][0]["property"] == "TICK"
    editor.set_field("automata[0].property", "sway")
    assert editor.level()["automata"][0]["property"] == "SWAY"

    # The declared word joins the palette as a property tile, and the glossary.
    expect(page.locator(".tool[data-tool='word:SWAY'] .word-tile")).to_have_attribute(
        "data-class", "property"
    )
    page.select_option("[data-field='properties.SWAY.accent']", "sink")
    editor.set_field("properties.SWAY.describe", "Sways one step a turn.")
    assert editor.draft()["properties"]["SWAY"] == {
        "accent": "sink",
        "describe": "Sways one step a turn.",
    }
    expect(page.locator(".tool[data-tool='word:SWAY'] .word-tile")).to_have_attribute(
        "data-accent", "sink"
    )

    page.click("[data-action='add-pair']")
    assert editor.level()["pairs"] == [
        {"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": False}
    ]
    editor.set_field("pairs[0].words[1]", "OPEN")
    expect(page.locator("[data-field='pairs[0].words[1]']")).to_have_attribute(
        "aria-invalid", "true"
    )
    editor.set_field("pairs[0].words[1]", "SWAY")
    assert editor.level()["pairs"][0]["words"] == ["OPEN", "SHUT"]
    page.check("[data-field='pairs[0].enter']")
    assert editor.level()["pairs"][0]["enter"] is True

    # The check accepts what the forms made (one level pack through the real loader).
    editor.tab("check")
    page.click("[data-action='check']")
    expect(page.locator(".check-report")).to_be_visible(timeout=60_000)
    assert page.locator(".check-report .problem[data-severity='error']").count() == 0


def test_the_check_report_links_each_problem_to_its_tile_or_field(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    # A draft the forms could not make (written by hand, say): an automaton whose
    # phase is past its pattern (an error at that field) and a GHOST tile no rule
    # can read as a property nor any thing bears (the noun trap, a warning at its tile).
    def word(text: str, x: int, y: int) -> dict[str, Any]:
        return {"kind": "word", "text": text, "x": x, "y": y}

    draft = {
        "manifest": {"id": "draft", "name": "Draft", "version": "1.0.0", "engine": 1},
        "palette": {"MIAU": {"glyph": "🐈", "faces": "left"}, "ROCK": "🪨"},
        "properties": {},
        "levels": [
            {
                "id": "tangle",
                "title": "Tangle",
                "width": 7,
                "height": 5,
                "objects": [
                    word("MIAU", 0, 0),
                    word("IS", 1, 0),
                    word("YOU", 2, 0),
                    {"kind": "object", "noun": "MIAU", "x": 1, "y": 3},
                    {"kind": "object", "noun": "ROCK", "x": 4, "y": 3},
                    word("GHOST", 6, 4),
                ],
                "automata": [{"id": "a01", "property": "TICK", "phase": 5, "pattern": ["L", "R"]}],
            }
        ],
    }
    page.goto(f"{game_url}/")
    page.evaluate("(draft) => localStorage.setItem('miau.draft', draft)", json.dumps(draft))
    editor = Editor(page, game_url)
    editor.open()

    page.click(".editor-topbar [data-action='check']")
    expect(page.locator(".check-report")).to_be_visible(timeout=60_000)
    expect(page.locator("[data-panel='check'] .studio-status")).to_have_attribute(
        "data-status", "problems"
    )

    trap = page.locator(
        ".problem[data-severity='warning'] .place-link[data-place='levels[0].objects[5]']"
    )
    trap.click()
    expect(page.locator(".editor .board > .entity[data-index='5']")).to_have_attribute(
        "data-flagged", "true"
    )
    expect(page.locator(".editor-overlay")).to_have_attribute("data-cursor", "6,4")

    error = page.locator(
        ".problem[data-severity='error'] .place-link[data-place='levels[0].automata[0].phase']"
    )
    error.click()
    expect(page.locator(".editor")).to_have_attribute("data-tab", "parts")
    expect(page.locator("[data-field='automata[0].phase']")).to_be_focused()

    # Fixed in the form, the check passes the loader and reports the level itself.
    page.select_option("[data-field='automata[0].phase']", "1")
    page.click(".editor-topbar [data-action='check']")
    expect(page.locator(".check-line[data-check='rules']")).to_contain_text(
        "MIAU IS YOU", timeout=60_000
    )
    assert page.locator(".check-report .problem[data-severity='error']").count() == 0
    expect(page.locator(".check-line[data-check='start-moves']")).to_have_attribute(
        "data-ok", "true"
    )
    expect(page.locator(".check-line[data-check='solution']")).to_have_attribute("data-ok", "false")
    expect(page.locator(".check-line[data-check='solver']")).to_contain_text("UNSOLVABLE")
    # An unsolvable level is not judged HANDS-OFF either way (no "✓ Not HANDS-OFF").
    expect(page.locator(".check-line[data-check='hands-off']")).to_have_count(0)


def test_a_slow_solve_shows_progress_and_cancel_frees_the_worker(
    page: Page, game_url: str, console: ConsoleWatch
) -> None:
    slow = json.loads(SLOW_LEVEL.read_text(encoding="utf-8"))
    page.goto(f"{game_url}/")
    page.evaluate("(draft) => localStorage.setItem('miau.draft', draft)", json.dumps(slow))
    editor = Editor(page, game_url)
    editor.open()
    assert editor.level()["id"] == "open-room"

    editor.tab("solve")
    page.select_option("select[name='solve-cap']", "2000000")
    page.click("[data-action='solve']")
    # Live figures: expanded states grow while it runs.
    page.wait_for_function(
        "Number((document.querySelector(\"[data-stat='expanded']\").textContent || '0').replace(/,/g, '')) > 0",
        timeout=30_000,
    )
    first = page.inner_text("[data-stat='expanded']")
    page.wait_for_function(
        "(first) => document.querySelector(\"[data-stat='expanded']\").textContent !== first",
        arg=first,
    )
    expect(page.locator("[data-panel='solve'] .studio-status")).to_have_attribute(
        "data-status", "running"
    )
    assert page.inner_text("[data-stat='depth']") != NO_FIGURE
    assert page.inner_text("[data-stat='rate']") != NO_FIGURE

    page.click("[data-action='cancel-solve']")
    expect(page.locator("[data-panel='solve'] .studio-status")).to_have_attribute(
        "data-status", "cancelled", timeout=5_000
    )

    # The worker is free again: the next job starts at once (not "busy") and answers.
    page.select_option("select[name='solve-cap']", "100000")
    page.click("[data-action='solve']")
    expect(page.locator(".solve-result")).to_have_attribute("data-outcome", "limit", timeout=60_000)
    expect(page.locator("[data-panel='solve'] .studio-status")).to_contain_text("100,000")


def test_editing_a_copy_of_a_shipped_level_keeps_its_automata_and_test_plays_it(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open("/edit/clockwork/mouse-keeps-time")
    page.wait_for_function("location.hash === '#/edit'")
    expect(page.locator(".play-title")).to_have_text("The mouse keeps time")
    level = editor.level()
    assert level["automata"][0]["pattern"] == ["L"] * 5 + ["R"] * 5
    assert level["automata"][0]["subject"] == "MOUSE"
    expect(
        page.locator(".editor .board > .entity[data-kind='word'][data-text='TICK']")
    ).to_have_attribute("data-class", "property")
    editor.test_play()
    editor.play("DRRRRRRRRRR")
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    page.keyboard.press("Escape")
    page.wait_for_selector(".editor[data-mode='edit']")


def test_a_copy_of_a_vocabulary_1_level_keeps_its_words_and_test_plays_it(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open("/edit/lexicon/not-stop")
    page.wait_for_function("location.hash === '#/edit'")
    assert editor.draft()["manifest"]["features"] == ["vocabulary-1"]
    expect(page.locator(".editor [data-field='vocabulary-1']")).to_be_checked()
    not_tile = page.locator(".editor .board > .entity[data-kind='word'][data-text='NOT']")
    expect(not_tile).to_have_attribute("data-class", "operator")
    expect(page.locator(".tool[data-tool='word:MOVE']")).to_be_visible()
    editor.test_play()
    editor.play(shipped_solution("lexicon", "not-stop"))
    expect(page.locator(".editor-play")).to_have_attribute("data-won", "true")
    page.keyboard.press("Escape")
    page.wait_for_selector(".editor[data-mode='edit']")

    # Without the feature the same words are plain nouns, and the palette has no MOVE.
    page.locator(".editor [data-field='vocabulary-1']").uncheck()
    assert "features" not in editor.draft()["manifest"]
    expect(not_tile).to_have_attribute("data-class", "noun")
    expect(page.locator(".tool[data-tool='word:MOVE']")).to_have_count(0)


def test_escape_leaves_a_field_then_goes_back_to_the_level_the_editor_was_opened_on(
    page: Page, live_server: LocalServer, console: ConsoleWatch
) -> None:
    editor = Editor(page, live_server.url)
    editor.open("/edit/tutorial/rock-in-the-way")
    expect(page.locator(".editor [data-field='title']")).to_have_value("Rock in the Way")
    page.focus(".editor [data-field='title']")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.classList.contains('editor-overlay')")
    assert "#/edit" in page.url

    page.keyboard.press("Escape")
    page.wait_for_url("**/#/world/tutorial")
    focused = page.locator(".level-card:focus")
    expect(focused).to_have_attribute("data-level", "rock-in-the-way")
