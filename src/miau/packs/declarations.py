"""Check a level's declarations: its automata (TICK) and pairs (OPEN/SHUT).

Both declare property words for the level; the words are collected so
later checks can tell a property from a noun.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Final

from miau.engine.vocabulary import MOVE_LETTER_STRING, parse_pattern_step
from miau.packs.format import (
    AUTOMATON_FIELDS,
    ID_WHAT,
    LEVEL_ID_PATTERN,
    MAX_AUTOMATA,
    MAX_PAIRS,
    MAX_PATTERN_STEPS,
    PAIR_EFFECTS,
    PAIR_FIELDS,
)
from miau.packs.issues import IssueLog, Location, render_place
from miau.packs.model import AutomatonData, PairData, StepData
from miau.packs.reading import FieldReader, check_token
from miau.packs.values import describe, integer_text, is_record, plural

__all__ = ["read_automata", "read_pairs"]

_STEP_WHAT: Final = (
    f"{', '.join(MOVE_LETTER_STRING)}, "
    '{"action": "wait"} or {"action": "move", "dx": DX, "dy": DY} '
    "with one of DX, DY equal to 1 or -1 and the other 0"
)


def read_automata(
    log: IssueLog, loc: Location, raw: Mapping[object, object]
) -> list[tuple[AutomatonData, Location]]:
    """Check the level's automata; return the sound ones, normalised, with their places."""
    records = FieldReader(log, loc, raw).array("automata", what="an array of automaton records")
    if records is None:
        return []
    if len(records) > MAX_AUTOMATA:
        log.error(
            (*loc, "automata"), f"has {len(records)} automata; a level has at most {MAX_AUTOMATA}"
        )
    automata: list[tuple[AutomatonData, Location]] = []
    seen_ids: dict[str, Location] = {}
    for index, record in enumerate(records):
        record_loc = (*loc, "automata", index)
        automaton = _read_automaton(log, record_loc, record, seen_ids)
        if automaton is not None:
            automata.append((automaton, record_loc))
    return automata


def _read_automaton(
    log: IssueLog, loc: Location, raw: object, seen_ids: dict[str, Location]
) -> AutomatonData | None:
    if not is_record(raw):
        log.error(
            loc,
            "must be an automaton such as "
            '{"id": "shuttle", "property": "TICK", "pattern": ["L", "R"]}; '
            f"found {describe(raw)}",
        )
        return None
    fields = FieldReader(log, loc, raw)
    fields.unsupported(AUTOMATON_FIELDS)
    automaton_id = fields.matching("id", LEVEL_ID_PATTERN, what=ID_WHAT, required=True)
    if automaton_id is not None:
        if automaton_id in seen_ids:
            first = render_place(seen_ids[automaton_id])
            log.error(
                (*loc, "id"), f"repeats the id of {first}; automaton ids are unique in a level"
            )
            automaton_id = None
        else:
            seen_ids[automaton_id] = loc
    subject = fields.token("subject", role="noun", what='a noun such as "MOUSE"')
    prop = fields.token(
        "property",
        role="property",
        required=True,
        what='the property word that drives it, such as "TICK"',
    )
    pattern = _read_pattern(fields)
    phase = fields.integer("phase", low=0, what="a step index (0 or more)")
    if phase is not None and pattern is not None and phase >= len(pattern):
        last = len(pattern) - 1
        steps = plural(len(pattern), "step")
        log.error(
            (*loc, "phase"),
            f"is {integer_text(phase)}, but the pattern has {steps} (phase 0 to {last})",
        )
        phase = None
    if (
        automaton_id is None
        or prop is None
        or pattern is None
        or ("phase" in raw and phase is None)
    ):
        return None
    if subject is None and "subject" in raw:
        return None
    if subject is None:
        return {"id": automaton_id, "property": prop, "phase": phase or 0, "pattern": pattern}
    return {
        "id": automaton_id,
        "subject": subject,
        "property": prop,
        "phase": phase or 0,
        "pattern": pattern,
    }


