"""Checks that need more than one level, or a level and the pack around it.

Level ids are unique in a pack; no object may be a property word; a level
using automata or pairs should say so in ``manifest.features``; and a word
tile nobody declared is flagged before it silently becomes a noun
(Clockwork ask 1, the noun trap).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from miau.engine.vocabulary import CORE_PROPERTIES, OPERATORS, TIER1_WORDS
from miau.packs.issues import IssueLog, Location, render_place
from miau.packs.level import LevelDraft

__all__ = ["check_across_levels"]


def check_across_levels(
    log: IssueLog,
    levels: Sequence[LevelDraft],
    *,
    features: Collection[str] | None,
    known_nouns: Collection[str],
    glossary: Mapping[str, Location],
) -> None:
    """Run every check that looks beyond a single level's own fields.

    ``features`` is None when the manifest could not be read (then no
    feature advice is given); ``known_nouns`` are the palette keys and
    vocabulary entries; ``glossary`` maps each glossary word to its place.
    """
    _check_level_ids(log, levels)
    if features is not None:
        _check_features(log, levels, features)
    known_words = set(known_nouns)
    for level in levels:
        known_words.update(p.entity["noun"] for p in level.entities if "noun" in p.entity)
    for level in levels:
        _check_property_nouns(log, level, glossary)
        _check_noun_trap(log, level, known_words, glossary)


def _check_level_ids(log: IssueLog, levels: Sequence[LevelDraft]) -> None:
    first: dict[str, Location] = {}
    for level in levels:
        if level.id is None:
            continue
        if level.id in first:
            log.error(
                (*level.loc, "id"),
                f"repeats the id of {render_place(first[level.id])}; "
                "level ids are unique in a pack",
            )
        else:
            first[level.id] = level.loc


def _check_features(log: IssueLog, levels: Sequence[LevelDraft], features: Collection[str]) -> None:
    for level in levels:
        for feature, used in (("automata", level.uses_automata), ("pairs", level.uses_pairs)):
            if used and feature not in features:
                log.warning(
                    (*level.loc, feature),
                    f'uses {feature}, but manifest.features does not list "{feature}"; add it, '
                    "so that a Miau without it refuses the pack instead of misreading this level",
                )


def _check_property_nouns(
    log: IssueLog, level: LevelDraft, glossary: Mapping[str, Location]
) -> None:
    """A noun that is also a property word would make its rules mean two things."""

    def problem(noun: str) -> str | None:
        if noun in level.properties:
            where = f"declared at {render_place(level.properties[noun])}"
            return f"{noun} is a property in this level ({where})"
        if noun in glossary:
            return f"{noun} is a property in this pack's glossary ({render_place(glossary[noun])})"
        return None

    for placed in level.entities:
        noun = placed.entity.get("noun")
        if noun is not None and (why := problem(noun)) is not None:
            log.error(placed.loc, f"noun {why}, so no object can be a {noun}; rename one of them")
    for automaton, loc in level.automata:
        subject = automaton.get("subject")
        if subject is not None and (why := problem(subject)) is not None:
            log.error((*loc, "subject"), f"{why}; a subject is a noun")


def _check_noun_trap(
    log: IssueLog,
    level: LevelDraft,
    known_words: Collection[str],
    glossary: Mapping[str, Location],
) -> None:
    """Warn about word tiles the engine would read as nouns nobody meant.

    A glossary word is a property only in the levels that declare it: the
    engine knows a level's properties from its automata and pairs alone.
    """
    for placed in level.entities:
        text = placed.entity.get("text")
        if text is None or text in OPERATORS or text in CORE_PROPERTIES:
            continue
        if level.vocabulary and text in TIER1_WORDS:
            continue
        if text in level.properties or text in known_words:
            continue
        if text in glossary:
            log.warning(
                placed.loc,
                f"word {text} is a property in this pack's glossary, but this level does not "
                f'declare it in automata or pairs, so here "X IS {text}" would turn things '
                f"into {text} things. Declare it in this level.",
            )
            continue
        log.warning(
            placed.loc,
            f"word {text} is neither a property nor a noun this pack knows; "
            f'"X IS {text}" would turn things into {text} things. '
            "Declare it in pairs or automata, or add it to vocabulary.",
        )
