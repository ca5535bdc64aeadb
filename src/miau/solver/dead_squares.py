"""Static dead squares: cells a word tile pushed into can never leave for a place where it counts.

Sokoban's dead square is a cell from which a box can never reach a goal
(a non-goal corner, a corridor along a wall). Miau has no goal squares;
what a pushed word is for is a sentence. So here a *place that matters*
for a word is a cell where a sentence through it is possible at all,
given the cells around it that no word can ever occupy:

- a noun (subject or value) needs the two cells after it or the two
  before it on one axis (``NOUN IS X`` / ``X IS NOUN``, ``A AND B ...``);
- an operator (``IS``, ``AND``) needs the cell before and the cell after;
- a property needs the two cells before it (``X IS YOU``);

where "before" is left or above (sentences read left to right and top
to bottom). A cell is dead for a kind of word when, from it, no cell that
matters for that kind can be reached by pushing, and some word of that
kind can be pushed there at all: a cell no word of a kind can ever reach
is never listed for that kind, and a cell no word can reach is not listed
(it would mark a square no play touches; a corner of the bottom row, say,
when every operator starts on the top edge, which no push can leave).

Why pushing only: in core levels a word never moves on its own (no rule
makes a word YOU, and automata's actors are objects), so a word moves
only as part of a push chain, and to move along a direction it needs a
pusher in the cell behind it and room in the cell ahead. Where those
cells are a *fixed wall*, it cannot move that way, whatever else happens.
The walk over pushes ignores every other thing on the board (they can
only block more), so the cells it reaches are a superset of where the
word can really go, and a cell it finds dead is provably dead.

Fixed walls are what can be proved so:

- the board's edge, always;
- when the caller walked the whole reachable space (``depth_profile``
  does, within its budget), the cells of objects that are STOP and not
  PUSH or YOU, in the same cell, in every reachable state, and share
  their cell with nothing else at the start. That proof covers every
  rule the level can ever form, so no rule can make them passable. It is
  not made for levels with automata (they push under the rules of the
  middle of a turn) or Clockwork pairs (a pair may enter a STOP cell).

Levels that read the Tier-1 vocabulary are not analysed (``TEXT IS
YOU``, ``MOVE`` and the rest can move words by themselves): no square
is reported for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.engine.vocabulary import OPERATORS
from miau.solver.reduction import search_level

NOUN, OPERATOR, PROPERTY = "noun", "operator", "property"
WORD_KINDS: Final = (NOUN, OPERATOR, PROPERTY)
"""The kinds of word the analysis tells apart, in the order a square lists them."""

_AXES: Final = ((1, 0), (0, 1))
_DIRECTIONS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True, slots=True)
class DeadSquare:
    """A cell that is dead for the word kinds ``kinds`` (see the module docstring).

    Each kind listed has a word that can be pushed into the cell and, once
    there, can never reach a place where a sentence through it is possible.
    """

    x: int
    y: int
    kinds: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{x, y, kinds}``."""
        return {"x": self.x, "y": self.y, "kinds": list(self.kinds)}

    def __reduce__(self) -> tuple[type[DeadSquare], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


def analysable(level: Level) -> bool:
    """Whether the analysis applies: the level plays as a core one (no Tier-1 words)."""
    return not search_level(level).vocabulary


def word_kind(level: Level, text: str) -> str:
    """The kind of a word's text: operator, property or noun."""
    if text in OPERATORS:
        return OPERATOR
    return PROPERTY if text in level.properties else NOUN


def find_dead_squares(
    level: Level, fixed_walls: Iterable[int] | None = None
) -> tuple[DeadSquare, ...]:
    """The cells dead for some kind of word present in ``level``, in row-major order.

    ``fixed_walls``: cells (``y * width + x``) proved to block in every
    reachable state (see the module docstring); the board's edge is
    always one. A kind is listed for a cell only when some word of that
    kind can be pushed into it, and cells that are walls themselves are
    never listed.
    """
    if not analysable(level):
        return ()
    walls = frozenset(fixed_walls or ())
    width, height = level.width, level.height

    def free(x: int, y: int) -> bool:
        return 0 <= x < width and 0 <= y < height and y * width + x not in walls

    reachable = _reachable_by_kind(level, free)
    kinds = [kind for kind in WORD_KINDS if kind in reachable]
    squares: list[DeadSquare] = []
    for y in range(height):
        for x in range(width):
            # Only the kinds whose words can get here: a square no word reaches gets no mark.
            arriving = [kind for kind in kinds if (x, y) in reachable[kind]]
            if not arriving or not free(x, y):
                continue
            reach = _pushable_reach(x, y, free)
            dead = tuple(
                kind
                for kind in arriving
                if not any(_matters(kind, px, py, free) for px, py in reach)
            )
            if dead:
                squares.append(DeadSquare(x, y, dead))
    return tuple(squares)


def _reachable_by_kind(
    level: Level, free: Callable[[int, int], bool]
) -> dict[str, set[tuple[int, int]]]:
    """For each kind of word the level has, every cell one of its words could be pushed to.

    The union of the words' pushable reaches from where they start: a superset
    of where they can really go, like the reach itself, so a cell outside it
    provably never holds a word of that kind.
    """
    reachable: dict[str, set[tuple[int, int]]] = {}
    for ident in level.word_ids:
        start = level.xy(level.start_positions[ident])
        cells = reachable.setdefault(word_kind(level, level.texts[ident]), set())
        # A start inside the cells already found adds nothing: whatever a push takes it
        # to, a push takes the word that can reach it there too.
        if start not in cells:
            cells |= _pushable_reach(*start, free)
    return reachable


def _pushable_reach(x: int, y: int, free: Callable[[int, int], bool]) -> set[tuple[int, int]]:
    """The cells a word at ``(x, y)`` could be pushed to, counting fixed walls only."""
    reach = {(x, y)}
    stack = [(x, y)]
    while stack:
        cx, cy = stack.pop()
        for dx, dy in _DIRECTIONS:
            ahead = (cx + dx, cy + dy)
            if ahead in reach or not free(*ahead) or not free(cx - dx, cy - dy):
                continue
            reach.add(ahead)
            stack.append(ahead)
    return reach


def _matters(kind: str, x: int, y: int, free: Callable[[int, int], bool]) -> bool:
    """Whether a word of ``kind`` at ``(x, y)`` could be part of a sentence on some axis."""
    for dx, dy in _AXES:
        before = free(x - dx, y - dy) and free(x - 2 * dx, y - 2 * dy)
        if kind == PROPERTY and before:
            return True
        if kind == OPERATOR and free(x - dx, y - dy) and free(x + dx, y + dy):
            return True
        if kind == NOUN and (before or (free(x + dx, y + dy) and free(x + 2 * dx, y + 2 * dy))):
            return True
    return False
