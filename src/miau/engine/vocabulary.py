"""The fixed words of the rule language and the limits every level obeys.

Both the engine and the pack loader import these, so a word or limit is
declared exactly once.
"""

from __future__ import annotations

import re
from typing import Final

IS: Final = "IS"
AND: Final = "AND"
OPERATORS: Final = frozenset({IS, AND})

YOU: Final = "YOU"
PUSH: Final = "PUSH"
STOP: Final = "STOP"
WIN: Final = "WIN"
SINK: Final = "SINK"
DEFEAT: Final = "DEFEAT"
CORE_PROPERTIES: Final = (YOU, PUSH, STOP, WIN, SINK, DEFEAT)
"""The six core properties, in the order the glossary and accents use."""

RESERVED_WORDS: Final = frozenset({*OPERATORS, *CORE_PROPERTIES})
"""Words a pack may not declare as its own property or use as a noun."""

TOKEN_PATTERN: Final = re.compile(r"[A-Z][A-Z0-9_-]{0,31}")
"""Every word text, noun and declared property matches this."""

DIRECTIONS: Final = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}
"""Cardinal intents and their unit vectors (x grows right, y grows down)."""

MOVE_LETTERS: Final = {"U": "up", "D": "down", "L": "left", "R": "right", "W": "wait"}
"""The move alphabet of replays and solutions; W is a wait."""

FACINGS: Final = ("right", "down", "left", "up")

MAX_AUTOMATA: Final = 32
MAX_PATTERN_STEPS: Final = 32
MAX_PAIRS: Final = 4
MAX_LEVEL_OBJECTS: Final = 4096
MAX_LEVEL_SIDE: Final = 64
PAIR_EFFECTS: Final = ("destroy-both",)

AutomatonStep = tuple[int, int]
"""A pattern step as a vector; (0, 0) is a wait."""

WAIT_STEP: Final[AutomatonStep] = (0, 0)

_STEP_LETTERS: Final[dict[str, AutomatonStep]] = {
    "U": (0, -1),
    "D": (0, 1),
    "L": (-1, 0),
    "R": (1, 0),
    "W": WAIT_STEP,
}


def parse_pattern_step(raw: object) -> AutomatonStep | None:
    """Read one automaton pattern step, or return None when it is not one.

    Accepted forms, in the loader and the engine alike (Clockwork ask 4):
    a letter ``U D L R W`` in either case, ``{"action": "wait"}``, and
    ``{"action": "move", "dx": DX, "dy": DY}`` with exactly one of DX, DY
    equal to +1 or -1 and the other 0.
    """
    if isinstance(raw, str):
        return _STEP_LETTERS.get(raw.upper())
    if not isinstance(raw, dict):
        return None
    action = raw.get("action")
    if action == "wait" and set(raw) == {"action"}:
        return WAIT_STEP
    if action != "move" or set(raw) != {"action", "dx", "dy"}:
        return None
    dx, dy = raw["dx"], raw["dy"]
    if type(dx) is not int or type(dy) is not int:
        return None
    if (abs(dx), abs(dy)) not in ((1, 0), (0, 1)):
        return None
    return (dx, dy)
