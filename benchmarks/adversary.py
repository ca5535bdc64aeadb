"""The attacks that ``docs/security.md`` lists, run against a real ``miau play`` while a player is timed.

Run from the repository root::

    .venv/bin/python -m benchmarks.adversary [--min-seconds 10] [--min-replies 100] [--only NAME,NAME]
        [--play-option=--requests-per-second=0 ...]

It starts ``miau play --no-browser`` on 127.0.0.1 (a real process, as
deployed, with its rate limits) on a fresh SQLite database. A well-behaved
player, in a process of its own, keeps one WebSocket open on tutorial
``first-steps`` and sends one intent every 50 ms (right, left, right, undo,
which the engine always accepts), the next one once the reply is in, and
times each reply. Then each attack runs alone, with a pause between two,
and keeps up its pressure for at least ``--min-seconds`` (10 s): a
connection the server closes (1008 past its rate limit, or closed at
accept) is opened again at once, uploads and restores take a new player
each round and delete what they stored, and every repeat is bounded in
count (:data:`MAX_RECONNECTS`, :data:`ROUNDS`). The whole run takes about
240 s and prints its time and the load average. Every connection is on
loopback; nothing leaves the machine.

For each attack it prints the player's reply latency p50/p95/p99 and max
(ms), the player's replies and refusals (an error reply, a rejected intent,
a reply later than 5 s or a dropped socket), what the attack was refused
(error replies such as ``rate-limited``, 4xx answers, sockets the server
closed), the server's peak resident memory (RSS, MiB, sampled every
0.1 s), the peak RSS of its helper processes together (the studio's loader
and workers, the log shortener: each capped at 2 GiB of address space) and
the tracebacks the server logged meanwhile. Each line's verdict: "held" (p99 under 50 ms),
"held against the baseline" (the same run's ``idle`` p99 was over 50 ms, a loaded machine,
and this attack's is within 3 times it), "OVER the line", or why it was not judged. The
attacks:

- ``idle``: a quiet baseline (no attack);
- ``garbage``: 4 sockets sending malformed frames (bad JSON, binary, wrong types);
- ``idle-sockets``: 400 TCP connections that send nothing or half a request line;
- ``slow-readers``: 4 sockets sending 20 ``open`` frames (55 KB replies), then 2 a second,
  never reading, for 13 s;
- ``studio-flood``: 5 ``/studio`` sockets sending ``solve`` with a 134 KiB broken pack;
- ``heavy-drafts``: 4 sockets opening a 64 x 64 draft with 4,093 YOU things
  (then one at the entity cap) and stepping as fast as replies come;
- ``library-packs``: rounds of a new player uploading a 64-level 64 x 64 pack (278 KiB,
  refused) and a 7-level one just under the entity cap, listing, deleting;
- ``quota-fill``: fresh players from 8 addresses storing packs of almost 1 MiB and never
  deleting them, while a returning author from a ninth address saves a small pack every
  half second (the database's growth printed);
- ``long-resume``: 10 sockets resuming a stored 50,000-intent game, again and again;
- ``restore-padding``: ``restore`` frames carrying an extra 60 KB field (disk growth printed);
- ``overflow-restore``: ``restore`` with ``moveCount`` 2**63 - 1, a step, a re-open;
- ``surrogates``: a lone surrogate (the escape ``u+d800``) in every JSON endpoint's body (5xx counted);
- ``cross-site``: share-link page loads from another site, cross-site and
  wrong-scheme WebSocket handshakes, and requests for a rebound host name;
- ``heavy-share``: 4 sockets opening a 468-character share link of 4,000 word tiles under
  ``TEXT IS MOVE`` (refused), then the same level at the 1,024-entity bound, waiting flat
  out and resuming it again and again;
- ``idle-websockets``: 64 idle WebSockets from each of 8 addresses (pings answered), while a
  new visitor from a ninth address loads the page and opens a socket every half second;
- ``header-flood``: 8 clients sending requests of 10,000 header lines;
- ``request-flood``: 4 kept-alive connections from each of 8 addresses sending cheap
  ``GET /api/worlds`` requests flat out, while a new visitor from a ninth address loads the
  page and opens a level every half second;
- ``csrf``: ``no-cors``-style writes from a page on another port (``text/plain`` POSTs,
  DELETEs with a foreign ``Origin``, ``Sec-Fetch-Site: same-site``);
- ``studio-monopoly``: 3 ``/studio`` sockets of one address starting long solves while an
  author from another address starts a tiny solve every 2 s (the author's wait printed);
- ``reconnect-storm``: 32 addresses opening a play socket, opening a level and closing, flat out;
- ``concurrent-pages``: 4 pages of one player stepping on one level at once (their
  ``server-error`` replies printed);
- ``shared-decode``: hostile share codes (4,096 bad things; 1,024; 10,000 broken automata)
  posted to ``/api/shared`` from 4 addresses, 4 in flight each, while an honest page opens a
  link and a new visitor loads the page every half second (the largest reply, and how the
  honest link and the visitor were served, printed);
- ``encode-flood``: 16 ``POST /api/shared/encode`` of 64 levels of 64 x 64 (278 KiB) in
  flight, while an honest author shares a level every half second;
- ``put-level-flood``: the same body in 16 ``PUT /api/library/{pack}/levels/{level}`` in
  flight, while an honest author saves a level every half second;
- ``damaged-db``: ``miau play`` started on a truncated copy of a database
  (its exit status and how many lines it printed); about start-up, not a
  running server: run once and not judged;
- ``schema-damage``: ``miau play`` started on a database whose unique index on unfinished
  games was dropped and whose ``intents`` was rebuilt without its primary key, holding a
  duplicate move (refused means exit status 2 and one line); start-up only, like ``damaged-db``.

The player's line ``p99 < 50 ms, nothing refused`` is the bound the server aims for under
every attack; a line of fewer than ``--min-replies`` player replies says "too few replies
to judge" instead. A shared machine skews figures: compare attacks within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
import websockets
from tests.server.wire import RawSocket, masked_frame
from tests.support.local import PlayProcess, start_miau_play
from websockets.asyncio.client import connect

from miau.engine import Game
from miau.packs.share import encode_share_code
from miau.play.worlds import Worlds
from miau.server.store import LogEntry, SqliteStore

ROOT = Path(__file__).resolve().parents[1]
LEVEL = ("tutorial", "first-steps")
CYCLE = (
    {"intent": "step", "direction": "right"},
    {"intent": "step", "direction": "left"},
    {"intent": "step", "direction": "right"},
    {"intent": "undo"},
)
"""Intents the engine accepts forever on ``first-steps``: the cat walks to and fro."""

PLAYER_INTERVAL = 0.05
PLAYER_PATIENCE = 5.0
"""A reply later than this counts as refused to the player."""

MEMORY_BOUND_MIB = 512
"""The server's resident memory the issue's line is checked against."""

LONG_GAME = 50_000
LONG_GAME_OWNER = "adversary-long-game-owner-0001"


# --- the well-behaved player, in a process of its own --------------------------------------


@dataclass(frozen=True, slots=True)
class Sample:
    """One of the player's intents: when it was sent, how long its reply took, whether it held."""

    sent: float
    latency: float
    ok: bool
    why: str = ""
    """What went wrong when not ``ok``: an error reply's code, ``rejected``, ``timeout``, or
    the exception that dropped the socket."""


async def _play(port: int, stop: Connection) -> list[Sample]:
    samples: list[Sample] = []
    url = f"ws://127.0.0.1:{port}/ws"
    seq = 0
    while not stop.poll():
        try:
            async with connect(url, max_size=2**22, compression=None, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "open", "pack": LEVEL[0], "level": LEVEL[1]}))
                await asyncio.wait_for(ws.recv(), PLAYER_PATIENCE)
                due = time.monotonic()
                while not stop.poll():
                    intent = CYCLE[seq % len(CYCLE)]
                    seq += 1
                    sent = time.monotonic()
                    await ws.send(json.dumps({"type": "intent", "seq": seq, **intent}))
                    try:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), PLAYER_PATIENCE))
                    except TimeoutError:
                        samples.append(Sample(sent, PLAYER_PATIENCE, False, "timeout"))
                        break
                    received = time.monotonic()
                    ok = reply.get("type") == "result" and bool(reply["event"]["accepted"])
                    why = (
                        ""
                        if ok
                        # The code and the sentence's start: several limits answer one code.
                        else f"{reply.get('code') or 'rejected'} "
                        f"({' '.join(str(reply.get('message', '')).split()[:5])})"
                    )
                    samples.append(Sample(sent, received - sent, ok, why))
                    due += PLAYER_INTERVAL
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    due = max(due, time.monotonic() - PLAYER_INTERVAL)
        except (
            OSError,
            TimeoutError,
            websockets.ConnectionClosed,
            websockets.InvalidHandshake,
        ) as error:
            samples.append(Sample(time.monotonic(), 0.0, False, type(error).__name__))
            await asyncio.sleep(0.2)
    return samples


