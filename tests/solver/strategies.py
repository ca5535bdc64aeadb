"""Small generated levels for the solver's exactness tests.

Rules are laid out as whole sentences (a random word soup rarely forms
one), with a loose word and a few objects on free cells, sometimes an
automaton and sometimes an OPEN/SHUT pair. Grids stay between 3x3 and 5x5
so that a naive search can enumerate most of them.

Hypothesis draws only a seed for Python's ``random``: its own draws lean
hard towards the simplest values (every object on one cell, a cat next to
its flag), while a seeded ``Random`` gives the spread of levels these
weights describe. A failure still names its seed and replays from it.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from miau.engine.vocabulary import MOVE_LETTER_STRING

NOUNS = ["MIAU", "ROCK", "FLAG", "WALL"]
VALUES = ["WIN", "PUSH", "PUSH", "STOP", "SINK", "DEFEAT", "YOU", "ROCK", "FLAG"]
LOOSE = ["IS", "AND", "YOU", "WIN", "PUSH", "ROCK", "FLAG"]


@st.composite
def small_levels(draw: st.DrawFn) -> dict[str, Any]:
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    width, height = rnd.randint(3, 5), rnd.randint(3, 5)
    automata = rnd.random() < 0.3
    pairs = rnd.random() < 0.15
    values = VALUES + ["TICK"] * automata + ["OPEN", "SHUT"] * pairs
    sentences = [("MIAU", "IS", "YOU")] if rnd.random() < 0.9 else []
    goal = rnd.choice(["FLAG", "FLAG", "ROCK", "WALL"])
    sentences.append((goal, "IS", "WIN"))
    for _ in range(rnd.randint(0, 1)):
        sentences.append((rnd.choice(NOUNS), "IS", rnd.choice(values)))
    objects: list[dict[str, Any]] = []
    taken: set[tuple[int, int]] = set()
    for words in sentences:
        # Sentences never share a cell: stacked sentences read as MIAU IS WIN too often.
        for _ in range(10):
            vertical = rnd.random() < 0.5
            x = rnd.randint(0, width - 1 if vertical else width - 3)
            y = rnd.randint(0, height - 3 if vertical else height - 1)
            cells = [(x, y + i) if vertical else (x + i, y) for i in range(len(words))]
            if not taken.intersection(cells):
                break
        else:
            continue
        taken.update(cells)
        for text, (cx, cy) in zip(words, cells, strict=True):
            objects.append({"kind": "word", "text": text, "x": cx, "y": cy})
    free = [(x, y) for y in range(height) for x in range(width) if (x, y) not in taken]
    rnd.shuffle(free)
    # Things piled on one cell make dull levels, so free cells go first.
    spots = iter(free + [(rnd.randrange(width), rnd.randrange(height)) for _ in range(8)])
    for _ in range(rnd.randint(0, 1)):
        x, y = next(spots)
        objects.append({"kind": "word", "text": rnd.choice(LOOSE), "x": x, "y": y})
    nouns = ["MIAU"] * (rnd.random() < 0.9) + [goal] * (rnd.random() < 0.85)
    nouns += [rnd.choice(NOUNS) for _ in range(rnd.randint(0, 2))]
    for noun in nouns:
        x, y = next(spots)
        objects.append({"kind": "object", "noun": noun, "x": x, "y": y})
    data: dict[str, Any] = {"width": width, "height": height, "objects": objects}
    if automata:
        record: dict[str, Any] = {
            "id": "clock",
            "property": "TICK",
            "pattern": [rnd.choice(MOVE_LETTER_STRING) for _ in range(rnd.randint(1, 3))],
        }
        subject = rnd.choice([None, "ROCK", "FLAG"])
        if subject is not None:
            record["subject"] = subject
        data["automata"] = [record]
    if pairs:
        data["pairs"] = [
            {"words": ["OPEN", "SHUT"], "effect": "destroy-both", "enter": rnd.random() < 0.5}
        ]
    return data
