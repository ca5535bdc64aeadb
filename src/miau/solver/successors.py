"""The successor function: the engine's own turn, run on one reusable board.

Every successor comes from the engine's own turn (``move_you`` then
``settle_turn``, no events built; on core levels without pairs the
solver's ``turns.settle``, the same steps with a contact pass walked from
the short side) on one board started like a ``Game``'s
(``start_board``), and is taken back with ``Board.rewind``, the same
checkpoint-and-journal pair ``Game.undo`` uses; so the search agrees with
the engine by construction. To expand a state the board first *jumps* to it: the keys of
the current and the target state are compared and only the entities whose
slots differ are changed, again through ``Board.revert``. In breadth-first
order consecutive states are close relatives, so a jump touches a handful
of entities.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from miau.engine.board import Board, JournalEntry
from miau.engine.level import Level
from miau.engine.movement import move_group
from miau.engine.turn import move_you, settle_turn, start_board
from miau.engine.vocabulary import MOVE_ALPHABET, PUSH, STOP, VECTOR_OF_FACING, YOU
from miau.solver.keys import KeyCodec
from miau.solver.reduction import search_level
from miau.solver.turns import defeated, settles_here, sinking_cells
from miau.solver.turns import settle as settle_core

MOVES: Final[tuple[tuple[str, tuple[int, int] | None], ...]] = tuple(
    (direction.letter, direction.vector) for direction in MOVE_ALPHABET
)
"""``(letter, vector)`` of the move alphabet in search order (a wait has no vector).

The order makes the solution found deterministic.
"""

_FACINGS: Final[tuple[tuple[str, int | None], ...]] = tuple(
    (direction.letter, direction.facing) for direction in MOVE_ALPHABET
)
"""``MOVES`` with each move's facing, the form ``move_you`` takes (a wait has none)."""

Successor = tuple[str, bytes, bool]
"""``(move letter, key after the move, whether the move wins)``."""

Child = tuple[str, bytes, bool, int, int | None]
"""A :data:`Successor` with its rating (``DEAD`` for a state that can never move again)
and its way back: the facing of the move that provably leads from the child straight back
to the state it came from (``None`` when that is not known; see ``Expander.children``)."""

Rating = Callable[[Board], int]
"""Rates the settled board of a child state (for best-first search: lower is more promising)."""

Region = tuple[list[tuple[bytes, bytes | None]], list[tuple[bytes, Child]]]
"""What ``Expander.region`` gives: the region's states, each with the state it was walked to
from (``None`` for the first), and each child leaving the region with the state it leaves from."""

HeldRule = Callable[[frozenset[tuple[Any, ...]]], bool]
"""Whether a turn may end with these rules in force (their ``Rule.key`` set): what a search
with rules held as they were allows (``miau.solver.ideas``)."""

DEAD: Final = -1
"""The rating of a child that can never move again (nothing is YOU and waiting changes nothing)."""


