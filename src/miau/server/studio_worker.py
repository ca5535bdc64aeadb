"""The inside of a studio worker process: one solve, check, depth or suggest job, through a pipe.

This module is what a spawned worker imports, so it imports nothing but the
standard library, ``miau.packs`` and ``miau.solver`` (a ``suggest`` job
also imports ``miau.generate``, standard library too, when it starts): a
worker starts in a fraction of a second and holds none of the server's state. (Spawn also
imports the server's ``__main__`` module by path, as ``__mp_main__``, unless
it was run with ``python -m``: a script that starts a server must keep its
start-up under ``if __name__ == "__main__":``, as ``miau``'s own does.) It is handed
the already loaded level (a :class:`~miau.solver.LevelSpec`, plain data);
nothing of the pack is executed.

Every message to the server is a tuple whose first item says what it is:

- ``("started", pid)`` once the worker runs;
- ``("progress", expanded, depth, seen, rate, seconds)`` at most every
  :data:`PROGRESS_SECONDS` while a search runs;
- ``("generating", candidates, solved, best_depth, seconds)`` instead, at
  most as often, while a ``suggest`` job evolves variations, and
  ``("variation", Variation.to_json())`` for each variation as soon as it
  is finished;
- ``("solved", SearchResult.to_json())``, ``("checked", LevelReport.to_json())``,
  ``("profiled", DepthProfile.to_json())`` or ``("suggested", Suggestion.to_json())``
  at the end;
- ``("failed", sentence)`` when the job raised.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from multiprocessing.connection import Connection
from typing import Any, Final, Literal

from miau.play.studio_suggest import SuggestOptions, run_suggest
from miau.solver.check import check_level
from miau.solver.depth import depth_profile
from miau.solver.levels import LevelSpec
from miau.solver.search import SearchProgress, solve

__all__ = [
    "PROGRESS_SECONDS",
    "JobKind",
    "PipeProgress",
    "run_job",
]

JobKind = Literal["solve", "check", "depth", "suggest"]

PROGRESS_SECONDS: Final = 0.2
"""The shortest time between two progress messages."""


class PipeProgress(SearchProgress):
    """Sends the search's progress down the pipe, at most every :data:`PROGRESS_SECONDS`."""

    def __init__(self, pipe: Connection, clock_start: float) -> None:
        """Report into ``pipe``; ``clock_start`` is when the job began (``time.monotonic``)."""
        self.pipe = pipe
        self.job_start = clock_start
        self.search_start = time.monotonic()
        self.last_sent = self.search_start
        self.last_expanded = 0

    def report(self, expanded: int, depth: int, seen: int) -> None:
        """Send the figures when enough time has passed since the last message."""
        now = time.monotonic()
        if expanded < self.last_expanded:
            # ``check_level`` runs a second search (HANDS-OFF) after the first: its rate
            # counts from its own start.
            self.search_start = now
        self.last_expanded = expanded
        if now - self.last_sent < PROGRESS_SECONDS:
            return
        self.last_sent = now
        elapsed = now - self.search_start
        rate = expanded / elapsed if elapsed > 0 else 0.0
        # A send to a server that is gone raises BrokenPipeError, which ends this worker:
        # a worker never outlives its server by more than one progress interval.
        self.pipe.send(("progress", expanded, depth, seen, round(rate), now - self.job_start))


def run_job(
    kind: JobKind,
    spec: LevelSpec,
    max_expansions: int,
    pipe: Connection,
    memory_bytes: int | None = None,
    niceness: int = 0,
    suggest: SuggestOptions | None = None,
    started: float | None = None,
) -> None:
    """Run one job and send its messages down ``pipe`` (the worker process's target).

    ``max_expansions`` is the budget, already clamped by the server;
    ``memory_bytes`` caps the worker's address space (none when None), so a
    search that outgrows it ends with a sentence instead of starving the
    machine; ``niceness`` lowers its priority, so the game's replies come first.
    ``suggest`` is a ``suggest`` job's budget (required for that kind);
    ``started`` is when the server began starting this worker (a
    ``time.monotonic()`` reading, one clock for every process of the
    machine), so a suggest's time budget includes the worker's start-up.
    """
    job_start = time.monotonic() if started is None else started
    if memory_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    if niceness:
        os.nice(niceness)
    try:
        pipe.send(("started", os.getpid()))
        progress = PipeProgress(pipe, job_start)
        if kind == "solve":
            result = solve(spec.data, max_expansions=max_expansions, progress=progress)
            pipe.send(("solved", result.to_json()))
        elif kind == "depth":
            profile = depth_profile(spec.data, max_expansions=max_expansions, ideas=False)
            pipe.send(("profiled", profile.to_json()))
        elif kind == "suggest":
            if suggest is None:
                raise ValueError("a suggest job needs its budget")
            pipe.send(("suggested", _suggest(spec, suggest, pipe, job_start)))
        else:
            report = check_level(spec, max_expansions=max_expansions, progress=progress)
            pipe.send(("checked", report.to_json()))
    except BrokenPipeError:
        return
    except MemoryError:
        with contextlib.suppress(OSError, MemoryError):
            megabytes = (memory_bytes or 0) // (1024 * 1024)
            pipe.send(
                (
                    "failed",
                    f"The {kind} job needed more than its {megabytes:,} MB of memory; "
                    "make the level smaller or give a lower cap.",
                )
            )
    except Exception as error:
        # The loader accepted the level, so this is an engine refusal or a bug: either way
        # the author gets a sentence, never a traceback; a server gone meanwhile hears nothing.
        with contextlib.suppress(OSError):
            pipe.send(("failed", f"The {kind} job stopped with an error: {error}"))
    finally:
        pipe.close()


def _suggest(
    spec: LevelSpec, options: SuggestOptions, pipe: Connection, job_start: float
) -> dict[str, Any]:
    """Evolve variations of the level, sending ``generating`` and ``variation`` messages."""

    def report(candidates: int, solved: int, best_depth: float, seconds: float) -> None:
        pipe.send(("generating", candidates, solved, best_depth, seconds))

    def found(variation: dict[str, Any]) -> None:
        pipe.send(("variation", variation))

    return run_suggest(
        spec, options, report, started=job_start, every=PROGRESS_SECONDS, found=found
    )
