"""Issues print as place and message, and come out in document order."""

from __future__ import annotations

import pickle
from typing import Any

from miau.packs import PackError, PackIssue, validate_pack
from miau.packs.issues import render_place


def test_an_error_prints_as_place_then_message() -> None:
    issue = PackIssue("levels[3].automata[0].pattern[5]", "must be a step")
    assert issue.severity == "error"
    assert str(issue) == "levels[3].automata[0].pattern[5]: must be a step"


def test_a_warning_says_so_after_its_place() -> None:
    issue = PackIssue("levels[0].objects[12]", "word SHUT is unknown", "warning")
    assert str(issue) == "levels[0].objects[12]: warning: word SHUT is unknown"


def test_an_issue_about_the_whole_document_has_no_place() -> None:
    assert str(PackIssue("", "invalid JSON at line 1, column 1: Expecting value")) == (
        "invalid JSON at line 1, column 1: Expecting value"
    )


def test_places_quote_keys_that_are_not_plain_names() -> None:
    assert render_place(("levels", 0, "legend", "#")) == 'levels[0].legend["#"]'
    assert render_place(("levels", 0, "legend", "1")) == 'levels[0].legend["1"]'
    assert render_place(("palette", "MIAU")) == "palette.MIAU"
    assert render_place(("levels", 2, "map", 3, 5)) == "levels[2].map[3][5]"
    assert render_place(()) == ""


def test_pack_error_lists_one_issue_per_line_and_survives_pickling() -> None:
    issues = [PackIssue("manifest.id", "is missing"), PackIssue("levels", "x", "warning")]
    error = PackError(issues)
    assert isinstance(error, ValueError)
    assert str(error) == "manifest.id: is missing\nlevels: warning: x"
    assert error.errors == (issues[0],)
    assert error.warnings == (issues[1],)
    copy = pickle.loads(pickle.dumps(error))
    assert copy.issues == error.issues


def broken_level(first: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"width": 0, "title": "", "id": "Bad"}
    order = [first, *(key for key in fields if key != first)]
    return {key: fields[key] for key in order}


def test_issues_follow_the_order_the_document_is_written_in() -> None:
    def places(first: str) -> list[str]:
        data = {
            "levels": [{**broken_level(first), "height": 1, "objects": []}],
            "manifest": {"id": "x", "name": "X", "version": "1.0.0", "engine": 1},
        }
        return [issue.place for issue in validate_pack(data)]

    assert places("width") == ["levels[0].width", "levels[0].title", "levels[0].id", "manifest.id"]
    assert places("id") == ["levels[0].id", "levels[0].width", "levels[0].title", "manifest.id"]


def test_a_missing_field_is_reported_before_its_siblings() -> None:
    data = {
        "manifest": {"name": "", "version": "1.0.0", "engine": 1},
        "levels": [{"id": "a", "title": "A", "width": 1, "height": 1, "objects": []}],
    }
    assert [issue.place for issue in validate_pack(data)] == ["manifest.id", "manifest.name"]


def test_the_same_document_always_gives_the_same_issues() -> None:
    data = {"manifest": {"features": ["x", "y", 3]}, "levels": [None, {"map": 5}], "z": 1}
    assert validate_pack(data) == validate_pack(data)


def test_an_issue_keeps_its_location_as_data_beside_the_rendered_place() -> None:
    data = {"manifest": {"id": "x"}, "levels": [{"id": "a", "legend": {"#": 5}}]}
    by_place = {issue.place: issue for issue in validate_pack(data)}
    issue = by_place['levels[0].legend["#"]']
    assert issue.location == ("levels", 0, "legend", "#")
    assert all(render_place(issue.location) == issue.place for issue in by_place.values())
