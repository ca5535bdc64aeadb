"""The successor function: the engine's own turn, run on one reusable board.

Every successor comes from the engine's own turn (``move_player`` then
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
from miau.engine.turn import move_player, settle_turn, start_board
from miau.engine.vocabulary import MOVE_ALPHABET
from miau.solver.keys import KeyCodec
from miau.solver.reduction import search_level
from miau.solver.turns import settle as settle_core
from miau.solver.turns import settles_here

MOVES: Final[tuple[tuple[str, tuple[int, int] | None], ...]] = tuple(
    (direction.letter, direction.vector) for direction in MOVE_ALPHABET
)
"""``(letter, vector)`` of the move alphabet in search order (a wait has no vector).

The order makes the solution found deterministic.
"""

Successor = tuple[str, bytes, bool]
"""``(move letter, key after the move, whether the move wins)``."""

Child = tuple[str, bytes, bool, int]
"""A :data:`Successor` with its rating (``DEAD`` for a state that can never move again)."""

Rating = Callable[[Board], int]
"""Rates the settled board of a child state (for best-first search: lower is more promising)."""

DEAD: Final = -1
"""The rating of a child that can never move again (nothing is YOU and waiting changes nothing)."""


def _alive(_board: Board) -> int:
    return 0


class Expander:
    """Generates the successors of states of one level, given by their keys."""

    __slots__ = ("_settle", "_slots", "board", "codec", "hands_off", "level", "root")

    def __init__(self, level: Level | Mapping[str, Any], *, hands_off: bool = False) -> None:
        """Set up the start of ``level``.

        With ``hands_off``, moves in which the player pushes a word tile are
        left out (a word an automaton moves does not count: the player did
        not change a rule).

        :raises LevelError: when the level cannot be run.
        """
        given = level if isinstance(level, Level) else Level.from_dict(level)
        self.level: Level = search_level(given)
        self.board: Board = start_board(self.level)
        self.codec = KeyCodec(self.level)
        self._settle: Callable[[Board], None] = (
            settle_core if settles_here(self.level) else _engine_settle
        )
        self.hands_off = hands_off
        self._slots = self.codec.values(self.board)
        self.root: bytes = self.codec.pack(self._slots)

    def successors(self, key: bytes) -> list[Successor]:
        """Every accepted move from the state ``key``, with its result, in move order."""
        return [(letter, child, won) for letter, child, won, _ in self.children(key, _alive)]

    def children(self, key: bytes, rate: Rating) -> list[Child]:
        """Like ``successors``, each child also rated by ``rate`` on the board standing in it.

        A child from which the game can never go on (see ``is_dead``) is
        rated :data:`DEAD` without calling ``rate``.
        """
        self._jump(key)
        board = self.board
        codec = self.codec
        settle = self._settle
        mark = board.checkpoint()
        at_root = key == self.root
        found: list[Child] = []
        for letter, vector in MOVES:
            if vector is None and not at_root and not self._wait_can_change(board):
                continue
            if vector is not None and not move_player(board, vector, None):
                board.take_journal()
                continue
            if self.hands_off and pushes_a_word(board, board.journal):
                board.rewind(mark, board.take_journal())
                continue
            settle(board)
            journal = board.take_journal()
            won = board.won
            value = DEAD if not won and self.is_dead(board) else rate(board)
            found.append((letter, codec.successor(board, self._slots, journal), won, value))
            board.rewind(mark, journal)
        return found

    def is_dead(self, board: Board) -> bool:
        """Whether the settled ``board`` can never move again: no YOU, and waiting changes nothing.

        With nothing YOU every move is refused, and where a wait cannot
        change anything (see ``_wait_can_change``) it leads back to this very
        state; so no win is reachable from it and a search need not expand it.
        """
        return board.control_lost and not self._wait_can_change(board)

    def _jump(self, key: bytes) -> None:
        """Bring the board to the state ``key`` by changing only what differs."""
        codec, board = self.codec, self.board
        target = codec.unpack(key)
        current = self._slots
        if target == current:
            return
        entries = codec.changes(board, current, target)
        if entries:
            board.revert(entries)
        board.phases[:] = codec.phases(target)
        board.refresh_rules()
        self._slots = target

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


def _engine_settle(board: Board) -> None:
    """The engine's own steps 4 to 10, with no events built."""
    settle_turn(board, None)


def pushes_a_word(board: Board, journal: list[JournalEntry]) -> bool:
    """Whether the player's movement just journalled moved a word tile.

    Call it between ``move_player`` and ``settle_turn``: then every journal
    entry is a move of the player's own phase.
    """
    is_word = board.is_word
    return any(is_word[entry[0]] for entry in journal)
