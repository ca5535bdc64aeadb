"""Progress bars on stderr for long searches, shown only when stderr is a terminal.

``miau solve`` and ``miau check`` share them; this is the only place the
solver commands import ``rich``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from miau.solver.search import Progress as ProgressCallback

__all__ = ["level_bar", "search_bar"]


def _bar(columns: Sequence[Any]) -> Progress | None:
    """A progress display on stderr, or None when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None
    return Progress(*columns, console=Console(stderr=True), transient=True, redirect_stdout=False)


@contextmanager
def search_bar(label: str, budget: int) -> Iterator[ProgressCallback | None]:
    """A bar of expanded states against the budget, for one long search."""
    bar = _bar(
        [
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed:,.0f} states"),
            TimeElapsedColumn(),
        ]
    )
    if bar is None:
        yield None
        return
    with bar:
        task = bar.add_task(label, total=budget)
        yield lambda expanded: bar.update(task, completed=expanded)


@contextmanager
def level_bar(count: int) -> Iterator[Callable[[], None]]:
    """A bar of finished levels, for levels solved in parallel; yields ``advance()``."""
    bar = _bar([TextColumn("levels"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()])
    if bar is None:
        yield lambda: None
        return
    with bar:
        task = bar.add_task("levels", total=count)
        yield lambda: bar.update(task, advance=1)
