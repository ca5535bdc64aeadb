"""The game on a 390x844 touch phone: legible word tiles on every shipped level, nothing scrolling sideways.

Every shipped level is opened in one phone page and the computed font size
of every word tile's text on the board is read back: none may be under
MIN_TILE_TEXT_PX (a board too dense to fit at that size pans instead).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.support.local import PACKS, UNLOCK_ALL, LocalServer

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
MIN_TILE_TEXT_PX = 11.0

SHIPPED_LEVELS = [
    (path.stem, level["id"])
    for path in sorted(PACKS.glob("*.json"))
    for level in json.loads(path.read_text(encoding="utf-8"))["levels"]
]

SMALLEST_WORD_TEXT = """() => {
  const faces = [...document.querySelectorAll('.board > .entity.word-tile > .face')];
  return faces.length ? Math.min(...faces.map((face) => parseFloat(getComputedStyle(face).fontSize))) : null;
}"""
SIDEWAYS = "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
PAST_THE_RIGHT_EDGE = """() => [...document.querySelectorAll('.scene *')].filter((element) => {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.right <= window.innerWidth + 0.5) return false;
  // Inside a box that scrolls sideways on purpose (a panning board) it can be scrolled to.
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowX;
    if ((overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth) return false;
  }
  return true;
}).map((element) => `${element.tagName}.${element.className}`).slice(0, 5)"""
"""What sticks out past the screen's right edge (a clipped scene scrolls nowhere, yet is cut)."""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    context.add_init_script(UNLOCK_ALL)
    yield context.new_page()
    context.close()


def test_no_word_tile_on_any_shipped_level_is_smaller_than_11_px_on_a_phone(
    phone: Page, live_server: LocalServer
) -> None:
    small = {}
    sideways = {}
    for pack, level in SHIPPED_LEVELS:
        phone.goto(f"{live_server.url}/#/play/{pack}/{level}")
        phone.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
        smallest = phone.evaluate(SMALLEST_WORD_TEXT)
        if smallest is not None and smallest < MIN_TILE_TEXT_PX:
            small[f"{pack}/{level}"] = smallest
        overflow = phone.evaluate(SIDEWAYS)
        if overflow > 0:
            sideways[f"{pack}/{level}"] = overflow
    assert len(SHIPPED_LEVELS) >= 55
    assert small == {}, f"word tile text under {MIN_TILE_TEXT_PX} px: {small}"
    assert sideways == {}, f"the page scrolls sideways by (px): {sideways}"


def test_a_held_pad_button_keeps_moving_until_it_is_let_go(
    phone: Page, live_server: LocalServer
) -> None:
    phone.goto(f"{live_server.url}/#/play/tutorial/first-steps")
    phone.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    # The Hint button is on screen on a phone too; the hint itself waits for a tap.
    hint = phone.locator(".hint-panel")
    assert hint.is_visible()
    assert phone.locator(".hint-panel .hint").count() == 0
    phone.locator(".hint-button").click()
    assert "cat" in phone.locator(".hint-panel .hint").inner_text()
    right = phone.locator(".dpad-button[data-pad='right']")
    assert right.is_visible()
    right.dispatch_event(
        "pointerdown", {"pointerId": 3, "button": 0, "isPrimary": True, "bubbles": True}
    )
    # One press: the move at once, then the key-repeat rate while it is held.
    phone.wait_for_function("Number(document.getElementById('move-count').textContent) >= 3")
    right.dispatch_event(
        "pointerup", {"pointerId": 3, "button": 0, "isPrimary": True, "bubbles": True}
    )
    right.dispatch_event("click", {"bubbles": True})
    phone.wait_for_function("document.querySelector('.play-scene').dataset.pending === '0'")
    held = int(phone.inner_text("#move-count"))
    phone.keyboard.press("z")
    phone.wait_for_function(
        f"Number(document.getElementById('move-count').textContent) === {held - 1}"
    )


SCENES = ["/", "/worlds", "/world/tutorial", "/play/tutorial/first-steps", "/library", "/edit"]


def test_no_scene_scrolls_sideways_on_a_phone_and_test_play_has_the_pad(
    phone: Page, live_server: LocalServer
) -> None:
    sideways = {}
    for route in SCENES:
        phone.goto(f"{live_server.url}/#{route}")
        phone.wait_for_load_state("networkidle")
        phone.wait_for_selector(".scene:not([data-ready='false'])")
        overflow = phone.evaluate(SIDEWAYS)
        if overflow > 0:
            sideways[route] = overflow
        cut = phone.evaluate(PAST_THE_RIGHT_EDGE)
        if cut:
            sideways[route] = cut
    assert sideways == {}, f"the page scrolls sideways or is cut at the right edge: {sideways}"

    phone.goto(f"{live_server.url}/#/edit/tutorial/first-steps")
    phone.wait_for_selector(".editor[data-ready='true'] .editor-overlay")
    phone.click(".editor-topbar [data-action='test-play']")
    phone.wait_for_selector(".editor[data-mode='play'] .editor-play[data-ready='true']")
    assert phone.locator(".editor-play .dpad-button[data-pad='right']").is_visible()
    assert phone.evaluate(SIDEWAYS) <= 0
    assert phone.evaluate(PAST_THE_RIGHT_EDGE) == []


