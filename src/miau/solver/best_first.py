"""Best-first search: *a* winning move string for levels too big for breadth-first search.

``solve_any`` expands the most promising state first, rated by
:func:`distance_to_win` (how far the YOU things stand from the WIN things,
or, when no WIN rule holds, how far the words of a missing ``NOUN IS WIN``
stand from forming it), weighted against the moves made (weighted A*).
Novel states go first (the width-based search of classical planning): a
child is *novel* when it shows a value of some key slot (a position, a
noun) that no state with the same rating has shown before, or is the first
with its rating. Novelty pulls the search out of the plateaus where many
states share a rating (a word that must travel far, a crowd of YOU things)
and it is what solves most of the Keke corpus's big levels. Ties go to
fewer moves and then to the order states were found, so the search is
deterministic. It merges
states by the same keys as ``solve`` and stops at the same caps with
``LIMIT``; an exhausted search is ``UNSOLVABLE`` as surely as a
breadth-first one (every reachable state was expanded). A solution it
finds wins but is **not proven shortest** (``SearchResult.shortest`` is
False): ``solve`` stays the only source of shortest solutions and of what
``miau check`` accepts.
"""

from __future__ import annotations

import dataclasses
import heapq
import sys
import time
from collections.abc import Mapping
from typing import Any, Final

from miau.engine.board import Board
from miau.engine.level import Level
from miau.engine.vocabulary import DEFEAT, IS, WIN, YOU
from miau.solver.outcome import Outcome, SearchResult
from miau.solver.progress import check_deadline
from miau.solver.search import (
    DEADLINE_EVERY,
    DEFAULT_MAX_EXPANSIONS,
    PROGRESS_EVERY,
    Progress,
    path_to,
    reporter_for,
    solve,
    table_bytes,
)
from miau.solver.successors import DEAD, Expander

QueueEntry = tuple[int, int, int, int, bytes, int | None]
"""A queued state: tier, priority, moves made, order found, key, way back (see ``solve_any``)."""

NO_WIN_RULE: Final = 20
"""Added to the distance when no WIN thing exists: a rule must be formed first, which costs moves."""

NO_GUIDE: Final = 60
"""The rating when nothing guides the search (nothing YOU, or no WIN thing and no rule to make one)."""

MOVE_WEIGHT: Final = 1
"""How much one move already made counts against a state, beside ``HEURISTIC_WEIGHT``."""

HEURISTIC_WEIGHT: Final = 3
"""How much the rating counts: above ``MOVE_WEIGHT``, the search leans greedy (weighted A*)."""


def distance_to_win(board: Board) -> int:
    """A rating of how far a settled board is from a win (0: won; lower is closer).

    The smallest Manhattan distance from a YOU thing to a WIN thing that is
    not also DEFEAT (touching one of those destroys the YOU thing first);
    when every WIN thing is DEFEAT, :data:`NO_WIN_RULE` plus the distance to
    the nearest (a rule must change first). Without a WIN thing, a rule must
    be formed: :data:`NO_WIN_RULE` plus :func:`rule_distance`, the word
    pushes that rule needs at the least and the walk to the first word to
    push. A ``vocabulary-1`` board is rated the same way through its own
    readings (FLOAT layers, conditions and MOVE make the distances rougher
    guides there, never wrong answers: a rating only orders the search).
    """
    if board.won:
        return 0
    pos, width = board.pos, board.width
    yous = [pos[i] for i in board.holders(YOU)]
    if not yous:
        return NO_GUIDE
    props = board.props
    winners = board.holders(WIN)
    targets = [pos[i] for i in winners if DEFEAT not in props(i)]
    if targets:
        return min(_manhattan(a, b, width) for a in yous for b in targets)
    if winners:
        deadly = [pos[i] for i in winners]
        return NO_WIN_RULE + min(_manhattan(a, b, width) for a in yous for b in deadly)
    missing = rule_distance(board, yous)
    return NO_GUIDE if missing is None else NO_WIN_RULE + missing