def player_process(port: int, stop: Connection, results: Connection) -> None:
    """The player's process: play until told to stop, then send every sample back."""
    samples = asyncio.run(_play(port, stop))
    results.send([(each.sent, each.latency, each.ok, each.why) for each in samples])


# --- measuring the server -------------------------------------------------------------------


def helper_pids(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (empty when it is gone)."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            children = [int(each) for each in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
        for child in children:
            found += [child, *helper_pids(child)]
    return found


def rss_mib(pid: int) -> float:
    """The resident memory of process ``pid``, in MiB (0 when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass(slots=True)
class Tally:
    """What one attack was refused, and what it noted along the way."""

    refused: int = 0
    sent: int = 0
    closed: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Outcome:
    """One attack's figures."""

    name: str
    start: float
    end: float
    tally: Tally
    peak_rss: float
    peak_helpers_rss: float
    tracebacks: int


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))
    return ordered[rank]


# --- the attacks ------------------------------------------------------------------------------


@dataclass(slots=True)
class Target:
    """The server under attack: its port, process, database and scratch folder."""

    play: PlayProcess
    db_path: Path
    scratch: Path
    seconds: float
    """How long each attack keeps up its pressure, at least (``--min-seconds``)."""
    deadline: float = 0.0
    """When the running attack may stop (set as it starts)."""

    @property
    def port(self) -> int:
        """The port it listens on."""
        return self.play.port

    @property
    def base(self) -> str:
        """Its HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """Its play WebSocket's address."""
        return f"ws://127.0.0.1:{self.port}/ws"


MAX_RECONNECTS = 2000
"""The most connections one attacking worker opens again after the server closed one."""


async def keep_up(
    tally: Tally, target: Target, count: int, one: Callable[[], Awaitable[None]]
) -> None:
    """``count`` attacking connections, each opened again when the server closes it.

    ``one`` plays a connection until the attack's deadline (or its own
    budget). A connection the server closes (1008 past its rate limit, a
    dropped socket) counts as refused and is opened again at once, so the
    pressure lasts the attack's whole time: a flood is not over because the
    server cut one socket off. Bounded by :data:`MAX_RECONNECTS` per worker.
    """

    async def worker() -> None:
        for _ in range(MAX_RECONNECTS):
            if time.monotonic() >= target.deadline:
                return
            try:
                await one()
            except (
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
                OSError,
                httpx.TransportError,
            ):
                tally.refused += 1
                tally.closed += 1
                await asyncio.sleep(0.01)  # not a busy loop when the server refuses sockets
            else:
                return

    await asyncio.gather(*(worker() for _ in range(count)))
    if tally.closed:
        tally.notes.append(
            f"{tally.closed} connections closed by the server and opened again ({count} at a time)"
        )


async def attack_idle(target: Target, tally: Tally) -> None:
    """No attack: the player alone."""
    await asyncio.sleep(max(0.0, target.deadline - time.monotonic()))


GARBAGE = [
    "{",
    "[]",
    '"just a string"',
    '{"type": 7}',
    '{"type": "intent", "seq": true, "intent": "step"}',
    '{"type": "open", "pack": ["x"], "level": {}}',
    '{"type": "intent", "seq": 1, "intent": "restore", "state": []}',
    "\x00\x01\x02 not json at all",
    '{"type": "open", "share": "not-a-code"}',
]


async def attack_garbage(
    target: Target, tally: Tally, sockets: int = 4, frames: int = 200_000
) -> None:
    """Malformed frames on several sockets, each sent once the last one was answered."""
    budget = [frames]

    async def one() -> None:
        async with connect(target.ws, max_size=2**22, compression=None) as ws:
            index = 0
            while time.monotonic() < target.deadline and budget[0] > 0:
                budget[0] -= 1
                frame: str | bytes = GARBAGE[index % len(GARBAGE)]
                if index % 11 == 0:
                    frame = os.urandom(64)
                index += 1
                await ws.send(frame)
                tally.sent += 1
                reply = json.loads(await ws.recv())
                if reply.get("type") == "error":
                    tally.refused += 1

    await keep_up(tally, target, sockets, one)


async def attack_idle_sockets(target: Target, tally: Tally, count: int = 400) -> None:
    """Connections that send nothing, or half a request line, held for the attack's time."""
    loop = asyncio.get_running_loop()
    opened: list[socket.socket] = []
    try:
        for index in range(count):
            sock = socket.socket()
            sock.setblocking(False)
            try:
                await loop.sock_connect(sock, ("127.0.0.1", target.port))
            except OSError:
                sock.close()
                tally.refused += 1
                continue
            if index % 2:
                await loop.sock_sendall(sock, b"GET /api/wor")
            opened.append(sock)
            tally.sent += 1
        await asyncio.sleep(target.seconds)
        for sock in opened:
            # Closed by the server (at once past a cap, or at its request timeout)?
            try:
                data = sock.recv(1, socket.MSG_PEEK)
                closed = data == b""
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
            tally.refused += closed
        tally.notes.append(f"{tally.refused} of {count} closed by the server")
    finally:
        for sock in opened:
            sock.close()


OPEN_ROCKS = {"type": "open", "pack": "tutorial", "level": "walls"}


async def attack_slow_readers(target: Target, tally: Tally, sockets: int = 4) -> None:
    """Sockets that send 20 ``open`` frames at once, then 2 a second, and never read.

    Each opens a draft of 400 things (a 55 KB reply): 20 replies fill the
    buffers of a client that does not read, and the send timeout (10 s) must
    then drop the socket. The attack lasts at least 13 s to see it.
    """
    seconds = max(target.seconds, 13.0)
    opening = json.dumps({"type": "open", "draft": crowded_draft(400)}).encode()

    def stall() -> bool:
        client = RawSocket(target.port, receive_buffer=4096)
        frame = masked_frame(opening)
        client.sock.settimeout(0.05)
        deadline = time.monotonic() + seconds
        closed = False
        while time.monotonic() < deadline and not closed:
            try:
                client.sock.sendall(frame)
                tally.sent += 1
            except TimeoutError:
                pass
            except OSError:
                closed = True
            if tally.sent >= 20 * sockets:
                time.sleep(0.5)
        if not closed:
            try:
                closed = client.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
        client.close()
        return closed

    results = await asyncio.gather(*(asyncio.to_thread(stall) for _ in range(sockets)))
    tally.refused += sum(results)
    tally.notes.append(
        f"{sum(results)} of {sockets} stalled sockets dropped by the server (none while the "
        "replies still fit the kernel's socket buffers: then no send waits)"
    )


def broken_studio_pack(size: int = 134 * 1024) -> dict[str, Any]:
    """A one-level pack of about ``size`` bytes, every object of it broken."""
    objects: list[dict[str, Any]] = []
    while len(json.dumps(objects)) < size:
        objects.append({"kind": "object", "noun": "not a noun!" * 4, "x": -1, "y": "?"})
    return {
        "manifest": {"id": "broken", "name": "Broken", "version": "1.0.0", "engine": 1},
        "levels": [
            {
                "id": "b",
                "title": "B",
                "width": 8,
                "height": 8,
                "map": ["." * 8] * 8,
                "legend": {},
                "objects": objects,
            }
        ],
    }


async def attack_studio_flood(target: Target, tally: Tally, sockets: int = 5) -> None:
    """``solve`` frames carrying a big broken pack, each sent once the last was answered."""
    frame = json.dumps({"type": "solve", "job": "j", "pack": broken_studio_pack()})
    url = f"ws://127.0.0.1:{target.port}/studio"
    received = [0]

    async def one() -> None:
        async with connect(url, max_size=2**26, compression=None) as ws:
            while time.monotonic() < target.deadline:
                await ws.send(frame)
                tally.sent += 1
                reply = await ws.recv()
                received[0] += len(reply)
                if json.loads(reply).get("code") == "rate-limited":
                    tally.refused += 1

    await keep_up(tally, target, sockets, one)
    tally.notes.append(f"{received[0] / 1024**2:.1f} MiB of replies")


