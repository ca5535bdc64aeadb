"""The loader's issues as every API of the server sends them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from miau.packs import PackIssue

__all__ = ["PROBLEMS_LISTED", "PROBLEM_TEXT_CHARS", "problems_json", "refused_problems"]

PROBLEMS_LISTED: Final = 20
"""The most problems a refusal lists (``problems``); ``moreProblems`` counts the rest. A pack
of thousands of bad objects once got a 400 of 1.4 MB, 460 times its request."""

PROBLEM_TEXT_CHARS: Final = 300
"""The longest place or message a refusal lists; a longer one is cut, ending in an ellipsis."""


def problems_json(issues: Iterable[PackIssue]) -> list[dict[str, str]]:
    """The loader's issues as the API lists them: place, message, severity, in document order."""
    return [
        {"place": issue.place, "message": issue.message, "severity": issue.severity}
        for issue in issues
    ]


def refused_problems(issues: Sequence[PackIssue]) -> dict[str, Any]:
    """A refusal's ``problems``: the first :data:`PROBLEMS_LISTED`, and ``moreProblems`` past them.

    Each place and message is cut at :data:`PROBLEM_TEXT_CHARS`, so the
    reply stays a few kilobytes whatever the pack; ``moreProblems`` (present
    only when some are left out) counts the problems not listed.
    """
    listed: dict[str, Any] = {
        "problems": [
            {
                "place": _cut(issue.place),
                "message": _cut(issue.message),
                "severity": issue.severity,
            }
            for issue in issues[:PROBLEMS_LISTED]
        ]
    }
    if len(issues) > PROBLEMS_LISTED:
        listed["moreProblems"] = len(issues) - PROBLEMS_LISTED
    return listed


def _cut(text: str) -> str:
    return text if len(text) <= PROBLEM_TEXT_CHARS else text[: PROBLEM_TEXT_CHARS - 1] + "\u2026"
