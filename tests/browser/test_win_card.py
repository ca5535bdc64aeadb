"""The win card measures the player's moves against the shortest known length, on both hosts.

The shortest comes from the API's level (``shortest``: the stored solution's
length, or the solver's within a small budget for a level without one); the
card says plainly when the player matched it, by how much they were over,
and then offers to play again for it. The level list shows the best.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from miau.packs import load_pack
from miau.packs.share import encode_share_code, single_level_pack
from tests.browser.game_page import GamePage
from tests.support.local import PACKS, shipped_solution

pytestmark = pytest.mark.browser

CARD = ".win-overlay"
REPLAY = ".win-overlay [data-action='replay']"


def stat(page: Page, name: str) -> str:
    return page.inner_text(f"{CARD} [data-stat='{name}']")


def test_over_the_shortest_the_card_says_by_how_much_and_play_again_goes_for_it(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    solution = shipped_solution("tutorial", "first-steps")
    game.open_level("tutorial", "first-steps")

    game.play("UD" + solution)

    page.wait_for_selector(CARD)
    assert stat(page, "moves") == str(len(solution) + 2)
    assert stat(page, "shortest") == str(len(solution))
    expect(page.locator(".win-shortest")).to_have_text(
        f"2 moves over the shortest known solution ({len(solution)} moves)."
    )
    expect(page.locator(REPLAY)).to_contain_text("Play again for the shortest")

    page.click(REPLAY)
    page.wait_for_selector(CARD, state="detached")
    game.wait_ready()
    assert game.move_count() == 0
    game.play(solution)

    page.wait_for_selector(CARD)
    assert stat(page, "moves") == stat(page, "shortest") == stat(page, "best") == str(len(solution))
    expect(page.locator(".win-shortest")).to_have_text(
        f"You matched the shortest known solution: {len(solution)} moves."
    )
    assert page.get_attribute(".win-shortest", "data-matched") == "true"
    expect(page.locator(f"{REPLAY} .label")).to_have_text("Play again")

    # The world's level list shows the best.
    page.keyboard.press("Escape")
    page.wait_for_url("**/#/world/tutorial")
    expect(page.locator(".level-card[data-level='first-steps']")).to_contain_text(
        f"best {len(solution)} moves"
    )


def link_without_solution(pack: str, level: str) -> str:
    document = single_level_pack(load_pack(PACKS / f"{pack}.json"), level)
    del document["levels"][0]["solution"]
    return encode_share_code(document)


@pytest.mark.parametrize(
    ("level", "solver_finds"), [("walls", True), ("crossword", False)], ids=["cheap", "too-large"]
)
def test_a_shared_level_without_a_solution_gets_the_solvers_shortest_only_when_it_is_cheap(
    page: Page, game_url: str, level: str, solver_finds: bool
) -> None:
    solution = shipped_solution("tutorial", level)
    page.goto(f"{game_url}/#/shared/{link_without_solution('tutorial', level)}")
    game = GamePage(page, game_url)
    game.wait_ready()

    game.play(solution)

    page.wait_for_selector(CARD)
    assert stat(page, "moves") == str(len(solution))
    if solver_finds:
        assert stat(page, "shortest") == str(len(solution))
        assert page.get_attribute(".win-shortest", "data-matched") == "true"
    else:
        # Nothing is said of a shortest nobody knows.
        assert page.locator(f"{CARD} [data-stat='shortest'], .win-shortest").count() == 0
        expect(page.locator(f"{REPLAY} .label")).to_have_text("Play again")