def crowded_draft(things: int, side: int = 64) -> dict[str, Any]:
    """A ``side`` x ``side`` draft: MIAU IS YOU and ``things`` MIAU things."""
    rows = [["."] * side for _ in range(side)]
    rows[0][0:3] = ["M", "=", "Y"]
    cells = [(x, y) for y in range(2, side) for x in range(side)]
    for x, y in cells[:things]:
        rows[y][x] = "c"
    legend = {"M": {"word": "MIAU"}, "=": {"word": "IS"}, "Y": {"word": "YOU"}, "c": "MIAU"}
    return {
        "manifest": {"id": "draft", "name": "Crowded", "version": "1.0.0", "engine": 1},
        "levels": [
            {
                "id": "crowded",
                "title": "Crowded",
                "width": side,
                "height": side,
                "map": ["".join(row) for row in rows],
                "legend": legend,
            }
        ],
    }


async def attack_heavy_drafts(target: Target, tally: Tally, sockets: int = 4) -> None:
    """Open the heaviest draft that fits a frame, then step on whatever opens, flat out."""
    replies = [0, 0, 0]  # steps answered, the largest reply, drafts opened
    openings = [json.dumps({"type": "open", "draft": crowded_draft(n)}) for n in (4093, 1021)]

    async def one() -> None:
        async with connect(target.ws, max_size=2**24, compression=None) as ws:
            opened = False
            while not opened and time.monotonic() < target.deadline:
                for opening in openings:
                    await ws.send(opening)
                    reply = json.loads(await ws.recv())
                    tally.sent += 1
                    if reply.get("type") == "opened":
                        opened = True
                        replies[2] += 1
                        break
                    tally.refused += 1
            seq = 0
            while opened and time.monotonic() < target.deadline:
                seq += 1
                step = {"intent": "step", "direction": "up" if seq % 2 else "down"}
                await ws.send(json.dumps({"type": "intent", "seq": seq, **step}))
                text = await ws.recv()
                tally.sent += 1
                replies[0] += 1
                replies[1] = max(replies[1], len(text))
                if json.loads(text).get("code") == "rate-limited":
                    tally.refused += 1

    await keep_up(tally, target, sockets, one)
    tally.notes.append(
        f"{replies[2]} drafts opened, {replies[0]} steps answered (granted or refused), "
        f"largest reply {replies[1] / 1024:.0f} KiB"
    )


def big_pack_text(pack_id: str, levels: int = 64, side: int = 64) -> str:
    """A pack of ``levels`` levels of ``side`` x ``side``, rocks on every other cell."""
    level_list = []
    for index in range(levels):
        rows = []
        for y in range(side):
            row = "".join("o" if (x + y) % 2 else "." for x in range(side))
            rows.append(row)
        rows[0] = "M=Y" + rows[0][3:]
        rows[1] = "c" + rows[1][1:]
        level_list.append(
            {
                "id": f"level-{index}",
                "title": f"Level {index}",
                "width": side,
                "height": side,
                "map": rows,
                "legend": {
                    "M": {"word": "MIAU"},
                    "=": {"word": "IS"},
                    "Y": {"word": "YOU"},
                    "c": "MIAU",
                    "o": "ROCK",
                },
            }
        )
    manifest = {"id": pack_id, "name": pack_id, "version": "1.0.0", "engine": 1}
    return json.dumps({"manifest": manifest, "levels": level_list})


ROUNDS = 10_000
"""The most rounds an attack made of rounds (requests, handshakes, restores) runs."""


def attacker_cookie() -> dict[str, str]:
    """The cookie of a player nobody has seen yet."""
    return {"Cookie": f"miau_player={secrets.token_urlsafe(24)}"}


async def attack_library_packs(target: Target, tally: Tally, clients: int = 2) -> None:
    """Library uploads, round after round until the deadline, each round a new player.

    A round uploads a 64-level 64 x 64 pack (278 KiB: past the entity cap,
    it must be refused unparsed), then a 7-level 64 x 64 pack (14,364
    entities, just under the cap: parsed and stored), lists the worlds
    (which include it) and the library, and deletes the pack again: a new
    player each round keeps clear of the per-player quotas, and the delete
    keeps the database from growing without bound.
    """
    oversized = big_pack_text("big-over")
    at_cap = big_pack_text("big-at-cap", levels=7)
    stored = [0]

    async def one() -> None:
        async with httpx.AsyncClient(base_url=target.base, timeout=60) as client:
            for _ in range(ROUNDS):
                if time.monotonic() >= target.deadline:
                    return
                headers = attacker_cookie()
                for text in (oversized, at_cap):
                    reply = await client.post("/api/library", json={"text": text}, headers=headers)
                    tally.sent += 1
                    tally.refused += reply.status_code >= 400
                    stored[0] += reply.status_code < 400
                for path in ("/api/worlds", "/api/library"):
                    reply = await client.get(path, headers=headers)
                    tally.sent += 1
                    tally.refused += reply.status_code >= 400
                reply = await client.delete("/api/library/big-at-cap", headers=headers)
                tally.sent += 1

    await keep_up(tally, target, clients, one)
    tally.notes.append(
        f"packs of {len(oversized) / 1024:.0f} KiB (refused) and {len(at_cap) / 1024:.0f} KiB; "
        f"{stored[0]} stored, listed and deleted"
    )


async def attack_quota_fill(
    target: Target, tally: Tally, addresses: int = 8, padding: int = 960 * 1024
) -> None:
    """Fresh players from 8 addresses storing packs of almost 1 MiB, never deleting them.

    The third outside attack filled the library quota this way in a minute
    (512 uploads of 1 MiB), after which every player's save was refused.
    Each address may now add only its share an hour; a returning author
    from a ninth address saves a small pack every half second and must be
    served throughout. The database's growth is printed.
    """
    small = json.loads((ROOT / "packs" / "tutorial.json").read_text(encoding="utf-8"))
    small["manifest"]["id"] = "authors-pack"
    small["levels"] = small["levels"][:1]
    author = attacker_cookie()
    before = database_bytes(target.db_path)
    stored = [0]
    statuses: dict[int, int] = {}
    visitors = [0, 0]  # served, refused
    why: dict[str, int] = {}

    async def fill(address: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(
            base_url=target.base, timeout=60, transport=transport
        ) as client:
            for index in range(ROUNDS):
                if time.monotonic() >= target.deadline:
                    return
                pack = json.loads(big_pack_text(f"fill-{index}", levels=1, side=8))
                pack["manifest"]["description"] = "x" * padding
                reply = await client.post(
                    "/api/library", json={"text": json.dumps(pack)}, headers=attacker_cookie()
                )
                tally.sent += 1
                statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
                tally.refused += reply.status_code >= 400
                stored[0] += reply.status_code < 400
                if reply.status_code >= 400:
                    await asyncio.sleep(0.05)  # refused: try again, not flat out

    async def author_saves() -> None:
        transport = httpx.AsyncHTTPTransport(local_address="127.0.0.98")
        async with httpx.AsyncClient(
            base_url=target.base, timeout=10, transport=transport
        ) as client:
            while time.monotonic() < target.deadline:
                try:
                    reply = await client.post(
                        "/api/library",
                        json={"text": json.dumps(small), "replace": True},
                        headers=author,
                    )
                    problem = (
                        "" if reply.status_code < 400 else f"{reply.status_code} {reply.text[:80]}"
                    )
                except httpx.TransportError as error:
                    problem = type(error).__name__
                visitors[1 if problem else 0] += 1
                if problem:
                    why[problem] = why.get(problem, 0) + 1
                await asyncio.sleep(0.5)

    await asyncio.gather(
        *(fill(f"127.0.0.{60 + index}") for index in range(addresses)), author_saves()
    )
    grown = (database_bytes(target.db_path) - before) / 2**20
    tally.notes.append(
        f"{stored[0]} packs of {padding // 1024} KiB stored ("
        + ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
        + f"); database grew {grown:.0f} MiB (library quota 512 MiB); "
        f"the author's saves served {visitors[0]} times, refused {visitors[1]} {why or ''}"
    )


async def attack_long_resume(
    target: Target, tally: Tally, sockets: int = 10, opens: int = 2000
) -> None:
    """Sockets of the owner of a stored 50,000-intent game, opening it again and again."""
    budget = [opens]
    headers = {"Cookie": f"miau_player={LONG_GAME_OWNER}"}

    async def one() -> None:
        async with connect(
            target.ws, additional_headers=headers, max_size=2**24, compression=None
        ) as ws:
            while time.monotonic() < target.deadline and budget[0] > 0:
                budget[0] -= 1
                await ws.send(json.dumps({"type": "open", "pack": LEVEL[0], "level": LEVEL[1]}))
                reply = json.loads(await ws.recv())
                tally.sent += 1
                if reply.get("type") != "opened":
                    tally.refused += 1

    await keep_up(tally, target, sockets, one)


def database_bytes(db_path: Path) -> int:
    """The database file and its write-ahead log, in bytes."""
    return sum(
        path.stat().st_size
        for path in (db_path, db_path.with_name(db_path.name + "-wal"))
        if path.exists()
    )


async def attack_restore_padding(
    target: Target, tally: Tally, sockets: int = 2, frames: int = 100_000
) -> None:
    """``restore`` frames of a real state plus an extra 60 KB field, as fast as replies come."""
    before = database_bytes(target.db_path)
    budget = [frames]
    # One player for the attack: the address may start only its share of new players, and
    # a socket the server closes is opened again at once.
    player = attacker_cookie()

    async def one() -> None:
        async with connect(
            target.ws, additional_headers=player, max_size=2**22, compression=None
        ) as ws:
            await ws.send(json.dumps({"type": "open", "pack": "tutorial", "level": "walls"}))
            opened = json.loads(await ws.recv())
            if "state" not in opened:
                tally.sent += 1
                tally.refused += 1
                tally.notes.append(f"open refused: {opened.get('code', opened.get('type'))}")
                await asyncio.sleep(0.5)
                return
            state = opened["state"]
            padded = {**state, "padding": "x" * 60_000}
            seq = 0
            while time.monotonic() < target.deadline and budget[0] > 0:
                budget[0] -= 1
                seq += 1
                message = {"type": "intent", "seq": seq, "intent": "restore", "state": padded}
                await ws.send(json.dumps(message))
                reply = json.loads(await ws.recv())
                tally.sent += 1
                if reply.get("type") == "error":
                    tally.refused += 1

    await keep_up(tally, target, sockets, one)
    grown = database_bytes(target.db_path) - before
    tally.notes.append(f"database grew {grown / 1024**2:.1f} MiB")


async def overflow_round(
    target: Target, tally: Tally, headers: dict[str, str], answers: list[str]
) -> None:
    """One connection: open, restore a huge ``moveCount``, step; each answer noted."""
    async with connect(target.ws, additional_headers=headers, compression=None) as ws:
        await ws.send(json.dumps({"type": "open", "pack": "tutorial", "level": "walls"}))
        opened = json.loads(await ws.recv())
        tally.sent += 1
        answers.append(opened.get("code") or opened.get("type"))
        state = opened.get("state") or {}
        huge = {**state, "moveCount": 2**63 - 1}
        for message in (
            {"type": "intent", "seq": 1, "intent": "restore", "state": huge},
            {"type": "intent", "seq": 2, "intent": "step", "direction": "up"},
        ):
            await ws.send(json.dumps(message))
            reply = json.loads(await ws.recv())
            tally.sent += 1
            answers.append(reply.get("code") or reply.get("type"))


async def attack_overflow_restore(target: Target, tally: Tally) -> None:
    """Round after round, a new player: a restore of a huge ``moveCount``, a step, a re-open.

    The second open of a round must answer ``opened`` (the level is not
    stuck); every ``server-error`` counts as refused.
    """
    answers: list[str] = []
    for _ in range(ROUNDS):
        if time.monotonic() >= target.deadline:
            break
        headers = attacker_cookie()
        try:
            for _ in range(2):
                await overflow_round(target, tally, headers, answers)
        except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError):
            # Past its address's allowance of new connections: closed at once (refused).
            tally.closed += 1
            await asyncio.sleep(0.05)
    tally.refused = answers.count("server-error") + tally.closed
    if tally.closed:
        tally.notes.append(f"{tally.closed} connections closed at accept")
    counted = ", ".join(f"{answers.count(each)} {each}" for each in sorted(set(answers)))
    tally.notes.append(f"answers: {counted}")


