"""The engine's rule parser (runs, a one-pass reading of single words, caches) reads
exactly what the contract's literal reading finds, stacks included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from miau.engine.rules import RuleParser
from tests.engine.naive_rules import naive_parse

TEXTS = ["MIAU", "ROCK", "FLAG", "IS", "IS", "IS", "AND", "AND", "YOU", "PUSH", "WIN", "TICK"]
PROPERTIES = frozenset({"YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "TICK"})


@st.composite
def arrangements(draw: st.DrawFn) -> tuple[int, list[str], tuple[int, ...]]:
    """Words on a small grid; often crowded into a few cells, so stacks are common."""
    width = draw(st.integers(1, 7))
    height = draw(st.integers(1, 7))
    cells = width * height if draw(st.booleans()) else min(width * height, draw(st.integers(1, 6)))
    texts = draw(st.lists(st.sampled_from(TEXTS), max_size=14))
    positions = tuple(draw(st.integers(-1, cells - 1)) for _ in texts)
    return width, texts, positions


@settings(max_examples=400, deadline=None)
@given(arrangements())
def test_the_parser_reads_what_the_literal_reading_finds(
    arrangement: tuple[int, list[str], tuple[int, ...]],
) -> None:
    width, texts, positions = arrangement
    table = RuleParser(width, texts, range(len(texts)), PROPERTIES).parse(positions)
    sentences, rules = naive_parse(width, texts, positions, PROPERTIES)
    assert [(s.axis, s.ids) for s in table.sentences] == sentences
    assert [(r.subject, r.predicate, r.source_ids, r.axis) for r in table.rules] == rules


@st.composite
def move_sequences(
    draw: st.DrawFn,
) -> tuple[int, list[str], list[tuple[int, ...]]]:
    """Arrangements one after another, each a few words moved (or gone) from the last.

    Words mostly stand one to a cell on a small grid, so sentences form and
    break as they move; sometimes a move stacks two.
    """
    width = draw(st.integers(3, 6))
    cells = width * draw(st.integers(4, 6))
    texts = draw(st.lists(st.sampled_from(TEXTS), min_size=3, max_size=12))
    start = draw(
        st.lists(st.integers(0, cells - 1), min_size=len(texts), max_size=len(texts), unique=True)
    )
    sequence = [tuple(start)]
    for _ in range(draw(st.integers(1, 12))):
        moved = list(sequence[-1])
        for index in draw(st.lists(st.integers(0, len(moved) - 1), min_size=1, max_size=6)):
            moved[index] = draw(st.integers(-1, cells - 1))
        sequence.append(tuple(moved))
    return width, texts, sequence


@settings(max_examples=300, deadline=None)
@given(move_sequences())
def test_a_parser_that_reads_only_the_lines_words_moved_in_reads_what_the_literal_reading_finds(
    case: tuple[int, list[str], list[tuple[int, ...]]],
) -> None:
    width, texts, sequence = case
    RuleParser.clear_shared_caches()
    parser = RuleParser(width, texts, range(len(texts)), PROPERTIES)
    for positions in sequence:
        table = parser.parse(positions)
        sentences, rules = naive_parse(width, texts, positions, PROPERTIES)
        assert [(s.axis, s.ids) for s in table.sentences] == sentences
        assert [(r.subject, r.predicate, r.source_ids, r.axis) for r in table.rules] == rules
