from __future__ import annotations

import json
from pathlib import Path

from miau.cli.check import describe_level
from miau.solver import LevelSpec, Outcome, check_level, read_levels, replay_solution, word_moves
from tests.solver.builders import PACKS, fixture_level, level, sentence, thing, word

# One step left pushes WIN into MIAU IS _ and wins at once; without touching a word
# the cat needs three steps to the flag.
SHORTCUT = level(
    6,
    5,
    sentence("MIAU IS YOU", 0, 0),
    sentence("FLAG IS WIN", 0, 1),
    sentence("MIAU IS", 0, 2),
    word("WIN", 3, 2),
    thing("MIAU", 4, 2),
    thing("FLAG", 5, 4),
)

BOXED = level(
    3,
    5,
    sentence("MIAU IS YOU", 0, 0),
    sentence("WALL IS STOP", 0, 1),
    [thing("WALL", x, 2) for x in range(3)],
    [thing("WALL", 0, 3), thing("WALL", 2, 3), thing("WALL", 0, 4), thing("WALL", 2, 4)],
    thing("WALL", 1, 4),
    thing("MIAU", 1, 3),
)


def test_hands_off_is_searched_on_its_own_when_the_shortest_win_pushes_a_word() -> None:
    report = check_level(LevelSpec("shortcut", "Shortcut", SHORTCUT))
    assert report.solver is not None and report.solver.moves == "L"
    assert word_moves(SHORTCUT, "L")
    assert report.is_hands_off
    assert report.hands_off is not None and report.hands_off.moves == "DDR"


def test_a_level_whose_only_win_pushes_a_word_is_not_hands_off() -> None:
    # The flag is walled in: the only win is pushing WIN into MIAU IS _.
    walled = level(
        6,
        5,
        sentence("MIAU IS YOU", 0, 0),
        sentence("WALL IS STOP", 0, 1),
        sentence("MIAU IS", 0, 2),
        word("WIN", 3, 2),
        thing("MIAU", 4, 2),
        thing("MIAU", 5, 4),
        [thing("WALL", 4, 3), thing("WALL", 5, 3), thing("WALL", 4, 4)],
    )
    report = check_level(LevelSpec("walled", "Walled", walled))
    assert report.solver is not None and report.solver.moves == "L"
    assert not report.is_hands_off
    assert not report.failed


def test_a_word_only_an_automaton_moves_leaves_the_level_hands_off() -> None:
    # In mouse-keeps-time the mouse, not the player, pushes WIN into BELL IS _.
    report = check_level(LevelSpec("mouse", "Mouse", fixture_level("mouse-keeps-time")))
    assert report.solver is not None and report.solver.moves == "DRRRRRRRRRR"
    assert not word_moves(fixture_level("mouse-keeps-time"), "DRRRRRRRRRR")
    assert report.is_hands_off
    assert not report.failed


def test_a_cat_that_cannot_move_is_warned_about_and_the_level_fails_as_unsolvable() -> None:
    report = check_level(LevelSpec("boxed", "Boxed", BOXED))
    assert report.start_moves == ""
    assert any("no YOU can move" in warning for warning in report.warnings)
    assert report.solver is not None and report.solver.outcome is Outcome.UNSOLVABLE
    assert report.hands_off is None  # nothing to search: no win exists at all
    assert report.failed


def test_a_level_the_engine_cannot_run_is_an_error() -> None:
    report = check_level(LevelSpec("bad", "Bad", {"width": 0, "height": 3, "objects": []}))
    assert report.failed
    assert report.errors and "width" in report.errors[0]
    assert report.solver is None


def test_a_solution_with_a_letter_that_is_not_a_move_fails() -> None:
    check = replay_solution(SHORTCUT, "LX")
    assert not check.won
    assert check.error is not None and "'X'" in check.error
    report = check_level(LevelSpec("s", "S", SHORTCUT, solution="LX"))
    assert report.failed


