"""A board you can reason from: TICK paths, facing marks, and "Can I still win?", in the real page.

Each test that takes ``game_url`` runs on the server and on the static
site (the engine in the page). What the board shows is checked against the
engine itself, played here in Python: a TICK thing's marked path is where
waiting really takes it, not what the page was told.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from miau.engine import Game
from miau.packs import load_pack
from miau.worlds import shipped_pack_path
from tests.browser.game_page import GamePage
from tests.browser.test_editor import PLAY_SETTLED, Editor
from tests.support.local import LocalServer

pytestmark = pytest.mark.browser

LETTERS = {"U": "up", "D": "down", "L": "left", "R": "right", "W": "wait"}
SHOWN_PATHS = """() => {
  const paths = {};
  for (const marker of document.querySelectorAll('.board .tick-step')) {
    const path = (paths[marker.dataset.for] ??= {});
    for (const beat of marker.dataset.beats.split(' ')) {
      path[beat] = [Number(marker.dataset.x), Number(marker.dataset.y)];
    }
  }
  return paths;
}"""


def level_data(pack: str, level: str) -> Any:
    return load_pack(shipped_pack_path(pack)).level(level).data


def waited_paths(data: Any, moves: str, beats: int) -> dict[str, dict[str, list[int]]]:
    """Where each TICK thing of the board after ``moves`` is after each of ``beats`` waits.

    Played on the engine turn by turn; the TICK things are the actors of the
    automata the state lists as active, found from the rule table.
    """
    game = Game(data)
    game.play(moves)
    state = game.state.to_json()
    active = {record["id"] for record in state["automata"] if record["active"]}
    ticking = {
        rule["subject"]
        for rule in state["rules"]
        if any(
            record.property == rule["predicate"]
            for record in game.level.automata
            if record.id in active
        )
    }
    ids = [e["id"] for e in state["entities"] if e.get("noun") in ticking]
    paths: dict[str, dict[str, list[int]]] = {str(ident): {} for ident in ids}
    for beat in range(1, beats + 1):
        if game.won:
            break
        game.wait()
        where = {e["id"]: e for e in game.state.to_json()["entities"]}
        for ident in ids:
            if ident in where:
                paths[str(ident)][str(beat)] = [where[ident]["x"], where[ident]["y"]]
    return paths


def test_a_tick_things_shown_path_is_the_engines_next_beats_for_three_turns(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    game.open_level("clockwork", "stop-the-clock")
    data = level_data("clockwork", "stop-the-clock")
    played = ""
    for move in ["", "R", "R", "D"]:
        if move:
            game.play(move)
            played += move
        shown = page.evaluate(SHOWN_PATHS)
        expected = waited_paths(data, played, 3)
        assert shown == expected, f"after {played!r}"
        assert len(shown) == 1, "the mouse ticks on every turn here"
        assert all(len(path) == 3 for path in shown.values())
    # The beat: the mouse's pattern step, 1-based, of 18.
    after = Game(data)
    after.play(played)
    (clock,) = after.state.to_json()["automata"]
    badge = page.inner_text(".board .entity[data-beat] .beat-badge")
    assert badge == f"{clock['phase'] + 1}/18"


def test_with_reduced_motion_the_paths_marks_and_beats_are_drawn_without_animation(
    page: Page, game_url: str
) -> None:
    page.emulate_media(reduced_motion="reduce")
    game = GamePage(page, game_url)
    game.open_level("clockwork", "double-time")
    game.play("RRUURDD")  # MIAU IS TICK: two TICK things
    shown = page.evaluate(SHOWN_PATHS)
    assert shown == waited_paths(level_data("clockwork", "double-time"), "RRUURDD", 3)
    assert page.locator(".board .beat-badge").count() == 2
    assert page.evaluate("document.getAnimations().length") == 0


def test_a_move_things_facing_is_marked_once_a_rule_moves_it(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    game.open_level("lexicon", "stepping-stone")
    rock = ".board .entity[data-noun='ROCK']"
    assert page.get_attribute(rock, "data-facing-mark") is None
    assert page.locator(".board .facing-mark").count() == 0
    game.play("LLLL")  # ROCK IS MOVE
    assert page.get_attribute(rock, "data-facing-mark") == "down"
    assert page.locator(".board .facing-mark").count() == 1
    assert page.locator(f"{rock} .facing-mark").is_visible()


def test_a_word_under_a_thing_stays_readable(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    game.open_level("clockwork", "stop-the-clock")
    word = page.locator(".board .entity[data-text='TICK'][data-x='9'][data-y='3']")
    bell = page.locator(".board .entity[data-noun='BELL'][data-x='9'][data-y='3']")
    word_box, bell_box = word.bounding_box(), bell.bounding_box()
    assert word_box and bell_box
    # The bell sits small on the word's corner: most of the word is clear of it.
    overlap_w = max(
        0,
        min(word_box["x"] + word_box["width"], bell_box["x"] + bell_box["width"])
        - max(word_box["x"], bell_box["x"]),
    )
    overlap_h = max(
        0,
        min(word_box["y"] + word_box["height"], bell_box["y"] + bell_box["height"])
        - max(word_box["y"], bell_box["y"]),
    )
    assert overlap_w * overlap_h < 0.2 * word_box["width"] * word_box["height"]
    assert bell_box["width"] < 0.6 * word_box["width"]


def ask_winnable(page: Page, *, by_key: bool) -> str:
    panel = page.locator(".winnable-panel")
    if by_key:
        page.keyboard.press("c")
    else:
        page.click(".winnable-button")
    page.wait_for_function(
        "() => !['', 'asking'].includes(document.querySelector('.winnable-panel').dataset.verdict)"
    )
    page.wait_for_function(
        "(line) => document.getElementById('announcer').textContent === line",
        arg=panel.locator(".winnable-answer").inner_text(),
    )
    return panel.locator(".winnable-answer").inner_text()


def test_can_i_still_win_says_how_many_undos_after_a_fatal_move_and_winnable_after_them(
    page: Page, game_url: str
) -> None:
    game = GamePage(page, game_url)
    game.open_level("clockwork", "double-time")
    assert ask_winnable(page, by_key=True) == "Still winnable."
    game.play("RRUURDDRR")  # the fatal move: nothing can win from here
    game.play("WW")  # two turns more: three undos back
    assert ask_winnable(page, by_key=True) == "Not winnable any more: undo 3 moves to get back."
    assert page.get_attribute(".winnable-panel", "data-undos-back") == "3"
    game.press("z")
    assert page.inner_text(".winnable-answer") == "", "an answer about another board is cleared"
    game.press("z")
    game.press("z")
    assert ask_winnable(page, by_key=False) == "Still winnable."
    # The answer never names a move.
    assert not any(
        word in page.inner_text(".winnable-panel") for word in ("up", "down", "left", "right")
    )


def test_the_editors_test_play_asks_can_i_still_win_by_its_button_and_key(
    page: Page, live_server: LocalServer
) -> None:
    editor = Editor(page, live_server.url)
    editor.open("/edit/clockwork/double-time")
    editor.test_play()
    editor.play("RRUURDDRR")
    assert ask_winnable(page, by_key=True) == "Not winnable any more: undo 1 move to get back."
    page.keyboard.press("z")
    page.wait_for_function(PLAY_SETTLED)
    assert ask_winnable(page, by_key=False) == "Still winnable."
    editor.back_to_editing()
    assert page.locator(".winnable-panel").count() == 1  # kept hidden with test-play's view
    page.keyboard.press("c")  # no question is asked while editing
    assert page.inner_text(".winnable-answer") == "Still winnable."
