"""A studio ``suggest`` job's options: read from the client's frame, with their limits.

Standard library only: the server's studio (``miau.server.studio``) and the
static site's in-page studio (``miau.site.studio``, under Pyodide) read a
``suggest`` frame alike and refuse the same values with the same sentences.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from miau.solver.levels import LevelSpec

if TYPE_CHECKING:
    from miau.generate.evolve import Status

__all__ = [
    "MAX_SEED",
    "SUGGEST_COUNT",
    "SUGGEST_MAX_COUNT",
    "SUGGEST_MAX_SECONDS",
    "SUGGEST_SECONDS",
    "SuggestOptions",
    "suggest_options",
    "suggestion_input",
]

SUGGEST_SECONDS: Final = 5.0
"""A ``suggest`` job's time budget when the client names none: a hard cap on the whole job
(evolution and finishing), counted from when its worker starts."""

SUGGEST_MAX_SECONDS: Final = 20.0
"""The longest evolution a ``suggest`` may ask for: well inside the studio's 120 s job limit."""

SUGGEST_COUNT: Final = 3
SUGGEST_MAX_COUNT: Final = 6
"""The most variations one ``suggest`` may ask for (each travels back as a whole level)."""

MAX_SEED: Final = 2**31 - 1


@dataclass(frozen=True, slots=True)
class SuggestOptions:
    """A ``suggest`` job's budget: seconds of evolution, how many variations, the seed."""

    seconds: float = SUGGEST_SECONDS
    count: int = SUGGEST_COUNT
    seed: int = 0


def suggest_options(message: Mapping[str, Any]) -> SuggestOptions:
    """A ``suggest`` frame's ``seconds``, ``count`` and ``seed``; absent or null ones default.

    :raises ValueError: naming the field, for a value of the wrong type or out of range.
    """
    seconds = _given(message, "seconds", SUGGEST_SECONDS)
    if (
        not isinstance(seconds, int | float)
        or isinstance(seconds, bool)
        or not 0 < seconds <= SUGGEST_MAX_SECONDS
    ):
        raise ValueError(f'"seconds" must be a number above 0 and at most {SUGGEST_MAX_SECONDS:g}.')
    count = _given(message, "count", SUGGEST_COUNT)
    if not _whole(count) or not 1 <= count <= SUGGEST_MAX_COUNT:
        raise ValueError(f'"count" must be a whole number from 1 to {SUGGEST_MAX_COUNT}.')
    seed = _given(message, "seed", 0)
    if not _whole(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f'"seed" must be a whole number from 0 to {MAX_SEED}.')
    return SuggestOptions(float(seconds), count, seed)


def suggestion_input(spec: LevelSpec) -> dict[str, Any]:
    """The level entry ``suggest_variations`` takes for a job's level (its id and title kept)."""
    return {**spec.data, "id": spec.id, "title": spec.title}


def _given(message: Mapping[str, Any], name: str, default: object) -> Any:
    """The field ``name`` of ``message``, or ``default`` when it is absent or null."""
    value = message.get(name)
    return default if value is None else value


def _whole(value: object) -> bool:
    """Whether a JSON value is a whole number (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


GenerationReport = Callable[[int, int, float, float], None]
"""Hears a suggest job's progress: candidates tried, solved, the best depth so far, seconds."""

VariationReport = Callable[[dict[str, Any]], None]
"""Hears each variation (``Variation.to_json()``) as soon as it is finished."""


def run_suggest(
    spec: LevelSpec,
    options: SuggestOptions,
    report: GenerationReport | None,
    *,
    started: float,
    every: float,
    found: VariationReport | None = None,
) -> dict[str, Any]:
    """Evolve and finish variations of a job's level, as both hosts' studios do.

    Returns ``Suggestion.to_json()``: ``variations`` (new, minimal, none
    shallower than the draft), ``draftIdea``, ``draftDepth``, ``dropped``
    (counts by reason) and ``seconds``. The budget (``options.seconds``)
    counts from ``started`` (a ``time.monotonic()`` reading) and caps the
    whole job. ``report`` hears the progress at most every ``every``
    seconds, with the seconds since ``started``; ``found`` hears each
    variation as soon as it is finished, so the editor can show it at once.
    """
    # Imported here: only a suggest job pays for the generator's import.
    from miau.generate.variations import scored_variations

    last_sent = time.monotonic()

    def hear(status: Status) -> None:
        nonlocal last_sent
        now = time.monotonic()
        if report is None or now - last_sent < every:
            return
        last_sent = now
        report(status.candidates, status.solved, round(status.best_depth, 3), now - started)

    suggestion = scored_variations(
        suggestion_input(spec),
        seconds=options.seconds,
        count=options.count,
        seed=options.seed,
        report=hear,
        found=None if found is None else (lambda variation: found(variation.to_json())),
        started=started,
    )
    return suggestion.to_json()