def rule_distance(board: Board, yous: list[int]) -> int | None:
    """Moves a rule ``NOUN IS WIN`` needs at the least, for a NOUN some thing on the board has.

    A noun that is WIN but names no thing on the board does as well as the
    WIN word (``ROCK IS FLAG`` under ``FLAG IS WIN`` makes WIN things). For
    every IS word and both reading directions, the WIN word nearest the
    cell after IS and the noun word nearest the cell before it: the sum of
    their Manhattan distances to those cells (each is pushed at least that
    far), plus the walk from the nearest YOU thing to a word that must move.
    None when no such rule can be formed (no WIN, IS or fitting noun word).
    """
    level = board.level
    pos, width, height = board.pos, board.width, level.height
    texts = board.noun  # a word's noun is its text (on a vocabulary-1 board it may change)
    alive = {noun for noun, members in board.by_noun.items() if members}
    # A noun that is WIN but has no thing wins as well as WIN once something becomes it.
    empty_winners = set(board.rules.holders.get(WIN, ())) - alive
    wins: list[int] = []
    nouns: list[int] = []
    verbs: list[int] = []
    for ident in board.word_ids:
        cell = pos[ident]
        if cell < 0:
            continue
        text = texts[ident]
        if text == WIN or text in empty_winners:
            wins.append(cell)
        elif text == IS:
            verbs.append(cell)
        elif text in alive:
            nouns.append(cell)
    if not wins or not nouns:
        return None
    you_points = [divmod(you, width) for you in yous]
    win_points = [(*divmod(cell, width), cell) for cell in wins]
    noun_points = [(*divmod(cell, width), cell) for cell in nouns]
    walks: dict[int, int] = {}

    def walk_to(cell: int) -> int:
        """The walk from the nearest YOU thing to ``cell`` (kept: many YOU things are common)."""
        known = walks.get(cell)
        if known is None:
            row, column = divmod(cell, width)
            known = walks[cell] = min(abs(row - r) + abs(column - c) for r, c in you_points)
        return known

    best: int | None = None
    for verb in verbs:
        row, column = divmod(verb, width)
        for (before_row, before_column), (after_row, after_column) in (
            ((row, column - 1), (row, column + 1)) if 0 < column < width - 1 else ((-1, -1),) * 2,
            ((row - 1, column), (row + 1, column)) if 0 < row < height - 1 else ((-1, -1),) * 2,
        ):
            if before_row < 0:
                continue
            # The nearest word, and among the nearest the one the YOU things reach soonest.
            win_cost, win_walk = min(
                (cost, walk_to(cell) if cost else 0)
                for cost, cell in (
                    (abs(r - after_row) + abs(c - after_column), cell) for r, c, cell in win_points
                )
            )
            noun_cost, noun_walk = min(
                (cost, walk_to(cell) if cost else 0)
                for cost, cell in (
                    (abs(r - before_row) + abs(c - before_column), cell)
                    for r, c, cell in noun_points
                )
            )
            walks_needed = [
                walk for cost, walk in ((win_cost, win_walk), (noun_cost, noun_walk)) if cost
            ]
            total = win_cost + noun_cost + min(walks_needed, default=0)
            if best is None or total < best:
                best = total
    return best


