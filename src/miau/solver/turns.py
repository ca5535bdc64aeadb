"""The rest of a turn after the player's move, for the core turn, with a cheaper contact pass.

The engine's contact pass walks every cell that holds a DEFEAT thing and
asks each occupant whether it is YOU. On a level strewn with DEFEAT (a
Keke level with a hundred and fifty skulls) that walk is most of a turn,
though only the few YOU things can ever be destroyed by it. ``settle``
runs the engine's own steps (``miau.engine.turn``) in the engine's order
and replaces only SINK and DEFEAT, each walked from the side that is
short: the cells where two things meet a SINK, the YOU things that stand
with a DEFEAT. The board ends in the same state (cells and noun lists are
kept sorted, so the order of destruction leaves no trace);
``tests/solver/test_turns.py`` compares it with ``settle_turn`` after
every move of generated games.

The engine is the authority: levels with Clockwork pairs or the
``vocabulary-1`` feature take ``settle_turn`` itself.
"""

from __future__ import annotations

from miau.engine.board import Board
from miau.engine.level import Level
from miau.engine.turn import apply_transformations, evaluate_win, has_control, run_automata
from miau.engine.vocabulary import DEFEAT, SINK, YOU


def settles_here(level: Level) -> bool:
    """Whether ``settle`` may stand in for the engine's ``settle_turn`` on ``level``."""
    return not level.vocabulary and not level.pairs


def settle(board: Board) -> None:
    """Steps 4 to 10 of a core turn, as ``settle_turn(board, None)`` runs them."""
    transformed: set[int] = set()
    board.refresh_rules()
    apply_transformations(board, transformed, None)
    run_automata(board, None)
    board.refresh_rules()
    apply_transformations(board, transformed, None)
    _sink(board)
    _defeat(board)
    board.refresh_rules()
    board.won = evaluate_win(board)
    board.control_lost = not has_control(board)
    board.move_count += 1


def _sink(board: Board) -> None:
    """A cell holding a SINK thing and anything else loses every occupant."""
    if SINK not in board.rules.holders:
        return
    cells, pos = board.cells, board.pos
    crowded = {pos[i] for i in board.holders(SINK) if len(cells[pos[i]]) >= 2}
    for cell in sorted(crowded):
        for ident in list(cells[cell]):
            board.destroy(ident)


def _defeat(board: Board) -> None:
    """Every YOU thing standing with a DEFEAT thing (itself included) is destroyed."""
    holders = board.rules.holders
    if DEFEAT not in holders or YOU not in holders:
        return
    cells, pos, props = board.cells, board.pos, board.props
    doomed = [
        ident
        for ident in board.holders(YOU)
        if any(DEFEAT in props(other) for other in cells[pos[ident]])
    ]
    for ident in doomed:
        board.destroy(ident)