async def attack_surrogates(target: Target, tally: Tally) -> None:
    """A lone surrogate in every JSON endpoint's body; how many got a 5xx."""
    lone = '"\\ud800"'
    bodies = [
        ("POST", "/api/library", '{"text": ' + lone + "}"),
        ("PUT", "/api/library/mine/levels/walls", '{"pack": {"manifest": {"id": ' + lone + "}}}"),
        ("POST", "/api/shared/encode", '{"pack": {"manifest": {"name": ' + lone + "}}}"),
        ("POST", "/api/shared", '{"code": ' + lone + "}"),
        ("POST", "/api/library", '{"text": "{\\"manifest\\": {\\"name\\": \\"\\\\ud800\\"}}"}'),
    ]
    statuses = []
    async with httpx.AsyncClient(base_url=target.base, timeout=30) as client:
        for _ in range(ROUNDS):
            if time.monotonic() >= target.deadline:
                break
            for method, path, body in bodies:
                try:
                    reply = await client.request(
                        method,
                        path,
                        content=body.encode(),
                        headers={"content-type": "application/json"},
                    )
                except httpx.TransportError:
                    tally.closed += 1  # a new connection past the address's allowance
                    await asyncio.sleep(0.05)
                    continue
                tally.sent += 1
                statuses.append(reply.status_code)
    tally.refused = sum(status >= 500 for status in statuses)
    tally.notes.append(
        f"statuses {sorted(set(statuses))}; 5xx counted as refused; "
        f"{tally.closed} connections closed at accept"
    )