class Expander:
    """Generates the successors of states of one level, given by their keys."""

    __slots__ = (
        "_key",
        "_returns",
        "_settle",
        "board",
        "codec",
        "hands_off",
        "held",
        "level",
        "root",
    )

    def __init__(
        self,
        level: Level | Mapping[str, Any],
        *,
        hands_off: bool = False,
        hold: HeldRule | None = None,
    ) -> None:
        """Set up the start of ``level``.

        With ``hands_off``, moves in which the player pushes a word tile are
        left out (a word an automaton moves does not count: the player did
        not change a rule). With ``hold``, moves after which ``hold`` refuses
        the rules in force are left out: the level as played with a rule
        held as it was (``miau.solver.ideas`` asks whether a change is needed).

        :raises LevelError: when the level cannot be run.
        """
        given = level if isinstance(level, Level) else Level.from_dict(level)
        self.level: Level = search_level(given)
        self.board: Board = start_board(self.level)
        self.codec = KeyCodec(self.level)
        core = settles_here(self.level)
        self._settle: Callable[[Board], None] = settle_core if core else _engine_settle
        # Ways back are worked out where the turn is the core's without automata:
        # there a turn's effects are known from its journal alone.
        self._returns = core and not self.level.automata
        self.hands_off = hands_off
        self.held = hold
        self.root: bytes = self.codec.encode(self.board)
        self._key = self.root

    def successors(self, key: bytes) -> list[Successor]:
        """Every accepted move from the state ``key``, with its result, in move order."""
        return [(letter, child, won) for letter, child, won, _, _ in self.children(key, None)]

    def children(self, key: bytes, rate: Rating | None, skip: int | None = None) -> list[Child]:
        """Like ``successors``, each child also rated by ``rate`` on the board standing in it.

        A child from which the game can never go on (see ``is_dead``) is
        rated :data:`DEAD` without calling ``rate``; without ``rate`` every
        other child is rated 0. The move of facing ``skip`` is not tried: a
        caller passes the way back it was given with ``key`` (that move
        leads to a state it has already seen).

        Without ``rate`` (breadth-first search needs none), a turn in
        which every YOU thing walks into a free cell from a state that
        settles to itself (see ``_free_walkers``) is told, not played: its
        child's key is this key with the walkers' positions changed, as
        nothing else can happen in it. ``tests/solver/test_successors.py``
        compares told children with played ones on generated and known
        levels.

        Each child comes with its way back, when one is proven (see
        ``_steps_back``): the facing of the move that takes the child
        straight back to ``key``. A breadth-first search that reached the
        child from ``key`` has seen ``key``, so it may skip that move; on
        Keke's levels about one move in six that the search would try is
        such a step back.
        """
        self._jump(key)
        board = self.board
        codec = self.codec
        settle = self._settle
        mark = board.checkpoint()
        at_root = key == self.root
        held = self.held
        # Under rules without conditions or FLOAT the board is its own reading and
        # the YOU things are the same for every move: move them as ``move_you`` would
        # (about 1.5% of a breadth-first search on Keke's levels).
        yous = board.holders(YOU) if board.rules.live else None
        movers = yous if yous is not None and self._returns and not at_root else []
        returns = bool(movers) and self.settles_to_itself(board, movers)
        walkers = self._free_walkers(board, movers) if returns and rate is None else None
        found: list[Child] = []
        for letter, facing in _FACINGS:
            if facing is None:
                if not at_root and not self._wait_can_change(board):
                    continue
            elif facing == skip:
                continue
            elif walkers is not None and (cells := _walk(board, movers, walkers, facing)):
                # Every walker ends alone in its cell and left its cell to walkers
                # only: the way back is proven as ``_steps_back`` proves it.
                found.append((letter, codec.moved(key, movers, cells), False, 0, (facing + 2) % 4))
                continue
            elif not (
                move_you(board, facing, None)
                if yous is None
                else bool(yous) and move_group(board, board, yous, facing, None)
            ):
                board.take_journal()
                continue
            if self.hands_off and pushes_a_word(board, board.journal):
                board.rewind(mark, board.take_journal())
                continue
            settle(board)
            if held is not None and not held(board.rules.keys):
                board.rewind(mark, board.take_journal())
                continue
            journal = board.take_journal()
            won = board.won
            dead = not won and self.is_dead(board)
            value = DEAD if dead else 0 if rate is None else rate(board)
            back = (
                (facing + 2) % 4
                if returns
                and facing is not None
                and board.rules is mark.rules
                and _steps_back(board, journal, movers)
                else None
            )
            found.append((letter, codec.successor(board, key, journal), won, value, back))
            board.rewind(mark, journal)
        return found

    def region(self, key: bytes, skip: int | None = None) -> Region:
        """The states the lone YOU thing of ``key`` walks to freely, and every child that leaves them.

        Returns ``(states, leaving)``. ``states`` lists ``key`` first, then
        every state reached from it by told walks (see ``children``), each
        with the state it was walked to from; ``leaving`` pairs each child of
        those states that is not one of them with the state it comes from,
        in the order the states are listed. Together they are exactly what
        ``children`` (without a rating) gives for each of the states, only
        found at less cost: a search that needs every state reachable (a
        proof that no win is) walks a region cell by cell, and most of a
        core level's states are the same board with the player elsewhere.

        Why the states are one region: from a state that settles to itself
        with one YOU thing, alone in its cell and not a word, nothing waiting
        to transform, a step into an empty cell is told (``_free_walkers``);
        the state it leads to meets the same conditions (the YOU thing is
        alone again, no other cell changed, the rules are the same), and the
        opposite step leads straight back (``_steps_back``). So every state
        of the flood fill over empty cells can reach every other, and any
        win one of them can reach, all can. A walk of a region never plays a
        turn; only the moves out of it (into a cell that is not empty, or
        off the board) are played, each from its own cell.

        When those conditions do not hold (several YOU things, conditions
        in the rules, the start, a wait that may change something), the
        region is ``key`` alone and ``leaving`` is ``children(key, None,
        skip)``. Children that leave a region carry no way back.
        """
        self._jump(key)
        board = self.board
        yous = board.holders(YOU) if board.rules.live else None
        if (
            key == self.root
            or not self._returns
            or yous is None
            or len(yous) != 1
            or not self.settles_to_itself(board, yous)
            or self._free_walkers(board, yous) is None
            or self._wait_can_change(board)
        ):
            return [(key, None)], [(key, child) for child in self.children(key, None, skip)]
        walker = yous[0]
        cells, width = board.cells, board.width
        size = len(cells)
        start = board.pos[walker]
        walked: dict[int, int | None] = {start: None}
        order = [start]
        exits: list[list[tuple[str, int]]] = []
        # A step the movement contract refuses outright is not played: off the
        # board, or into a cell holding a STOP thing that is not PUSH (with no
        # PULL, OPEN/SHUT or enter pair in play, nothing else can let it in).
        rules = board.rules
        plain = not (rules.pull or rules.open_shut or board.level.enter_pairs)
        walls: dict[int, bool] = {}
        for cell in order:
            column = cell % width
            mine: list[tuple[str, int]] = []
            for letter, facing in _FACINGS:
                if facing is None:
                    continue
                dx, dy = VECTOR_OF_FACING[facing]
                target = cell + dx + dy * width
                if not (0 <= column + dx < width and 0 <= target < size):
                    if not plain:
                        mine.append((letter, facing))
                elif not cells[target] or target == start:
                    if target not in walked:
                        walked[target] = cell
                        order.append(target)
                elif not plain:
                    mine.append((letter, facing))
                else:
                    wall = walls.get(target)
                    if wall is None:
                        wall = walls[target] = _stops(board, cells[target])
                    if not wall:
                        mine.append((letter, facing))
            exits.append(mine)
        codec = self.codec
        keys = {start: key}
        states: list[tuple[bytes, bytes | None]] = [(key, None)]
        for cell in order[1:]:
            state = keys[cell] = codec.moved(key, yous, (cell,))
            came_from = walked[cell]
            states.append((state, None if came_from is None else keys[came_from]))
        leaving: list[tuple[bytes, Child]] = []
        mark = board.checkpoint()
        noun, facings, is_word = board.noun[walker], board.facing, board.is_word[walker]
        settle, hands_off, held = self._settle, self.hands_off, self.held
        for cell, moves in zip(order, exits, strict=True):
            if not moves:
                continue
            state = keys[cell]
            if board.pos[walker] != cell:
                board.revert([(walker, cell, noun, facings[walker], is_word)])
                self._key = state
            for letter, facing in moves:
                if not move_group(board, board, yous, facing, None):
                    board.take_journal()
                    continue
                if hands_off and pushes_a_word(board, board.journal):
                    board.rewind(mark, board.take_journal())
                    continue
                settle(board)
                if held is not None and not held(board.rules.keys):
                    board.rewind(mark, board.take_journal())
                    continue
                journal = board.take_journal()
                won = board.won
                value = DEAD if not won and self.is_dead(board) else 0
                child = codec.successor(board, state, journal)
                leaving.append((state, (letter, child, won, value, None)))
                board.rewind(mark, journal)
        return states, leaving

    def _free_walkers(self, board: Board, movers: list[int]) -> frozenset[int] | None:
        """The YOU things, when a turn in which each walks into a free cell can be told.

        Call it on a state that settles to itself (``settles_to_itself``).
        A cell is free to a walker when nothing but walkers stands in it
        (they all step the same way, the one in front first, so the cell is
        empty when the walker arrives). With nothing waiting to transform
        and every YOU thing alone in its cell, such a turn moves the YOU
        things one cell each, every one alone again afterwards, and makes no
        SINK, DEFEAT or WIN meeting (no YOU thing was DEFEAT or WIN itself,
        or this state would not settle to itself or would have been won);
        the rules stay as they are. So it changes those positions and
        nothing else.
        """
        pos_slot, cells, pos = self.codec.pos_slot, board.cells, board.pos
        if any(pos_slot[ident] < 0 or len(cells[pos[ident]]) != 1 for ident in movers):
            return None
        by_noun = board.by_noun
        if any(by_noun.get(noun) for noun in board.rules.transforms):
            return None
        return frozenset(movers)

    def settles_to_itself(self, board: Board, movers: list[int]) -> bool:
        """Whether a core turn that brought every piece back to this board would change nothing.

        Called on a state the search reached as a child (never the start), so
        with these rules it was already found not won. What a turn's steps
        4 to 10 could still do here: SINK where a SINK thing shares a cell,
        DEFEAT where a YOU thing stands with a DEFEAT thing (a state can be
        left so when a destroyed word changed the rules last turn). The
        transformations need no look: the child's own journal shows none
        happened under the same rules and nouns. Word tiles among the movers
        would change the rules as they step, so they rule the way back out.
        """
        is_word = board.is_word
        if any(is_word[ident] for ident in movers):
            return False
        return not sinking_cells(board) and not defeated(board)

    def is_dead(self, board: Board) -> bool:
        """Whether the settled ``board`` can never move again: no YOU, and waiting changes nothing.

        With nothing YOU every move is refused, and where a wait cannot
        change anything (see ``_wait_can_change``) it leads back to this very
        state; so no win is reachable from it and a search need not expand it.
        """
        return board.control_lost and not self._wait_can_change(board)

    def _jump(self, key: bytes) -> None:
        """Bring the board to the state ``key`` by changing only what differs."""
        if key == self._key:
            return
        codec, board = self.codec, self.board
        entries = codec.changes(board, self._key, key)
        if entries:
            board.revert(entries)
        if codec.phase_count:
            board.phases[:] = codec.phases(codec.view(key))
        board.refresh_rules()
        self._key = key

    def _wait_can_change(self, board: Board) -> bool:
        """Whether a wait (W) may lead anywhere but back to this very state.

        A wait is one beat for the automata, so on a level with automata it
        always may. Without automata, a settled state (any state after a
        turn) changes on a wait only through a transformation: the contact
        pass already ran with these rules or with a superset of them (words
        destroyed in the last contact pass can only remove rules), and fewer
        rules never destroy more. So a wait is tried when some object on the
        board has a transformation. The start is not settled (no contact
        pass ran there), so ``successors`` always tries a wait at the start.
        """
        if board.level.automata or board.level.vocabulary:
            return True
        by_noun = board.by_noun
        return any(by_noun.get(noun) for noun in board.rules.transforms)


