"""The static site's studio: the editor's solve, check, depth and suggest jobs, in a page worker.

Under Pyodide in ``js/studio-worker.js``, one job at a time. The worker
calls :func:`run_job` and posts its progress as the server's studio does;
cancelling (or the page's time cap) terminates the worker, as the server
terminates its worker process. The answer is the server's studio frame
(``solved``, ``checked``, ``profiled``, ``suggested`` or ``error``), so the
editor cannot tell them apart. Standard library only (``miau.generate`` is
imported only when a ``suggest`` job runs).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from miau.play.problems import problems_json
from miau.play.studio_levels import (
    STUDIO_MAX_EXPANSIONS,
    LoadedLevel,
    load_one_level,
    refusal,
)
from miau.play.studio_suggest import (
    GenerationReport,
    SuggestOptions,
    VariationReport,
    run_suggest,
    suggest_options,
)
from miau.solver.check import check_level
from miau.solver.depth import depth_profile
from miau.solver.levels import LevelSpec
from miau.solver.search import SearchProgress, solve

__all__ = ["PROGRESS_SECONDS", "run_job"]

PROGRESS_SECONDS = 0.2
"""The shortest time between two progress reports, as on the server."""

Report = Callable[[int, int, int, int, float], None]
"""``report(expanded, depth, seen, rate, seconds)``."""


class _Reporter(SearchProgress):
    def __init__(self, report: Report) -> None:
        self.send = report
        self.job_start = self.search_start = self.last_sent = time.monotonic()
        self.last_expanded = 0

    def report(self, expanded: int, depth: int, seen: int) -> None:
        now = time.monotonic()
        if expanded < self.last_expanded:
            self.search_start = now  # a check's second search counts its rate from its start
        self.last_expanded = expanded
        if now - self.last_sent < PROGRESS_SECONDS:
            return
        self.last_sent = now
        elapsed = now - self.search_start
        self.send(
            expanded,
            depth,
            seen,
            round(expanded / elapsed) if elapsed > 0 else 0,
            now - self.job_start,
        )


def _report(loaded: LoadedLevel, level: Any) -> dict[str, Any]:
    """A check's report, as the server's studio sends it: problems, how many more, the level."""
    report: dict[str, Any] = {"problems": problems_json(loaded.issues), "level": level}
    if loaded.left_out:
        report["moreProblems"] = loaded.left_out
    return report


def run_job(
    kind: str,
    job: str,
    pack_json: str,
    max_expansions: int | None,
    report: Report,
    options_json: str | None = None,
    report_generation: GenerationReport | None = None,
    report_variation: Callable[[str], None] | None = None,
) -> str:
    """Run one ``solve``, ``check``, ``depth`` or ``suggest`` job on a one-level pack.

    ``options_json`` holds a ``suggest``'s ``seconds``, ``count`` and
    ``seed`` as its frame does (read by ``miau.play.studio_suggest``, as
    the server reads them); ``report_generation`` hears its progress and
    ``report_variation`` each variation as soon as it is found (as JSON
    text: the page parses it). Returns the answer frame as JSON.
    """
    started = time.monotonic()
    if kind == "suggest":
        try:
            options = suggest_options(json.loads(options_json or "{}"))
        except ValueError as error:
            return _error(job, "bad-message", str(error))
    loaded = load_one_level(json.loads(pack_json))
    spec = loaded.spec
    if spec is None:
        if kind == "check":
            answer: dict[str, Any] = {
                "type": "checked",
                "job": job,
                "report": _report(loaded, None),
            }
            return json.dumps(answer)
        return _error(job, "bad-message", refusal(loaded.issues, loaded.left_out))
    budget = min(spec.budget(max_expansions), STUDIO_MAX_EXPANSIONS)
    progress = _Reporter(report)
    try:
        if kind == "solve":
            result = solve(spec.data, max_expansions=budget, progress=progress)
            return json.dumps({"type": "solved", "job": job, "result": result.to_json()})
        if kind == "depth":
            profile = depth_profile(spec.data, max_expansions=budget, ideas=False)
            return json.dumps({"type": "profiled", "job": job, "profile": profile.to_json()})
        if kind == "suggest":
            found = None
            if report_variation is not None:
                send = report_variation

                def found(variation: dict[str, Any]) -> None:
                    send(json.dumps(variation))

            suggestion = _suggest(spec, options, report_generation, found, started)
            return json.dumps({"type": "suggested", "job": job, **suggestion})
        checked = check_level(spec, max_expansions=budget, progress=progress)
        report_json = _report(loaded, checked.to_json())
        return json.dumps({"type": "checked", "job": job, "report": report_json})
    except MemoryError:
        message = f"The {kind} job ran out of the page's memory; make the level smaller or give a lower cap."
    except Exception as error:
        message = f"The {kind} job stopped with an error: {error}"
    return _error(job, "failed", message)


def _error(job: str, code: str, message: str) -> str:
    """An ``error`` frame as JSON."""
    return json.dumps({"type": "error", "job": job, "code": code, "message": message})


def _suggest(
    spec: LevelSpec,
    options: SuggestOptions,
    report: GenerationReport | None,
    found: VariationReport | None,
    started: float,
) -> dict[str, Any]:
    """Evolve variations of the level, reporting at most every :data:`PROGRESS_SECONDS`."""
    return run_suggest(spec, options, report, started=started, every=PROGRESS_SECONDS, found=found)
