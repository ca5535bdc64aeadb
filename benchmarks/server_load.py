"""N concurrent WebSocket players against real ``miau play`` processes, on SQLite and PostgreSQL.

Run from the repository root::

    .venv/bin/python -m benchmarks.server_load [--players 50,150,300] [--seconds 20]
        [--configs sqlite,pg1,pg2] [--search] [--client-processes 1] [--pg-url URL]

Each configuration starts its own servers (``miau play --no-browser`` on
127.0.0.1, real processes, as deployed) on a fresh database:

- ``sqlite``: one process on a SQLite file (WAL, ``synchronous=FULL``);
- ``pg1``: one process on PostgreSQL;
- ``pg2``: two processes on one PostgreSQL database, players split between
  their ports.

PostgreSQL is a throwaway cluster in a temporary folder with its default,
durable settings (``fsync`` and ``synchronous_commit`` on), unless
``--pg-url`` names one (then each configuration gets a new database on it).

Each player is one WebSocket with its own player cookie. It opens tutorial
``first-steps`` and then sends one intent every ``--interval`` seconds
(default 0.25) for ``--seconds``, cycling right, left, right, undo, which
the engine always accepts; the next intent waits for the previous reply
(one in flight per player, as the web client does). Players start spread
over the first interval. For each configuration and N it prints: accepted
turns per second, reply latency p50/p95/p99 (intent sent to its reply
received), errors (error replies and rejected intents), dropped
connections, and the CPU used by the server processes, PostgreSQL and the
load generator itself, and by everything else on the machine (``others``:
other people's work on a shared machine), in percent of one core, which
shows what limits it.

A shared machine skews the figures: a trial during which other processes
used more than ``--max-others`` percent of a core is repeated (``--retries``
times at most) and the quietest run counts.

``--search`` looks, per configuration, for the largest N that holds the
line: p99 below ``--p99-ms`` (50) with no errors and no dropped connection.
It doubles N from ``--players``' first value until the line breaks, then
bisects (to within 10%), each trial ``--seconds`` long.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path

import websockets
from tests.server.postgres import PostgresMissing, TemporaryPostgres
from tests.support.local import miau_play

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ("tutorial", "first-steps")
CYCLE = (
    {"intent": "step", "direction": "right"},
    {"intent": "step", "direction": "left"},
    {"intent": "step", "direction": "right"},
    {"intent": "undo"},
)
"""Intents the engine accepts forever on ``first-steps``: the cat walks to and fro."""

CONFIGS = ("sqlite", "pg1", "pg2")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


@dataclass
class PlayerTally:
    """What the players of one load process saw."""

    latencies: list[float] = field(default_factory=list)
    accepted: int = 0
    errors: int = 0
    dropped: int = 0
    not_opened: int = 0


@dataclass
class Trial:
    """The figures of one configuration at one N."""

    config: str
    players: int
    seconds: float
    tally: PlayerTally
    server_cpu: float
    postgres_cpu: float
    client_cpu: float
    other_cpu: float

    def percentile(self, fraction: float) -> float:
        """A latency percentile in milliseconds (nan without replies)."""
        values = self.tally.latencies
        if not values:
            return float("nan")
        if len(values) == 1:
            return values[0] * 1000
        return (
            statistics.quantiles(values, n=1000, method="inclusive")[
                min(998, round(fraction * 1000) - 1)
            ]
            * 1000
        )

    def holds(self, p99_ms: float) -> bool:
        """Whether the trial holds the line: p99 under ``p99_ms``, nothing lost."""
        tally = self.tally
        return (
            tally.errors == 0
            and tally.dropped == 0
            and tally.not_opened == 0
            and self.percentile(0.99) < p99_ms
        )

    def line(self) -> str:
        """One row of the table."""
        tally = self.tally
        return (
            f"{self.config:>6} {self.players:>6} {tally.accepted / self.seconds:>9.0f} "
            f"{self.percentile(0.50):>7.1f} {self.percentile(0.95):>7.1f} "
            f"{self.percentile(0.99):>7.1f} {tally.errors:>6} {tally.dropped + tally.not_opened:>7} "
            f"{self.server_cpu:>7.0f} {self.postgres_cpu:>7.0f} {self.client_cpu:>7.0f} {self.other_cpu:>7.0f}"
        )


HEADER = (
    f"{'config':>6} {'N':>6} {'turns/s':>9} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} "
    f"{'errors':>6} {'dropped':>7} {'srv cpu':>7} {'pg cpu':>7} {'cli cpu':>7} {'others':>7}"
)


# --- the players (run in one or more load processes) ---------------------------------------


async def play(
    url: str, start_at: float, stop_at: float, interval: float, tally: PlayerTally
) -> None:
    """One player: open the level, then one intent per ``interval`` until ``stop_at``."""
    token = secrets.token_urlsafe(24)
    try:
        async with websockets.connect(
            url,
            additional_headers={"Cookie": f"miau_player={token}"},
            open_timeout=30,
            max_size=2**20,
            compression=None,
        ) as socket:
            await socket.send(json.dumps({"type": "open", "pack": LEVEL[0], "level": LEVEL[1]}))
            if json.loads(await socket.recv()).get("type") != "opened":
                tally.not_opened += 1
                return
            now = time.monotonic()
            if start_at > now:
                await asyncio.sleep(start_at - now)
            due, seq = start_at, 0
            while due < stop_at:
                intent = CYCLE[seq % len(CYCLE)]
                seq += 1
                sent = time.monotonic()
                await socket.send(json.dumps({"type": "intent", "seq": seq, **intent}))
                reply = json.loads(await socket.recv())
                received = time.monotonic()
                tally.latencies.append(received - sent)
                if reply.get("type") == "result" and reply["event"]["accepted"]:
                    tally.accepted += 1
                else:
                    tally.errors += 1
                due += interval
                # Late replies do not pile up: a player never has two intents in flight.
                if due > received:
                    await asyncio.sleep(due - received)
                else:
                    due = received
    except (TimeoutError, OSError, websockets.ConnectionClosed, websockets.InvalidHandshake):
        tally.dropped += 1


async def play_all(
    urls: Sequence[str], players: int, begin: float, seconds: float, interval: float
) -> PlayerTally:
    """``players`` players spread over ``urls``, their starts spread over one interval."""
    tally = PlayerTally()
    tasks = [
        play(
            urls[index % len(urls)],
            begin + interval * index / max(players, 1),
            begin + seconds,
            interval,
            tally,
        )
        for index in range(players)
    ]
    await asyncio.gather(*tasks)
    return tally


def load_process(
    urls: Sequence[str],
    players: int,
    begin: float,
    seconds: float,
    interval: float,
    results: Connection,
) -> None:
    """A load process: run its players, send back its tally and the CPU time it used."""
    tally = asyncio.run(play_all(urls, players, begin, seconds, interval))
    results.send((tally, time.process_time()))
    results.close()


# --- the servers ---------------------------------------------------------------------------


def cpu_seconds(pids: Sequence[int]) -> float:
    """User plus system CPU seconds the processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS_PER_SECOND


