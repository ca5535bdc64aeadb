"""Compare the engine of another commit with the working tree's, in one run.

Run: ``.venv/bin/python benchmarks/compare.py REV [--rounds N]``.

The machines are shared and noisy, so figures taken at different times do
not compare. This script checks out ``src/`` of ``REV`` into a temporary
folder and then alternates, round after round, between that engine and the
working tree's, running the same measurements in fresh interpreters
(``benchmarks/engine_speed.py --json`` and ``benchmarks/short_episodes.py
--json``). It prints the median of each figure for both and the change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ("engine_speed.py", "short_episodes.py")


def export_source(rev: str, into: Path) -> Path:
    """Write ``src/`` as it is at ``rev`` into ``into``; return the folder to import from."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def measure(source: Path, script: str) -> dict[str, float]:
    """One run of ``script`` (one repeat) against the engine under ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--repeats", "1", "--json"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    ).stdout
    figures: dict[str, float] = json.loads(out)
    return figures


def main() -> None:
    """Print the median figures of both engines and the relative change."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rev", help="the commit to compare with (for example HEAD~3)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        before_src = export_source(args.rev, Path(temp))
        after_src = ROOT / "src"
        samples: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
        for _ in range(args.rounds):
            for label, source in (("before", before_src), ("after", after_src)):
                for script in SCRIPTS:
                    for name, value in measure(source, script).items():
                        samples[label].setdefault(name, []).append(value)
    print(
        f"{'steps per second (median of ' + str(args.rounds) + ')':58} {args.rev:>10} {'now':>10} {'change':>8}"
    )
    for name, values in samples["after"].items():
        before = statistics.median(samples["before"].get(name, [float("nan")]))
        after = statistics.median(values)
        print(f"{name:58} {before:>10,.0f} {after:>10,.0f} {after / before - 1:>+8.1%}")


if __name__ == "__main__":
    main()
