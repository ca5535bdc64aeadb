"""What resuming long stored games costs the resuming player and everyone else.

Run from the repository root::

    .venv/bin/python -m benchmarks.resume_cost [--intents 50000] [--resumes 10] [--repeats 3]

In one process, on a SQLite file in a temporary folder, through the real
:class:`~miau.server.session.PlaySession` and store:

1. **one resume**: the time to open a game of ``--intents`` steps (every
   one undoable) stored by a Miau before the cap on stored logs: the first
   resume replays it all and compacts it; the later ones (median of
   ``--repeats``) replay the compacted log. Then a game in which a player
   played as many intents but undid most of them (a step, then undo),
   stored as the server stores it, so compacted as it grew;
2. **others during resumes**: ``--resumes`` players resume at once a game
   whose log is the longest the server stores (``COMPACT_AT - 1`` steps,
   every one undoable), while a ticker on the same event loop asks to wake
   every 5 ms; it prints how late the ticker woke (p50/p99/max), once with
   long replays on worker threads (the server's way) and once with every
   replay on the event loop (``replay_chunk`` past the log length), in the
   same run, after timing the ticker alone for 3 s (the machine's own
   noise);
3. **two pages**: two sessions of one player take turns on one game for
   ``--turns`` turns; it prints how many stored entries were applied per
   turn (a page that replayed the stored game on every turn would apply
   about turns / 2).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from miau.engine import Event, Game
from miau.play import log as play_log
from miau.play.worlds import Worlds
from miau.server.limits import UNTHROTTLED, ConnectionLimits
from miau.server.session import PlaySession
from miau.server.store import LogEntry, SqliteStore, StoreRunner

PACK, LEVEL = "tutorial", "first-steps"
OPEN = json.dumps({"type": "open", "pack": PACK, "level": LEVEL})
IDLE_SECONDS = 3.0
"""How long the ticker is timed with no resume, for the machine's own noise."""


def shuffle_log(level: Any, length: int) -> tuple[LogEntry, ...]:
    """``length`` accepted steps, right and left in turn, that never win."""
    game = Game(level)
    letters = []
    for index in range(length):
        direction = "right" if index % 2 == 0 else "left"
        assert game.step(direction).accepted and not game.won
        letters.append(LogEntry("R" if direction == "right" else "L"))
    return tuple(letters)


def intent(seq: int, name: str) -> str:
    message: dict[str, Any] = {"type": "intent", "seq": seq}
    if name in ("undo", "wait"):
        message["intent"] = name
    else:
        message.update(intent="step", direction=name)
    return json.dumps(message)


@contextmanager
def store_in(folder: Path, name: str) -> Iterator[SqliteStore]:
    store = SqliteStore(folder / name, synchronous="NORMAL")
    try:
        yield store
    finally:
        store.close()


async def resume_seconds(runner: StoreRunner, worlds: Worlds, player: str) -> float:
    session = PlaySession(player, worlds, runner, UNTHROTTLED)
    start = time.perf_counter()
    reply = await session.handle(OPEN)
    elapsed = time.perf_counter() - start
    assert reply["type"] == "opened" and reply["resumed"], reply
    return elapsed


async def undone_game(runner: StoreRunner, worlds: Worlds, player: str, intents: int) -> int:
    """Play ``intents`` intents, mostly a step and its undo, as a player would; the log length."""
    session = PlaySession(player, worlds, runner, UNTHROTTLED)
    await session.handle(OPEN)
    for seq in range(intents):
        name = "right" if seq % 100 == 0 else ("up" if seq % 2 == 1 else "undo")
        await session.handle(intent(seq, name))
    stored = await runner.current_game(player, PACK, LEVEL)
    assert stored is not None
    return len(stored.intents)


