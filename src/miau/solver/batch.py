"""Run one job per level, in this process or spread over worker processes.

Results always come back in the order of the inputs, however the workers
finish, so output built from them is deterministic. Workers are started
with ``spawn``: it does not copy the parent's threads or locks, and it
behaves the same on every platform.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

Done = Callable[[int, object], None]
"""Called with an input's index and its result as each job finishes."""


def run_all(
    job: Callable[[T], R], items: Sequence[T], *, jobs: int = 1, done: Done | None = None
) -> list[R]:
    """``[job(item) for item in items]``, on up to ``jobs`` processes.

    ``job`` and the items must pickle when ``jobs`` is above 1 (a module-level
    function, or a ``functools.partial`` of one, does).
    """
    if jobs <= 1 or len(items) <= 1:
        results: list[R] = []
        for index, item in enumerate(items):
            results.append(job(item))
            if done is not None:
                done(index, results[-1])
        return results
    # Imported here so that ``import miau.solver`` stays light (and works where
    # processes cannot be started, as in the browser's Python) until a
    # parallel batch is asked for.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    slots: dict[int, R] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=context) as pool:
        futures = {pool.submit(job, item): index for index, item in enumerate(items)}
        for future in as_completed(futures):
            index = futures[future]
            slots[index] = future.result()
            if done is not None:
                done(index, slots[index])
    return [slots[index] for index in range(len(items))]
