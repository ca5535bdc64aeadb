"""Hints only on request, on the server and on the static site: a level played
without asking shows none; the Hint button or H shows the first (a nudge), a
second request the plainer second, and then there are no more."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from miau.packs import load_pack
from tests.browser.game_page import GamePage
from tests.support.local import PACKS, shipped_solution

pytestmark = pytest.mark.browser

LEVEL = "rock-in-the-way"
HINTS = load_pack(PACKS / "tutorial.json").level(LEVEL).hints


def shown_hints(page: Page) -> list[str]:
    return page.locator(".hint-panel .hint").all_inner_texts()


def test_a_level_played_to_a_win_without_asking_shows_no_hint(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    game.open_level("tutorial", LEVEL)
    expect(page.locator(".hint-button")).to_be_visible()
    assert shown_hints(page) == []

    game.play(shipped_solution("tutorial", LEVEL))
    page.wait_for_selector(".win-overlay")

    assert shown_hints(page) == []
    assert all(hint not in page.inner_text("body") for hint in HINTS)


def test_asking_shows_the_first_hint_then_the_second_then_no_more(
    page: Page, game_url: str
) -> None:
    assert len(HINTS) == 2
    game = GamePage(page, game_url)
    game.open_level("tutorial", LEVEL)
    button = page.locator(".hint-button")
    expect(button).to_contain_text("Show a hint")

    game.press("h")
    expect(page.locator(".hint-panel .hint")).to_have_count(1)
    assert shown_hints(page) == [HINTS[0]]
    expect(button).to_contain_text("Another hint")

    button.click()
    expect(page.locator(".hint-panel .hint")).to_have_count(2)
    assert shown_hints(page) == list(HINTS)
    expect(button).to_be_disabled()
    expect(button).to_contain_text("No more hints")

    game.press("h")
    assert shown_hints(page) == list(HINTS)
    # Asking for a hint is not a move.
    assert game.move_count() == 0


def test_the_keys_help_names_the_hint_key(page: Page, game_url: str) -> None:
    page.goto(f"{game_url}/#/")
    expect(page.locator(".title-keys")).to_contain_text("H hint")


CROWDED_LEVELS = (
    ("clockwork-pairs", "let-the-mouse-in"),
    ("clockwork-pairs", "any-wall-will-do"),
    ("deep-end", "open-and-shut"),
    ("lexicon", "thaw"),
    ("lexicon", "key"),
)
"""The shipped levels whose rules and words fill the side column most at 1280x800."""

HINT_PANEL_IN_VIEW = """() => {
  const side = document.querySelector('.side').getBoundingClientRect();
  const bottom = Math.min(side.bottom, window.innerHeight);
  return [...document.querySelectorAll('.hint-panel .hint, .hint-panel .hint-button')]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.top < side.top - 0.5 || box.bottom > bottom + 0.5;
    })
    .map((element) => element.textContent);
}"""
"""The hints and the Hint button that are not whole inside the side column and the window."""


@pytest.mark.parametrize("size", [(1280, 800), (1366, 768)], ids=["1280x800", "1366x768"])
def test_every_hint_asked_for_is_seen_whole_at_laptop_sizes(
    page: Page, game_url: str, size: tuple[int, int]
) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    game = GamePage(page, game_url)
    cut: dict[str, list[str]] = {}
    for pack, level in CROWDED_LEVELS:
        game.open_level(pack, level)
        button = page.locator(".hint-button")
        while button.is_enabled():
            button.click()
        hidden = page.evaluate(HINT_PANEL_IN_VIEW)
        if hidden:
            cut[f"{pack}/{level}"] = hidden
    assert cut == {}
