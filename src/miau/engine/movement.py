"""The movement planner shared by the player and the automata.

Engine contract, "Movement": movers go front-first along the direction, then
by id; a mover's whole push chain is validated before anything in it moves;
PUSH beats STOP; the level edge blocks like STOP; an entity steps at most once
per movement phase, and one that already stepped neither blocks nor is
pushed again.
"""

from __future__ import annotations

from miau.engine.board import Board
from miau.engine.events import TurnLog
from miau.engine.vocabulary import FACING_OF_VECTOR, PUSH, STOP

STOP_REASON = "stop"
BOUNDS_REASON = "bounds"


def move_group(board: Board, movers: list[int], dx: int, dy: int, log: TurnLog | None) -> bool:
    """Move every entity of ``movers`` one cell by ``(dx, dy)``, pushing what is PUSH.

    This is one movement phase. Blocked movers stay put (recorded in
    ``log.blocked``). Returns whether anything moved.
    """
    width = board.width
    pos = board.pos
    if len(movers) == 1:
        ordered = movers
    elif dx:
        ordered = sorted(movers, key=lambda i: (-(pos[i] % width) * dx, i))
    else:
        ordered = sorted(movers, key=lambda i: (-(pos[i] // width) * dy, i))
    facing = FACING_OF_VECTOR[(dx, dy)]
    offset = dx + dy * width
    stepped: set[int] = set()
    any_moved = False
    for mover in ordered:
        if mover in stepped:
            continue
        chain, blocker, reason = _plan_chain(board, mover, dx, dy, stepped)
        if reason is not None:
            if log is not None:
                log.blocked.append((mover, (dx, dy), blocker, reason))
            continue
        any_moved = True
        for ident, pusher in chain:
            source = pos[ident]
            board.move(ident, source + offset, facing)
            stepped.add(ident)
            if log is not None:
                log.moved.append((ident, source, source + offset, pusher, facing))
    return any_moved


def _plan_chain(
    board: Board, mover: int, dx: int, dy: int, stepped: set[int]
) -> tuple[list[tuple[int, int | None]], int | None, str | None]:
    """The mover and everything it would push, or what blocks it.

    Returns ``(chain, blocker id, reason)``; ``reason`` is None when the
    chain can move. Chain entries are ``(id, immediate pusher)`` from the
    mover outward.
    """
    width, height = board.width, board.level.height
    cells, props = board.cells, board.props
    entering = board.level.enter_pairs
    chain: list[tuple[int, int | None]] = [(mover, None)]
    frontier = [mover]
    y, x = divmod(board.pos[mover], width)
    while True:
        x += dx
        y += dy
        if not (0 <= x < width and 0 <= y < height):
            return chain, None, BOUNDS_REASON
        pushed: list[int] = []
        for occupant in cells[y * width + x]:
            if occupant in stepped:
                continue
            if entering and all(_can_enter(board, f, occupant) for f in frontier):
                continue
            traits = props(occupant)
            if PUSH in traits:
                pushed.append(occupant)
            elif STOP in traits:
                return chain, occupant, STOP_REASON
        if not pushed:
            return chain, None, None
        pusher = frontier[0]
        chain.extend((ident, pusher) for ident in pushed)
        frontier = pushed


def _can_enter(board: Board, mover: int, occupant: int) -> bool:
    """Whether ``mover`` may walk into ``occupant``'s cell through an ``enter`` pair."""
    mine, theirs = board.props(mover), board.props(occupant)
    for pair in board.level.enter_pairs:
        first, second = pair.words
        if (first in mine and second in theirs) or (second in mine and first in theirs):
            return True
    return False
