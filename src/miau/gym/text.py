"""A text observation for language-model agents, in the style of BALROG's BabaIsAI wrapper.

It lists the rules in force, then every thing and word tile relative to
each thing that is YOU, nearest first (ties in entity order)::

    Active rules:
    miau is you
    flag is win

    Objects on the map, relative to the miau you control at column 1, row 2:
    flag 6 steps to the right
    word `miau` 1 step to the left and 2 steps up

Words are lower case as BALROG writes them; a word tile is ``word `text```
(BALROG says ``rule `text```). With several things YOU, one section per
YOU; with nothing YOU, one section with each thing's column and row
(counted from 0 at the top left). Only plain ASCII is used.
"""

from __future__ import annotations

import string
from typing import Final

from miau.engine import RuleSet, State
from miau.engine.vocabulary import YOU

TEXT_CHARSET: Final = frozenset(string.ascii_letters + string.digits + " \n`,.:'_-()*")
"""Every character a text observation may hold (``gymnasium.spaces.Text``'s charset)."""

_LINE_BOUND: Final = 96
"""At most this many characters to one line (a noun has at most 32)."""


def text_bound(entity_count: int, section_count: int) -> int:
    """A safe upper bound on the length of a text observation of a level this large."""
    return _LINE_BOUND * (4 + 2 * entity_count + section_count * (entity_count + 2))


def rule_texts(rules: RuleSet) -> tuple[str, ...]:
    """A rule table as words, in table order (``MIAU IS YOU``, ``NOT ROCK IS STOP``...)."""
    texts = []
    for rule in rules.rules:
        text = getattr(rule, "text", None)
        texts.append(str(text()) if callable(text) else f"{rule.subject} IS {rule.predicate}")
    return tuple(texts)


def relative_place(dx: int, dy: int) -> str:
    """Where a cell ``dx`` columns right and ``dy`` rows down lies, in words."""
    parts = []
    if dx:
        parts.append(
            f"{abs(dx)} step{'' if abs(dx) == 1 else 's'} to the {'right' if dx > 0 else 'left'}"
        )
    if dy:
        parts.append(f"{abs(dy)} step{'' if abs(dy) == 1 else 's'} {'down' if dy > 0 else 'up'}")
    return " and ".join(parts) if parts else "on the same cell"


def describe(state: State, max_sections: int = 4) -> str:
    """The text observation of ``state`` (see the module docstring).

    ``max_sections`` caps how many things that are YOU get a section of their own.
    """
    level, now = state.level, state.now
    width = level.width
    rules = [text.lower() for text in rule_texts(state.rules_table)]
    lines = ["Active rules:", *(rules or ["(none)"]), ""]
    you_nouns = state.rules_table.holders.get(YOU, ())
    placed = [
        (ident, divmod(position, width))
        for ident, position in enumerate(now.positions)
        if position >= 0
    ]

    def name(ident: int) -> str:
        text = now.nouns[ident].lower()
        return f"word `{text}`" if now.kinds[ident] else text

    yous = [
        (ident, cell)
        for ident, cell in placed
        if not now.kinds[ident] and now.nouns[ident] in you_nouns
    ][:max_sections]
    if not yous:
        lines.append("Nothing is you. Objects on the map, by column and row:")
        lines += [f"{name(ident)} at column {x}, row {y}" for ident, (y, x) in placed]
        return "\n".join(lines)
    for number, (you, (you_y, you_x)) in enumerate(yous):
        if number:
            lines.append("")
        lines.append(
            f"Objects on the map, relative to the {now.nouns[you].lower()} you control "
            f"at column {you_x}, row {you_y}:"
        )
        others = sorted(
            (
                (abs(x - you_x) + abs(y - you_y), ident, x - you_x, y - you_y)
                for ident, (y, x) in placed
                if ident != you
            ),
        )
        lines += [f"{name(ident)} {relative_place(dx, dy)}" for _, ident, dx, dy in others]
    return "\n".join(lines)
