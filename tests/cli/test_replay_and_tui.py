"""``miau replay`` and ``miau tui``: what an author and a terminal player see."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from miau.cli import main

ROOT = Path(__file__).resolve().parents[2]
LEVEL_FILE = ROOT / "tests" / "solver" / "levels" / "mouse-keeps-time.json"
PROOFS = ROOT / "packs" / "proofs.json"


def test_replay_of_a_level_file_prints_each_board_the_rules_and_the_win(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(LEVEL_FILE), "--moves", "DRRRRRRRRRR"]) == 0
    out = capsys.readouterr().out
    assert out.count("move ") == 11
    assert "move 5: right\n  + BELL IS WIN" in out
    assert "BEL IS  WIN" in out
    assert out.rstrip().endswith("WON after 11 moves")


def test_replay_json_prints_one_event_per_move_then_the_final_state(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(LEVEL_FILE), "--moves", "dr", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line.get("kind") for line in lines[:2]] == ["step", "step"]
    assert lines[2]["moveCount"] == 2
    assert lines[2]["won"] is False


def test_replay_of_a_pack_level_calls_out_destructions_and_rule_changes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pack = json.loads(PROOFS.read_text(encoding="utf-8"))
    level = next(lv for lv in pack["levels"] if lv["id"] == "proof-04")
    assert main(["replay", str(PROOFS), "--level", "proof-04", "--moves", level["solution"]]) == 0
    out = capsys.readouterr().out
    assert "  - ROCK IS STOP" in out
    assert "destroyed by sink" in out
    assert out.rstrip().endswith(f"WON after {len(level['solution'])} moves")


def test_replay_calls_out_the_things_empty_makes_and_the_things_it_removes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lexicon = ROOT / "packs" / "lexicon.json"
    pack = json.loads(lexicon.read_text(encoding="utf-8"))
    for level_id, expected in (
        ("out-of-nothing", "FLAG made at (3, 0) by EMPTY"),
        ("clean-sweep", "WALL at (5, 0) destroyed by empty"),
    ):
        level = next(lv for lv in pack["levels"] if lv["id"] == level_id)
        assert (
            main(["replay", str(lexicon), "--level", level_id, "--moves", level["solution"]]) == 0
        )
        assert expected in capsys.readouterr().out, level_id


def test_replay_reports_a_bad_move_string_or_level_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["replay", str(LEVEL_FILE), "--moves", "DRX"]) == 2
    assert "move 3 of 'DRX' is 'X'" in capsys.readouterr().err
    assert main(["replay", str(PROOFS), "--moves", "R"]) == 2
    assert "choose a level with --level" in capsys.readouterr().err
    assert main(["replay", str(PROOFS), "--level", "nope", "--moves", "R"]) == 2
    assert "nope" in capsys.readouterr().err


def test_tui_reads_scripted_moves_and_goes_on_to_the_next_level(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pack = json.loads(PROOFS.read_text(encoding="utf-8"))
    first, second = pack["levels"][0], pack["levels"][1]
    script = f"{first['solution']}\nN\nL Z X {second['solution']}\nQ\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["tui", str(PROOFS)]) == 0
    out = capsys.readouterr().out
    assert out.count("*** You win!") == 2
    assert f"== {second['title']} ==" in out