def _handshake(port: int, origin: str | None, host: str) -> bytes:
    """A raw WebSocket handshake on /ws; the start of what the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            "GET /ws HTTP/1.1",
            f"Host: {host}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        ]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        received = b""
        while b"\r\n\r\n" not in received or len(received.partition(b"\r\n\r\n")[2]) < 4:
            chunk = sock.recv(4096)
            if not chunk:
                break
            received += chunk
        return received


async def attack_cross_site(target: Target, tally: Tally) -> None:
    """Cross-site page loads keep the player; cross-origin sockets and rebound hosts are refused.

    Round after round until the deadline: a share-link page load from
    another site, a request for a rebound host name, and a WebSocket
    handshake from each wrong origin. Counted as refused (to the attacker,
    as it should be): a socket closed with 1008 or a 421; a wrong outcome (a
    new cookie, an accepted socket) is noted.
    """
    own = f"127.0.0.1:{target.port}"
    origins = ("https://" + own, "ws://" + own, "chrome-extension://" + own, "http://evil.example")
    wrong = 0
    async with httpx.AsyncClient(base_url=target.base, timeout=30) as client:
        for _ in range(ROUNDS):
            if time.monotonic() >= target.deadline:
                break
            try:
                page = await client.get(
                    "/", headers={"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"}
                )
                tally.sent += 1
                wrong += "set-cookie" in page.headers
                rebound = await client.get(
                    "/api/progress", headers={"host": f"rebound.example:{target.port}"}
                )
            except httpx.TransportError:
                tally.closed += 1  # a new connection past the address's allowance
                await asyncio.sleep(0.05)
                continue
            tally.sent += 1
            tally.refused += rebound.status_code == 421
            wrong += rebound.status_code != 421
            for origin in origins:
                try:
                    answer = await asyncio.to_thread(_handshake, target.port, origin, own)
                except OSError:
                    answer = b""
                tally.sent += 1
                if not answer:
                    tally.closed += 1  # closed at accept: refused before its request was read
                    tally.refused += 1
                    continue
                head, _, frames = answer.partition(b"\r\n\r\n")
                closed_1008 = head.startswith(b"HTTP/1.1 101") and frames[2:4] == b"\x03\xf0"
                tally.refused += closed_1008
                wrong += not closed_1008
    tally.notes.append(
        f"{wrong} wrong outcomes (a new cookie, an accepted socket or host); "
        f"{tally.closed} connections closed at accept"
    )


def played_database(path: Path) -> None:
    """A database at ``path`` holding 40 players, each with a 50-move game in progress."""
    store = SqliteStore(path)
    for index in range(40):
        player = f"damaged-db-player-{index:04d}"
        store.ensure_player(player)
        store.start_game(player, "tutorial", "first-steps", tuple(LogEntry("R") for _ in range(50)))
    store.close()


async def attack_damaged_db(target: Target, tally: Tally) -> None:
    """``miau play`` on a truncated copy of a database: its exit status and what it printed."""
    copy = target.scratch / "damaged.db"
    played_database(copy)
    data = copy.read_bytes()
    copy.write_bytes(data[: len(data) // 2])
    await start_on_damaged(copy, tally)


async def attack_schema_damage(target: Target, tally: Tally) -> None:
    """``miau play`` on a database whose keys were broken by hand (it must refuse in one line).

    The unique index on unfinished games is dropped and ``intents`` is
    rebuilt without its primary key, holding a move three times over.
    """
    copy = target.scratch / "schema-damage.db"
    played_database(copy)
    with contextlib.closing(sqlite3.connect(copy)) as db, db:
        db.execute("DROP INDEX games_unfinished")
        db.execute("CREATE TABLE intents_copy AS SELECT * FROM intents")
        db.execute("DROP TABLE intents")
        db.execute("ALTER TABLE intents_copy RENAME TO intents")
        db.execute("INSERT INTO intents SELECT * FROM intents WHERE seq = 0 LIMIT 1")
        db.execute("INSERT INTO intents SELECT * FROM intents WHERE seq = 0 LIMIT 1")
    await start_on_damaged(copy, tally)


async def start_on_damaged(copy: Path, tally: Tally) -> None:
    """Start ``miau play`` on ``copy``: refused means exit status 2 and one line printed."""
    command = [
        sys.executable,
        "-m",
        "miau",
        "play",
        "--no-browser",
        "--port",
        "0",
        "--db",
        str(copy),
    ]
    result = await asyncio.to_thread(
        subprocess.run, command, capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    lines = result.stderr.strip().splitlines()
    tally.sent = 1
    tally.refused = int(result.returncode != 2 or len(lines) != 1)
    tally.notes.append(
        f"exit {result.returncode}, {len(lines)} line(s): {lines[0][:90] if lines else ''}"
    )


def word_flood(words: int, side: int = 64) -> dict[str, Any]:
    """A vocabulary-1 level: TEXT IS MOVE, MIAU IS YOU, a cat and ``words`` MIAU words."""
    rows = [["."] * side for _ in range(side)]
    rows[0][0:3] = ["T", "=", "V"]
    rows[1][0:3] = ["M", "=", "Y"]
    rows[1][4] = "c"
    cells = [(x, y) for y in range(3, side) for x in range(side)]
    for x, y in cells[:words]:
        rows[y][x] = "w"
    legend = {
        "T": {"word": "TEXT"},
        "=": {"word": "IS"},
        "V": {"word": "MOVE"},
        "M": {"word": "MIAU"},
        "Y": {"word": "YOU"},
        "c": "MIAU",
        "w": {"word": "MIAU"},
    }
    return {
        "manifest": {
            "id": "flood",
            "name": "Flood",
            "version": "1.0.0",
            "engine": 1,
            "features": ["vocabulary-1"],
        },
        "levels": [
            {
                "id": "flood",
                "title": "Flood",
                "width": side,
                "height": side,
                "map": ["".join(row) for row in rows],
                "legend": legend,
            }
        ],
    }


async def attack_heavy_share(target: Target, tally: Tally, sockets: int = 4) -> None:
    """Open the over-bound share link (refused), then the one at the bound: wait, resume, repeat."""
    over = encode_share_code(word_flood(3993))
    at_bound = encode_share_code(word_flood(1017))
    counts = {"opened": 0, "waits": 0, "largest": 0, "refused-open": 0}

    async def one() -> None:
        headers = attacker_cookie()
        while time.monotonic() < target.deadline:
            async with connect(
                target.ws, max_size=2**24, compression=None, additional_headers=headers
            ) as ws:
                await ws.send(json.dumps({"type": "open", "share": over}))
                tally.sent += 1
                if json.loads(await ws.recv()).get("type") != "opened":
                    tally.refused += 1
                await ws.send(json.dumps({"type": "open", "share": at_bound}))
                tally.sent += 1
                if json.loads(await ws.recv()).get("type") != "opened":
                    counts["refused-open"] += 1
                    tally.refused += 1
                    continue
                counts["opened"] += 1
                for seq in range(1, 4):
                    await ws.send(json.dumps({"type": "intent", "seq": seq, "intent": "wait"}))
                    text = await ws.recv()
                    tally.sent += 1
                    counts["waits"] += 1
                    counts["largest"] = max(counts["largest"], len(text))
                    if json.loads(text).get("type") != "result":
                        tally.refused += 1

    await keep_up(tally, target, sockets, one)
    tally.notes.append(
        f"links of {len(over)} and {len(at_bound)} characters; {counts['opened']} opens "
        f"(resumes) at the bound, {counts['refused-open']} refused; {counts['waits']} waits "
        f"answered (granted or refused); largest reply {counts['largest'] / 1024:.0f} KiB"
    )


async def keep_visiting(
    target: Target, visitors: list[int], address: str, why: dict[str, int] | None = None
) -> None:
    """A new visitor from an address of its own: the page, then a level opened, every 0.5 s.

    Each visit is a new browser: it takes the cookie the page sets to its
    socket, as a browser does. ``visitors`` counts ``[served, refused]``:
    served when the page was 200 and the level opened; ``why`` counts the
    refusals by what went wrong. Give each attack its own address: an
    address may start only its share of new players an hour.
    """
    while time.monotonic() < target.deadline:
        problem = ""
        try:
            async with httpx.AsyncClient(
                base_url=target.base,
                timeout=5,
                transport=httpx.AsyncHTTPTransport(local_address=address),
            ) as client:
                page = await client.get("/")
                cookie = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
            if page.status_code != 200:
                problem = f"page {page.status_code}"
            async with connect(
                target.ws,
                local_addr=(address, 0),
                open_timeout=5,
                additional_headers={"Cookie": cookie} if cookie else None,
            ) as ws:
                await ws.send(
                    json.dumps({"type": "open", "pack": "tutorial", "level": "first-steps"})
                )
                reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if reply["type"] != "opened":
                    problem = problem or f"open {reply.get('code', reply['type'])}"
        except (
            OSError,
            TimeoutError,
            httpx.TransportError,
            websockets.WebSocketException,
        ) as error:
            problem = type(error).__name__
        visitors[1 if problem else 0] += 1
        if problem and why is not None:
            why[problem] = why.get(problem, 0) + 1
        await asyncio.sleep(0.5)


async def attack_idle_websockets(
    target: Target, tally: Tally, addresses: int = 8, per_address: int = 64
) -> None:
    """Fill the server with idle sockets from 8 addresses; a new visitor keeps trying to come in."""
    held: list[Any] = []
    visitors = [0, 0]  # served, refused

    async def hold(address: str) -> None:
        for _ in range(per_address):
            try:
                ws = await connect(
                    target.ws, local_addr=(address, 0), open_timeout=10, compression=None
                )
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                tally.refused += 1
                continue
            held.append(ws)
            tally.sent += 1

    try:
        holding = asyncio.gather(*(hold(f"127.0.0.{10 + index}") for index in range(addresses)))
        await asyncio.gather(holding, keep_visiting(target, visitors, "127.0.0.99"))
        alive = sum(ws.state is websockets.protocol.State.OPEN for ws in held)
        tally.notes.append(
            f"{len(held)} idle sockets opened, {alive} still open at the end; new visitor "
            f"served {visitors[0]} times, refused {visitors[1]}"
        )
        tally.refused += len(held) - alive
    finally:
        await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


async def attack_header_flood(target: Target, tally: Tally, clients: int = 8) -> None:
    """Requests of 10,000 header lines, each on a fresh connection, flat out."""
    request = (
        f"GET /api/worlds HTTP/1.1\r\nHost: 127.0.0.1:{target.port}\r\n".encode()
        + b"".join(b"x-%d: 1\r\n" % index for index in range(10_000))
        + b"\r\n"
    )
    statuses: dict[str, int] = {}

    def one_request(address: str) -> str:
        with socket.create_connection(
            ("127.0.0.1", target.port), timeout=10, source_address=(address, 0)
        ) as sock:
            with contextlib.suppress(OSError):  # the server may answer and close mid-send
                sock.sendall(request)
            answer = sock.recv(64)
        return answer.split(b" ", 2)[1].decode() if answer.count(b" ") >= 2 else "closed"

    async def worker(address: str) -> None:
        while time.monotonic() < target.deadline:
            try:
                status = await asyncio.to_thread(one_request, address)
            except OSError:
                status = "closed"
            tally.sent += 1
            statuses[status] = statuses.get(status, 0) + 1
            tally.refused += status != "200"

    await asyncio.gather(*(worker(f"127.0.0.{30 + index}") for index in range(clients)))
    tally.notes.append(", ".join(f"{count} {status}" for status, count in sorted(statuses.items())))


async def attack_request_flood(
    target: Target, tally: Tally, addresses: int = 8, per_address: int = 4
) -> None:
    """Cheap requests on kept-alive connections from 8 addresses, flat out; a new visitor comes in.

    A kept-alive connection sends request after request, so the
    per-address allowance of new connections does not bound it; the
    server-wide request budget does.
    """
    statuses: dict[str, int] = {}
    visitors = [0, 0]  # served, refused
    why: dict[str, int] = {}

    async def flood(address: str) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(
            base_url=target.base, timeout=10, transport=transport
        ) as client:
            while time.monotonic() < target.deadline:
                try:
                    status = str((await client.get("/api/worlds")).status_code)
                except httpx.TransportError:
                    status = "closed"
                    tally.closed += 1
                tally.sent += 1
                statuses[status] = statuses.get(status, 0) + 1
                tally.refused += status != "200"

    await asyncio.gather(
        *(flood(f"127.0.0.{40 + index}") for index in range(addresses) for _ in range(per_address)),
        keep_visiting(target, visitors, "127.0.0.97", why),
    )
    tally.notes.append(
        ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
        + f"; new visitor served {visitors[0]} times, refused {visitors[1]} {why or ''}"
    )


async def attack_csrf(target: Target, tally: Tally) -> None:
    """Writes from a page on another port: every one refused, the victim's pack untouched."""
    victim = attacker_cookie()
    other_port = f"http://127.0.0.1:{target.port + 1}"
    pack = (ROOT / "packs" / "tutorial.json").read_text(encoding="utf-8")
    mine = json.loads(pack)
    mine["manifest"]["id"] = "victims-pack"
    body = json.dumps({"text": json.dumps(mine)})
    wrong = 0
    async with httpx.AsyncClient(base_url=target.base, timeout=30, headers=victim) as client:
        stored = await client.post(
            "/api/library", content=body, headers={"content-type": "application/json"}
        )
        assert stored.status_code in (200, 201), stored.text
        for _ in range(ROUNDS):
            if time.monotonic() >= target.deadline:
                break
            attempts = [
                client.post(
                    "/api/library",
                    content=body,
                    headers={
                        "content-type": "text/plain",
                        "origin": other_port,
                        "sec-fetch-site": "same-site",
                    },
                ),
                client.post("/api/library", content=body, headers={"content-type": "text/plain"}),
                client.delete(
                    "/api/library/victims-pack",
                    headers={"origin": other_port, "sec-fetch-site": "same-site"},
                ),
            ]
            for answer in await asyncio.gather(*attempts, return_exceptions=True):
                tally.sent += 1
                if isinstance(answer, BaseException):
                    tally.closed += 1
                    continue
                tally.refused += answer.status_code in (403, 415)
                wrong += answer.status_code < 400
        listed = (await client.get("/api/library")).json()["packs"]
    kept = [each["id"] for each in listed] == ["victims-pack"]
    tally.notes.append(f"{wrong} writes taken; the victim's pack {'kept' if kept else 'LOST'}")


