"""The one movement planner: the player, MOVE, SHIFT and the automata all move through it.

Engine contract, "Movement": movers go front-first along the direction, then
by id; a mover's whole push chain is validated before anything in it moves;
PUSH beats STOP; the level edge blocks like STOP; an entity steps at most once
per movement phase, and one that already stepped neither blocks nor is
pushed again.

The vocabulary-1 layers (``docs/vocabulary.md``) are part of the same
planner, each switched on by the rule table only when a rule gives its word:
PULL things follow a thing that leaves the cell in front of them (and block
like STOP unless PUSH); an OPEN thing may enter a SHUT thing's cell on its
FLOAT layer; MOVE turns a blocked mover back. SHIFT and MOVE only choose who
moves which way. A core table switches all of them off.
"""

from __future__ import annotations

from collections.abc import Sequence

from miau.engine.board import GONE, Board, Reading
from miau.engine.events import TurnLog
from miau.engine.vocabulary import OPEN, PULL, PUSH, SHUT, STOP, VECTOR_OF_FACING

STOP_REASON = "stop"
BOUNDS_REASON = "bounds"

Chain = list[tuple[int, int | None]]
"""A mover and everything it pushes, each with its immediate pusher, from the mover outward."""


def front_first(board: Board, movers: Sequence[int], facing: int) -> list[tuple[int, int]]:
    """``movers`` ordered front-first along ``facing``, then by id, each with the facing."""
    return [(i, facing) for i in _in_front_order(board, movers, facing)]