def machine_busy_seconds() -> float:
    """CPU seconds every process of the machine has used (all cores, from ``/proc/stat``)."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / TICKS_PER_SECOND


def postgres_pids(cluster: TemporaryPostgres | None) -> list[int]:
    """The postmaster of the throwaway cluster and its children (the backends)."""
    if cluster is None or cluster.folder is None:
        return []
    try:
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [postmaster]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == postmaster:
            pids.append(int(stat.parent.name))
    return pids


class Databases:
    """Fresh databases for each trial: SQLite files in a temporary folder, PostgreSQL ones."""

    def __init__(self, stack: ExitStack, pg_url: str | None) -> None:
        self.folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="miau-load-")))
        self.pg_url = pg_url
        self.cluster: TemporaryPostgres | None = None
        self._stack = stack
        self._count = 0

    def sqlite(self) -> str:
        """A new SQLite file's path."""
        self._count += 1
        return str(self.folder / f"load-{self._count}.db")

    def postgres(self) -> str:
        """A new PostgreSQL database's URL (the throwaway cluster starts on first use)."""
        self._count += 1
        name = f"miau_load_{os.getpid()}_{self._count}"
        if self.pg_url is not None:
            import psycopg

            with psycopg.connect(self.pg_url, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            return self.pg_url.rsplit("/", 1)[0] + "/" + name
        if self.cluster is None:
            self.cluster = self._stack.enter_context(TemporaryPostgres())
        return self.cluster.create_database(name)


def run_trial(
    config: str,
    players: int,
    seconds: float,
    interval: float,
    client_processes: int,
    databases: Databases,
) -> Trial:
    """Start the configuration's servers on a fresh database and play ``players`` against them."""
    database = databases.sqlite() if config == "sqlite" else databases.postgres()
    process_count = 2 if config == "pg2" else 1
    with ExitStack() as servers:
        # Every simulated player comes from 127.0.0.1: lift the per-address cap above them.
        room = ("--connections-per-address", "1000", "--connections", "1000")
        started = [
            servers.enter_context(miau_play(database, options=room)) for _ in range(process_count)
        ]
        urls = [f"ws://127.0.0.1:{server.port}/ws" for server in started]
        server_pids = [server.process.pid for server in started]
        pg_pids = postgres_pids(databases.cluster) if config != "sqlite" else []
        # Connecting and opening take a moment at large N: the measured window starts after.
        begin = time.monotonic() + 1.0 + players / 500
        server_before, pg_before = cpu_seconds(server_pids), cpu_seconds(pg_pids)
        machine_before, trial_start = machine_busy_seconds(), time.monotonic()
        context = multiprocessing.get_context("fork")
        workers = []
        for worker in range(client_processes):
            share = players // client_processes + (worker < players % client_processes)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(
                target=load_process,
                args=(
                    urls[worker % len(urls) :] + urls[: worker % len(urls)],
                    share,
                    begin,
                    seconds,
                    interval,
                    sender,
                ),
            )
            process.start()
            sender.close()
            workers.append((process, receiver))
        tally, client_cpu = PlayerTally(), 0.0
        for process, receiver in workers:
            part, used = receiver.recv()
            process.join()
            tally.latencies += part.latencies
            tally.accepted += part.accepted
            tally.errors += part.errors
            tally.dropped += part.dropped
            tally.not_opened += part.not_opened
            client_cpu += used
        wall = time.monotonic() - trial_start
        machine_cpu = machine_busy_seconds() - machine_before
        server_cpu = cpu_seconds(server_pids) - server_before
        pg_cpu = cpu_seconds(postgres_pids(databases.cluster) if config != "sqlite" else []) - (
            pg_before
        )
    pg_cpu = max(pg_cpu, 0.0)
    # CPU as percent of one core over the whole trial (connecting included, which is short).
    return Trial(
        config,
        players,
        seconds,
        tally,
        100 * server_cpu / wall,
        100 * pg_cpu / wall,
        100 * client_cpu / wall,
        100 * max(machine_cpu - server_cpu - pg_cpu - client_cpu, 0.0) / wall,
    )