def studio_room(rocks: int) -> dict[str, Any]:
    """A tutorial-style level: a cat in a room of ``rocks`` pushable rocks, its flag walled off."""
    side = 12
    rows = [["#"] * side] + [["#"] + ["."] * (side - 2) + ["#"] for _ in range(side - 2)]
    rows.append(["#"] * side)
    rows[1][1:4] = ["M", "=", "Y"]
    rows[2][1:4] = ["R", "=", "P"]
    rows[3][1:4] = ["F", "=", "W"]
    rows[4][1:4] = ["L", "=", "S"]
    rows[6][2] = "c"
    spots = [(x, y) for y in range(7, side - 1) for x in range(1, side - 1)]
    for x, y in spots[:rocks]:
        rows[y][x] = "r"
    pack: dict[str, Any] = json.loads((ROOT / "packs" / "tutorial.json").read_text("utf-8"))
    pack["levels"] = [
        {
            "id": "room",
            "title": "Room",
            "width": side,
            "height": side,
            "map": ["".join(row) for row in rows],
            "legend": {
                "M": {"word": "MIAU"},
                "=": {"word": "IS"},
                "Y": {"word": "YOU"},
                "R": {"word": "ROCK"},
                "P": {"word": "PUSH"},
                "F": {"word": "FLAG"},
                "W": {"word": "WIN"},
                "L": {"word": "WALL"},
                "S": {"word": "STOP"},
                "c": "MIAU",
                "r": "ROCK",
                "#": "WALL",
            },
        }
    ]
    return pack


async def attack_studio_monopoly(target: Target, tally: Tally, sockets: int = 3) -> None:
    """Three sockets of one address keep long solves going; an author times a tiny one."""
    url = f"ws://127.0.0.1:{target.port}/studio"
    long_job = json.dumps({"type": "solve", "job": "long", "pack": studio_room(24)})
    tiny = one_tutorial_level("first-steps")
    waits: list[float] = []

    async def hog() -> None:
        async with connect(url, local_addr=("127.0.0.50", 0), max_size=2**24) as ws:
            while time.monotonic() < target.deadline:
                await ws.send(long_job)
                tally.sent += 1
                while time.monotonic() < target.deadline:
                    try:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                    except TimeoutError:
                        continue
                    if reply.get("type") == "error":
                        tally.refused += 1
                        await asyncio.sleep(0.5)
                        break
                    if reply.get("type") in ("solved", "unsolvable", "limit", "failed"):
                        break

    async def author() -> None:
        await asyncio.sleep(1.0)  # the hogs' jobs start first
        async with connect(url, local_addr=("127.0.0.51", 0), max_size=2**24) as ws:
            while time.monotonic() < target.deadline:
                began = time.monotonic()
                await ws.send(json.dumps({"type": "solve", "job": "tiny", "pack": tiny}))
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 180))
                    if reply.get("type") in ("solved", "unsolvable", "limit", "failed", "error"):
                        break
                waits.append(time.monotonic() - began)
                await asyncio.sleep(2.0)

    await asyncio.gather(keep_up(tally, target, sockets, hog), author())
    shown = ", ".join(f"{each:.1f}" for each in waits)
    tally.notes.append(f"the author's tiny solves answered in {shown} s")


def one_tutorial_level(level_id: str) -> dict[str, Any]:
    """The tutorial pack with one level."""
    pack: dict[str, Any] = json.loads((ROOT / "packs" / "tutorial.json").read_text("utf-8"))
    pack["levels"] = [each for each in pack["levels"] if each["id"] == level_id]
    return pack


async def attack_reconnect_storm(target: Target, tally: Tally, addresses: int = 32) -> None:
    """32 addresses opening a play socket, opening a level and closing, again and again."""

    async def one(address: str) -> None:
        while time.monotonic() < target.deadline:
            try:
                async with connect(
                    target.ws, local_addr=(address, 0), open_timeout=5, compression=None
                ) as ws:
                    await ws.send(json.dumps(OPEN_ROCKS))
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    tally.sent += 1
                    tally.refused += reply.get("type") != "opened"
            except (OSError, TimeoutError, websockets.WebSocketException):
                tally.refused += 1
                tally.closed += 1
                await asyncio.sleep(0.01)

    await asyncio.gather(*(one(f"127.0.1.{index + 1}") for index in range(addresses)))
    tally.notes.append(f"{tally.closed} connections refused or dropped")


async def attack_concurrent_pages(target: Target, tally: Tally, pages: int = 4) -> None:
    """Four pages of one player stepping on one level at once; ``server-error`` counted."""
    headers = attacker_cookie()
    codes: dict[str, int] = {}

    async def page() -> None:
        async with connect(target.ws, additional_headers=headers, compression=None) as ws:
            await ws.send(json.dumps(OPEN_ROCKS))
            await ws.recv()
            seq = 0
            while time.monotonic() < target.deadline:
                seq += 1
                direction = "right" if seq % 2 else "left"
                await ws.send(
                    json.dumps(
                        {"type": "intent", "seq": seq, "intent": "step", "direction": direction}
                    )
                )
                reply = json.loads(await ws.recv())
                tally.sent += 1
                kind = reply.get("code", reply.get("type", "?"))
                codes[kind] = codes.get(kind, 0) + 1
                if reply.get("type") != "result":
                    tally.refused += 1
                    if reply.get("code") != "server-error":
                        await ws.send(json.dumps(OPEN_ROCKS))
                        await ws.recv()
                # 25 steps a second a page: within each socket's rate limit, so the pages
                # meet each other, not the limit (on a quiet machine replies come at once).
                await asyncio.sleep(0.04)

    await asyncio.gather(*(page() for _ in range(pages)))
    tally.notes.append(", ".join(f"{count} {kind}" for kind, count in sorted(codes.items())))


def bad_things_pack(things: int) -> dict[str, Any]:
    """A one-level pack of an 8 x 8 level holding ``things`` cats off the board (two problems each)."""
    thing = {"kind": "object", "noun": "MIAU", "x": 99, "y": 99}
    return {
        "manifest": {"id": "hostile", "name": "Hostile", "version": "1.0.0", "engine": 1},
        "levels": [{"id": "l", "title": "L", "width": 8, "height": 8, "objects": [thing] * things}],
    }


