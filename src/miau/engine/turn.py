"""One turn, in order (engine contract, "One turn, in order").

``resolve_turn`` runs steps 3 to 10 on a board; the caller has already done
steps 1 and 2 (rejecting intents the level cannot take, and being ready to
keep the board's journal as the pre-turn snapshot). Each step is a function
whose docstring names the clause it implements.

A level that opts into ``vocabulary-1`` takes its turn in
``miau.engine.tier1`` instead (``docs/vocabulary.md``): each entry point
below branches on the flag once, so the core turn is exactly as it was.
"""

from __future__ import annotations

from miau.engine.board import Board, new_board
from miau.engine.events import TurnLog
from miau.engine.level import Level
from miau.engine.movement import move_group
from miau.engine.rules import RuleParser
from miau.engine.tier1 import has_control1, move_player1, settle_turn1, start_board1
from miau.engine.vocabulary import DEFEAT, SINK, WAIT_STEP, WIN, YOU

SINK_CAUSE = "sink"
DEFEAT_CAUSE = "defeat"


def start_board(level: Level, parser: RuleParser | None = None) -> Board:
    """The board of ``level`` as play starts: start-of-level transformations applied.

    The start is not a turn, so no contact pass or win check runs; the
    journal is empty.
    """
    board = new_board(level, parser)
    if level.vocabulary:
        start_board1(board)
    else:
        apply_transformations(board, set(), None)
    board.take_journal()
    board.control_lost = not has_control(board)
    return board


def resolve_turn(board: Board, direction: tuple[int, int] | None, log: TurnLog | None) -> bool:
    """Resolve one turn for a move ``direction`` or a wait (``None``).

    Returns False, with the board unchanged and the blocks in ``log``, when
    the intent moves nothing: then it is not a turn.
    """
    if direction is not None:
        if not move_player(board, direction, log):
            return False
        if log is not None:
            log.player_moves = len(log.moved)
    settle_turn(board, log)
    return True


def settle_turn(board: Board, log: TurnLog | None) -> None:
    """Steps 4 to 10, everything after the player's movement."""
    if board.level.vocabulary:
        settle_turn1(board, log)
        return
    transformed: set[int] = set()
    board.refresh_rules()
    apply_transformations(board, transformed, log)
    run_automata(board, log)
    board.refresh_rules()
    apply_transformations(board, transformed, log)
    resolve_contacts(board, log)
    board.refresh_rules()
    board.won = evaluate_win(board)
    board.control_lost = not has_control(board)
    board.move_count += 1


def move_player(board: Board, direction: tuple[int, int], log: TurnLog | None) -> bool:
    """Step 3: every YOU entity takes the intent; accepted when at least one moved."""
    if board.level.vocabulary:
        return move_player1(board, direction, log)
    movers = board.holders(YOU)
    if not movers:
        return False
    return move_group(board, movers, direction[0], direction[1], log)


def apply_transformations(board: Board, transformed: set[int], log: TurnLog | None) -> None:
    """Steps 4 and 6: objects whose noun has a transformation become the target noun.

    An object transforms at most once per turn (``transformed`` remembers
    which did), so chains advance one link a turn and swaps alternate.
    """
    transforms = board.rules.transforms
    if not transforms:
        return
    changing: list[int] = []
    for noun in transforms:
        changing.extend(i for i in board.by_noun.get(noun, ()) if i not in transformed)
    changing.sort()
    for ident in changing:
        old = board.noun[ident]
        board.set_noun(ident, transforms[old])
        transformed.add(ident)
        if log is not None:
            log.transformed.append((ident, old, transforms[old], False, False))


def run_automata(board: Board, log: TurnLog | None) -> None:
    """Step 5: each active automaton with actors takes its current step, records by id.

    A record is active when a rule ``X IS <property>`` holds (X being its
    subject when it names one); its actors are the objects with the property
    that match the subject. Each record is its own movement phase, a blocked
    actor waits, and the phase advances once per beat the record runs.
    """
    rules = board.rules
    for index, record in enumerate(board.level.automata):
        if record.subject is not None:
            if record.property not in rules.props.get(record.subject, ()):
                continue
            actors = list(board.by_noun.get(record.subject, ()))
        else:
            if record.property not in rules.holders:
                continue
            actors = board.holders(record.property)
        if not actors:
            continue
        phase = board.phases[index]
        step = record.pattern[phase]
        if step != WAIT_STEP:
            move_group(board, actors, step[0], step[1], log)
        board.phases[index] = (phase + 1) % len(record.pattern)


def resolve_contacts(board: Board, log: TurnLog | None) -> None:
    """Step 7: one contact pass: pairs, then SINK, then DEFEAT, each on the survivors.

    Cells are visited in row-major order and entities in id order, so the
    destruction order is phase, then cell, then id.
    """
    for pair in board.level.pairs:
        _resolve_pair(board, pair.words, log)
    _resolve_sink(board, log)
    _resolve_defeat(board, log)


def _cells_holding(board: Board, prop: str) -> list[int]:
    """Row-major list of the cells that hold an object with ``prop``."""
    if prop not in board.rules.holders:
        return []
    pos = board.pos
    return sorted({pos[i] for i in board.holders(prop)})


def _destroy(board: Board, ident: int, cause: str, log: TurnLog | None) -> None:
    if log is not None:
        log.destroyed.append(
            (ident, board.noun[ident], board.pos[ident], cause, board.is_word[ident])
        )
    board.destroy(ident)


def _resolve_pair(board: Board, words: tuple[str, str], log: TurnLog | None) -> None:
    """Things with the first word and things with the second destroy each other one for one."""
    first, second = words
    if first not in board.rules.holders or second not in board.rules.holders:
        return
    cause = first.lower()
    props = board.props
    for cell in _cells_holding(board, first):
        occupants = board.cells[cell]
        firsts = [i for i in occupants if first in props(i)]
        seconds = [i for i in occupants if second in props(i)]
        matched: set[int] = set()
        for a in firsts:
            if a in matched:
                continue
            partner = next((b for b in seconds if b != a and b not in matched), None)
            if partner is not None:
                matched.update((a, partner))
        for ident in sorted(matched):
            _destroy(board, ident, cause, log)


def _resolve_sink(board: Board, log: TurnLog | None) -> None:
    """A cell with a SINK entity and at least one other entity loses every occupant."""
    for cell in _cells_holding(board, SINK):
        occupants = board.cells[cell]
        if len(occupants) >= 2:
            for ident in list(occupants):
                _destroy(board, ident, SINK_CAUSE, log)


def _resolve_defeat(board: Board, log: TurnLog | None) -> None:
    """Every YOU entity in a cell that holds a DEFEAT entity is destroyed (itself included)."""
    props = board.props
    for cell in _cells_holding(board, DEFEAT):
        for ident in [i for i in board.cells[cell] if YOU in props(i)]:
            _destroy(board, ident, DEFEAT_CAUSE, log)


def evaluate_win(board: Board) -> bool:
    """Step 9: a YOU that is also WIN, or a YOU sharing its cell with a distinct WIN."""
    props = board.props
    for ident in board.holders(YOU):
        if WIN in props(ident):
            return True
        for other in board.cells[board.pos[ident]]:
            if other != ident and WIN in props(other):
                return True
    return False


def has_control(board: Board) -> bool:
    """Step 10: whether anything surviving is YOU."""
    if board.level.vocabulary:
        return has_control1(board)
    by_noun = board.by_noun
    return any(by_noun.get(noun) for noun in board.rules.holders.get(YOU, ()))
