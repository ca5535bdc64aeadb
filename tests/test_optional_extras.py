"""The engine, pack and solver tests need none of the optional extras' database driver.

A newcomer who installs only what the engine needs (plus the test tools)
can run them: nothing on their import path, ``tests/conftest.py`` included,
imports psycopg (the ``postgres`` extra).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BLOCK_AND_COLLECT = """
import sys
sys.modules["psycopg"] = None  # any import of it now raises ImportError
import pytest
sys.exit(pytest.main(["-q", "--collect-only", "-p", "no:cacheprovider", *sys.argv[1:]]))
"""


@pytest.mark.slow
def test_engine_pack_and_solver_tests_collect_without_the_postgres_extra() -> None:
    run = subprocess.run(
        [sys.executable, "-c", BLOCK_AND_COLLECT, "tests/engine", "tests/packs", "tests/solver"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert all(f"tests/{part}/" in run.stdout for part in ("engine", "packs", "solver"))
