"""The rest of a turn after the player's move, for the core turn, with a cheaper contact pass.

The engine's contact pass walks every cell that holds a DEFEAT thing and
asks each occupant whether it is YOU. On a level strewn with DEFEAT (a
Keke level with a hundred and fifty skulls) that walk is most of a turn,
though only the few YOU things can ever be destroyed by it. ``settle``
runs the engine's own steps (``miau.engine.turn``) in the engine's order
and replaces only SINK, DEFEAT and the win check, each walked from the
side that is short: the cells where two things meet a SINK, the YOU things
that stand with a DEFEAT, the cells of the WIN things. The board ends in the same state (cells and noun lists are
kept sorted, so the order of destruction leaves no trace);
``tests/solver/test_turns.py`` compares it with ``settle_turn`` after
every move of generated games.

The engine is the authority: levels with Clockwork pairs or the
``vocabulary-1`` feature take ``settle_turn`` itself.
"""

from __future__ import annotations

from miau.engine.board import Board
from miau.engine.level import Level
from miau.engine.turn import apply_transformations, run_automata
from miau.engine.vocabulary import DEFEAT, SINK, WIN, YOU

_FEW = 4
"""DEFEAT things per YOU thing up to which ``_defeat`` walks from the DEFEAT side."""


def settles_here(level: Level) -> bool:
    """Whether ``settle`` may stand in for the engine's ``settle_turn`` on ``level``."""
    return not level.vocabulary and not level.pairs


def settle(board: Board) -> None:
    """Steps 4 to 10 of a core turn, as ``settle_turn(board, None)`` runs them."""
    board.refresh_rules()
    if board.rules.noun_rules or board.level.automata:
        # Without automata and without a rule ``X IS NOUN`` steps 4 to 6 change
        # nothing, and most turns of a search are such turns.
        transformed: set[int] = set()
        apply_transformations(board, transformed, None)
        run_automata(board, None)
        board.refresh_rules()
        apply_transformations(board, transformed, None)
    holders = board.rules.holders
    if SINK in holders:
        _sink(board)
    if DEFEAT in holders and YOU in holders:
        _defeat(board)
    board.refresh_rules()
    # Step 10 as ``has_control`` decides it: nobody holds YOU unless a rule gives it.
    yous = board.holders(YOU) if YOU in board.rules.givable else []
    board.won = _won(board, yous)
    board.control_lost = not yous
    board.move_count += 1


def _sink(board: Board) -> None:
    """A cell holding a SINK thing and anything else loses every occupant."""
    for cell in sorted(sinking_cells(board)):
        for ident in list(board.cells[cell]):
            board.destroy(ident)


def sinking_cells(board: Board) -> set[int]:
    """The cells where a SINK thing stands with anything else: the next contact pass empties them."""
    if SINK not in board.rules.holders:
        return set()
    cells, pos = board.cells, board.pos
    return {pos[i] for i in board.holders(SINK) if len(cells[pos[i]]) >= 2}


def _defeat(board: Board) -> None:
    """Every YOU thing standing with a DEFEAT thing (itself included) is destroyed."""
    for ident in defeated(board):
        board.destroy(ident)


def defeated(board: Board) -> list[int]:
    """The YOU things standing with a DEFEAT thing (itself included): the next contact pass's.

    Walked from the short side: the cells of the DEFEAT things when they are
    few, else the occupants of each YOU thing's cell.
    """
    holders = board.rules.holders
    if DEFEAT not in holders or YOU not in holders:
        return []
    cells, pos, props = board.cells, board.pos, board.props
    yous, defeaters = board.holders(YOU), board.holders(DEFEAT)
    if len(defeaters) <= _FEW * len(yous):
        deadly = {pos[ident] for ident in defeaters}
        return [ident for ident in yous if pos[ident] in deadly]
    return [ident for ident in yous if any(DEFEAT in props(other) for other in cells[pos[ident]])]


def _won(board: Board, yous: list[int]) -> bool:
    """``evaluate_win`` on a core board: a YOU thing in a cell with a WIN thing (itself included).

    The core has one layer, so the engine's "a YOU sharing its layer with a
    WIN" is a YOU and a WIN in one cell, and a YOU that is WIN shares its
    own cell; walked once over the WIN things' cells instead of once over
    every YOU thing's occupants.
    """
    rules = board.rules
    if WIN in rules.level_props:
        return True
    if WIN not in rules.givable:
        return False
    wins = board.holders(WIN)
    if not wins:
        return False
    pos = board.pos
    winning = {pos[ident] for ident in wins}
    return not winning.isdisjoint(map(pos.__getitem__, yous))