def search(
    config: str,
    first: int,
    p99_ms: float,
    run: TrialRunner,
) -> int:
    """The largest N (within 10%) whose trial holds the line; 0 when even ``first`` fails."""
    good, bad = 0, None
    players = first
    while bad is None:
        if run(config, players).holds(p99_ms):
            good, players = players, players * 2
        else:
            bad = players
    while bad - good > max(1, good // 10):
        middle = (good + bad) // 2
        if run(config, middle).holds(p99_ms):
            good = middle
        else:
            bad = middle
    return good


class TrialRunner:
    """Runs and prints trials with fixed settings."""

    def __init__(self, args: argparse.Namespace, databases: Databases) -> None:
        self.args = args
        self.databases = databases

    def __call__(self, config: str, players: int) -> Trial:
        """One trial, printed as it finishes; repeated while others keep the machine busy."""
        quietest: Trial | None = None
        for _ in range(1 + self.args.retries):
            trial = run_trial(
                config,
                players,
                self.args.seconds,
                self.args.interval,
                self.args.client_processes,
                self.databases,
            )
            busy = trial.other_cpu > self.args.max_others
            verdict = "" if trial.holds(self.args.p99_ms) else "   (misses the line)"
            print(trial.line() + verdict + ("   (busy machine)" if busy else ""), flush=True)
            if quietest is None or trial.other_cpu < quietest.other_cpu:
                quietest = trial
            if not busy:
                break
        assert quietest is not None
        return quietest


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run the trials, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--players", default="50,150,300", help="comma-separated N (default 50,150,300)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time per trial")
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between intents")
    parser.add_argument("--configs", default=",".join(CONFIGS), help="sqlite,pg1,pg2")
    parser.add_argument("--search", action="store_true", help="find the largest N holding the line")
    parser.add_argument("--p99-ms", type=float, default=50.0, help="the line's p99 (ms)")
    parser.add_argument(
        "--client-processes", type=int, default=1, help="load processes sharing the players"
    )
    parser.add_argument(
        "--pg-url", default=None, help="an existing PostgreSQL to create databases on"
    )
    parser.add_argument(
        "--max-others",
        type=float,
        default=30.0,
        help="a trial during which other work used more CPU (%% of a core) is repeated",
    )
    parser.add_argument("--retries", type=int, default=2, help="repeats of a busy trial")
    args = parser.parse_args(argv)
    configs = [name.strip() for name in args.configs.split(",") if name.strip()]
    unknown = set(configs) - set(CONFIGS)
    if unknown:
        parser.error(f"unknown configurations: {', '.join(sorted(unknown))}")
    counts = [int(count) for count in args.players.split(",")]
    print(
        f"{platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"one intent per {args.interval * 1000:.0f} ms per player, {args.seconds:.0f} s a trial, "
        f"{args.client_processes} load process(es); CPU in % of one core"
    )
    print(HEADER, flush=True)
    with ExitStack() as stack:
        databases = Databases(stack, args.pg_url)
        run = TrialRunner(args, databases)
        try:
            if args.search:
                found = {config: search(config, counts[0], args.p99_ms, run) for config in configs}
                for config, players in found.items():
                    print(
                        f"{config}: largest N with p99 < {args.p99_ms:.0f} ms and no errors: "
                        f"{players}"
                    )
            else:
                for config in configs:
                    for players in counts:
                        run(config, players)
        except PostgresMissing as missing:
            print(f"server_load: {missing}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
