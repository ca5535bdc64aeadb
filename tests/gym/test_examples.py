"""The training example of docs/gym.md and the speed benchmark run as documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from miau.generate.seeds import WALKS_PACK

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_q_learning_example_learns_a_shortest_solution_of_a_small_level() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "scripts/q_learning.py",
            "--pack",
            str(WALKS_PACK),
            "--level",
            "rocks",
            "--episodes",
            "200",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "greedy policy: won with RRRRRRD (7 moves)" in result.stdout
    assert "solver's shortest: RRRRRRD (7 moves)" in result.stdout


@pytest.mark.slow
def test_the_speed_benchmark_prints_single_and_vectorised_lines() -> None:
    result = subprocess.run(
        [sys.executable, "benchmarks/gym_speed.py", "--steps", "200", "--repeats", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert any(line.startswith("| tutorial `skull-gate`") for line in lines)
    assert any(line.startswith("| Keke import `keke-1`") and "%" in line for line in lines)
    for env_id in ("GotoWin", "MakeWin", "BreakStop"):
        assert any(line.startswith(f"| task family `miau/{env_id}-v0`") for line in lines)
        assert any(line.startswith(f"| `miau/{env_id}-v0`, `SyncVectorEnv`") for line in lines)
    assert any("`SyncVectorEnv` x 8" in line for line in lines)
    assert any("`AsyncVectorEnv` x 2" in line for line in lines)
