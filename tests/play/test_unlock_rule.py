"""The unlock rule for every world: one level left unwon never locks more than its own successors.

A level's *own successors* are the challenge levels that follow it before
the next required level (its harder extras). The property, for a world and
one of its levels L: a player who wins every level of the world as soon as
it is open, except L, which they never win, keeps going until nothing new
opens; then the levels still locked are at most L's own successors. Every
other level of the world, L's later required levels included, is open.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from miau.packs import LevelData, PackLevel, load_pack
from miau.packs.format import Tier
from miau.play.worlds import level_locks, level_openers
from miau.worlds import shipped_packs_dir

SHIPPED = sorted(shipped_packs_dir().glob("*.json"))
EMPTY: LevelData = {"width": 1, "height": 1, "objects": [], "automata": [], "pairs": []}


def own_successors(levels: Sequence[PackLevel], level_id: str) -> set[str]:
    """The challenge levels right after ``level_id``, before the next required level."""
    index = next(i for i, each in enumerate(levels) if each.id == level_id)
    followers: set[str] = set()
    for later in levels[index + 1 :]:
        if later.tier == "required":
            break
        if later.tier == "challenge":
            followers.add(later.id)
    return followers if levels[index].tier == "required" else set()


def locked_when_stuck_on(levels: Sequence[PackLevel], stuck: str) -> set[str]:
    """What stays locked for a player who wins every open level but ``stuck``, until nothing opens."""
    won: set[str] = set()
    while True:
        locks = level_locks(levels, won)
        newly = {
            each.id
            for each, lock in zip(levels, locks, strict=True)
            if not lock.locked and each.id != stuck and each.id not in won
        }
        if not newly:
            return {each.id for each, lock in zip(levels, locks, strict=True) if lock.locked}
        won |= newly


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_one_unwon_level_of_a_shipped_world_locks_at_most_its_own_successors(path: Path) -> None:
    """For each level L of the world: with every other level won as it opens, only L's own
    challenge levels (those between L and the next required level) may stay locked."""
    levels = load_pack(path).levels
    for level in levels:
        locked = locked_when_stuck_on(levels, level.id)
        assert locked <= own_successors(levels, level.id), (
            f"{path.stem}: never winning {level.id!r} keeps {sorted(locked)} locked"
        )


@pytest.mark.parametrize("path", SHIPPED, ids=[path.stem for path in SHIPPED])
def test_a_player_who_wins_everything_opens_every_level_of_a_shipped_world(path: Path) -> None:
    levels = load_pack(path).levels
    assert locked_when_stuck_on(levels, stuck="") == set()


def world_of(tiers: list[Tier]) -> list[PackLevel]:
    return [
        PackLevel(id=f"l{index}", title=f"L{index}", tier=tier, width=1, height=1, data=EMPTY)
        for index, tier in enumerate(tiers)
    ]


TIERS = st.lists(st.sampled_from(["required", "optional", "challenge"]), min_size=1, max_size=30)


@given(TIERS, st.data())
def test_in_any_world_one_unwon_level_locks_at_most_its_own_successors(
    tiers: list[Tier], data: st.DataObject
) -> None:
    levels = world_of(tiers)
    stuck = data.draw(st.sampled_from([each.id for each in levels]))
    assert locked_when_stuck_on(levels, stuck) <= own_successors(levels, stuck)


@given(TIERS, st.sets(st.integers(min_value=0, max_value=29)))
def test_a_level_is_open_exactly_when_won_or_when_nothing_or_any_opener_opens_it(
    tiers: list[Tier], won_indices: set[int]
) -> None:
    levels = world_of(tiers)
    won = {f"l{index}" for index in won_indices if index < len(levels)}
    openers = level_openers(levels)
    for each, lock in zip(levels, level_locks(levels, won), strict=True):
        expected_open = each.id in won or not openers[each.id] or bool(won & set(openers[each.id]))
        assert lock.locked is not expected_open


def test_two_required_levels_left_unwon_in_a_row_do_lock_the_rest_of_the_world() -> None:
    """The rule is not "everything always open": skipping two neighbours stops the world."""
    levels = world_of(["required"] * 5)
    locks = level_locks(levels, {"l0"})
    assert [lock.locked for lock in locks] == [False, False, False, True, True]
    assert locks[3].unlocked_by == "Win \u201cL2\u201d or \u201cL1\u201d first"


def test_lexicon_no_longer_opens_its_levels_strictly_one_after_another() -> None:
    lexicon = load_pack(shipped_packs_dir() / "lexicon.json").levels
    first = lexicon[0].id
    opened = [
        each.id
        for each, lock in zip(lexicon, level_locks(lexicon, {first}), strict=True)
        if not lock.locked
    ]
    assert opened[:3] == [each.id for each in lexicon[:3]]
    assert locked_when_stuck_on(lexicon, first) == set()