def test_no_scene_is_cut_in_a_narrow_window_driven_by_a_mouse_and_share_stays_in_view(
    browser: Browser, live_server: LocalServer
) -> None:
    # A desktop window as narrow as a phone: a fine pointer, so the buttons keep
    # whatever a mouse user gets (key hints, the volume), which must still fit.
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    context.add_init_script(UNLOCK_ALL)
    window = context.new_page()
    cut = {}
    for route in SCENES:
        window.goto(f"{live_server.url}/#{route}")
        window.wait_for_load_state("networkidle")
        window.wait_for_selector(".scene:not([data-ready='false'])")
        if window.evaluate(SIDEWAYS) > 0 or window.evaluate(PAST_THE_RIGHT_EDGE):
            cut[route] = window.evaluate(PAST_THE_RIGHT_EDGE)
    window.goto(f"{live_server.url}/#/play/tutorial/first-steps")
    window.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    share = window.locator(".share-button").bounding_box()
    context.close()
    assert cut == {}, f"cut at the right edge or scrolling sideways: {cut}"
    assert share is not None and share["x"] >= 0 and share["x"] + share["width"] <= PHONE["width"]


def test_a_rule_broken_on_a_phone_does_not_move_the_board(
    phone: Page, live_server: LocalServer
) -> None:
    phone.goto(f"{live_server.url}/#/play/tutorial/break-the-wall")
    phone.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    board = phone.locator(".board")
    before = board.bounding_box()
    rules_before = phone.locator(".ledger-rule").count()
    for key in ("ArrowUp", "ArrowRight", "ArrowUp"):  # the third pushes WALL out of WALL IS STOP
        phone.keyboard.press(key)
        phone.wait_for_function("document.querySelector('.play-scene').dataset.pending === '0'")
    assert phone.locator(".ledger-rule").count() == rules_before - 1
    assert board.bounding_box() == before


def test_every_palette_tool_of_the_editor_is_on_screen_on_a_phone(
    phone: Page, live_server: LocalServer
) -> None:
    phone.goto(f"{live_server.url}/#/edit/clockwork/mouse-keeps-time")
    phone.wait_for_selector(".editor[data-ready='true'] .board > .entity")
    outside = phone.eval_on_selector_all(
        ".editor-palette .tool",
        "tools => tools.filter((tool) => { const box = tool.getBoundingClientRect();"
        " return box.left < 0 || box.right > window.innerWidth; }).map((tool) => tool.dataset.tool)",
    )
    assert outside == []


HIDDEN_INSIDE_A_BOX = """() => {
  // Every rule line, glossary entry, contact card and the hint, with the part a box of theirs hides.
  const lines = [...document.querySelectorAll('.ledger-rule, .glossary-entry, .contact-entry, .hint-panel:not([hidden]) .hint')];
  const cut = [];
  for (const line of lines) {
    const box = line.getBoundingClientRect();
    for (let parent = line.parentElement; parent; parent = parent.parentElement) {
      if (parent === document.body || parent === document.documentElement) break;
      const style = getComputedStyle(parent);
      if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
      const frame = parent.getBoundingClientRect();
      const scrolls = parent.scrollHeight > parent.clientHeight + 1;
      if (scrolls || box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5) {
        cut.push(`${line.className}: ${line.textContent.trim().slice(0, 30)}`);
        break;
      }
    }
  }
  return cut;
}"""
PAD_BOTTOM = "() => document.querySelector('.dpad').getBoundingClientRect().bottom"


def test_every_rule_line_of_every_shipped_level_shows_in_full_on_a_phone_with_the_pad_on_screen(
    phone: Page, live_server: LocalServer
) -> None:
    """No rule, glossary line, contact card or hint sits in a box that scrolls or cuts it; the page may scroll instead."""
    cut = {}
    pad_below_the_screen = {}
    for pack, level in SHIPPED_LEVELS:
        phone.goto(f"{live_server.url}/#/play/{pack}/{level}")
        phone.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
        hidden = phone.evaluate(HIDDEN_INSIDE_A_BOX)
        if hidden:
            cut[f"{pack}/{level}"] = hidden
        pad_bottom = phone.evaluate(PAD_BOTTOM)
        if pad_bottom > PHONE["height"] + 0.5:
            pad_below_the_screen[f"{pack}/{level}"] = pad_bottom
    assert len(SHIPPED_LEVELS) >= 55
    assert phone.locator(".ledger-rule").count() > 0
    assert cut == {}, f"lines hidden inside a scrolling or clipping box: {cut}"
    assert pad_below_the_screen == {}, f"the pad ends below the screen (px): {pad_below_the_screen}"
