"""The solver's progress callback class, the one solver class other code subclasses.

It lives in a module of its own because the compiled build (``setup.py``,
``MIAU_COMPILE=1``) leaves this module interpreted: a class compiled by
mypyc cannot be subclassed by interpreted code (the server's and the
studio's reporters), and a callback is called only every thousand or so
expansions, so compiling it would gain nothing.
"""

from __future__ import annotations


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
