"""Dense boards on a 390x844 touch phone: every word readable and reachable, the YOU in view.

Every shipped level is opened by its share link (as a player sent one
would open it) and the rendered word tiles are measured: text of at least
11 CSS px as drawn (a member of a stack is drawn smaller, so its text is
measured after that), the YOU fully in view, and every word either in view
or reachable by panning the board, which a finger drag does on a board
larger than its area (moves then come from the pad).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from miau.packs import load_pack
from miau.packs.share import share_code_for
from tests.support.local import PACKS, LocalServer

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
MIN_TEXT_PX = 11.0

SHARE_CODES = [
    (f"{path.stem}/{level.id}", share_code_for(pack, level.id))
    for path in sorted(PACKS.glob("*.json"))
    for pack in [load_pack(path)]
    for level in pack.levels
]

MEASURE = """() => {
  const area = document.querySelector('.board-area');
  const inView = (element) => {
    const box = element.getBoundingClientRect();
    const frame = area.getBoundingClientRect();
    return box.left >= frame.left - 1 && box.right <= frame.right + 1
      && box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
  };
  const faces = [...document.querySelectorAll('.board > .entity.word-tile:not([data-dying]) > .face')];
  let smallest = Infinity;
  const unreachable = [];
  const start = [area.scrollLeft, area.scrollTop];
  for (const face of faces) {
    // The text as drawn: its font size times the scale its tile is drawn at (a stack's members are smaller).
    const scale = face.getBoundingClientRect().width / face.offsetWidth;
    smallest = Math.min(smallest, parseFloat(getComputedStyle(face).fontSize) * scale);
    if (inView(face)) continue;
    face.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    if (!inView(face)) unreachable.push(face.textContent);
    area.scrollTo(start[0], start[1]);
  }
  const you = document.querySelector('.board > .entity[data-you="true"]');
  return {
    smallest,
    unreachable,
    youInView: !you || inView(you),
    pans: area.dataset.pans === 'true',
    touchAction: getComputedStyle(area).touchAction,
  };
}"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    yield context.new_page()
    context.close()


def open_shared(phone: Page, server: LocalServer, code: str) -> dict[str, Any]:
    phone.goto(f"{server.url}/#/shared/{code}")
    phone.wait_for_selector(".play-scene[data-ready='true'] .board > .entity")
    measured: dict[str, Any] = phone.evaluate(MEASURE)
    return measured


def test_every_shipped_level_shows_its_words_readable_and_reachable_and_its_you_in_view(
    phone: Page, live_server: LocalServer
) -> None:
    small, hidden, you_hidden, stuck = {}, {}, [], []
    panning = 0
    for name, code in SHARE_CODES:
        measured = open_shared(phone, live_server, code)
        if measured["smallest"] < MIN_TEXT_PX:
            small[name] = round(measured["smallest"], 1)
        if measured["unreachable"]:
            hidden[name] = measured["unreachable"]
        if not measured["youInView"]:
            you_hidden.append(name)
        if measured["pans"]:
            panning += 1
            if "pan" not in measured["touchAction"]:
                stuck.append(name)
    assert len(SHARE_CODES) >= 55
    assert small == {}, f"word text under {MIN_TEXT_PX} px as drawn: {small}"
    assert hidden == {}, f"words that cannot be panned to: {hidden}"
    assert you_hidden == [], f"the YOU starts out of view on: {you_hidden}"
    assert stuck == [], f"boards larger than their area that a finger cannot pan: {stuck}"
    assert panning > 0, "no shipped level is dense enough to pan: this test would not see a pan"


def test_a_finger_drag_pans_a_dense_board_and_moves_nothing(
    phone: Page, live_server: LocalServer
) -> None:
    code = dict(SHARE_CODES)["clockwork/stop-the-clock"]
    measured = open_shared(phone, live_server, code)
    assert measured["pans"]
    area = phone.locator(".board-area")
    box = area.bounding_box()
    assert box is not None
    before = phone.evaluate(
        "[document.querySelector('.board-area').scrollLeft, document.querySelector('.board-area').scrollTop]"
    )
    session = phone.context.new_cdp_session(phone)
    x, y = box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.7
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    for step in range(1, 11):
        point = {"x": x - step * 12, "y": y - step * 10}
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    phone.wait_for_timeout(300)

    after = phone.evaluate(
        "[document.querySelector('.board-area').scrollLeft, document.querySelector('.board-area').scrollTop]"
    )
    assert after != before, "the drag did not pan the board"
    assert phone.inner_text("#move-count") == "0"
