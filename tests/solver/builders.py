"""Builders and fixtures shared by the solver tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
LEVELS = HERE / "levels"
PACKS = HERE / "packs"
SHIPPED_PACKS = sorted((HERE.parent.parent / "packs").glob("*.json"))


def fixture_level(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LEVELS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def word(text: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "word", "text": text, "x": x, "y": y}


def thing(noun: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "object", "noun": noun, "x": x, "y": y}


def sentence(text: str, x: int, y: int) -> list[dict[str, Any]]:
    """The words of ``text`` laid out left to right from (x, y)."""
    return [word(t, x + i, y) for i, t in enumerate(text.split())]


def level(width: int, height: int, *parts: Any, **extra: Any) -> dict[str, Any]:
    """A level from entity dicts and lists of them, in the order given."""
    objects: list[dict[str, Any]] = []
    for part in parts:
        objects.extend(part if isinstance(part, list) else [part])
    return {"width": width, "height": height, "objects": objects, **extra}
