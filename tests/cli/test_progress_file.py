"""``miau progress``: the static site's progress file goes into ``miau play``'s database and back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from miau.cli import main
from miau.server.store import open_store
from miau.site.backend import SiteBackend
from tests.support.local import shipped_solution

DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right", "W": "wait"}


def play(backend: SiteBackend, pack: str, level: str, moves: str) -> None:
    backend.frame(json.dumps({"type": "open", "seq": 0, "pack": pack, "level": level}))
    for seq, letter in enumerate(moves, start=1):
        if letter == "Z":
            message: dict[str, Any] = {"type": "intent", "seq": seq, "intent": "undo"}
        elif letter == "W":
            message = {"type": "intent", "seq": seq, "intent": "wait"}
        else:
            message = {
                "type": "intent",
                "seq": seq,
                "intent": "step",
                "direction": DIRECTIONS[letter],
            }
        backend.frame(json.dumps(message))


def site_export(backend: SiteBackend) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(backend.http("GET", "/api/progress/export"))["body"]
    return answer


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "miau.db"
    open_store(path).ensure_player("the-player-token-0123")
    return path


def test_site_progress_imports_into_the_database_and_exports_back_the_same(
    tmp_path: Path, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = SiteBackend()
    play(site, "tutorial", "first-steps", shipped_solution("tutorial", "first-steps"))
    play(site, "tutorial", "walls", "RRZD")
    _, pack = json.loads(site.http("GET", "/api/worlds/tutorial/levels/walls/pack"))[
        "body"
    ].popitem()
    pack["manifest"]["id"] = "mine"
    site.http("POST", "/api/library", json.dumps({"text": json.dumps(pack)}))
    exported = site_export(site)
    assert exported["games"] and exported["progress"] and exported["library"]
    file = tmp_path / "progress.json"
    file.write_text(json.dumps(exported), encoding="utf-8")

    assert main(["progress", "import", str(file), "--db", str(database)]) == 0
    capsys.readouterr()
    assert main(["progress", "export", "--db", str(database)]) == 0
    assert json.loads(capsys.readouterr().out) == exported

    back = SiteBackend()
    back.http("POST", "/api/progress/import", json.dumps(exported))
    assert site_export(back) == exported


def test_an_import_keeps_the_fewer_moves_and_an_unfinished_game_on_the_same_level(
    tmp_path: Path, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = SiteBackend()
    play(site, "tutorial", "first-steps", "RRRRRR")
    play(site, "tutorial", "first-steps", "RR")
    exported = site_export(site)
    file = tmp_path / "progress.json"
    file.write_text(json.dumps(exported), encoding="utf-8")

    assert main(["progress", "import", str(file), "--db", str(database)]) == 0
    capsys.readouterr()
    main(["progress", "export", "--db", str(database)])
    again = json.loads(capsys.readouterr().out)
    assert again["games"] == [{"pack": "tutorial", "level": "first-steps", "intents": ["R", "R"]}]
    assert again["progress"][0]["bestMoves"] == 6


def test_a_file_that_is_not_progress_is_refused_and_changes_nothing(
    tmp_path: Path, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "not.json"
    file.write_text('{"format": "something else"}', encoding="utf-8")
    assert main(["progress", "import", str(file), "--db", str(database)]) == 1
    assert "not a Miau progress file" in capsys.readouterr().err
    main(["progress", "export", "--db", str(database)])
    assert json.loads(capsys.readouterr().out)["progress"] == []
