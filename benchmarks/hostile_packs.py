"""How long the loader takes over the hostile packs under the size cap.

Run: ``.venv/bin/python benchmarks/hostile_packs.py [--repeats N]``.

``tests/packs/test_pack_adversarial.py`` proves that each of these packs (at
most 1 MiB of JSON text) ends in a pack or clean issues within its memory
bound; this prints the median time of ``load_pack_text`` over ``--repeats``
runs of each, so the one-second bound docs/security.md states is measured where a
loaded machine cannot turn it into a failing test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.packs.test_pack_adversarial import BIG_TEXTS, SIZE_CAP, junk_levels

from miau.packs import PackError, load_pack_text

STATED_BOUND = 1.0
"""Seconds docs/security.md states for loading or refusing any pack under the size cap."""


def cases() -> dict[str, Callable[[], str]]:
    """Every hostile pack text the adversarial test loads, by name."""
    return {
        **BIG_TEXTS,
        "15,000 junk levels (500 KiB)": lambda: json.dumps(junk_levels(15_000)),
    }


def median_load_seconds(text: str, repeats: int) -> float:
    """The median wall time of loading (or refusing) ``text``."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        with contextlib.suppress(PackError):
            load_pack_text(text)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Print one line per hostile pack: its size, its median load time, and the bound."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    worst = 0.0
    for name, make in cases().items():
        text = make()
        size = len(text.encode("utf-8"))
        assert size <= SIZE_CAP, name
        seconds = median_load_seconds(text, args.repeats)
        worst = max(worst, seconds)
        print(f"{name:45} {size / 1024:7.0f} KiB  {seconds * 1000:7.1f} ms")
    verdict = "within" if worst < STATED_BOUND else "PAST"
    print(f"slowest {worst * 1000:.1f} ms: {verdict} the stated {STATED_BOUND:.0f} s bound")


if __name__ == "__main__":
    main()
