"""The rule parser's caches, shared by every game of a level, stay bounded and never change a
reading: a level used long ago is forgotten first, a forgotten level's games parse afresh,
and a parser going back and forth between arrangements reads each as the literal reading."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine.rules import _SHARED, RuleParser, _SharedCaches
from tests.engine.naive_rules import naive_parse

PROPERTIES = frozenset({"YOU", "PUSH", "STOP", "WIN"})
TEXTS = ["MIAU", "IS", "YOU", "FLAG", "IS", "WIN", "ROCK", "PUSH"]


@pytest.fixture(autouse=True)
def empty_shared_caches() -> Iterator[None]:
    """Each test starts and ends with no level remembered, as a fresh process would."""
    RuleParser.clear_shared_caches()
    yield
    RuleParser.clear_shared_caches()


def parser_of_width(width: int) -> RuleParser:
    """A parser of the same words on a board ``width`` wide: another level to the caches."""
    return RuleParser(width, TEXTS, range(len(TEXTS)), PROPERTIES)


def test_past_the_level_bound_the_level_used_longest_ago_is_forgotten_first() -> None:
    widths = range(3, 3 + _SharedCaches.LEVELS)
    parsers = {width: parser_of_width(width) for width in widths}
    first = parsers[3].parse((0, 1, 2, -1, -1, -1, -1, -1))
    parser_of_width(4)  # the second level is used again: it is no longer the oldest use
    parser_of_width(3 + _SharedCaches.LEVELS)  # one level too many

    assert len(_SHARED.levels) == _SharedCaches.LEVELS
    kept_widths = {words[0] for words in _SHARED.levels}
    assert 3 not in kept_widths  # used longest ago
    assert {4, 5, 3 + _SharedCaches.LEVELS} <= kept_widths
    # The forgotten level's game still reads its words, parsing afresh.
    again = parsers[3].parse((0, 1, 2, -1, -1, -1, -1, -1))
    assert [rule.text() for rule in again.rules] == [rule.text() for rule in first.rules]
    assert [rule.text() for rule in again.rules] == ["MIAU IS YOU"]


def test_past_the_arrangement_bound_old_levels_are_forgotten_and_emptied() -> None:
    table = parser_of_width(3).parse((0, 1, 2, -1, -1, -1, -1, -1))
    caches = _SharedCaches()
    oldest, middle, newest = (caches.take((index,)) for index in range(3))
    share = _SharedCaches.ARRANGEMENTS // 2
    for cache in (oldest, middle, newest):
        cache.by_positions.update(((-index - 1,), table) for index in range(share))
    caches.sweep()

    assert list(caches.levels) == [(1,), (2,)]
    assert not oldest.by_positions
    assert len(middle.by_positions) == len(newest.by_positions) == share


def test_the_arrangement_bound_is_counted_as_arrangements_are_remembered() -> None:
    caches = _SharedCaches()
    caches.take(("level",))
    for _ in range(_SharedCaches.SWEEP_EVERY - 1):
        caches.note_added()
    assert caches.unswept == _SharedCaches.SWEEP_EVERY - 1
    caches.note_added()
    assert caches.unswept == 0


@st.composite
def back_and_forth(draw: st.DrawFn) -> tuple[int, list[tuple[int, ...]]]:
    """Arrangements of ``TEXTS`` a word or two apart, often going back to an earlier one."""
    width = draw(st.integers(3, 6))
    cells = width * 5
    start = draw(
        st.lists(st.integers(0, cells - 1), min_size=len(TEXTS), max_size=len(TEXTS), unique=True)
    )
    seen = [tuple(start)]
    sequence = [tuple(start)]
    for _ in range(draw(st.integers(2, 16))):
        if draw(st.booleans()):
            sequence.append(draw(st.sampled_from(seen)))
            continue
        moved = list(sequence[-1])
        for index in draw(st.lists(st.integers(0, len(TEXTS) - 1), min_size=1, max_size=2)):
            moved[index] = draw(st.integers(-1, cells - 1))
        seen.append(tuple(moved))
        sequence.append(tuple(moved))
    return width, sequence


@settings(max_examples=300, deadline=None)
@given(back_and_forth())
def test_a_parser_going_back_to_earlier_arrangements_between_new_ones_reads_each_literally(
    case: tuple[int, list[tuple[int, ...]]],
) -> None:
    width, sequence = case
    RuleParser.clear_shared_caches()
    parser = parser_of_width(width)
    for positions in sequence:
        table = parser.parse(positions)
        sentences, rules = naive_parse(width, TEXTS, positions, PROPERTIES)
        assert [(s.axis, s.ids) for s in table.sentences] == sentences
        assert [(r.subject, r.predicate, r.source_ids, r.axis) for r in table.rules] == rules