def _in_front_order(board: Board, movers: Sequence[int], facing: int) -> Sequence[int]:
    """``movers`` ordered front-first along ``facing``, then by id."""
    if len(movers) == 1:
        return movers
    width, pos = board.width, board.pos
    dx, dy = VECTOR_OF_FACING[facing]
    # Sorted as (rank, id) pairs rather than with a key function: the compiled
    # build calls a key function as a Python object, once per mover.
    if dx:
        ranked = sorted([(-(pos[i] % width) * dx, i) for i in movers])
    else:
        ranked = sorted([(-(pos[i] // width) * dy, i) for i in movers])
    return [i for _, i in ranked]


def move_group(
    board: Board, reading: Reading, movers: Sequence[int], facing: int, log: TurnLog | None
) -> bool:
    """Move every entity of ``movers`` one cell along ``facing``: one movement phase.

    Blocked movers stay put (recorded in ``log.blocked``). Returns whether
    anything moved.

    Without PULL nothing follows a step, so the phase is the plan-and-apply
    loop alone, run here without ``move_phase``'s per-mover calls: the
    player's move and every automaton's take this path on a core level.
    """
    if reading.rules.pull:
        return move_phase(board, reading, front_first(board, movers, facing), log)
    dx, dy = VECTOR_OF_FACING[facing]
    stepped: set[int] = set()
    any_moved = False
    ordered = movers if len(movers) == 1 else _in_front_order(board, movers, facing)
    for mover in ordered:
        if mover not in stepped and _push_chain(
            board, reading, mover, dx, dy, facing, stepped, log
        ):
            any_moved = True
    return any_moved


def move_phase(
    board: Board,
    reading: Reading,
    moves: Sequence[tuple[int, int]],
    log: TurnLog | None,
    *,
    bounce: bool = False,
) -> bool:
    """One movement phase: each ``(mover, facing)`` in order; a thing steps at most once.

    Returns whether anything moved. With ``bounce`` (MOVE), a blocked mover
    turns round and tries once the other way, and stays turned round if that
    is blocked too (a ``moved`` entry with ``from`` equal to ``to``).
    """
    pos = board.pos
    stepped: set[int] = set()
    any_moved = False
    for mover, facing in moves:
        if mover in stepped or pos[mover] == GONE:
            continue
        moved = _step(board, reading, mover, facing, stepped, log)
        if not moved and bounce:
            moved = _bounce(board, reading, mover, facing, stepped, log)
        any_moved = any_moved or moved
    return any_moved


def _bounce(
    board: Board,
    reading: Reading,
    mover: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> bool:
    """MOVE blocked: turn round and try once the other way; stay turned round if blocked too.

    Returns whether the mover moved (a turn on the spot is not a move).
    """
    back = (facing + 2) % 4
    if _step(board, reading, mover, back, stepped, log):
        return True
    board.turn(mover, back)
    if log is not None:
        cell = board.pos[mover]
        log.moved.append((mover, cell, cell, None, back))
    return False


def _step(
    board: Board,
    reading: Reading,
    mover: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> bool:
    """Move ``mover`` one cell along ``facing`` with its push chain, then pull what follows."""
    dx, dy = VECTOR_OF_FACING[facing]
    source = board.pos[mover]
    if not _push_chain(board, reading, mover, dx, dy, facing, stepped, log):
        return False
    if reading.rules.pull:
        _pull(board, reading, source, dx, dy, facing, stepped, log)
    return True


def _push_chain(
    board: Board,
    reading: Reading,
    ident: int,
    dx: int,
    dy: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> bool:
    """Move ``ident`` and what it pushes one cell along ``(dx, dy)``, or record what blocks it."""
    pos, width, cells = board.pos, board.width, board.cells
    source = pos[ident]
    target = source + dx + dy * width
    if 0 <= source % width + dx < width and 0 <= target < len(cells) and not cells[target]:
        # Most steps enter an empty cell inside the board: nothing to plan.
        board.move(ident, target, facing)
        stepped.add(ident)
        if log is not None:
            log.moved.append((ident, source, target, None, facing))
        return True
    chain, blocker, reason = _plan_chain(board, reading, ident, dx, dy, stepped)
    if reason is not None:
        if log is not None:
            log.blocked.append((ident, (dx, dy), blocker, reason))
        return False
    move = board.move
    offset = dx + dy * width
    for moving, pusher in chain:
        source = pos[moving]
        move(moving, source + offset, facing)
        stepped.add(moving)
        if log is not None:
            log.moved.append((moving, source, source + offset, pusher, facing))
    return True


def _pull(
    board: Board,
    reading: Reading,
    vacated: int,
    dx: int,
    dy: int,
    facing: int,
    stepped: set[int],
    log: TurnLog | None,
) -> None:
    """PULL: PULL things right behind a thing that moved follow it, cell after cell."""
    width, height = board.width, board.level.height
    y, x = divmod(vacated, width)
    while True:
        x -= dx
        y -= dy
        if not (0 <= x < width and 0 <= y < height):
            return
        behind = y * width + x
        pulled = [o for o in board.cells[behind] if o not in stepped and PULL in reading.props(o)]
        moved = False
        for ident in pulled:
            if ident not in stepped and _push_chain(
                board, reading, ident, dx, dy, facing, stepped, log
            ):
                moved = True
        if not moved:
            return


def _plan_chain(
    board: Board, reading: Reading, mover: int, dx: int, dy: int, stepped: set[int]
) -> tuple[Chain, int | None, str | None]:
    """The mover and everything it would push, or what blocks it.

    Returns ``(chain, blocker id, reason)``; ``reason`` is None when the
    chain can move. Chain entries are ``(id, immediate pusher)`` from the
    mover outward. A PULL thing that is not PUSH blocks like STOP.
    """
    width, height = board.width, board.level.height
    cells = board.cells
    chain: Chain = [(mover, None)]
    y, x = divmod(board.pos[mover], width)
    x += dx
    y += dy
    if not (0 <= x < width and 0 <= y < height):
        return chain, None, BOUNDS_REASON
    if not cells[y * width + x]:
        return chain, None, None  # an empty cell ahead: most steps end here
    entering = board.level.enter_pairs or reading.rules.open_shut
    frontier = [mover]
    while True:
        pushed: list[int] = []
        for occupant in cells[y * width + x]:
            if occupant in stepped:
                continue
            if entering and all(_can_enter(board, reading, f, occupant) for f in frontier):
                continue
            traits = reading.props(occupant)
            if PUSH in traits:
                pushed.append(occupant)
            elif STOP in traits or (PULL in traits and reading.rules.pull):
                return chain, occupant, STOP_REASON
        if not pushed:
            return chain, None, None
        pusher = frontier[0]
        chain.extend((ident, pusher) for ident in pushed)
        frontier = pushed
        x += dx
        y += dy
        if not (0 <= x < width and 0 <= y < height):
            return chain, None, BOUNDS_REASON


def _can_enter(board: Board, reading: Reading, mover: int, occupant: int) -> bool:
    """Whether ``mover`` may walk into ``occupant``'s cell: OPEN/SHUT or an ``enter`` pair."""
    mine, theirs = reading.props(mover), reading.props(occupant)
    if (
        reading.rules.open_shut
        and reading.same_layer(mover, occupant)
        and ((OPEN in mine and SHUT in theirs) or (SHUT in mine and OPEN in theirs))
    ):
        return True
    for pair in board.level.enter_pairs:
        first, second = pair.words
        if (first in mine and second in theirs) or (second in mine and first in theirs):
            return True
    return False
