"""The ``/studio`` WebSocket: the editor's solve, check, depth and suggest jobs, in worker processes.

A job is one level (a one-level pack, as every working document is): the
server loads it with the pack loader first, so a broken pack is answered at
once with its located problems and no worker is started. A good one becomes
a :class:`~miau.solver.LevelSpec` (plain data) handed to a spawned worker
process (``miau.server.studio_worker``), which runs ``miau.solver.solve``,
``miau.solver.check_level``, ``miau.solver.depth.depth_profile`` or
``miau.generate.variations.suggest_variations`` and reports through a pipe:
``started``, then ``progress`` at most every 0.2 s, then its answer. The event loop never
blocks on the pipe: it waits for it to become readable.

Limits, server-wide and per connection:

- one job per connection at a time (another is ``busy``), and one per
  player and per address, whatever their number of pages: three sockets
  of one client held the only worker of a 2-core machine while an
  author's tiny solve waited 41 s; and a job that has run
  ``shared_slice`` (15 s) while another waits for a worker gives it up;
- at most :data:`STUDIO_WORKERS` workers in the whole server (a semaphore;
  more jobs wait, not yet ``started``);
- each job is killed after :data:`STUDIO_JOB_SECONDS` (``error`` ``failed``),
  and its worker's address space is capped at :data:`STUDIO_JOB_MEMORY_BYTES`
  (a search that outgrows it is answered ``failed``);
- a cancel, a closed socket or the server's shutdown kills the worker
  (terminate, then kill after a grace period) and frees its slot before
  anything else is said;
- frames past a token bucket (:data:`STUDIO_FRAMES_PER_SECOND`, bursts of
  :data:`STUDIO_BURST`) are answered ``rate-limited`` and dropped;
- the loader reads each job's pack in one loader process shared by the
  server (:class:`PackLoaderProcess`), never in the server's own, so a big
  or broken pack takes no time from the event loop or its interpreter lock;
- a check's report lists at most :data:`REPORT_PROBLEMS` problems, each
  message cut at :data:`REPORT_MESSAGE_CHARS` characters, with the count of
  those left out.

``docs/protocol.md`` ("Studio") describes the messages.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import resource
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Final

import anyio
import anyio.abc
from starlette.websockets import WebSocket, WebSocketDisconnect

from miau.packs import PackIssue
from miau.play.problems import problems_json
from miau.play.studio_levels import (
    STUDIO_MAX_EXPANSIONS,
    LoadedLevel,
    level_spec,
)
from miau.play.studio_levels import (
    load_one_level as _load_one_level,
)
from miau.play.studio_levels import (
    refusal as _refusal,
)
from miau.play.studio_suggest import SuggestOptions, suggest_options
from miau.server.helper_process import HelperProcess, HelperProcessStopped
from miau.server.limits import DropCounter, TokenBucket
from miau.server.studio_worker import JobKind, run_job
from miau.solver.levels import LevelSpec

__all__ = [
    "MAX_JOB_ID_LENGTH",
    "STUDIO_JOB_MEMORY_BYTES",
    "STUDIO_JOB_SECONDS",
    "STUDIO_MAX_EXPANSIONS",
    "STUDIO_MAX_FRAME_BYTES",
    "STUDIO_WORKERS",
    "CancelJob",
    "PackLoaderProcess",
    "StartJob",
    "StudioError",
    "StudioErrorCode",
    "StudioJobs",
    "level_spec",
    "parse_studio_message",
]

logger = logging.getLogger(__name__)

STUDIO_MAX_FRAME_BYTES: Final = 256 * 1024
"""The largest studio frame the server reads, in bytes of UTF-8."""

STUDIO_WORKERS: Final = max(1, (os.cpu_count() or 1) - 1)
"""Worker processes at once, server-wide: one core is left for the game itself."""

STUDIO_JOB_SECONDS: Final = 120.0

STUDIO_NICENESS: Final = 10
"""How much lower than the server the loader process and the workers run (``nice``)."""

STUDIO_JOB_MEMORY_BYTES: Final = 2 * 1024**3
"""The address space a worker may use (2 GiB): a full 2,000,000-state search fits well inside."""
"""A job still running after this long is killed."""

KILL_GRACE_SECONDS: Final = 0.5
"""How long a terminated worker has to exit before it is killed outright."""

MAX_JOB_ID_LENGTH: Final = 40

STUDIO_FRAMES_PER_SECOND: Final = 2.0
"""Studio frames a connection may send a second, sustained: an author asks for a solve or
a check every few seconds at most."""

STUDIO_BURST: Final = 10


STUDIO_SHARED_SLICE: Final = 15.0
"""Seconds a job runs before it gives its worker up to a job that waits for one (the waiting
job's author gets an answer in about this long, whatever runs before it)."""

STUDIO_JOBS_PER_OWNER: Final = 1
"""Jobs (running or waiting for a worker) one player, or one address, may have at once."""

STUDIO_FLOOD_CLOSE: Final = 100
"""Frames the rate limit may drop within a second before the connection is closed (1008)."""


class StudioErrorCode(StrEnum):
    """Why a studio frame or job got an ``error`` reply."""

    BAD_JSON = "bad-json"
    BAD_MESSAGE = "bad-message"
    BUSY = "busy"
    TOO_LARGE = "too-large"
    FAILED = "failed"
    RATE_LIMITED = "rate-limited"


class StudioError(Exception):
    """A frame the server will not act on, or a job that failed; carries the error reply."""

    def __init__(self, code: StudioErrorCode, message: str, job: str | None = None) -> None:
        """An error of kind ``code`` with a plain-words ``message``, about job ``job``."""
        super().__init__(message)
        self.code = code
        self.message = message
        self.job = job

    def reply(self) -> dict[str, Any]:
        """The ``error`` frame for this error."""
        return {"type": "error", "job": self.job, "code": self.code.value, "message": self.message}


@dataclass(frozen=True, slots=True)
class StartJob:
    """A job request: its kind and id, the one-level pack, the budget asked for.

    ``suggest`` is a ``suggest`` job's own budget (None for the other kinds).
    """

    kind: JobKind
    job: str
    pack: dict[str, Any]
    max_expansions: int | None = None
    suggest: SuggestOptions | None = None


@dataclass(frozen=True, slots=True)
class CancelJob:
    """A ``cancel`` request."""

    job: str


def parse_studio_message(text: str | bytes | None) -> StartJob | CancelJob:
    """Read one client frame of the studio protocol.

    :raises StudioError: for a frame that is too large, not JSON, not an
        object, of an unknown type, or with fields of the wrong type.
    """
    if not isinstance(text, str):
        raise StudioError(StudioErrorCode.BAD_MESSAGE, "Send JSON as text frames, not binary ones.")
    # A character is at most 4 bytes of UTF-8: encode only when the length alone cannot tell.
    if len(text) > STUDIO_MAX_FRAME_BYTES or (
        len(text) * 4 > STUDIO_MAX_FRAME_BYTES
        and len(text.encode("utf-8")) > STUDIO_MAX_FRAME_BYTES
    ):
        raise StudioError(
            StudioErrorCode.TOO_LARGE,
            f"A studio message may be at most {STUDIO_MAX_FRAME_BYTES} bytes long.",
        )
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise StudioError(
            StudioErrorCode.BAD_JSON, f"That message is not JSON ({error})."
        ) from None
    if not isinstance(message, dict):
        raise StudioError(StudioErrorCode.BAD_MESSAGE, "A message must be a JSON object.")
    raw_job = message.get("job")
    # The id is echoed on the error only when it is one the client could have meant.
    job = raw_job if isinstance(raw_job, str) and 0 < len(raw_job) <= MAX_JOB_ID_LENGTH else None
    kind = message.get("type")
    if kind not in ("solve", "check", "depth", "suggest", "cancel"):
        shown = f"{kind[:40]!r}" if isinstance(kind, str) else "missing"
        raise StudioError(
            StudioErrorCode.BAD_MESSAGE,
            f"Unknown message type ({shown}); the types are "
            '"solve", "check", "depth", "suggest" and "cancel".',
            job,
        )
    if job is None:
        raise StudioError(
            StudioErrorCode.BAD_MESSAGE,
            f'A {kind} needs a "job": a string of 1 to {MAX_JOB_ID_LENGTH} characters.',
        )
    if kind == "cancel":
        return CancelJob(job)
    pack = message.get("pack")
    if not isinstance(pack, dict):
        raise StudioError(
            StudioErrorCode.BAD_MESSAGE, f'A {kind} needs a "pack": a one-level pack object.', job
        )
    if kind == "suggest":
        return StartJob("suggest", job, pack, suggest=_suggest_options(message, job))
    # A check takes the Solve tab's cap as a solve does, so its LIMIT can be raised.
    budget = message.get("max")
    if budget is not None and (
        not isinstance(budget, int) or isinstance(budget, bool) or budget < 1
    ):
        raise StudioError(
            StudioErrorCode.BAD_MESSAGE, '"max" must be a positive whole number or null.', job
        )
    job_kind: JobKind = "solve" if kind == "solve" else "depth" if kind == "depth" else "check"
    return StartJob(job_kind, job, pack, budget)


def _suggest_options(message: dict[str, Any], job: str) -> SuggestOptions:
    """A ``suggest``'s options (see ``miau.play.studio_suggest``).

    :raises StudioError: ``bad-message`` for a value of the wrong type or out of range.
    """
    try:
        return suggest_options(message)
    except ValueError as error:
        raise StudioError(StudioErrorCode.BAD_MESSAGE, str(error), job) from None


class PackLoaderProcess:
    """One spawned process, shared by the server's studio, where the loader reads job packs.

    The loader is pure Python: a big or broken pack read in a thread of the
    server would hold the interpreter lock, and so every player's replies,
    for as long as it takes. Here it costs the server only the pipe. Jobs
    take turns at the process. A process that dies (out of memory, killed)
    is replaced for the next job, the job it held answered ``failed``; one
    whose job was abandoned midway is killed, so no stale answer is read;
    one whose server died sees its pipe close and ends.
    """

    def __init__(self, memory_bytes: int | None = STUDIO_JOB_MEMORY_BYTES) -> None:
        """No process yet: it starts with the first job; its address space is capped."""
        self.memory_bytes = memory_bytes
        self._helper = HelperProcess(_serve_loads, (memory_bytes,), "miau-studio-loader")

    def pid(self) -> int | None:
        """The loader process's id while it runs (for tests and diagnostics)."""
        return self._helper.pid()

    async def load(self, document: dict[str, Any]) -> LoadedLevel:
        """The job pack ``document`` as the loader reads it, read in the loader process.

        :raises StudioError: ``failed`` when the process died on it.
        """
        try:
            loaded: LoadedLevel = await self._helper.ask(document)
        except HelperProcessStopped:
            raise StudioError(
                StudioErrorCode.FAILED,
                "The pack could not be read: the loader ran out of memory or was stopped.",
            ) from None
        return loaded

    def close(self) -> None:
        """Kill the process; a later job starts a new one."""
        self._helper.close()


def _serve_loads(pipe: Connection, memory_bytes: int | None) -> None:
    """The loader process: read each pack sent down ``pipe`` and send back what it is."""
    _cap_memory(memory_bytes)
    # Behind the game on a busy machine: a player's reply waits for no pack.
    os.nice(STUDIO_NICENESS)
    while True:
        try:
            document = pipe.recv()
        except (EOFError, OSError):
            return  # the server is gone
        try:
            pipe.send(_load_one_level(document))
        except MemoryError:
            return  # the server answers the job failed and starts another process
        except OSError:
            return


def _cap_memory(memory_bytes: int | None) -> None:
    """Cap the loader process's address space (its initializer)."""
    if memory_bytes is not None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


@dataclass(eq=False)
class _Job:
    """One job of one connection, from its request until its worker is gone."""

    request: StartJob
    spec: LevelSpec
    budget: int
    issues: tuple[PackIssue, ...]
    """The loader's warnings about the pack, sent back with a check's report."""
    left_out: int
    """How many more warnings the loader found than ``issues`` lists."""
    owners: tuple[tuple[str, str], ...] = ()
    """Who the job counts against (``StudioJobs.claim``)."""
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    finished: anyio.Event = field(default_factory=anyio.Event)


class StudioJobs:
    """The studio of one server: the worker slots, the live workers, and each connection's job.

    ``workers``, ``job_seconds``, ``memory_bytes`` and ``kill_grace``
    default to :data:`STUDIO_WORKERS`, :data:`STUDIO_JOB_SECONDS`,
    :data:`STUDIO_JOB_MEMORY_BYTES` and :data:`KILL_GRACE_SECONDS`; tests
    make them smaller. ``send_timeout``
    is how long a frame may wait for a client that does not read.
    ``frames_per_second`` and ``burst`` make each connection's token bucket
    (None: no rate limit); ``jobs_per_owner`` is how many jobs one player,
    or one address, may have at once (None: any number); a job that has run
    ``shared_slice`` seconds while another waits for a worker is stopped
    (answered ``failed``, saying why) so the waiting one starts; ``clock`` is
    injectable for tests.
    """

    def __init__(
        self,
        *,
        workers: int = STUDIO_WORKERS,
        job_seconds: float = STUDIO_JOB_SECONDS,
        memory_bytes: int | None = STUDIO_JOB_MEMORY_BYTES,
        kill_grace: float = KILL_GRACE_SECONDS,
        send_timeout: float = 10.0,
        frames_per_second: float | None = STUDIO_FRAMES_PER_SECOND,
        burst: int = STUDIO_BURST,
        jobs_per_owner: int | None = STUDIO_JOBS_PER_OWNER,
        shared_slice: float = STUDIO_SHARED_SLICE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """A studio with ``workers`` slots and no job yet."""
        if workers < 1:
            raise ValueError("a studio needs at least one worker slot")
        self.frames_per_second = frames_per_second
        self.burst = burst
        self.jobs_per_owner = jobs_per_owner
        self.shared_slice = shared_slice
        self._waiting = 0
        """Jobs waiting for a worker slot now."""
        self.clock = clock
        self.loader = PackLoaderProcess(memory_bytes)
        self.workers = workers
        self.job_seconds = job_seconds
        self.memory_bytes = memory_bytes
        self.kill_grace = kill_grace
        self.send_timeout = send_timeout
        self._slots = anyio.Semaphore(workers)
        self._processes: set[BaseProcess] = set()
        """Every started worker not yet reaped."""
        self._stopping: dict[BaseProcess, anyio.Event] = {}
        """Workers being stopped now, and the event set when each is reaped."""
        self._context = multiprocessing.get_context("spawn")
        self._jobs_of: Counter[tuple[str, str]] = Counter()
        """Jobs running or waiting, by owner: ``("player", token)`` and ``("address", host)``."""

    def owners_of(self, websocket: WebSocket) -> tuple[tuple[str, str], ...]:
        """Who a connection's jobs count against: its player and its address."""
        client = websocket.scope.get("client")
        address = str(client[0]) if client else "?"
        player = str(websocket.scope.get("miau.player", ""))
        return (("address", address),) + ((("player", player),) if player else ())

    def claim(self, owners: tuple[tuple[str, str], ...]) -> bool:
        """Count one more job for ``owners`` if none has its share yet; whether it was counted."""
        cap = self.jobs_per_owner
        if cap is not None and any(self._jobs_of[owner] >= cap for owner in owners):
            return False
        for owner in owners:
            self._jobs_of[owner] += 1
        return True

    def release(self, owners: tuple[tuple[str, str], ...]) -> None:
        """Count a finished job out."""
        for owner in owners:
            self._jobs_of[owner] -= 1
            if self._jobs_of[owner] <= 0:
                del self._jobs_of[owner]

    def worker_pids(self) -> list[int]:
        """The process ids of the workers alive now (for tests and diagnostics)."""
        return [p.pid for p in self._processes if p.pid is not None and p.is_alive()]

    async def serve(self, websocket: WebSocket) -> None:
        """Run one studio connection until the client leaves; its job dies with it.

        The caller has already checked the origin.
        """
        await websocket.accept()
        connection = _Connection(self, websocket)
        try:
            async with anyio.create_task_group() as tasks:
                connection.tasks = tasks
                try:
                    await connection.receive_frames()
                finally:
                    # The socket is gone: cancelling the job's task kills its worker.
                    tasks.cancel_scope.cancel()
        except WebSocketDisconnect:
            return

    async def close(self) -> None:
        """Kill every worker still alive (the server is shutting down)."""
        with anyio.CancelScope(shield=True):
            self.loader.close()
            for process in list(self._processes):
                await self._stop(process, polite=False)

    async def _run(self, job: _Job, connection: _Connection) -> dict[str, Any]:
        """Run ``job`` in a worker process once a slot is free; its last frame.

        The worker is gone and the slot free when this returns or is cancelled.
        """
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            return await self._run_in_slot(job, connection)
        finally:
            self._slots.release()

    async def _run_in_slot(self, job: _Job, connection: _Connection) -> dict[str, Any]:
        """:meth:`_run` once the job holds a worker slot."""
        request = job.request
        reader, writer = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=run_job,
            args=(
                request.kind,
                job.spec,
                job.budget,
                writer,
                self.memory_bytes,
                STUDIO_NICENESS,
                request.suggest,
                # A suggest's time budget counts from here: the worker's start-up is part of it.
                time.monotonic(),
            ),
            name=f"miau-studio-{request.kind}",
            daemon=True,
        )
        answered = started = registered = False

        def start() -> None:
            nonlocal started
            process.start()
            started = True

        try:
            # Starting writes the pickled level into the new interpreter's pipe,
            # which can wait for it to start reading: not on the event loop. A cancel
            # waits for the thread, so ``started`` is known in ``finally``.
            await anyio.to_thread.run_sync(start)
            self._processes.add(process)
            registered = True
            # Only the worker may hold the writing end, so its death reads as end of file.
            writer.close()
            yielded = False
            with anyio.move_on_after(self.job_seconds):
                async with anyio.create_task_group() as running:

                    async def share() -> None:
                        nonlocal yielded
                        began = self.clock()
                        while not (self._waiting and self.clock() - began >= self.shared_slice):
                            await anyio.sleep(0.25)
                        yielded = True
                        running.cancel_scope.cancel()

                    running.start_soon(share)
                    last = await self._pump(job, reader, connection)
                    answered = True
                    running.cancel_scope.cancel()
            if yielded and not answered:
                last = StudioError(
                    StudioErrorCode.FAILED,
                    f"The {request.kind} job was stopped after {self.shared_slice:g} "
                    "seconds so that another author's job could run (the server's "
                    "workers are shared); start it again, or try a smaller max.",
                    request.job,
                ).reply()
            elif not answered:
                last = StudioError(
                    StudioErrorCode.FAILED,
                    f"The {request.kind} job ran for more than {self.job_seconds:g} "
                    "seconds and was stopped; try a smaller max.",
                    request.job,
                ).reply()
        finally:
            with anyio.CancelScope(shield=True):
                if started and not registered:
                    self._processes.add(process)  # cancelled as it started
                # A worker that answered is on its way out: give it the grace period.
                await self._stop(process, polite=answered)
                writer.close()
                reader.close()
        return last

    async def _pump(self, job: _Job, reader: Connection, connection: _Connection) -> dict[str, Any]:
        """Relay the worker's messages until its answer; that answer as a frame."""
        name = job.request.job
        while True:
            await anyio.wait_readable(reader.fileno())
            try:
                # Readable means a message has begun; its remaining bytes follow at once.
                message = reader.recv()
            except (EOFError, OSError):
                return StudioError(
                    StudioErrorCode.FAILED,
                    f"The {job.request.kind} job's worker stopped without an answer "
                    "(it may have run out of memory).",
                    name,
                ).reply()
            match message:
                case ("started", int()):
                    await connection.send({"type": "started", "job": name})
                case ("progress", expanded, depth, seen, rate, seconds):
                    await connection.send(
                        {
                            "type": "progress",
                            "job": name,
                            "expanded": expanded,
                            "depth": depth,
                            "seen": seen,
                            "rate": rate,
                            "seconds": round(seconds, 2),
                        }
                    )
                case ("generating", candidates, solved, best_depth, seconds):
                    await connection.send(
                        {
                            "type": "progress",
                            "job": name,
                            "candidates": candidates,
                            "solved": solved,
                            "bestDepth": best_depth,
                            "seconds": round(seconds, 2),
                        }
                    )
                case ("solved", dict() as result):
                    return {"type": "solved", "job": name, "result": result}
                case ("profiled", dict() as profile):
                    return {"type": "profiled", "job": name, "profile": profile}
                case ("variation", dict() as variation):
                    await connection.send(
                        {"type": "variation", "job": name, "variation": variation}
                    )
                case ("suggested", dict() as suggestion):
                    return {"type": "suggested", "job": name, **suggestion}
                case ("checked", dict() as report):
                    return {
                        "type": "checked",
                        "job": name,
                        "report": _report(job.issues, job.left_out, report),
                    }
                case ("failed", str() as sentence):
                    return StudioError(StudioErrorCode.FAILED, sentence, name).reply()
                case _:
                    logger.warning("studio worker sent an unknown message: %.200r", message)

    async def _stop(self, process: BaseProcess, *, polite: bool) -> None:
        """End ``process`` and reap it: let it exit (when ``polite``), terminate, then kill.

        The job's own task and the server's shutdown may both stop one worker:
        the second waits for the first. A worker already reaped is left alone.
        """
        stopping = self._stopping.get(process)
        if stopping is not None:
            await stopping.wait()
            return
        if process not in self._processes:
            return  # never started, or already reaped
        stopping = self._stopping[process] = anyio.Event()
        try:
            sentinel = process.sentinel
            if polite:
                with anyio.move_on_after(self.kill_grace):
                    await anyio.wait_readable(sentinel)
            if process.exitcode is None:
                process.terminate()
                with anyio.move_on_after(self.kill_grace):
                    await anyio.wait_readable(sentinel)
            if process.exitcode is None:
                process.kill()
                await anyio.to_thread.run_sync(process.join)
            process.join()
            process.close()
        finally:
            self._processes.discard(process)
            del self._stopping[process]
            stopping.set()


class _Connection:
    """One studio socket: its frames, its one job, and the frames sent back."""

    def __init__(self, studio: StudioJobs, websocket: WebSocket) -> None:
        self.studio = studio
        self.websocket = websocket
        self.tasks: anyio.abc.TaskGroup | None = None
        self.job: _Job | None = None
        self.closed = False
        rate = studio.frames_per_second
        self.bucket = None if rate is None else TokenBucket(rate, studio.burst, studio.clock)
        self.drops = DropCounter(studio.clock)
        # Progress from the job's task and replies from the reading loop share the socket.
        self._sending = anyio.Lock()

    async def receive_frames(self) -> None:
        """Read and act on frames until the client leaves or stops reading."""
        while not self.closed:
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            try:
                if self.bucket is not None and not self.bucket.take():
                    self.drops.count()
                    if self.drops.in_the_last_second >= STUDIO_FLOOD_CLOSE:
                        # Past its limit for good: every answer would cost the server more.
                        await self.websocket.close(code=1008, reason="too many messages")
                        self.closed = True
                        return
                    raise StudioError(
                        StudioErrorCode.RATE_LIMITED,
                        f"Too many messages: at most {self.bucket.rate:g} a second "
                        f"(bursts of {self.studio.burst}); this one was dropped.",
                    )
                request = parse_studio_message(text if text is not None else message.get("bytes"))
                if isinstance(request, CancelJob):
                    await self.cancel(request)
                else:
                    await self.start(request)
            except StudioError as error:
                await self.send(error.reply())

    async def start(self, request: StartJob) -> None:
        """Load the job's pack and queue the job, or answer at once when the pack is refused.

        :raises StudioError: ``busy`` while a job runs; ``bad-message`` for a
            solve whose pack the loader refuses.
        """
        if self.job is not None:
            raise StudioError(
                StudioErrorCode.BUSY,
                f"Job {self.job.request.job!r} is still running: "
                "wait for its answer or cancel it first.",
                request.job,
            )
        # A big pack takes the loader a noticeable moment: not in this process.
        try:
            loaded = await self.studio.loader.load(request.pack)
        except StudioError as error:
            error.job = request.job
            raise
        spec = loaded.spec
        if spec is None:
            if request.kind == "check":
                report = _report(loaded.issues, loaded.left_out, None)
                await self.send({"type": "checked", "job": request.job, "report": report})
                return
            raise StudioError(
                StudioErrorCode.BAD_MESSAGE,
                _refusal(loaded.issues, loaded.left_out),
                request.job,
            )
        budget = min(spec.budget(request.max_expansions), STUDIO_MAX_EXPANSIONS)
        owners = self.studio.owners_of(self.websocket)
        if not self.studio.claim(owners):
            raise StudioError(
                StudioErrorCode.BUSY,
                "You have a job running in another page: wait for its answer or cancel it "
                "first (one job at a time for each player and each address).",
                request.job,
            )
        job = _Job(request, spec, budget, loaded.issues, loaded.left_out, owners)
        self.job = job
        assert self.tasks is not None  # set by StudioJobs.serve before any frame is read
        self.tasks.start_soon(self._run_job, job)

    async def cancel(self, request: CancelJob) -> None:
        """Cancel the running job: its worker is gone and its slot free before ``cancelled``.

        :raises StudioError: ``bad-message`` when no job of that id is running.
        """
        job = self.job
        if job is None or job.request.job != request.job:
            raise StudioError(
                StudioErrorCode.BAD_MESSAGE,
                f"There is no job {request.job!r} running to cancel.",
                request.job,
            )
        job.scope.cancel()
        await job.finished.wait()
        await self.send({"type": "cancelled", "job": request.job})

    async def _run_job(self, job: _Job) -> None:
        """The job's task: run it, forget it, then send its answer (none when cancelled)."""
        last: dict[str, Any] | None = None
        try:
            with job.scope:
                last = await self.studio._run(job, self)
        except Exception:
            logger.exception("studio job %r failed", job.request.job)
            last = StudioError(
                StudioErrorCode.FAILED,
                f"The {job.request.kind} job failed on the server.",
                job.request.job,
            ).reply()
        finally:
            # Forgotten before the answer goes out, so the client may start the next job
            # as soon as it reads it.
            if self.job is job:
                self.job = None
            self.studio.release(job.owners)
            job.finished.set()
        if last is not None:
            await self.send(last)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame; a client that is gone or stops reading ends the connection."""
        if self.closed:
            return
        async with self._sending:
            with anyio.move_on_after(self.studio.send_timeout) as waiting:
                try:
                    await self.websocket.send_text(json.dumps(frame, separators=(",", ":")))
                except (WebSocketDisconnect, RuntimeError, OSError):
                    self.closed = True
            if waiting.cancelled_caught:
                logger.info("studio: the client stopped reading; closed")
                self.closed = True
        if self.closed and self.tasks is not None:
            self.tasks.cancel_scope.cancel()


def _report(issues: Sequence[PackIssue], left_out: int, level: Any) -> dict[str, Any]:
    """A check's report: the problems listed, how many more there were, the level's report."""
    report: dict[str, Any] = {"problems": problems_json(issues), "level": level}
    if left_out:
        report["moreProblems"] = left_out
    return report
