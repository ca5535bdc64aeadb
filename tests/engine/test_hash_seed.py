"""The events do not depend on Python's hash seed: two interpreters, two seeds, one digest.

The byte-identical-events properties (``test_properties.py``) replay twice
in one process, where every set and dict of strings iterates in the same
order both times, so they cannot catch an order that leans on string
hashing. Here ``benchmarks/event_digests.py`` (every shipped solution and
the Keke sample, states and events serialised as a client gets them) runs
in two fresh interpreters with different ``PYTHONHASHSEED`` values.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def digests_with_hash_seed(seed: str) -> dict[str, Any]:
    """The event digests computed by a fresh interpreter with ``PYTHONHASHSEED=seed``."""
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "event_digests.py")],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    ).stdout
    found: dict[str, Any] = json.loads(out)
    return found


@pytest.mark.slow
def test_two_interpreters_with_different_hash_seeds_give_byte_identical_events() -> None:
    first = digests_with_hash_seed("1")
    second = digests_with_hash_seed("2024")
    assert {"packs/tutorial.json", "tests/keke/sample.miau.json"} <= set(first)
    assert all(corpus["events"] > 0 for name, corpus in first.items() if name != "build")
    assert first == second
