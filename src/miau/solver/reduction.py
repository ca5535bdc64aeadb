"""The level the solver searches: a ``vocabulary-1`` level that uses only core words plays as a core one.

A ``vocabulary-1`` level's keys must carry every facing and kind, and its
grammar reads conditions and NOT, so a search on it merges fewer states and
pays for readings a core level never needs. None of that matters when no
Tier-1 word is on the board: without ``NOT``, ``TEXT``, ``MOVE``,
``HOT``... no rule can read a facing, change an entity's kind or switch on
a phase the core level leaves off, and the two move, transform, destroy
and win alike (``tests/solver/test_reduction.py`` plays generated
core-word levels both ways, move by move). Such a level is searched as a
core one; its solutions are move strings, which replay the same either way.

Levels with automata or Clockwork pairs are left as they are (pairs and
automata with the feature on are combinations no reduction test covers).
"""

from __future__ import annotations

import dataclasses

from miau.engine.level import Level
from miau.engine.vocabulary import (
    CORE_PROPERTIES,
    OPERATORS,
    TIER1_PROPERTIES,
    TIER1_WORDS,
    VOCABULARY_1,
)

TIER1_ONLY_WORDS = TIER1_WORDS - OPERATORS - frozenset(CORE_PROPERTIES)
"""The words whose presence makes the Tier-1 turn differ from the core one."""


def uses_only_core_words(level: Level) -> bool:
    """Whether ``level`` opts into ``vocabulary-1`` but no word of it is a Tier-1 word."""
    if not level.vocabulary or level.automata or level.pairs:
        return False
    return not any(level.texts[ident] in TIER1_ONLY_WORDS for ident in level.word_ids)


def search_level(level: Level) -> Level:
    """The level to search in place of ``level``: its core twin when it has one, else itself."""
    if not uses_only_core_words(level):
        return level
    return dataclasses.replace(
        level,
        features=tuple(feature for feature in level.features if feature != VOCABULARY_1),
        vocabulary=False,
        properties=level.properties - frozenset(TIER1_PROPERTIES),
    )
