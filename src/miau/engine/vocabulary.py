"""The fixed words of the rule language and the limits every level obeys.

Both the engine and the pack loader import these, so a word or limit is
declared exactly once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from miau.engine.pickling import init_arguments

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

VOCABULARY_1: Final = "vocabulary-1"
"""The feature flag of the Tier-1 vocabulary (``docs/vocabulary.md``).

A level whose engine dict lists it in ``features`` reads the words below;
any other level reads them as nouns, exactly as before the feature existed.
"""

NOT: Final = "NOT"
HAS: Final = "HAS"
LONELY: Final = "LONELY"
ON: Final = "ON"
NEAR: Final = "NEAR"
FACING: Final = "FACING"
INFIX_CONDITIONS: Final = (ON, NEAR, FACING)
TIER1_OPERATORS: Final = frozenset({IS, AND, NOT, HAS, LONELY, *INFIX_CONDITIONS})
"""The operators of a vocabulary-1 level: they are never nouns or properties there."""

TEXT: Final = "TEXT"
ALL: Final = "ALL"
LEVEL: Final = "LEVEL"
EMPTY: Final = "EMPTY"
TIER1_NOUNS: Final = frozenset({TEXT, ALL, LEVEL, EMPTY})
"""Built-in nouns of vocabulary-1 (the selectors TEXT, ALL and EMPTY, and the level
itself): no object may be called by them."""

MOVE: Final = "MOVE"
PULL: Final = "PULL"
SHIFT: Final = "SHIFT"
FLOAT: Final = "FLOAT"
HOT: Final = "HOT"
MELT: Final = "MELT"
OPEN: Final = "OPEN"
SHUT: Final = "SHUT"
WEAK: Final = "WEAK"
TIER1_PROPERTIES: Final = (MOVE, PULL, SHIFT, FLOAT, HOT, MELT, OPEN, SHUT, WEAK)
"""The properties vocabulary-1 adds to the six core ones."""

ACCENTS: Final = (
    *(word.lower() for word in CORE_PROPERTIES),
    *(word.lower() for word in TIER1_PROPERTIES),
    "tick",
)
"""The property colours a word tile can take, each distinct from every other (``miau.css``).

Each core and vocabulary-1 property has its own; ``tick`` is the colour of
Clockwork's TICK, free for any pack's own word. A pack's glossary gives
each of its declared words one of these.
"""

GLOSSARY: Final[dict[str, tuple[str, str]]] = {
    MOVE: ("move", "Steps once along its facing after each turn, and turns round when blocked."),
    PULL: ("pull", "Follows whatever moves away from it, one cell behind."),
    SHIFT: ("shift", "Carries everything on it one cell along its facing each turn."),
    FLOAT: ("float", "Floats above the rest: it touches only things that float too."),
    HOT: ("hot", "Melts every MELT thing that shares its cell."),
    MELT: ("melt", "Is destroyed in a cell with something HOT."),
    OPEN: ("open", "Opens a SHUT thing in its cell: both are destroyed."),
    SHUT: ("shut", "Is opened by an OPEN thing in its cell: both are destroyed."),
    WEAK: ("weak", "Breaks as soon as anything shares its cell."),
}
"""The player-facing glossary of the built-in vocabulary-1 properties: for each word, its
accent (its own colour, one of ``ACCENTS``) and what it does, in one sentence.

