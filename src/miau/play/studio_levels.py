"""A studio job's level: the one level of a one-level pack, checked, as the solver takes it.

Standard library only: the server's studio (``miau.server.studio``) and the
static site's in-page studio (``miau.site.studio``, under Pyodide) share it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from miau.packs import Pack, PackError, PackIssue, load_pack
from miau.solver.levels import LevelSpec

__all__ = [
    "PROBLEMS_IN_A_MESSAGE",
    "REPORT_MESSAGE_CHARS",
    "REPORT_PROBLEMS",
    "STUDIO_MAX_EXPANSIONS",
    "DraftError",
    "LoadedLevel",
    "bounded_issues",
    "level_spec",
    "load_draft",
    "load_one_level",
    "refusal",
]

STUDIO_MAX_EXPANSIONS: Final = 2_000_000
"""The most states one job may expand, whatever the client or the level asks for."""

PROBLEMS_IN_A_MESSAGE: Final = 3
"""How many loader problems a ``bad-message`` error spells out for a refused solve."""

REPORT_PROBLEMS: Final = 200
"""The most problems a check's report lists; the loader may find thousands in a broken pack."""

REPORT_MESSAGE_CHARS: Final = 300
"""The longest problem message a report carries (a message may quote a long value)."""


DRAFT_PROBLEMS_SHOWN: Final = 3
"""How many of a refused draft's problems its error message lists."""


class DraftError(ValueError):
    """An editor's draft that cannot be played; the message says why in plain words."""


def load_draft(document: Any) -> Pack:
    """An editor's draft (a one-level pack document) as the pack loader reads it.

    The server's play socket and the static site's in-page engine both
    test-play drafts through this, so they refuse the same drafts alike.

    :raises DraftError: listing the first problems, or when the pack does
        not hold exactly one level.
    """
    try:
        pack = load_pack(document)
    except PackError as error:
        count = len(error.errors)
        shown = "; ".join(str(issue) for issue in error.errors[:DRAFT_PROBLEMS_SHOWN])
        more = count - DRAFT_PROBLEMS_SHOWN
        tail = f"; and {more} more" if more > 0 else ""
        raise DraftError(
            f"This draft cannot be played: it has {count} problem"
            f"{'' if count == 1 else 's'}: {shown}{tail}."
        ) from None
    if len(pack.levels) != 1:
        raise DraftError(
            f"A draft is a pack of exactly one level; this one has {len(pack.levels)}."
        )
    return pack


def level_spec(pack: Pack) -> LevelSpec:
    """The one level of a loaded one-level pack, as the solver takes it.

    The loader's warnings about that level travel with it, as ``miau check``
    reports them.
    """
    level = pack.levels[0]
    warnings = tuple(str(issue) for issue in pack.warnings if issue.location[:2] == ("levels", 0))
    return LevelSpec(level.id, level.title, level.data, level.solution, level.solver_max, warnings)


@dataclass(frozen=True, slots=True)
class LoadedLevel:
    """A one-level pack read by the loader: its level, or why not; the issues either way.

    ``issues`` are at most :data:`REPORT_PROBLEMS` of them, each message cut
    at :data:`REPORT_MESSAGE_CHARS`; ``left_out`` counts those not listed.
    It is small and plain, so it crosses a process pipe cheaply.
    """

    spec: LevelSpec | None
    issues: tuple[PackIssue, ...]
    left_out: int = 0


def bounded_issues(issues: Sequence[PackIssue]) -> tuple[tuple[PackIssue, ...], int]:
    """The first :data:`REPORT_PROBLEMS` issues, messages cut short; how many were left out."""
    kept = []
    for issue in issues[:REPORT_PROBLEMS]:
        if len(issue.message) > REPORT_MESSAGE_CHARS:
            issue = dataclasses.replace(
                issue, message=issue.message[: REPORT_MESSAGE_CHARS - 1] + "\u2026"
            )
        kept.append(issue)
    return tuple(kept), max(0, len(issues) - REPORT_PROBLEMS)


def load_one_level(document: dict[str, Any]) -> LoadedLevel:
    """Load a job's pack, refusing any but exactly one level."""
    try:
        pack = load_pack(document)
    except PackError as error:
        return LoadedLevel(None, *bounded_issues(error.issues))
    if len(pack.levels) != 1:
        count = len(pack.levels)
        issue = PackIssue(
            "levels",
            f"a studio job takes a one-level pack; this one has {count} levels",
            location=("levels",),
        )
        return LoadedLevel(None, *bounded_issues((*pack.warnings, issue)))
    return LoadedLevel(level_spec(pack), *bounded_issues(pack.warnings))


def refusal(issues: Sequence[PackIssue], left_out: int = 0) -> str:
    """A sentence for a solve whose pack the loader refused, naming the first problems."""
    errors = [issue for issue in issues if issue.severity == "error"] or list(issues)
    count = len(errors) + left_out
    shown = "; ".join(str(issue) for issue in errors[:PROBLEMS_IN_A_MESSAGE])
    more = f" (and {count - PROBLEMS_IN_A_MESSAGE} more)" if count > PROBLEMS_IN_A_MESSAGE else ""
    plural = "problem" if count == 1 else "problems"
    return f"This level cannot be solved: it has {count} {plural}: {shown}{more}."
