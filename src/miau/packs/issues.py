"""Problems found in a pack, where they are, and the error that carries them.

Validators record each problem against a *location*: the tuple of keys and
indexes that leads to it in the pack document. :class:`IssueLog` turns them
into :class:`PackIssue` records in document order, so a pack author reads
them top to bottom like the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal, TypeGuard

from miau.engine.pickling import init_arguments

__all__ = ["IssueLog", "Location", "PackError", "PackIssue", "Severity", "render_place"]

Severity = Literal["error", "warning"]

Location = tuple[str | int, ...]
"""Keys and indexes from the document root to the place of a problem."""

_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


@dataclass(frozen=True)
class PackIssue:
    """One problem in a pack: where it is, what is wrong, and how bad it is.

    ``place`` reads like ``levels[3].automata[0].pattern[5]`` or
    ``manifest.version``; it is empty for the document as a whole.
    ``location`` is the same place as data, the keys and indexes leading to
    it (``("levels", 3, "automata", 0, "pattern", 5)``), for code that sorts
    issues by where they are; it takes no part in equality. A warning never
    stops a pack from loading; an error always does.
    """

    place: str
    message: str
    severity: Severity = "error"
    location: Location = field(default=(), compare=False)

    def __str__(self) -> str:
        label = "warning: " if self.severity == "warning" else ""
        prefix = f"{self.place}: " if self.place else ""
        return f"{prefix}{label}{self.message}"

    def __reduce__(self) -> tuple[type[PackIssue], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


class PackError(ValueError):
    """A pack has at least one error, so nothing of it was loaded.

    ``issues`` holds every problem found, errors and warnings, in document
    order; ``str()`` lists them one per line.
    """

    def __init__(self, issues: Iterable[PackIssue]) -> None:
        self.issues: tuple[PackIssue, ...] = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))

    def __reduce__(self) -> tuple[type[PackError], tuple[tuple[PackIssue, ...]]]:
        return (type(self), (self.issues,))

    @property
    def errors(self) -> tuple[PackIssue, ...]:
        """The issues that stopped the pack from loading."""
        return tuple(issue for issue in self.issues if issue.severity == "error")

    @property
    def warnings(self) -> tuple[PackIssue, ...]:
        """The issues that alone would not have stopped it."""
        return tuple(issue for issue in self.issues if issue.severity == "warning")


def render_place(location: Location) -> str:
    """Write a location the way an author would point at it in the file.

    Plain keys join with dots, indexes go in brackets, and keys that are not
    plain identifiers (a legend character, say) are quoted in brackets so
    ``legend["#"]`` never reads as something else.
    """
    out: list[str] = []
    for step in location:
        if isinstance(step, int):
            out.append(f"[{step}]")
        elif _PLAIN_KEY.fullmatch(step):
            out.append(f".{step}" if out else step)
        else:
            out.append(f"[{json.dumps(step, ensure_ascii=False)}]")
    return "".join(out)


def _document_rank(
    document: object, location: Location, positions: dict[int, dict[str, int]] | None = None
) -> tuple[int, ...]:
    """Rank a location by where it sits in the document, top to bottom.

    A key ranks by its position among its siblings as written; a field that
    is missing ranks before them, because its absence concerns the whole
    record. Characters of a map row rank by column. ``positions`` keeps each
    mapping's key positions (by the mapping's id) for the next location of
    the same sort, so ranking many issues in one big object stays linear.
    """
    node: object = document
    rank: list[int] = []
    known = {} if positions is None else positions
    for step in location:
        if isinstance(step, str) and isinstance(node, Mapping):
            keys = known.get(id(node))
            if keys is None:
                keys = known[id(node)] = {key: index for index, key in enumerate(node)}
            if step in keys:
                rank.append(keys[step])
                node = node[step]
            else:
                rank.append(-1)
                node = None
        elif isinstance(step, int):
            rank.append(step)
            node = node[step] if _indexable(node, step) else None
        else:
            rank.append(-1)
            node = None
    return tuple(rank)


def _indexable(node: object, index: int) -> TypeGuard[Sequence[object]]:
    return isinstance(node, Sequence) and not isinstance(node, str) and 0 <= index < len(node)


class IssueLog:
    """Collects problems while a pack is checked and sorts them at the end."""

    def __init__(self) -> None:
        self._found: list[tuple[Location, str, Severity]] = []
        self._errors = 0

    def error(self, location: Location, message: str) -> None:
        """Record a problem that keeps the pack from loading."""
        self._found.append((location, message, "error"))
        self._errors += 1

    def reporter(self, location: Location) -> Callable[[str | None, str], None]:
        """A report callback that records errors in field ``key`` at ``(*location, key)``.

        A problem without a field is recorded at ``location`` itself. This is
        how the engine's field readers (``miau.engine.entity_fields``) log here.
        """

        def report(key: str | None, message: str) -> None:
            self.error(location if key is None else (*location, key), message)

        return report

    def warning(self, location: Location, message: str) -> None:
        """Record a problem worth fixing that does not block loading."""
        self._found.append((location, message, "warning"))

    @property
    def error_count(self) -> int:
        """How many errors have been recorded so far."""
        return self._errors

    @property
    def has_errors(self) -> bool:
        """Whether any recorded problem is an error."""
        return self.error_count > 0

    def issues(self, document: object) -> list[PackIssue]:
        """Return every problem in document order; ties keep recording order."""
        # The document is not changed while sorting, so each mapping's id stays its own.
        positions: dict[int, dict[str, int]] = {}
        ordered = sorted(
            self._found, key=lambda found: _document_rank(document, found[0], positions)
        )
        return [PackIssue(render_place(loc), message, sev, loc) for loc, message, sev in ordered]
