"""The compiled build plays exactly like the pure one: the same events, byte for byte.

These tests run in the compiled pass of ``scripts/test.sh``
(``scripts/test_compiled.sh``): the process imports the compiled modules and
a child process the pure sources, and both hash every stored solution's
states and events (``benchmarks/event_digests.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from benchmarks.event_digests import all_digests, digests_in_a_child

from miau.compiled import COMPILED_NAME, PURE_NAME, is_compiled

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not is_compiled(),
    reason="compares the compiled build with the pure one: scripts/test_compiled.sh",
)


def pure_digests() -> dict[str, Any]:
    """The digests computed by a child process that imports the pure sources."""
    return digests_in_a_child(PYTHONPATH=str(ROOT / "src"))


def test_every_shipped_solution_and_the_keke_sample_give_byte_identical_events() -> None:
    compiled = all_digests()
    pure = pure_digests()
    assert compiled.pop("build") == COMPILED_NAME
    assert pure.pop("build") == PURE_NAME
    assert {"packs/tutorial.json", "tests/keke/sample.miau.json"} <= set(compiled)
    assert all(corpus["events"] > 0 for corpus in compiled.values())
    assert compiled == pure
