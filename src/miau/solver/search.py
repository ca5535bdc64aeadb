"""Breadth-first search for a shortest winning move string.

Exactness: every accepted turn (a wait included) is one move, and the
search visits states in order of their distance from the start, so the
first win it generates is a shortest one. States are merged only when
their keys are equal (see ``miau.solver.keys``), which never merges states
that play differently. Among shortest solutions the one returned is the
first in move order ``U D L R W``, compared letter by letter.

Moves are ``U D L R`` and, wherever a wait can change anything, ``W``: on
every state of a level with automata, at the start of any level, and on a
state where some object has a pending transformation. Elsewhere a wait
provably leads back to the same state (see ``Expander``), so leaving it
out loses no solution.

Winning states are terminal (the engine rejects moves after a win) and are
never expanded. A win is checked before the visited set: the start state
has never been evaluated for a win, so the first move can reach a winning
state with the start's own key.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any, Final

from miau.engine.level import Level
from miau.solver.outcome import Outcome, SearchResult
from miau.solver.progress import SearchProgress as SearchProgress
from miau.solver.progress import check_deadline
from miau.solver.successors import DEAD, Expander, HeldRule

DEFAULT_MAX_EXPANSIONS: Final = 300_000
"""The expansion budget when neither the caller nor the level's ``solverMax`` gives one."""

PROGRESS_EVERY: Final = 1024
"""How many expansions pass between two calls of the progress callback."""

DEADLINE_EVERY: Final = 128
"""How many expansions pass between two looks at a job's deadline (when one is set): an
expansion can take a millisecond on a loaded machine, so a job overruns its cap by little."""

Progress = Callable[[int], None]
"""Called with the number of expanded states so far."""


Reporter = Callable[[int, int, int], None]
"""``solve``'s own progress call: expanded, depth, seen."""


def solve(
    level: Level | Mapping[str, Any],
    *,
    max_expansions: int = DEFAULT_MAX_EXPANSIONS,
    max_memory: int | None = None,
    hands_off: bool = False,
    hold: HeldRule | None = None,
    progress: Progress | None = None,
) -> SearchResult:
    """Find a shortest winning move string for ``level``.

    ``max_expansions`` bounds how many states are expanded before the search
    gives up with ``Outcome.LIMIT``; so does ``max_memory``, in bytes held by
    the visited states and the frontier (:func:`table_bytes`), checked every
    :data:`PROGRESS_EVERY` expansions. With ``hands_off``, only moves in which
    no word tile moves are allowed (so ``SOLVED`` means the level can be won
    without ever changing a rule by pushing). With ``hold``, moves that leave
    that rule otherwise than it was at the start are left out (see
    ``Expander``). ``progress`` is called every
    :data:`PROGRESS_EVERY` expansions and once at the end; a
    :class:`SearchProgress` also hears the depth and the states seen.

    A child that can never move again (nothing is YOU and waiting changes
    nothing, ``Expander.is_dead``) is remembered but never expanded: it has
    no successor but itself, so no shortest solution passes through it.

    :raises LevelError: when the level cannot be run.

    >>> from miau.packs import load_pack
    >>> from miau.worlds import shipped_pack_path
    >>> level = load_pack(shipped_pack_path("tutorial")).level("first-steps")
    >>> result = solve(level.data)
    >>> result.outcome, result.moves, result.shortest
    (<Outcome.SOLVED: 'solved'>, 'RRRRRR', True)
    >>> solve(level.data, max_expansions=2).outcome
    <Outcome.LIMIT: 'limit'>
    """
    started = time.perf_counter()
    expander = Expander(level, hands_off=hands_off, hold=hold)
    root = expander.root
    key_bytes = sys.getsizeof(root)
    parents: dict[bytes, bytes | None] = {root: None}
    frontier = [root]
    layer: list[bytes] = []
    # Beside each frontier key, its way back to the state that found it (see
    # ``Expander.children``): that move leads to a state already seen.
    frontier_backs: list[int | None] = [None]
    layer_backs: list[int | None] = []
    expanded = 0
    depth = 0
    report = reporter_for(progress)
    # A job's deadline (``miau.solver.progress.deadline``): checked now and every DEADLINE_EVERY expansions.
    stop_at = check_deadline()

    def held() -> int:
        return table_bytes(parents, key_bytes) + _lists_bytes(
            frontier, layer, frontier_backs, layer_backs
        )

    def finish(outcome: Outcome, moves: str | None, stopped_by: str = "expansions") -> SearchResult:
        if report is not None:
            report(expanded, depth, len(parents))
        seconds = time.perf_counter() - started
        memory = held()
        return SearchResult(
            outcome,
            moves,
            expanded,
            len(parents),
            seconds,
            max_expansions,
            depth=depth,
            memory=memory,
            stopped_by=stopped_by,
        )

    while frontier:
        layer = []
        layer_backs = []
        for key, skip in zip(frontier, frontier_backs, strict=True):
            if expanded >= max_expansions:
                return finish(Outcome.LIMIT, None)
            expanded += 1
            if stop_at is not None and expanded % DEADLINE_EVERY == 0:
                check_deadline()
            if expanded % PROGRESS_EVERY == 0:
                if report is not None:
                    report(expanded, depth, len(parents))
                if max_memory is not None and held() > max_memory:
                    return finish(Outcome.LIMIT, None, "memory")
            for letter, child, won, rating, back in expander.children(key, None, skip):
                if won:
                    return finish(Outcome.SOLVED, path_to(expander, parents, key) + letter)
                if child not in parents:
                    parents[child] = key
                    if rating != DEAD:
                        layer.append(child)
                        layer_backs.append(back)
        frontier = layer
        frontier_backs = layer_backs
        depth += 1
    return finish(Outcome.UNSOLVABLE, None)


def table_bytes(parents: Mapping[bytes, bytes | None], key_bytes: int) -> int:
    """Bytes held by a visited table of fixed-size keys: the dict itself and one key per state.

    Every key of a level has the same length, so ``key_bytes`` (one key's
    ``sys.getsizeof``) times the count is exact for the keys; the parent
    values are references to keys already counted.
    """
    return sys.getsizeof(parents) + key_bytes * len(parents)


def _lists_bytes(*lists: list[bytes] | list[int | None]) -> int:
    """Bytes held by the frontier's lists themselves (their keys are counted in the table)."""
    return sum(sys.getsizeof(items) for items in lists)


def reporter_for(progress: Progress | None) -> Reporter | None:
    """One call shape for the search loop, whichever kind of callback the caller gave."""
    if progress is None:
        return None
    if isinstance(progress, SearchProgress):
        return progress.report
    plain = progress
    return lambda expanded, _depth, _seen: plain(expanded)


def path_to(expander: Expander, parents: Mapping[bytes, bytes | None], key: bytes) -> str:
    """The moves from the start to ``key``, rebuilt from the parent links.

    Only keys are stored while searching (it halves the memory); each link's
    move is found again as the first move, in move order, that leads from
    the parent to the child, which is the move the search took.
    """
    chain = [key]
    parent = parents[key]
    while parent is not None:
        chain.append(parent)
        parent = parents[parent]
    chain.reverse()
    letters: list[str] = []
    for before, after in pairwise(chain):
        letter = next(m for m, child, _ in expander.successors(before) if child == after)
        letters.append(letter)
    return "".join(letters)