def bad_values_pack(automata: int) -> dict[str, Any]:
    """A one-level pack of an empty level with ``automata`` broken automata (three problems each)."""
    pack = bad_things_pack(0)
    pack["levels"][0]["automata"] = [{"id": 5}] * automata
    return pack


@dataclass(slots=True)
class Honest:
    """An honest client's requests during an attack: answered in time or not, and how long each took."""

    latencies: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)

    def note(self, what: str) -> str:
        """One line: how many were served, the median and slowest, and why the rest were not."""
        served = sorted(self.latencies)
        times = (
            f" (median {percentile(served, 0.5) * 1000:.0f} ms, slowest {served[-1] * 1000:.0f} ms)"
            if served
            else ""
        )
        refused = sum(self.refused.values())
        return f"{what} served {len(served)} times{times}, refused {refused} {self.refused or ''}"


async def keep_asking(
    target: Target,
    honest: Honest,
    address: str,
    ask: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
    patience: float = PLAYER_PATIENCE,
) -> None:
    """An honest client from ``address``: one request every half second, timed."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(
        base_url=target.base, timeout=patience, transport=transport
    ) as client:
        while time.monotonic() < target.deadline:
            started = time.monotonic()
            try:
                reply = await ask(client)
                problem = "" if reply.status_code < 400 else str(reply.status_code)
            except httpx.TransportError as error:
                problem = type(error).__name__
            if problem:
                honest.refused[problem] = honest.refused.get(problem, 0) + 1
            else:
                honest.latencies.append(time.monotonic() - started)
            await asyncio.sleep(0.5)


async def flood_http(
    target: Target,
    tally: Tally,
    address: str,
    in_flight: int,
    send: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
    statuses: dict[str, int],
    largest: list[int],
) -> None:
    """``in_flight`` requests from ``address`` at a time, each sent again once answered."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=target.base, timeout=60, transport=transport) as client:

        async def worker() -> None:
            while time.monotonic() < target.deadline:
                try:
                    reply = await send(client)
                    status = str(reply.status_code)
                    largest[0] = max(largest[0], len(reply.content))
                except httpx.TransportError as error:
                    status = type(error).__name__
                tally.sent += 1
                tally.refused += status != "200"
                statuses[status] = statuses.get(status, 0) + 1

        await asyncio.gather(*(worker() for _ in range(in_flight)))


async def attack_shared_decode(
    target: Target, tally: Tally, addresses: int = 4, in_flight: int = 4
) -> None:
    """Hostile share codes from 4 addresses, 4 requests in flight each; an honest link opens.

    Issue 50: a 943-character code of 4,096 bad things took the loader half
    a second and got a 940 KB reply; 2 addresses with 4 in flight each took
    the player's p99 from 103 to 1,104 ms. The codes: that one (past the
    bound: refused unloaded), 1,024 bad things (at the bound: loaded, 2,048
    problems) and 10,000 broken automata (no entity, 30,000 problems).
    Meanwhile an honest page opens the tutorial's first level as a link,
    and a new visitor loads the page, every half second.
    """
    codes = [
        encode_share_code(bad_things_pack(4096)),
        encode_share_code(bad_things_pack(1024)),
        encode_share_code(bad_values_pack(10_000)),
    ]
    honest_code = encode_share_code(one_tutorial_level("first-steps"))
    statuses: dict[str, int] = {}
    largest = [0]
    turn = [0]
    honest = Honest()
    visitors = [0, 0]
    why: dict[str, int] = {}

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        turn[0] += 1
        code = codes[turn[0] % len(codes)]
        return await client.post("/api/shared", json={"code": code}, headers=attacker_cookie())

    async def ask(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/api/shared", json={"code": honest_code})

    await asyncio.gather(
        *(
            flood_http(target, tally, f"127.0.2.{index + 1}", in_flight, send, statuses, largest)
            for index in range(addresses)
        ),
        keep_asking(target, honest, "127.0.2.100", ask),
        keep_visiting(target, visitors, "127.0.2.101", why),
    )
    tally.notes.append(
        f"codes of {', '.join(str(len(code)) for code in codes)} characters; "
        + ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
        + f"; largest reply {largest[0] / 1024:.1f} KiB; "
        + honest.note("the honest link")
        + f"; new visitor served {visitors[0]} times, refused {visitors[1]} {why or ''}"
    )


def sixty_four_big_levels(pack_id: str) -> dict[str, Any]:
    """The body of issue 50's encode and save floods: 64 levels of 64 x 64 (278 KiB)."""
    pack: dict[str, Any] = json.loads(big_pack_text(pack_id))
    return pack


async def attack_encode_flood(target: Target, tally: Tally, in_flight: int = 16) -> None:
    """16 ``POST /api/shared/encode`` of 64 levels of 64 x 64 in flight; an honest author shares.

    Issue 50: the loader took 4.4 s on each before its levels were counted;
    16 in flight took the player's p99 from 370 to 3,226 ms and the server
    to 902 MiB.
    """
    body = {"pack": sixty_four_big_levels("encode-flood")}
    small = {"pack": one_tutorial_level("first-steps")}

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/api/shared/encode", json=body, headers=attacker_cookie())

    async def ask(client: httpx.AsyncClient) -> httpx.Response:
        return await client.post("/api/shared/encode", json=small)

    await flood_beside_honest(target, tally, "127.0.3", in_flight, body, send, ask, "share")


async def attack_put_level_flood(target: Target, tally: Tally, in_flight: int = 16) -> None:
    """16 ``PUT /api/library/{pack}/levels/{level}`` of 64 big levels in flight; an author saves.

    Issue 50: the level was loaded before its levels were counted, and the
    body was read without waiting for the upload budget (64 to 681 ms).
    """
    body = {"pack": sixty_four_big_levels("put-flood")}
    small = {"pack": one_tutorial_level("first-steps")}
    author = attacker_cookie()

    async def send(client: httpx.AsyncClient) -> httpx.Response:
        return await client.put(
            "/api/library/put-flood/levels/level-0", json=body, headers=attacker_cookie()
        )

    async def ask(client: httpx.AsyncClient) -> httpx.Response:
        return await client.put(
            "/api/library/authors-levels/levels/first-steps", json=small, headers=author
        )

    await flood_beside_honest(target, tally, "127.0.4", in_flight, body, send, ask, "save")


async def flood_beside_honest(
    target: Target,
    tally: Tally,
    network: str,
    in_flight: int,
    body: dict[str, Any],
    send: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
    ask: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]],
    what: str,
) -> None:
    """Send ``body`` flat out while an honest author keeps asking; what each got, noted.

    The attacker is ``network``.1, the author ``network``.100; the note gives the
    body's size, the statuses and the author's times (their ``what``).
    """
    statuses: dict[str, int] = {}
    largest = [0]
    honest = Honest()
    await asyncio.gather(
        flood_http(target, tally, f"{network}.1", in_flight, send, statuses, largest),
        keep_asking(target, honest, f"{network}.100", ask),
    )
    tally.notes.append(
        f"bodies of {len(json.dumps(body)) / 1024:.0f} KiB; "
        + ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
        + "; "
        + honest.note(f"the honest author's {what}")
    )


START_UP_ONLY = frozenset({"damaged-db", "schema-damage"})
"""Attacks on ``miau play``'s start, not on a running server: run once, never judged by the
player's line (the player's replies meanwhile only show that the running server is unmoved)."""

ATTACKS: dict[str, Callable[[Target, Tally], Awaitable[None]]] = {
    "idle": attack_idle,
    "garbage": attack_garbage,
    "idle-sockets": attack_idle_sockets,
    "slow-readers": attack_slow_readers,
    "studio-flood": attack_studio_flood,
    "heavy-drafts": attack_heavy_drafts,
    "library-packs": attack_library_packs,
    "quota-fill": attack_quota_fill,
    "long-resume": attack_long_resume,
    "restore-padding": attack_restore_padding,
    "overflow-restore": attack_overflow_restore,
    "surrogates": attack_surrogates,
    "cross-site": attack_cross_site,
    "heavy-share": attack_heavy_share,
    "idle-websockets": attack_idle_websockets,
    "header-flood": attack_header_flood,
    "request-flood": attack_request_flood,
    "csrf": attack_csrf,
    "studio-monopoly": attack_studio_monopoly,
    "reconnect-storm": attack_reconnect_storm,
    "concurrent-pages": attack_concurrent_pages,
    "shared-decode": attack_shared_decode,
    "encode-flood": attack_encode_flood,
    "put-level-flood": attack_put_level_flood,
    "damaged-db": attack_damaged_db,
    "schema-damage": attack_schema_damage,
}


# --- running them -----------------------------------------------------------------------------


