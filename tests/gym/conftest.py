"""Small packs for the environment tests, built in code."""

from __future__ import annotations

from typing import Any

from miau.packs import Pack, load_pack


def word(text: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "word", "text": text, "x": x, "y": y}


def thing(noun: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "object", "noun": noun, "x": x, "y": y}


def sentence(text: str, x: int, y: int) -> list[dict[str, Any]]:
    return [word(token, x + i, y) for i, token in enumerate(text.split())]


def one_level_pack(
    objects: list[dict[str, Any]],
    width: int,
    height: int,
    *,
    automata: list[dict[str, Any]] | None = None,
) -> Pack:
    level: dict[str, Any] = {
        "id": "room",
        "title": "Room",
        "width": width,
        "height": height,
        "objects": objects,
    }
    features = []
    if automata:
        level["automata"] = automata
        features.append("automata")
    manifest = {"id": "test-room", "name": "Test room", "version": "1.0.0", "engine": 1}
    if features:
        manifest["features"] = features
    return load_pack({"manifest": manifest, "levels": [level]})
