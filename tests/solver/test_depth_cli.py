"""``miau check --depth`` and ``miau solve --from-moves``."""

from __future__ import annotations

import json

import pytest

from miau.cli import main
from miau.solver import read_levels
from miau.solver.winnable import first_fatal_move
from tests.solver.builders import PACKS

PROOF = str(PACKS / "clockwork-proof.json")
TUTORIAL = str(PACKS.parent.parent.parent / "packs" / "tutorial.json")


def test_check_depth_prints_one_row_per_level_with_its_tier(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", "--depth", PROOF]) == 0
    out = capsys.readouterr().out.splitlines()
    header = next(line for line in out if line.strip().startswith("level"))
    assert "depth" in header and "tier" in header and "dead ends" in header
    (row,) = [line for line in out if line.strip().startswith("mouse-keeps-time")]
    cells = row.split()
    assert cells[1] == "11"  # the shortest solution's length
    assert row.rstrip().endswith(("walk", "warm-up", "puzzle", "deep", "very deep"))


def test_check_depth_json_holds_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--depth", "--json", PROOF]) == 0
    document = json.loads(capsys.readouterr().out)
    (record,) = document["packs"][0]["levels"]
    assert record["id"] == "mouse-keeps-time" and record["length"] == 11
    for name in ("ruleChanges", "expanded", "shortestSolutions", "deadEnds", "deadSquares"):
        assert name in record
    assert isinstance(record["depth"], float) and 0 <= record["tier"] <= 4


def test_check_without_depth_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", PROOF])
    out = capsys.readouterr().out
    assert "rules at start" in out and "tier" not in out


def test_solve_from_moves_says_winnable_without_showing_a_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--from-moves", "D"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mouse-keeps-time: still winnable (")
    assert "RRRR" not in out


@pytest.mark.slow
def test_solve_from_moves_counts_the_undos_back_after_a_fatal_move(
    capsys: pytest.CaptureFixture[str],
) -> None:
    (spec,) = [s for s in read_levels(TUTORIAL).levels if s.id == "be-the-flag"]
    assert spec.solution is not None
    fatal = first_fatal_move(spec.data, spec.solution)
    assert fatal is not None
    assert main(["solve", TUTORIAL, "--level", "be-the-flag", "--from-moves", fatal + "W"]) == 0
    assert "not winnable any more; winnable again 2 undos back" in capsys.readouterr().out


def test_solve_from_moves_refuses_a_letter_outside_the_log_alphabet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", PROOF, "--from-moves", "DQ"]) == 2
    assert "move 2 is 'Q'" in capsys.readouterr().err


def test_solve_from_moves_needs_one_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", TUTORIAL, "--from-moves", "D"]) == 2
    assert "--level" in capsys.readouterr().err
