"""Every broken pack under bad/ reports exactly the problems in its .expected.txt.

To add a case, write ``bad/NAME.json`` and ``bad/NAME.expected.txt`` with the
``str()`` of each issue it must report, one per line, in document order
(warnings read ``place: warning: message``). Write the expectation by hand,
or paste the loader's output only after reading every line of it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miau.packs import Pack, PackError, load_pack, validate_pack

BAD = Path(__file__).parent / "bad"
CASES = sorted(BAD.glob("*.json"))
NOT_JSON = {"invalid-json", "trailing-comma"}
"""Fixtures that json.loads refuses, so only the file loader can report them."""
JSON_HIDES = {"duplicate-json-keys"}
"""Fixtures whose problem json.loads silently drops (it keeps the last duplicate key)."""


def expected_lines(path: Path) -> list[str]:
    return path.with_name(f"{path.stem}.expected.txt").read_text(encoding="utf-8").splitlines()


def reported_lines(path: Path) -> list[str]:
    try:
        pack = load_pack(path)
    except PackError as error:
        return [str(issue) for issue in error.issues]
    return [str(issue) for issue in pack.warnings]


def test_there_are_at_least_thirty_broken_packs() -> None:
    assert len(CASES) >= 30


def test_every_broken_pack_has_exactly_one_expected_file() -> None:
    packs = {path.stem for path in CASES}
    expectations = {path.name.removesuffix(".expected.txt") for path in BAD.glob("*.expected.txt")}
    assert packs == expectations


@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_broken_pack_reports_exactly_the_expected_issues(path: Path) -> None:
    expected = expected_lines(path)
    assert expected, "a fixture under bad/ must report at least one issue"
    outcome: Pack | PackError
    try:
        outcome = load_pack(path)
    except PackError as error:
        outcome = error
    if isinstance(outcome, PackError):
        assert [str(issue) for issue in outcome.issues] == expected
        assert str(outcome) == "\n".join(expected)
        assert outcome.errors, "PackError is raised only when there is an error"
    else:
        # Loading succeeded, so the pack must have had warnings only.
        assert [str(issue) for issue in outcome.warnings] == expected
        assert all(issue.severity == "warning" for issue in outcome.warnings)


@pytest.mark.parametrize(
    "path",
    [path for path in CASES if path.stem not in NOT_JSON | JSON_HIDES],
    ids=lambda path: path.stem,
)
def test_validate_pack_agrees_with_load_pack(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [str(issue) for issue in validate_pack(data)] == reported_lines(path)
