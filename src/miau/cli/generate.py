"""``miau generate``: evolve levels from a seed or a vocabulary and write the deepest as a pack.

The work is :mod:`miau.generate`'s; this module reads the options, builds
the executor (worker processes, or a Dask cluster with ``--scheduler``),
shows progress on stderr and writes the pack. Exit status: 0 when a pack
was written, 1 when no level matched (nothing is written), 2 on bad input.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from miau.generate import (
    SCORERS,
    Generation,
    GenerationError,
    Limits,
    Options,
    SeedError,
    Source,
    Status,
    build_pack,
    default_scorer_name,
    from_pack,
    from_words,
    generate,
    pack_text,
    pools_for,
    walks,
)
from miau.generate.evolve import DEFAULT_BATCH, DEFAULT_MAX_EXPANSIONS, describe_cell
from miau.generate.finish import finish, shipped_signatures
from miau.packs import PackError, load_pack

DEFAULT_CANDIDATES = 2000
DEFAULT_MAX_ENTITIES = 40
EVOLUTION_SHARE = 0.6
"""The share of ``--seconds`` the evolution gets; finishing the chosen levels has the rest."""
FINISHED_BY = 0.95
"""Finishing stops at this share of ``--seconds``, leaving the rest for writing the pack."""


def add_parser(subparsers: Any) -> None:
    """Register ``miau generate``."""
    parser = subparsers.add_parser(
        "generate",
        help="evolve levels with the solver and write the deepest as a pack",
        description=(
            "Mutate a seed level (or a vocabulary on an empty grid), solve every candidate, "
            "keep the deepest level for each (ideas, depth tier) cell, and write the "
            "levels deeper than the seed and the First Steps walks as a pack. The same "
            "--seed and options give the same pack under a count budget (--candidates), "
            "whatever the number of workers."
        ),
    )
    parser.add_argument("pack", nargs="?", type=Path, help="a pack or level file to start from")
    parser.add_argument("--level", metavar="ID", help="the pack's level to start from")
    parser.add_argument(
        "--words",
        metavar="W,W,...",
        help=(
            "words mutations may add; without PACK, the vocabulary to start from "
            "(the first noun is YOU, the second WIN)"
        ),
    )
    parser.add_argument(
        "--size", metavar="WxH", help="without PACK: the empty grid to start from, e.g. 8x6"
    )
    parser.add_argument("-o", "--output", type=Path, required=True, help="the pack file to write")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument(
        "--candidates",
        type=_positive,
        metavar="N",
        help=f"count budget: candidates to try (default {DEFAULT_CANDIDATES:,} without --seconds)",
    )
    parser.add_argument(
        "--seconds", type=float, metavar="S", help="time budget (a run it stops is not repeatable)"
    )
    parser.add_argument(
        "--workers",
        type=_positive,
        metavar="N",
        help="local worker processes (default: every core; 1 runs in this process)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="run the candidates on this Dask cluster (needs the generate extra)",
    )
    parser.add_argument(
        "--batch",
        type=_positive,
        default=DEFAULT_BATCH,
        metavar="N",
        help=f"candidates per batch (default {DEFAULT_BATCH}; part of what the seed repeats)",
    )
    parser.add_argument(
        "--max",
        type=_positive,
        default=DEFAULT_MAX_EXPANSIONS,
        metavar="N",
        help=f"solver states per candidate (default {DEFAULT_MAX_EXPANSIONS:,})",
    )
    parser.add_argument(
        "--max-size", metavar="WxH", help="the largest grid (default: the seed's size)"
    )
    parser.add_argument(
        "--max-entities",
        type=_positive,
        default=DEFAULT_MAX_ENTITIES,
        metavar="N",
        help=f"the most words and things on a board (default {DEFAULT_MAX_ENTITIES})",
    )
    parser.add_argument(
        "--scorer",
        choices=sorted(SCORERS),
        help="how depth is measured (default: depth where the depth profile exists, else solver)",
    )
    parser.add_argument(
        "--need", metavar="M,M,...", help="write only levels whose mechanics include these"
    )
    parser.add_argument("--tier", type=int, metavar="N", help="write only levels of this tier")
    parser.add_argument("--pack-id", help="the written pack's id (default: generated-SEED-ID)")
    parser.add_argument("--name", help="the written pack's name")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Generate, print what the archive holds, write the pack; see the module docstring."""
    try:
        source, extra_words = _source(args)
        options = _options(args, source, extra_words)
        need = _words(args.need)
    except (SeedError, ValueError) as error:
        print(f"miau generate: {error}", file=sys.stderr)
        return 2
    # The budget counts from the process's start: the interpreter and its imports are part of it.
    started = time.monotonic() - _process_age()
    deadline = None if args.seconds is None else started + args.seconds * FINISHED_BY
    if args.seconds is not None:
        # The evolution takes its share; finishing (novelty, minimising) has the rest.
        evolution_ends = started + args.seconds * EVOLUTION_SHARE
        options = dataclasses.replace(options, seconds=max(0.1, evolution_ends - time.monotonic()))
    try:
        with _executor(args) as executor, _progress(options) as report:
            generation = generate(
                source.seeds, options, references=walks(), executor=executor, report=report
            )
    except GenerationError as error:
        print(f"miau generate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"miau generate: cannot reach the scheduler: {error}", file=sys.stderr)
        return 2
    print(_summary(generation))
    chosen = [
        elite
        for elite in generation.archive.matching(need, args.tier)
        if elite.score.depth > generation.floor
    ]
    finished, finishing = finish(
        chosen,
        generation.seeds,
        max_expansions=args.max,
        deadline=deadline,
        known=shipped_signatures(),
    )
    print(finishing.summary())
    chosen = [item.elite for item in finished]
    if not chosen:
        wanted = describe_cell(sorted(need), args.tier) if args.tier is not None else "+".join(need)
        request = f" that need {wanted}" if need or args.tier is not None else ""
        print(
            f"no level{request} deeper than {generation.floor:g} with a new idea was found; "
            "nothing written"
        )
        return 1
    document = build_pack(
        chosen,
        source,
        pack_id=args.pack_id or _pack_id(source, options.seed),
        name=args.name or f"Generated from {source.seeds[0].title}",
        description=_description(options, need, args.tier),
    )
    try:
        load_pack(document)
    except PackError as error:  # pragma: no cover - a generator bug, said plainly
        print(f"miau generate: the generated pack does not load: {error}", file=sys.stderr)
        return 2
    args.output.write_text(pack_text(document), encoding="utf-8")
    levels = document["levels"]
    print(f"wrote {args.output}: {len(levels)} level{'s' if len(levels) != 1 else ''}")
    for level, elite in zip(levels, sorted(chosen[:64], key=_play_order), strict=True):
        cell = describe_cell(sorted(elite.analysis.mechanics), elite.score.tier)
        print(
            f"  {level['id']}: depth {elite.score.depth:g} ({cell}), "
            f"{elite.analysis.length} moves, {level['width']}x{level['height']}"
        )
    return 0


def _process_age() -> float:
    """Seconds since this process started (0 where ``/proc`` does not say)."""
    try:
        fields = Path("/proc/self/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def _play_order(elite: Any) -> tuple[float, float, int]:
    return (elite.score.depth, elite.fitness, -elite.index)


def _source(args: argparse.Namespace) -> tuple[Source, list[str]]:
    words = _words(args.words)
    if args.pack is not None:
        if args.size is not None:
            raise ValueError("--size starts from an empty grid; leave it out with a PACK")
        return from_pack(args.pack, args.level), words
    if args.level is not None:
        raise ValueError("--level needs a PACK")
    if not words or args.size is None:
        raise ValueError("give a PACK to start from, or --words and --size")
    width, height = _size(args.size)
    return from_words(words, width, height, args.seed), []


def _options(args: argparse.Namespace, source: Source, extra_words: list[str]) -> Options:
    first = source.seeds[0].level
    width, height = _size(args.max_size) if args.max_size else (first["width"], first["height"])
    entities = max(args.max_entities, max(len(s.level["objects"]) for s in source.seeds))
    candidates = args.candidates
    if candidates is None and args.seconds is None:
        candidates = DEFAULT_CANDIDATES
    if args.seconds is not None and args.seconds <= 0:
        raise ValueError("--seconds must be positive")
    return Options(
        pools=pools_for(source, extra_words),
        limits=Limits(width, height, entities),
        seed=args.seed,
        candidates=candidates,
        seconds=args.seconds,
        batch=args.batch,
        max_expansions=args.max,
        scorer=args.scorer or default_scorer_name(),
    )


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    """Dask with ``--scheduler``, else worker processes (none for one worker)."""
    if args.scheduler is not None:
        try:
            from distributed import Client
        except ImportError as error:
            raise GenerationError(
                f"--scheduler needs Dask ({error}); install it: pip install 'miau-puzzle[generate]'"
            ) from error
        with Client(args.scheduler) as client:  # type: ignore[no-untyped-call]
            yield client.get_executor(pure=False)
        return
    workers = args.workers or os.cpu_count() or 1
    if workers == 1:
        yield None
        return
    # spawn: a worker starts clean, without the parent's threads (rich's refresher among them).
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        yield pool
    finally:
        _stop_workers(pool)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Shut the pool down without waiting for candidates still being solved.

    ``--seconds`` is a hard cap: when it runs out the generator stops
    waiting, and a candidate a worker is still solving is dropped, so its
    process is ended instead of joined (``shutdown`` alone would wait for it).
    """
    running: dict[int, Any] = getattr(pool, "_processes", None) or {}
    processes = list(running.values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


@contextmanager
def _progress(options: Options) -> Iterator[Any]:
    """A progress line on stderr when it is a terminal: candidates, solved, cells, best depth."""
    if not sys.stderr.isatty():
        yield None
        return
    bar = Progress(
        TextColumn("generating"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[line]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        task = bar.add_task("generate", total=options.candidates, line="")

        def report(status: Status) -> None:
            line = (
                f"{status.solved:,} solved, {status.cells} cells, {status.deeper} deeper, "
                f"best {status.best_depth:g}"
            )
            bar.update(task, completed=status.candidates, line=line)

        yield report


def _summary(generation: Generation) -> str:
    stopped = "time budget" if generation.stopped_by == "seconds" else "count budget"
    deeper = len(generation.deeper())
    return (
        f"{generation.candidates:,} candidates ({stopped}), {generation.solved:,} solved; "
        f"archive: {len(generation.archive)} cells, {deeper} deeper than {generation.floor:g} "
        "(the seed and the First Steps walks)"
    )


def _description(options: Options, need: list[str], tier: int | None) -> str:
    budget = (
        f"{options.candidates} candidates" if options.candidates is not None else "a time budget"
    )
    parts = [f"miau generate: seed {options.seed}, {budget}, scorer {options.scorer}"]
    if need:
        parts.append(f"needing {'+'.join(need)}")
    if tier is not None:
        parts.append(f"tier {tier}")
    return ", ".join(parts) + "."


def _pack_id(source: Source, seed: int) -> str:
    return f"generated-{source.seeds[0].id}-{seed}"[:64].rstrip("-.")


def _words(text: str | None) -> list[str]:
    if not text:
        return []
    return [word.strip().upper() for word in text.split(",") if word.strip()]


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"a size is WxH, such as 8x6, not {text!r}") from None
    if not (1 <= width <= 64 and 1 <= height <= 64):
        raise ValueError(f"a size is from 1x1 to 64x64, not {text!r}")
    return width, height


def _positive(text: str) -> int:
    value = int(text.replace(",", "").replace("_", ""))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value
