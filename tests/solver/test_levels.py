"""read_levels: a file is read once, told apart as pack or level, and warnings find their level."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from miau.solver import read_levels
from tests.solver.builders import LEVELS, PACKS


def _proof_pack() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        (PACKS / "clockwork-proof.json").read_text(encoding="utf-8")
    )
    return document


def test_a_warning_goes_to_the_level_it_points_at_by_its_location(tmp_path: Path) -> None:
    document = _proof_pack()
    quiet = json.loads(json.dumps(document["levels"][0]))
    quiet["id"] = "quiet"
    del quiet["automata"]
    for entity in quiet["objects"]:
        if entity.get("text") == "TICK":
            entity["text"] = "WIN"
    del document["manifest"]["features"]  # the automata level now warns about it
    document["levels"].insert(0, quiet)
    path = tmp_path / "two-levels.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    loaded = read_levels(path)
    first, second = loaded.levels
    assert first.warnings == ()
    assert second.warnings and all(w.startswith("levels[1].") for w in second.warnings)
    assert loaded.warnings == ()


def test_a_level_file_is_one_level_named_after_the_file() -> None:
    loaded = read_levels(LEVELS / "mouse-keeps-time.json")
    assert loaded.pack_id is None
    (spec,) = loaded.levels
    assert (spec.id, spec.title) == ("mouse-keeps-time", "mouse-keeps-time")


def test_a_file_is_read_from_disk_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    read_bytes, read_text = Path.read_bytes, Path.read_text

    def counting_bytes(self: Path) -> bytes:
        reads.append(self.name)
        return read_bytes(self)

    def counting_text(self: Path, *args: Any, **kwargs: Any) -> str:
        reads.append(self.name)
        return read_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", counting_bytes)
    monkeypatch.setattr(Path, "read_text", counting_text)
    read_levels(PACKS / "clockwork-proof.json")
    read_levels(LEVELS / "mouse-keeps-time.json")
    assert reads == ["clockwork-proof.json", "mouse-keeps-time.json"]
