from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from miau.engine import Game
from miau.packs import load_pack
from tests.browser.game_page import KEY_FOR_MOVE, GamePage
from tests.support.local import LocalServer, shipped_solution

PACKS = Path(__file__).resolve().parents[2] / "packs"
DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right"}

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("pack", "level"), [("tutorial", "first-steps"), ("clockwork", "mouse-keeps-time")]
)
def test_the_stored_solution_played_with_real_keys_reaches_the_win_scene(
    page: Page, game_url: str, pack: str, level: str
) -> None:
    game = GamePage(page, game_url)
    game.open_level(pack, level)
    moves = shipped_solution(pack, level)

    game.play(moves)

    page.wait_for_selector(".win-overlay")
    assert page.inner_text(".win-overlay [data-stat='moves']") == str(len(moves))
    assert page.inner_text(".win-overlay [data-stat='best']") == str(len(moves))
    assert page.evaluate("document.activeElement.closest('.win-overlay') !== null")


def test_enter_on_the_win_scene_opens_the_next_level(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    game.win_shipped_level("tutorial", "first-steps")

    page.keyboard.press("Enter")

    page.wait_for_url("**/#/play/tutorial/walls")
    expect(page.locator(".play-title")).to_have_text("Walls and Rocks")
    game.wait_ready()
    assert game.move_count() == 0


def test_undo_and_restart_restore_the_board(page: Page, game_url: str) -> None:
    game = GamePage(page, game_url)
    game.open_level("tutorial", "walls")
    start = game.positions()
    game.play("R")
    after_one = game.positions()
    game.play("R")
    assert game.positions() != after_one

    game.press("z")
    assert game.positions() == after_one
    assert game.move_count() == 1
    game.press("Backspace")
    assert game.positions() == start
    assert game.move_count() == 0

    game.play("RRDD")
    assert game.move_count() == 4
    game.press("r")
    assert game.positions() == start
    assert game.move_count() == 0


def test_the_loss_banner_appears_when_the_last_you_is_destroyed_and_undo_clears_it(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("proofs", "proof-05")
    banner = page.locator(".loss-banner")
    assert banner.is_hidden()

    game.play("RR")

    banner.wait_for(state="visible")
    assert "Nothing is YOU" in banner.inner_text()
    assert page.locator(".board > .entity[data-noun='MIAU']:not([data-dying])").count() == 0
    page.wait_for_function(
        "document.getElementById('announcer').textContent.includes('Nothing is YOU')"
    )

    game.press("z")

    banner.wait_for(state="hidden")
    assert game.move_count() == 1
    assert page.locator(".board > .entity[data-noun='MIAU']").count() == 1


def test_hovering_a_ledger_line_highlights_its_source_words_on_the_board(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "walls")
    line = page.locator(".ledger-rule", has_text="WALL").first
    source_ids = sorted(int(i) for i in (line.get_attribute("data-source-ids") or "").split())
    assert len(source_ids) == 3

    line.hover()

    highlighted = page.eval_on_selector_all(
        ".board > .entity[data-highlight='true']", "els => els.map(e => Number(e.dataset.id))"
    )
    assert sorted(highlighted) == source_ids
    texts = page.eval_on_selector_all(
        ".board > .entity[data-highlight='true']", "els => els.map(e => e.dataset.text)"
    )
    assert sorted(texts) == ["IS", "STOP", "WALL"]

    page.mouse.move(5, 790)
    page.wait_for_function("!document.querySelector(\".board > .entity[data-highlight='true']\")")

    line.focus()
    assert page.locator(".board > .entity[data-highlight='true']").count() == 3


def test_with_reduced_motion_a_turn_is_drawn_settled_at_once(
    page: Page, live_server: LocalServer
) -> None:
    page.emulate_media(reduced_motion="reduce")
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")
    cat = ".board > .entity[data-noun='MIAU']"
    start_x = int(page.get_attribute(cat, "data-x") or "0")

    game.press("ArrowRight")

    running = page.evaluate(
        "document.querySelector('.board').getAnimations({subtree: true}).length"
    )
    assert running == 0
    assert int(page.get_attribute(cat, "data-x") or "0") == start_x + 1


def test_a_key_pressed_during_an_animation_finishes_it_and_plays_the_next_turn(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")
    cat = ".board > .entity[data-noun='MIAU']"
    start_x = int(page.get_attribute(cat, "data-x") or "0")

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    game.settle()

    assert game.move_count() == 3
    assert int(page.get_attribute(cat, "data-x") or "0") == start_x + 3


def test_escape_leaves_the_level_for_the_level_select(page: Page, live_server: LocalServer) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")

    page.keyboard.press("Escape")

    page.wait_for_selector(".level-card[data-level='first-steps']")
    assert page.url.endswith("#/world/tutorial")


def test_a_declared_word_is_a_property_tile_with_its_glossary_accent_and_sentence(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("clockwork", "mouse-keeps-time")

    tick = page.locator(".board > .entity[data-text='TICK']")
    assert tick.get_attribute("data-class") == "property"
    assert tick.get_attribute("data-accent") == "tick"  # the Clockwork glossary's accent for TICK
    assert page.locator(".board > .entity[data-text='MOUSE']").get_attribute("data-class") == "noun"
    card = page.locator(".glossary-entry[data-word='TICK']")
    expect(card).to_contain_text("Repeats its steps")
    expect(page.locator(".ledger-rule", has_text="TICK")).to_contain_text("Repeats its steps")


def test_the_cat_glyph_mirrors_to_face_the_way_it_last_moved(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "first-steps")
    glyph = ".board > .entity[data-noun='MIAU'] .glyph"
    # The palette draws the cat facing left; every entity starts facing right.
    assert page.get_attribute(glyph, "data-mirror") == "true"

    game.play("R")
    game.press("ArrowLeft")
    assert page.get_attribute(glyph, "data-mirror") == "false"
    game.press("ArrowUp")
    assert game.move_count() == 3
    assert page.get_attribute(".board > .entity[data-noun='MIAU']", "data-facing") == "up"
    assert page.get_attribute(glyph, "data-mirror") == "false", "up keeps the last horizontal look"


def test_a_vocabulary_1_level_draws_its_grammar_and_properties_and_plays_to_a_win(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("lexicon", "not-stop")

    not_tile = page.locator(".board > .entity[data-text='NOT']").first
    assert not_tile.get_attribute("data-class") == "operator"
    game.play(shipped_solution("lexicon", "not-stop"))
    page.wait_for_selector(".win-overlay")

    page.goto(f"{live_server.url}/#/play/lexicon/walk-out")
    game.wait_ready()
    move = page.locator(".board > .entity[data-text='MOVE']").first
    assert move.get_attribute("data-class") == "property"
    assert (
        move.get_attribute("data-accent") == "move"
    )  # the built-in glossary's accent for MOVE: its own colour
    expect(page.locator(".glossary-entry[data-word='MOVE']")).to_contain_text("Steps once")


def _direction(entry: dict[str, Any]) -> str:
    dx = entry["to"][0] - entry["from"][0]
    dy = entry["to"][1] - entry["from"][1]
    if abs(dx) >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def test_the_live_region_says_one_clear_line_for_every_move_of_mouse_keeps_time(
    page: Page, live_server: LocalServer
) -> None:
    """Each move's line is read after its reply and checked against the engine's own event."""
    pack, level_id = "clockwork", "mouse-keeps-time"
    moves = shipped_solution(pack, level_id)
    level = next(
        entry for entry in load_pack(PACKS / f"{pack}.json").levels if entry.id == level_id
    )
    engine = Game(dict(level.data))
    game = GamePage(page, live_server.url)
    game.open_level(pack, level_id)

    lines: list[str] = []
    for number, move in enumerate(moves, start=1):
        nouns = {
            entity["id"]: entity.get("noun") or entity.get("text")
            for entity in engine.state.to_json()["entities"]
        }
        event = (engine.wait() if move == "W" else engine.step(DIRECTIONS[move])).to_json()
        game.press(KEY_FOR_MOVE[move])
        page.wait_for_function(
            "prefix => document.getElementById('announcer').textContent.startsWith(prefix)",
            arg=f"Move {number}: ",
        )
        line = page.inner_text("#announcer")
        lines.append(line)
        for entry in event["moved"]:
            if entry["pushedBy"] is None and entry["from"] != entry["to"]:
                # "MIAU moved right" or "MIAU and MOUSE moved right".
                said = rf"\b{nouns[entry['id']]}\b[^,.]* moved {_direction(entry)}"
                assert re.search(said, line), line
        for rule in event["rulesAdded"]:
            assert f"Rule formed: {rule['subject']} is {rule['predicate']}." in line, line
        sentences = [sentence for sentence in line.split(". ") if sentence]
        assert len(sentences) == len(set(sentences)), f"a sentence repeats: {line}"
    assert lines[-1].endswith(f"Solved in {len(moves)} moves."), lines[-1]
    assert len(lines) == len(moves)
    assert lines[0] == "Move 1: MIAU moved down, MOUSE moved left."


def test_the_loss_banner_and_the_reconnecting_badge_move_nothing(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("proofs", "proof-05")
    board = page.locator(".board")
    actions = page.locator(".topbar .play-actions")
    board_before = board.bounding_box()
    actions_before = actions.bounding_box()

    game.play("RR")
    page.locator(".loss-banner").wait_for(state="visible")
    assert board.bounding_box() == board_before

    page.evaluate("document.querySelector('.connection').hidden = false")
    assert page.locator(".connection").is_visible()
    assert actions.bounding_box() == actions_before


def test_restarting_a_game_resumed_after_a_reload_asks_first_and_cancel_keeps_it(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "walls")
    game.play("RR")
    played = game.positions()
    page.reload()
    game.wait_ready()

    # The moves before the reload cannot be replayed by undo: the player is asked.
    page.keyboard.press("r")
    dialog = page.locator(".confirm-dialog")
    expect(dialog).to_contain_text("Restart this level?")
    expect(dialog).to_contain_text("the 2 moves made before this page was reloaded")
    dialog.locator("[data-answer='cancel']").click()
    expect(dialog).to_have_count(0)
    assert game.move_count() == 2
    assert game.positions() == played

    page.keyboard.press("r")
    page.locator(".confirm-dialog [data-answer='confirm']").click()
    game.settle()
    assert game.move_count() == 0

    # A restart in the same visit is undoable, so it asks nothing.
    game.play("R")
    game.press("r")
    expect(page.locator(".confirm-dialog")).to_have_count(0)
    assert game.move_count() == 0


def test_restart_is_undone_by_one_undo_and_the_moves_before_it_undo_as_usual(
    page: Page, live_server: LocalServer
) -> None:
    game = GamePage(page, live_server.url)
    game.open_level("tutorial", "walls")
    game.play("RRD")
    played = game.positions()
    game.press("r")
    assert game.move_count() == 0

    game.press("z")
    assert game.move_count() == 3
    assert game.positions() == played
    page.wait_for_function(
        "document.getElementById('announcer').textContent.startsWith('Restart undone')"
    )
    game.press("z")
    assert game.move_count() == 2
