"""The events do not depend on Python's hash seed: two interpreters, two seeds, one digest.

The byte-identical-events properties (``test_properties.py``) replay twice
in one process, where every set and dict of strings iterates in the same
order both times, so they cannot catch an order that leans on string
hashing. Here ``benchmarks/event_digests.py`` (every shipped solution and
the Keke sample, states and events serialised as a client gets them) runs
in two fresh interpreters with different ``PYTHONHASHSEED`` values.
"""

from __future__ import annotations

import pytest
from benchmarks.event_digests import digests_in_a_child


@pytest.mark.slow
def test_two_interpreters_with_different_hash_seeds_give_byte_identical_events() -> None:
    first = digests_in_a_child(PYTHONHASHSEED="1")
    second = digests_in_a_child(PYTHONHASHSEED="2024")
    assert {"packs/tutorial.json", "tests/keke/sample.miau.json"} <= set(first)
    assert all(corpus["events"] > 0 for name, corpus in first.items() if name != "build")
    assert first == second
