"""Needed rule changes, idea signatures and the repetition audit (``miau.solver.ideas``)."""

from __future__ import annotations

import copy
import json
from typing import Any

from miau.packs import load_pack
from miau.solver import solve
from miau.solver.ideas import (
    NOT_NEEDED,
    SignedLevel,
    change_signature,
    level_ideas,
    repeated_ideas,
    repetition_warning,
    signature_text,
)
from miau.worlds import shipped_pack_path

LEGEND: dict[str, Any] = {
    "C": {"word": "MIAU"},
    "=": {"word": "IS"},
    "Y": {"word": "YOU"},
    "R": {"word": "ROCK"},
    "F": {"word": "FLAG"},
    "W": {"word": "WIN"},
    "c": "MIAU",
    "f": "FLAG",
}

# The WIN word must end below FLAG IS. Pushed up and then right along row 4, it
# passes under ROCK IS and reads ROCK IS WIN for a turn (there is no rock, so
# nothing comes of it); pushed right along row 5 and then up, it never does,
# and both ways take ten moves. The first in move order is the accident.
PASS_THROUGH = [
    "......C=Y",
    ".........",
    "...R.F...",
    "...=.=...",
    ".........",
    "..W......",
    "..c...f..",
]


def one_level_pack(rows: list[str], legend: dict[str, Any]) -> dict[str, Any]:
    """A one-level pack document around a map."""
    return {
        "manifest": {"id": "ideas-test", "name": "Ideas", "version": "1.0.0", "engine": 1},
        "levels": [
            {
                "id": "level",
                "title": "Level",
                "width": len(rows[0]),
                "height": len(rows),
                "map": rows,
                "legend": legend,
            }
        ],
    }


def level_data(rows: list[str], legend: dict[str, Any]) -> dict[str, Any]:
    """The engine dict of a one-level pack."""
    return dict(load_pack(one_level_pack(rows, legend)).levels[0].data)


def shortest(data: dict[str, Any]) -> str:
    """The level's shortest solution (the test levels are small enough to solve)."""
    moves = solve(data).moves
    assert moves is not None
    return moves


def test_a_word_passed_through_a_sentence_by_accident_is_not_a_needed_change() -> None:
    data = level_data(PASS_THROUGH, LEGEND)
    moves = shortest(data)
    ideas = level_ideas(data, moves)
    by_rule = {change.text: change for change in ideas.changes}
    assert by_rule["ROCK IS WIN"].formed
    assert by_rule["ROCK IS WIN"].verdict == NOT_NEEDED
    assert [change.text for change in ideas.cascades] == ["ROCK IS WIN"]


def test_a_level_that_needs_a_rule_formed_counts_it() -> None:
    data = level_data(PASS_THROUGH, LEGEND)
    ideas = level_ideas(data, shortest(data))
    assert [change.text for change in ideas.needed] == ["FLAG IS WIN"]
    assert ideas.signature == ("+[other] IS WIN",)


def test_the_change_signature_holds_every_change_cascades_included_without_a_search() -> None:
    data = level_data(PASS_THROUGH, LEGEND)
    moves = shortest(data)
    # The generator's cheap signature: what the full one would be if every change were needed.
    assert change_signature(data, moves) == ("+[other] IS WIN",)
    changes = level_ideas(data, moves).changes
    assert {change.idea for change in changes} == {"+[other] IS WIN"}, (
        "ROCK IS WIN and FLAG IS WIN are both +[other] IS WIN: one idea, listed once"
    )


def test_the_change_signature_of_a_needed_break_is_the_ideas_signature() -> None:
    level = load_pack(shipped_pack_path("tutorial")).level("break-the-wall")
    assert level.solution is not None
    assert change_signature(level.data, level.solution) == ("-[stop] IS STOP",)


def test_every_shipped_levels_stored_ideas_are_within_its_change_signature() -> None:
    checked = 0
    for world in ("tutorial", "deep-end", "lexicon", "clockwork"):
        for level in load_pack(shipped_pack_path(world)).levels:
            if level.ideas is None or level.solution is None:
                continue
            cheap = set(change_signature(level.data, level.solution))
            assert set(level.ideas) <= cheap, (world, level.id, level.ideas, cheap)
            checked += 1
    assert checked >= 40


def test_a_rule_the_level_needs_broken_counts_and_its_noun_becomes_its_role() -> None:
    level = load_pack(shipped_pack_path("tutorial")).level("break-the-wall")
    assert level.solution is not None
    ideas = level_ideas(level.data, level.solution)
    assert [change.text for change in ideas.needed] == ["WALL IS STOP"]
    assert ideas.signature == ("-[stop] IS STOP",)


def renamed(document: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The pack with every noun in ``names`` renamed, words, objects and palette alike."""
    text = json.dumps(document)
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def test_the_same_trick_with_other_nouns_has_the_same_signature() -> None:
    document = json.loads(shipped_pack_path("deep-end").read_text(encoding="utf-8"))
    level = next(item for item in document["levels"] if item["id"] == "head-in-the-clouds")
    one = {**document, "levels": [copy.deepcopy(level)]}
    other = renamed(one, {"MIAU": "KEY", "FLAG": "DOOR", "ROCK": "TREE", "WATER": "LAVA"})
    assert json.dumps(other) != json.dumps(one)
    signatures = []
    for pack in (one, other):
        loaded = load_pack(pack).levels[0]
        assert loaded.solution is not None
        signatures.append(level_ideas(loaded.data, loaded.solution).signature)
    assert signatures[0] == signatures[1]
    assert signatures[0] == ("+[you] IS FLOAT", "-[win] IS FLOAT")


def test_two_levels_with_one_signature_are_reported_naming_both() -> None:
    levels = [
        SignedLevel("pack", "first", ("-[stop] IS STOP",)),
        SignedLevel("pack", "second", ("+[other] IS WIN",)),
        SignedLevel("pack", "third", ("-[stop] IS STOP",)),
    ]
    pairs = repeated_ideas(levels)
    assert pairs == [(levels[0], levels[2])]
    warning = repetition_warning(*pairs[0])
    assert "pack/third" in warning and "pack/first" in warning
    assert "-[stop] IS STOP" in warning


def test_a_repeat_listed_as_intended_is_not_reported() -> None:
    first = SignedLevel("pack", "first", ("-[stop] IS STOP",))
    by_id = SignedLevel("pack", "again", ("-[stop] IS STOP",), repeats=("first",))
    by_place = SignedLevel("other", "elsewhere", ("-[stop] IS STOP",), repeats=("pack/first",))
    assert repeated_ideas([first, by_id]) == []
    assert repeated_ideas([first, by_place]) == []
    # Listing one level does not excuse a repeat of another.
    assert repeated_ideas([first, by_id, by_place]) == [(by_id, by_place)]


def test_two_walks_are_a_repeat_too() -> None:
    walks = [SignedLevel("pack", "one", ()), SignedLevel("pack", "two", ())]
    assert len(repeated_ideas(walks)) == 1
    assert signature_text(()) == "no rule change"