def _manhattan(one: int, other: int, width: int) -> int:
    return abs(one % width - other % width) + abs(one // width - other // width)


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
    # (tier, priority, moves made, order found, key, way back to the state that found it)
    queue: list[QueueEntry] = [(0, 0, 0, 0, root, None)]
    shown: Shown = {}
    found = 0
    expanded = 0
    deepest = 0
    report = reporter_for(progress)
    # A job's deadline (``miau.solver.progress.deadline``): checked now and every DEADLINE_EVERY expansions.
    stop_at = check_deadline()

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
        _, _, moves_made, _, key, skip = heapq.heappop(queue)
        if expanded >= max_expansions:
            return finish(Outcome.LIMIT, None)
        expanded += 1
        deepest = max(deepest, moves_made)
        if stop_at is not None and expanded % DEADLINE_EVERY == 0:
            check_deadline()
        if expanded % PROGRESS_EVERY == 0:
            if report is not None:
                report(expanded, deepest, len(parents))
            if max_memory is not None and _held(parents, queue, key_bytes) > max_memory:
                return finish(Outcome.LIMIT, None, "memory")
        child_moves = moves_made + 1
        # The way back leads to a state already in ``parents``: no need to try it.
        for letter, child, won, rating, back in expander.children(key, distance_to_win, skip):
            if won:
                return finish(Outcome.SOLVED, path_to(expander, parents, key) + letter)
            if child in parents:
                continue
            parents[child] = key
            if rating != DEAD:
                found += 1
                priority = HEURISTIC_WEIGHT * rating + MOVE_WEIGHT * child_moves
                tier = 0 if is_novel(shown, rating, key, child) else 1
                heapq.heappush(queue, (tier, priority, child_moves, found, child, back))
    return finish(Outcome.UNSOLVABLE, None)


def solve_then_any(
    level: Level | Mapping[str, Any],
    *,
    max_expansions: int = DEFAULT_MAX_EXPANSIONS,
    any_expansions: int | None = None,
    max_memory: int | None = None,
    progress: Progress | None = None,
) -> SearchResult:
    """Breadth-first search, and best-first search where it ends in LIMIT.

    The plan for a corpus of unknown levels: every level breadth-first
    search settles within ``max_expansions`` gets its shortest solution (or
    UNSOLVABLE); the rest get ``solve_any`` with ``any_expansions`` (default:
    the same budget). The result of a hand-over counts the expansions and
    seconds of both searches and records the first's in ``breadth_first``,
    so a report can say which search solved what; its memory and states
    seen are those of the search that held more.

    :raises LevelError: when the level cannot be run.
    """
    first = solve(level, max_expansions=max_expansions, max_memory=max_memory, progress=progress)
    if first.outcome is not Outcome.LIMIT:
        return first
    budget = max_expansions if any_expansions is None else any_expansions
    second = solve_any(level, max_expansions=budget, max_memory=max_memory, progress=progress)
    # The two searches never hold memory at the same time.
    larger = first if first.memory > second.memory else second
    return dataclasses.replace(
        second,
        expanded=first.expanded + second.expanded,
        seconds=first.seconds + second.seconds,
        memory=larger.memory,
        seen=larger.seen,
        breadth_first=first.expanded,
    )


Shown = dict[int, set[tuple[int, int]]]
"""Per rating, the ``(slot, value)`` pairs of the keys rated so."""


def is_novel(shown: Shown, rating: int, parent: bytes, child: bytes) -> bool:
    """Whether ``child`` is the first state with its rating, or shows a new slot value for it.

    Only the slots the move changed are looked at (the others show the
    parent's values, which the parent's own rating saw); ``shown`` learns
    the child's new values.
    """
    changed = [
        (slot, new) for slot, (old, new) in enumerate(zip(parent, child, strict=True)) if old != new
    ]
    seen = shown.get(rating)
    if seen is None:
        shown[rating] = set(changed)
        return True
    fresh = [atom for atom in changed if atom not in seen]
    seen.update(fresh)
    return bool(fresh)


def _held(
    parents: Mapping[bytes, bytes | None],
    queue: list[QueueEntry],
    key_bytes: int,
) -> int:
    """Bytes of the visited table and the queue (its tuples included)."""
    entry = sys.getsizeof((0, 0, 0, 0, b"", None)) + 4 * sys.getsizeof(1_000_000)
    return table_bytes(parents, key_bytes) + sys.getsizeof(queue) + entry * len(queue)