def store_long_game(db_path: Path) -> None:
    """A stored game of ``LONG_GAME`` accepted steps for ``LONG_GAME_OWNER`` on first-steps."""
    level = Worlds.load(None).level(*LEVEL)
    assert level is not None
    game = Game(dict(level.data))
    letters = []
    for index in range(LONG_GAME):
        direction = "right" if index % 2 == 0 else "left"
        assert game.step(direction).accepted
        letters.append(LogEntry("R" if direction == "right" else "L"))
    store = SqliteStore(db_path)
    store.ensure_player(LONG_GAME_OWNER)
    store.start_game(LONG_GAME_OWNER, *LEVEL, tuple(letters))
    store.close()


async def run_attacks(target: Target, names: Sequence[str], log: Path) -> list[Outcome]:
    """Each attack in turn, with the server's memory sampled throughout."""
    outcomes = []
    pid = target.play.process.pid
    for name in names:
        tally = Tally()
        peak = [rss_mib(pid), 0.0]
        logged_before = log.read_text(errors="replace").count("Traceback")

        async def sample(peak: list[float] = peak) -> None:
            while True:
                peak[0] = max(peak[0], rss_mib(pid))
                peak[1] = max(peak[1], sum(rss_mib(each) for each in helper_pids(pid)))
                await asyncio.sleep(0.1)

        sampler = asyncio.create_task(sample())
        start = time.monotonic()
        target.deadline = start + target.seconds
        try:
            await asyncio.wait_for(ATTACKS[name](target, tally), target.seconds + 60)
        except Exception as error:  # one attack failing is noted; the run goes on
            tally.notes.append(f"the attack ended early: {type(error).__name__}: {error}")
        end = time.monotonic()
        sampler.cancel()
        tracebacks = log.read_text(errors="replace").count("Traceback") - logged_before
        outcomes.append(Outcome(name, start, end, tally, peak[0], peak[1], tracebacks))
        print(f"  {name}: done in {end - start:.1f} s", file=sys.stderr, flush=True)
        await asyncio.sleep(1.0)  # let the server settle between two attacks
    return outcomes


LOADED_FACTOR = 3.0
"""On a loaded machine the line is the same run's idle baseline times this (issue 39)."""


def verdict(
    outcome: Outcome,
    window: Sequence[tuple[float, float, bool, str]],
    min_replies: int,
    baseline_p99: float | None = None,
) -> str:
    """Whether the player's line held under one attack, or why it cannot be judged.

    The line: p99 under 50 ms, no reply refused to the player, the server's
    RSS under :data:`MEMORY_BOUND_MIB`. A p99 of fewer than ``min_replies``
    replies proves nothing either way; a start-up attack is not judged. When
    the same run's ``idle`` baseline was itself over 50 ms (the machine was
    loaded), a p99 within :data:`LOADED_FACTOR` times it holds "against the
    baseline", said so.
    """
    latencies = [each[1] * 1000 for each in window if each[2]]
    refused = sum(not each[2] for each in window)
    if outcome.name in START_UP_ONLY:
        return "start-up only: not judged"
    if refused or outcome.peak_rss >= MEMORY_BOUND_MIB:
        return "OVER the line"
    if len(window) < min_replies:
        return f"too few replies to judge (< {min_replies})"
    p99 = percentile(latencies, 0.99)
    if p99 < 50:
        return "held"
    if baseline_p99 is not None and baseline_p99 >= 50 and p99 <= LOADED_FACTOR * baseline_p99:
        return f"held against the baseline (<= {LOADED_FACTOR:g} x {baseline_p99:.0f} ms)"
    return "OVER the line"


def report(
    outcomes: Sequence[Outcome],
    samples: Sequence[tuple[float, float, bool, str]],
    min_replies: int,
) -> bool:
    """Print the table; whether every attack was judged and kept the player's line."""
    print(
        f"{'attack':<17} {'n':>5} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>7} "
        f"{'player refused':>14} {'attack sent':>11} {'refused':>8} {'RSS MiB':>8} "
        f"{'helpers':>8} {'tracebacks':>10} {'seconds':>7}  verdict"
    )
    held = True
    baseline_p99 = None
    for outcome in outcomes:
        if outcome.name == "idle":
            window = [each for each in samples if outcome.start <= each[0] < outcome.end]
            baseline_p99 = percentile([each[1] * 1000 for each in window if each[2]], 0.99)
            break
    for outcome in outcomes:
        window = [each for each in samples if outcome.start <= each[0] < outcome.end]
        latencies = [each[1] * 1000 for each in window if each[2]]
        failed = sum(not each[2] for each in window)
        judged = verdict(outcome, window, min_replies, baseline_p99)
        held = held and (judged.startswith("held") or judged == "start-up only: not judged")
        print(
            f"{outcome.name:<17} {len(window):>5} {percentile(latencies, 0.50):>6.1f} "
            f"{percentile(latencies, 0.95):>6.1f} {percentile(latencies, 0.99):>6.1f} "
            f"{max(latencies, default=float('nan')):>7.1f} {failed:>14} {outcome.tally.sent:>11} "
            f"{outcome.tally.refused:>8} {outcome.peak_rss:>8.0f} "
            f"{outcome.peak_helpers_rss:>8.0f} {outcome.tracebacks:>10} "
            f"{outcome.end - outcome.start:>7.1f}  {judged}"
        )
    print()
    for outcome in outcomes:
        window = [each for each in samples if outcome.start <= each[0] < outcome.end]
        refusals = Counter(each[3] for each in window if not each[2])
        if refusals:
            outcome.tally.notes.append(
                "the player was refused: "
                + ", ".join(f"{count} {why}" for why, count in refusals.most_common())
            )
        if outcome.tally.notes:
            print(f"{outcome.name}: {'; '.join(outcome.tally.notes)}")
    print(
        f"\nThe line: p99 < 50 ms over at least {min_replies} player replies, no reply refused "
        f"to the player, server RSS < {MEMORY_BOUND_MIB} MiB (on a loaded machine: p99 within "
        f"{LOADED_FACTOR:g} x the idle baseline's): "
        f"{'held under every attack' if held else 'NOT held (or not judged) everywhere'}."
    )
    return held


def main(argv: Sequence[str] | None = None) -> int:
    """Run the attacks; exit 0 when the player's line held under all of them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--min-seconds",
        "--seconds",
        dest="min_seconds",
        type=float,
        default=10.0,
        help="how long each attack keeps up its pressure, at least (default 10)",
    )
    parser.add_argument(
        "--min-replies",
        type=int,
        default=100,
        help="the fewest player replies an attack's p99 is judged on (default 100)",
    )
    parser.add_argument(
        "--only", default="", help=f"comma-separated attacks (default all: {', '.join(ATTACKS)})"
    )
    parser.add_argument(
        "--play-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="an option for the server's `miau play` (repeat it; e.g. --play-option=--requests-per-second=0)",
    )
    args = parser.parse_args(argv)
    names = [name for name in args.only.split(",") if name] or list(ATTACKS)
    unknown = [name for name in names if name not in ATTACKS]
    if unknown:
        parser.error(f"unknown attacks: {', '.join(unknown)}")
    scratch = Path(tempfile.mkdtemp(prefix="miau-adversary-"))
    began = time.monotonic()
    load_before = os.getloadavg()[0]
    try:
        db_path = scratch / "miau.db"
        if "long-resume" in names:
            store_long_game(db_path)
        log = scratch / "server.log"
        with log.open("w") as errors:
            play = start_miau_play(db_path, errors, options=tuple(args.play_option))
            try:
                target = Target(play, db_path, scratch, args.min_seconds)
                context = multiprocessing.get_context("spawn")
                stop_reader, stop_writer = context.Pipe(duplex=False)
                results_reader, results_writer = context.Pipe(duplex=False)
                player = context.Process(
                    target=player_process, args=(play.port, stop_reader, results_writer)
                )
                player.start()
                time.sleep(1.0)  # the player is connected and playing before any attack
                print(
                    f"miau play on 127.0.0.1:{play.port}; player every "
                    f"{PLAYER_INTERVAL * 1000:.0f} ms; attacks of at least {args.min_seconds:g} s",
                    file=sys.stderr,
                )
                outcomes = asyncio.run(run_attacks(target, names, log))
                stop_writer.send(True)
                samples = results_reader.recv()
                player.join(timeout=30)
            finally:
                play.stop()
        held = report(outcomes, samples, args.min_replies)
        print(
            f"cores: {os.cpu_count()}; load average (1 min) {load_before:.2f} at the start, "
            f"{os.getloadavg()[0]:.2f} at the end; whole run {time.monotonic() - began:.0f} s"
        )
        return 0 if held else 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
