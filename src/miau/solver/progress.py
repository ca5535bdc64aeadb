"""The solver's progress callback class, the one solver class other code subclasses.

It lives in a module of its own because the compiled build (``setup.py``,
``MIAU_COMPILE=1``) leaves this module interpreted: a class compiled by
mypyc cannot be subclassed by interpreted code (the server's and the
studio's reporters), and a callback is called only every thousand or so
expansions, so compiling it would gain nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class SearchProgress:
    """A progress callback that also hears how deep the search is and how many states it has seen.

    An instance is a :data:`Progress` (calling it with a count alone works),
    so it can be passed wherever one is taken, ``check_level`` included;
    ``solve`` recognises it and calls :meth:`report` instead. Subclasses
    override :meth:`report`.
    """

    def __call__(self, expanded: int) -> None:
        """The plain :data:`Progress` call, for code that knows only the count."""
        self.report(expanded, 0, 0)

    def report(self, expanded: int, depth: int, seen: int) -> None:
        """Hear how far the search has come (the base class ignores it).

        ``expanded``: states expanded so far; ``depth``: moves from the start
        to the states being expanded now; ``seen``: distinct states reached,
        the start included.
        """


class OutOfTime(Exception):
    """A search passed the deadline :func:`deadline` set before its answer."""


_deadline: ContextVar[float | None] = ContextVar("miau_solver_deadline", default=None)


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Within the block, every search raises :class:`OutOfTime` once ``time.monotonic() >= at``.

    A search checks when it starts and every ``DEADLINE_EVERY`` expansions
    (``miau.solver.search``; ``solve``, ``solve_any`` and the held searches of
    ``miau.solver.ideas``),
    so a job made of many searches (the editor's Suggest: an evolution,
    then the finishing step's solves and idea searches) keeps a hard time
    cap without any search knowing about it; no threads or signals, so it
    works under Pyodide too. None lifts the deadline; an inner block
    cannot give a later deadline than the outer one.
    """
    outer = _deadline.get()
    if outer is not None and (at is None or at > outer):
        at = outer
    token = _deadline.set(at)
    try:
        yield
    finally:
        _deadline.reset(token)


def check_deadline() -> float | None:
    """Raise :class:`OutOfTime` past the current deadline; the deadline (None: there is none)."""
    at = _deadline.get()
    if at is not None and time.monotonic() >= at:
        raise OutOfTime
    return at
