"""Can I still win?: from a game in progress, whether a win is still reachable.

``can_still_win(level, moves)`` replays the player's log (``U D L R W``,
``Z`` for undo, ``X`` for restart, the log letters of
``miau.server.session``) on the solver's own successor function, so the
state it ends in is the state the engine's ``Game`` ends in, and then
searches from that state:

- ``WINNABLE``: a win was found (or the game is already won);
- ``NOT_WINNABLE``: every state reachable from here was tried and none
  wins; ``undos_back`` then says how many undos take the game back to the
  nearest state from which a win is still reachable (searched the same way,
  walking back through the undo history);
- ``UNKNOWN``: the budget ran out before either was shown.

The answer never carries moves: the search knows a way to win when it says
``WINNABLE``, but a hint that never auto-solves must not hand it out.

Searching from a given state needs no new entry into the solver: an
``Expander`` expands any state given by its key, so the replay yields the
key and the search starts there; ``solve`` and its speed are untouched.

Reuse between the searches: a state from which an exhaustive search found
no win is dead, and so is every state it reached. Walking back through the
history, each earlier state can reach the later ones, so those dead states
are never expanded again.

A witness speeds up the other answer: a move log from the start that wins
(a level's stored solution) proves every state along it winnable, so a
search stops as soon as it reaches one of them, and a game still on that
line is answered without searching at all. The witness is replayed, not
trusted: one that does not end in a win (a stale solution of an edited
draft) proves nothing and is set aside.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

from miau.engine.level import Level
from miau.engine.pickling import init_arguments
from miau.solver.best_first import (
    HEURISTIC_WEIGHT,
    MOVE_WEIGHT,
    Shown,
    distance_to_win,
    is_novel,
)
from miau.solver.successors import DEAD, Expander

DEFAULT_WINNABLE_EXPANSIONS: Final = 200_000
"""Expansions one answer may spend in all (the search from the state and the walk back)."""

STEP_LETTERS: Final = frozenset("UDLRW")
"""The move letters of a log."""

UNDO_LETTER: Final = "Z"
RESTART_LETTER: Final = "X"

_CLOCK_EVERY: Final = 256
"""Expansions between two looks at the clock, when a time budget is given."""


class Verdict(Enum):
    """What ``can_still_win`` could tell."""

    WINNABLE = "winnable"
    NOT_WINNABLE = "not winnable"
    UNKNOWN = "unknown"
    """The budget ran out first: "could not tell in time"."""


@dataclass(frozen=True, slots=True)
class WinnableAnswer:
    """The answer to "can I still win?", without any moves in it.

    ``undos_back`` is set for ``NOT_WINNABLE`` when the walk back through the
    undo history found a winnable state within the budget: the fewest undos
    that reach one (None when the budget ran out first, or when no state in
    the history is winnable, e.g. right after a restart of an unwinnable level).
    """

    verdict: Verdict
    undos_back: int | None
    won: bool
    """Whether the game is already won."""
    turns: int
    """Turns in the undo history of the replayed game (what ``Z`` can take back)."""
    expanded: int
    """States expanded to answer, the walk back included."""
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The answer as a JSON-ready record."""
        return {
            "verdict": self.verdict.value,
            "undosBack": self.undos_back,
            "won": self.won,
            "turns": self.turns,
            "expanded": self.expanded,
            "seconds": round(self.seconds, 4),
        }

    def __reduce__(self) -> tuple[type[WinnableAnswer], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


class MoveLogError(ValueError):
    """A move log holds a letter ``can_still_win`` does not replay."""


@dataclass(slots=True)
class SearchBudget:
    """Expansions (and, when ``deadline`` is given, time) one answer may spend."""

    expansions: int
    deadline: float | None
    spent: int = 0

    @property
    def left(self) -> int:
        """Expansions not spent yet."""
        return max(0, self.expansions - self.spent)

    def take(self) -> bool:
        """Spend one expansion; False when none is left (or time is up)."""
        if self.spent >= self.expansions:
            return False
        self.spent += 1
        if (
            self.deadline is not None
            and self.spent % _CLOCK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            self.expansions = self.spent
        return True


def replay_history(expander: Expander, moves: str) -> list[tuple[bytes, bool]]:
    """The undo history after ``moves``, as ``(key, won)``, the state now last.

    A refused move (blocked, nothing YOU, or any move after a win) adds
    nothing, as in ``Game``; a wait that provably changes nothing (the
    successor function leaves it out) is still a turn of its own; ``Z``
    takes back the last turn (a no-op without one), ``X`` goes back to the
    start with no history.

    :raises MoveLogError: for a letter that is not ``U D L R W Z X``.
    """
    start = (expander.root, False)
    history = [start]
    for index, raw in enumerate(moves):
        letter = raw.upper()
        if letter == UNDO_LETTER:
            if len(history) > 1:
                history.pop()
        elif letter == RESTART_LETTER:
            history = [start]
        elif letter in STEP_LETTERS:
            key, won = history[-1]
            if won:
                continue
            found = next(
                ((child, wins) for move, child, wins in expander.successors(key) if move == letter),
                None,
            )
            if found is not None:
                history.append(found)
            elif letter == "W":
                history.append((key, False))
        else:
            raise MoveLogError(
                f"move {index + 1} is {raw!r}; a move log holds U D L R W, Z (undo), X (restart)"
            )
    return history


@dataclass(slots=True)
class Known:
    """What earlier searches of one level proved: states that can still win, and ones that cannot."""

    winnable: set[bytes] = field(default_factory=set)
    dead: set[bytes] = field(default_factory=set)


BREADTH_FIRST_SHARE: Final = 0.5
"""The share of a search's budget spent breadth-first before best-first search takes over."""


def search_win(expander: Expander, start: bytes, budget: SearchBudget, known: Known) -> bool | None:
    """Whether a win is reachable from ``start``: True, False, or None when the budget ran out.

    Two passes. Breadth-first first, with :data:`BREADTH_FIRST_SHARE` of
    what is left of the budget: it expands fastest (a walk region at a
    time, see ``Expander.region``: the states the player walks to freely
    are expanded together and only the moves leaving them are played) and
    it is what a False answer needs, every reachable state expanded. When it runs out, best-first
    search in ``solve_any``'s order takes the rest: a win many moves away
    in a large space is usually found after far fewer expansions that way
    (the two orders fail on different levels, so one backs up the other).

    ``known`` is read and grown: a state in ``known.dead`` is not
    expanded, reaching one in ``known.winnable`` is a win; a True answer
    adds the line from ``start`` to the win to ``known.winnable``, a False
    one every state reached to ``known.dead``.
    """
    if start in known.dead:
        return False
    if start in known.winnable:
        return True
    share = SearchBudget(int(budget.left * BREADTH_FIRST_SHARE), budget.deadline)
    found = _breadth_first(expander, start, share, known)
    budget.spent += share.spent
    if found is not None:
        return found
    return _best_first(expander, start, budget, known)


def _breadth_first(
    expander: Expander, start: bytes, budget: SearchBudget, known: Known
) -> bool | None:
    """``search_win``'s first pass, in breadth-first order, a walk region at a time.

    Each state taken from the frontier is expanded with its whole region
    (``Expander.region``: the states its player walks to freely, all of
    which can reach each other); every state of the region counts as one
    expansion of the budget, as if expanded alone.
    """
    parents: dict[bytes, bytes | None] = {start: None}
    expanded: set[bytes] = set()
    frontier: list[tuple[bytes, int | None]] = [(start, None)]
    while frontier:
        layer: list[tuple[bytes, int | None]] = []
        for key, skip in frontier:
            if key in expanded:
                continue
            states, leaving = expander.region(key, skip)
            for state, came_from in states:
                if not budget.take():
                    return None
                expanded.add(state)
                if state in parents:
                    continue
                if state in known.winnable:
                    parents[state] = came_from
                    _remember_line(known.winnable, parents, state)
                    return True
                parents[state] = came_from
            for source, (_, child, won, rating, back) in leaving:
                if won or child in known.winnable:
                    _remember_line(known.winnable, parents, source)
                    return True
                if child in parents or child in known.dead:
                    continue
                parents[child] = source
                if rating != DEAD:
                    layer.append((child, back))
        frontier = layer
    known.dead.update(parents)
    return False


def _best_first(
    expander: Expander, start: bytes, budget: SearchBudget, known: Known
) -> bool | None:
    """``search_win``'s second pass, in ``solve_any``'s order."""
    parents: dict[bytes, bytes | None] = {start: None}
    queue: list[tuple[int, int, int, int, bytes, int | None]] = [(0, 0, 0, 0, start, None)]
    shown: Shown = {}
    found = 0
    while queue:
        _, _, moves_made, _, key, skip = heapq.heappop(queue)
        if not budget.take():
            return None
        for _, child, won, rating, back in expander.children(key, distance_to_win, skip):
            if won or child in known.winnable:
                _remember_line(known.winnable, parents, key)
                return True
            if child in parents or child in known.dead:
                continue
            parents[child] = key
            if rating != DEAD:
                found += 1
                priority = HEURISTIC_WEIGHT * rating + MOVE_WEIGHT * (moves_made + 1)
                tier = 0 if is_novel(shown, rating, key, child) else 1
                heapq.heappush(queue, (tier, priority, moves_made + 1, found, child, back))
    known.dead.update(parents)
    return False


def _remember_line(winnable: set[bytes], parents: Mapping[bytes, bytes | None], key: bytes) -> None:
    """Add ``key`` and every state on the line that led to it to ``winnable``."""
    step: bytes | None = key
    while step is not None:
        winnable.add(step)
        step = parents[step]


def witnessed_states(expander: Expander, witness: str | None) -> set[bytes]:
    """The states along ``witness`` when it is a move log that wins from the start; else none.

    A log letter ``witness`` cannot hold (it is data from a pack) proves
    nothing either: the answer is the empty set, never an error.
    """
    if not witness:
        return set()
    try:
        history = replay_history(expander, witness)
    except MoveLogError:
        return set()
    return {key for key, _ in history} if history[-1][1] else set()


def can_still_win(
    level: Level | Mapping[str, Any],
    moves: str,
    *,
    max_expansions: int = DEFAULT_WINNABLE_EXPANSIONS,
    max_seconds: float | None = None,
    expander: Expander | None = None,
    witness: str | None = None,
) -> WinnableAnswer:
    """Whether the game of ``level`` played as ``moves`` can still be won, within a budget.

    ``max_expansions`` bounds the states expanded in all; ``max_seconds``,
    when given, also bounds the time (checked every few hundred expansions).
    ``expander`` lets a caller that asks many times about one level reuse
    its successor function (it must be made from the same level).
    ``witness``, a move log believed to win the level from its start (its
    stored solution), is replayed first: when it does win, every state
    along it counts as winnable (see the module's notes).

    :raises LevelError: when the level cannot be run.
    :raises MoveLogError: when ``moves`` holds a letter that is not a log letter.
    """
    started = time.perf_counter()
    expander = expander if expander is not None else Expander(level)
    history = replay_history(expander, moves)
    deadline = None if max_seconds is None else started + max_seconds
    budget = SearchBudget(max_expansions, deadline)
    key, won = history[-1]
    turns = len(history) - 1

    def answer(verdict: Verdict, undos_back: int | None = None) -> WinnableAnswer:
        seconds = time.perf_counter() - started
        return WinnableAnswer(verdict, undos_back, won, turns, budget.spent, seconds)

    if won:
        return answer(Verdict.WINNABLE)
    known = Known(winnable=witnessed_states(expander, witness))
    found = search_win(expander, key, budget, known)
    if found is None:
        return answer(Verdict.UNKNOWN)
    if found:
        return answer(Verdict.WINNABLE)
    return answer(Verdict.NOT_WINNABLE, _undos_back(expander, _earlier(history), budget, known))


def _earlier(history: list[tuple[bytes, bool]]) -> Iterable[tuple[int, bytes]]:
    """The states of the history before the last, nearest first, with the undos that reach them."""
    for undos in range(1, len(history)):
        yield undos, history[-1 - undos][0]


def _undos_back(
    expander: Expander, earlier: Iterable[tuple[int, bytes]], budget: SearchBudget, known: Known
) -> int | None:
    """The fewest undos to a winnable state, or None when the budget ran out or none is."""
    for undos, key in earlier:
        found = search_win(expander, key, budget, known)
        if found is None:
            return None
        if found:
            return undos
    return None


def first_fatal_move(
    level: Level | Mapping[str, Any],
    solution: str,
    *,
    max_expansions: int = DEFAULT_WINNABLE_EXPANSIONS,
    expander: Expander | None = None,
) -> str | None:
    """The first move log that leaves ``solution`` with one losing move, or None if none does.

    Walks the states along ``solution``; from each, tries the other
    accepted moves in move order and returns ``solution``'s prefix plus the
    first move after which no win is reachable (proved by an exhaustive
    search within ``max_expansions``; a move it cannot decide is passed
    over). For tests and benchmarks: a deliberately fatal move.

    :raises MoveLogError: when ``solution`` holds a letter that is not a log letter.
    """
    expander = expander if expander is not None else Expander(level)
    history = replay_history(expander, solution)
    # Every state along a winning solution can still win.
    known = Known(winnable={key for key, _ in history})
    for played in range(len(solution)):
        prefix = solution[:played]
        key, won = replay_history(expander, prefix)[-1]
        if won:
            return None
        for letter, child, wins in expander.successors(key):
            if wins or letter == solution[played]:
                continue
            if search_win(expander, child, SearchBudget(max_expansions, None), known) is False:
                return prefix + letter
    return None
