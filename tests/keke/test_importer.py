"""``miau import keke``: what the converter makes of a Keke level set, and what it refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from miau.cli import main
from miau.cli.importer import FEATURE, KekeFormatError, convert_keke
from miau.engine import Game
from miau.packs import load_pack


def keke_level(keke_id: object, ascii_rows: list[str], solution: str = "", **more: Any) -> Any:
    rows = "\n".join(ascii_rows)
    return {
        "id": keke_id,
        "name": "",
        "author": "Test",
        "ascii": rows,
        "solution": solution,
        **more,
    }


FIRST = keke_level(
    1,
    [
        "_________",
        "_B12.F13_",
        "_......._",
        "_b....f._",
        "_________",
    ],
    solution="rrrrr",
)


def convert(*levels: Any, **options: Any) -> Any:
    return convert_keke(
        {"levels": list(levels)}, pack_id="keke-test", name="Keke test", source="t.json", **options
    )


def test_a_keke_level_becomes_its_map_without_the_border_with_a_legend_and_the_feature() -> None:
    conversion = convert(FIRST)
    assert conversion.skipped == ()
    (pack,) = conversion.packs
    assert pack["manifest"]["features"] == [FEATURE]
    assert "automata" not in pack["manifest"]["features"]
    (level,) = pack["levels"]
    assert level["map"] == ["B12.F13", ".......", "b....f."]
    assert (level["width"], level["height"]) == (7, 3)
    assert level["legend"] == {
        "1": {"word": "IS"},
        "2": {"word": "YOU"},
        "3": {"word": "WIN"},
        "B": {"word": "BABA"},
        "F": {"word": "FLAG"},
        "b": "BABA",
        "f": "FLAG",
    }
    assert level["solution"] == "RRRRR"
    assert level["id"] == "keke-1"
    assert set(pack["palette"]) == {"BABA", "FLAG"}


def test_a_converted_level_loads_without_warnings_and_its_solution_wins() -> None:
    pack = load_pack(convert(FIRST).packs[0])
    assert pack.warnings == ()
    level = pack.levels[0]
    assert level.solution is not None
    game = Game(level.data)
    game.play(level.solution)
    assert game.won


def test_kill_is_read_as_defeat_and_s_as_a_wait() -> None:
    level = keke_level(2, ["_____", "_S14_", "_s.b_", "_____"], solution="sSrl")
    (converted,) = convert(level).packs[0]["levels"]
    assert converted["legend"]["4"] == {"word": "DEFEAT"}
    assert converted["solution"] == "WWRL"


def test_every_keke_character_has_a_meaning_and_every_word_is_one_miau_reads() -> None:
    everything = "bBkKfFrRwWsSlLgGaAoOvV1234567890"
    level = keke_level(3, ["_" * 37, "_" + everything + "..._", "_" * 37])
    conversion = convert(level)
    assert conversion.skipped == ()
    legend = conversion.packs[0]["levels"][0]["legend"]
    words = {entry["word"] for entry in legend.values() if isinstance(entry, dict)}
    assert {"MOVE", "HOT", "MELT", "SINK", "DEFEAT"} <= words
    assert "KILL" not in words


def test_a_level_that_cannot_be_converted_is_skipped_with_every_located_reason() -> None:
    broken = keke_level(7, ["_____", "_b?._", "_._x_", "_____"], solution="rq")
    conversion = convert(FIRST, broken)
    assert conversion.level_count == 1
    (skipped,) = conversion.skipped
    assert skipped.keke_id == "7"
    assert skipped.reasons == (
        "levels[1].ascii[1][2]: '?' is not a Keke map character",
        'levels[1].ascii[2][2]: a border "_" inside the map has no Miau equivalent',
        "levels[1].ascii[2][3]: 'x' is not a Keke map character",
        "levels[1].solution[1]: 'q' is not a Keke move (u d l r s)",
    )
    assert str(skipped).startswith("level 7 skipped:\n  levels[1].ascii[1][2]")


def test_ragged_rows_and_a_missing_map_are_reasons_too() -> None:
    ragged = keke_level("r", ["____", "_b._", "___"])
    empty = {"id": "e", "ascii": ""}
    reasons = {s.keke_id: s.reasons for s in convert(ragged, empty, FIRST).skipped}
    assert reasons["r"] == ("levels[0].ascii: rows of different widths [3, 4]",)
    assert reasons["e"] == ("levels[1].ascii: missing or empty",)


def test_a_map_without_a_border_ring_keeps_every_cell() -> None:
    level = keke_level(4, ["b.f", "B12", "F13"])
    (converted,) = convert(level).packs[0]["levels"]
    assert converted["map"] == ["b.f", "B12", "F13"]


def test_only_keeps_the_chosen_levels_and_names_the_ids_it_did_not_find() -> None:
    second = dict(FIRST, id=2)
    conversion = convert(FIRST, second, only=["2", "99"])
    assert [level["id"] for level in conversion.packs[0]["levels"]] == ["keke-2"]
    assert [(s.keke_id, s.reasons) for s in conversion.skipped] == [
        ("99", ("no level has this id",))
    ]


def test_level_ids_are_made_unique_and_valid() -> None:
    levels = [dict(FIRST, id="A b"), dict(FIRST, id="a-b"), dict(FIRST, id="a_b")]
    ids = [level["id"] for level in convert(*levels).packs[0]["levels"]]
    assert ids == ["keke-a-b", "keke-a-b-2", "keke-a-b-3"]


def test_a_set_of_more_than_64_levels_becomes_several_packs_that_each_load() -> None:
    levels = [dict(FIRST, id=number) for number in range(70)]
    conversion = convert(*levels)
    assert [len(pack["levels"]) for pack in conversion.packs] == [64, 6]
    assert [pack["manifest"]["id"] for pack in conversion.packs] == ["keke-test-1", "keke-test-2"]
    for pack in conversion.packs:
        assert load_pack(pack).warnings == ()


def test_a_file_that_is_not_a_keke_level_set_is_refused() -> None:
    with pytest.raises(KekeFormatError):
        convert_keke([], pack_id="keke-x", name="x", source="x.json")


def test_miau_import_keke_writes_the_pack_and_reports_what_it_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "mine_LEVELS.json"
    broken = keke_level(9, ["___", "_?_", "___"])
    source.write_text(json.dumps({"levels": [FIRST, broken]}), encoding="utf-8")
    out = tmp_path / "mine.json"
    assert main(["import", "keke", str(source), "-o", str(out), "--replay"]) == 0
    err = capsys.readouterr().err
    assert "level 9 skipped:" in err
    assert f"converted 1 levels into 1 pack(s); skipped 1; written to {out}" in err
    assert "keke-1: wins" in err
    assert "Keke solutions that win in Miau: 1 of 1" in err
    pack = load_pack(out)
    assert pack.manifest.id == "keke-mine_levels"
    assert [level.id for level in pack.levels] == ["keke-1"]


def test_miau_import_keke_prints_to_stdout_and_splits_only_into_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "set.json"
    source.write_text(json.dumps({"levels": [FIRST]}), encoding="utf-8")
    assert main(["import", "keke", str(source)]) == 0
    assert json.loads(capsys.readouterr().out)["manifest"]["id"] == "keke-set"
    source.write_text(json.dumps({"levels": [dict(FIRST, id=n) for n in range(65)]}))
    assert main(["import", "keke", str(source)]) == 2
    refusal = capsys.readouterr().err
    assert "a pack holds at most 64 levels, so the 65 levels become 2 packs" in refusal
    assert "choose a file with -o" in refusal
    assert main(["import", "keke", str(source), "-o", str(tmp_path / "big.json")]) == 0
    assert sorted(p.name for p in tmp_path.glob("big-*.json")) == ["big-1.json", "big-2.json"]
    said = capsys.readouterr().err
    assert f"become 2 packs: {tmp_path / 'big-1.json'}, {tmp_path / 'big-2.json'}" in said
    assert f"written to {tmp_path / 'big-1.json'}, {tmp_path / 'big-2.json'}" in said


def test_miau_import_keke_to_a_missing_folder_says_so_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "set.json"
    source.write_text(json.dumps({"levels": [FIRST]}), encoding="utf-8")
    out = tmp_path / "no-such-folder" / "keke.json"
    assert main(["import", "keke", str(source), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}: the folder {out.parent} does not exist" in err
    assert "Traceback" not in err
    assert not out.parent.exists()


def test_miau_import_keke_onto_a_folder_says_it_cannot_write_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "set.json"
    source.write_text(json.dumps({"levels": [FIRST]}), encoding="utf-8")
    folder = tmp_path / "taken.json"
    folder.mkdir()
    assert main(["import", "keke", str(source), "-o", str(folder)]) == 2
    assert f"miau import keke: cannot write {folder}:" in capsys.readouterr().err


def test_miau_import_keke_fails_cleanly_on_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.json"
    assert main(["import", "keke", str(missing)]) == 2
    assert "miau import keke:" in capsys.readouterr().err
    not_json = tmp_path / "bad.json"
    not_json.write_text("{", encoding="utf-8")
    assert main(["import", "keke", str(not_json)]) == 2
    nothing = tmp_path / "nothing.json"
    nothing.write_text(json.dumps({"levels": [keke_level(1, ["?"])]}), encoding="utf-8")
    assert main(["import", "keke", str(nothing)]) == 1
    assert "no level could be converted" in capsys.readouterr().err
