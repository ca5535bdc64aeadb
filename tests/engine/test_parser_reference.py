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
