"""The loader's issues as every API of the server sends them."""

from __future__ import annotations

from collections.abc import Iterable

from miau.packs import PackIssue

__all__ = ["problems_json"]


def problems_json(issues: Iterable[PackIssue]) -> list[dict[str, str]]:
    """The loader's issues as the API lists them: place, message, severity, in document order."""
    return [
        {"place": issue.place, "message": issue.message, "severity": issue.severity}
        for issue in issues
    ]
