"""Generator speed: candidates solved per second, and how the archive filled over time.

Run: ``.venv/bin/python benchmarks/generate_speed.py [--level ID] [--words W,W]
[--candidates N | --seconds S] [--workers N] [--scorer depth|solver] [--seed N]``.

It generates from a level of the shipped First Steps pack (Borrow a Word by
default) the way ``miau generate`` does, and prints, after every batch, the
elapsed seconds, candidates tried, cells filled and cells deeper than the
floor (the seed and the First Steps walks); then the totals: candidates and
candidates solved per second, solver states per second, and how the
candidates ended (solved, unsolvable, limit, repeated). The figures depend
on the machine and on its load: on a shared machine, say what else ran.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from miau.generate import Limits, Options, Status, from_pack, generate, pools_for, walks
from miau.generate.scoring import default_scorer_name
from miau.worlds import shipped_pack_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--level", default="borrow-a-word", help="a First Steps level id")
    parser.add_argument("--words", default="", help="extra words mutations may add")
    parser.add_argument("--candidates", type=int, default=None, help="count budget (default 256)")
    parser.add_argument("--seconds", type=float, default=None, help="time budget")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (1: in process)")
    parser.add_argument("--scorer", default=None, help="depth or solver (default: depth)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-entities", type=int, default=40)
    args = parser.parse_args(argv)
    candidates = args.candidates
    if candidates is None and args.seconds is None:
        candidates = 256
    source = from_pack(shipped_pack_path("tutorial"), args.level)
    first = source.seeds[0].level
    words = [word for word in args.words.split(",") if word.strip()]
    options = Options(
        pools=pools_for(source, words),
        limits=Limits(first["width"], first["height"], args.max_entities),
        seed=args.seed,
        candidates=candidates,
        seconds=args.seconds,
        scorer=args.scorer or default_scorer_name(),
    )
    print(
        f"seed level {args.level}, scorer {options.scorer}, workers {args.workers}, "
        f"batch {options.batch}, {options.max_expansions:,} states per candidate"
    )
    print(f"{'seconds':>8} {'candidates':>10} {'solved':>7} {'cells':>6} {'deeper':>7}")
    started = time.perf_counter()
    batches = [0]

    def report(status: Status) -> None:
        # The status is reported after every candidate too; a row per whole batch.
        if status.batches != batches[0]:
            batches[0] = status.batches
            elapsed = time.perf_counter() - started
            print(
                f"{elapsed:8.1f} {status.candidates:10,} {status.solved:7,} "
                f"{status.cells:6} {status.deeper:7}",
                flush=True,
            )

    executor: Executor | None = None
    if args.workers > 1:
        context = multiprocessing.get_context("spawn")
        executor = ProcessPoolExecutor(max_workers=args.workers, mp_context=context)
    try:
        generation = generate(
            source.seeds, options, references=walks(), executor=executor, report=report
        )
    finally:
        if executor is not None:
            executor.shutdown()
    elapsed = time.perf_counter() - started
    print(
        f"total: {generation.candidates:,} candidates in {elapsed:.1f} s "
        f"({generation.candidates / elapsed:.2f} candidates/s, "
        f"{generation.solved / elapsed:.2f} solved/s); "
        f"archive {len(generation.archive)} cells, {len(generation.deeper())} deeper than "
        f"{generation.floor:g}"
    )
    print(
        f"shortest-solution searches: {generation.expanded:,} states, "
        f"{generation.expanded / elapsed:,.0f} states/s (analysis and scoring not counted)"
    )
    ended = ", ".join(f"{count} {verdict}" for verdict, count in generation.verdicts.items())
    print(f"candidates ended: {ended}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
