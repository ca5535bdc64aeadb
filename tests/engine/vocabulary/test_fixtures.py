"""One fixture level per word and per ordering decision (``fixtures/*.json``), replayed.

Each fixture draws its board, the moves, and what must hold afterwards: which
moves were accepted, the board drawn again, won and control, every
destruction with its cause, every HAS spawn and every thing EMPTY IS X made
(``created``, when the fixture lists it; none otherwise). Undo of the whole replay
must bring back the start exactly.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from miau.engine import Game
from miau.engine.game import parse_moves
from tests.engine.vocabulary.grid import FIXTURES, board_level, draw, load_fixture

PATHS = sorted(FIXTURES.glob("*.json"))
WORDS_WITH_A_FIXTURE = {
    "NOT", "TEXT", "ALL", "LONELY", "ON", "NEAR", "FACING", "AND", "HAS",
    "MOVE", "PULL", "SHIFT", "FLOAT", "HOT", "OPEN", "WEAK",
    "IS TEXT", "HAS TEXT", "TEXT IS", "TEXT HAS", "EMPTY IS", "IS EMPTY", "EMPTY NEAR",
}  # fmt: skip


def test_every_word_has_a_fixture() -> None:
    words = {load_fixture(path)["word"] for path in PATHS}
    assert words >= WORDS_WITH_A_FIXTURE


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_fixture_replays(path: Path) -> None:
    fixture = load_fixture(path)
    expect = fixture["expect"]
    game = Game(board_level(fixture["board"]))
    start = game.state.to_json()
    accepted, destroyed, spawned, created = "", [], [], []
    for index, intent in enumerate(parse_moves(fixture["moves"])):
        event = game.step(intent).to_json()
        accepted += "y" if event["accepted"] else "n"
        destroyed += [[d.get("noun") or d.get("text"), d["cause"]] for d in event["destroyed"]]
        spawned += [s.get("noun") or s.get("text") for s in event["spawned"]]
        created += [c["noun"] for c in event["created"]]
        assert accepted[index] == expect["accepted"][index], f"move {index + 1} of {path.stem}"
    assert draw(game) == expect["after"], fixture["about"]
    assert game.state.won is expect["won"]
    assert game.state.control_lost is expect["controlLost"]
    assert destroyed == expect["destroyed"]
    assert spawned == expect["spawned"]
    assert created == expect.get("created", [])
    while game.can_undo:
        game.undo()
    assert game.state.to_json() == start
