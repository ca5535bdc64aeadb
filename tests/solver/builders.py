"""Builders and fixtures shared by the solver tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.engine.builders import level, sentence, thing, word

__all__ = [
    "LEVELS",
    "PACKS",
    "SHIPPED_PACKS",
    "fixture_level",
    "level",
    "sentence",
    "thing",
    "word",
]

HERE = Path(__file__).parent
LEVELS = HERE / "levels"
PACKS = HERE / "packs"
SHIPPED_PACKS = sorted((HERE.parent.parent / "packs").glob("*.json"))


def fixture_level(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LEVELS / f"{name}.json").read_text(encoding="utf-8"))
    return data
