"""Keke's level 101: where Keke's BFS agent finds 9 moves and Miau's solver 13, the rules differ.

Keke's turn moves the YOU things one after another (row by row) and a YOU
thing neither pushes nor enters another one, so a YOU thing standing right
behind another is blocked. Miau moves every YOU thing in the same step (the
engine contract: a YOU thing walks onto anything neither STOP nor PUSH). The
level converts exactly (the map is Keke's without its border); the two
engines answer different puzzles on it, and Miau's rules are the ones kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from miau.engine import Game, replay
from miau.solver import Outcome, read_levels, solve

SAMPLE = Path(__file__).resolve().parent.parent / "keke" / "sample.miau.json"
KEKE_AGENT_MOVES = "RRRURULLL"
"""What the competition's ``bfs_AGENT.js`` answers on level 101 (``rrrurulll``)."""


def keke_101() -> dict[str, Any]:
    """The converted level, as ``miau import keke`` makes it."""
    (spec,) = [spec for spec in read_levels(SAMPLE).levels if spec.id == "keke-101"]
    return dict(spec.data)


def flag_cells(game: Game) -> list[tuple[int, int]]:
    """Where the FLAG things stand, sorted."""
    now = game.state.now
    width = keke_101()["width"]
    return sorted(
        (cell % width, cell // width)
        for cell, noun, kind in zip(now.positions, now.nouns, now.kinds, strict=True)
        if cell >= 0 and noun == "FLAG" and not kind
    )


def test_the_first_move_right_moves_every_flag_where_keke_leaves_the_two_hindmost() -> None:
    game = Game(keke_101())
    before = flag_cells(game)
    game.play("R")
    # Keke after its first r: flags at (0,5) and (1,5) stay, blocked by the flag ahead.
    assert flag_cells(game) == [(x + 1, y) for x, y in before]


def test_keke_agents_nine_moves_do_not_win_and_miaus_shortest_is_thirteen() -> None:
    data = keke_101()
    assert not replay(data, KEKE_AGENT_MOVES).won
    result = solve(data)
    assert result.outcome is Outcome.SOLVED and result.length == 13