async def lateness_during_resumes(
    runner: StoreRunner, worlds: Worlds, players: list[str], limits: ConnectionLimits
) -> list[float]:
    """How late (ms) a 5 ms ticker wakes while ``players`` resume their games at once."""
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.005)
            late.append((time.perf_counter() - start - 0.005) * 1000)

    async def resume(player: str) -> None:
        reply = await PlaySession(player, worlds, runner, limits).handle(OPEN)
        assert reply["type"] == "opened", reply

    watching = asyncio.ensure_future(ticker())
    if players:
        await asyncio.gather(*(resume(player) for player in players))
    else:
        await asyncio.sleep(IDLE_SECONDS)
    done.set()
    await watching
    return late


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def two_pages(runner: StoreRunner, worlds: Worlds, turns: int) -> float:
    applied = 0
    original = play_log.apply_entry

    def counting(game: Game, entry: LogEntry) -> Event:
        nonlocal applied
        applied += 1
        return original(game, entry)

    play_log.apply_entry = counting
    try:
        pages = [PlaySession("pages", worlds, runner, UNTHROTTLED) for _ in range(2)]
        for page in pages:
            await page.handle(OPEN)
        applied = 0
        for turn in range(turns):
            reply = await pages[turn % 2].handle(intent(turn, "wait"))
            assert reply["state"]["moveCount"] == turn + 1, reply
    finally:
        play_log.apply_entry = original
    return applied / turns


async def main_async(arguments: argparse.Namespace, folder: Path) -> None:
    worlds = Worlds.load(None)
    level = worlds.level(PACK, LEVEL)
    assert level is not None
    log = shuffle_log(dict(level.data), arguments.intents)
    longest = log[: play_log.COMPACT_AT - 1]
    with store_in(folder, "resume.db") as store:
        runner = StoreRunner(store)
        players = [f"resumer-{index:04d}" for index in range(arguments.resumes)]
        store.start_game("steps", PACK, LEVEL, log)
        for player in players:
            store.start_game(player, PACK, LEVEL, longest)
        stored_undone = await undone_game(runner, worlds, "undone", arguments.intents)
        first = await resume_seconds(runner, worlds, "steps")
        compacted = await runner.current_game("steps", PACK, LEVEL)
        assert compacted is not None

        steps = [await resume_seconds(runner, worlds, "steps") for _ in range(arguments.repeats)]
        undone = [await resume_seconds(runner, worlds, "undone") for _ in range(arguments.repeats)]
        print(
            f"first resume of {arguments.intents:,} undoable steps stored before the cap "
            f"(replays them, compacts the log to {len(compacted.intents):,} entries): "
            f"{first * 1000:.0f} ms; later resumes: {statistics.median(steps) * 1000:.0f} ms "
            f"(median of {arguments.repeats})"
        )
        print(
            f"one resume, {arguments.intents:,} intents played, mostly undone "
            f"(stored log {stored_undone:,} entries after compaction): "
            f"{statistics.median(undone) * 1000:.1f} ms"
        )

        on_loop = ConnectionLimits(frames_per_second=None, replay_chunk=10**9)
        trials: tuple[tuple[str, list[str], ConnectionLimits], ...] = (
            ("no resume (the machine's own noise)", [], UNTHROTTLED),
            (
                f"{len(players)} resumes of {len(longest):,} steps at once, on worker threads",
                players,
                UNTHROTTLED,
            ),
            ("the same resumes, replays on the event loop", players, on_loop),
        )
        for name, resumers, limits in trials:
            late = await lateness_during_resumes(runner, worlds, resumers, limits)
            print(
                f"{name}: a 5 ms ticker woke late by p50 {percentile(late, 0.5):.1f} ms, "
                f"p99 {percentile(late, 0.99):.1f} ms, max {max(late):.0f} ms ({len(late)} ticks)"
            )
        per_turn = await two_pages(runner, worlds, arguments.turns)
        print(
            f"two pages taking turns for {arguments.turns} turns: "
            f"{per_turn:.1f} stored entries applied per turn"
        )


def main() -> None:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--intents", type=int, default=50_000)
    parser.add_argument("--resumes", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--turns", type=int, default=400)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(main_async(arguments, Path(folder)))


if __name__ == "__main__":
    main()
