"""``benchmarks/generate_speed.py`` runs end to end and prints its rows and totals."""

from __future__ import annotations

import pytest
from benchmarks.generate_speed import main


def test_the_benchmark_prints_a_row_per_batch_and_the_rates(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments = ["--level", "first-steps", "--candidates", "8", "--workers", "1"]
    assert main([*arguments, "--scorer", "solver"]) == 0
    out = capsys.readouterr().out
    assert "seconds candidates  solved  cells  deeper" in out
    assert "total: 8 candidates in" in out and "solved/s" in out
    assert "candidates ended:" in out
