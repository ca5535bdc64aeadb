"""``benchmarks/solver_speed.py`` runs end to end and reads a converted Keke folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks.solver_speed import keke_specs, main

from miau.engine import Level
from miau.solver.reduction import uses_only_core_words
from tests.solver.builders import LEVELS

KEKE = Path(__file__).parent.parent / "keke"


def test_the_benchmark_prints_a_row_and_totals_with_memory_and_cpu(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([str(LEVELS / "mouse-keeps-time.json"), "--repeat", "1", "--fallback"]) == 0
    out = capsys.readouterr().out
    assert "mouse-keeps-time" in out and "B/state" in out
    assert "all levels: 1 levels, 1 solved (0 by best-first), 0 LIMIT" in out
    assert "CPU" in out


def test_keke_core_levels_are_the_converted_levels_with_only_core_words() -> None:
    every = keke_specs(KEKE, core_only=False)
    core = keke_specs(KEKE, core_only=True)
    assert len(every) == 19  # the converted sample, not Keke's own file beside it
    assert 0 < len(core) < len(every)
    assert all(uses_only_core_words(Level.from_dict(spec.data)) for _, spec in core)