def _stops(board: Board, occupants: list[int]) -> bool:
    """Whether a step into a cell of ``occupants`` is refused: one of them is STOP and not PUSH.

    The movement contract's rule ("PUSH beats STOP") as the planner applies
    it when no PULL, OPEN/SHUT or enter pair is in play: a PUSH occupant
    joins the push chain, a STOP one that is not PUSH blocks the whole
    step, whatever else shares its cell.
    """
    props = board.props
    for ident in occupants:
        traits = props(ident)
        if STOP in traits and PUSH not in traits:
            return True
    return False


def _walk(board: Board, movers: list[int], walkers: frozenset[int], facing: int) -> list[int]:
    """Where each of ``movers`` walks along ``facing``, or ``[]`` unless every cell ahead is free.

    A cell is free when it is on the board and holds nothing but ``walkers``.
    """
    dx, dy = VECTOR_OF_FACING[facing]
    width, cells, pos = board.width, board.cells, board.pos
    step = dx + dy * width
    ahead: list[int] = []
    for ident in movers:
        source = pos[ident]
        target = source + step
        if not (0 <= source % width + dx < width and 0 <= target < len(cells)):
            return []
        occupants = cells[target]
        if occupants and not walkers.issuperset(occupants):
            return []
        ahead.append(target)
    return ahead