The core six need no entry: their colours and meanings are the game's first lessons. A
pack may give its own entry for any word; its entry wins.
"""


@dataclass(frozen=True, slots=True)
class Contact:
    """What the contact step (the turn's step 7) does with a property or a pair, in players' words.

    A glossary sentence says what a word is for and a pack may reword it; a contact states
    the engine's rule exactly, so no pack can change it. ``words`` are the properties it is
    about (the game shows it when one of them is on the board); ``meeting`` is what happens
    when things holding them meet; ``entering`` what the pair changes in movement, if
    anything; ``itself`` what happens to one thing that holds both ``both`` alone, when a
    thing can hold both sides. Each sentence is pinned to the engine by
    ``tests/engine/vocabulary/test_contact_sentences.py``.
    """

    words: tuple[str, ...]
    meeting: str
    entering: str | None = None
    both: tuple[str, str] | None = None
    itself: str | None = None

    def to_json(self) -> dict[str, object]:
        """The client's form: ``{words, meeting, entering, both, itself}`` (absent parts null)."""
        return {
            "words": list(self.words),
            "meeting": self.meeting,
            "entering": self.entering,
            "both": None if self.both is None else list(self.both),
            "itself": self.itself,
        }

    def __reduce__(self) -> tuple[type[Contact], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


CONTACT_MEETING: Final = "Things meet when they share a cell at the end of a turn."
"""When the contacts below apply: once a turn, after every move (``docs/vocabulary.md``, step 7)."""

CONTACT_FLOAT: Final = "FLOAT things meet only things that float too."
"""The layer rule every contact follows where FLOAT is a property (vocabulary-1)."""

_ENTERING: Final = "Either may move into the other's cell, even when it is STOP."

CONTACTS: Final = (
    Contact(
        (OPEN, SHUT),
        "OPEN and SHUT things that meet destroy each other, one for one.",
        entering=_ENTERING,
        both=(OPEN, SHUT),
        itself="A thing that is both OPEN and SHUT destroys itself.",
    ),
    Contact((SINK,), "A SINK thing that meets anything sinks, taking everything it meets with it."),
    Contact((WEAK,), "A WEAK thing that meets anything breaks; only WEAK things break."),
    Contact(
        (HOT, MELT),
        "A MELT thing that meets a HOT thing melts; the HOT thing stays.",
        both=(HOT, MELT),
        itself="A thing that is both HOT and MELT melts itself.",
    ),
    Contact(
        (DEFEAT,),
        "A YOU thing that meets a DEFEAT thing is destroyed; the DEFEAT thing stays.",
        both=(YOU, DEFEAT),
        itself="A thing that is both YOU and DEFEAT destroys itself.",
    ),
)
"""The built-in contacts that destroy, in the contact step's order: every property whose
meeting destroys something is in one of them. A level's Clockwork pairs add theirs
(``PAIR_CONTACT``)."""

PAIR_CONTACT: Final = Contact(
    ("{first}", "{second}"),
    "{first} and {second} things that meet destroy each other, one for one.",
    entering=_ENTERING,
    both=("{first}", "{second}"),
    itself=(
        "A thing that is both {first} and {second} is not destroyed alone, only with "
        "another {first} or {second} thing it meets."
    ),
)
"""The contact of a level's Clockwork pair (``level.pairs``, effect ``destroy-both``), with
``{first}`` and ``{second}`` for its words; ``entering`` holds only for a pair that says
``enter``. Unlike OPEN and SHUT, a thing never pairs with itself."""


def pair_contact(first: str, second: str, *, enter: bool) -> Contact:
    """The contact of the Clockwork pair ``first``/``second`` (``enter``: its movers may enter)."""

    def fill(text: str) -> str:
        return text.format(first=first, second=second)

    return Contact(
        (first, second),
        fill(PAIR_CONTACT.meeting),
        entering=_ENTERING if enter else None,
        both=(first, second),
        itself=fill(PAIR_CONTACT.itself or ""),
    )


SINK_CAUSE: Final = "sink"
DEFEAT_CAUSE: Final = "defeat"
OPEN_CAUSE: Final = "open"
WEAK_CAUSE: Final = "weak"
MELT_CAUSE: Final = "melt"
EMPTY_CAUSE: Final = "empty"
DESTROY_CAUSES: Final = (SINK_CAUSE, DEFEAT_CAUSE, MELT_CAUSE, WEAK_CAUSE, OPEN_CAUSE, EMPTY_CAUSE)
"""The causes of the turn's built-in destructions, each announced and sounded by the client in
its own words. An event's ``destroyed`` record may also name a Clockwork pair's first word (in
lower case: a pack's own word, announced generically) or, for undo, reset and restore, the
action that took a thing away."""

TIER1_WORDS: Final = frozenset(
    {*TIER1_OPERATORS, *TIER1_NOUNS, *CORE_PROPERTIES, *TIER1_PROPERTIES}
)
"""Every word with a fixed meaning in a vocabulary-1 level."""

TOKEN_PATTERN: Final = re.compile(r"[A-Z][A-Z0-9_-]{0,31}")
"""Every word text, noun and declared property matches this."""


@dataclass(frozen=True, slots=True)
class Direction:
    """One intent of the move alphabet: its name, its letter, its vector and its facing.

    ``facing`` is the index into ``FACINGS`` an entity takes when it moves
    this way; the wait has none.
    """

    name: str
    letter: str
    vector: tuple[int, int] | None
    facing: int | None

    def __reduce__(self) -> tuple[type[Direction], tuple[object, ...]]:
        """Pickle as a call of the class (``miau.engine.pickling``: the compiled build needs it)."""
        return type(self), init_arguments(self)


Facing = Literal["right", "down", "left", "up"]
FACINGS: Final[tuple[Facing, ...]] = ("right", "down", "left", "up")
"""The facings an entity can have, indexed as ``Direction.facing`` and in snapshots."""

UP: Final = Direction("up", "U", (0, -1), 3)
DOWN: Final = Direction("down", "D", (0, 1), 1)
LEFT: Final = Direction("left", "L", (-1, 0), 2)
RIGHT: Final = Direction("right", "R", (1, 0), 0)
WAIT: Final = Direction("wait", "W", None, None)

MOVE_ALPHABET: Final[tuple[Direction, ...]] = (UP, DOWN, LEFT, RIGHT, WAIT)
"""The one table of intents, in the order the solver tries them (``U D L R W``).

Everything else (the engine's intents, pattern steps, move strings, the
pack format's solution letters, the solver, the command line) derives from it.
"""

CARDINALS: Final[tuple[Direction, ...]] = tuple(d for d in MOVE_ALPHABET if d.vector is not None)
"""The four moves that have a vector (``U D L R``): the alphabet without the wait."""

DIRECTIONS: Final[dict[str, tuple[int, int]]] = {
    d.name: d.vector for d in MOVE_ALPHABET if d.vector is not None
}
"""Cardinal intents and their unit vectors (x grows right, y grows down)."""

MOVE_LETTERS: Final[dict[str, str]] = {d.letter: d.name for d in MOVE_ALPHABET}
"""The move alphabet of replays and solutions: letter to intent name; W is a wait."""

MOVE_LETTER_STRING: Final = "".join(d.letter for d in MOVE_ALPHABET)
"""``"UDLRW"``: the letters of move strings and stored solutions."""

FACING_OF_VECTOR: Final[dict[tuple[int, int], int]] = {
    d.vector: d.facing for d in MOVE_ALPHABET if d.vector is not None and d.facing is not None
}
"""The facing index an entity takes when it moves by a unit vector."""

VECTOR_OF_FACING: Final[tuple[tuple[int, int], ...]] = tuple(
    next(d.vector for d in CARDINALS if d.facing == facing and d.vector is not None)
    for facing in range(len(FACINGS))
)
"""The unit vector of each facing index (right, down, left, up): a move along a facing."""

INTENT_OF_NAME: Final[dict[str, Direction]] = {d.name: d for d in MOVE_ALPHABET}
"""Each intent of the move alphabet by its name (``up`` ... ``wait``): the wire form."""

INTENT_OF_LETTER: Final[dict[str, Direction]] = {d.letter: d for d in MOVE_ALPHABET}
"""Each intent of the move alphabet by its letter (``U D L R W``): the stored form."""

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
    d.letter: d.vector or WAIT_STEP for d in MOVE_ALPHABET
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