def test_a_replayed_solution_counts_accepted_turns_and_refused_letters() -> None:
    # R, then R into the edge (refused), then L and L (the push that wins), then D
    # after the win (refused).
    check = replay_solution(SHORTCUT, "RRLLD")
    assert check.won
    assert (check.turns, check.rejected) == (3, 2)


def test_check_reads_loader_warnings_into_the_level_they_concern(tmp_path: Path) -> None:
    document = json.loads((PACKS / "clockwork-proof.json").read_text(encoding="utf-8"))
    del document["manifest"]["features"]  # automata without the feature flag: a warning
    path = tmp_path / "no-features.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    (spec,) = read_levels(path).levels
    assert any("features" in warning for warning in spec.warnings)
    report = check_level(spec)
    assert any("features" in warning for warning in report.warnings)
    assert not report.failed


def test_the_printed_report_says_once_that_no_you_can_move() -> None:
    lines = describe_level(check_level(LevelSpec("boxed", "Boxed", BOXED)))
    said = [line for line in lines if "YOU can" in line or "YOU cannot" in line]
    assert said == ["    warning: no YOU can move from the start (U, D, L and R are all refused)"]
    assert "    moves from start: none" in lines


def test_the_rules_at_start_and_the_replayed_rule_changes_say_has_and_not_as_written() -> None:
    from miau.cli.render import describe_event, describe_rules
    from miau.engine import Game
    from miau.packs import load_pack
    from miau.worlds import shipped_pack_path

    heirloom = next(
        each for each in load_pack(shipped_pack_path("deep-end")).levels if each.id == "heirloom"
    )
    report = check_level(LevelSpec(heirloom.id, heirloom.title, heirloom.data))
    assert "ROCK HAS WATER" in report.rules
    assert "ROCK IS WATER" not in report.rules
    game = Game(heirloom.data)
    game.play("RR")
    (push,) = game.play("D")  # FLAG into ROCK HAS WATER's place, WATER onto IS SINK
    changes = describe_event(push)
    assert "  + ROCK HAS FLAG" in changes and "  - ROCK HAS WATER" in changes
    assert "  + WATER IS SINK" in changes
    assert "  ROCK HAS FLAG" in describe_rules(game.state).splitlines()


# A room with no WIN anywhere: it can never be won, and its open floor lets the cat
# wander through more states than a small cap allows, so a capped search gives up.
OPEN_FLOOR_NO_WIN = level(
    9,
    9,
    sentence("MIAU IS YOU", 0, 0),
    sentence("ROCK IS PUSH", 0, 1),
    thing("MIAU", 4, 4),
    [thing("ROCK", x, 6) for x in (2, 4, 6)],
)


def test_a_check_that_hits_its_cap_is_undecided_never_passed() -> None:
    report = check_level(LevelSpec("open", "Open", OPEN_FLOOR_NO_WIN), max_expansions=50)
    assert report.solver is not None and report.solver.outcome is Outcome.LIMIT
    assert not report.failed, "a LIMIT is no failure"
    assert report.verdict == "undecided"
    assert report.to_json()["verdict"] == "undecided"


def test_a_check_verdict_is_passed_only_when_everything_was_answered_and_holds() -> None:
    spec = LevelSpec("shortcut", "Shortcut", SHORTCUT, solution="L")
    assert check_level(spec).verdict == "passed"
    # No stored solution is no problem: the solver found a win.
    assert check_level(LevelSpec("shortcut", "Shortcut", SHORTCUT)).verdict == "passed"


def test_a_stale_solution_an_unsolvable_level_or_a_stuck_cat_are_problems() -> None:
    stale = LevelSpec("shortcut", "Shortcut", SHORTCUT, solution="UUUU")
    assert check_level(stale).verdict == "problems"
    assert check_level(LevelSpec("boxed", "Boxed", BOXED)).verdict == "problems"
    no_rules = level(3, 1, thing("MIAU", 0, 0))
    assert check_level(LevelSpec("bare", "Bare", no_rules)).verdict == "problems"
