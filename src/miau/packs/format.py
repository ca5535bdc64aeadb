"""The fixed vocabulary of the pack format: field names, patterns and limits.

The validator, the model and the documentation all read these, so a limit
is stated once. Limits shared with the engine come from
:mod:`miau.engine.vocabulary`.
"""

from __future__ import annotations

import re
from typing import Final, Literal, get_args

from miau.engine.vocabulary import (
    MAX_AUTOMATA,
    MAX_LEVEL_OBJECTS,
    MAX_LEVEL_SIDE,
    MAX_PAIRS,
    MAX_PATTERN_STEPS,
    MOVE_LETTER_STRING,
    PAIR_EFFECTS,
    VOCABULARY_1,
)

__all__ = [
    "ACCENTS",
    "AUTOMATON_FIELDS",
    "ENGINE_VERSION",
    "FACES",
    "GLOSSARY_FIELDS",
    "GLYPH_FIELDS",
    "ID_WHAT",
    "KNOWN_FEATURES",
    "LEGEND_FIELDS",
    "LEVEL_FIELDS",
    "LEVEL_ID_PATTERN",
    "MANIFEST_FIELDS",
    "MAX_AUTOMATA",
    "MAX_DESCRIBE_LENGTH",
    "MAX_GLYPH_LENGTH",
    "MAX_HINTS",
    "MAX_HINT_LENGTH",
    "MAX_IDEAS",
    "MAX_IDEA_LENGTH",
    "MAX_LEVEL_OBJECTS",
    "MAX_LEVEL_SIDE",
    "MAX_NAME_LENGTH",
    "MAX_PACK_LEVELS",
    "MAX_PAIRS",
    "MAX_PATTERN_STEPS",
    "MAX_SOLVER_MAX",
    "OBJECT_FIELDS",
    "PACK_FIELDS",
    "PACK_ID_PATTERN",
    "PAIR_EFFECTS",
    "PAIR_FIELDS",
    "SOLUTION_LETTERS",
    "TIERS",
    "VERSION_PATTERN",
    "Accent",
    "Faces",
    "Tier",
]

ENGINE_VERSION: Final = 1
"""The only ``manifest.engine`` this build plays."""

KNOWN_FEATURES: Final = frozenset({"automata", "pairs", VOCABULARY_1})
"""Feature flags this build understands (Clockwork ask 8; ``vocabulary-1``: issue 10)."""

MAX_PACK_LEVELS: Final = 64
MAX_NAME_LENGTH: Final = 80
"""Longest pack name and level title, in characters."""
MAX_HINT_LENGTH: Final = 200
MAX_HINTS: Final = 3
"""Most hints a level may give: a nudge first, then plainer ones, one per request."""
MAX_DESCRIBE_LENGTH: Final = 80
MAX_GLYPH_LENGTH: Final = 16
"""Longest palette glyph: room for any emoji sequence, not for a sentence."""
MAX_SOLVER_MAX: Final = 50_000_000
MAX_IDEAS: Final = 16
"""Most needed rule changes a level's stored idea signature lists."""
MAX_IDEA_LENGTH: Final = 200

# fullmatch is used with every pattern: "$" alone would accept a trailing newline.
PACK_ID_PATTERN: Final = re.compile(r"[a-z][a-z0-9._-]{1,63}")
LEVEL_ID_PATTERN: Final = re.compile(r"[a-z][a-z0-9-]{0,63}")
ID_WHAT: Final = 'an id of 1 to 64 lowercase letters, digits and "-", starting with a letter'
"""What a level or automaton id looks like, for messages."""
VERSION_PATTERN: Final = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")

Accent = Literal[
    "you",
    "push",
    "stop",
    "win",
    "sink",
    "defeat",
    "move",
    "pull",
    "shift",
    "float",
    "hot",
    "melt",
    "open",
    "shut",
    "weak",
    "tick",
]
ACCENTS: Final[tuple[Accent, ...]] = get_args(Accent)
"""The accents a glossary entry may name: ``miau.engine.vocabulary.ACCENTS``, as a type."""

Tier = Literal["required", "optional", "challenge"]
TIERS: Final[tuple[Tier, ...]] = ("required", "optional", "challenge")

Faces = Literal["left", "right"]
FACES: Final[tuple[Faces, ...]] = ("left", "right")

SOLUTION_LETTERS: Final = MOVE_LETTER_STRING

PACK_FIELDS: Final = ("manifest", "palette", "vocabulary", "properties", "levels")
MANIFEST_FIELDS: Final = ("id", "name", "version", "engine", "features", "author", "description")
GLYPH_FIELDS: Final = ("glyph", "faces")
GLOSSARY_FIELDS: Final = ("accent", "describe")
LEVEL_FIELDS: Final = (
    "id",
    "title",
    "hint",
    "hints",
    "width",
    "height",
    "tier",
    "objects",
    "map",
    "legend",
    "automata",
    "pairs",
    "solution",
    "solverMax",
    "ideas",
    "repeats",
)
OBJECT_FIELDS: Final = ("kind", "noun", "text", "x", "y", "facing")
LEGEND_FIELDS: Final = ("word", "noun")
AUTOMATON_FIELDS: Final = ("id", "subject", "property", "phase", "pattern")
PAIR_FIELDS: Final = ("words", "effect", "enter")
