"""Text pictures of a board for the terminal: one fixed-width field per cell."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from miau.engine import Event, State
from miau.engine.vocabulary import YOU

CELL_WIDTH = 4


def render_board(state: State, glyphs: Mapping[str, str] | None = None) -> str:
    """The board as text: words in capitals, objects as glyphs (or lower-case nouns).

    A cell holding several entities shows a YOU among them if there is one
    (else the newest) and ends in ``+``.
    """
    level = state.level
    grid: list[list[list[int]]] = [[[] for _ in range(level.width)] for _ in range(level.height)]
    for ident in range(level.entity_count):
        where = state.position(ident)
        if where is not None:
            grid[where[1]][where[0]].append(ident)
    lines = []
    for row in grid:
        fields = []
        for stack in row:
            if not stack:
                fields.append(".".ljust(CELL_WIDTH))
                continue
            you = [i for i in stack if not state.is_word(i) and _is_you(state, i)]
            top = you[-1] if you else stack[-1]
            name = state.noun(top)
            if state.is_word(top):
                label = name[: CELL_WIDTH - 1]
            elif glyphs and name in glyphs:
                label = glyphs[name]
            else:
                label = name[: CELL_WIDTH - 1].lower()
            if len(stack) > 1:
                label = label[:2] if display_width(label[:2]) <= 2 else label[:1]
                label += " " * (2 - display_width(label)) + "+"
            fields.append(label + " " * (CELL_WIDTH - display_width(label)))
        lines.append("".join(fields).rstrip())
    return "\n".join(lines)


def _is_you(state: State, ident: int) -> bool:
    return YOU in state.rules_table.props.get(state.noun(ident), ())


def describe_rules(state: State) -> str:
    """The active rules, one per line."""
    if not state.rules:
        return "  (no rules)"
    return "\n".join(f"  {rule.text()}" for rule in state.rules)


def _rule_words(record: Mapping[str, Any]) -> str:
    """A rule record as words: its ``text`` when it is more than ``X IS Y`` (HAS, NOT, conditions)."""
    return str(record.get("text") or f"{record['subject']} IS {record['predicate']}")


def describe_event(event: Event) -> list[str]:
    """Plain-language lines for the rule changes, transformations, destructions and makings."""
    record = event.to_json()
    lines = [f"  + {_rule_words(r)}" for r in record["rulesAdded"]]
    lines += [f"  - {_rule_words(r)}" for r in record["rulesRemoved"]]
    lines += [f"  ~ #{t['id']} {t['from']} becomes {t['to']}" for t in record["transformed"]]
    for gone in record["destroyed"]:
        name = gone.get("noun") or gone.get("text")
        x, y = gone["at"]
        lines.append(f"  x #{gone['id']} {name} at ({x}, {y}) destroyed by {gone['cause']}")
    for made in record.get("created", ()):
        x, y = made["at"]
        lines.append(f"  * #{made['id']} {made['noun']} made at ({x}, {y}) by EMPTY")
    if record["controlLost"]:
        lines.append("  ! nothing is YOU: undo or restart")
    return lines


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide characters (most emoji) take two."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        if "\ufe00" <= char <= "\ufe0f":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width
