"""Boards drawn as text, for the vocabulary-1 fixtures and tests.

A board is a list of rows; a row is cells separated by spaces; a cell is
``.`` (empty) or tokens joined by ``+``. An upper-case token is a word tile
(``BABA``, ``IS``), a lower-case one an object of that noun (``baba``), and
an object may end with its facing: ``>`` right, ``v`` down, ``<`` left,
``^`` up (right when none is given). Ids follow reading order, and within a
cell the order of the tokens.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from miau.engine import Game
from miau.engine.vocabulary import VOCABULARY_1

FACING_MARKS = {">": "right", "v": "down", "<": "left", "^": "up"}
FIXTURES = Path(__file__).parent / "fixtures"


def board_level(rows: list[str], *, feature: bool = True) -> dict[str, Any]:
    """The engine-level dict of a drawn board (with ``vocabulary-1`` unless told not)."""
    cells = [row.split() for row in rows]
    width = max(len(row) for row in cells)
    objects: list[dict[str, Any]] = []
    for y, row in enumerate(cells):
        for x, cell in enumerate(row):
            if cell == ".":
                continue
            for token in cell.split("+"):
                if token.isupper():
                    objects.append({"kind": "word", "text": token, "x": x, "y": y})
                    continue
                facing = "right"
                if token[-1] in FACING_MARKS:
                    token, facing = token[:-1], FACING_MARKS[token[-1]]
                objects.append(
                    {"kind": "object", "noun": token.upper(), "x": x, "y": y, "facing": facing}
                )
    level: dict[str, Any] = {"width": width, "height": len(cells), "objects": objects}
    if feature:
        level["features"] = [VOCABULARY_1]
    return level


def draw(game: Game) -> list[str]:
    """The board now, drawn as rows (objects with their facing mark, ids in order)."""
    state = game.state.to_json()
    width, height = state["width"], state["height"]
    grid: list[list[list[str]]] = [[[] for _ in range(width)] for _ in range(height)]
    marks = {v: k for k, v in FACING_MARKS.items()}
    for entity in state["entities"]:
        if entity["kind"] == "word":
            token = entity["text"]
        else:
            token = entity["noun"].lower() + marks[entity["facing"]]
        grid[entity["y"]][entity["x"]].append(token)
    return [" ".join("+".join(cell) if cell else "." for cell in row).rstrip() for row in grid]


def load_fixture(path: Path) -> dict[str, Any]:
    """One fixture: ``word``, ``about``, ``board``, ``moves`` and ``expect``."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data
