"""Small builders for engine-level dicts, so each test shows its board plainly."""

from __future__ import annotations

from typing import Any

from miau.engine import Event, Game


def word(text: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "word", "text": text, "x": x, "y": y}


def thing(noun: str, x: int, y: int) -> dict[str, Any]:
    return {"kind": "object", "noun": noun, "x": x, "y": y}


def sentence(text: str, x: int, y: int, axis: str = "h") -> list[dict[str, Any]]:
    """Words of ``text`` laid out from (x, y) along ``axis``."""
    dx, dy = (1, 0) if axis == "h" else (0, 1)
    return [word(t, x + i * dx, y + i * dy) for i, t in enumerate(text.split())]


def level(width: int, height: int, *parts: Any, **extra: Any) -> dict[str, Any]:
    """A level from entity dicts and lists of them, in the order given (ids follow it)."""
    objects: list[dict[str, Any]] = []
    for part in parts:
        if isinstance(part, list):
            objects.extend(part)
        else:
            objects.append(part)
    return {"width": width, "height": height, "objects": objects, **extra}


def rule_pairs(game: Game) -> list[tuple[str, str]]:
    return [(rule.subject, rule.predicate) for rule in game.state.rules]


def state_json(game: Game) -> dict[str, Any]:
    """The settled state with its full history, so comparisons cover undo too."""
    return game.state.to_json(history=True)


def moved_ids(event: Event) -> list[int]:
    return [entry["id"] for entry in event.to_json()["moved"]]
