"""Levels used by the benchmarks, built in code so they need no pack files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _word(text: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "word", "text": text, "x": x, "y": y}


def _thing(noun: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "object", "noun": noun, "x": x, "y": y}


def small_level() -> dict[str, Any]:
    """A tutorial-sized room: 9x7, a few rules, rocks to push and a flag."""
    objects = [_word(t, i, 0) for i, t in enumerate(("MIAU", "IS", "YOU"))]
    objects += [_word(t, 6 + i, 0) for i, t in enumerate(("FLAG", "IS", "WIN"))]
    objects += [_word(t, i, 6) for i, t in enumerate(("ROCK", "IS", "PUSH"))]
    objects += [_word(t, 6 + i, 6) for i, t in enumerate(("WALL", "IS", "STOP"))]
    objects += [_thing("WALL", 4, y) for y in range(1, 6)]
    objects += [_thing("ROCK", 2, 3), _thing("ROCK", 6, 2), _thing("MIAU", 1, 2)]
    objects += [_thing("FLAG", 7, 4)]
    return {"width": 9, "height": 7, "objects": objects}


def clockwork_level() -> dict[str, Any]:
    """Clockwork level 1, ``mouse-keeps-time``, as the shipped pack has it (or the document)."""
    pack_path = ROOT / "packs" / "clockwork.json"
    if pack_path.exists():
        from miau.packs import load_pack

        return dict(load_pack(pack_path).level("mouse-keeps-time").data)
    data: dict[str, Any] = json.loads(
        (ROOT / "tests" / "solver" / "levels" / "mouse-keeps-time.json").read_text()
    )
    return data


def large_level() -> dict[str, Any]:
    """A 30x30 walled field with 200+ entities: rocks, water, words and three cats."""
    size = 30
    objects = [_word(t, 1 + i, 1) for i, t in enumerate(("MIAU", "IS", "YOU"))]
    objects += [_word(t, 6 + i, 1) for i, t in enumerate(("WALL", "IS", "STOP"))]
    objects += [_word(t, 11 + i, 1) for i, t in enumerate(("ROCK", "IS", "PUSH"))]
    objects += [_word(t, 16 + i, 1) for i, t in enumerate(("WATER", "IS", "SINK"))]
    objects += [_word(t, 21 + i, 1) for i, t in enumerate(("FLAG", "IS", "WIN"))]
    for i in range(size):
        objects += [_thing("WALL", i, 0), _thing("WALL", i, size - 1)]
    for i in range(1, size - 1):
        objects += [_thing("WALL", 0, i), _thing("WALL", size - 1, i)]
    for y in range(4, size - 2, 3):
        for x in range(3, size - 2, 4):
            objects.append(_thing("ROCK", x, y))
    for x in range(2, size - 2, 2):
        objects.append(_thing("WATER", x, size - 3))
    objects += [_thing("MIAU", 2, 3), _thing("MIAU", 15, 15), _thing("MIAU", 26, 26)]
    objects.append(_thing("FLAG", 28, 28))
    return {"width": size, "height": size, "objects": objects}


LEVELS = {
    "small (9x7)": small_level,
    "clockwork mouse-keeps-time (11x7)": clockwork_level,
    "large (30x30)": large_level,
}
