"""Hypothesis strategies for small random levels and move sequences."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

WORD_TEXTS = [
    "MIAU", "ROCK", "FLAG", "WALL", "IS", "IS", "IS", "AND",
    "YOU", "YOU", "PUSH", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "TICK", "OPEN", "SHUT",
]  # fmt: skip
NOUNS = ["MIAU", "ROCK", "FLAG", "WALL"]
INTENTS = ["up", "down", "left", "right", "wait"]


@st.composite
def levels(draw: st.DrawFn) -> dict[str, Any]:
    """A small level, usually starting with MIAU IS YOU, sometimes with automata and pairs."""
    width = draw(st.integers(3, 6))
    height = draw(st.integers(3, 6))
    cell = st.tuples(st.integers(0, width - 1), st.integers(0, height - 1))
    objects: list[dict[str, Any]] = []
    if draw(st.booleans()) or draw(st.booleans()):
        x, y = draw(st.tuples(st.integers(0, width - 3), st.integers(0, height - 1)))
        axis_v = draw(st.booleans()) and height >= 3 and y <= height - 3 and x < width
        for i, text in enumerate(("MIAU", "IS", "YOU")):
            objects.append(
                {
                    "kind": "word",
                    "text": text,
                    "x": x if axis_v else x + i,
                    "y": y + i if axis_v else y,
                }
            )
    for _ in range(draw(st.integers(0, 7))):
        x, y = draw(cell)
        objects.append({"kind": "word", "text": draw(st.sampled_from(WORD_TEXTS)), "x": x, "y": y})
    for _ in range(draw(st.integers(1, 6))):
        x, y = draw(cell)
        objects.append({"kind": "object", "noun": draw(st.sampled_from(NOUNS)), "x": x, "y": y})
    order = draw(st.permutations(range(len(objects))))
    data: dict[str, Any] = {
        "width": width,
        "height": height,
        "objects": [objects[i] for i in order],
    }
    if draw(st.booleans()):
        steps = st.lists(st.sampled_from(list("UDLRW")), min_size=1, max_size=4)
        subject = draw(st.sampled_from([None, "ROCK", "FLAG"]))
        record: dict[str, Any] = {"id": "clock", "property": "TICK", "pattern": draw(steps)}
        if subject is not None:
            record["subject"] = subject
        data["automata"] = [record]
    if draw(st.booleans()):
        data["pairs"] = [
            {"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": draw(st.booleans())}
        ]
    return data


moves = st.lists(st.sampled_from(INTENTS), max_size=14)
"""A short sequence of player intents."""

actions = st.lists(st.sampled_from([*INTENTS, "undo", "reset"]), max_size=20)
"""Intents mixed with undo and reset."""

garbage = st.one_of(
    st.sampled_from(["", "UP", "north", "up-left", "wait ", "Left"]),
    st.none(),
    st.integers(),
    st.tuples(st.integers(-1, 1), st.integers(-1, 1)),
    st.text(max_size=5),
)
"""Things that are not intents."""
