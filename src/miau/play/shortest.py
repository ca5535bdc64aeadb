"""The shortest known length of a level: what the win card measures the player's moves against.

One source for both hosts: :func:`~miau.play.worlds.level_json` puts it in
every level the API serves (``"shortest"``), for a world's level, a library
pack's and a shared one alike.

- A level with a stored ``solution`` (every shipped level: ``miau check``
  warns when a stored solution is longer than the solver's shortest) is
  as long as that solution is when replayed: its accepted turns.
- A level without one (a library pack's or a shared level's) gets the
  solver's shortest when breadth-first search finds it within
  :data:`SHORTEST_EXPANSIONS` states (a few tenths of a second of CPU at
  most), and ``None`` otherwise: the card then says nothing of the
  shortest rather than guess.

The budget counts states, not seconds, so both hosts (the server, and the
static site's engine in the page, which is slower) give the same answer for
the same level. Answers are kept by the level's content, so a level is
replayed or searched once per process; one search runs at a time, so a
burst of library levels takes one core's share, not every core's.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Final

from miau.engine import LevelError
from miau.packs import PackLevel
from miau.solver.check import replay_solution
from miau.solver.outcome import Outcome
from miau.solver.search import solve

__all__ = ["SHORTEST_EXPANSIONS", "shortest_known"]

SHORTEST_EXPANSIONS: Final = 10_000
"""States the solver may expand for a level with no stored solution (every shipped level
that needs fewer is solved in under 0.4 s of CPU here; one that needs more says nothing)."""

KEPT_ANSWERS: Final = 1024
"""How many levels' answers are kept (the least recently asked go first)."""

_answers: OrderedDict[str, int | None] = OrderedDict()
_answers_lock = threading.Lock()
_search_lock = threading.Lock()


def shortest_known(level: PackLevel) -> int | None:
    """The fewest moves known to win ``level``, or None when none is known cheaply.

    The stored solution's turn count when it has one that wins, else the
    solver's shortest within :data:`SHORTEST_EXPANSIONS` states.
    """
    key = _content_key(level)
    with _answers_lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    answer = _measure(level)
    with _answers_lock:
        _answers[key] = answer
        while len(_answers) > KEPT_ANSWERS:
            _answers.popitem(last=False)
    return answer


def _measure(level: PackLevel) -> int | None:
    try:
        if level.solution is not None:
            replayed = replay_solution(level.data, level.solution)
            if replayed.won:
                return replayed.turns
        with _search_lock:
            result = solve(level.data, max_expansions=SHORTEST_EXPANSIONS)
    except LevelError:
        return None  # a level the engine cannot run has no length to show
    return result.length if result.outcome is Outcome.SOLVED else None


def _content_key(level: PackLevel) -> str:
    # By content, not by identity: a library pack is parsed again after the cache drops it,
    # and the same shared level arrives in a new Pack with every link opened.
    text = json.dumps(
        [level.data, level.solution], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