def _read_pattern(fields: FieldReader) -> list[StepData] | None:
    what = f"an array of 1 to {MAX_PATTERN_STEPS} steps"
    steps = fields.array("pattern", what=what, required=True)
    if steps is None:
        return None
    log = fields.log
    pattern_loc = (*fields.loc, "pattern")
    sound = True
    if not steps:
        log.error(pattern_loc, f"is empty; expected {what}")
        sound = False
    elif len(steps) > MAX_PATTERN_STEPS:
        log.error(pattern_loc, f"has {len(steps)} steps; a pattern has at most {MAX_PATTERN_STEPS}")
        sound = False
    pattern: list[StepData] = []
    for index, step in enumerate(steps):
        vector = parse_pattern_step(step) if isinstance(step, str | dict) else None
        if vector is None:
            log.error((*pattern_loc, index), f"must be {_STEP_WHAT}; found {describe(step)}")
            sound = False
        elif vector == (0, 0):
            pattern.append({"action": "wait"})
        else:
            pattern.append({"action": "move", "dx": vector[0], "dy": vector[1]})
    return pattern if sound else None


def read_pairs(
    log: IssueLog,
    loc: Location,
    raw: Mapping[object, object],
    properties: dict[str, Location],
    *,
    builtin: Collection[str] = (),
) -> list[PairData]:
    """Check the pairs; their words join ``properties`` (automaton words already there).

    ``builtin`` are words the level already has built in (the ``vocabulary-1``
    words, OPEN and SHUT among them): a pair may not claim one.
    """
    records = FieldReader(log, loc, raw).array("pairs", what="an array of pair records")
    if records is None:
        return []
    if len(records) > MAX_PAIRS:
        log.error((*loc, "pairs"), f"has {len(records)} pairs; a level has at most {MAX_PAIRS}")
    automaton_words = dict(properties)
    pairs: list[PairData] = []
    for index, record in enumerate(records):
        pair = _read_pair(log, (*loc, "pairs", index), record, automaton_words, properties, builtin)
        if pair is not None:
            pairs.append(pair)
    return pairs


def _read_pair(
    log: IssueLog,
    loc: Location,
    raw: object,
    automaton_words: Mapping[str, Location],
    properties: dict[str, Location],
    builtin: Collection[str],
) -> PairData | None:
    if not is_record(raw):
        log.error(
            loc,
            'must be a pair such as {"words": ["OPEN", "SHUT"], "effect": "destroy-both"}'
            f"; found {describe(raw)}",
        )
        return None
    fields = FieldReader(log, loc, raw)
    fields.unsupported(PAIR_FIELDS)
    words_what = 'two property words, such as ["OPEN", "SHUT"]'
    raw_words = fields.array("words", what=words_what, required=True)
    words: list[str] = []
    sound = raw_words is not None
    if raw_words is not None and len(raw_words) != 2:
        log.error((*loc, "words"), f"has {plural(len(raw_words), 'word')}; a pair has exactly 2")
        sound = False
    for index, value in enumerate(raw_words or ()):
        word_loc = (*loc, "words", index)
        word = check_token(log, word_loc, value, role="property", what="a property word")
        if word is None:
            sound = False
            continue
        problem = _pair_word_problem(word, words, automaton_words, properties, builtin)
        if problem is not None:
            log.error(word_loc, problem)
            sound = False
            continue
        words.append(word)
        properties[word] = word_loc
    effect = fields.choice("effect", PAIR_EFFECTS, required=True)
    enter = raw.get("enter", False)
    if not isinstance(enter, bool):
        log.error((*loc, "enter"), f"must be true or false; found {describe(enter)}")
        sound = False
    if not sound or effect is None or not isinstance(enter, bool):
        return None
    return {"words": words, "effect": effect, "enter": enter}


def _pair_word_problem(
    word: str,
    earlier_in_pair: list[str],
    automaton_words: Mapping[str, Location],
    properties: Mapping[str, Location],
    builtin: Collection[str],
) -> str | None:
    if word in builtin:
        return (
            f"{word} is a built-in vocabulary-1 word in this pack; a pair needs words of "
            'its own, such as ["KEY", "LOCK"] (or use the built-in OPEN and SHUT)'
        )
    if word in earlier_in_pair:
        return f"repeats {word}; a pair needs two different words"
    if word in automaton_words:
        first = render_place(automaton_words[word])
        return f"{word} is already an automaton property in this level ({first})"
    if word in properties:
        return f"{word} is already used by an earlier pair ({render_place(properties[word])})"
    return None
