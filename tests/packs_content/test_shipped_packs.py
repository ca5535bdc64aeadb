"""Every shipped pack, whatever its content: it loads cleanly, round-trips, and passes ``miau check``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from miau.cli import main
from miau.engine import Game
from miau.packs import load_pack

PACK_FILES = sorted((Path(__file__).resolve().parents[2] / "packs").glob("*.json"))
LEVELS = [
    pytest.param(path, level["id"], id=f"{path.stem}/{level['id']}")
    for path in PACK_FILES
    for level in json.loads(path.read_text(encoding="utf-8"))["levels"]
]


@pytest.mark.parametrize("path", PACK_FILES, ids=[p.stem for p in PACK_FILES])
def test_a_shipped_pack_loads_without_warnings(path: Path) -> None:
    assert load_pack(path).warnings == ()


@pytest.mark.parametrize(("path", "level_id"), LEVELS)
def test_a_shipped_solution_still_wins_after_a_round_trip_through_json(
    path: Path, level_id: str
) -> None:
    again = load_pack(json.loads(json.dumps(load_pack(path).to_json())))
    level = again.level(level_id)
    assert level.solution
    game = Game(level.data)
    events = game.play(level.solution)
    assert all(event.accepted for event in events)
    assert game.won
    assert not any(event.won for event in events[:-1])


@pytest.mark.slow
def test_miau_check_passes_over_every_shipped_pack(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", *map(str, PACK_FILES)])
    report = capsys.readouterr().out
    assert status == 0, report
    assert "0 failed" in report
    # Every stored solution is a shortest one: miau.gym gives its length as the level's
    # proved shortest (LevelEntry.shortest) without running the solver.
    assert "(the shortest takes" not in report, report


KEY_WORDING = re.compile(r"\b(?i:press|click|tap)\b|\b(Z|R|H|Space|Esc|Backspace)\b")
"""A hint that names a key or a gesture: "undo" is right on a phone and a keyboard, "press Z" is not."""


@pytest.mark.parametrize(("path", "level_id"), LEVELS)
def test_a_shipped_hint_names_no_key_nor_gesture(path: Path, level_id: str) -> None:
    for hint in load_pack(path).level(level_id).hints:
        assert not KEY_WORDING.search(hint), hint


def test_no_two_shipped_levels_share_an_id() -> None:
    """A level id names one level across every shipped world (the solver's tools look levels up by it)."""
    seen: dict[str, str] = {}
    for path in PACK_FILES:
        for level in load_pack(path).levels:
            assert level.id not in seen, f"{level.id} is in both {seen[level.id]} and {path.name}"
            seen[level.id] = path.name
