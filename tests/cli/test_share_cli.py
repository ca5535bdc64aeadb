"""``miau share`` and ``miau open``: a level out as a link and back, and bad links explained."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from miau.cli import main
from miau.packs import encode_share_code, load_pack, single_level_pack

ROOT = Path(__file__).resolve().parents[2]
CLOCKWORK = ROOT / "packs" / "clockwork.json"
LEVEL_FILE = ROOT / "tests" / "solver" / "levels" / "mouse-keeps-time.json"


def _share(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["share", *args]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    return out.strip()


def test_share_prints_a_link_that_open_prints_back_as_the_one_level_pack(
    capsys: pytest.CaptureFixture[str],
) -> None:
    link = _share(capsys, str(CLOCKWORK), "--level", "mouse-keeps-time")
    assert link.startswith("http://127.0.0.1:8765/#/shared/1")
    assert main(["open", link, "--print"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = single_level_pack(load_pack(CLOCKWORK), "mouse-keeps-time")
    assert printed == expected
    assert load_pack(printed) == load_pack(expected)


def test_open_prints_by_default_when_output_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    link = _share(capsys, str(CLOCKWORK), "--level", "double-time")
    assert main(["open", link.split("#", 1)[1]]) == 0
    assert json.loads(capsys.readouterr().out)["levels"][0]["id"] == "double-time"


def test_share_uses_the_base_given(capsys: pytest.CaptureFixture[str]) -> None:
    link = _share(capsys, str(CLOCKWORK), "--level", "mouse-keeps-time", "--base", "http://x:9/")
    assert link.startswith("http://x:9/#/shared/1")


def test_a_pack_with_several_levels_and_no_level_choice_exits_2_listing_the_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["share", str(CLOCKWORK)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    for level in load_pack(CLOCKWORK).levels:
        assert f"  {level.id}\n" in captured.err
    assert "--level" in captured.err


def test_an_unknown_level_or_unreadable_file_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["share", str(CLOCKWORK), "--level", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
    assert main(["share", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err


def test_a_one_level_pack_or_a_single_level_file_needs_no_level_choice(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps(single_level_pack(load_pack(CLOCKWORK), "mouse-keeps-time")))
    link = _share(capsys, str(one))
    assert main(["open", link]) == 0
    assert json.loads(capsys.readouterr().out)["levels"][0]["id"] == "mouse-keeps-time"

    link = _share(capsys, str(LEVEL_FILE))
    assert main(["open", link]) == 0
    opened = json.loads(capsys.readouterr().out)
    assert opened["levels"][0]["id"] == "mouse-keeps-time"
    assert opened["manifest"]["features"] == ["automata"]


def test_a_bad_link_exits_1_with_the_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    link = _share(capsys, str(CLOCKWORK), "--level", "mouse-keeps-time")
    assert main(["open", link[:-5]]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("miau open: This link is")
    assert main(["open", "not a link"]) == 1
    assert "This is not a Miau level link" in capsys.readouterr().err


def test_a_link_whose_level_fails_the_loader_lists_the_located_problems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = single_level_pack(load_pack(CLOCKWORK), "mouse-keeps-time")
    document["levels"][0]["width"] = 0
    assert main(["open", encode_share_code(document)]) == 1
    err = capsys.readouterr().err
    assert "This shared level cannot be played" in err
    assert "\n  levels[0].width: " in err


def test_open_play_plays_the_level_in_the_terminal_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    link = _share(capsys, str(CLOCKWORK), "--level", "mouse-keeps-time")
    monkeypatch.setattr("sys.stdin", io.StringIO("DRRRRRRRRRR\nQ\n"))
    assert main(["open", link, "--play"]) == 0
    out = capsys.readouterr().out
    assert "== The mouse keeps time ==" in out
    assert "You win!" in out
