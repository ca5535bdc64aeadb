"""How load_pack treats files, mappings, limits, warnings and errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from miau.engine.vocabulary import MAX_LEVEL_OBJECTS
from miau.packs import Pack, PackError, PackIssue, load_pack, load_pack_or_level, load_pack_text

GOOD = Path(__file__).parent / "good"


def clockwork() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOOD / "clockwork-proof.json").read_text(encoding="utf-8"))
    return data


def tiny_pack(objects: list[dict[str, Any]], **level: Any) -> dict[str, Any]:
    return {
        "manifest": {"id": "tiny", "name": "Tiny", "version": "1.0.0", "engine": 1},
        "levels": [
            {"id": "only", "title": "Only", "width": 64, "height": 64, "objects": objects, **level}
        ],
    }


def test_a_path_and_its_parsed_mapping_load_the_same_pack() -> None:
    path = GOOD / "clockwork-proof.json"
    assert load_pack(path) == load_pack(str(path)) == load_pack(clockwork())


def test_json_text_loads_like_the_file_it_came_from() -> None:
    path = GOOD / "clockwork-proof.json"
    assert load_pack_text(path.read_text(encoding="utf-8")) == load_pack(path)


def test_loading_a_mapping_never_changes_it() -> None:
    data = clockwork()
    data["levels"][0]["objects"][0]["text"] = "miau"
    before = copy.deepcopy(data)
    pack = load_pack(data)
    assert data == before
    pack.levels[0].data["objects"][0]["x"] = 99
    assert data == before


def test_every_problem_is_reported_not_just_the_first() -> None:
    data = clockwork()
    data["manifest"]["version"] = "one"
    data["levels"][0]["width"] = 0
    data["levels"][0]["objects"][3]["y"] = -1
    with pytest.raises(PackError) as caught:
        load_pack(data)
    assert [issue.place for issue in caught.value.issues] == [
        "manifest.version",
        "levels[0].width",
        "levels[0].objects[3].y",
    ]


def test_an_error_anywhere_means_no_pack_at_all() -> None:
    data = clockwork()
    data["levels"].append({"id": "second", "title": "Second", "width": 1, "height": 1})
    with pytest.raises(PackError) as caught:
        load_pack(data)
    assert [str(issue) for issue in caught.value.issues] == [
        'levels[1]: needs "objects", a "map", or both'
    ]


def test_an_unknown_feature_refuses_the_pack_with_the_player_line() -> None:
    data = clockwork()
    data["manifest"]["features"] = ["automata", "gravity"]
    with pytest.raises(PackError) as caught:
        load_pack(data)
    message = str(caught.value)
    assert "This pack needs a newer Miau." in message
    assert "gravity" in message


def test_the_noun_trap_warns_but_the_pack_loads() -> None:
    # Clockwork's own example: "If TICK weren't declared, MOUSE IS TICK would turn the mouse
    # into a TICK thing at reset."
    data = clockwork()
    del data["levels"][0]["automata"]
    del data["properties"]
    pack = load_pack(data)
    assert pack.warnings == (
        PackIssue(
            "levels[0].objects[8]",
            'word TICK is neither a property nor a noun this pack knows; "X IS TICK" would '
            "turn things into TICK things. Declare it in pairs or automata, or add it to "
            "vocabulary.",
            "warning",
        ),
    )


def test_a_glossary_word_the_level_does_not_declare_is_still_a_noun_trap() -> None:
    # The engine learns a level's properties from its automata and pairs, not the glossary.
    data = clockwork()
    del data["levels"][0]["automata"]
    warnings = load_pack(data).warnings
    assert [(w.place, w.severity) for w in warnings] == [("levels[0].objects[8]", "warning")]
    assert "is a property in this pack's glossary, but this level does not declare it" in (
        warnings[0].message
    )


def test_a_level_at_the_object_limit_loads() -> None:
    objects = [{"noun": "ROCK", "x": i % 64, "y": i // 64} for i in range(MAX_LEVEL_OBJECTS)]
    assert len(load_pack(tiny_pack(objects)).levels[0].data["objects"]) == MAX_LEVEL_OBJECTS


def test_a_level_over_the_object_limit_is_refused() -> None:
    objects = [{"noun": "ROCK", "x": i % 64, "y": (i // 64) % 64} for i in range(4100)]
    with pytest.raises(PackError) as caught:
        load_pack(tiny_pack(objects))
    assert [str(issue) for issue in caught.value.issues] == [
        "levels[0]: has 4100 entities (map cells and objects together); a level holds at most 4096"
    ]


def test_map_cells_count_towards_the_object_limit() -> None:
    full_map = ["#" * 64] * 64
    data = tiny_pack([{"noun": "ROCK", "x": 0, "y": 0}], map=full_map, legend={"#": "WALL"})
    with pytest.raises(PackError) as caught:
        load_pack(data)
    assert [issue.place for issue in caught.value.issues] == ["levels[0]"]


def test_a_file_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"manifest": {"name": "Caf\u00e9"}}'.encode("latin-1"))
    with pytest.raises(PackError) as caught:
        load_pack(path)
    assert str(caught.value) == "the file is not UTF-8 text: byte 26 cannot be read"


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + (GOOD / "minimal.json").read_bytes())
    assert load_pack(path) == load_pack(GOOD / "minimal.json")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"levels": [1, 2,\n]}', "line 1, column 17: Illegal trailing comma before end of array"),
        ('{"levels": [],\n  }', "line 1, column 14: Illegal trailing comma before end of object"),
        ('{"levels": [,]}', "line 1, column 13: Expecting value"),
    ],
)
def test_a_trailing_comma_is_named_at_the_comma_on_every_python(text: str, expected: str) -> None:
    # Python 3.11 and 3.12 point past the comma with another complaint; 3.13 names it.
    with pytest.raises(PackError) as caught:
        load_pack_text(text)
    assert str(caught.value) == f"invalid JSON at {expected}"


def test_invalid_json_is_reported_with_line_and_column() -> None:
    with pytest.raises(PackError) as caught:
        load_pack_text('{\n  "manifest": {,\n}')
    assert str(caught.value) == (
        "invalid JSON at line 2, column 16: Expecting property name enclosed in double quotes"
    )


def test_json_nested_too_deeply_is_reported_not_raised() -> None:
    with pytest.raises(PackError) as caught:
        load_pack_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in str(caught.value)


def test_a_missing_file_raises_the_operating_system_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        load_pack(tmp_path / "absent.json")


def test_a_number_too_long_to_read_is_reported() -> None:
    with pytest.raises(PackError) as caught:
        load_pack_text('{"manifest": ' + "9" * 5000 + "}")
    assert str(caught.value) == "invalid JSON: a number has more than 100 digits"


def test_huge_integers_are_named_not_printed() -> None:
    data = clockwork()
    data["levels"][0]["width"] = 10**5000
    data["levels"][0]["objects"][0]["x"] = -(10**5000)
    with pytest.raises(PackError) as caught:
        load_pack(data)
    assert [str(issue) for issue in caught.value.issues] == [
        "levels[0].width: is a huge integer; expected an integer from 1 to 64",
        "levels[0].objects[0].x: is a huge integer; coordinates start at 0",
    ]


def test_load_pack_or_level_tells_a_pack_from_a_single_level(tmp_path: Path) -> None:
    pack_path = tmp_path / "pack.json"
    pack_path.write_text(json.dumps(clockwork()), encoding="utf-8")
    assert load_pack_or_level(pack_path) == load_pack(pack_path)
    level = {"width": 2, "height": 1, "objects": [{"noun": "MIAU", "x": 0, "y": 0}]}
    level_path = tmp_path / "level.json"
    level_path.write_text(json.dumps(level), encoding="utf-8")
    loaded = load_pack_or_level(level_path)
    assert not isinstance(loaded, Pack) and loaded == level


def test_load_pack_or_level_reports_a_broken_pack_and_refuses_a_non_object(
    tmp_path: Path,
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"levels": [], "levels": []}', encoding="utf-8")
    with pytest.raises(PackError, match="levels: appears more than once"):
        load_pack_or_level(path)
    path.write_text('"a string"', encoding="utf-8")
    with pytest.raises(ValueError, match="must hold a JSON object"):
        load_pack_or_level(path)


def test_hints_give_the_nudge_as_the_hint_and_the_rest_in_order() -> None:
    pack = load_pack(tiny_pack([], hints=["Look at the rock.", "Break ROCK IS PUSH."]))
    level = pack.level("only")
    assert level.hint == "Look at the rock."
    assert level.further_hints == ("Break ROCK IS PUSH.",)
    assert level.hints == ("Look at the rock.", "Break ROCK IS PUSH.")
    assert level.to_json()["hints"] == ["Look at the rock.", "Break ROCK IS PUSH."]
    assert "hint" not in level.to_json()
    assert load_pack(pack.to_json()) == pack


def test_a_single_hint_is_the_only_hint_and_is_written_back_as_hint() -> None:
    level = load_pack(tiny_pack([], hint="Look at the rock.")).level("only")
    assert level.hints == ("Look at the rock.",)
    assert level.further_hints == ()
    assert level.to_json()["hint"] == "Look at the rock."
    assert "hints" not in level.to_json()
    assert (
        load_pack(tiny_pack([], hints=["Only one."])).level("only").to_json()["hint"] == "Only one."
    )


def test_a_blank_hint_counts_as_no_hint() -> None:
    assert load_pack(tiny_pack([], hint="")).level("only").hints == ()
    assert load_pack(tiny_pack([])).level("only").hints == ()
