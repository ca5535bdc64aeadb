"""Hypothesis strategies for small vocabulary-1 levels."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from miau.engine.vocabulary import FACINGS, VOCABULARY_1

NOUNS = ["MIAU", "ROCK", "FLAG", "KEY"]
WORD_TEXTS = [
    *NOUNS, "TEXT", "ALL", "IS", "IS", "IS", "AND", "NOT", "NOT", "HAS",
    "ON", "NEAR", "FACING", "LONELY", "YOU", "YOU", "PUSH", "STOP", "WIN", "SINK",
    "DEFEAT", "MOVE", "MOVE", "PULL", "SHIFT", "FLOAT", "HOT", "MELT", "OPEN", "SHUT", "WEAK",
]  # fmt: skip
SENTENCES = [
    "MIAU IS YOU", "ROCK IS MOVE", "NOT MIAU IS PUSH", "ROCK HAS KEY", "KEY IS PULL",
    "LONELY FLAG IS WIN", "ROCK NEAR MIAU IS SHIFT", "MIAU IS NOT YOU", "ALL IS FLOAT",
    "TEXT IS MOVE", "ROCK IS WEAK", "MIAU FACING ROCK IS HOT", "KEY IS MELT",
    "ROCK ON FLAG IS KEY", "FLAG IS OPEN", "KEY IS SHUT AND STOP",
    "ROCK IS TEXT", "ROCK HAS TEXT", "TEXT IS FLAG", "TEXT HAS ROCK", "TEXT IS NOT PUSH",
]  # fmt: skip
KIND_MAKERS = [
    "ROCK IS TEXT", "KEY HAS TEXT", "TEXT HAS ROCK", "FLAG NEAR MIAU IS TEXT", "TEXT IS KEY",
    "TEXT ON ROCK IS KEY", "ROCK ON MIAU IS TEXT", "TEXT HAS TEXT", "ALL HAS TEXT",
    "TEXT NEAR MIAU IS ROCK",
]  # fmt: skip
"""Sentences that change kinds: things that become words, words that become things."""
KIND_PARTNERS = [
    "ALL IS WEAK", "TEXT IS WEAK", "ROCK IS SINK", "KEY IS WEAK", "TEXT NEAR MIAU IS WEAK",
    "KEY IS NOT TEXT", "TEXT IS TEXT", "ROCK IS PUSH", *KIND_MAKERS,
]  # fmt: skip
"""What goes with them: destroyers (for HAS), blockers and more makers."""


@st.composite
def tier1_levels(draw: st.DrawFn, max_side: int = 6) -> dict[str, Any]:
    """A small vocabulary-1 level: a few sentences, stray words and objects facing anywhere.

    Half of them are about kinds: MIAU IS YOU, a sentence of ``KIND_MAKERS``
    and more of ``KIND_PARTNERS``.
    """
    width = draw(st.integers(3, max_side))
    height = draw(st.integers(3, max_side))
    objects: list[dict[str, Any]] = []
    kinds = draw(st.booleans())
    rows = draw(
        st.lists(st.integers(0, height - 1), min_size=3 if kinds else 1, max_size=4, unique=True)
    )
    for index, y in enumerate(rows):
        if not kinds:
            pool = SENTENCES
        else:
            pool = ["MIAU IS YOU"] if index == 0 else KIND_MAKERS if index == 1 else KIND_PARTNERS
        words = draw(st.sampled_from(pool)).split()
        if len(words) <= width:
            objects.extend({"kind": "word", "text": t, "x": i, "y": y} for i, t in enumerate(words))
    cell = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    for _ in range(draw(st.integers(0, 4))):
        x, y = draw(cell)
        objects.append({"kind": "word", "text": draw(st.sampled_from(WORD_TEXTS)), "x": x, "y": y})
    for _ in range(draw(st.integers(1, 6))):
        x, y = draw(cell)
        objects.append(
            {
                "kind": "object",
                "noun": draw(st.sampled_from(NOUNS)),
                "x": x,
                "y": y,
                "facing": draw(st.sampled_from(FACINGS)),
            }
        )
    order = draw(st.permutations(range(len(objects))))
    return {
        "width": width,
        "height": height,
        "objects": [objects[i] for i in order],
        "features": [VOCABULARY_1],
    }


moves = st.lists(st.sampled_from(["up", "down", "left", "right", "wait"]), max_size=12)


EMPTY_FILLERS = [
    "EMPTY IS ROCK", "EMPTY IS KEY", "EMPTY NEAR MIAU IS KEY", "LONELY EMPTY IS FLAG",
    "EMPTY NEAR EMPTY IS ROCK", "EMPTY IS KEY AND ROCK", "EMPTY NEAR NOT ROCK IS KEY",
]  # fmt: skip
"""Sentences that make things in empty cells."""
EMPTY_REMOVERS = [
    "ROCK IS EMPTY", "KEY IS EMPTY", "TEXT IS EMPTY", "FLAG NEAR MIAU IS EMPTY",
    "ROCK ON KEY IS EMPTY", "LONELY KEY IS EMPTY",
]  # fmt: skip
"""Sentences that turn things into nothing."""
EMPTY_PARTNERS = [
    "EMPTY IS EMPTY", "EMPTY IS NOT ROCK", "ROCK IS NOT EMPTY", "ROCK IS ROCK", "KEY IS MOVE",
    "MIAU NEAR EMPTY IS WIN", "MIAU FACING EMPTY IS PUSH", "ROCK ON EMPTY IS WIN",
    "KEY HAS EMPTY", "ROCK IS SINK", "ROCK IS TEXT", "EMPTY IS YOU", "NOT EMPTY IS PUSH",
    "KEY HAS ROCK", "ROCK IS KEY", "KEY IS ROCK", "ROCK IS PUSH",
]  # fmt: skip
"""What goes with them: locks, blocks, conditions on EMPTY, destroyers and kind changes."""


@st.composite
def empty_levels(draw: st.DrawFn, max_side: int = 5) -> dict[str, Any]:
    """A small vocabulary-1 level about EMPTY: MIAU IS YOU, a filler, a remover, a partner.

    Stray words include ``EMPTY`` and ``IS``, so play forms and breaks the
    sentences; some levels carry an automaton (EMPTY IS X before and after it).
    """
    width = draw(st.integers(3, max_side))
    height = draw(st.integers(3, max_side))
    objects: list[dict[str, Any]] = []
    rows = draw(st.lists(st.integers(0, height - 1), min_size=3, max_size=4, unique=True))
    pools = [["MIAU IS YOU"], EMPTY_FILLERS, EMPTY_REMOVERS, EMPTY_PARTNERS]
    for pool, y in zip(pools, rows, strict=False):
        words = draw(st.sampled_from(pool)).split()
        x0 = draw(st.integers(0, max(0, width - len(words))))
        if len(words) <= width:
            objects.extend(
                {"kind": "word", "text": t, "x": x0 + i, "y": y} for i, t in enumerate(words)
            )
    cell = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    for _ in range(draw(st.integers(0, 3))):
        x, y = draw(cell)
        text = draw(st.sampled_from(["EMPTY", "IS", "ROCK", "KEY", *WORD_TEXTS[:4]]))
        objects.append({"kind": "word", "text": text, "x": x, "y": y})
    for _ in range(draw(st.integers(1, 4))):
        x, y = draw(cell)
        objects.append(
            {
                "kind": "object",
                "noun": draw(st.sampled_from(NOUNS)),
                "x": x,
                "y": y,
                "facing": draw(st.sampled_from(FACINGS)),
            }
        )
    level: dict[str, Any] = {
        "width": width,
        "height": height,
        "objects": objects,
        "features": [VOCABULARY_1],
    }
    if draw(st.booleans()):
        level["automata"] = [{"id": "tick", "property": "TICK", "pattern": ["R", "D", "L", "W"]}]
        y = draw(st.integers(0, height - 1))
        objects.extend(
            {"kind": "word", "text": t, "x": i, "y": y} for i, t in enumerate(["KEY", "IS", "TICK"])
        )
    return level
