"""Best-first search: *a* winning move string for levels too big for breadth-first search.

``solve_any`` expands the most promising state first, rated by
:func:`distance_to_win` (how far the YOU things stand from the WIN things,
or from a WIN word when no WIN rule holds), ties broken by fewer moves and
then by the order states were found, so it is deterministic. It merges
states by the same keys as ``solve`` and stops at the same caps with
``LIMIT``; an exhausted search is ``UNSOLVABLE`` as surely as a
breadth-first one (every reachable state was expanded). A solution it
finds wins but is **not proven shortest** (``SearchResult.shortest`` is
False): ``solve`` stays the only source of shortest solutions and of what
``miau check`` accepts.
"""

from __future__ import annotations

import heapq
import sys
import time
from collections.abc import Mapping
from typing import Any, Final

from miau.engine.board import Board
from miau.engine.level import Level
from miau.engine.vocabulary import WIN, YOU
from miau.solver.outcome import Outcome, SearchResult
from miau.solver.search import (
    DEFAULT_MAX_EXPANSIONS,
    PROGRESS_EVERY,
    Progress,
    path_to,
    reporter_for,
    table_bytes,
)
from miau.solver.successors import DEAD, Expander

NO_WIN_RULE: Final = 20
"""Added to the distance when no WIN thing exists: a rule must be formed first, which costs moves."""

NO_GUIDE: Final = 60
"""The rating when nothing guides the search (no WIN thing and no WIN word, or a Tier-1 board)."""

MOVE_WEIGHT: Final = 1
"""How much one move already made counts against a state, beside ``HEURISTIC_WEIGHT``."""

HEURISTIC_WEIGHT: Final = 3
"""How much the rating counts: above ``MOVE_WEIGHT``, the search leans greedy (weighted A*)."""


def distance_to_win(board: Board) -> int:
    """A rating of how far a settled core board is from a win (0: won; lower is closer).

    The smallest Manhattan distance from a YOU thing to a WIN thing; without
    a WIN thing, :data:`NO_WIN_RULE` plus the distance from a YOU thing to
    the nearest WIN word (which must be pushed into a rule). A ``vocabulary-1``
    board reads its properties through the Tier-1 readings, which this rating
    does not consult: it rates every such state alike, :data:`NO_GUIDE`.
    """
    if board.won:
        return 0
    level = board.level
    if level.vocabulary:
        return NO_GUIDE
    pos, width = board.pos, board.width
    yous = [pos[i] for i in board.holders(YOU)]
    if not yous:
        return NO_GUIDE
    targets = [pos[i] for i in board.holders(WIN)]
    extra = 0
    if not targets:
        texts = level.texts
        targets = [pos[i] for i in level.word_ids if texts[i] == WIN and pos[i] >= 0]
        extra = NO_WIN_RULE
        if not targets:
            return NO_GUIDE
    best = min(
        abs(a % width - b % width) + abs(a // width - b // width) for a in yous for b in targets
    )
    return extra + best


def solve_any(
    level: Level | Mapping[str, Any],
    *,
    max_expansions: int = DEFAULT_MAX_EXPANSIONS,
    max_memory: int | None = None,
    progress: Progress | None = None,
) -> SearchResult:
    """Find a winning move string for ``level``, best first; not proven shortest.

    The caps and ``progress`` work as in ``solve``.

    :raises LevelError: when the level cannot be run.
    """
    started = time.perf_counter()
    expander = Expander(level)
    root = expander.root
    key_bytes = sys.getsizeof(root)
    parents: dict[bytes, bytes | None] = {root: None}
    queue: list[tuple[int, int, int, bytes]] = [(0, 0, 0, root)]
    found = 0
    expanded = 0
    deepest = 0
    report = reporter_for(progress)

    def finish(outcome: Outcome, moves: str | None, stopped_by: str = "expansions") -> SearchResult:
        if report is not None:
            report(expanded, deepest, len(parents))
        memory = _held(parents, queue, key_bytes)
        return SearchResult(
            outcome,
            moves,
            expanded,
            len(parents),
            time.perf_counter() - started,
            max_expansions,
            depth=deepest,
            memory=memory,
            stopped_by=stopped_by,
            shortest=False,
        )

    while queue:
        _, moves_made, _, key = heapq.heappop(queue)
        if expanded >= max_expansions:
            return finish(Outcome.LIMIT, None)
        expanded += 1
        deepest = max(deepest, moves_made)
        if expanded % PROGRESS_EVERY == 0:
            if report is not None:
                report(expanded, deepest, len(parents))
            if max_memory is not None and _held(parents, queue, key_bytes) > max_memory:
                return finish(Outcome.LIMIT, None, "memory")
        child_moves = moves_made + 1
        for letter, child, won, rating in expander.children(key, distance_to_win):
            if won:
                return finish(Outcome.SOLVED, path_to(expander, parents, key) + letter)
            if child in parents:
                continue
            parents[child] = key
            if rating != DEAD:
                found += 1
                priority = HEURISTIC_WEIGHT * rating + MOVE_WEIGHT * child_moves
                heapq.heappush(queue, (priority, child_moves, found, child))
    return finish(Outcome.UNSOLVABLE, None)


def _held(
    parents: Mapping[bytes, bytes | None],
    queue: list[tuple[int, int, int, bytes]],
    key_bytes: int,
) -> int:
    """Bytes of the visited table and the queue (its tuples included)."""
    entry = sys.getsizeof((0, 0, 0, b"")) + 3 * sys.getsizeof(1_000_000)
    return table_bytes(parents, key_bytes) + sys.getsizeof(queue) + entry * len(queue)
