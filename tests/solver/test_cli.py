from __future__ import annotations

import json
import re
import sys

import pytest

from miau.cli import main
from tests.solver.builders import LEVELS, PACKS

PROOF = str(PACKS / "clockwork-proof.json")
MISTAKES = str(PACKS / "mistakes.json")
TIGHT = str(PACKS / "tight-budget.json")
BROKEN = str(PACKS / "does-not-load.json")


def test_solve_prints_one_line_per_level_with_moves_states_and_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(
        r"mouse-keeps-time: solved in 11 moves \(DRRRRRRRRRR\), [\d,]+ states, \d+\.\d\d s\n", out
    )


def test_solve_reads_a_single_engine_level_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(LEVELS / "mouse-keeps-time.json")]) == 0
    assert "mouse-keeps-time: solved in 11 moves (DRRRRRRRRRR)" in capsys.readouterr().out


def test_solve_with_a_tiny_max_reports_limit_and_still_exits_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--max", "3"]) == 0
    assert "mouse-keeps-time: LIMIT after 3 expanded states" in capsys.readouterr().out


def test_a_levels_solver_max_sets_the_budget_and_max_overrides_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", TIGHT]) == 0
    assert "short-walk: LIMIT after 2 expanded states" in capsys.readouterr().out
    assert main(["solve", TIGHT, "--max", "100"]) == 0
    assert "short-walk: solved in 3 moves (RRR)" in capsys.readouterr().out


def test_solve_exits_one_when_a_level_is_unsolvable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", MISTAKES, "--level", "closed-room"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("closed-room: UNSOLVABLE")
    assert "wrong-solution" not in out


def test_solve_json_reports_outcome_and_ending(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", MISTAKES, "--json", "--max", "1000"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["pack"] == "mistakes"
    by_id = {level["id"]: level for level in document["levels"]}
    assert by_id["wrong-solution"]["moves"] == "RRR"
    assert by_id["closed-room"]["outcome"] == "unsolvable"
    assert by_id["closed-room"]["ending"] == "terminated"
    assert main(["solve", PROOF, "--json", "--max", "2"]) == 0
    (limited,) = json.loads(capsys.readouterr().out)["levels"]
    assert (limited["outcome"], limited["ending"]) == ("limit", "truncated")


def test_solve_in_parallel_gives_the_same_lines_in_level_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", MISTAKES]) == 1
    serial = capsys.readouterr().out
    assert main(["solve", MISTAKES, "--jobs", "2"]) == 1
    parallel = capsys.readouterr().out

    def without_times(text: str) -> str:
        return re.sub(r"\d+\.\d\d s", "T s", text)

    assert without_times(parallel) == without_times(serial)
    assert [line.split(":")[0] for line in serial.splitlines()] == [
        "wrong-solution",
        "closed-room",
        "no-pushing-needed",
    ]


def test_solve_of_an_unknown_level_names_the_levels_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", MISTAKES, "--level", "nope"]) == 2
    assert "wrong-solution, closed-room, no-pushing-needed" in capsys.readouterr().err


def test_solve_of_a_pack_that_does_not_load_lists_its_problems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", BROKEN]) == 2
    assert "manifest.version" in capsys.readouterr().err


def test_check_of_a_good_pack_exits_zero_and_shows_rules_moves_solution_and_solver(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", PROOF]) == 0
    out = capsys.readouterr().out
    # The mouse, not the player, pushes WIN: the level is HANDS-OFF, which is its point.
    assert "mouse-keeps-time (The mouse keeps time): ok, HANDS-OFF\n" in out
    assert "rules at start: MIAU IS YOU; WALL IS STOP; MOUSE IS TICK" in out
    assert "moves from start: D R" in out
    assert "solution: wins in 11 moves (shortest)" in out
    assert "solver: solved in 11 moves (DRRRRRRRRRR)" in out
    assert "HANDS-OFF: won without pushing a word: DRRRRRRRRRR" in out


def test_check_flags_a_failing_solution_an_unsolvable_level_and_hands_off(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", MISTAKES]) == 1
    out = capsys.readouterr().out
    # Each level's block starts on a line indented by exactly two spaces.
    blocks = re.split(r"\n  (?=[a-z])", out)[1:]
    sections = {block.split(" ", 1)[0]: block for block in blocks}
    assert "FAIL" in sections["wrong-solution"]
    assert "solution: FAIL: RR does not win (2 moves accepted)" in sections["wrong-solution"]
    assert "FAIL" in sections["closed-room"]
    assert "solver: UNSOLVABLE" in sections["closed-room"]
    assert "ok, with warnings, HANDS-OFF" in sections["no-pushing-needed"]
    assert "HANDS-OFF: won without pushing a word: RRR" in out
    assert "the stored solution takes 5 moves; the shortest takes 3 (RRR)" in out
    assert out.rstrip().endswith("3 levels: 2 failed, 1 with warnings, 2 HANDS-OFF")


def test_check_treats_limit_as_a_warning_not_a_failure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", PROOF, "--max", "3"]) == 0
    out = capsys.readouterr().out
    assert "solver: LIMIT after 3 expanded states" in out
    assert "warning: the solver gave up after 3 states" in out
    assert "ok, with warnings" in out


def test_check_reports_every_loader_error_and_exits_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", BROKEN, PROOF]) == 1
    out = capsys.readouterr().out
    assert "does-not-load.json: FAIL, the pack does not load" in out
    assert "manifest.version" in out
    assert "levels[0].id" in out
    assert "levels[0].width" in out
    assert "mouse-keeps-time (The mouse keeps time): ok" in out  # the other pack is checked


def test_check_json_has_one_record_per_pack_and_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", MISTAKES, TIGHT, "--json", "--jobs", "2"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["failed"] is True
    mistakes, tight = document["packs"]
    levels = {level["id"]: level for level in mistakes["levels"]}
    assert levels["wrong-solution"]["failed"] is True
    assert levels["wrong-solution"]["solution"]["won"] is False
    assert levels["closed-room"]["solver"]["outcome"] == "unsolvable"
    assert levels["no-pushing-needed"]["handsOff"] is True
    assert levels["no-pushing-needed"]["failed"] is False
    (short_walk,) = tight["levels"]
    assert short_walk["solver"]["outcome"] == "limit"
    assert short_walk["failed"] is False


def test_the_progress_bar_goes_to_a_terminal_stderr_and_leaves_stdout_alone(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["solve", PROOF]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("mouse-keeps-time: solved in 11 moves (DRRRRRRRRRR)")
    assert len(captured.out.splitlines()) == 1


def test_solve_any_labels_its_solution_not_proven_shortest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--any"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mouse-keeps-time: solved in ")
    assert "not proven shortest" in out


def test_solve_fallback_hands_a_limit_to_best_first_search_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--fallback", "--max", "5", "--any-max", "100000"]) == 0
    out = capsys.readouterr().out
    assert "best-first after breadth-first search's LIMIT at 5 states" in out
    assert "not proven shortest" in out


def test_solve_fallback_keeps_breadth_first_answers_shortest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--fallback", "--json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)["levels"]
    assert record["shortest"] is True and record["breadthFirst"] is None
    assert record["moves"] == "DRRRRRRRRRR"


def test_solve_max_memory_ends_in_limit_and_reads_units(
    capsys: pytest.CaptureFixture[str],
) -> None:
    workshop = str(LEVELS / "workshop.json")
    assert main(["solve", workshop, "--max", "1000000000", "--max-memory", "0.3M"]) == 0
    assert "LIMIT after" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["solve", workshop, "--max-memory", "lots"])