def _steps_back(board: Board, journal: list[JournalEntry], movers: list[int]) -> bool:
    """Whether the opposite move from the settled ``board`` leads straight back to the turn's start.

    It does when the turn's journal holds one step of each YOU thing and
    nothing else (nothing pushed that is not YOU, nothing destroyed or
    transformed, the rules unchanged: the caller checks those), every YOU
    thing now stands alone in its cell, and every cell a YOU thing left
    holds YOU things only. Then, moving the other way front-first, each
    YOU thing finds the cell it came from empty or emptied by the YOU thing
    that took it, and steps back into it: no push, no block, every piece
    where it was. ``tests/solver/test_successors.py`` plays the way back
    of every child of generated levels and compares.
    """
    if len(journal) != len(movers):
        return False
    cells, pos = board.cells, board.pos
    if len(journal) == 1:
        # One YOU thing, the common case: it left its cell empty and stands alone.
        ident, source, _, _, _ = journal[0]
        return ident == movers[0] and not cells[source] and len(cells[pos[ident]]) == 1
    moved = {entry[0] for entry in journal}
    if len(moved) != len(movers) or not moved.issuperset(movers):
        return False
    for ident, source, _, _, _ in journal:
        if len(cells[pos[ident]]) != 1 or not moved.issuperset(cells[source]):
            return False
    return True


def _engine_settle(board: Board) -> None:
    """The engine's own steps 4 to 10, with no events built."""
    settle_turn(board, None)


def pushes_a_word(board: Board, journal: list[JournalEntry]) -> bool:
    """Whether the player's movement just journalled moved a word tile.

    Call it between ``move_you`` and ``settle_turn``: then every journal
    entry is a move of the player's own phase.
    """
    is_word = board.is_word
    return any(is_word[entry[0]] for entry in journal)
